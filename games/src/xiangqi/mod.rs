//! Xiangqi (象棋): the board, legal moves, notation and how a game ends.
//!
//! Rules: `docs/rules/xiangqi.md`, from the 2011 competition rules (第1–10条).
//!
//! - [`board`]: points ([`Square`], ICCS coordinates), [`Side`], [`Kind`], [`Piece`], [`Board`].
//! - [`moves`]: [`Move`] (ICCS in and out) and the stack [`MoveList`].
//! - `tables` (private): per-point move tables computed at compile time.
//! - `movegen` (private): candidate moves, the check test probing out from the king, the
//!   legality filter (flying general included).
//! - `illegal` (private): the reason a refused move breaks the movement rules.
//! - [`position`]: [`Position`]: board + side to move + counters; legal moves, check,
//!   checked [`Position::play`], unchecked [`Position::make`]/[`Position::unmake`], perft.
//! - [`notation`]: FEN ([`notation::fen`]) and Chinese move notation ([`notation::chinese()`]).
//! - [`pgn`]: a finished game as PGN with ICCS movetext ([`pgn::write`]).
//! - [`chase`]: which pieces a move chases, and perpetual chase over a cycle (长捉, 4.1.7).
//! - [`end`]: [`History`] of a game, [`EndRules`], [`Outcome`] and [`EndReason`] (第4条).
//! - [`error`]: [`XiangqiError`], every refusal with its wire code.
//! - [`options`]: [`XiangqiOptions`] checked and resolved into [`XiangqiSettings`].
//! - [`game`]: [`XiangqiGame`], the timed game the server's room drives (clock, resignation,
//!   draw offers), through the [`crate::Game`] trait.
//! - [`view`]: [`view::fold`], the one function that applies an event to a view.

pub mod board;
pub mod chase;
pub mod end;
pub mod error;
pub mod game;
mod illegal;
mod movegen;
pub mod moves;
pub mod notation;
pub mod options;
pub mod pgn;
pub mod position;
pub mod ruling;
mod tables;
pub mod view;

pub use board::{Board, Kind, Piece, Side, Square};
pub use end::{EndReason, EndRules, History, Outcome, PlayedMove};
pub use error::XiangqiError;
pub use game::{XiangqiGame, XiangqiGameError, XiangqiSettings};
pub use moves::{Move, MoveList};
pub use options::{XiangqiOptions, BOT_LEVELS};
pub use position::{Position, Undo, START_FEN};
pub use ruling::XiangqiRuling;
