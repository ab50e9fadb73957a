//! The table's options for Tuolaji: every timing and rule variant the rules page names,
//! spelt as the page spells them.

use serde::{Deserialize, Serialize};

use qipai_protocol::GameKind;

use crate::options::{bot_level, rated, unknown_preset, OptionsError, TableOptions};
use crate::tuolaji::TuolajiSettings;

/// The table's options as a client sends them and the configuration sets their defaults
/// (every field optional; defined once, with its wire shape, in the protocol);
/// [`TableOptions::settle`] resolves them into [`TuolajiSettings`], whose rules are a
/// [`TuolajiRules`].
pub use qipai_protocol::tuolaji::TuolajiOptions;

/// The Tuolaji bots' levels (`bot_level`), lowest first: `expert` is the bot that plays
/// to win, the default; what each means is the bots' business (`qipai_bots::tuolaji::level`).
pub const BOT_LEVELS: &[&str] = &["beginner", "casual", "expert"];

/// The rules a table plays by: every timing and rule variant the rules page names, each
/// resolved to a value (a table's [`TuolajiOptions`] settled against the configuration and
/// the page's defaults). Missing fields take the page's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TuolajiRules {
    /// 第十六条: points a failed throw costs the thrower's side, in the other side's favour.
    /// Default 20.
    pub throw_penalty: u32,
    /// 第九条1: pause between two dealt cards, so that bidding happens during the deal.
    /// Default 40 ms (0 in tests).
    pub deal_interval_ms: u64,
    /// 第十条2: how long bidding stays open after the last card is drawn (the source's five
    /// seconds). Default 5000 ms.
    pub bid_window_ms: u64,
    /// 第九条2: time the dealer has to put back the bottom **\[D\]**. Default 60000 ms.
    pub bottom_ms: u64,
    /// Time per lead or follow before the server plays for the seat **\[D\]**. Default 30000 ms.
    pub turn_ms: u64,
    /// How long an empty or disconnected seat waits before a bot takes it **\[D\]**.
    /// Default 60000 ms.
    pub seat_grace_ms: u64,
    /// 五(一)3: a round's time limit in minutes (the notice: 90); `None` plays until a team
    /// passes A. Default none.
    pub round_minutes: Option<u32>,
    /// 五(一)3: this many minutes before the round's end, the hand in progress is declared
    /// the last one. Default 15.
    pub last_call_minutes: u32,
    /// Whether jokers may bid (no-trump hands) **\[D\]**. The rules have no such bid; the
    /// variant is reserved and only `false` (the default) is accepted.
    pub joker_bids: bool,
    /// How long one of the round's minutes lasts, in ms: 60000. Not a table option (no
    /// client chooses it): the server's configuration sets it ([`TuolajiHouse`]), so that
    /// tests run the 90-minute round of 五(一)3 in milliseconds.
    pub minute_ms: u64,
}

/// What the server decides for every Tuolaji table (no table chooses it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TuolajiHouse {
    /// How long one of the round's minutes (`round_minutes`, `last_call_minutes`) lasts, in
    /// ms: 60000. Tests shorten it; the rules' own numbers (90, 15) stay as they are.
    pub minute_ms: u64,
}

impl Default for TuolajiHouse {
    fn default() -> TuolajiHouse {
        TuolajiHouse {
            minute_ms: MINUTE_MS,
        }
    }
}

/// A minute, in ms.
pub const MINUTE_MS: u64 = 60_000;

impl Default for TuolajiRules {
    fn default() -> TuolajiRules {
        TuolajiRules {
            throw_penalty: 20,
            deal_interval_ms: 40,
            bid_window_ms: 5000,
            bottom_ms: 60_000,
            turn_ms: 30_000,
            seat_grace_ms: 60_000,
            round_minutes: None,
            last_call_minutes: 15,
            joker_bids: false,
            minute_ms: MINUTE_MS,
        }
    }
}

impl TuolajiRules {
    /// The preset names [`TuolajiRules::preset`] knows.
    pub const PRESETS: &'static [&'static str] = &["competition"];

    /// 五(一)3, the competition's settings: a 90-minute round whose hand in progress at 75
    /// minutes (15 before the end) is the last; the rest as the default.
    pub fn competition() -> TuolajiRules {
        TuolajiRules {
            round_minutes: Some(90),
            last_call_minutes: 15,
            ..TuolajiRules::default()
        }
    }

    /// The options a preset names (`competition`), if it is one.
    pub fn preset(name: &str) -> Option<TuolajiRules> {
        (name == "competition").then(TuolajiRules::competition)
    }

    /// The options tests use: the page's rules with no pause between dealt cards.
    pub fn for_tests() -> TuolajiRules {
        TuolajiRules {
            deal_interval_ms: 0,
            ..TuolajiRules::default()
        }
    }

    /// The round's length in milliseconds, if it has a limit.
    pub fn round_ms(&self) -> Option<u64> {
        self.round_minutes
            .map(|m| u64::from(m).saturating_mul(self.minute_ms))
    }

    /// How long before the round's end the last hand is called, in milliseconds.
    pub fn last_call_ms(&self) -> u64 {
        u64::from(self.last_call_minutes).saturating_mul(self.minute_ms)
    }
}

impl TableOptions for TuolajiOptions {
    type Settings = TuolajiSettings;
    type House = TuolajiHouse;

    /// 第十条: jokers never bid, so `joker_bids` may only be `false`.
    fn settle(
        &self,
        defaults: &TuolajiOptions,
        house: &TuolajiHouse,
    ) -> Result<(TuolajiOptions, TuolajiSettings), OptionsError> {
        let preset = match self.preset.as_deref() {
            Some(name) => Some(
                TuolajiRules::preset(name)
                    .ok_or_else(|| unknown_preset(name, TuolajiRules::PRESETS))?,
            ),
            None => None,
        };
        let d = defaults;
        let builtin = TuolajiSettings::default();
        let b = &builtin.rules;
        if self.joker_bids.or(d.joker_bids).unwrap_or(b.joker_bids) {
            return Err(OptionsError(
                "joker_bids: jokers cannot bid in these rules (第十条)".into(),
            ));
        }
        // A round limit of 0 minutes is none.
        let round_minutes = self
            .round_minutes
            .or(preset.as_ref().map(|p| p.round_minutes.unwrap_or(0)))
            .or(d.round_minutes)
            .unwrap_or(b.round_minutes.unwrap_or(0));
        let rules = TuolajiRules {
            throw_penalty: self
                .throw_penalty
                .or(d.throw_penalty)
                .unwrap_or(b.throw_penalty),
            deal_interval_ms: (self.deal_interval_ms.or(d.deal_interval_ms))
                .unwrap_or(b.deal_interval_ms),
            bid_window_ms: (self.bid_window_ms.or(d.bid_window_ms)).unwrap_or(b.bid_window_ms),
            bottom_ms: self.bottom_ms.or(d.bottom_ms).unwrap_or(b.bottom_ms),
            turn_ms: self.turn_ms.or(d.turn_ms).unwrap_or(b.turn_ms),
            seat_grace_ms: (self.seat_grace_ms.or(d.seat_grace_ms)).unwrap_or(b.seat_grace_ms),
            round_minutes: (round_minutes > 0).then_some(round_minutes),
            last_call_minutes: (self.last_call_minutes)
                .or(preset.as_ref().map(|p| p.last_call_minutes))
                .or(d.last_call_minutes)
                .unwrap_or(b.last_call_minutes),
            joker_bids: false,
            minute_ms: house.minute_ms.max(1),
        };
        let settings = TuolajiSettings {
            between_hands_ms: (self.between_hands_ms.or(d.between_hands_ms))
                .unwrap_or(builtin.between_hands_ms),
            trick_pause_ms: (self.trick_pause_ms.or(d.trick_pause_ms))
                .unwrap_or(builtin.trick_pause_ms),
            rules,
        };
        let bot_level = bot_level(self.bot_level.as_ref(), d.bot_level.as_ref(), BOT_LEVELS)?;
        // Without a level the bots play `expert`, which has a fixed rating.
        let rated = rated(GameKind::Tuolaji, self.rated, false, bot_level.as_deref())?;
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
            trick_pause_ms: Some(settings.trick_pause_ms),
            preset: self.preset.clone(),
            bot_level,
            rated,
        };
        Ok((options, settings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's defaults, and that a partial JSON object fills in the rest.
    #[test]
    fn defaults_match_the_rules_page() {
        let o: TuolajiRules = serde_json::from_str(r#"{"round_minutes":90}"#).unwrap();
        assert_eq!(o.throw_penalty, 20);
        assert_eq!(o.deal_interval_ms, 40);
        assert_eq!(o.bid_window_ms, 5000);
        assert_eq!(o.bottom_ms, 60_000);
        assert_eq!(o.turn_ms, 30_000);
        assert_eq!(o.round_ms(), Some(5_400_000));
        assert_eq!(o.last_call_ms(), 900_000);
        assert!(!o.joker_bids);
    }

    /// 五(一)3: the competition preset: a 90-minute round, the last hand called at 75.
    #[test]
    fn competition_preset() {
        let o = TuolajiRules::preset("competition").unwrap();
        assert_eq!(o.round_ms(), Some(90 * 60_000));
        assert_eq!(o.round_ms().unwrap() - o.last_call_ms(), 75 * 60_000);
        assert_eq!(TuolajiRules::preset("club"), None);
    }

    /// The house's minute scales the round's clock, not the rules' numbers: a 90-minute
    /// round with 20 ms minutes lasts 1800 ms, the last hand called at 75 of them.
    #[test]
    fn the_house_minute_scales_the_round() {
        let table = TuolajiOptions {
            preset: Some("competition".into()),
            ..TuolajiOptions::default()
        };
        let house = TuolajiHouse { minute_ms: 20 };
        let (o, s) = table.settle(&TuolajiOptions::default(), &house).unwrap();
        assert_eq!(o.round_minutes, Some(90));
        assert_eq!(s.rules.round_ms(), Some(1800));
        assert_eq!(
            s.rules.round_ms().unwrap() - s.rules.last_call_ms(),
            75 * 20
        );
        let (_, s) = table
            .settle(&TuolajiOptions::default(), &TuolajiHouse::default())
            .unwrap();
        assert_eq!(s.rules.round_ms(), Some(90 * 60_000));
    }

    /// The table's options win over the configured defaults, the preset over both for
    /// what it sets; jokers never bid (第十条).
    #[test]
    fn table_options_settle() {
        let table = TuolajiOptions {
            turn_ms: Some(500),
            preset: Some("competition".into()),
            ..TuolajiOptions::default()
        };
        let defaults = TuolajiOptions {
            turn_ms: Some(9),
            bottom_ms: Some(7),
            ..TuolajiOptions::default()
        };
        let (o, s) = table.settle(&defaults, &TuolajiHouse::default()).unwrap();
        assert_eq!(s.rules.turn_ms, 500);
        assert_eq!(s.rules.bottom_ms, 7);
        assert_eq!(s.rules.round_minutes, Some(90));
        assert_eq!(o.round_minutes, Some(90));
        let jokers = TuolajiOptions {
            joker_bids: Some(true),
            ..TuolajiOptions::default()
        };
        assert!(jokers
            .settle(&defaults, &TuolajiHouse::default())
            .unwrap_err()
            .0
            .contains("joker_bids"));
        let level = |name: &str| TuolajiOptions {
            bot_level: Some(name.into()),
            ..TuolajiOptions::default()
        };
        let (o, _) = level("beginner")
            .settle(&defaults, &TuolajiHouse::default())
            .unwrap();
        assert_eq!(o.bot_level.as_deref(), Some("beginner"));
        let err = level("master")
            .settle(&defaults, &TuolajiHouse::default())
            .unwrap_err();
        assert!(err.0.contains("bot_level"), "{err}");
    }
}
