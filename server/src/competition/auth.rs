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

use crate::base::config::DirectorConfig;
use crate::base::hashing::Hashing;
use crate::base::limiter::Limiter;

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

/// A refusal of a director's action.
pub fn required(message: &str) -> WireError {
    WireError {
        code: ErrorCode::DirectorRequired,
        message: message.into(),
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
