//! The one list of games the bots play: for each game kind, the table options a command
//! line asks for and the strategy that plays them. `qipai-bot --game` chooses from it; the
//! server's own bots are chosen by the server's registry (`server/src/room/games/`).

use qipai_protocol::draughts::DraughtsOptions;
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::GameKind;

use crate::client::{self, ClientConfig, ClientError, GameReport};
use crate::random::RandomXiangqi;
use crate::{
    DraughtsBot, DraughtsTable, HintStrategy, Strength, TuolajiTable, XiangqiBot, XiangqiTable,
};

/// What a command line asks of a bot.
#[derive(Clone, Debug)]
pub struct Ask {
    /// Search (or the game's best strategy); `false`: the cheapest legal player there is.
    pub search: bool,
    /// The most thinking time per move, in ms.
    pub think_ms: u64,
    /// The search's transposition table, in MiB.
    pub tt_mb: usize,
    /// Seeds a random player.
    pub seed: u64,
    /// The table's time control (two-seat games), else the server's default.
    pub time_control: Option<String>,
    /// Start from this FEN (two-seat games).
    pub start_fen: Option<String>,
}

/// Plays `config.games` games of `kind` as `ask` says (the table's options are set here).
///
/// # Errors
/// As [`client::play`].
pub async fn play(
    kind: GameKind,
    mut config: ClientConfig,
    ask: &Ask,
    on_game: impl FnMut(&GameReport),
) -> Result<Vec<GameReport>, ClientError> {
    let strength = Strength::think_ms(ask.think_ms);
    let (time_control, start_fen) = (ask.time_control.clone(), ask.start_fen.clone());
    match kind {
        GameKind::Xiangqi => {
            config.options = XiangqiOptions {
                time_control,
                start_fen,
                ..XiangqiOptions::default()
            }
            .into();
            if ask.search {
                let bot = XiangqiBot::with_table(strength, ask.tt_mb);
                client::play::<XiangqiTable, _>(&config, bot, on_game).await
            } else {
                let bot = RandomXiangqi::new(ask.seed);
                client::play::<XiangqiTable, _>(&config, bot, on_game).await
            }
        }
        // Tuolaji plays the server's own hint (what load tests use).
        GameKind::Tuolaji => {
            config.options = TuolajiOptions::default().into();
            client::play::<TuolajiTable, _>(&config, HintStrategy, on_game).await
        }
        // The draughts bot always searches (there is no random draughts player).
        GameKind::Draughts => {
            config.options = DraughtsOptions {
                time_control,
                start_fen,
                ..DraughtsOptions::default()
            }
            .into();
            let bot = DraughtsBot::with_table(strength, ask.tt_mb);
            client::play::<DraughtsTable, _>(&config, bot, on_game).await
        }
    }
}
