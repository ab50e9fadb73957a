//! Why a move, a FEN or a game action was refused: [`DraughtsError`].
//!
//! Messages are sentences a player can read; each variant maps to a stable wire code through
//! [`Coded`]. Whatever returns one of these has changed nothing.

use qipai_protocol::ErrorCode;
use thiserror::Error;

use super::board::{Kind, Square};
use crate::Coded;

/// A refused move or position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DraughtsError {
    /// The text is not `32-28` or `28x19x8` with squares 1–50.
    #[error(
        "`{text}` is not a draughts move (like 32-28, or 28x19x8 listing every landing square)."
    )]
    BadNotation { text: String },
    /// The FEN cannot be read.
    #[error("Bad FEN: {why}.")]
    BadFen { why: &'static str },
    /// The first square holds no piece of the side to move.
    #[error("Square {square} holds none of your pieces.")]
    NoOwnPiece { square: Square },
    /// 6.1: a capture is possible, so a plain move is not allowed (7.4.6).
    #[error("Capturing is compulsory: you can take {pieces} piece(s).")]
    CaptureRequired { pieces: u32 },
    /// 6.12: a capture that takes fewer pieces than the most one can take (7.4.8).
    #[error(
        "You must take the most pieces: this capture takes {taken}, another takes {required}."
    )]
    MajorityCapture { taken: u32, required: u32 },
    /// 6.5, 6.6, 7.4.9: the capture stops while the piece can still take more.
    #[error("The capture does not stop on {at}: the piece can take more from there.")]
    CaptureIncomplete { at: Square },
    /// A man moves forward only, except when capturing (6.1).
    #[error("A man moves forward only; {from}-{to} goes backward without capturing.")]
    ManBackward { from: Square, to: Square },
    /// A capture written where there is nothing to capture.
    #[error("There is nothing to capture; write a move with `-`.")]
    NothingToCapture,
    /// A capture that is no capture of the piece (wrong squares or route).
    #[error("`{text}` is not a capture your piece can make.")]
    NotACapture { text: String },
    /// A plain move the piece cannot make.
    #[error("Your {kind:?} on {from} cannot move to {to}.")]
    NotAMove {
        from: Square,
        to: Square,
        kind: Kind,
    },
    /// The game has ended.
    #[error("The game is over.")]
    GameOver,
}

impl Coded for DraughtsError {
    fn code(&self) -> ErrorCode {
        match self {
            DraughtsError::BadNotation { .. } => ErrorCode::BadNotation,
            DraughtsError::BadFen { .. } => ErrorCode::BadOptions,
            DraughtsError::CaptureRequired { .. } => ErrorCode::CaptureRequired,
            DraughtsError::MajorityCapture { .. } => ErrorCode::MajorityCapture,
            DraughtsError::CaptureIncomplete { .. } => ErrorCode::CaptureIncomplete,
            DraughtsError::ManBackward { .. } => ErrorCode::ManBackward,
            DraughtsError::NoOwnPiece { .. }
            | DraughtsError::NothingToCapture
            | DraughtsError::NotACapture { .. }
            | DraughtsError::NotAMove { .. } => ErrorCode::IllegalMove,
            DraughtsError::GameOver => ErrorCode::GameOver,
        }
    }
}
