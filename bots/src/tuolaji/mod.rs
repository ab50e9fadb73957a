//! The Tuolaji bot: plays from its seat's view (the one a human client gets) and what it
//! saw happen, never from hidden state; every rule comes from `qipai_games::tuolaji`.
//!
//! - [`read`]: the view's notation read into the engine's types.
//! - [`table`]: the wire glue the WebSocket client needs ([`TuolajiTable`], [`SeatView`]).
//! - [`hint`]: the view's hint rebuilt from the view, and [`HintStrategy`], which plays it.

pub mod hint;
pub mod read;
pub mod table;

pub use hint::HintStrategy;
pub use table::{SeatView, TuolajiTable};
