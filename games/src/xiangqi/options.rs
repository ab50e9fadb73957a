//! A xiangqi table's options ([`XiangqiOptions`], the wire's and the configuration's type)
//! checked and resolved into [`XiangqiSettings`]: the time control, the natural limit
//! (4.2.4), the start position (FEN) and the bots' think time.

pub use qipai_protocol::xiangqi::XiangqiOptions;

use qipai_protocol::GameKind;

use crate::options::{
    bot_level, rated, time_control, unknown_preset, within, DuelHouse, OptionsError, TableOptions,
    BOT_THINK_MS, DEFAULT_BOT_THINK_MS,
};
use crate::xiangqi::{EndRules, Position, XiangqiSettings};

/// The xiangqi bots' levels (`bot_level`), lowest first; what each means is the bots'
/// business (`qipai_bots::xiangqi::level`).
pub const BOT_LEVELS: &[&str] = &["beginner", "casual", "club", "expert", "master"];

/// The time controls a lobby offers (the catalogue's list; any valid one is accepted): the
/// usual Fischer ones, the rules' period presets (第6条) and sudden death.
pub const TIME_CONTROLS: &[&str] = &[
    "30+10",
    "10+5",
    "5+3",
    "3+2",
    "40/90,10/15",
    "30/60,10/10",
    "40/10,30/5",
    "30/5",
    "sd:30",
];

/// The most full moves without a capture a table may ask for (0 turns the rule off).
const NATURAL_LIMIT_MAX: u32 = 1000;

impl TableOptions for XiangqiOptions {
    type Settings = XiangqiSettings;
    type House = DuelHouse;

    fn settle(
        &self,
        defaults: &XiangqiOptions,
        house: &DuelHouse,
    ) -> Result<(XiangqiOptions, XiangqiSettings), OptionsError> {
        let preset = match self.preset.as_deref() {
            Some(name) => Some(
                XiangqiSettings::preset(name)
                    .ok_or_else(|| unknown_preset(name, XiangqiSettings::PRESETS))?,
            ),
            None => None,
        };
        let builtin = XiangqiSettings::default();
        let rules = preset.as_ref().map(|p| p.end_rules);
        let text = self
            .time_control
            .clone()
            .or_else(|| preset.as_ref().map(|p| p.time_control.to_string()))
            .or_else(|| defaults.time_control.clone())
            .unwrap_or_else(|| builtin.time_control.to_string());
        let time_control = time_control(&text)?;
        let natural_limit_moves = self
            .natural_limit_moves
            .or(rules.map(|r| r.natural_limit_moves))
            .or(defaults.natural_limit_moves)
            .unwrap_or(builtin.end_rules.natural_limit_moves);
        within(
            "natural_limit_moves",
            natural_limit_moves,
            0..=NATURAL_LIMIT_MAX,
            true,
        )?;
        let counts_checks = self
            .natural_limit_counts_checks
            .or(rules.map(|r| r.natural_limit_counts_checks))
            .or(defaults.natural_limit_counts_checks)
            .unwrap_or(builtin.end_rules.natural_limit_counts_checks);
        let start = match &self.start_fen {
            Some(fen) => Position::from_fen(fen)
                .map_err(|e| OptionsError(format!("start_fen `{fen}`: {e}")))?,
            None => Position::start(),
        };
        if start.is_dead() || !start.has_legal_move() {
            return Err(OptionsError(
                "start_fen: the game would be over before the first move".into(),
            ));
        }
        let bot_think_ms = self
            .bot_think_ms
            .or(defaults.bot_think_ms)
            .unwrap_or(DEFAULT_BOT_THINK_MS);
        within("bot_think_ms", bot_think_ms, BOT_THINK_MS, false)?;
        let bot_level = bot_level(
            self.bot_level.as_ref(),
            defaults.bot_level.as_ref(),
            BOT_LEVELS,
        )?;
        let rated = rated(
            GameKind::Xiangqi,
            self.rated,
            self.start_fen.is_some(),
            bot_level.as_deref(),
        )?;
        let options = XiangqiOptions {
            rated,
            bot_think_ms: Some(bot_think_ms),
            bot_level,
            time_control: Some(time_control.to_string()),
            natural_limit_moves: Some(natural_limit_moves),
            natural_limit_counts_checks: Some(counts_checks),
            start_fen: self.start_fen.as_ref().map(|_| start.to_fen()),
            preset: self.preset.clone(),
        };
        let settings = XiangqiSettings {
            start,
            time_control,
            first_move_ms: house.first_move_ms,
            end_rules: EndRules {
                natural_limit_moves,
                natural_limit_counts_checks: counts_checks,
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

    fn settle(o: XiangqiOptions) -> Result<(XiangqiOptions, XiangqiSettings), OptionsError> {
        o.settle(&XiangqiOptions::default(), &DuelHouse::default())
    }

    /// Nothing given: the built-in defaults, every field filled in.
    #[test]
    fn empty_options_take_the_defaults() {
        let (o, s) = settle(XiangqiOptions::default()).unwrap();
        assert_eq!(o.time_control.as_deref(), Some("30+10"));
        assert_eq!(o.natural_limit_moves, Some(60));
        assert_eq!(s.end_rules, EndRules::default());
        assert_eq!(s.start, Position::start());
    }

    /// 五(二)2: the competition preset fills what the table leaves out; what it gives wins.
    #[test]
    fn the_preset_fills_what_is_left_out() {
        let (o, s) = settle(XiangqiOptions {
            preset: Some("competition".into()),
            natural_limit_moves: Some(50),
            ..XiangqiOptions::default()
        })
        .unwrap();
        assert_eq!(s.end_rules.natural_limit_moves, 50);
        assert!(!s.end_rules.natural_limit_counts_checks);
        assert_eq!(o.preset.as_deref(), Some("competition"));
    }

    /// A level is kept as named; none named stays none (the old full-strength bot).
    #[test]
    fn the_bot_level_is_kept() {
        let (o, _) = settle(XiangqiOptions {
            bot_level: Some("beginner".into()),
            ..XiangqiOptions::default()
        })
        .unwrap();
        assert_eq!(o.bot_level.as_deref(), Some("beginner"));
        let (o, _) = settle(XiangqiOptions::default()).unwrap();
        assert_eq!(o.bot_level, None);
    }

    /// A change that makes options bad.
    type Spoil = fn(&mut XiangqiOptions);

    /// Each check names its option.
    #[test]
    fn bad_options_are_named() {
        let cases: [(&str, Spoil); 6] = [
            ("bot_level", |o| o.bot_level = Some("grandmaster".into())),
            ("natural_limit_moves", |o| {
                o.natural_limit_moves = Some(1001)
            }),
            ("time_control", |o| o.time_control = Some("soon".into())),
            ("start_fen", |o| {
                o.start_fen = Some("4k4/9/9/9/9/9/9/9/9/4K4 w".into())
            }),
            ("bot_think_ms", |o| o.bot_think_ms = Some(5)),
            ("preset", |o| o.preset = Some("club".into())),
        ];
        for (name, spoil) in cases {
            let mut o = XiangqiOptions::default();
            spoil(&mut o);
            let err = settle(o).unwrap_err();
            assert!(err.0.contains(name), "{err}");
        }
    }
}
