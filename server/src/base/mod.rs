//! The lowest layer: what every other part of the server stands on and nothing of the
//! server above it — the configuration, the counters of `/metrics`, what clients may make the
//! server spend (descriptors included), the server's time line, the password-hashing pool,
//! player names, token buckets and the shutdown signal.

pub mod addr_key;
pub mod budget;
pub mod clock;
pub mod config;
pub mod forwarded;
pub mod hashing;
pub mod limiter;
pub mod metrics;
pub mod names;
pub mod ratelimit;
pub mod shutdown;
pub mod sockets;
