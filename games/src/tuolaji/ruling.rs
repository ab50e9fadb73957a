//! A competition's rulings at a Tuolaji table (第十三条, 五(一)3), handed to the table by
//! the server's competition ([`crate::Game::rule`]) and logged with the room's steps.

use crate::competition::lateness::TuolajiLateness;
use crate::game::{Millis, Seat};

/// What a competition tells a Tuolaji table. Stored in room logs by these names: a change
/// of name or shape must still read the logs already written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "ruling", rename_all = "snake_case")]
pub enum TuolajiRuling {
    /// 第十三条: the pair of `seat` came late to the table, in this band. Given before the
    /// game starts (the pair complete, the other not yet), it is applied when the game
    /// starts, and the first one given for a pair stands.
    Late { seat: Seat, band: TuolajiLateness },
    /// A competition's round started `ago` before this ruling, and its lateness "minute"
    /// lasts `lateness_unit_ms` (60000; tests make it short). Given before the game starts:
    /// the round clock (五(一)3: 90 minutes, the last hand called at 75) counts from the
    /// round's start, so a pair arriving late eats into it (第十三条), and a pair whose
    /// lateness was not ruled before the start is as late as the start. The last one given
    /// before the start stands; later ones change nothing.
    RoundStarted { ago: Millis, lateness_unit_ms: u64 },
}
