//! What the competition's rules refuse.

use qipai_protocol::ErrorCode;

use crate::Coded;

/// A refusal from the competition's rules; nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompetitionError {
    /// 四1 不得兼项: the player is already entered in the other event.
    #[error("四1: {name} ({team}) is already entered in the other event (不得兼项)")]
    AlreadyEntered {
        /// The player's name.
        name: String,
        /// The player's department.
        team: String,
    },
    /// A Tuolaji entry is a pair (一: 双人赛); a xiangqi entry is one player (单人赛).
    #[error("一: a {event} entry has {expected} player(s), this one has {got}")]
    WrongEntrySize {
        /// The event's name.
        event: &'static str,
        /// Players an entry of that event has.
        expected: usize,
        /// Players given.
        got: usize,
    },
    /// The same player twice in one event.
    #[error("{name} ({team}) is entered twice")]
    DuplicatePlayer {
        /// The player's name.
        name: String,
        /// The player's department.
        team: String,
    },
    /// Every round of the competition has been paired already.
    #[error("all {rounds} rounds are paired")]
    NoRoundLeft {
        /// The competition's number of rounds.
        rounds: u32,
    },
    /// The previous round still has a table without a result.
    #[error("round {round} table {table} has no result yet")]
    RoundUnfinished {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// Fewer than two entries.
    #[error("a round needs at least two entries")]
    TooFewEntries,
    /// No table with this number in that round.
    #[error("round {round} has no table {table}")]
    UnknownTable {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// An arbiter's correction must say why (六; corrections are kept and shown).
    #[error("a correction needs a reason")]
    MissingReason,
    /// Undoing a round when none is paired.
    #[error("no round is paired")]
    NoRoundPaired,
    /// Undoing a round of which a table has a result (tournaments.md "The day itself"): a
    /// result is changed only by a correction.
    #[error("round {round} table {table} has a result: the round cannot be undone")]
    RoundRecorded {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// No entry with this number.
    #[error("no entry {entry}")]
    UnknownEntry {
        /// The number asked for.
        entry: u32,
    },
}

impl Coded for CompetitionError {
    fn code(&self) -> ErrorCode {
        match self {
            CompetitionError::AlreadyEntered { .. } => ErrorCode::AlreadyEntered,
            CompetitionError::WrongEntrySize { .. } => ErrorCode::WrongEntrySize,
            CompetitionError::DuplicatePlayer { .. } => ErrorCode::DuplicatePlayer,
            CompetitionError::NoRoundLeft { .. } => ErrorCode::NoRoundLeft,
            CompetitionError::RoundUnfinished { .. } => ErrorCode::RoundUnfinished,
            CompetitionError::TooFewEntries => ErrorCode::TooFewEntries,
            CompetitionError::UnknownTable { .. } => ErrorCode::UnknownTable,
            CompetitionError::MissingReason => ErrorCode::MissingReason,
            CompetitionError::NoRoundPaired | CompetitionError::UnknownEntry { .. } => {
                ErrorCode::NotFound
            }
            CompetitionError::RoundRecorded { .. } => ErrorCode::RoundRecorded,
        }
    }
}
