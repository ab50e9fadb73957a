//! Table options, once. Each game's options are one type — `qipai_protocol::<game>::
//! <Game>Options`, the wire's (every field optional) and the configuration's defaults — and
//! the checks and defaults that turn them into the game's settings live here, in
//! [`TableOptions::settle`]. The type stays in `protocol` because `games` already depends on
//! it (views and events) and the wire shape is its serde; `games` keeps every rule and does
//! no IO.
//!
//! A value is taken from, in order: the table's own options, its named preset, the
//! configured defaults, the game's built-in default.

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::game::Coded;
use qipai_protocol::ErrorCode;

/// Options that cannot make a table, with what is wrong (`bad_options`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionsError(pub String);

impl Coded for OptionsError {
    fn code(&self) -> ErrorCode {
        ErrorCode::BadOptions
    }
}

/// A game's table options: checked, completed and resolved into the game's settings.
pub trait TableOptions: Clone + PartialEq + Default + Sized {
    /// What the game is built from (`Game::Options`).
    type Settings;
    /// What the server decides for every table of the game (no table chooses it).
    type House;

    /// These options with every value filled in (so two requests for the same table
    /// compare equal), and the game's settings.
    ///
    /// # Errors
    /// [`OptionsError`] naming the option and what is wrong with it.
    fn settle(
        &self,
        defaults: &Self,
        house: &Self::House,
    ) -> Result<(Self, Self::Settings), OptionsError>;
}

/// What the server decides for every two-seat game (xiangqi, draughts): the same keys in
/// both configuration sections.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelHouse {
    /// A side that has not made its first move this long after it was due aborts the game.
    pub first_move_ms: u64,
    /// A side may offer a draw once per this many own moves **\[D\]**.
    pub draw_offer_every_moves: u32,
    /// The most lag allowance per move.
    pub max_lag_ms: u64,
}

impl Default for DuelHouse {
    fn default() -> DuelHouse {
        DuelHouse {
            first_move_ms: 30_000,
            draw_offer_every_moves: 10,
            max_lag_ms: 500,
        }
    }
}

/// A time control in any of its text forms (`30+10`, `40/90,10/15`, `sd:5`) or a preset's
/// name, checked.
///
/// # Errors
/// `time_control` naming the text and the problem.
pub fn time_control(text: &str) -> Result<TimeControl, OptionsError> {
    TimeControl::parse(text)
        .or_else(|e| TimeControl::preset(text.trim()).map_err(|_| e))
        .and_then(|tc| tc.validate().map(|()| tc))
        .map_err(|e| OptionsError(format!("time_control `{text}`: {e}")))
}

/// `value` when it is within `range`.
///
/// # Errors
/// Naming the option, its bounds and the value.
pub fn within<T>(
    name: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
    zero_off: bool,
) -> Result<T, OptionsError>
where
    T: PartialOrd + std::fmt::Display + Copy,
{
    if range.contains(&value) {
        return Ok(value);
    }
    let off = if zero_off { " (off)" } else { "" };
    Err(OptionsError(format!(
        "{name} must be {}{off} to {}, not {value}",
        range.start(),
        range.end()
    )))
}

/// The error for a preset nobody knows.
pub fn unknown_preset(name: &str, known: &[&str]) -> OptionsError {
    OptionsError(format!(
        "preset `{name}`: the presets are {}",
        known.join(", ")
    ))
}

/// How long the server's bots may think per move at a table, in ms: 10 to 60,000.
pub const BOT_THINK_MS: std::ops::RangeInclusive<u64> = 10..=60_000;

/// A table's bot level: the one it names, else the configuration's, checked against the
/// game's `known` levels; `None` when neither names one.
pub fn bot_level(
    given: Option<&String>,
    default: Option<&String>,
    known: &[&str],
) -> Result<Option<String>, OptionsError> {
    match given.or(default) {
        Some(name) if known.contains(&name.as_str()) => Ok(Some(name.clone())),
        Some(name) => Err(OptionsError(format!(
            "bot_level `{name}`: the levels are {}",
            known.join(", ")
        ))),
        None => Ok(None),
    }
}

/// Whether a table is rated, checked: a rated game starts from the usual position (a
/// problem set up from `start_fen` measures nobody), and the bots it names must be a level
/// with a fixed rating (docs/ratings.md), or the table could not be rated when they sit.
///
/// # Errors
/// `rated` naming what does not fit.
pub fn rated(
    game: qipai_protocol::GameKind,
    rated: bool,
    start_fen: bool,
    bot_level: Option<&str>,
) -> Result<bool, OptionsError> {
    if !rated {
        return Ok(false);
    }
    if start_fen {
        return Err(OptionsError(
            "rated: a rated game starts from the usual position, without start_fen".into(),
        ));
    }
    match bot_level {
        Some(level) if crate::rating::bot_rating(game, level).is_none() => Err(OptionsError(
            format!("rated: the `{level}` bots have no fixed rating, so they cannot sit at a rated table"),
        )),
        _ => Ok(true),
    }
}

/// The bots' think time when neither the table nor the configuration says.
pub const DEFAULT_BOT_THINK_MS: u64 = 500;
