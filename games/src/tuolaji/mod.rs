//! Three-deck Tuolaji (三副牌拖拉机), as `rules/tuolaji.md` states it.
//!
//! The mechanics of one trick, each in its own file:
//! - [`order`]: trumps, card types and slots (第四条, 第五条).
//! - [`error`]: [`TuolajiError`], every refusal as a sentence naming the rule.

pub mod error;
pub mod order;

pub use error::TuolajiError;
pub use order::{CardType, Order};
