//! The Tuolaji bots: they play from their seat's view (the one a human client gets) and
//! what they saw happen, never from hidden state; every rule comes from
//! `qipai_games::tuolaji`.
//!
//! - [`read`]: the view's notation read into the engine's types.
//! - [`table`]: the wire glue the WebSocket client needs ([`TuolajiTable`], [`SeatView`]).
//! - [`hint`]: the view's hint rebuilt from the view, and [`HintStrategy`], which plays it.
//! - [`bot`]: [`TuolajiBot`], the strategy that plays to win, from:
//!   - [`memory`]: the cards seen played and the voids shown (记牌);
//!   - [`situation`]: what one decision knows, and what each card is worth keeping;
//!   - [`bidding`]: bids and naming the trump from a hand evaluation (第十条, 第八条2);
//!   - [`burying`]: the bottom exchange (第九条2);
//!   - [`leading`]: safe throws, sure winners, leads for the partner (第十一条1, 第六条5);
//!   - [`following`]: feeding, ruffing and discarding (第十一条2, 第十二条).
//! - [`level`]: the levels ([`LevelBot`]): beginner, casual, expert.
//! - [`random`]: [`RandomTuolaji`], uniformly random legal play (the benchmark's foil).
//! - [`arena`]: whole games in memory with four strategies (tests, benchmarks).

pub mod arena;
pub mod bidding;
pub mod bot;
pub mod burying;
pub mod following;
pub mod hint;
pub mod leading;
pub mod level;
pub mod memory;
pub mod random;
pub mod read;
pub mod situation;
pub mod table;

pub use bot::TuolajiBot;
pub use hint::HintStrategy;
pub use level::LevelBot;
pub use random::RandomTuolaji;
pub use table::{SeatView, TuolajiTable};
