//! Budgets: what clients may make the server spend, counted where it is spent.
//!
//! Each budgeted thing is held through a ticket (a connection, a room, a bot): taking one
//! checks the limits and counts, dropping it gives the place back, so a count can never
//! leak on an early return or a panic. The counts and the refusals are shown in `/metrics`.
//! Per-address budgets count an IPv6 address by its /64 ([`crate::base::addr_key`]).

use std::hash::Hash;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use dashmap::DashMap;
use qipai_protocol::{ErrorCode, PlayerId, WireError};
use tokio::sync::Semaphore;

use crate::base::addr_key::per_user;
use crate::base::config::Config;
use crate::base::ratelimit::TokenBucket;
use crate::base::sockets::{descriptor_limit, Sockets};

/// Counts by key (an address, a session), each capped at `cap`.
#[derive(Debug)]
pub(crate) struct Keyed<K: Hash + Eq> {
    map: DashMap<K, usize>,
    pub(crate) cap: usize,
}

impl<K: Hash + Eq + Copy> Keyed<K> {
    pub(crate) fn new(cap: usize) -> Keyed<K> {
        Keyed {
            map: DashMap::new(),
            cap,
        }
    }

    /// Counts one more for `key`, unless it is at its cap.
    pub(crate) fn take(&self, key: K) -> bool {
        let mut n = self.map.entry(key).or_insert(0);
        if *n >= self.cap {
            return false;
        }
        *n += 1;
        true
    }

    /// Counts one more for `key`, over its cap if need be (what exists already).
    fn add(&self, key: K) {
        *self.map.entry(key).or_insert(0) += 1;
    }

    /// Gives one back; a key at zero is forgotten, so the map holds only live keys.
    pub(crate) fn give(&self, key: K) {
        self.map.remove_if_mut(&key, |_, n| {
            *n = n.saturating_sub(1);
            *n == 0
        });
    }
}

/// A token bucket by key (new connections by address). A key whose bucket has refilled is
/// forgotten now and then, so the map holds only the addresses that connected lately.
#[derive(Debug)]
struct Rates<K: Hash + Eq> {
    map: DashMap<K, TokenBucket>,
    rate: u32,
    burst: u32,
    takes: AtomicU64,
}

/// Takes between two sweeps of [`Rates`]' refilled buckets.
const SWEEP_EVERY: u64 = 4096;

impl<K: Hash + Eq + Copy> Rates<K> {
    fn new(rate: u32, burst: u32) -> Rates<K> {
        Rates {
            map: DashMap::new(),
            rate,
            burst,
            takes: AtomicU64::new(0),
        }
    }

    /// Takes one token from `key`'s bucket, if it has one.
    fn take(&self, key: K) -> bool {
        if self.takes.fetch_add(1, Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.map.retain(|_, bucket| !bucket.is_full());
        }
        self.map
            .entry(key)
            .or_insert_with(|| TokenBucket::new(self.rate, self.burst))
            .take()
    }
}

/// A total capped at `cap`.
#[derive(Debug)]
pub(crate) struct Total {
    now: AtomicUsize,
    pub(crate) cap: usize,
}

impl Total {
    pub(crate) fn new(cap: usize) -> Total {
        Total {
            now: AtomicUsize::new(0),
            cap,
        }
    }

    pub(crate) fn take(&self) -> bool {
        self.now
            .fetch_update(Relaxed, Relaxed, |n| (n < self.cap).then_some(n + 1))
            .is_ok()
    }

    /// Counts one more, over the cap if need be (what exists already).
    fn add(&self) {
        self.now.fetch_add(1, Relaxed);
    }

    pub(crate) fn give(&self) {
        let _ = self
            .now
            .fetch_update(Relaxed, Relaxed, |n| Some(n.saturating_sub(1)));
    }

    pub(crate) fn get(&self) -> usize {
        self.now.load(Relaxed)
    }
}

/// What was refused, for `/metrics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    Connection,
    Room,
    Bot,
    Timeout,
    ConnectRate,
    LongPoll,
    Session,
}

impl Refused {
    const ALL: [Refused; 7] = [
        Refused::Connection,
        Refused::Room,
        Refused::Bot,
        Refused::Timeout,
        Refused::ConnectRate,
        Refused::LongPoll,
        Refused::Session,
    ];

    fn name(self) -> &'static str {
        match self {
            Refused::Connection => "connection",
            Refused::Room => "room",
            Refused::Bot => "bot",
            Refused::Timeout => "timeout",
            Refused::ConnectRate => "connect_rate",
            Refused::LongPoll => "long_poll",
            Refused::Session => "session",
        }
    }
}

/// Every budget of the server and its counts.
#[derive(Debug)]
pub struct Budget {
    connections: Total,
    connections_by_addr: Keyed<IpAddr>,
    connects_by_addr: Rates<IpAddr>,
    rooms: Total,
    rooms_by_addr: Keyed<IpAddr>,
    rooms_by_session: Keyed<PlayerId>,
    bots: Total,
    long_polls: Total,
    long_polls_by_addr: Keyed<IpAddr>,
    /// Player sessions live at once (counted by `lobby::session::Sessions` itself).
    max_sessions: usize,
    /// Bot searches running at once: a search waits for a permit before it takes a thread.
    pub think: Arc<Semaphore>,
    /// The transposition table of one xiangqi bot, in bytes.
    pub bot_table_bytes: usize,
    /// The most a bot may think per move, in ms.
    pub bot_think_max_ms: u64,
    /// Descriptors and plain HTTP connections, taken at each accept.
    pub sockets: Arc<Sockets>,
    refused: [AtomicU64; 7],
    limits: Vec<(&'static str, u64)>,
}

impl Budget {
    /// The budgets of `config`.
    pub fn new(config: &Config) -> Budget {
        let l = &config.limits;
        let bot_memory = l.bot_memory_mib.saturating_mul(1 << 20);
        Budget {
            connections: Total::new(config.server.max_connections),
            connections_by_addr: Keyed::new(l.max_connections_per_addr),
            connects_by_addr: Rates::new(l.connect_rate_per_addr, l.connect_burst_per_addr),
            rooms: Total::new(l.max_rooms),
            rooms_by_addr: Keyed::new(l.rooms_per_addr),
            rooms_by_session: Keyed::new(l.rooms_per_session),
            bots: Total::new(l.max_bots),
            long_polls: Total::new(l.max_long_polls),
            long_polls_by_addr: Keyed::new(l.long_polls_per_addr),
            max_sessions: l.max_sessions,
            think: Arc::new(Semaphore::new(l.bot_threads.max(1))),
            bot_table_bytes: bot_memory / l.max_bots.max(1),
            bot_think_max_ms: l.bot_think_max_ms,
            sockets: Arc::new(Sockets::new(config, descriptor_limit())),
            refused: Default::default(),
            limits: vec![
                ("max_connections", config.server.max_connections as u64),
                (
                    "max_connections_per_addr",
                    l.max_connections_per_addr as u64,
                ),
                ("connect_rate_per_addr", u64::from(l.connect_rate_per_addr)),
                (
                    "connect_burst_per_addr",
                    u64::from(l.connect_burst_per_addr),
                ),
                ("max_rooms", l.max_rooms as u64),
                ("rooms_per_addr", l.rooms_per_addr as u64),
                ("rooms_per_session", l.rooms_per_session as u64),
                ("max_bots", l.max_bots as u64),
                ("bot_threads", l.bot_threads as u64),
                ("bot_memory_mib", l.bot_memory_mib as u64),
                ("bot_think_max_ms", l.bot_think_max_ms),
                ("max_outbound_bytes", l.max_outbound_bytes as u64),
                ("pong_timeout_ms", l.pong_timeout_ms),
                ("http_body_timeout_ms", l.http_body_timeout_ms),
                ("max_long_polls", l.max_long_polls as u64),
                ("long_polls_per_addr", l.long_polls_per_addr as u64),
                ("max_sessions", l.max_sessions as u64),
            ],
        }
    }

    /// Counts a refusal of `what`.
    pub fn refuse(&self, what: Refused) {
        if let Some(i) = Refused::ALL.iter().position(|r| *r == what) {
            if let Some(counter) = self.refused.get(i) {
                counter.fetch_add(1, Relaxed);
            }
        }
    }

    /// Whether `addr` may open one more connection now (its bucket of new connections);
    /// a refusal is counted.
    pub fn connect_rate(&self, addr: IpAddr) -> bool {
        let ok = self.connects_by_addr.take(per_user(addr));
        if !ok {
            self.refuse(Refused::ConnectRate);
        }
        ok
    }

    /// A place for a connection from `addr`, or `too_many_connections`.
    pub fn connection(self: &Arc<Self>, addr: IpAddr) -> Result<ConnTicket, WireError> {
        let mut ticket = self.node_link(addr)?;
        ticket.count_as(addr)?;
        Ok(ticket)
    }

    /// A place for another node's link (several nodes, `/node`), counted in the server's
    /// total only: the link carries one forwarded player, who is counted by their own
    /// address once the internal hello names it ([`ConnTicket::count_as`]).
    pub fn node_link(self: &Arc<Self>, addr: IpAddr) -> Result<ConnTicket, WireError> {
        if !self.connections.take() {
            self.refuse(Refused::Connection);
            return Err(refusal(
                ErrorCode::TooManyConnections,
                "the server is full: try again later",
            ));
        }
        Ok(ConnTicket {
            budget: Arc::clone(self),
            addr,
            counted: None,
        })
    }

    /// A place for a room opened by `session` from `addr` (`None` for the server's own), or
    /// `too_many_rooms`.
    pub fn room(
        self: &Arc<Self>,
        session: PlayerId,
        addr: Option<IpAddr>,
    ) -> Result<RoomTicket, WireError> {
        let refused = |budget: &Budget, message| {
            budget.refuse(Refused::Room);
            Err(refusal(ErrorCode::TooManyRooms, message))
        };
        if !self.rooms.take() {
            return refused(self, "the server has as many rooms as it can hold");
        }
        if !self.rooms_by_session.take(session) {
            self.rooms.give();
            return refused(self, "you have opened as many rooms as you may");
        }
        if let Some(addr) = addr {
            if !self.rooms_by_addr.take(per_user(addr)) {
                self.rooms.give();
                self.rooms_by_session.give(session);
                return refused(self, "your address has opened as many rooms as it may");
            }
        }
        Ok(RoomTicket {
            budget: Arc::clone(self),
            session: Some(session),
            addr,
        })
    }

    /// The place of a room reopened from the store after a restart: counted in the server's
    /// rooms, against `session` (a person seated in it) and against `addr` (the address that
    /// opened it, as stored), over their caps if need be — the room exists, and new rooms
    /// are refused until there is room again.
    pub fn reopened_room(
        self: &Arc<Self>,
        session: Option<PlayerId>,
        addr: Option<IpAddr>,
    ) -> RoomTicket {
        self.rooms.add();
        if let Some(session) = session {
            self.rooms_by_session.add(session);
        }
        if let Some(addr) = addr {
            self.rooms_by_addr.add(per_user(addr));
        }
        RoomTicket {
            budget: Arc::clone(self),
            session,
            addr,
        }
    }

    /// Whether one more player session may be made while `live` are (a `hello` without a
    /// resume token), or `too_many_sessions`: each session holds memory and a stored row
    /// until its grace ends, so a client saying hello in a loop is bounded by the cap.
    pub fn session(&self, live: usize) -> Result<(), WireError> {
        if live < self.max_sessions {
            return Ok(());
        }
        self.refuse(Refused::Session);
        Err(refusal(
            ErrorCode::TooManySessions,
            "the server holds as many players as it can: try again later",
        ))
    }

    /// Whether a bot could be seated now (for `create_room` with `bots: true`).
    pub fn bots_available(&self) -> bool {
        self.bots.get() < self.bots.cap
    }

    /// A place for one server bot, or `None` (counted as refused).
    pub fn bot(self: &Arc<Self>) -> Option<BotTicket> {
        if self.bots.take() {
            Some(BotTicket {
                budget: Arc::clone(self),
            })
        } else {
            self.refuse(Refused::Bot);
            None
        }
    }

    /// A place for a long poll from `addr` (`GET /api/competitions/changes`), or
    /// `too_many_connections`: long polls hold a descriptor each for up to 25 s, so they
    /// are capped in all and by address like WebSockets.
    pub fn long_poll(self: &Arc<Self>, addr: IpAddr) -> Result<LongPollTicket, WireError> {
        if !self.long_polls.take() {
            self.refuse(Refused::LongPoll);
            return Err(refusal(
                ErrorCode::TooManyConnections,
                "too many long polls waiting: try again later",
            ));
        }
        if !self.long_polls_by_addr.take(per_user(addr)) {
            self.long_polls.give();
            self.refuse(Refused::LongPoll);
            return Err(refusal(
                ErrorCode::TooManyConnections,
                "too many long polls from your address",
            ));
        }
        Ok(LongPollTicket {
            budget: Arc::clone(self),
            addr,
        })
    }

    /// Bots playing now.
    pub fn bots(&self) -> usize {
        self.bots.get()
    }

    /// The `/metrics` families: each limit, what is in use, what was refused.
    pub fn scrape(&self, scrape: &crate::base::metrics::Scrape<'_>) {
        for (key, value) in &self.limits {
            scrape.gauge(
                "qipai_limit",
                "Each configured budget ([limits]).",
                &[("key", key)],
                *value as f64,
            );
        }
        let thinking = self.think.available_permits();
        for (what, n) in [
            ("connections", self.connections.get()),
            ("addresses", self.connections_by_addr.map.len()),
            ("rooms", self.rooms.get()),
            ("bots", self.bots.get()),
            ("long_polls", self.long_polls.get()),
            ("bot_threads_free", thinking),
        ] {
            scrape.gauge(
                "qipai_in_use",
                "What the budgets count now.",
                &[("what", what)],
                n as f64,
            );
        }
        for (what, n) in Refused::ALL.iter().zip(&self.refused) {
            scrape.counter(
                "qipai_refused_total",
                "Requests refused by a budget, by what.",
                &[("what", what.name())],
                n.load(Relaxed),
            );
        }
        self.sockets.scrape(scrape);
    }
}

fn refusal(code: ErrorCode, message: &str) -> WireError {
    WireError {
        code,
        message: message.to_owned(),
    }
}

/// A connection's place; dropping it frees the place.
#[derive(Debug)]
pub struct ConnTicket {
    budget: Arc<Budget>,
    addr: IpAddr,
    /// The address whose `max_connections_per_addr` it counts in (none: another node's
    /// link before its internal hello).
    counted: Option<IpAddr>,
}

impl ConnTicket {
    /// The client's address.
    pub fn addr(&self) -> IpAddr {
        self.addr
    }

    /// Counts this connection against `addr` from now on (another node's link saying
    /// whose connection it carries; a direct client's own address), or
    /// `too_many_connections` when `addr` is at its cap (then nothing changes).
    pub fn count_as(&mut self, addr: IpAddr) -> Result<(), WireError> {
        if self.counted == Some(addr) {
            return Ok(());
        }
        if !self.budget.connections_by_addr.take(per_user(addr)) {
            self.budget.refuse(Refused::Connection);
            return Err(refusal(
                ErrorCode::TooManyConnections,
                "too many connections from your address",
            ));
        }
        if let Some(old) = self.counted.replace(addr) {
            self.budget.connections_by_addr.give(per_user(old));
        }
        self.addr = addr;
        Ok(())
    }
}

impl Drop for ConnTicket {
    fn drop(&mut self) {
        self.budget.connections.give();
        if let Some(addr) = self.counted {
            self.budget.connections_by_addr.give(per_user(addr));
        }
    }
}

/// A long poll's place, held while it waits.
#[derive(Debug)]
pub struct LongPollTicket {
    budget: Arc<Budget>,
    addr: IpAddr,
}

impl Drop for LongPollTicket {
    fn drop(&mut self) {
        self.budget.long_polls.give();
        self.budget.long_polls_by_addr.give(per_user(self.addr));
    }
}

/// A room's place, held by the room's task until it ends.
#[derive(Debug)]
pub struct RoomTicket {
    budget: Arc<Budget>,
    session: Option<PlayerId>,
    addr: Option<IpAddr>,
}

impl RoomTicket {
    /// The address the room counts against, as the per-address budgets key it (kept with
    /// the room in the store, so that it counts there again after a restart).
    pub fn addr_key(&self) -> Option<IpAddr> {
        self.addr.map(per_user)
    }
}

impl Drop for RoomTicket {
    fn drop(&mut self) {
        self.budget.rooms.give();
        if let Some(session) = self.session {
            self.budget.rooms_by_session.give(session);
        }
        if let Some(addr) = self.addr {
            self.budget.rooms_by_addr.give(per_user(addr));
        }
    }
}

/// A bot's place, held by the bot's task until it stops.
#[derive(Debug)]
pub struct BotTicket {
    budget: Arc<Budget>,
}

impl Drop for BotTicket {
    fn drop(&mut self) {
        self.budget.bots.give();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(tweak: impl FnOnce(&mut Config)) -> Arc<Budget> {
        let mut config = Config::defaults().unwrap();
        tweak(&mut config);
        Arc::new(Budget::new(&config))
    }

    #[test]
    fn connections_are_capped_per_address_and_given_back() {
        let b = budget(|c| c.limits.max_connections_per_addr = 2);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let other: IpAddr = "127.0.0.3".parse().unwrap();
        let t1 = b.connection(a).unwrap();
        let _t2 = b.connection(a).unwrap();
        let err = b.connection(a).unwrap_err();
        assert_eq!(err.code, ErrorCode::TooManyConnections);
        let _t3 = b.connection(other).unwrap();
        drop(t1);
        let _t4 = b.connection(a).unwrap();
        assert_eq!(b.connections.get(), 3);
    }

    #[test]
    fn rooms_are_capped_per_session_address_and_total() {
        let b = budget(|c| {
            c.limits.rooms_per_session = 1;
            c.limits.rooms_per_addr = 2;
            c.limits.max_rooms = 3;
        });
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let r1 = b.room(1, Some(a)).unwrap();
        assert_eq!(
            b.room(1, Some(a)).unwrap_err().code,
            ErrorCode::TooManyRooms
        );
        let _r2 = b.room(2, Some(a)).unwrap();
        assert!(b.room(3, Some(a)).is_err(), "the address is at its cap");
        let _r3 = b.room(3, None).unwrap();
        assert!(b.room(4, None).is_err(), "the server is at its cap");
        drop(r1);
        assert!(b.room(1, Some(a)).is_ok());
        assert!(
            b.rooms_by_session.map.get(&4).is_none(),
            "no leak on refusal"
        );
    }

    #[test]
    fn sessions_are_capped() {
        let b = budget(|c| c.limits.max_sessions = 2);
        assert!(b.session(1).is_ok());
        assert_eq!(b.session(2).unwrap_err().code, ErrorCode::TooManySessions);
        assert_eq!(b.refused[6].load(Relaxed), 1);
    }

    #[test]
    fn bots_are_capped() {
        let b = budget(|c| c.limits.max_bots = 1);
        let t = b.bot().unwrap();
        assert!(b.bot().is_none());
        assert!(!b.bots_available());
        drop(t);
        assert!(b.bot().is_some());
    }
}
