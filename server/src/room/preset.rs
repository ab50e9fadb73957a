//! Named presets in room options (`"preset": "competition"`): the preset's values fill
//! every option the client left out, and the name stays in the options so the lobby shows
//! it. The values come from `games` (`XiangqiSettings::competition`,
//! `TuolajiOptions::competition`), never restated here.

use qipai_games::tuolaji::TuolajiOptions as Rules;
use qipai_games::xiangqi::XiangqiSettings;
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{ErrorCode, WireError};

fn unknown(name: &str, known: &[&str]) -> WireError {
    WireError {
        code: ErrorCode::BadOptions,
        message: format!("preset `{name}`: the presets are {}", known.join(", ")),
    }
}

/// `o` with its xiangqi preset (if any) filled in.
pub(super) fn xiangqi(o: &XiangqiOptions) -> Result<XiangqiOptions, WireError> {
    let mut o = o.clone();
    if let Some(name) = o.preset.as_deref() {
        let p =
            XiangqiSettings::preset(name).ok_or_else(|| unknown(name, XiangqiSettings::PRESETS))?;
        o.time_control
            .get_or_insert_with(|| p.time_control.to_string());
        o.natural_limit_moves
            .get_or_insert(p.end_rules.natural_limit_moves);
        o.natural_limit_counts_checks
            .get_or_insert(p.end_rules.natural_limit_counts_checks);
    }
    Ok(o)
}

/// `o` with its Tuolaji preset (if any) filled in.
pub(super) fn tuolaji(o: &TuolajiOptions) -> Result<TuolajiOptions, WireError> {
    let mut o = o.clone();
    if let Some(name) = o.preset.as_deref() {
        let p = Rules::preset(name).ok_or_else(|| unknown(name, Rules::PRESETS))?;
        o.round_minutes.get_or_insert(p.round_minutes.unwrap_or(0));
        o.last_call_minutes.get_or_insert(p.last_call_minutes);
    }
    Ok(o)
}
