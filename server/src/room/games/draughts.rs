//! Draughts on the server: its configuration section and its bot.

use qipai_bots::{DraughtsBot, DraughtsTable, Strength};
use qipai_games::draughts::{DraughtsGame, DraughtsOptions};
use qipai_games::options::DuelHouse;
use qipai_protocol::GameKind;

use crate::base::config::{Config, GameConfig};
use crate::room::bot_kit::{BotGame, BotKit};
use crate::room::wire::OnWire;

impl OnWire for DraughtsGame {
    const KIND: GameKind = GameKind::Draughts;
    type Table = DraughtsOptions;

    fn section(config: &Config) -> &GameConfig<DraughtsOptions, DuelHouse> {
        &config.draughts
    }

    fn play_bot(options: &DraughtsOptions, kit: BotKit) -> BotGame {
        let mib = (kit.table_bytes >> 20).max(1);
        let strength = Strength::think_ms(kit.think_ms(options.bot_think_ms));
        let bot = DraughtsBot::with_cancel(strength, mib, std::sync::Arc::clone(&kit.cancel));
        kit.play::<DraughtsTable, _>(bot)
    }
}
