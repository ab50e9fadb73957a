//! Accounts: a name nobody else can take, a password, and sessions that survive a restart.
//!
//! A player signs up with a name and a password; the name must pass the player-name check
//! ([`crate::base::names::check`]) and is kept by its [`name_key`], so no other account and
//! no guest can take it or a look-alike of it. The password is kept as an Argon2id hash made
//! in the server's one bounded hashing pool ([`Hashing`]), where every later check runs too.
//!
//! A session is a random token (256 bits) kept in the store only as its SHA-256, like a
//! director's: it is the `qipai_account` cookie of the page and the `account_token` of a
//! WebSocket `hello`. Failed sign-ins are limited per address and per account
//! ([`Limiter`]), as a director's login is; a success clears both counts.
//!
//! Deleting an account replaces its name (`deleted player N`), frees its key, ends its
//! sessions and keeps its ratings and records under its id.

use std::net::IpAddr;

use qipai_protocol::{ErrorCode, WireError};
use qipai_store::accounts::{AccountRow, AccountSessionRow, AccountWrite, NewAccount};
use qipai_store::{hash_token, unix_ms, Store};

use crate::base::config::AccountsConfig;
use crate::base::hashing::Hashing;
use crate::base::limiter::Limiter;
use crate::base::names::{self, name_key};

/// The cookie the page keeps an account's session in.
pub const COOKIE: &str = "qipai_account";

/// The shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// The longest password, in bytes: a check costs the same for any length, but reading and
/// hashing a megabyte should not be free.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// A registered player as others see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: u64,
    pub name: String,
}

/// A new session: its account, its token (shown once) and when it ends (Unix ms).
#[derive(Clone, Debug)]
pub struct Signed {
    pub account: Account,
    pub token: String,
    pub expires_ms: i64,
}

/// The accounts' rules: the limits on failed sign-ins, and how long a session lasts.
pub struct Accounts {
    config: AccountsConfig,
    /// Failed sign-ins per client address.
    by_addr: Limiter<IpAddr>,
    /// Failed sign-ins per account, from any address.
    by_account: Limiter<u64>,
}

/// Without a store there are no accounts.
fn no_store() -> WireError {
    WireError {
        code: ErrorCode::StoreUnavailable,
        message: "accounts need the server's store, and this server has none".into(),
    }
}

fn store_error(e: impl std::fmt::Display) -> WireError {
    WireError {
        code: ErrorCode::StoreUnavailable,
        message: e.to_string(),
    }
}

fn bad_credentials() -> WireError {
    WireError {
        code: ErrorCode::BadCredentials,
        message: "wrong name or password".into(),
    }
}

/// A refusal of an account's action without a live session.
pub fn required(message: &str) -> WireError {
    WireError {
        code: ErrorCode::AccountRequired,
        message: message.into(),
    }
}

/// 8 characters or more, at most 1024 bytes.
///
/// # Errors
/// `weak_password`.
fn check_new_password(password: &str) -> Result<(), WireError> {
    if password.chars().count() < MIN_PASSWORD_CHARS || password.len() > MAX_PASSWORD_BYTES {
        return Err(WireError {
            code: ErrorCode::WeakPassword,
            message: format!(
                "a password has {MIN_PASSWORD_CHARS} characters or more, and at most \
                 {MAX_PASSWORD_BYTES} bytes"
            ),
        });
    }
    Ok(())
}

impl Accounts {
    /// From `[accounts]`.
    pub fn new(config: &AccountsConfig) -> Accounts {
        Accounts {
            config: config.clone(),
            by_addr: Limiter::new(
                config.signin_free_failures,
                config.signin_delay_ms,
                "sign-ins from this address",
            ),
            by_account: Limiter::new(
                config.account_free_failures,
                config.signin_delay_ms,
                "sign-ins to this account",
            ),
        }
    }

    /// Creates an account named `name` and signs it in.
    ///
    /// # Errors
    /// `bad_name` for a name the check refuses; `weak_password`; `name_taken` when the name
    /// or a look-alike is another account's; `password_checks_busy`; `store_unavailable`.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        hashing: &Hashing,
        store: Option<&dyn Store>,
    ) -> Result<Signed, WireError> {
        let store = store.ok_or_else(no_store)?;
        let name = names::check(name).map_err(|why| WireError {
            code: ErrorCode::BadName,
            message: why.into(),
        })?;
        check_new_password(password)?;
        let key = name_key(&name);
        // Before the hash, so that a taken name costs no hashing.
        if store
            .account_by_key(key.clone())
            .await
            .map_err(store_error)?
            .is_some()
        {
            return Err(taken());
        }
        let password_hash = hashing.hash(password.to_owned()).await?;
        let id = store
            .create_account(NewAccount {
                name: name.clone(),
                name_key: key,
                password_hash,
                created_ms: unix_ms(),
            })
            .await
            .map_err(store_error)?
            .ok_or_else(taken)?;
        self.open_session(Account { id, name }, store, Vec::new())
            .await
    }

    /// Checks `name` and `password` and signs the account in.
    ///
    /// # Errors
    /// `too_many_attempts` while the address or the account must wait (nothing checked);
    /// `bad_credentials`; `password_checks_busy`; `store_unavailable`.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
        hashing: &Hashing,
        store: Option<&dyn Store>,
    ) -> Result<Signed, WireError> {
        let store = store.ok_or_else(no_store)?;
        let row = self
            .check_password(name, password, addr, hashing, store)
            .await?;
        let account = Account {
            id: row.id,
            name: row.name,
        };
        self.open_session(account, store, Vec::new()).await
    }

    /// The account whose name is `name` if `password` is its password, counted by both
    /// limiters (each attempt counts from its start, so parallel guesses count too).
    async fn check_password(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
        hashing: &Hashing,
        store: &dyn Store,
    ) -> Result<AccountRow, WireError> {
        let now = unix_ms();
        self.by_addr.attempt(addr, now)?;
        if password.len() > MAX_PASSWORD_BYTES {
            return Err(bad_credentials());
        }
        let row = store
            .account_by_key(name_key(name))
            .await
            .map_err(store_error)?
            .ok_or_else(bad_credentials)?;
        self.by_account.attempt(row.id, now)?;
        if !hashing
            .verify(row.password_hash.clone(), password.to_owned())
            .await?
        {
            return Err(bad_credentials());
        }
        self.by_addr.succeeded(addr);
        self.by_account.succeeded(row.id);
        Ok(row)
    }

    /// A new session of `account`, written with `also` in one transaction.
    async fn open_session(
        &self,
        account: Account,
        store: &dyn Store,
        mut also: Vec<AccountWrite>,
    ) -> Result<Signed, WireError> {
        let token = new_token();
        let now = unix_ms();
        let expires_ms =
            now.saturating_add(i64::try_from(self.config.session_ttl_ms).unwrap_or(i64::MAX));
        also.push(AccountWrite::SignIn(AccountSessionRow {
            token_hash: hash_token(&token),
            account: account.id,
            created_ms: now,
            expires_ms,
        }));
        store.account_write(also).await.map_err(store_error)?;
        Ok(Signed {
            account,
            token,
            expires_ms,
        })
    }

    /// The account of a session token.
    ///
    /// # Errors
    /// `account_required` without a token or for one that is no live session;
    /// `store_unavailable`.
    pub async fn session(
        &self,
        token: Option<&str>,
        store: Option<&dyn Store>,
    ) -> Result<Account, WireError> {
        let token = token.ok_or_else(|| required("sign in first: POST /api/account/signin"))?;
        let store = store.ok_or_else(no_store)?;
        let row = store
            .account_session(hash_token(token), unix_ms())
            .await
            .map_err(store_error)?
            .ok_or_else(|| required("that session has ended: sign in again"))?;
        Ok(Account {
            id: row.id,
            name: row.name,
        })
    }

    /// Ends the session of `token` (nothing when there is none).
    ///
    /// # Errors
    /// `store_unavailable`.
    pub async fn sign_out(&self, token: &str, store: Option<&dyn Store>) -> Result<(), WireError> {
        let store = store.ok_or_else(no_store)?;
        store
            .account_write(vec![AccountWrite::SignOut {
                token_hash: hash_token(token),
            }])
            .await
            .map_err(store_error)
    }

    /// Changes the password of the account signed in with `token` after checking the old
    /// one: every session of the account ends, and a new one is opened (in one
    /// transaction).
    ///
    /// # Errors
    /// As [`Accounts::session`] and [`Accounts::sign_in`]; `weak_password`.
    pub async fn change_password(
        &self,
        token: Option<&str>,
        old: &str,
        new: &str,
        addr: IpAddr,
        hashing: &Hashing,
        store: Option<&dyn Store>,
    ) -> Result<Signed, WireError> {
        let account = self.session(token, store).await?;
        let store = store.ok_or_else(no_store)?;
        check_new_password(new)?;
        self.check_password(&account.name, old, addr, hashing, store)
            .await?;
        let password_hash = hashing.hash(new.to_owned()).await?;
        let writes = vec![
            AccountWrite::Password {
                account: account.id,
                password_hash,
            },
            AccountWrite::SignOutAll {
                account: account.id,
            },
        ];
        self.open_session(account, store, writes).await
    }

    /// Deletes the account signed in with `token` after checking its password: its name
    /// becomes `deleted player ID` (its key free for anyone), its sessions end, its links to
    /// competition entries are undone, its ratings and records stay under its id. Returns
    /// the account as it was.
    ///
    /// # Errors
    /// As [`Accounts::session`] and [`Accounts::sign_in`].
    pub async fn delete(
        &self,
        token: Option<&str>,
        password: &str,
        addr: IpAddr,
        hashing: &Hashing,
        store: Option<&dyn Store>,
    ) -> Result<Account, WireError> {
        let account = self.session(token, store).await?;
        let store = store.ok_or_else(no_store)?;
        self.check_password(&account.name, password, addr, hashing, store)
            .await?;
        store
            .account_write(vec![AccountWrite::Delete {
                account: account.id,
                was: serde_json::to_string(&account.name).unwrap_or_default(),
                was_in_pgn: qipai_games::movetext::RecordHead {
                    room: 0,
                    players: std::slice::from_ref(&account.name),
                    finished_ms: 0,
                }
                .name(0),
                shown_as: format!("deleted player {}", account.id),
                at_ms: unix_ms(),
            }])
            .await
            .map_err(store_error)?;
        Ok(account)
    }

    /// Whether a guest may call themselves `name`: not when it, or a look-alike, is a
    /// registered account's. Without a store there are no accounts. While the store cannot
    /// be read, guests are let in (games go on through a store outage; the name is only
    /// shown, it signs nobody in).
    ///
    /// # Errors
    /// `name_taken`.
    pub async fn guest_may_use(
        &self,
        name: &str,
        store: Option<&dyn Store>,
    ) -> Result<(), WireError> {
        let Some(store) = store else {
            return Ok(());
        };
        match store.account_by_key(name_key(name)).await {
            Ok(Some(_)) => Err(taken()),
            Ok(None) => Ok(()),
            Err(error) => {
                tracing::warn!(%error, "accounts unreadable: a guest's name let in unchecked");
                Ok(())
            }
        }
    }
}

/// The name or a look-alike is a registered player's.
fn taken() -> WireError {
    WireError {
        code: ErrorCode::NameTaken,
        message: "that name, or one that looks like it, belongs to a registered player".into(),
    }
}

/// 256 random bits, hex.
fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    qipai_store::hex(&bytes)
}
