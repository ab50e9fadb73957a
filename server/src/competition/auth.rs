//! Directors: one credential set at deployment (`[director]`: a name and an
//! Argon2 hash of the password), a session token after `POST /api/director/login`, sent back
//! as `Authorization: Bearer …` or the `qipai_director` cookie. Tokens are random (256 bits)
//! and kept only as their SHA-256 hash, in memory and in the store, so a restart keeps
//! directors signed in and a stolen database gives no token.
//!
//! The password is kept as an Argon2 hash ([`crate::base::hashing`]): a deployment's config
//! file or environment then holds no password, and the hash is slow to guess from. Its
//! parameters travel in the PHC string, so a deployment chooses its cost (`qipai-server
//! hash-password` uses the crate's defaults). Every check goes through the server's one
//! bounded hashing pool, so guessing from many addresses at once cannot pile up threads.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use qipai_protocol::{ErrorCode, WireError};
use qipai_store::competition::{CompetitionWrite, DirectorSessionRow};
use qipai_store::{hash_token, unix_ms, Store};

use crate::base::addr_key::per_user;
use crate::base::config::DirectorConfig;
use crate::base::hashing::Hashing;

/// The cookie a director's page keeps its session in.
pub const COOKIE: &str = "qipai_director";

/// Hashing and checking a password live with the pool every check goes through.
pub use crate::base::hashing::{hash_password, hash_password_cost, verify_password};

/// The directors' credential and sessions.
pub struct Directors {
    config: DirectorConfig,
    /// Token hash → (director, expiry in Unix ms): a cache of the store's rows.
    sessions: Mutex<HashMap<Vec<u8>, (String, i64)>>,
    /// Login attempts not (yet) successful, per address.
    logins: Limiter,
}

/// Attempts with a secret (a director's login, an entry code, an account's sign-in) per
/// key — a client address (an IPv6 address by its /64), or an account: `free` attempts
/// that did not succeed, then the key waits before the next; each failure makes the key
/// wait `delay_ms`, doubled per further failure (at most 15 minutes); a success clears.
pub struct Limiter<K = IpAddr> {
    free: u32,
    delay_ms: u64,
    /// What is counted, for the refusal ("director logins from this address").
    what: &'static str,
    attempts: Mutex<HashMap<K, Attempts>>,
}

/// What a [`Limiter`] counts attempts by.
pub trait AttemptKey: Copy + Eq + std::hash::Hash {
    /// The key the attempts are counted under: an IPv6 address's /64 (one user's).
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

/// The longest wait after failed logins (15 minutes).
const MAX_LOGIN_DELAY_MS: u64 = 15 * 60 * 1000;

/// Addresses whose failures are remembered at most; past it, those no longer waiting are
/// forgotten first.
const MAX_TRACKED: usize = 10_000;

/// One address's attempts that did not succeed.
#[derive(Clone, Copy, Debug, Default)]
struct Attempts {
    /// Counted when an attempt starts (so parallel attempts count too); a success clears.
    count: u32,
    /// Until when (Unix ms) the address must wait.
    until_ms: i64,
}

/// A refusal of a director's action.
pub fn required(message: &str) -> WireError {
    WireError {
        code: ErrorCode::DirectorRequired,
        message: message.into(),
    }
}

impl<K: AttemptKey> Limiter<K> {
    /// `free` failures, then waits from `delay_ms`; `what` names the attempts and what
    /// they are counted by.
    pub fn new(free: u32, delay_ms: u64, what: &'static str) -> Limiter<K> {
        Limiter {
            free,
            delay_ms,
            what,
            attempts: Mutex::new(HashMap::new()),
        }
    }

    /// Counts an attempt from `addr` as a failure until it succeeds, or refuses it
    /// (`too_many_attempts`) while the address must wait. Counted when it starts, so
    /// parallel attempts count too (director logins).
    ///
    /// # Errors
    /// `too_many_attempts`, saying how long to wait.
    pub fn attempt(&self, addr: K, now: i64) -> Result<(), WireError> {
        self.check(addr, now)?;
        self.failed(addr, now);
        Ok(())
    }

    /// Refuses (`too_many_attempts`) while `addr` must wait; counts nothing (entry codes:
    /// only a wrong code counts, so that a room full of players behind one address may all
    /// sit down at once).
    ///
    /// # Errors
    /// `too_many_attempts`, saying how long to wait.
    pub fn check(&self, addr: K, now: i64) -> Result<(), WireError> {
        let addr = addr.counted_as();
        let map = self
            .attempts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match map.get(&addr) {
            Some(a) if a.until_ms > now => Err(WireError {
                code: ErrorCode::TooManyAttempts,
                message: format!(
                    "too many failed {}: wait {} ms",
                    self.what,
                    a.until_ms - now
                ),
            }),
            _ => Ok(()),
        }
    }

    /// An attempt from `addr` failed: past the free ones, the address waits.
    pub fn failed(&self, addr: K, now: i64) {
        let addr = addr.counted_as();
        let mut map = self
            .attempts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= MAX_TRACKED && !map.contains_key(&addr) {
            map.retain(|_, a| a.until_ms > now);
            if map.len() >= MAX_TRACKED {
                map.clear();
            }
        }
        let a = map.entry(addr).or_default();
        a.count = a.count.saturating_add(1);
        // The `free`-th failure is the last one without a wait: the next attempt waits.
        if a.count >= self.free {
            let doublings = (a.count - self.free).min(20);
            let delay = self
                .delay_ms
                .saturating_mul(1 << doublings)
                .min(MAX_LOGIN_DELAY_MS);
            a.until_ms = now.saturating_add(i64::try_from(delay).unwrap_or(i64::MAX));
        }
    }

    /// An attempt from `addr` succeeded: its count starts again.
    pub fn succeeded(&self, addr: K) {
        self.attempts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&addr.counted_as());
    }
}

impl Directors {
    /// From the configuration.
    pub fn new(config: &DirectorConfig) -> Directors {
        Directors {
            config: config.clone(),
            sessions: Mutex::new(HashMap::new()),
            logins: Limiter::new(
                config.login_free_failures,
                config.login_delay_ms,
                "director logins from this address",
            ),
        }
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, (String, i64)>> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Checks a login; on success returns a new session token and its expiry (Unix ms),
    /// stored hashed. Verification runs in `hashing`, the bounded pool (Argon2 is slow on
    /// purpose).
    ///
    /// `addr` is the client's address: failures from it are limited ([`Limiter`]).
    ///
    /// # Errors
    /// `too_many_attempts` while the address must wait (nothing is checked);
    /// `password_checks_busy` when the pool is full; `bad_credentials` for a wrong name or
    /// password, or when no hash is configured.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        addr: Option<IpAddr>,
        hashing: &Hashing,
        store: Option<&dyn Store>,
    ) -> Result<(String, i64), WireError> {
        if let Some(addr) = addr {
            self.logins.attempt(addr, unix_ms())?;
        }
        let bad = || WireError {
            code: ErrorCode::BadCredentials,
            message: "wrong director name or password".into(),
        };
        let phc = self.config.password_hash.trim().to_owned();
        if phc.is_empty() || name != self.config.name {
            return Err(bad());
        }
        if !hashing.verify(phc, password.to_owned()).await? {
            return Err(bad());
        }
        if let Some(addr) = addr {
            self.logins.succeeded(addr);
        }
        let token = new_token();
        let now = unix_ms();
        let expires =
            now.saturating_add(i64::try_from(self.config.session_ttl_ms).unwrap_or(i64::MAX));
        let hash = hash_token(&token);
        if let Some(store) = store {
            store
                .competition_write(vec![CompetitionWrite::DirectorLogin(DirectorSessionRow {
                    token_hash: hash.clone(),
                    director: name.to_owned(),
                    created_ms: now,
                    expires_ms: expires,
                })])
                .await
                .map_err(|e| WireError {
                    code: ErrorCode::StoreUnavailable,
                    message: e.to_string(),
                })?;
        }
        self.cache().insert(hash, (name.to_owned(), expires));
        Ok((token, expires))
    }

    /// The director a token belongs to.
    ///
    /// # Errors
    /// `director_required` without a token, or for an unknown or expired one.
    pub async fn check(
        &self,
        token: Option<&str>,
        store: Option<&dyn Store>,
    ) -> Result<String, WireError> {
        let token = token.ok_or_else(|| {
            required("a director's session is required: POST /api/director/login")
        })?;
        let hash = hash_token(token);
        let now = unix_ms();
        let cached = self.cache().get(&hash).cloned();
        let found = match (cached, store) {
            (Some(hit), _) => Some(hit),
            (None, Some(store)) => store
                .director_session(hash.clone())
                .await
                .ok()
                .flatten()
                .map(|row| (row.director, row.expires_ms)),
            (None, None) => None,
        };
        match found {
            Some((director, expires)) if expires > now => {
                self.cache().insert(hash, (director.clone(), expires));
                Ok(director)
            }
            Some(_) => {
                self.cache().remove(&hash);
                Err(required(
                    "the director's session has expired: sign in again",
                ))
            }
            None => Err(required("unknown director session: sign in again")),
        }
    }

    /// Ends the session of `token` (nothing when there is none).
    pub async fn logout(&self, token: &str, store: Option<&dyn Store>) {
        let hash = hash_token(token);
        self.cache().remove(&hash);
        if let Some(store) = store {
            if let Err(error) = store
                .competition_write(vec![CompetitionWrite::DirectorLogout { token_hash: hash }])
                .await
            {
                tracing::warn!(%error, "director logout not stored");
            }
        }
    }
}

/// 256 random bits, hex.
fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    qipai_store::hex(&bytes)
}
