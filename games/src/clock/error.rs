//! Why a time control was refused, and why a clock could not do what it was asked.
//!
//! The two are handled differently, so they are two enums: a [`ClockError`] is the
//! player's doing (a room asked for `30+` or for 90 hours) and becomes the `bad_options`
//! wire code; a [`TurnError`] is the caller's doing (the game pressed a clock that was not
//! running) and is a bug to log, never something a player can cause through a correct game.

use std::fmt;

use qipai_protocol::ErrorCode;

use crate::Coded;

/// Which amount of time in a control a [`ClockError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The base time of a Fischer or sudden-death control.
    Base,
    /// The Fischer increment.
    Increment,
    /// The time of a period, counted from 1 as a player would.
    Period(usize),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Base => f.write_str("the base time"),
            Part::Increment => f.write_str("the increment"),
            Part::Period(n) => write!(f, "the time of period {n}"),
        }
    }
}

/// A time control that cannot be read or cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The text was empty.
    #[error("The time control is empty; write one like 30+10, sd:5 or 40/90,10/15.")]
    Empty,
    /// The text has none of the known shapes.
    #[error("`{text}` is not a time control; write one like 30+10, sd:5 or 40/90,10/15.")]
    Malformed { text: String },
    /// An amount of time is not a whole number with an optional unit.
    #[error("`{text}` is not an amount of time; write a whole number, optionally with a unit (90, 30s, 500ms, 2h).")]
    BadAmount { text: String },
    /// A number of moves is not a whole number.
    #[error("`{text}` is not a number of moves.")]
    BadMoves { text: String },
    /// No preset has this name.
    #[error("There is no time control preset named `{name}`; the presets are 6.1 to 6.5 and competition.")]
    UnknownPreset { name: String },
    /// A base or period time of zero: the flag would fall before the first move.
    #[error("The time control gives zero for {part}; it must be more than zero.")]
    ZeroTime { part: Part },
    /// More than [`super::MAX_TIME_MS`] for one amount.
    #[error("The time control gives more than 24 hours for {part}.")]
    TooLong { part: Part },
    /// A period control without any period.
    #[error("A period time control needs at least one period.")]
    NoPeriods,
    /// More than [`super::MAX_PERIODS`] periods.
    #[error("A time control may have at most 10 periods, not {count}.")]
    TooManyPeriods { count: usize },
    /// A period that asks for no move would never end.
    #[error("Period {period} must ask for at least one move.")]
    ZeroMoves { period: usize },
    /// More than [`super::MAX_PERIOD_MOVES`] moves in one period.
    #[error("Period {period} asks for more than 1000 moves.")]
    TooManyMoves { period: usize },
}

/// Every refusal is about the room's options.
impl Coded for ClockError {
    fn code(&self) -> ErrorCode {
        ErrorCode::BadOptions
    }
}

/// The clock was driven out of turn: a bug in the caller, reported instead of a panic. The
/// clock is unchanged whenever one is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// Only sides 0 (red, first player) and 1 exist.
    #[error("There is no side {side}; a clock has sides 0 and 1.")]
    NoSuchSide { side: usize },
    /// A press for a side whose time is not running.
    #[error("Side {side}'s clock is not running.")]
    NotRunning { side: usize },
    /// A start or a free move while a side's time is running.
    #[error("Side {side}'s clock is already running.")]
    AlreadyRunning { side: usize },
    /// The side's flag has fallen; its clock does not run again.
    #[error("Side {side}'s flag has fallen.")]
    Flagged { side: usize },
}
