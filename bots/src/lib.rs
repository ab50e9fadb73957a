//! qipai's bots: strategies that play from a seat's view, and a WebSocket client that seats
//! them at a server like any other player.
//!
//! A strategy sees exactly what a human client sees for its seat and answers with an action;
//! every rule comes from `qipai_games`. The client is the same for every game; what differs
//! per game sits behind [`Table`].
//!
//! - [`strategy`]: the [`Strategy`] trait, [`Strength`] and the clock budget.
//! - [`table`]: the per-game glue the client needs ([`Table`], [`Ending`], [`Verdict`]).
//! - [`client`]: the WebSocket bot client: hello, quick play, follow events, think off the
//!   async task, move, until the game is over; N games in a row.
//! - [`entry_code`]: a competition entrant's table and seat from their entry code, for a
//!   bot that sits there in their place (a rehearsal).
//! - [`memory`]: an in-memory WebSocket, for bots the server seats itself.
//! - [`xiangqi`]: the xiangqi bot ([`XiangqiBot`]: alpha-beta search) and its table glue.
//! - [`tuolaji`]: the Tuolaji bots ([`TuolajiBot`], [`HintStrategy`]) and their table glue
//!   ([`TuolajiTable`]).
//! - [`draughts`]: the draughts bot ([`DraughtsBot`]: alpha-beta search).
//! - [`draw_offer`]: when a duel bot accepts a draw offered to it.
//! - [`games`]: the one list of games `qipai-bot` plays, with each game's strategy.
//! - [`observe`]: hooks for tools driving many bots (the load test): traffic and pace.
//! - [`random`]: a player that picks uniformly among the legal moves (the benchmark's foil).

pub mod client;
pub mod draughts;
pub mod draw_offer;
pub mod entry_code;
pub mod games;
pub mod memory;
pub mod observe;
pub mod random;
pub mod strategy;
pub mod table;
pub mod tuolaji;
pub mod xiangqi;

pub use draughts::table::DraughtsTable;
pub use draughts::DraughtsBot;
pub use strategy::{clock_budget, seat_seed, ClockState, Strategy, Strength};
pub use table::{Ending, Table, Verdict};
pub use tuolaji::{HintStrategy, SeatView, TuolajiBot, TuolajiTable};
pub use xiangqi::table::XiangqiTable;
pub use xiangqi::XiangqiBot;
