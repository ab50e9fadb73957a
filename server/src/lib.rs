//! qipai's authoritative game server.
//!
//! Bytes to rooms, one layer at a time; a folder uses its own files and the folders listed
//! after it, never one listed before it (docs/server-layout.md; `scripts/module-graph.sh`
//! checks it):
//! - [`app`]: the composition root: builds every part once and hands each what it needs.
//! - [`gateway`]: accepting TCP, HTTP (`/healthz`, `/metrics`, the page, the games'
//!   catalogue, the records' API) and `/ws`: one WebSocket, its player, caps and rate limits.
//! - [`accounts`]: registered players: sign-up, sign-in, sessions, names nobody else takes.
//! - [`competition`]: competitions: directors, the HTTP API, rounds.
//! - [`topology`]: one node or several (on Redis and PostgreSQL: directory, leases,
//!   forwarding, takeovers), behind one trait.
//! - [`lobby`]: the registry of rooms and quick play; players across connections and their
//!   resume tokens.
//! - [`seat_bots`]: the server's own bots, seated over in-memory connections.
//! - [`persist`]: the durable store: write-ahead logs, recovery after a restart.
//! - [`room`]: one actor per room, generic over the games' [`qipai_games::Game`] trait.
//! - [`base`]: the configuration, the counters of `/metrics`, budgets, the server's time line,
//!   player names, token buckets, the shutdown signal.

pub mod accounts;
pub mod app;
pub mod base;
pub mod competition;
pub mod gateway;
pub mod lobby;
pub mod persist;
pub mod room;
pub mod seat_bots;
pub mod topology;

pub use base::config::Config;
pub use base::shutdown;
pub use gateway::listener::{bind, run, run_with_store};
