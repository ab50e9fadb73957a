//! Attempts with a secret (a director's login, an entry code, an account's sign-in) per key:
//! a client address (an IPv6 address by its /64, [`per_user`]) or an account. `free`
//! attempts that did not succeed, then the key waits before the next; each further failure
//! makes it wait `delay_ms`, doubled per failure (at most 15 minutes). PROTOCOL.md §13, §17
//! and §19 say the numbers.
//!
//! An attempt counts from its start, not from its answer: a request whose head came and whose
//! body is still on its way holds one of the address's attempts, so sending many heads first
//! and their bodies later cannot get more than the free ones checked. The addresses remembered
//! are bounded; when they are all waiting, the one whose wait ends first is forgotten first,
//! never all at once.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard, PoisonError};

use qipai_protocol::{ErrorCode, WireError};

use crate::base::addr_key::per_user;

/// The longest wait after failed attempts (15 minutes); failures older than this past an
/// address's last one are forgotten.
const MAX_DELAY_MS: u64 = 15 * 60 * 1000;

/// Addresses remembered at most.
const MAX_TRACKED: usize = 10_000;

/// Attempts per key; see the module's documentation.
pub struct Limiter<K = IpAddr> {
    free: u32,
    delay_ms: u64,
    /// What is counted and by what, for the refusal ("director logins from this address").
    what: &'static str,
    attempts: Mutex<HashMap<K, Attempts>>,
    most: usize,
}

/// What a [`Limiter`] counts attempts by.
pub trait AttemptKey: Copy + Eq + std::hash::Hash {
    /// The key the attempts are counted under: an IPv6 address by its /64 (one user's).
    fn counted_as(self) -> Self;
}

impl AttemptKey for IpAddr {
    fn counted_as(self) -> IpAddr {
        per_user(self)
    }
}

/// An account, by its id.
impl AttemptKey for u64 {
    fn counted_as(self) -> u64 {
        self
    }
}

/// One address's attempts that did not succeed, and those under way.
#[derive(Clone, Copy, Debug, Default)]
struct Attempts {
    /// Failures (a success of a director's login clears them).
    count: u32,
    /// Until when (Unix ms) the address must wait.
    until_ms: i64,
    /// The last failure (Unix ms).
    last_ms: i64,
    /// Attempts begun and not answered yet ([`Attempt`]).
    pending: u32,
}

/// An attempt under way, from [`Limiter::begin`]: it holds one of its address's attempts
/// until it is answered ([`Attempt::failed`]) or dropped (it did not fail).
pub struct Attempt<'a, K: AttemptKey = IpAddr> {
    limiter: &'a Limiter<K>,
    addr: K,
}

impl<K: AttemptKey> Limiter<K> {
    /// `free` failures, then waits from `delay_ms`; `what` names the attempts and what they
    /// are counted by.
    pub fn new(free: u32, delay_ms: u64, what: &'static str) -> Limiter<K> {
        Limiter::bounded(free, delay_ms, what, MAX_TRACKED)
    }

    fn bounded(free: u32, delay_ms: u64, what: &'static str, most: usize) -> Limiter<K> {
        Limiter {
            free,
            delay_ms,
            what,
            attempts: Mutex::new(HashMap::new()),
            most,
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<K, Attempts>> {
        self.attempts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts an attempt from `addr` as a failure until it succeeds, or refuses it
    /// (`too_many_attempts`) while the address must wait (director logins: a success
    /// clears, [`Limiter::succeeded`]).
    ///
    /// # Errors
    /// `too_many_attempts`, saying how long to wait.
    pub fn attempt(&self, addr: K, now: i64) -> Result<(), WireError> {
        self.begin(addr, now)?.failed(now);
        Ok(())
    }

    /// Begins an attempt from `addr`: refused (`too_many_attempts`) while the address must
    /// wait, or while as many of its attempts are under way as it has free failures left
    /// (at least one). A right answer then neither counts nor clears (entry codes: a hall of
    /// players behind one address asks again and again, and guesses between right answers
    /// must still wait).
    ///
    /// # Errors
    /// `too_many_attempts`, saying how long to wait.
    pub fn begin(&self, addr: K, now: i64) -> Result<Attempt<'_, K>, WireError> {
        let addr = addr.counted_as();
        let mut map = self.map();
        let a = self.slot(&mut map, addr, now);
        self.not_waiting(a, now)?;
        if a.pending >= self.free.saturating_sub(a.count).max(1) {
            return Err(self.refusal(format!(
                "too many {} under way: try again in a moment",
                self.what
            )));
        }
        a.pending += 1;
        Ok(Attempt {
            limiter: self,
            addr,
        })
    }

    /// Refuses (`too_many_attempts`) while `addr` must wait, holding nothing: for attempts
    /// that arrive whole (a WebSocket `join` with an entry code is one frame, so no batch of
    /// heads can wait for its bodies) and that may overlap in numbers (a hall of players
    /// behind one address sitting down at once, each join waiting for its table). A wrong
    /// answer is then counted with [`Limiter::failed`].
    ///
    /// # Errors
    /// `too_many_attempts`, saying how long to wait.
    pub fn check(&self, addr: K, now: i64) -> Result<(), WireError> {
        let addr = addr.counted_as();
        let mut map = self.map();
        let a = self.slot(&mut map, addr, now);
        self.not_waiting(a, now)
    }

    /// `too_many_attempts`, saying how long, while `a`'s wait runs.
    fn not_waiting(&self, a: &Attempts, now: i64) -> Result<(), WireError> {
        if a.until_ms > now {
            let wait = a.until_ms - now;
            return Err(self.refusal(format!("too many failed {}: wait {wait} ms", self.what)));
        }
        Ok(())
    }

    /// An attempt from `addr` that [`Limiter::check`] let through failed: past the free
    /// ones, the address waits.
    pub fn failed(&self, addr: K, now: i64) {
        self.count_failure(addr.counted_as(), now);
    }

    fn count_failure(&self, addr: K, now: i64) {
        let mut map = self.map();
        let a = map.entry(addr).or_default();
        a.count = a.count.saturating_add(1);
        a.last_ms = now;
        // The `free`-th failure is the last one without a wait: the next attempt waits.
        if a.count >= self.free {
            let doublings = (a.count - self.free).min(20);
            let delay = self
                .delay_ms
                .saturating_mul(1 << doublings)
                .min(MAX_DELAY_MS);
            a.until_ms = now.saturating_add(i64::try_from(delay).unwrap_or(i64::MAX));
        }
    }

    /// An attempt from `addr` succeeded: its failures are forgotten.
    pub fn succeeded(&self, addr: K) {
        self.map().remove(&addr.counted_as());
    }

    fn refusal(&self, message: String) -> WireError {
        WireError {
            code: ErrorCode::TooManyAttempts,
            message,
        }
    }

    /// `addr`'s entry, made room for: when the map is full, the addresses neither waiting
    /// nor under way go first; if all are, the one whose wait ends first (not under way).
    fn slot<'m>(&self, map: &'m mut HashMap<K, Attempts>, addr: K, now: i64) -> &'m mut Attempts {
        if map.len() >= self.most && !map.contains_key(&addr) {
            map.retain(|_, a| a.until_ms > now || a.pending > 0);
            if map.len() >= self.most {
                let first = map
                    .iter()
                    .filter(|(_, a)| a.pending == 0)
                    .min_by_key(|(_, a)| a.until_ms)
                    .map(|(k, _)| *k);
                if let Some(k) = first {
                    map.remove(&k);
                }
            }
        }
        let a = map.entry(addr).or_default();
        let stale = i64::try_from(MAX_DELAY_MS).unwrap_or(i64::MAX);
        if a.pending == 0 && a.until_ms <= now && now.saturating_sub(a.last_ms) > stale {
            *a = Attempts::default();
        }
        a
    }
}

impl<K: AttemptKey> Attempt<'_, K> {
    /// The attempt failed: past the free ones, the address waits.
    pub fn failed(self, now: i64) {
        self.limiter.count_failure(self.addr, now);
    }
}

impl<K: AttemptKey> Drop for Attempt<'_, K> {
    fn drop(&mut self) {
        let mut map = self.limiter.map();
        if let Some(a) = map.get_mut(&self.addr) {
            a.pending = a.pending.saturating_sub(1);
            if a.pending == 0 && a.count == 0 {
                map.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(n: u32) -> IpAddr {
        IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + n))
    }

    #[test]
    fn attempts_under_way_count_before_their_answer() {
        let l: Limiter = Limiter::new(5, 1000, "entry codes");
        let held: Vec<_> = (0..5).map(|_| l.begin(addr(1), 0).unwrap()).collect();
        let refused = l.begin(addr(1), 0).err().unwrap();
        assert_eq!(refused.code, ErrorCode::TooManyAttempts);
        for a in held {
            a.failed(0);
        }
        assert!(l.begin(addr(1), 999).is_err(), "five failures: a wait");
        assert!(l.begin(addr(1), 1000).is_ok(), "one more after the wait");
    }

    #[test]
    fn a_right_answer_neither_counts_nor_clears() {
        let l: Limiter = Limiter::new(2, 1000, "entry codes");
        l.begin(addr(1), 0).unwrap().failed(0);
        drop(l.begin(addr(1), 0).unwrap());
        l.begin(addr(1), 0).unwrap().failed(0);
        assert!(l.begin(addr(1), 1).is_err(), "the second failure waits");
    }

    #[test]
    fn a_full_map_forgets_the_wait_that_ends_first_not_all() {
        let l: Limiter = Limiter::bounded(1, 1000, "director logins", 3);
        for n in 1..=3 {
            l.attempt(addr(n), i64::from(n)).unwrap();
        }
        l.attempt(addr(4), 10).unwrap();
        assert!(l.begin(addr(2), 20).is_err(), "the others still wait");
        assert!(l.begin(addr(3), 20).is_err());
        assert!(l.begin(addr(4), 20).is_err());
        assert!(
            l.begin(addr(1), 20).is_ok(),
            "the first to end was forgotten"
        );
    }

    #[test]
    fn failures_long_past_are_forgotten() {
        let l: Limiter = Limiter::new(1, 1000, "entry codes");
        l.attempt(addr(1), 0).unwrap();
        let later = i64::try_from(MAX_DELAY_MS).unwrap() * 2;
        l.begin(addr(1), later).unwrap().failed(later);
        assert!(
            l.begin(addr(1), later + 1).is_err(),
            "counted afresh: a wait"
        );
        assert!(
            l.begin(addr(1), later + 1000).is_ok(),
            "the first wait, not doubled"
        );
    }
}
