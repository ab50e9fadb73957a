//! Golden and property tests of `games::clock` (第6条 计时; 五(二)2).
//!
//! - `fischer`: the competition's 30+10, lag, free first moves, flag fall, the timer;
//! - `periods`: the period controls 6.1–6.4 and sudden death 6.5;
//! - `control`: presets, validation, serde shapes;
//! - `text`: the short text form;
//! - `props`: properties over random controls and random games.
//!
//! The parts live in `clock/` beside this file, one test binary for all.

#[path = "clock/control.rs"]
mod control;
#[path = "clock/fischer.rs"]
mod fischer;
#[path = "clock/periods.rs"]
mod periods;
#[path = "clock/props.rs"]
mod props;
#[path = "clock/text.rs"]
mod text;

use qipai_games::clock::MINUTE_MS;

/// Minutes in milliseconds.
pub const fn min(n: u64) -> u64 {
    n * MINUTE_MS
}

/// Seconds in milliseconds.
pub const fn sec(n: u64) -> u64 {
    n * 1_000
}
