//! Whether this node may still act for its rooms: with several nodes a room belongs to the
//! node whose lease covers it, and a node whose lease lapsed must stop accepting actions
//! before another node may take its rooms over (README "Several nodes"). The room asks
//! the fence before each action; the topology that holds the lease keeps it up to date.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Whether a node holds its lease now: rooms ask before accepting an action.
#[derive(Clone, Debug)]
pub struct Fence {
    start: Instant,
    /// Milliseconds after `start` until which the lease is surely held (0: not held).
    valid_until: Arc<AtomicU64>,
    /// How long before `valid_until` the node stops sending for its rooms.
    margin_ms: Arc<AtomicU64>,
    /// Rooms another node took over while the lease had lapsed, marked before the lease
    /// is held again: a room that waited for the lease learns here that it must stop.
    taken: Arc<Mutex<HashSet<u64>>>,
}

impl Default for Fence {
    fn default() -> Fence {
        Fence::new()
    }
}

impl Fence {
    /// A fence that is down until its first [`Fence::hold_until`].
    pub fn new() -> Fence {
        Fence {
            start: Instant::now(),
            valid_until: Arc::new(AtomicU64::new(0)),
            margin_ms: Arc::new(AtomicU64::new(0)),
            taken: Arc::default(),
        }
    }

    /// Whether the lease is held now. The time is taken before each renewal is sent, so
    /// this turns false no later than the lease expires where it is kept.
    pub fn ok(&self) -> bool {
        self.now_ms() < self.valid_until.load(Ordering::Acquire)
    }

    /// Whether the lease is held now and for the margin more (by this node's own monotonic
    /// clock): nothing leaves for a room unless it is, so what leaves reaches its clients
    /// before another node may take the room over.
    pub fn ok_to_send(&self) -> bool {
        let margin = self.margin_ms.load(Ordering::Relaxed);
        self.now_ms().saturating_add(margin) < self.valid_until.load(Ordering::Acquire)
    }

    /// Room `room` was taken over by another node while the lease had lapsed (marked
    /// before the lease is held again).
    pub fn mark_taken(&self, room: u64) {
        if let Ok(mut taken) = self.taken.lock() {
            taken.insert(room);
        }
    }

    /// Whether room `room` was taken over meanwhile (forgotten once asked: the room stops).
    pub fn take_taken(&self, room: u64) -> bool {
        self.taken.lock().is_ok_and(|mut taken| taken.remove(&room))
    }

    /// Sending for the rooms stops `margin_ms` before the lease runs out.
    pub fn set_margin(&self, margin_ms: u64) {
        self.margin_ms.store(margin_ms, Ordering::Relaxed);
    }

    /// The fence's own time: milliseconds since it was made.
    pub fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether a lease that was held has run out (false before the first one).
    pub fn lapsed(&self) -> bool {
        let until = self.valid_until.load(Ordering::Acquire);
        until != 0 && until <= self.now_ms()
    }

    /// The lease is held until `until_ms` (the fence's own time, [`Fence::now_ms`]).
    pub fn hold_until(&self, until_ms: u64) {
        self.valid_until.store(until_ms, Ordering::Release);
    }

    /// The lease is given back: every action is refused from now on.
    pub fn lower(&self) {
        self.valid_until.store(0, Ordering::Release);
    }
}
