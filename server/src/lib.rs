//! qipai's authoritative game server.
//!
//! Bytes to rooms, one layer at a time (docs/server-layout.md: the layers and the import
//! direction):
//! - [`app`]: the composition root: builds every part once and hands each what it needs.
//! - [`listener`]: accepts TCP, routes `/healthz` and the page ([`http`], [`static_files`])
//!   and `/ws`, caps connections.
//! - [`connection`]: one WebSocket: frame checks, rate limits, the writer task and its queue.
//! - [`player`]: a connection's player: `hello`, lobby requests, actions to the room.
//! - [`session`]: players across connections, resume tokens; [`names`]: what a player may be called.
//! - [`lobby`]: the registry of rooms and quick play.
//! - [`room`]: one actor per room, generic over the games' [`qipai_games::Game`] trait.
//! - [`seat_bots`]: the server's own bots, seated over in-memory connections.
//! - [`catalogue`]: `GET /api/games`, the games with their seats, presets and bot levels.
//! - [`metrics`]: counters for `GET /metrics`; [`budget`]: what clients may make it spend;
//!   [`forwarded`]: the client's address behind a trusted reverse proxy.
//! - [`competition`]: competitions: directors, the HTTP API, rounds.
//! - [`persist`]: the durable store: write-ahead logs, recovery after a restart.
//! - [`topology`]: one node or several (on Redis and PostgreSQL: directory, leases,
//!   forwarding, takeovers), behind one trait.
//! - [`clock`]: the server's time line; [`ratelimit`]: token buckets; [`shutdown`];
//!   [`config`]: `config/default.toml` and its environment overrides.

pub mod app;
pub mod budget;
pub mod catalogue;
pub mod clock;
pub mod competition;
pub mod config;
pub mod connection;
pub mod forwarded;
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
pub mod topology;

pub use config::Config;
pub use listener::{bind, run, run_with_store};
