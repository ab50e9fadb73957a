//! Tuolaji on the server: its configuration section, its seats' own grace and its bot.

use qipai_bots::tuolaji::level::{Level, LevelBot};
use qipai_bots::TuolajiTable;
use qipai_games::tuolaji::options::{TuolajiHouse, TuolajiOptions};
use qipai_games::tuolaji::{TuolajiGame, TuolajiSettings};
use qipai_games::Millis;
use qipai_protocol::GameKind;

use crate::base::config::{Config, GameConfig};
use crate::room::bot_kit::{BotGame, BotKit};
use crate::room::wire::OnWire;

impl OnWire for TuolajiGame {
    const KIND: GameKind = GameKind::Tuolaji;
    type Table = TuolajiOptions;

    fn section(config: &Config) -> &GameConfig<TuolajiOptions, TuolajiHouse> {
        &config.tuolaji
    }

    /// A Tuolaji seat is played by the server once its player has been away this long (the
    /// rules page's `seat_grace_ms`), instead of the server-wide grace.
    fn seat_grace(settings: &TuolajiSettings) -> Option<Millis> {
        Some(Millis(settings.rules.seat_grace_ms))
    }

    /// The table's level (`expert`, the bot that plays to win, when none is named).
    fn play_bot(options: &TuolajiOptions, kit: BotKit) -> BotGame {
        let level = (options.bot_level.as_deref())
            .and_then(Level::named)
            .unwrap_or(Level::Expert);
        let bot = LevelBot::new(level, kit.seed());
        kit.play::<TuolajiTable, _>(bot)
    }
}
