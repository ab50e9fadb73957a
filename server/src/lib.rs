//! qipai's authoritative game server.
//!
//! Bytes to rooms, one layer at a time:
//! - [`listener`]: accepts TCP, routes `/healthz` and the page ([`http`], [`static_files`])
//!   and `/ws`, caps connections.
//! - [`connection`]: one WebSocket: frame checks, rate limits, the writer task and its queue.
//! - [`player`]: a connection's player: `hello`, lobby requests, actions to the room.
//! - [`session`]: players across connections, resume tokens; [`names`]: what a player may be called.
//! - [`lobby`]: the registry of rooms and quick play.
//! - [`room`]: one actor per room, generic over the games' [`qipai_games::Game`] trait.
//! - [`seat_bots`]: the server's own bots, seated over in-memory connections.
//! - [`catalogue`]: `GET /api/games`, the games with their seats, presets and bot levels.
//! - [`metrics`]: counters for `GET /metrics`; [`budget`]: what clients may make it spend.
//! - [`competition`]: competitions (issue 15): directors, the HTTP API, rounds.
//! - [`persist`]: the durable store: write-ahead logs, recovery after a restart.
//! - [`cluster`]: several nodes on Redis and PostgreSQL: directory, leases, forwarding,
//!   takeovers.
//! - [`clock`]: the server's time line; [`ratelimit`]: token buckets; [`shutdown`];
//!   [`config`]: `config/default.toml` and its environment overrides.

pub mod budget;
pub mod catalogue;
pub mod clock;
pub mod cluster;
pub mod competition;
pub mod config;
pub mod connection;
pub mod http;
pub mod listener;
pub mod lobby;
pub mod metrics;
pub mod names;
pub mod persist;
pub mod player;
pub mod ratelimit;
pub mod room;
pub mod seat_bots;
pub mod session;
pub mod shutdown;
pub mod static_files;

use std::sync::Arc;

pub use config::Config;
pub use listener::{bind, run, run_with_store};

/// What every connection shares.
pub struct Shared {
    pub config: Arc<Config>,
    pub clock: clock::ServerClock,
    pub lobby: lobby::Lobby,
    pub sessions: Arc<session::Sessions>,
    pub metrics: Arc<metrics::Metrics>,
    pub budget: Arc<budget::Budget>,
    pub shutdown: shutdown::Shutdown,
    /// The durable store, when one is configured.
    pub persist: Option<persist::Persist>,
    /// Competitions and their directors.
    pub competitions: competition::Competitions,
    /// Several nodes (issue 17), when `[cluster]` is on.
    pub cluster: Option<Arc<cluster::Cluster>>,
}
