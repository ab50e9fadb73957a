//! Accounts: what the server keeps of its registered players, behind [`AccountStore`], a
//! supertrait of [`crate::Store`] so that the same `dyn Store` serves it.
//!
//! Like the rest of the store, this knows nothing of the rules or of names: the server
//! computes a name's comparison key (`name_key`) and a password's Argon2id hash, and a
//! rating arrives as its model's JSON with its rounded value for ordering. Sessions are kept
//! as the SHA-256 of their token ([`crate::hash_token`]), never the token.
//!
//! A rating changes only with the game that changed it: a [`RatingUpdate`] goes in the same
//! transaction as that game's last step (`crate::Write::Rate`), and is computed there from
//! the ratings that transaction reads, so two games of one account never overwrite each
//! other's update (`rate.rs`).

mod postgres;
mod rate;
mod sqlite;

pub(crate) use rate::RATING_STATE;
pub use rate::{NewRating, RatingRule, RatingUpdate};

use crate::{sql, BoxFuture, StoreError, StoreResult};

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: u64,
    /// The name as the player chose it.
    pub name: String,
    /// The password's hash, PHC form (`$argon2id$…`).
    pub password_hash: String,
    pub created_ms: i64,
    /// When the player deleted it; its name and key are then free for anyone.
    pub deleted_ms: Option<i64>,
}

/// A new account, before the store gives it an id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAccount {
    pub name: String,
    /// The name as the server compares names: at most one account per key.
    pub name_key: String,
    pub password_hash: String,
    pub created_ms: i64,
}

/// A signed-in session of an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSessionRow {
    pub token_hash: Vec<u8>,
    pub account: u64,
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// An account's rating at one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingRow {
    pub account: u64,
    /// The protocol's game name.
    pub game: String,
    /// The rating rounded: what leaderboards order by and the history keeps.
    pub rating: i64,
    /// The rating model's state, JSON.
    pub state: String,
    pub updated_ms: i64,
}

/// One point of an account's rating history at a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingPoint {
    /// The rated game's room.
    pub room: u64,
    pub at_ms: i64,
    pub rating: i64,
}

/// One line of an account's list of finished games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountGame {
    pub room: u64,
    pub game: String,
    pub finished_ms: i64,
    pub seat: u8,
    /// The account's rating after the game, when it was rated.
    pub rating_after: Option<i64>,
    /// The record's summary, or its body when it has none ([`crate::GameSummary::summary`]).
    pub summary: String,
}

/// The query of a page of an account's games, for either backend (`sql::postgres` for `$N`).
pub(crate) const ACCOUNT_GAMES: &str = "SELECT r.room, r.game, r.finished_ms, p.seat, \
    h.rating, COALESCE(r.summary, r.body) FROM record_players p JOIN records r ON r.room = p.room \
    LEFT JOIN rating_history h ON h.account = p.account AND h.game = r.game \
    AND h.room = p.room WHERE p.account = ?1 \
    AND (r.finished_ms < ?3 OR (r.finished_ms = ?3 AND r.room < ?4)) \
    ORDER BY r.finished_ms DESC, r.room DESC LIMIT ?2 OFFSET ?5";

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leader {
    pub account: u64,
    pub name: String,
    pub rating: RatingRow,
    /// The rated games the account played at the game (its history's points).
    pub games: u64,
}

/// One change; a batch of them is one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountWrite {
    Password {
        account: u64,
        password_hash: String,
    },
    /// The account deleted: its name replaced by `shown_as` (in its finished games' records
    /// too: the records' seats, the names in their events, where `was` is its name as a JSON
    /// string, quotes included, and their PGN headers, where it is `was_in_pgn`), its key
    /// freed, its sessions ended, its links to competition entries undone; its ratings and
    /// history stay under its id.
    Delete {
        account: u64,
        was: String,
        was_in_pgn: String,
        shown_as: String,
        at_ms: i64,
    },
    SignIn(AccountSessionRow),
    SignOut {
        token_hash: Vec<u8>,
    },
    /// Every session of the account ended (a password changed, "sign out everywhere").
    SignOutAll {
        account: u64,
    },
    /// A rated game's new rating for one account, with its history point.
    Rated {
        rating: RatingRow,
        room: u64,
    },
}

impl AccountWrite {
    /// The statements this write runs, in order, for either backend (`crate::sql`).
    pub(crate) fn statements(&self) -> Vec<sql::Statement<'_>> {
        use sql::Value::{Bytes, Int, Text};
        let int = |n: u64| Int(n as i64);
        let statement = |sql, values| sql::Statement { sql, values };
        match self {
            AccountWrite::Password {
                account,
                password_hash,
            } => vec![statement(
                "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
                vec![int(*account), Text(password_hash)],
            )],
            AccountWrite::Delete {
                account,
                was,
                was_in_pgn,
                shown_as,
                at_ms,
            } => vec![
                statement(
                    "UPDATE records SET body = replace(body, '\"name\":' || ?2, \
                     '\"name\":\"' || ?3 || '\"'), pgn = replace(pgn, ' \"' || ?4 || '\"]', \
                     ' \"' || ?3 || '\"]'), summary = replace(summary, ?2, '\"' || ?3 || '\"') \
                     WHERE room IN (SELECT room FROM record_players WHERE account = ?1)",
                    vec![int(*account), Text(was), Text(shown_as), Text(was_in_pgn)],
                ),
                statement(
                    "UPDATE record_players SET name = ?2 WHERE account = ?1",
                    vec![int(*account), Text(shown_as)],
                ),
                statement(
                    "UPDATE accounts SET name = ?2, name_key = NULL, password_hash = '', \
                     deleted_ms = ?3 WHERE id = ?1",
                    vec![int(*account), Text(shown_as), Int(*at_ms)],
                ),
                statement(
                    "DELETE FROM account_sessions WHERE account = ?1",
                    vec![int(*account)],
                ),
                statement(
                    "DELETE FROM competition_entry_accounts WHERE account = ?1",
                    vec![int(*account)],
                ),
            ],
            AccountWrite::SignIn(s) => vec![statement(
                "INSERT INTO account_sessions (token_hash, account, created_ms, expires_ms) \
                 VALUES (?1, ?2, ?3, ?4)",
                vec![
                    Bytes(&s.token_hash),
                    int(s.account),
                    Int(s.created_ms),
                    Int(s.expires_ms),
                ],
            )],
            AccountWrite::SignOut { token_hash } => vec![statement(
                "DELETE FROM account_sessions WHERE token_hash = ?1",
                vec![Bytes(token_hash)],
            )],
            AccountWrite::SignOutAll { account } => vec![statement(
                "DELETE FROM account_sessions WHERE account = ?1",
                vec![int(*account)],
            )],
            AccountWrite::Rated { rating: r, room } => vec![
                statement(
                    "INSERT INTO ratings (account, game, rating, state, updated_ms) \
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (account, game) DO UPDATE SET \
                     rating = excluded.rating, state = excluded.state, \
                     updated_ms = excluded.updated_ms",
                    vec![
                        int(r.account),
                        Text(&r.game),
                        Int(r.rating),
                        Text(&r.state),
                        Int(r.updated_ms),
                    ],
                ),
                statement(
                    "INSERT INTO rating_history (account, game, room, at_ms, rating) \
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (account, game, room) DO NOTHING",
                    vec![
                        int(r.account),
                        Text(&r.game),
                        int(*room),
                        Int(r.updated_ms),
                        Int(r.rating),
                    ],
                ),
            ],
        }
    }
}

/// What the store keeps of accounts. Every method has a default that refuses, for stores
/// (test doubles) that keep none.
pub trait AccountStore: Send + Sync + 'static {
    /// Creates an account: its id, or `None` when another account has its `name_key`.
    fn create_account(&self, new: NewAccount) -> BoxFuture<'_, StoreResult<Option<u64>>> {
        drop(new);
        unsupported()
    }
    /// Writes `batch` in one transaction: all of it, or (on error) none of it.
    fn account_write(&self, batch: Vec<AccountWrite>) -> BoxFuture<'_, StoreResult<()>> {
        drop(batch);
        unsupported()
    }
    /// The live (not deleted) account whose name has `name_key`.
    fn account_by_key(&self, name_key: String) -> BoxFuture<'_, StoreResult<Option<AccountRow>>> {
        drop(name_key);
        unsupported()
    }
    /// The account of the session stored under `token_hash` and not expired at `now_ms`.
    fn account_session(
        &self,
        token_hash: Vec<u8>,
        now_ms: i64,
    ) -> BoxFuture<'_, StoreResult<Option<AccountRow>>> {
        drop(token_hash);
        let _ = now_ms;
        unsupported()
    }
    /// The account's ratings, one per game it was rated at.
    fn ratings(&self, account: u64) -> BoxFuture<'_, StoreResult<Vec<RatingRow>>> {
        let _ = account;
        unsupported()
    }
    /// The account's rating after each rated game at `game`, oldest first.
    fn rating_history(
        &self,
        account: u64,
        game: String,
    ) -> BoxFuture<'_, StoreResult<Vec<RatingPoint>>> {
        let _ = (account, game);
        unsupported()
    }
    /// The finished games `account` sat in, newest first by the time they ended (then by
    /// room id), `limit` of them from `from`, with its rating after each rated one.
    fn account_games(
        &self,
        account: u64,
        from: crate::GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<AccountGame>>> {
        let _ = (account, from, limit);
        unsupported()
    }
    /// The best `limit` live accounts at `game`, best first (ties: the earlier account).
    fn leaderboard(&self, game: String, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Leader>>> {
        let _ = (game, limit);
        unsupported()
    }
}

fn unsupported<T: Send + 'static>() -> BoxFuture<'static, StoreResult<T>> {
    Box::pin(async { Err(StoreError::Unsupported("this store keeps no accounts")) })
}

fn u(n: i64) -> u64 {
    n as u64
}
