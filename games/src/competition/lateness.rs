//! Lateness: Tuolaji 第十三条 and xiangqi 4.1.5, as pure functions of the minutes late.
//!
//! Minutes are *started* minutes from the round's start: 5 min 1 s late is 6 minutes.

use crate::Millis;

/// What a Tuolaji pair's lateness costs it (第十三条).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "band", rename_all = "snake_case")]
pub enum TuolajiLateness {
    /// On time.
    OnTime,
    /// Up to 5 minutes: a warning, recorded as a violation (违例).
    Warning,
    /// 6–10 minutes (−20) or 11–15 minutes (−30): points taken from the late pair's side in
    /// the first hand **\[D\]** for the reading of "扣".
    FirstHandPenalty {
        /// Points taken.
        points: u32,
    },
    /// 16–20 minutes: the first hand is forfeited and the opponents go up one level.
    FirstHandForfeited,
    /// From 21 minutes: the round is forfeited.
    RoundForfeited,
}

/// Started minutes in a lateness of `late` (0 when on time).
pub const fn started_minutes(late: Millis) -> u64 {
    late.0.div_ceil(60_000)
}

/// Started "minutes" of `unit_ms` each in a lateness of `late` (a competition may make its
/// minute short to rehearse; 60000 is [`started_minutes`]).
pub const fn started_units(late: Millis, unit_ms: u64) -> u64 {
    late.0.div_ceil(if unit_ms == 0 { 1 } else { unit_ms })
}

/// 第十三条: the consequence of arriving `minutes` (started) late.
pub const fn tuolaji_lateness(minutes: u64) -> TuolajiLateness {
    match minutes {
        0 => TuolajiLateness::OnTime,
        1..=5 => TuolajiLateness::Warning,
        6..=10 => TuolajiLateness::FirstHandPenalty { points: 20 },
        11..=15 => TuolajiLateness::FirstHandPenalty { points: 30 },
        16..=20 => TuolajiLateness::FirstHandForfeited,
        _ => TuolajiLateness::RoundForfeited,
    }
}

/// 4.1.5: a xiangqi player not at the board when the competition's lateness limit
/// (`Settings::xiangqi_lateness_limit_min`, default 15 **\[D\]**) has passed loses the game.
/// Returns whether `minutes` (started) late loses: 15 started minutes is within a 15-minute
/// limit, 16 is past it.
pub const fn xiangqi_late_loses(minutes: u64, limit_min: u32) -> bool {
    minutes > limit_min as u64
}
