//! International draughts (国际跳棋, 10×10): the board, legal moves, notation and how a game
//! ends.
//!
//! Rules: `docs/rules/draughts.md`, from the FMJD rules (第五条 11–14, 第六条, 第七条).
//!
//! - [`board`]: [`Square`] (1–50), [`Side`], [`Kind`], [`Board`] as bitboards with ghost squares.
//! - [`moves`]: [`Move`] and the numeric notation (`32-28`, `28x19x8`).
//! - `movegen` (private): plain moves, captures (Turkish strike, flying kings), majority.
//! - [`position`]: [`Position`]: board + side to move; legal moves, checked moves with the
//!   reason for a refusal, perft.
//! - `fen` (private): PDN FEN in and out ([`Position::from_fen`], [`Position::to_fen`]).
//! - [`error`]: [`DraughtsError`], every refusal with its wire code.
//! - [`end`]: [`History`] of a game, [`EndRules`], [`Outcome`], [`EndReason`] (no legal
//!   move, repetition, 25 king moves, the 16- and 5-move endgames).
//! - [`wire`]: what a client sends and sees ([`DraughtsAction`], [`DraughtsView`],
//!   [`DraughtsEvent`]), re-used from `qipai_protocol::draughts`.
//! - [`view`]: [`view::fold`], the one function that applies an event to a view.
//! - [`pdn`]: a finished game as PDN 3.0 ([`pdn::write`]).
//! - [`options`]: [`DraughtsOptions`] checked and resolved into [`DraughtsSettings`].
//! - [`game`]: [`DraughtsGame`], the timed game the server's room drives (clock,
//!   resignation, draw offers), through the [`crate::Game`] trait.

pub mod board;
pub mod end;
pub mod error;
mod fen;
pub mod game;
mod movegen;
pub mod moves;
pub mod options;
pub mod pdn;
pub mod position;
pub mod view;
pub mod wire;

pub use board::{Board, Kind, Side, Square};
pub use end::{EndReason, EndRules, Endgame, History, Outcome, PlayedMove};
pub use error::DraughtsError;
pub use game::{DraughtsGame, DraughtsGameError, DraughtsSettings};
pub use moves::{Move, MoveText};
pub use position::{Position, START_FEN};
pub use view::fold;
pub use wire::{
    Clocks, DraughtsAction, DraughtsEvent, DraughtsOptions, DraughtsView, GameResult, Status,
    ToMove,
};
