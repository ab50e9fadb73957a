//! qipai's load test: drives many bot clients over real WebSockets through the normal
//! protocol (hello, quick play, whole games, leave) and measures what a player feels and
//! what the server pays.
//!
//! - [`options`]: the command line ([`Options`], [`GameMix`], [`ThinkTime`]).
//! - [`probe`]: the hook in each bot client ([`probe::ClientProbe`]) and the per-room
//!   matching of an action to the moment every other seat has its event ([`probe::Rooms`]).
//! - [`stats`]: shared counters and HDR histograms ([`stats::Stats`]).
//! - [`procfs`]: a process's RSS and CPU seconds from `/proc`.
//! - [`spawn`]: starting `qipai-server` as a child process (`--spawn-server`).
//! - [`drive`]: the run itself: ramp up the tables, warm up, measure, report ([`run`]).
//! - [`attack`]: a hostile client beside the reference load (`--attack KIND`).
//! - [`idle`]: connections that only say `hello` and wait, for memory per idle connection.
//! - [`server_metrics`]: the server's own histograms over the window, from `/metrics`.
//! - [`report`]: the figures, as a human table and one JSON line ([`Report`]).

pub mod attack;
pub mod drive;
pub mod idle;
pub mod options;
pub mod probe;
pub mod procfs;
pub mod report;
pub mod server_metrics;
pub mod spawn;
pub mod stats;

pub use attack::{run_attack, AttackKind};
pub use drive::run;
pub use idle::run_idle;
pub use options::{GameMix, Options, ThinkTime};
pub use report::{IdleReport, Report};

/// Why a load test could not run.
#[derive(Debug, thiserror::Error)]
pub enum LoadtestError {
    #[error("The target must be a loopback address (127.0.0.1 or localhost), not {0}.")]
    NotLoopback(String),
    #[error("The server could not be started from {path}: {source}")]
    Spawn {
        path: String,
        source: std::io::Error,
    },
    #[error("The server did not start listening within {0} s.")]
    NotListening(u64),
    #[error("No free port for the server: {0}")]
    Port(std::io::Error),
    #[error("A histogram could not be made: {0}")]
    Histogram(String),
}
