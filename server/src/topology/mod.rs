//! One node or several: where rooms live and how a player reaches them.

pub mod cluster;
pub mod forward;
