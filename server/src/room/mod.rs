//! Rooms: one tokio task per room owns the game, the seats and the timers.
//!
//! - [`Command`]: what the rest of the server may ask a room, through its bounded inbox.
//! - [`Outbox`]: a connection's bounded outbound queue, as a room holds it, and
//!   [`Outgoing`], what that queue carries.
//! - [`RoomHandle`]: what the lobby keeps of a room.
//! - [`bot_kit`]: what a game needs to play a server bot at its table.
//! - [`fence`]: whether this node may still act for its rooms (several nodes).
//! - [`actor`]: the room task itself, generic over any [`qipai_games::Game`].
//! - [`wire`]: [`wire::OnWire`], how a game meets the server, and the generic steps with it.
//! - [`games`]: the registry: one file per game, one `dispatch` listing them.

pub mod actor;
pub mod bot_kit;
pub mod fence;
pub mod games;
pub mod rated;
pub mod record;
pub mod wire;

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use qipai_games::Received;
use qipai_protocol::{
    encode_into, ErrorCode, Event, GameAction, GameKind, PlayerId, RoomId, RoomInfo, RoomOptions,
    Seq, ServerMsg, WireError,
};
use tokio::sync::{mpsc, oneshot, watch, Notify};
use tokio_tungstenite::tungstenite::{Bytes, Message};

use crate::base::metrics::Metrics;

/// What a connection's writer is given to send. Not tungstenite's `Message` (56 bytes):
/// a queue keeps its items in blocks of 32 and holds one or two blocks for the connection's
/// life, so 32-byte items are ~1.5 KiB less a connection (four to a Tuolaji table). The
/// controls are a variant of their own because `Bytes` has room beside it for one variant
/// only (its one niche, a null pointer).
#[derive(Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// An encoded server message, as one binary frame.
    Frame(Bytes),
    /// A control frame.
    Control(Control),
}

/// The WebSocket control frames the server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A ping carrying a time in ms (big-endian), for the round trip.
    Ping(u64),
    /// The close frame: the writer sends it, flushes and stops.
    Close,
}

impl Outgoing {
    /// The frame tungstenite writes.
    pub fn into_message(self) -> Message {
        match self {
            Outgoing::Frame(bytes) => Message::Binary(bytes),
            Outgoing::Control(Control::Ping(ms)) => {
                Message::Ping(Bytes::copy_from_slice(&ms.to_be_bytes()))
            }
            Outgoing::Control(Control::Close) => Message::Close(None),
        }
    }
}

/// A connection's outbound queue. Sending never waits: when the queue is full (in frames
/// or in bytes) the connection is too slow, so it is told to close (its seat is kept for a
/// reconnection).
#[derive(Clone, Debug)]
pub struct Outbox {
    /// Which connection this is, to ignore news about a connection already replaced.
    pub conn_id: u64,
    tx: mpsc::Sender<Outgoing>,
    kill: Arc<Notify>,
    metrics: Arc<Metrics>,
    /// Bytes queued and not yet handed to the socket, shared with the writer.
    queued: Arc<AtomicUsize>,
    max_bytes: usize,
}

impl Outbox {
    /// An outbox feeding `tx`, holding at most `max_bytes` queued; `kill` wakes the
    /// connection's reader to close it.
    pub fn new(
        conn_id: u64,
        tx: mpsc::Sender<Outgoing>,
        kill: Arc<Notify>,
        metrics: Arc<Metrics>,
        max_bytes: usize,
    ) -> Outbox {
        Outbox {
            conn_id,
            tx,
            kill,
            metrics,
            queued: Arc::new(AtomicUsize::new(0)),
            max_bytes,
        }
    }

    /// The count of bytes queued, for the writer to lower with [`sent`] (without holding
    /// the queue's sender, which would keep the queue open).
    pub fn queued(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.queued)
    }

    fn sent(&self, len: usize) {
        sent(&self.queued, len);
    }

    /// Queues an encoded frame. `false` when the connection is gone or too slow (and then
    /// it has been told to close).
    pub fn send_frame(&self, frame: Bytes) -> bool {
        let len = frame.len();
        let before = self.queued.fetch_add(len, Ordering::Relaxed);
        if before.saturating_add(len) > self.max_bytes {
            self.sent(len);
            return self.too_slow();
        }
        match self.tx.try_send(Outgoing::Frame(frame)) {
            Ok(()) => {
                let depth = self.tx.max_capacity() - self.tx.capacity();
                self.metrics.outbound_frames.record(depth as f64);
                true
            }
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.sent(len);
                self.too_slow()
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.sent(len);
                false
            }
        }
    }

    fn too_slow(&self) -> bool {
        self.metrics.queue_drops.fetch_add(1, Ordering::Relaxed);
        self.kill.notify_one();
        false
    }

    /// Tells the connection to close (a bot whose seat a person takes).
    pub fn close(&self) {
        self.kill.notify_one();
    }

    /// Queues `ok` for an action that arrived at `arrived` (the reader's moment, on the
    /// room's time line), recording the wait in the action latency histogram.
    pub fn send_ok(&self, seq: Seq, arrived: tokio::time::Instant) -> bool {
        self.metrics
            .action_seconds
            .record(arrived.elapsed().as_secs_f64());
        self.send(&ServerMsg::Ok { seq })
    }

    /// Encodes and queues one message (counting errors and accepted actions).
    pub fn send(&self, msg: &ServerMsg) -> bool {
        match msg {
            ServerMsg::Error { code, .. } => self.metrics.error(*code),
            ServerMsg::Ok { .. } => {
                self.metrics.actions.fetch_add(1, Ordering::Relaxed);
            }
            _ => {}
        }
        match encode_frame(msg) {
            Some(frame) => self.send_frame(frame),
            None => false,
        }
    }
}

/// The writer handed `len` queued bytes to the socket.
pub fn sent(queued: &AtomicUsize, len: usize) {
    let _ = queued.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
        Some(n.saturating_sub(len))
    });
}

/// A scratch buffer per thread for [`encode_frame`] that grows once, rather than a new
/// vector growing by doubling for every frame (and one more copy to fit it).
const SCRATCH_BYTES: usize = 4096;
/// Larger than this after a big message (a snapshot), the scratch is given back.
const SCRATCH_KEEP: usize = 64 * 1024;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = RefCell::new(Vec::with_capacity(SCRATCH_BYTES));
}

/// A room event's frame (a [`ServerMsg::Event`] at `place`: the room, the event's number,
/// the server's time), the event encoded once: `keep` is handed the event's own bytes (the
/// game's record keeps them as they are). `None` (logged) if it cannot be encoded.
pub fn encode_event(
    place: (RoomId, u64, u64),
    event: &Event,
    keep: impl FnOnce(&[u8]),
) -> Option<Bytes> {
    SCRATCH.with_borrow_mut(|buf| {
        buf.clear();
        let frame = match encode_into(buf, event) {
            Ok(()) => {
                keep(buf);
                let mut frame = Vec::new();
                qipai_protocol::encode_event_frame(&mut frame, place, buf);
                Some(Bytes::from(frame))
            }
            Err(error) => {
                tracing::error!(%error, "cannot encode an event");
                None
            }
        };
        if buf.capacity() > SCRATCH_KEEP {
            *buf = Vec::with_capacity(SCRATCH_BYTES);
        }
        frame
    })
}

/// Encodes a message into a frame's bytes; `None` (logged) if it cannot be encoded.
pub fn encode_frame(msg: &ServerMsg) -> Option<Bytes> {
    SCRATCH.with_borrow_mut(|buf| {
        buf.clear();
        let frame = match encode_into(buf, msg) {
            Ok(()) => Some(Bytes::copy_from_slice(buf)),
            Err(error) => {
                tracing::error!(%error, "cannot encode a server message");
                None
            }
        };
        if buf.capacity() > SCRATCH_KEEP {
            *buf = Vec::with_capacity(SCRATCH_BYTES);
        }
        frame
    })
}

/// A player as a room meets them.
#[derive(Debug)]
pub struct Who {
    pub player: PlayerId,
    pub name: String,
    /// The signed-in account the player plays as (`None`: a guest, or a bot).
    pub account: Option<u64>,
    /// One of the server's own bots.
    pub bot: bool,
    pub outbox: Outbox,
}

/// A reserved seat (a competition's table): who sits there, the SHA-256 of their entry
/// code, and the account their entry is linked to: the code, or that account's session,
/// takes the seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReservedSeat {
    /// The holder's name as the table's owner registered it (shown at the seat, whatever
    /// name they said).
    pub name: String,
    /// `qipai_store::hash_token` of the code, as [`normalize_code`] gives it.
    pub code_hash: Vec<u8>,
    /// The account the holder linked their entry to (`competition::links`), whose signed-in
    /// session takes the seat without the code.
    pub account: Option<u64>,
}

/// An entry code as typed: without spaces or dashes, in capitals (codes are printed in
/// groups and may be typed in lower case).
pub fn normalize_code(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// What a room can be asked. Replies that change the asker's session come back on a
/// oneshot; everything else the room sends straight to the asker's outbox.
///
/// A room's inbox holds its commands in blocks of 32, each as large as the largest variant,
/// and keeps one or two blocks for its life: the rare, large `Who` is boxed so that a
/// command is the size of `Act` (80 bytes, not 160), 2.5 KiB less a block.
#[derive(Debug)]
pub enum Command {
    /// Sit down at `seat` or any free seat; the reply is the seat taken. At a competition's
    /// table whose seats are reserved, `seat_code` says whose seat it is (the wire's
    /// `entry_code`).
    Join {
        who: Box<Who>,
        seat: Option<u8>,
        seat_code: Option<String>,
        seq: Option<Seq>,
        reply: oneshot::Sender<Result<u8, WireError>>,
    },
    /// Watch without a seat.
    Spectate {
        who: Box<Who>,
        seq: Option<Seq>,
        reply: oneshot::Sender<Result<(), WireError>>,
    },
    /// Stand up, or stop watching.
    Leave {
        player: PlayerId,
        reply: oneshot::Sender<Result<(), WireError>>,
    },
    /// A game action from a seated player.
    Act {
        player: PlayerId,
        seq: Seq,
        action: GameAction,
        received: Received,
    },
    /// Send the asker a snapshot.
    Snapshot { player: PlayerId, seq: Seq },
    /// The player's connection `conn_id` dropped.
    Away { player: PlayerId, conn_id: u64 },
    /// An arbiter's ruling for the table's game: a value of its `Game::Ruling` (a
    /// competition's lateness), logged like every input. A ruling of another game's type
    /// is not the table's: it is dropped, with a warning.
    Rule {
        ruling: Box<dyn std::any::Any + Send>,
    },
    /// The player is back on a new connection; the room sends `joined` and a snapshot. The
    /// reply is their seat, or `None` when they are back as a spectator (their seat was
    /// freed meanwhile, or they were watching).
    Back {
        player: PlayerId,
        outbox: Outbox,
        reply: oneshot::Sender<Option<u8>>,
    },
    /// A competition's table forfeited: everybody in the room is told why (an
    /// `error` without `seq`: `code`, `message`), then `left`; the room closes, marked
    /// closed in the store, so no game is played there later.
    Close { code: ErrorCode, message: String },
    /// A table whose seats are reserved: its seats as they are now (a code was reissued,
    /// or an entry linked to an account or unlinked: the change counts at once). Ignored by a room whose seats are not reserved.
    ReserveSeats { seats: Arc<[ReservedSeat]> },
    /// A competition's table whose round is published but not started (tournaments.md "The
    /// day itself"): while `held`, players may sit but the game does not start when every
    /// seat is taken; let go, it starts at once if every seat is taken, else when the last
    /// one is. Ignored once the game has started.
    HoldStart { held: bool },
    /// Several nodes: another node took the room over while this one had lost its lease.
    /// The room stops at once without a word to the store, and closes its connections so
    /// that their players reconnect (to the new owner).
    Revoke,
}

/// Seats a server bot at `seat` of a room (it joins like any client); given to rooms so
/// they can fill empty seats without knowing how a bot is made.
pub type Summon = Arc<dyn Fn(RoomId, u8, RoomOptions) + Send + Sync>;

/// What the lobby keeps of a room: its inbox and a live summary for listings.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub id: RoomId,
    pub game: GameKind,
    pub tx: mpsc::Sender<Command>,
    pub info: watch::Receiver<RoomInfo>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full queue never blocks the sender: the frame is refused and the connection is told
    /// to close (its seat stays, the player resumes with a snapshot).
    #[tokio::test]
    async fn a_full_outbox_refuses_and_asks_the_connection_to_close() {
        let (tx, mut rx) = mpsc::channel(2);
        let kill = Arc::new(Notify::new());
        let metrics = Arc::new(Metrics::default());
        let outbox = Outbox::new(1, tx, Arc::clone(&kill), Arc::clone(&metrics), 1 << 20);
        assert!(outbox.send_frame(Bytes::from_static(b"a")));
        assert!(outbox.send_frame(Bytes::from_static(b"b")));
        assert!(!outbox.send_frame(Bytes::from_static(b"c")));
        assert_eq!(metrics.queue_drops.load(Ordering::Relaxed), 1);
        // The kill notification was stored for the reader.
        tokio::time::timeout(std::time::Duration::from_millis(100), kill.notified())
            .await
            .expect("the connection was told to close");
        assert_eq!(
            rx.recv().await,
            Some(Outgoing::Frame(Bytes::from_static(b"a")))
        );
        drop(rx);
        assert!(
            !outbox.send_frame(Bytes::from_static(b"d")),
            "a closed connection"
        );
    }

    /// What a queue carries is a third smaller than tungstenite's `Message`: its blocks of
    /// 32 items, kept for the connection's life, are what this saves.
    #[test]
    fn an_outgoing_item_is_the_size_of_its_bytes() {
        assert_eq!(
            std::mem::size_of::<Outgoing>(),
            std::mem::size_of::<Bytes>()
        );
        assert!(std::mem::size_of::<Outgoing>() < std::mem::size_of::<Message>());
        assert_eq!(
            Outgoing::Control(Control::Ping(0x0102_0304_0506_0708)).into_message(),
            Message::Ping(Bytes::from_static(&[1, 2, 3, 4, 5, 6, 7, 8]))
        );
    }

    /// A command is as small as its common case, `Act`: the rare `Who` is boxed.
    #[test]
    fn a_command_is_no_larger_than_an_action() {
        assert!(
            std::mem::size_of::<Command>() <= 96,
            "{}",
            std::mem::size_of::<Command>()
        );
    }

    /// Bytes count as well as frames: a few large frames fill the queue, and what the
    /// writer hands on makes room again.
    #[tokio::test]
    async fn the_queue_is_bounded_in_bytes() {
        let (tx, _rx) = mpsc::channel(100);
        let kill = Arc::new(Notify::new());
        let metrics = Arc::new(Metrics::default());
        let outbox = Outbox::new(1, tx, kill, Arc::clone(&metrics), 10);
        assert!(outbox.send_frame(Bytes::from_static(b"123456")));
        assert!(!outbox.send_frame(Bytes::from_static(b"123456")));
        assert_eq!(metrics.queue_drops.load(Ordering::Relaxed), 1);
        sent(&outbox.queued(), 6);
        assert!(outbox.send_frame(Bytes::from_static(b"1234567890")));
    }
}
