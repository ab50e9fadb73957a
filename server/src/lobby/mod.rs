//! The lobby: the registry of rooms (room id → handle, nothing more) and quick play.
//!
//! Room ids are random 53-bit numbers from the operating system's generator (53 bits so a
//! JavaScript number holds them exactly): never reused across restarts (a collision within
//! a million rooms has odds of about one in 2^14 per restart pair, and an id in use now is
//! never handed out twice), and guessing one means trying about 2^53 / rooms open. Only a
//! server configured with a game's `seed` (tests) counts them from 1, so deals can be
//! reproduced.

pub mod session;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use dashmap::DashMap;
use qipai_protocol::{
    ErrorCode, GameKind, PlayerId, RoomId, RoomInfo, RoomOptions, RoomStatus, TableTitle, WireError,
};

use crate::base::budget::{Budget, RoomTicket};
use crate::base::clock::ServerClock;
use crate::base::config::Config;
use crate::base::shutdown::Shutdown;
use crate::room::actor::{Journal, RoomParts, RoomTimings};
use crate::room::fence::Fence;
use crate::room::{wire, ReservedSeat, RoomHandle, Summon};

/// Where the rooms this node opens are announced, as the lobby sees it: the server's
/// topology (one node or several) implements it, so the lobby never asks which it is.
pub trait RoomDirectory: Send + Sync {
    /// Whether this node alone hands out room ids, so a seeded server may count them
    /// (with several nodes counted ids would collide: they are always random).
    fn ids_are_local(&self) -> bool;
    /// A short number for a new table when ids are not local (several nodes: from their
    /// shared count); `None` leaves the table without one.
    fn take_number(&self) -> Option<u64>;
    /// The fence a new room asks before each action; `None` when nothing can take the
    /// room away from this node.
    fn fence(&self) -> Option<Fence>;
    /// Announces a room just opened here (its directory entry and listing).
    fn publish(self: Arc<Self>, room: &RoomHandle);
}

/// Every open room.
pub struct Lobby {
    rooms: Arc<DashMap<RoomId, RoomHandle>>,
    next_id: AtomicU64,
    /// The next room's short number (what people read and say); with a store it goes on
    /// after the largest stored, so none is given twice.
    next_number: AtomicU64,
    config: Arc<Config>,
    clock: ServerClock,
    shutdown: Shutdown,
    /// Seats a server bot; set once the server's shared state exists.
    summon: OnceLock<Summon>,
    budget: Arc<Budget>,
    /// The store's writer, when there is a store: every room logs itself there.
    writer: OnceLock<qipai_store::writer::Writer>,
    /// Held while quick play looks for a waiting room and, finding none, opens one.
    quick_play: Mutex<()>,
    /// The rooms that were waiting for players when last looked at: quick play looks through
    /// these, not through every open room (thousands, nearly all of them playing).
    open_seats: Arc<Mutex<OpenSeats>>,
    /// Competition tables to reopen with their seats reserved and their titles (after a
    /// restart).
    table_seats: DashMap<RoomId, (Arc<[ReservedSeat]>, TableTitle)>,
    /// Where every room this node opens is announced and fenced; none until the app is
    /// built (then a room is neither).
    directory: OnceLock<Arc<dyn RoomDirectory>>,
}

/// Rooms that may still have a free seat (oldest first), how many were left at the last
/// pruning, and who quick play has sent to each and has not heard back from.
#[derive(Default)]
struct OpenSeats {
    rooms: Vec<RoomHandle>,
    kept: usize,
    claimed: HashMap<RoomId, Vec<PlayerId>>,
    /// The rated tables rated quick play opened: the rating of the player who waits there
    /// and since when (rated quick play seats near ratings first).
    waiting: HashMap<RoomId, (i64, u64)>,
}

/// A rated quick player: their rating at the game, and the range they accept (docs/
/// ratings.md, "Quick play"): `range` at once, `range` more every `widen_ms` the player
/// waiting at the table has waited.
#[derive(Clone, Copy, Debug)]
pub struct Near {
    pub rating: i64,
    pub range: u32,
    pub widen_ms: u64,
}

impl Near {
    /// How far from `waiting` (a rating) a table whose player has waited since `since` is,
    /// if it is within reach at `now`.
    fn distance(&self, (waiting, since): (i64, u64), now: u64) -> Option<u64> {
        let steps = 1 + now.saturating_sub(since) / self.widen_ms.max(1);
        let reach = u64::from(self.range).saturating_mul(steps);
        let distance = self.rating.abs_diff(waiting);
        (distance <= reach).then_some(distance)
    }
}

impl OpenSeats {
    /// Forgets the rooms that have closed or started.
    fn prune(&mut self) {
        self.rooms
            .retain(|r| !r.tx.is_closed() && r.info.borrow().status == RoomStatus::Waiting);
        self.kept = self.rooms.len();
        let rooms = &self.rooms;
        self.waiting
            .retain(|id, _| rooms.iter().any(|r| r.id == *id));
    }

    /// The room for a quick player: without `near`, the oldest with a free seat
    /// ([`OpenSeats::unclaimed`]); for a rated quick player, the one whose waiting player's
    /// rating is nearest among those within reach, else the oldest rated table opened
    /// otherwise (whose players' ratings are not known here); `None`: open a new one.
    fn for_player<'a>(
        &'a self,
        options: &'a RoomOptions,
        near: Option<Near>,
        now: u64,
    ) -> Option<&'a RoomHandle> {
        let Some(near) = near else {
            return self.unclaimed(options).next();
        };
        let reach = |r: &&RoomHandle| match self.waiting.get(&r.id) {
            Some(&w) => near.distance(w, now).map(|d| (0, d)),
            None => Some((1, 0)),
        };
        self.unclaimed(options)
            .filter_map(|r| Some((reach(&r)?, r)))
            .min_by_key(|(key, _)| *key)
            .map(|(_, r)| r)
    }

    /// The rooms waiting with `options` that have a seat nobody has been sent to, oldest
    /// first. A claimed player the room already shows seated holds no free seat any more.
    fn unclaimed<'a>(
        &'a self,
        options: &'a RoomOptions,
    ) -> impl Iterator<Item = &'a RoomHandle> + 'a {
        self.rooms.iter().filter(move |r| {
            let info = r.info.borrow();
            if info.options != *options {
                return false;
            }
            let free = info.seats.iter().filter(|s| s.is_none()).count();
            let seated = |p: &PlayerId| info.seats.iter().flatten().any(|s| s.player_id == *p);
            let coming = self
                .claimed
                .get(&r.id)
                .map_or(0, |c| c.iter().filter(|p| !seated(p)).count());
            free > coming
        })
    }

    /// Adds a new room; prunes when the list has doubled since the last pruning, so that
    /// rooms nobody quick-plays into do not pile up.
    fn add(&mut self, room: RoomHandle) {
        self.rooms.push(room);
        if self.rooms.len() >= 2 * self.kept.max(32) {
            self.prune();
        }
    }
}

/// A quick player's seat in a waiting room, held from the lobby's choice until the join is
/// answered. Players who quick-play at the same moment are spread over the free seats: were
/// they all sent to the oldest waiting room, all but one would find it full, each after
/// waiting its turn in that room's inbox (behind a store commit for every seat taken), and
/// open rooms of their own, which the next ones would then race for in turn.
pub struct SeatClaim {
    room: RoomHandle,
    player: PlayerId,
    seats: Arc<Mutex<OpenSeats>>,
}

impl SeatClaim {
    /// The room the seat is in.
    pub fn room(&self) -> &RoomHandle {
        &self.room
    }
}

impl Drop for SeatClaim {
    fn drop(&mut self) {
        let mut open = self.seats.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(claims) = open.claimed.get_mut(&self.room.id) {
            if let Some(i) = claims.iter().position(|p| *p == self.player) {
                claims.swap_remove(i);
            }
            if claims.is_empty() {
                open.claimed.remove(&self.room.id);
            }
        }
    }
}

/// How a room is opened, besides its id and options.
struct Opened {
    /// Its short number for people, if this node counts them.
    number: Option<u64>,
    /// Its name, given by whoever opened it (a competition's table).
    title: Option<TableTitle>,
    bots: bool,
    seed: u64,
    journal: Option<Journal>,
    ticket: Option<RoomTicket>,
    reserved_seats: Option<Arc<[ReservedSeat]>>,
    /// How far its time line runs behind the node's (a room taken over).
    skew: qipai_games::Millis,
    /// Who a seat is held for from the moment the room is listed for quick play (its
    /// creator), so that the listing and the hold are one step.
    claimant: Option<PlayerId>,
}

/// Who opens a room, for the rooms budget.
#[derive(Clone, Copy, Debug)]
pub struct Owner {
    pub session: PlayerId,
    /// `None` for the server's own bots.
    pub addr: Option<IpAddr>,
}

/// The largest id a JavaScript number holds exactly, plus one.
const ID_SPACE: u64 = 1 << 53;

/// A fresh random id in 1..2^53, not `taken`.
pub fn random_id(taken: impl Fn(u64) -> bool) -> u64 {
    loop {
        let id = rand::random::<u64>() % ID_SPACE;
        if id != 0 && !taken(id) {
            return id;
        }
    }
}

impl Lobby {
    /// Gives the lobby the way to seat server bots (a second call changes nothing).
    pub fn set_summon(&self, summon: Summon) {
        let _ = self.summon.set(summon);
    }

    /// Gives the lobby the store's writer, the first room id it may count from when ids
    /// are counted (a configured Tuolaji seed) and the first short number: they go on after
    /// a restart. Random ids need no such help.
    pub fn set_store(
        &self,
        writer: qipai_store::writer::Writer,
        next_id: RoomId,
        next_number: u64,
    ) {
        let _ = self.writer.set(writer);
        self.next_id.fetch_max(next_id, Ordering::Relaxed);
        self.next_number.fetch_max(next_number, Ordering::Relaxed);
    }

    /// Announces every room opened from now on in `directory`, and fences it there.
    pub fn set_directory(&self, directory: Arc<dyn RoomDirectory>) {
        let _ = self.directory.set(directory);
    }

    /// The store's writer, when there is a store.
    pub fn writer(&self) -> Option<&qipai_store::writer::Writer> {
        self.writer.get()
    }

    /// An empty lobby.
    pub fn new(
        config: Arc<Config>,
        clock: ServerClock,
        shutdown: Shutdown,
        budget: Arc<Budget>,
    ) -> Lobby {
        Lobby {
            quick_play: Mutex::new(()),
            open_seats: Arc::default(),
            budget,
            rooms: Arc::new(DashMap::new()),
            next_id: AtomicU64::new(1),
            next_number: AtomicU64::new(1),
            config,
            clock,
            shutdown,
            summon: OnceLock::new(),
            writer: OnceLock::new(),
            table_seats: DashMap::new(),
            directory: OnceLock::new(),
        }
    }

    /// Says that room `id`, when reopened from the store, is a competition's table with
    /// these seats reserved and this title (see [`Lobby::open_table`]).
    pub fn reopen_as_table(&self, id: RoomId, seats: Arc<[ReservedSeat]>, title: TableTitle) {
        self.table_seats.insert(id, (seats, title));
    }

    /// Whether room `id` is a competition's table waiting to be reopened.
    pub fn is_table(&self, id: RoomId) -> bool {
        self.table_seats.contains_key(&id)
    }

    /// The room with this id, if open.
    pub fn get(&self, id: RoomId) -> Option<RoomHandle> {
        self.rooms.get(&id).map(|r| r.clone())
    }

    /// One page of open rooms (of one game), by id: at most `limit` of those with an id
    /// above `after`; the second value is the id to ask `after` for the next page, when
    /// there may be one.
    pub fn list(
        &self,
        game: Option<GameKind>,
        after: Option<RoomId>,
        limit: usize,
    ) -> (Vec<RoomInfo>, Option<RoomId>) {
        let after = after.unwrap_or(0);
        let mut ids: Vec<RoomId> = self
            .rooms
            .iter()
            .filter(|r| r.id > after && game.is_none_or(|g| r.game == g))
            .map(|r| r.id)
            .collect();
        ids.sort_unstable();
        let more = ids.len() > limit;
        ids.truncate(limit);
        let rooms: Vec<RoomInfo> = ids
            .iter()
            .filter_map(|id| self.rooms.get(id).map(|r| r.info.borrow().clone()))
            .collect();
        let next = if more { ids.last().copied() } else { None };
        (rooms, next)
    }

    /// How many rooms are open, per game (every game listed, zeros included).
    pub fn count_by_game(&self) -> Vec<(&'static str, usize)> {
        GameKind::ALL
            .iter()
            .map(|g| (g.name(), self.rooms.iter().filter(|r| r.game == *g).count()))
            .collect()
    }

    /// Every open room's handle.
    pub fn handles(&self) -> Vec<RoomHandle> {
        self.rooms.iter().map(|r| r.clone()).collect()
    }

    /// How many rooms are open.
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    /// Whether no room is open.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// Opens a room with `options` (defaults filled in from the configuration), holding a
    /// seat there for `owner` until the claim is dropped (once their join is answered): a
    /// quick player who comes in between is not given the creator's seat. With `bots`, every
    /// seat nobody takes at once gets a bot, and quick play never sends anybody there;
    /// otherwise empty seats get bots after the game's `bot_fill_ms`.
    ///
    /// # Errors
    /// `bad_options` naming what is wrong; `too_many_rooms` over a budget of `owner`'s or
    /// the server's; `too_many_bots` when `bots` and no bot can be seated.
    pub fn create(
        &self,
        options: RoomOptions,
        bots: bool,
        owner: Owner,
    ) -> Result<SeatClaim, WireError> {
        if bots && !self.budget.bots_available() {
            self.budget.refuse(crate::base::budget::Refused::Bot);
            return Err(WireError {
                code: ErrorCode::TooManyBots,
                message: "the server's bots are all busy: try again later".into(),
            });
        }
        let ticket = self.budget.room(owner.session, owner.addr)?;
        let (id, number, seed, journal) = self.fresh_room();
        let opened = Opened {
            number,
            title: None,
            bots,
            seed,
            journal,
            ticket: Some(ticket),
            reserved_seats: None,
            skew: qipai_games::Millis::ZERO,
            claimant: Some(owner.session),
        };
        let room = self.open(id, options, opened)?;
        Ok(SeatClaim {
            room,
            player: owner.session,
            seats: Arc::clone(&self.open_seats),
        })
    }

    /// A new room's id, short number, seed and log.
    fn fresh_room(&self) -> (RoomId, Option<u64>, u64, Option<Journal>) {
        // Counted ids would collide between nodes: with several, ids are always random
        // (they are not guessable), and short numbers come from their shared count.
        let directory = self.directory.get().filter(|d| !d.ids_are_local());
        let id = if wire::seeded(&self.config) && directory.is_none() {
            self.next_id.fetch_add(1, Ordering::Relaxed)
        } else {
            random_id(|id| self.rooms.contains_key(&id))
        };
        let number = match directory {
            Some(d) => d.take_number(),
            None => Some(self.next_number.fetch_add(1, Ordering::Relaxed)),
        };
        // Kept at once, so that a table opened and left unstarted (never written) does
        // not see its number handed out again after a restart.
        if let (Some(n), Some(writer)) = (number, self.writer.get()) {
            writer.post(qipai_store::Write::RoomNumber(n));
        }
        let seed = rand::random();
        let journal = self.writer.get().map(|w| Journal::new(w.clone(), seed));
        (id, number, seed, journal)
    }

    /// Opens a table whose seats are reserved (a competition's): each seat for the holder
    /// of its code, no bots, not closed while empty; outside every client's rooms budget.
    /// `title` names it wherever people see it.
    ///
    /// # Errors
    /// `bad_options`.
    pub fn open_table(
        &self,
        options: RoomOptions,
        seats: Arc<[ReservedSeat]>,
        title: TableTitle,
    ) -> Result<RoomHandle, WireError> {
        let (id, number, seed, journal) = self.fresh_room();
        let opened = Opened {
            number,
            title: Some(title),
            bots: false,
            seed,
            journal,
            ticket: None,
            reserved_seats: Some(seats),
            skew: qipai_games::Millis::ZERO,
            claimant: None,
        };
        self.open(id, options, opened)
    }

    /// Reopens a room from its log after a restart (see `persist`). It counts in the
    /// server's rooms, against the first person seated in it and against the address that
    /// opened it (PROTOCOL.md §13), like a room opened in this run; a competition's table
    /// counts in no client's budget.
    ///
    /// # Errors
    /// `bad_options` when the stored options are no longer valid.
    pub fn reopen(&self, log: qipai_store::RoomLog) -> Result<RoomHandle, WireError> {
        let options = rmp_serde::from_slice(&log.room.options).map_err(|e| WireError {
            code: ErrorCode::BadOptions,
            message: format!("stored options: {e}"),
        })?;
        let (id, seed, number) = (log.room.id, log.room.seed, log.room.number);
        let person = log.seats.iter().find_map(|s| s.player.filter(|_| !s.bot));
        let addr = log.room.addr.as_deref().and_then(|a| a.parse().ok());
        // Never so far behind that the room's time would go back before its last step (a
        // dead owner's last heartbeat may be older than its last step).
        let last = log.steps.iter().map(|s| s.at_ms);
        let last = last.chain(log.seats.iter().map(|s| s.at_ms)).max();
        let now = self.clock.now().0;
        let skew = qipai_games::Millis(log.skew_ms.min(now.saturating_sub(last.unwrap_or(0))));
        let journal = self.writer.get().map(|w| Journal::reopen(w.clone(), log));
        let (reserved_seats, title) = match self.table_seats.remove(&id) {
            Some((_, (seats, title))) => (Some(seats), Some(title)),
            None => (None, None),
        };
        let ticket = reserved_seats
            .is_none()
            .then(|| self.budget.reopened_room(person, addr));
        let opened = Opened {
            number,
            title,
            bots: false,
            seed,
            journal,
            ticket,
            reserved_seats,
            skew,
            claimant: None,
        };
        self.open(id, options, opened)
    }

    fn open(
        &self,
        id: RoomId,
        options: RoomOptions,
        opened: Opened,
    ) -> Result<RoomHandle, WireError> {
        let Opened {
            number,
            title,
            bots,
            seed,
            journal,
            ticket,
            reserved_seats,
            skew,
            claimant,
        } = opened;
        let competition = reserved_seats.is_some();
        // Otherwise the game's `bot_fill_ms` (`wire::open`).
        let bot_fill = bots.then_some(qipai_games::Millis::ZERO);
        let parts = RoomParts {
            id,
            number,
            title,
            options,
            inbox_size: self.config.server.room_inbox,
            timings: RoomTimings {
                reconnect_grace: qipai_games::Millis(self.config.server.reconnect_grace_ms),
                linger: qipai_games::Millis(self.config.server.room_linger_ms),
                session_grace: qipai_games::Millis(self.config.server.reconnect_grace_ms),
                // A table with reserved seats waits for its late holders (a competition's
                // lateness rules decide).
                empty_grace: qipai_games::Millis(if reserved_seats.is_some() {
                    24 * 60 * 60 * 1000
                } else {
                    self.config.limits.empty_room_grace_ms
                }),
            },
            ticket,
            clock: self.clock,
            registry: Arc::clone(&self.rooms),
            shutdown: self.shutdown.clone(),
            bot_fill,
            summon: self
                .summon
                .get()
                .cloned()
                .filter(|_| reserved_seats.is_none()),
            journal,
            reserved_seats,
            skew,
            fence: self.directory.get().and_then(|d| d.fence()),
        };
        let room = wire::open(parts, &self.config, seed)?;
        // A table opened "with bots" is no quick player's: its free seats are its bots' the
        // moment its creator sits down, and a quick player sent there would find it started
        // (`room_full`). A competition's seats are its entrants'.
        if !competition && !bots {
            let mut open = self
                .open_seats
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            open.add(room.clone());
            if let Some(player) = claimant {
                open.claimed.entry(room.id).or_default().push(player);
            }
        }
        if let Some(directory) = self.directory.get() {
            if self.rooms.contains_key(&id) {
                Arc::clone(directory).publish(&room);
            }
        }
        Ok(room)
    }

    /// A seat for a quick player: in the oldest room waiting with these options that has a
    /// seat no other quick player has been sent to, or, when none has, in a new room.
    /// Choosing and opening happen under one lock, so that two players who quick-play at the
    /// same moment find each other instead of each waiting alone at a table of their own.
    ///
    /// # Errors
    /// `bad_options` when the options are invalid; as [`Lobby::create`].
    pub fn claim_seat(
        &self,
        options: &RoomOptions,
        owner: Owner,
        near: Option<Near>,
    ) -> Result<SeatClaim, WireError> {
        let wanted = wire::normalize(options, &self.config)?;
        let _one_at_a_time = self
            .quick_play
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let now = self.clock.now().0;
        let found = {
            let mut open = self
                .open_seats
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            open.prune();
            open.for_player(&wanted, near, now).cloned()
        };
        let claim = match found {
            Some(room) => {
                let player = owner.session;
                let mut open = self
                    .open_seats
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                open.claimed.entry(room.id).or_default().push(player);
                drop(open);
                SeatClaim {
                    room,
                    player,
                    seats: Arc::clone(&self.open_seats),
                }
            }
            None => {
                let claim = self.create(options.clone(), false, owner)?;
                if let Some(near) = near {
                    let mut open = self
                        .open_seats
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    open.waiting.insert(claim.room.id, (near.rating, now));
                }
                claim
            }
        };
        Ok(claim)
    }

    /// Whether a room waits with these options and a seat no quick player has been sent to.
    ///
    /// # Errors
    /// `bad_options` when the options are invalid.
    pub fn has_waiting(&self, options: &RoomOptions) -> Result<bool, WireError> {
        let wanted = wire::normalize(options, &self.config)?;
        Ok(self.first_unclaimed(&wanted).is_some())
    }

    /// The oldest room waiting with `wanted` (normalised) options and a seat no quick
    /// player has been sent to, after forgetting the rooms that closed or started.
    fn first_unclaimed(&self, wanted: &RoomOptions) -> Option<RoomHandle> {
        let mut open = self
            .open_seats
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.prune();
        let first = open.unclaimed(wanted).next().cloned();
        first
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use qipai_protocol::tuolaji::TuolajiOptions;
    use qipai_protocol::xiangqi::XiangqiOptions;
    use qipai_protocol::RoomOptions;

    use super::{Lobby, Owner};
    use crate::base::budget::Budget;
    use crate::base::clock::ServerClock;
    use crate::base::config::Config;
    use crate::base::shutdown::{self, ShutdownTrigger};

    /// A lobby, and the trigger its rooms listen to (kept, so none of them stops).
    fn lobby() -> (Lobby, ShutdownTrigger) {
        let config = Arc::new(Config::defaults().unwrap());
        let (trigger, shutdown) = shutdown::channel();
        let budget = Arc::new(Budget::new(&config));
        let lobby = Lobby::new(config, ServerClock::start(), shutdown, budget);
        (lobby, trigger)
    }

    fn owner(session: u64) -> Owner {
        Owner {
            session,
            addr: Some([127, 0, 0, session as u8].into()),
        }
    }

    /// A "play the bot" table's free seats are its bots' once its creator sits down: a
    /// quick player sent there found it started (`room_full`, four times running while
    /// the soak's attacker opened such tables of the same options as the load's).
    #[tokio::test]
    async fn a_table_opened_with_bots_is_no_quick_players() {
        let (lobby, _running) = lobby();
        let options = RoomOptions::Tuolaji(TuolajiOptions::default());
        let with_bots = lobby.create(options.clone(), true, owner(1)).unwrap();
        let quick = lobby.claim_seat(&options, owner(2), None).unwrap();
        assert_ne!(quick.room().id, with_bots.room().id);
        // A table opened without bots is the next quick player's.
        let other = lobby.claim_seat(&options, owner(3), None).unwrap();
        assert_eq!(other.room().id, quick.room().id);
    }

    /// A table's creator holds a seat from the moment it opens: of two quick players who
    /// come before the creator's join is answered at a two-seat table, one is sent there
    /// and the other to a table of their own.
    #[tokio::test]
    async fn a_creators_seat_is_held_until_they_sit_down() {
        let (lobby, _running) = lobby();
        let options = RoomOptions::Xiangqi(XiangqiOptions::default());
        let created = lobby.create(options.clone(), false, owner(1)).unwrap();
        let first = lobby.claim_seat(&options, owner(2), None).unwrap();
        assert_eq!(first.room().id, created.room().id);
        let second = lobby.claim_seat(&options, owner(3), None).unwrap();
        assert_ne!(second.room().id, created.room().id);
    }
}
