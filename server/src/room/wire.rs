//! How each game meets the protocol: its actions come out of [`GameAction`], its views and
//! events go into [`View`] and [`Event`]. The one place the server names a game.

use qipai_games::clock::TimeControl;
use qipai_games::draughts::{self, DraughtsGame, DraughtsSettings};
use qipai_games::tuolaji::{TuolajiGame, TuolajiOptions as Rules, TuolajiSettings};
use qipai_games::xiangqi::{EndRules, Position, XiangqiGame, XiangqiSettings};
use qipai_games::{Game, Millis};
use qipai_protocol::draughts::DraughtsOptions;
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{ErrorCode, Event, GameAction, GameKind, RoomOptions, View, WireError};

use super::actor::{Room, RoomParts};
use super::RoomHandle;
use crate::config::Config;

/// A [`Game`] whose actions, views and events travel in the protocol's enums.
pub trait OnWire: Game<Action: serde::Serialize + serde::de::DeserializeOwned> {
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
            other => Err(other),
        }
    }

    fn wire_view(view: Self::View) -> View {
        View::Xiangqi(view)
    }

    fn wire_event(event: Self::Event) -> Event {
        Event::Xiangqi(event)
    }
}

impl OnWire for DraughtsGame {
    const KIND: GameKind = GameKind::Draughts;

    fn wire_action(action: GameAction) -> Result<Self::Action, GameAction> {
        match action {
            GameAction::Draughts(a) => Ok(a),
            other => Err(other),
        }
    }

    fn wire_view(view: Self::View) -> View {
        View::Draughts(view)
    }

    fn wire_event(event: Self::Event) -> Event {
        Event::Draughts(event)
    }
}

impl OnWire for TuolajiGame {
    const KIND: GameKind = GameKind::Tuolaji;

    fn wire_action(action: GameAction) -> Result<Self::Action, GameAction> {
        match action {
            GameAction::Tuolaji(a) => Ok(a),
            other => Err(other),
        }
    }

    fn wire_view(view: Self::View) -> View {
        View::Tuolaji(Box::new(view))
    }

    fn wire_event(event: Self::Event) -> Event {
        Event::Tuolaji(event)
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
        RoomOptions::Tuolaji(o) => Ok(RoomOptions::Tuolaji(tuolaji_settings(o, config)?.0)),
        RoomOptions::Draughts(o) => Ok(RoomOptions::Draughts(draughts_settings(o, config)?.0)),
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
        RoomOptions::Tuolaji(o) => {
            let (options, settings) = tuolaji_settings(o, config)?;
            parts.options = RoomOptions::Tuolaji(options);
            // A Tuolaji seat is played by the server once its player has been away this
            // long (the rules page's `seat_grace_ms`), instead of the server-wide grace.
            parts.timings.reconnect_grace = Millis(settings.rules.seat_grace_ms);
            // With a configured seed (tests), room `id` deals from `seed + id`.
            let seed = config
                .tuolaji
                .seed
                .map_or(seed, |s| s.wrapping_add(parts.id));
            Ok(Room::spawn(TuolajiGame::new(&settings, seed), parts))
        }
        RoomOptions::Draughts(o) => {
            let (options, settings) = draughts_settings(o, config)?;
            parts.options = RoomOptions::Draughts(options);
            Ok(Room::spawn(DraughtsGame::new(&settings, seed), parts))
        }
    }
}

/// A Tuolaji room's options with every default filled in, and the table's settings.
fn tuolaji_settings(
    o: &TuolajiOptions,
    config: &Config,
) -> Result<(TuolajiOptions, TuolajiSettings), WireError> {
    let o = &super::preset::tuolaji(o)?;
    let d = &config.tuolaji;
    if o.joker_bids.unwrap_or(d.joker_bids) {
        return Err(WireError {
            code: ErrorCode::BadOptions,
            message: "joker_bids: jokers cannot bid in these rules (第十条)".into(),
        });
    }
    let round_minutes = o.round_minutes.unwrap_or(d.round_minutes);
    let rules = Rules {
        throw_penalty: o.throw_penalty.unwrap_or(d.throw_penalty),
        deal_interval_ms: o.deal_interval_ms.unwrap_or(d.deal_interval_ms),
        bid_window_ms: o.bid_window_ms.unwrap_or(d.bid_window_ms),
        bottom_ms: o.bottom_ms.unwrap_or(d.bottom_ms),
        turn_ms: o.turn_ms.unwrap_or(d.turn_ms),
        seat_grace_ms: o.seat_grace_ms.unwrap_or(d.seat_grace_ms),
        round_minutes: (round_minutes > 0).then_some(round_minutes),
        last_call_minutes: o.last_call_minutes.unwrap_or(d.last_call_minutes),
        joker_bids: false,
    };
    let settings = TuolajiSettings {
        between_hands_ms: o.between_hands_ms.unwrap_or(d.between_hands_ms),
        rules,
    };
    let r = &settings.rules;
    let options = TuolajiOptions {
        throw_penalty: Some(r.throw_penalty),
        deal_interval_ms: Some(r.deal_interval_ms),
        bid_window_ms: Some(r.bid_window_ms),
        bottom_ms: Some(r.bottom_ms),
        turn_ms: Some(r.turn_ms),
        seat_grace_ms: Some(r.seat_grace_ms),
        round_minutes: Some(round_minutes),
        last_call_minutes: Some(r.last_call_minutes),
        joker_bids: Some(false),
        between_hands_ms: Some(settings.between_hands_ms),
        preset: o.preset.clone(),
    };
    Ok((options, settings))
}

/// A xiangqi room's options with every default filled in, and the game's settings.
fn xiangqi_settings(
    o: &XiangqiOptions,
    config: &Config,
) -> Result<(XiangqiOptions, XiangqiSettings), WireError> {
    let o = &super::preset::xiangqi(o)?;
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
    let bot_think_ms = o.bot_think_ms.unwrap_or(defaults.bot_think_ms);
    if !(10..=60_000).contains(&bot_think_ms) {
        return Err(bad(format!(
            "bot_think_ms must be 10 to 60000, not {bot_think_ms}"
        )));
    }
    let options = XiangqiOptions {
        bot_think_ms: Some(bot_think_ms),
        time_control: Some(time_control.to_string()),
        natural_limit_moves: Some(natural_limit_moves),
        natural_limit_counts_checks: Some(counts_checks),
        start_fen,
        preset: o.preset.clone(),
    };
    Ok((options, settings))
}

/// A draughts room's options with every default filled in, and the game's settings.
fn draughts_settings(
    o: &DraughtsOptions,
    config: &Config,
) -> Result<(DraughtsOptions, DraughtsSettings), WireError> {
    let d = &config.draughts;
    let bad = |message: String| WireError {
        code: ErrorCode::BadOptions,
        message,
    };
    let text = o.time_control.as_deref().unwrap_or(&d.time_control);
    let time_control = TimeControl::parse(text)
        .or_else(|e| TimeControl::preset(text.trim()).map_err(|_| e))
        .and_then(|tc| tc.validate().map(|()| tc))
        .map_err(|e| bad(format!("time_control `{text}`: {e}")))?;
    let king_moves = o.king_moves.unwrap_or(d.king_moves);
    if king_moves > 1000 {
        return Err(bad(format!(
            "king_moves must be 0 (off) to 1000, not {king_moves}"
        )));
    }
    let endgame_rules = o.endgame_rules.unwrap_or(d.endgame_rules);
    let start = match &o.start_fen {
        Some(fen) => {
            draughts::Position::from_fen(fen).map_err(|e| bad(format!("start_fen `{fen}`: {e}")))?
        }
        None => draughts::Position::start(),
    };
    if start.legal_moves().is_empty() {
        return Err(bad(
            "start_fen: the game would be over before the first move".into(),
        ));
    }
    let bot_think_ms = o.bot_think_ms.unwrap_or(d.bot_think_ms);
    if !(10..=60_000).contains(&bot_think_ms) {
        return Err(bad(format!(
            "bot_think_ms must be 10 to 60000, not {bot_think_ms}"
        )));
    }
    let options = DraughtsOptions {
        time_control: Some(time_control.to_string()),
        king_moves: Some(king_moves),
        endgame_rules: Some(endgame_rules),
        bot_think_ms: Some(bot_think_ms),
        start_fen: o.start_fen.as_ref().map(|_| start.to_fen()),
    };
    let settings = DraughtsSettings {
        start,
        time_control,
        first_move_ms: d.first_move_ms,
        end_rules: draughts::EndRules {
            king_moves,
            endgame_rules,
        },
        draw_offer_every_moves: d.draw_offer_every_moves,
        max_lag_ms: d.max_lag_ms,
    };
    Ok((options, settings))
}
