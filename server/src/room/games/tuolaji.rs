//! Tuolaji on the server: its configuration section, its seats' own grace and its bot.

use qipai_bots::{TuolajiBot, TuolajiTable};
use qipai_games::tuolaji::options::TableTuolajiOptions;
use qipai_games::tuolaji::{TuolajiGame, TuolajiSettings};
use qipai_games::Millis;
use qipai_protocol::GameKind;

use crate::config::{Config, GameConfig};
use crate::room::wire::OnWire;
use crate::seat_bots::{BotGame, BotKit};

impl OnWire for TuolajiGame {
    const KIND: GameKind = GameKind::Tuolaji;
    type Table = TableTuolajiOptions;

    fn section(config: &Config) -> &GameConfig<TableTuolajiOptions, ()> {
        &config.tuolaji
    }

    /// A Tuolaji seat is played by the server once its player has been away this long (the
    /// rules page's `seat_grace_ms`), instead of the server-wide grace.
    fn seat_grace(settings: &TuolajiSettings) -> Option<Millis> {
        Some(Millis(settings.rules.seat_grace_ms))
    }

    fn play_bot(_options: &TableTuolajiOptions, kit: BotKit) -> BotGame {
        kit.play::<TuolajiTable, _>(TuolajiBot::new())
    }
}
