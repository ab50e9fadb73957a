//! Xiangqi on the server: its configuration section and its bot.

use std::sync::Arc;

use qipai_bots::{Strength, XiangqiBot, XiangqiTable};
use qipai_games::options::DuelHouse;
use qipai_games::xiangqi::{XiangqiGame, XiangqiOptions};
use qipai_protocol::GameKind;

use crate::config::{Config, GameConfig};
use crate::room::wire::OnWire;
use crate::seat_bots::{BotGame, BotKit};

impl OnWire for XiangqiGame {
    const KIND: GameKind = GameKind::Xiangqi;
    type Table = XiangqiOptions;

    fn section(config: &Config) -> &GameConfig<XiangqiOptions, DuelHouse> {
        &config.xiangqi
    }

    fn play_bot(options: &XiangqiOptions, kit: BotKit) -> BotGame {
        let bot = XiangqiBot::with_budget(
            Strength::think_ms(kit.think_ms(options.bot_think_ms)),
            kit.table_bytes,
            Arc::clone(&kit.cancel),
        );
        kit.play::<XiangqiTable, _>(bot)
    }
}
