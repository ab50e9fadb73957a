//! How each game meets the protocol: its actions come out of [`GameAction`], its views and
//! events go into [`View`] and [`Event`]. The one place the server names a game.

use qipai_games::clock::TimeControl;
use qipai_games::xiangqi::{EndRules, Position, XiangqiGame, XiangqiSettings};
use qipai_games::Game;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{ErrorCode, Event, GameAction, GameKind, RoomOptions, View, WireError};

use super::actor::{Room, RoomParts};
use super::RoomHandle;
use crate::config::Config;

/// A [`Game`] whose actions, views and events travel in the protocol's enums.
pub trait OnWire: Game {
    /// The protocol's name for this game.
    const KIND: GameKind;
    /// This game's action, or the action back when it is for another game.
    fn wire_action(action: GameAction) -> Result<Self::Action, GameAction>;
    /// The view as sent.
    fn wire_view(view: Self::View) -> View;
    /// The event as sent.
    fn wire_event(event: Self::Event) -> Event;
}

impl OnWire for XiangqiGame {
    const KIND: GameKind = GameKind::Xiangqi;

    fn wire_action(action: GameAction) -> Result<Self::Action, GameAction> {
        match action {
            GameAction::Xiangqi(a) => Ok(a),
        }
    }

    fn wire_view(view: Self::View) -> View {
        View::Xiangqi(view)
    }

    fn wire_event(event: Self::Event) -> Event {
        Event::Xiangqi(event)
    }
}

/// Fills in a room's options from the configuration and checks them, so that two requests
/// for the same game compare equal in quick play.
///
/// # Errors
/// `bad_options` naming what is wrong.
pub fn normalize(options: &RoomOptions, config: &Config) -> Result<RoomOptions, WireError> {
    match options {
        RoomOptions::Xiangqi(o) => Ok(RoomOptions::Xiangqi(xiangqi_settings(o, config)?.0)),
    }
}

/// Opens a room for `parts.options` with a new game from `seed`.
///
/// # Errors
/// `bad_options` naming what is wrong.
pub fn open(mut parts: RoomParts, config: &Config, seed: u64) -> Result<RoomHandle, WireError> {
    match &parts.options {
        RoomOptions::Xiangqi(o) => {
            let (options, settings) = xiangqi_settings(o, config)?;
            parts.options = RoomOptions::Xiangqi(options);
            Ok(Room::spawn(XiangqiGame::new(&settings, seed), parts))
        }
    }
}

/// A xiangqi room's options with every default filled in, and the game's settings.
fn xiangqi_settings(
    o: &XiangqiOptions,
    config: &Config,
) -> Result<(XiangqiOptions, XiangqiSettings), WireError> {
    let defaults = &config.xiangqi;
    let text = o.time_control.as_deref().unwrap_or(&defaults.time_control);
    let bad = |message: String| WireError {
        code: ErrorCode::BadOptions,
        message,
    };
    let time_control = TimeControl::parse(text)
        .or_else(|e| TimeControl::preset(text.trim()).map_err(|_| e))
        .map_err(|e| bad(format!("time_control `{text}`: {e}")))?;
    time_control
        .validate()
        .map_err(|e| bad(format!("time_control `{text}`: {e}")))?;
    let natural_limit_moves = o
        .natural_limit_moves
        .unwrap_or(defaults.natural_limit_moves);
    if natural_limit_moves > 1000 {
        return Err(bad(format!(
            "natural_limit_moves must be 0 (off) to 1000, not {natural_limit_moves}"
        )));
    }
    let counts_checks = o
        .natural_limit_counts_checks
        .unwrap_or(defaults.natural_limit_counts_checks);
    let start = match &o.start_fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| bad(format!("start_fen `{fen}`: {e}")))?,
        None => Position::start(),
    };
    if start.is_dead() || !start.has_legal_move() {
        return Err(bad(
            "start_fen: the game would be over before the first move".into(),
        ));
    }
    let start_fen = o.start_fen.as_ref().map(|_| start.to_fen());
    let settings = XiangqiSettings {
        start,
        time_control: time_control.clone(),
        first_move_ms: defaults.first_move_ms,
        end_rules: EndRules {
            natural_limit_moves,
            natural_limit_counts_checks: counts_checks,
        },
        draw_offer_every_moves: defaults.draw_offer_every_moves,
        max_lag_ms: defaults.max_lag_ms,
    };
    let options = XiangqiOptions {
        time_control: Some(time_control.to_string()),
        natural_limit_moves: Some(natural_limit_moves),
        natural_limit_counts_checks: Some(counts_checks),
        start_fen,
    };
    Ok((options, settings))
}
