//! The server's own bots: a bot is a seat whose connection is an in-memory channel and a
//! strategy task (DESIGN). It says hello and joins like any client, so the room cannot tell
//! it from a person, and its thinking runs on a blocking thread, never on the room's task.
//!
//! Bots live within the budget ([`crate::budget`]): at most `max_bots` at once (a seat that
//! would take one more stays empty), at most `bot_threads` searches at once (a decision
//! waits for a permit before it takes a thread), each xiangqi table sized from
//! `bot_memory_mib`, think time capped, and a search cancelled as soon as the bot's
//! connection ends (its room closed or a person took its seat).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use std::future::Future;
use std::pin::Pin;

use qipai_bots::client::{play_over, ClientConfig, ClientError, Duplex, Entry, GameReport};
use qipai_bots::memory::duplex;
use qipai_bots::observe::Observer;
use qipai_bots::{Strategy, Table};
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

/// A server bot's game, played to its end.
pub type BotGame = Pin<Box<dyn Future<Output = Result<Vec<GameReport>, ClientError>> + Send>>;

/// Everything a game's bot needs to play one seat (the game's `OnWire::play_bot` chooses
/// the strategy).
pub struct BotKit {
    /// The bot's end of the in-memory connection.
    pub socket: Box<dyn Duplex>,
    pub config: ClientConfig,
    pub observer: Box<dyn Observer>,
    /// The most a table may ask its bots to think per move (`limits.bot_think_max_ms`).
    pub think_max_ms: u64,
    /// Memory for one searching bot's table, in bytes.
    pub table_bytes: usize,
    /// Set when the game is over for the bot: a search stops.
    pub cancel: Arc<AtomicBool>,
}

impl BotKit {
    /// The think time a table asks for, within the server's cap.
    pub fn think_ms(&self, asked: Option<u64>) -> u64 {
        asked
            .unwrap_or(qipai_games::options::DEFAULT_BOT_THINK_MS)
            .min(self.think_max_ms)
    }

    /// The seed of a bot level's chance moves: the room and the seat (room ids count from
    /// 1 when the configuration seeds its games, so a seeded server's bots replay too).
    pub fn seed(&self) -> u64 {
        match &self.config.entry {
            Entry::Join { room_id, seat, .. } => qipai_bots::seat_seed(*room_id, seat.unwrap_or(0)),
            Entry::QuickPlay | Entry::Create { .. } | Entry::AgainstBots { .. } => 0,
        }
    }

    /// Plays `strategy` at the game's table `T`.
    pub fn play<T, S>(self, strategy: S) -> BotGame
    where
        T: Table + 'static,
        S: Strategy<View = T::View, Event = T::Event, Action = T::Action> + Send + 'static,
    {
        Box::pin(async move {
            play_over::<T, S>(self.socket, &self.config, strategy, self.observer, |_| {}).await
        })
    }
}

/// Starts a bot that joins `room_id` at `seat` and plays until the game ends (or a person
/// takes its seat, which closes its connection). Over the bots budget, nothing happens.
fn seat_bot(shared: Arc<Shared>, room_id: RoomId, seat: u8, options: RoomOptions) {
    let Some(ticket) = shared.budget.bot() else {
        tracing::debug!(room = room_id, seat, "no bot: the bots budget is spent");
        return;
    };
    let budget = Arc::clone(&shared.budget);
    let (server_end, bot_end) = duplex(CHANNEL);
    tokio::spawn(serve_in_memory(server_end, shared));
    let config = ClientConfig {
        url: "memory".into(),
        name: crate::names::bot_name(seat),
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
