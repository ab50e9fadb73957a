//! A draughts table's options ([`DraughtsOptions`], the wire's and the configuration's
//! type) checked and resolved into [`DraughtsSettings`]: the time control, the 25-king-move
//! and endgame draw rules, the start position (PDN FEN) and the bots' think time.

use qipai_protocol::GameKind;

use crate::draughts::{DraughtsOptions, DraughtsSettings, EndRules, Position};
use crate::options::{
    rated, time_control, within, DuelHouse, OptionsError, TableOptions, BOT_THINK_MS,
    DEFAULT_BOT_THINK_MS,
};

/// The time controls a lobby offers (the catalogue's list; any valid one is accepted):
/// Fischer ones and sudden death.
pub const TIME_CONTROLS: &[&str] = &["30+10", "10+5", "5+3", "3+2", "sd:30"];

/// The most king moves a table may ask for before the draw (0 turns the rule off).
const KING_MOVES_MAX: u32 = 1000;

impl TableOptions for DraughtsOptions {
    type Settings = DraughtsSettings;
    type House = DuelHouse;

    fn settle(
        &self,
        defaults: &DraughtsOptions,
        house: &DuelHouse,
    ) -> Result<(DraughtsOptions, DraughtsSettings), OptionsError> {
        let builtin = DraughtsSettings::default();
        let text = self
            .time_control
            .clone()
            .or_else(|| defaults.time_control.clone())
            .unwrap_or_else(|| builtin.time_control.to_string());
        let time_control = time_control(&text)?;
        let king_moves = self
            .king_moves
            .or(defaults.king_moves)
            .unwrap_or(builtin.end_rules.king_moves);
        within("king_moves", king_moves, 0..=KING_MOVES_MAX, true)?;
        let endgame_rules = self
            .endgame_rules
            .or(defaults.endgame_rules)
            .unwrap_or(builtin.end_rules.endgame_rules);
        let start = match &self.start_fen {
            Some(fen) => Position::from_fen(fen)
                .map_err(|e| OptionsError(format!("start_fen `{fen}`: {e}")))?,
            None => Position::start(),
        };
        if let Some(why) = start.cannot_arise() {
            return Err(OptionsError(format!(
                "start_fen: this position cannot arise in play: {why}"
            )));
        }
        if start.legal_moves().is_empty() {
            return Err(OptionsError(
                "start_fen: the game would be over before the first move".into(),
            ));
        }
        let bot_think_ms = self
            .bot_think_ms
            .or(defaults.bot_think_ms)
            .unwrap_or(DEFAULT_BOT_THINK_MS);
        within("bot_think_ms", bot_think_ms, BOT_THINK_MS, false)?;
        let rated = rated(
            GameKind::Draughts,
            self.rated,
            self.start_fen.is_some(),
            None,
        )?;
        let options = DraughtsOptions {
            rated,
            time_control: Some(time_control.to_string()),
            king_moves: Some(king_moves),
            endgame_rules: Some(endgame_rules),
            bot_think_ms: Some(bot_think_ms),
            start_fen: self.start_fen.as_ref().map(|_| start.to_fen()),
        };
        let settings = DraughtsSettings {
            start,
            time_control,
            first_move_ms: house.first_move_ms,
            end_rules: EndRules {
                king_moves,
                endgame_rules,
            },
            draw_offer_every_moves: house.draw_offer_every_moves,
            max_lag_ms: house.max_lag_ms,
        };
        Ok((options, settings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settle(o: DraughtsOptions) -> Result<(DraughtsOptions, DraughtsSettings), OptionsError> {
        o.settle(&DraughtsOptions::default(), &DuelHouse::default())
    }

    /// Nothing given: FMJD's rules and every field filled in; the configured defaults come
    /// before the built-in ones.
    #[test]
    fn defaults_fill_every_field() {
        let (o, s) = settle(DraughtsOptions::default()).unwrap();
        assert_eq!(o.king_moves, Some(25));
        assert_eq!(s.end_rules, EndRules::default());
        let configured = DraughtsOptions {
            king_moves: Some(0),
            ..DraughtsOptions::default()
        };
        let (o, _) = DraughtsOptions::default()
            .settle(&configured, &DuelHouse::default())
            .unwrap();
        assert_eq!(o.king_moves, Some(0));
    }

    /// A change that makes options bad.
    type Spoil = fn(&mut DraughtsOptions);

    /// 6.14 and the end of the game: a start position that no game can reach is refused,
    /// naming why; one that can arise (a man on the opponent's promotion row, kings only,
    /// the side not to move blocked) is taken.
    #[test]
    fn start_positions_that_cannot_arise_are_refused() {
        let refused = [
            ("W:W3,40:B30", "white man stands on its promotion row"),
            ("B:W40:B30,48", "black man stands on its promotion row"),
            ("W:WK5:B", "Black has no pieces"),
            ("B:W:BK5", "White has no pieces"),
            ("W:W:B10", "White has no pieces"),
        ];
        for (fen, why) in refused {
            let o = DraughtsOptions {
                start_fen: Some(fen.into()),
                ..DraughtsOptions::default()
            };
            let err = settle(o).unwrap_err();
            assert!(err.0.contains("start_fen"), "{fen}: {err}");
            assert!(err.0.contains(why), "{fen}: {err}");
        }
        for fen in ["W:WK3,40:B30", "W:W40:B30,K48", "B:W46,41:B3", "W:WK1:BK50"] {
            let o = DraughtsOptions {
                start_fen: Some(fen.into()),
                ..DraughtsOptions::default()
            };
            assert!(settle(o).is_ok(), "{fen}");
        }
    }

    /// Each check names its option.
    #[test]
    fn bad_options_are_named() {
        let cases: [(&str, Spoil); 3] = [
            ("king_moves", |o| o.king_moves = Some(1001)),
            ("start_fen", |o| o.start_fen = Some("W:W:B".into())),
            ("bot_think_ms", |o| o.bot_think_ms = Some(60_001)),
        ];
        for (name, spoil) in cases {
            let mut o = DraughtsOptions::default();
            spoil(&mut o);
            let err = settle(o).unwrap_err();
            assert!(err.0.contains(name), "{err}");
        }
    }
}
