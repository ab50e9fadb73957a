//! Clock placeholder
