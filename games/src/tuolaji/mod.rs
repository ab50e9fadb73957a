//! Three-deck Tuolaji (三副牌拖拉机), as `rules/tuolaji.md` states it.
//!
//! The mechanics of one trick, each in its own file:
//! - [`order`]: trumps, card types and slots (第四条, 第五条).
//! - [`combination`]: units ([`Unit`], [`UnitKind`]), the canonical decomposition and
//!   declared throw structures (第六条).
//! - [`declare`]: valid splits of a throw, declarations that split a unit, and when the
//!   leader must declare (第十一条1).
//! - [`follow`]: `match()`, follow legality with explanations, suggested and candidate
//!   follows (第十一条2).
//! - [`throw`]: whether a throw is unbeatable, and the unit forced when it fails
//!   (第六条5, 第十六条).
//! - [`trick`]: a trick's winner with ruffs and over-ruffs, its points, the bottom
//!   multiplier (第十二条, 表1).
//! - [`error`]: [`TuolajiError`], every refusal as a sentence naming the rule.
//!
//! A hand and the game across hands:
//! - [`options`]: [`TuolajiOptions`] as a table asks for them, settled into
//!   [`TuolajiRules`], every timing and rule option of the page.
//! - [`deal`]: the seeded deal in draw order, 39 each and 6 for the bottom (第九条).
//! - [`bid`]: bids, strengthening and counter-bids for the trump suit (第十条).
//! - [`bottom`]: the dealer's bottom exchange (第九条2).
//! - [`scoring`]: the defenders' points and 表2's level change (第二十条).
//! - [`level`]: teams, levels, dealer rotation, a winner past A (第二条, 第八条).
//! - [`hand`]: one hand as a state machine ([`Hand`]): deal, bids, bottom, tricks, result.
//! - [`matchplay`]: a game across hands ([`Match`]), round results with the time limit.
//! - [`suggest`]: a fast legal action for whoever must act, candidate actions for bots.
//!
//! Online:
//! - [`game`]: [`TuolajiGame`], the table the server's room drives through the `Game` trait
//!   (the deal's pace, the bid window, turn timers, vacant seats, hands one after another).
//! - [`view`]: the wire forms of actions, events and results, and the per-seat view.
//! - [`ruling`]: [`TuolajiRuling`], a competition's lateness and round start at the table.
//! - [`fold`]: the one function that applies an event to a view (bots and the page use it).

pub mod bid;
pub mod bottom;
pub mod combination;
pub mod deal;
pub mod declare;
pub mod error;
pub mod fold;
pub mod follow;
pub mod game;
pub mod hand;
pub mod level;
pub mod matchplay;
pub mod options;
pub mod order;
pub mod ruling;
pub mod scoring;
mod shape;
pub mod suggest;
pub mod throw;
pub mod trick;
pub mod view;

pub use combination::{decompose, validate_decomposition, Unit, UnitKind};
pub use error::TuolajiError;
pub use follow::{candidate_follows, check_follow, suggest_follow};
pub use game::{hand_seed, TuolajiGame, TuolajiGameError, TuolajiSettings};
pub use hand::{Hand, HandAction, HandEvent, HandResult, Phase};
pub use matchplay::{Match, MatchOutcome};
pub use options::{TuolajiOptions, TuolajiRules, BOT_LEVELS};
pub use order::{CardType, Order};
pub use ruling::TuolajiRuling;
pub use throw::{check_throw, ThrowCheck};
pub use trick::{bottom_multiplier, Trick};
