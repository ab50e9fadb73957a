//! What a room's game needs to play one of the server's bots at its table: the game chooses
//! the strategy (`OnWire::play_bot`), the bots' pool ([`crate::seat_bots`]) supplies the
//! connection, the think-time cap and the cancellation. It sits with the room so that the
//! games' registry does not reach up into the pool that seats the bots.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use qipai_bots::client::{play_over, ClientConfig, ClientError, Duplex, Entry, GameReport};
use qipai_bots::observe::Observer;
use qipai_bots::{Strategy, Table};

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
