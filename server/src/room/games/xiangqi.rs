//! Xiangqi on the server: its configuration section and its bot.

use std::sync::Arc;
use std::time::Duration;

use qipai_bots::xiangqi::level::Level;
use qipai_bots::{Strength, XiangqiBot, XiangqiTable};
use qipai_games::options::DuelHouse;
use qipai_games::xiangqi::{XiangqiGame, XiangqiOptions};
use qipai_protocol::GameKind;

use crate::base::config::{Config, GameConfig};
use crate::room::bot_kit::{BotGame, BotKit};
use crate::room::wire::OnWire;

impl OnWire for XiangqiGame {
    const KIND: GameKind = GameKind::Xiangqi;
    type Table = XiangqiOptions;

    fn section(config: &Config) -> &GameConfig<XiangqiOptions, DuelHouse> {
        &config.xiangqi
    }

    /// The table's level within its think time (`bot_think_ms` the upper bound); no level
    /// named, full strength within the think time.
    fn play_bot(options: &XiangqiOptions, kit: BotKit) -> BotGame {
        let think_ms = kit.think_ms(options.bot_think_ms);
        let mut bot = XiangqiBot::with_budget(
            Strength::think_ms(think_ms),
            kit.table_bytes,
            Arc::clone(&kit.cancel),
        );
        if let Some(level) = options.bot_level.as_deref().and_then(Level::named) {
            bot = bot.at_level(level, Duration::from_millis(think_ms), kit.seed());
        }
        kit.play::<XiangqiTable, _>(bot)
    }
}
