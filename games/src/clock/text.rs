//! The short text form of a time control, for config files, tools and people.
//!
//! ```text
//! 30+10         Fischer: 30 minutes, 10 seconds added per move (五(二)2)
//! 5+0           Fischer without increment
//! sd:30         sudden death (6.5, 包干): 30 minutes for the whole game
//! 40/90,10/15   periods (6.1): 40 moves in 90 minutes, then 10 in 15, the last repeating
//! ```
//! A bare number counts minutes, except an increment, which counts seconds. Any amount may
//! carry a unit instead: `ms`, `s`, `m` or `h` (`sd:90s`, `1+500ms`). `Display` writes bare
//! numbers where they are exact and the smallest unit needed elsewhere, so every valid
//! control reads back as itself.

use std::fmt;
use std::str::FromStr;

use super::control::{Period, TimeControl, MINUTE_MS};
use super::error::ClockError::{self, BadAmount, BadMoves, Malformed};

/// One second in milliseconds.
const SECOND_MS: u64 = 1_000;

impl TimeControl {
    /// Reads the short text form (see the module doc); surrounding spaces are ignored.
    ///
    /// # Errors
    /// [`ClockError::Empty`], [`ClockError::Malformed`], [`ClockError::BadAmount`] or
    /// [`ClockError::BadMoves`] when the text cannot be read, and any error of
    /// [`TimeControl::validate`] when it reads as a control that cannot be played.
    pub fn parse(text: &str) -> Result<TimeControl, ClockError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ClockError::Empty);
        }
        let amount = |piece: &str, unit_ms| {
            amount(piece, unit_ms).ok_or_else(|| refuse(text, piece, |text| BadAmount { text }))
        };
        let control = if let Some(base) = text.strip_prefix("sd:") {
            TimeControl::SuddenDeath {
                base_ms: amount(base, MINUTE_MS)?,
            }
        } else if text.contains('/') {
            TimeControl::Periods {
                periods: text
                    .split(',')
                    .map(|piece| period(text, piece))
                    .collect::<Result<_, _>>()?,
            }
        } else if let Some((base, increment)) = text.split_once('+') {
            TimeControl::Fischer {
                base_ms: amount(base, MINUTE_MS)?,
                increment_ms: amount(increment, SECOND_MS)?,
            }
        } else {
            return Err(Malformed {
                text: text.to_owned(),
            });
        };
        control.validate()?;
        Ok(control)
    }
}

impl FromStr for TimeControl {
    type Err = ClockError;

    fn from_str(s: &str) -> Result<TimeControl, ClockError> {
        TimeControl::parse(s)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => write!(
                f,
                "{}+{}",
                Amount(*base_ms, MINUTE_MS),
                Amount(*increment_ms, SECOND_MS)
            ),
            TimeControl::SuddenDeath { base_ms } => write!(f, "sd:{}", Amount(*base_ms, MINUTE_MS)),
            TimeControl::Periods { periods } => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}/{}", p.moves, Amount(p.time_ms, MINUTE_MS))?;
                }
                Ok(())
            }
        }
    }
}

/// `moves/time`, one period of a period control written in `whole`.
fn period(whole: &str, piece: &str) -> Result<Period, ClockError> {
    let Some((moves, time)) = piece.split_once('/') else {
        return Err(refuse(whole, piece, |text| Malformed { text }));
    };
    let moves = digits(moves)
        .and_then(|m| m.parse().ok())
        .ok_or_else(|| refuse(whole, moves, |text| BadMoves { text }))?;
    let time_ms =
        amount(time, MINUTE_MS).ok_or_else(|| refuse(whole, time, |text| BadAmount { text }))?;
    Ok(Period { moves, time_ms })
}

/// The error for a `piece` of `whole` that could not be read: `make` names the piece, but a
/// missing piece (`30+`, `40/`) is better shown as the whole text.
fn refuse(whole: &str, piece: &str, make: fn(String) -> ClockError) -> ClockError {
    if piece.trim().is_empty() {
        Malformed {
            text: whole.to_owned(),
        }
    } else {
        make(piece.trim().to_owned())
    }
}

/// A whole number of `default_unit_ms`, or of the unit written after it; `None` when it is
/// not one or does not fit in a `u64` of milliseconds.
fn amount(text: &str, default_unit_ms: u64) -> Option<u64> {
    let text = text.trim();
    // `ms` is tried before `m` and `s`, which it starts and ends with.
    let (number, unit_ms) = [
        ("ms", 1),
        ("s", SECOND_MS),
        ("m", MINUTE_MS),
        ("h", 60 * MINUTE_MS),
    ]
    .into_iter()
    .find_map(|(suffix, unit)| text.strip_suffix(suffix).map(|n| (n, unit)))
    .unwrap_or((text, default_unit_ms));
    digits(number)?.parse::<u64>().ok()?.checked_mul(unit_ms)
}

/// `text` if it is one or more ASCII digits (no sign, no spaces inside).
fn digits(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

/// Milliseconds written in the default unit when exact, else in seconds or milliseconds.
struct Amount(u64, u64);

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Amount(ms, default_unit_ms) = *self;
        if ms % default_unit_ms == 0 {
            write!(f, "{}", ms / default_unit_ms)
        } else if ms % SECOND_MS == 0 {
            write!(f, "{}s", ms / SECOND_MS)
        } else {
            write!(f, "{ms}ms")
        }
    }
}
