//! The server's own bots: a bot is a seat whose connection is an in-memory channel and a
//! strategy task (DESIGN). It says hello and joins like any client, so the room cannot tell
//! it from a person, and its thinking runs on a blocking thread, never on the room's task.
//!
//! Bots live within the budget ([`crate::base::budget`]): at most `max_bots` at once (a seat that
//! would take one more stays empty), at most `bot_threads` searches at once (a decision
//! waits for a permit before it takes a thread), each xiangqi table sized from
//! `bot_memory_mib`, think time capped, and a search cancelled as soon as the bot's
//! connection ends (its room closed or a person took its seat).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use qipai_bots::client::{ClientConfig, Entry};
use qipai_bots::memory::{duplex, MemorySocket};
use qipai_bots::observe::Observer;
use qipai_protocol::{RoomId, RoomOptions};

use crate::base::budget::Budget;
use crate::room::bot_kit::BotKit;
use crate::room::Summon;

/// Messages an in-memory connection holds each way before its writer waits.
const CHANNEL: usize = 64;

/// How long a bot waits for anything from its room before it gives up.
const PATIENCE: Duration = Duration::from_secs(3600);

/// Serves the server's end of a bot's in-memory connection like any client's: the
/// connection layer's loop, handed in when the app is built (the bots sit below it). It
/// should hold the server's state weakly, so the lobby (which the state owns) does not
/// keep it alive.
pub type Serve = Arc<dyn Fn(MemorySocket) + Send + Sync>;

/// The lobby's way to seat bots, within `budget`, each bot's connection served by `serve`.
pub fn summoner(budget: Arc<Budget>, serve: Serve) -> Summon {
    Arc::new(move |room_id, seat, options| {
        seat_bot(&budget, &serve, room_id, seat, options);
    })
}

/// The server's bots think on the pool's permits, and stop thinking when their game ends.
struct Pooled {
    permits: Arc<tokio::sync::Semaphore>,
    cancel: Arc<AtomicBool>,
}

impl Observer for Pooled {
    fn think_permits(&self) -> Option<Arc<tokio::sync::Semaphore>> {
        Some(Arc::clone(&self.permits))
    }

    fn stop_thinking(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Starts a bot that joins `room_id` at `seat` and plays until the game ends (or a person
/// takes its seat, which closes its connection). Over the bots budget, nothing happens.
fn seat_bot(budget: &Arc<Budget>, serve: &Serve, room_id: RoomId, seat: u8, options: RoomOptions) {
    let Some(ticket) = budget.bot() else {
        tracing::debug!(room = room_id, seat, "no bot: the bots budget is spent");
        return;
    };
    let (server_end, bot_end) = duplex(CHANNEL);
    serve(server_end);
    let config = ClientConfig {
        url: "memory".into(),
        name: crate::base::names::bot_name(seat),
        options: options.clone(),
        entry: Entry::Join {
            room_id,
            seat: Some(seat),
            entry_code: None,
        },
        games: 1,
        idle_timeout: PATIENCE,
        regroup_after: PATIENCE,
        source: None,
    };
    let span = tracing::debug_span!("seat_bot", room = room_id, seat);
    let cancel = Arc::new(AtomicBool::new(false));
    let pooled = Pooled {
        permits: Arc::clone(&budget.think),
        cancel: Arc::clone(&cancel),
    };
    let kit = BotKit {
        socket: Box::new(bot_end),
        config,
        observer: Box::new(pooled),
        think_max_ms: budget.bot_think_max_ms,
        table_bytes: budget.bot_table_bytes,
        cancel: Arc::clone(&cancel),
    };
    let play = async move {
        let result = crate::room::wire::play_bot(&options, kit).await;
        // The connection is over: a search still running for it stops now.
        cancel.store(true, Ordering::Relaxed);
        drop(ticket);
        if let Err(error) = result {
            tracing::debug!(%error, "bot stopped");
        }
    };
    tokio::spawn(tracing::Instrument::instrument(play, span));
}
