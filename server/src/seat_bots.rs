//! The server's own bots: a bot is a seat whose connection is an in-memory channel and a
//! strategy task (DESIGN). It says hello and joins like any client, so the room cannot tell
//! it from a person, and its thinking runs on the bot's own blocking thread, never on the
//! room's task.

use std::sync::{Arc, Weak};
use std::time::Duration;

use qipai_bots::client::{play_over, ClientConfig, Entry};
use qipai_bots::memory::duplex;
use qipai_bots::observe::Quiet;
use qipai_bots::{Strength, TuolajiBot, TuolajiTable, XiangqiBot, XiangqiTable};
use qipai_protocol::{RoomId, RoomOptions};

use crate::connection::serve_in_memory;
use crate::room::Summon;
use crate::Shared;

/// Messages an in-memory connection holds each way before its writer waits.
const CHANNEL: usize = 64;

/// How long a bot waits for anything from its room before it gives up.
const PATIENCE: Duration = Duration::from_secs(3600);

/// The lobby's way to seat bots. It holds the server's state weakly, so the lobby (which
/// the state owns) does not keep it alive.
pub fn summoner(shared: Weak<Shared>) -> Summon {
    Arc::new(move |room_id, seat, options| {
        if let Some(shared) = shared.upgrade() {
            seat_bot(shared, room_id, seat, options);
        }
    })
}

/// Starts a bot that joins `room_id` at `seat` and plays until the game ends (or a person
/// takes its seat, which closes its connection).
fn seat_bot(shared: Arc<Shared>, room_id: RoomId, seat: u8, options: RoomOptions) {
    let (server_end, bot_end) = duplex(CHANNEL);
    tokio::spawn(serve_in_memory(server_end, shared));
    let config = ClientConfig {
        url: "memory".into(),
        name: format!("Bot {}", seat + 1),
        options: options.clone(),
        entry: Entry::Join {
            room_id,
            seat: Some(seat),
        },
        games: 1,
        idle_timeout: PATIENCE,
        regroup_after: PATIENCE,
    };
    let span = tracing::debug_span!("seat_bot", room = room_id, seat);
    let play = async move {
        let result = match &options {
            RoomOptions::Xiangqi(o) => {
                let think = o.bot_think_ms.unwrap_or(500);
                let bot = XiangqiBot::new(Strength::think_ms(think));
                play_over::<XiangqiTable, _>(
                    Box::new(bot_end),
                    &config,
                    bot,
                    Box::new(Quiet),
                    |_| {},
                )
                .await
            }
            RoomOptions::Tuolaji(_) => {
                let bot = TuolajiBot::new();
                play_over::<TuolajiTable, _>(
                    Box::new(bot_end),
                    &config,
                    bot,
                    Box::new(Quiet),
                    |_| {},
                )
                .await
            }
        };
        if let Err(error) = result {
            tracing::debug!(%error, "bot stopped");
        }
    };
    tokio::spawn(tracing::Instrument::instrument(play, span));
}
