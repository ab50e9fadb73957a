//! The load test's hook in every bot client, and the matching of each action to the moment
//! every other seat at its table has the resulting event.
//!
//! The load test owns all seats of a table, so it sees both ends on one process clock. The
//! acting seat sends an action at `t`; the server answers `ok` and then, on the same
//! connection, the events the action caused, so the first event after the `ok` is the
//! action's own (its `event_seq` names it). Every other seat records when its copy of each
//! `event_seq` came off the socket. When the action is known and all other seats have its
//! event, the latest arrival minus `t` is recorded. An event nobody claims (a dealt card, a
//! timer's) is dropped once every seat has it.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use qipai_bots::observe::Observer;
use qipai_protocol::{ClientMsg, RoomId, Seq, ServerMsg};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::options::ThinkTime;
use crate::stats::Stats;

/// Room shards: rooms on different shards never wait for each other.
const SHARDS: usize = 64;

/// What one room's seats have seen, while it is still being matched.
#[derive(Default)]
struct RoomProbe {
    /// Our clients now in the room.
    present: u32,
    /// Actions whose event not every other seat has yet: `event_seq` → send time.
    actions: HashMap<u64, Instant>,
    /// Events not yet matched: `event_seq` → (seats that have it, latest arrival).
    arrivals: HashMap<u64, (u8, Instant)>,
}

/// Every room's probe, sharded by room id.
pub struct Rooms {
    shards: Vec<Mutex<HashMap<RoomId, RoomProbe>>>,
    stats: Arc<Stats>,
}

impl Rooms {
    pub fn new(stats: Arc<Stats>) -> Rooms {
        Rooms {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            stats,
        }
    }

    fn with<R>(&self, room: RoomId, f: impl FnOnce(&mut HashMap<RoomId, RoomProbe>) -> R) -> R {
        let shard = usize::try_from(room).unwrap_or_default() % SHARDS;
        let shards = self.shards.get(shard).map(Mutex::lock);
        match shards {
            Some(Ok(mut map)) => f(&mut map),
            _ => f(&mut HashMap::new()),
        }
    }

    /// One of our clients sat down in `room`.
    fn enter(&self, room: RoomId) {
        self.with(room, |m| m.entry(room).or_default().present += 1);
    }

    /// One of our clients left `room`; the last one out forgets it.
    fn exit(&self, room: RoomId) {
        self.with(room, |m| {
            if let Some(p) = m.get_mut(&room) {
                p.present = p.present.saturating_sub(1);
                if p.present == 0 {
                    m.remove(&room);
                }
            }
        });
    }

    /// The acting seat's action sent at `sent` caused event `seq`.
    fn action(&self, room: RoomId, seq: u64, sent: Instant, seats: u8) {
        let done = self.with(room, |m| {
            let p = m.entry(room).or_default();
            match p.arrivals.get(&seq) {
                Some(&(n, last)) if n + 1 >= seats => {
                    p.arrivals.remove(&seq);
                    Some(last)
                }
                _ => {
                    p.actions.insert(seq, sent);
                    None
                }
            }
        });
        if let Some(last) = done {
            let shard = usize::try_from(room).unwrap_or_default();
            self.stats
                .record_all_seats(shard, sent, last.saturating_duration_since(sent));
        }
    }

    /// A seat other than the actor's (or any seat, for an event nobody caused) read event
    /// `seq` at `at`.
    fn arrival(&self, room: RoomId, seq: u64, at: Instant, seats: u8) {
        let done = self.with(room, |m| {
            let p = m.entry(room).or_default();
            let entry = p.arrivals.entry(seq).or_insert((0, at));
            entry.0 += 1;
            entry.1 = entry.1.max(at);
            let (n, last) = *entry;
            if n + 1 >= seats {
                if let Some(sent) = p.actions.remove(&seq) {
                    p.arrivals.remove(&seq);
                    return Some((sent, last));
                }
                if n >= seats {
                    p.arrivals.remove(&seq);
                }
            }
            None
        });
        if let Some((sent, last)) = done {
            let shard = usize::try_from(room).unwrap_or_default();
            self.stats
                .record_all_seats(shard, sent, last.saturating_duration_since(sent));
        }
    }
}

/// One bot client's [`Observer`]: counts its traffic, times its actions, feeds [`Rooms`],
/// and sets its think time.
pub struct ClientProbe {
    stats: Arc<Stats>,
    rooms: Arc<Rooms>,
    /// Seats at this game's table.
    seats: u8,
    /// Which histogram shard this client records into.
    shard: usize,
    /// The pause before each action.
    think: ThinkTime,
    rng: ChaCha8Rng,
    /// The room the client sits in.
    room: Option<RoomId>,
    /// The action sent and not yet answered: its seq and send time.
    pending: Option<(Seq, Instant)>,
    /// The `ok` came: the next event of the room is this action's (sent then).
    resulting: Option<Instant>,
}

impl ClientProbe {
    /// The probe of client number `index` at a table of `seats`.
    pub fn new(
        stats: Arc<Stats>,
        rooms: Arc<Rooms>,
        seats: u8,
        index: usize,
        think: ThinkTime,
        seed: u64,
    ) -> ClientProbe {
        ClientProbe {
            stats,
            rooms,
            seats,
            shard: index,
            think,
            rng: ChaCha8Rng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9e37_79b9)),
            room: None,
            pending: None,
            resulting: None,
        }
    }

    fn leave_room(&mut self) {
        if let Some(room) = self.room.take() {
            self.rooms.exit(room);
        }
        self.pending = None;
        self.resulting = None;
    }
}

impl Drop for ClientProbe {
    fn drop(&mut self) {
        self.leave_room();
    }
}

impl Observer for ClientProbe {
    fn sent(&mut self, msg: &ClientMsg, bytes: usize, at: Instant) {
        self.stats.msgs_out.fetch_add(1, Ordering::Relaxed);
        self.stats
            .bytes_out
            .fetch_add(bytes as u64, Ordering::Relaxed);
        if let ClientMsg::Xiangqi { seq, .. }
        | ClientMsg::Tuolaji { seq, .. }
        | ClientMsg::Draughts { seq, .. } = msg
        {
            self.pending = Some((*seq, at));
        }
    }

    fn frame(&mut self, bytes: usize, _at: Instant) {
        self.stats.frames_in.fetch_add(1, Ordering::Relaxed);
        self.stats
            .bytes_in
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn received(&mut self, msg: &ServerMsg, at: Instant) {
        self.stats.msgs_in.fetch_add(1, Ordering::Relaxed);
        match msg {
            ServerMsg::Welcome { .. } => {
                self.stats.welcomed.fetch_add(1, Ordering::Relaxed);
            }
            ServerMsg::Joined {
                room_id,
                seat: Some(_),
                ..
            } => {
                self.leave_room();
                self.room = Some(*room_id);
                self.rooms.enter(*room_id);
            }
            ServerMsg::Left { .. } => self.leave_room(),
            ServerMsg::Ok { seq } => {
                if let Some((_, sent)) = self.pending.filter(|(p, _)| p == seq) {
                    self.pending = None;
                    self.resulting = Some(sent);
                    self.stats
                        .record_ack(self.shard, sent, at.saturating_duration_since(sent));
                }
            }
            ServerMsg::Error { seq, code, .. } => {
                self.stats.protocol_errors.fetch_add(1, Ordering::Relaxed);
                self.stats.count_error(code.as_str());
                if self.pending.is_some_and(|(p, _)| Some(p) == *seq) {
                    self.pending = None;
                }
            }
            ServerMsg::Event {
                room_id, event_seq, ..
            } if self.room == Some(*room_id) => match self.resulting.take() {
                Some(sent) => self.rooms.action(*room_id, *event_seq, sent, self.seats),
                None => self.rooms.arrival(*room_id, *event_seq, at, self.seats),
            },
            _ => {}
        }
    }

    fn think_time(&mut self) -> Duration {
        self.think.sample(&mut self.rng)
    }

    fn inline_strategy(&self) -> bool {
        true
    }
}
