//! Time controls (第6条 计时; 五(二)2): how much time each side has and how it grows.

use serde::{Deserialize, Serialize};

use super::error::{ClockError, Part};

/// One minute in milliseconds.
pub const MINUTE_MS: u64 = 60_000;

/// The longest base time, increment or period time a control may give: a day. Anything
/// longer is a typo, not a game.
pub const MAX_TIME_MS: u64 = 24 * 60 * MINUTE_MS;

/// The most periods a control may list.
pub const MAX_PERIODS: usize = 10;

/// The most moves one period may ask for (a long xiangqi game has a few hundred).
pub const MAX_PERIOD_MOVES: u32 = 1000;

/// The names [`TimeControl::preset`] knows, in the rules' order.
pub const PRESET_NAMES: [&str; 6] = ["6.1", "6.2", "6.3", "6.4", "6.5", "competition"];

/// A span of play under a period control (时限): `moves` moves must be made in `time_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Period {
    /// Moves to make before the period's time runs out (着数).
    pub moves: u32,
    /// The time the period adds to the side's clock, in milliseconds.
    pub time_ms: u64,
}

/// How a side's time is measured: room options and config carry one of these.
///
/// # Format
/// Internally tagged with `kind`, so a MessagePack map or a TOML table reads:
/// ```text
/// {kind: "fischer", base_ms: 1800000, increment_ms: 10000}
/// {kind: "periods", periods: [{moves: 40, time_ms: 5400000}, {moves: 10, time_ms: 900000}]}
/// {kind: "sudden_death", base_ms: 1800000}
/// ```
/// The short text form (`30+10`, `40/90,10/15`, `sd:30`) is [`TimeControl::parse`] and
/// `Display`. A deserialized control is not checked: call [`TimeControl::validate`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// Fischer increment (加秒): `base_ms` to start, `increment_ms` added after each timed
    /// move. 五(二)2: the competition plays 30 minutes each, 10 s per move, flag fall loses.
    Fischer { base_ms: u64, increment_ms: u64 },
    /// Periods (第6条 6.1–6.4): the first period's moves in its time, then the next period's
    /// moves in the time it adds, and so on; the last period repeats until the game ends.
    /// Unused time carries over: a period's time is added when the previous period's moves
    /// are completed, and the flag falls if they are not made before the time runs out.
    Periods { periods: Vec<Period> },
    /// Sudden death (6.5, 包干): one budget for the whole game, no move count, no increment.
    SuddenDeath { base_ms: u64 },
}

/// 五(二)2: 30 minutes each and 10 s per move.
impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::Fischer {
            base_ms: 30 * MINUTE_MS,
            increment_ms: 10_000,
        }
    }
}

impl TimeControl {
    /// A control the rules name: `6.1` to `6.5` (第6条) or `competition` (五(二)2, `30+10`).
    ///
    /// 6.5 gives no amount; its preset is 30 minutes each **\[D\]**, the competition's budget.
    ///
    /// # Errors
    /// [`ClockError::UnknownPreset`] for any other name (see [`PRESET_NAMES`]).
    pub fn preset(name: &str) -> Result<TimeControl, ClockError> {
        let periods = |list: &[(u32, u64)]| TimeControl::Periods {
            periods: list
                .iter()
                .map(|&(moves, minutes)| Period {
                    moves,
                    time_ms: minutes * MINUTE_MS,
                })
                .collect(),
        };
        match name {
            // 6.1: 40 moves in 90 minutes, then 10 moves in every 15 minutes.
            "6.1" => Ok(periods(&[(40, 90), (10, 15)])),
            // 6.2: 30 moves in 60 minutes, then 10 moves in every 10 minutes.
            "6.2" => Ok(periods(&[(30, 60), (10, 10)])),
            // 6.3 (rapid): 40 moves in 10 minutes, then 30 moves in every 5 minutes.
            "6.3" => Ok(periods(&[(40, 10), (30, 5)])),
            // 6.4 (rapid): 30 moves in every 5 minutes.
            "6.4" => Ok(periods(&[(30, 5)])),
            // 6.5: the whole game on one budget.
            "6.5" => Ok(TimeControl::SuddenDeath {
                base_ms: 30 * MINUTE_MS,
            }),
            "competition" => Ok(TimeControl::default()),
            _ => Err(ClockError::UnknownPreset {
                name: name.to_owned(),
            }),
        }
    }

    /// Checks that the control can be played: some time to start with, nothing longer than
    /// [`MAX_TIME_MS`], at least one period and at most [`MAX_PERIODS`], each asking for 1
    /// to [`MAX_PERIOD_MOVES`] moves in some time. A zero increment is allowed (`5+0`).
    ///
    /// # Errors
    /// [`ClockError::ZeroTime`], [`ClockError::TooLong`], [`ClockError::NoPeriods`],
    /// [`ClockError::TooManyPeriods`], [`ClockError::ZeroMoves`],
    /// [`ClockError::TooManyMoves`]: the first problem found.
    pub fn validate(&self) -> Result<(), ClockError> {
        match self {
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => {
                check_time(*base_ms, Part::Base)?;
                if *increment_ms > MAX_TIME_MS {
                    return Err(ClockError::TooLong {
                        part: Part::Increment,
                    });
                }
                Ok(())
            }
            TimeControl::SuddenDeath { base_ms } => check_time(*base_ms, Part::Base),
            TimeControl::Periods { periods } => {
                if periods.is_empty() {
                    return Err(ClockError::NoPeriods);
                }
                if periods.len() > MAX_PERIODS {
                    return Err(ClockError::TooManyPeriods {
                        count: periods.len(),
                    });
                }
                for (i, p) in periods.iter().enumerate() {
                    let period = i + 1;
                    check_time(p.time_ms, Part::Period(period))?;
                    if p.moves == 0 {
                        return Err(ClockError::ZeroMoves { period });
                    }
                    if p.moves > MAX_PERIOD_MOVES {
                        return Err(ClockError::TooManyMoves { period });
                    }
                }
                Ok(())
            }
        }
    }

    /// The time each side starts with: the base, or the first period's time (zero for a
    /// control without periods, which [`TimeControl::validate`] refuses).
    pub fn initial_ms(&self) -> u64 {
        match self {
            TimeControl::Fischer { base_ms, .. } | TimeControl::SuddenDeath { base_ms } => *base_ms,
            TimeControl::Periods { periods } => periods.first().map_or(0, |p| p.time_ms),
        }
    }
}

/// A base or period time must be more than zero and at most a day.
fn check_time(ms: u64, part: Part) -> Result<(), ClockError> {
    if ms == 0 {
        Err(ClockError::ZeroTime { part })
    } else if ms > MAX_TIME_MS {
        Err(ClockError::TooLong { part })
    } else {
        Ok(())
    }
}
