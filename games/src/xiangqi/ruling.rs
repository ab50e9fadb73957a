//! A competition's ruling at a xiangqi table (4.1.5; tournaments.md "The day itself"
//! **\[D\]**), handed to the table by the server's competition ([`crate::Game::rule`]) and
//! logged with the room's steps.

use crate::game::Millis;

/// What a competition tells a xiangqi table. Stored in room logs by these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "ruling", rename_all = "snake_case")]
pub enum XiangqiRuling {
    /// The table is a competition's, whose lateness limit passes `limit_in` after this
    /// ruling (4.1.5, counted from the round's start). There is no casual abort: a side
    /// that leaves before its first move may sit down again, and the table waits for it;
    /// a side that has not made its first move when both the limit and its first-move
    /// time have passed is absent and loses the game. Nothing is "aborted" or drawn by
    /// default. The last one given before the start stands.
    CompetitionTable { limit_in: Millis },
}
