//! [`AccountStore`] on SQLite.

use rusqlite::{params, ErrorCode, OptionalExtension, Row};

use super::{
    u, AccountGame, AccountRow, AccountStore, AccountWrite, Leader, NewAccount, RatingPoint,
    RatingRow, ACCOUNT_GAMES,
};
use crate::sqlite::SqliteStore;
use crate::{BoxFuture, StoreResult};

const ACCOUNT: &str = "id, name, password_hash, created_ms, deleted_ms";

fn account(r: &Row<'_>) -> rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        id: u(r.get(0)?),
        name: r.get(1)?,
        password_hash: r.get(2)?,
        created_ms: r.get(3)?,
        deleted_ms: r.get(4)?,
    })
}

fn rating(r: &Row<'_>, at: usize) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        account: u(r.get(at)?),
        game: r.get(at + 1)?,
        rating: r.get(at + 2)?,
        state: r.get(at + 3)?,
        updated_ms: r.get(at + 4)?,
    })
}

impl AccountStore for SqliteStore {
    fn create_account(&self, new: NewAccount) -> BoxFuture<'_, StoreResult<Option<u64>>> {
        self.call(move |conn| {
            let inserted = conn.execute(
                "INSERT INTO accounts (name, name_key, password_hash, created_ms) \
                 VALUES (?1, ?2, ?3, ?4)",
                params![new.name, new.name_key, new.password_hash, new.created_ms],
            );
            match inserted {
                Ok(_) => Ok(Some(u(conn.last_insert_rowid()))),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == ErrorCode::ConstraintViolation =>
                {
                    Ok(None)
                }
                Err(e) => Err(e.into()),
            }
        })
    }

    fn account_write(&self, batch: Vec<AccountWrite>) -> BoxFuture<'_, StoreResult<()>> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            for w in &batch {
                for s in w.statements() {
                    tx.prepare_cached(s.sql)?
                        .execute(rusqlite::params_from_iter(&s.values))?;
                }
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn account_by_key(&self, name_key: String) -> BoxFuture<'_, StoreResult<Option<AccountRow>>> {
        self.call(move |conn| {
            Ok(conn
                .query_row(
                    &format!("SELECT {ACCOUNT} FROM accounts WHERE name_key = ?1"),
                    params![name_key],
                    account,
                )
                .optional()?)
        })
    }

    fn account_session(
        &self,
        token_hash: Vec<u8>,
        now_ms: i64,
    ) -> BoxFuture<'_, StoreResult<Option<AccountRow>>> {
        self.call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT a.id, a.name, a.password_hash, a.created_ms, a.deleted_ms \
                     FROM account_sessions s JOIN accounts a ON a.id = s.account \
                     WHERE s.token_hash = ?1 AND s.expires_ms > ?2 AND a.deleted_ms IS NULL",
                    params![token_hash, now_ms],
                    account,
                )
                .optional()?)
        })
    }

    fn ratings(&self, of: u64) -> BoxFuture<'_, StoreResult<Vec<RatingRow>>> {
        self.call(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT account, game, rating, state, updated_ms FROM ratings \
                 WHERE account = ?1 ORDER BY game",
            )?;
            let rows = stmt.query_map(params![of as i64], |r| rating(r, 0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn rating_history(
        &self,
        of: u64,
        game: String,
    ) -> BoxFuture<'_, StoreResult<Vec<RatingPoint>>> {
        self.call(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT room, at_ms, rating FROM rating_history \
                 WHERE account = ?1 AND game = ?2 ORDER BY at_ms, room",
            )?;
            let rows = stmt.query_map(params![of as i64, game], |r| {
                Ok(RatingPoint {
                    room: u(r.get(0)?),
                    at_ms: r.get(1)?,
                    rating: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn account_games(
        &self,
        account: u64,
        from: crate::GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<AccountGame>>> {
        let (finished_ms, room, offset) = from.bounds();
        let (account, limit) = (account as i64, limit as i64);
        self.call(move |conn| {
            let mut q = conn.prepare_cached(ACCOUNT_GAMES)?;
            let rows = q.query_map(params![account, limit, finished_ms, room, offset], |r| {
                Ok(AccountGame {
                    room: u(r.get(0)?),
                    game: r.get(1)?,
                    finished_ms: r.get(2)?,
                    seat: r.get(3)?,
                    rating_after: r.get(4)?,
                    summary: r.get(5)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn leaderboard(&self, game: String, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Leader>>> {
        self.call(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT a.name, r.account, r.game, r.rating, r.state, r.updated_ms, \
                 (SELECT COUNT(*) FROM rating_history h \
                 WHERE h.account = r.account AND h.game = r.game) \
                 FROM ratings r JOIN accounts a ON a.id = r.account \
                 WHERE r.game = ?1 AND a.deleted_ms IS NULL \
                 ORDER BY r.rating DESC, r.account LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![game, limit], |r| {
                let rating = rating(r, 1)?;
                Ok(Leader {
                    account: rating.account,
                    name: r.get(0)?,
                    rating,
                    games: u(r.get(6)?),
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}
