//! [`AccountStore`] on PostgreSQL.

use tokio_postgres::error::SqlState;
use tokio_postgres::Row;

use super::{
    u, AccountGame, AccountRow, AccountStore, AccountWrite, Leader, NewAccount, RatingPoint,
    RatingRow, ACCOUNT_GAMES,
};
use crate::postgres::PostgresStore;
use crate::{BoxFuture, StoreResult};

const ACCOUNT: &str = "id, name, password_hash, created_ms, deleted_ms";

fn account(r: &Row) -> AccountRow {
    AccountRow {
        id: u(r.get(0)),
        name: r.get(1),
        password_hash: r.get(2),
        created_ms: r.get(3),
        deleted_ms: r.get(4),
    }
}

fn rating(r: &Row, at: usize) -> RatingRow {
    RatingRow {
        account: u(r.get(at)),
        game: r.get(at + 1),
        rating: r.get(at + 2),
        state: r.get(at + 3),
        updated_ms: r.get(at + 4),
    }
}

impl AccountStore for PostgresStore {
    fn create_account(&self, new: NewAccount) -> BoxFuture<'_, StoreResult<Option<u64>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let inserted = client
                .query_one(
                    "INSERT INTO accounts (name, name_key, password_hash, created_ms) \
                     VALUES ($1, $2, $3, $4) RETURNING id",
                    &[
                        &new.name,
                        &new.name_key,
                        &new.password_hash,
                        &new.created_ms,
                    ],
                )
                .await;
            match inserted {
                Ok(row) => Ok(Some(u(row.get(0)))),
                Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Ok(None),
                Err(e) => Err(e.into()),
            }
        })
    }

    fn account_write(&self, batch: Vec<AccountWrite>) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            for w in &batch {
                for s in w.statements() {
                    tx.execute_raw(crate::sql::postgres(s.sql).as_str(), s.values.iter())
                        .await?;
                }
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn account_by_key(&self, name_key: String) -> BoxFuture<'_, StoreResult<Option<AccountRow>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    &format!("SELECT {ACCOUNT} FROM accounts WHERE name_key = $1"),
                    &[&name_key],
                )
                .await?;
            Ok(row.as_ref().map(account))
        })
    }

    fn account_session(
        &self,
        token_hash: Vec<u8>,
        now_ms: i64,
    ) -> BoxFuture<'_, StoreResult<Option<AccountRow>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT a.id, a.name, a.password_hash, a.created_ms, a.deleted_ms \
                     FROM account_sessions s JOIN accounts a ON a.id = s.account \
                     WHERE s.token_hash = $1 AND s.expires_ms > $2 AND a.deleted_ms IS NULL",
                    &[&token_hash, &now_ms],
                )
                .await?;
            Ok(row.as_ref().map(account))
        })
    }

    fn ratings(&self, of: u64) -> BoxFuture<'_, StoreResult<Vec<RatingRow>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT account, game, rating, state, updated_ms FROM ratings \
                     WHERE account = $1 ORDER BY game",
                    &[&(of as i64)],
                )
                .await?;
            Ok(rows.iter().map(|r| rating(r, 0)).collect())
        })
    }

    fn rating_history(
        &self,
        of: u64,
        game: String,
    ) -> BoxFuture<'_, StoreResult<Vec<RatingPoint>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT room, at_ms, rating FROM rating_history \
                     WHERE account = $1 AND game = $2 ORDER BY at_ms, room",
                    &[&(of as i64), &game],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| RatingPoint {
                    room: u(r.get(0)),
                    at_ms: r.get(1),
                    rating: r.get(2),
                })
                .collect())
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
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    crate::sql::postgres(ACCOUNT_GAMES).as_str(),
                    &[&account, &limit, &finished_ms, &room, &offset],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| AccountGame {
                    room: u(r.get(0)),
                    game: r.get(1),
                    finished_ms: r.get(2),
                    seat: u8::try_from(r.get::<_, i64>(3)).unwrap_or(u8::MAX),
                    rating_after: r.get(4),
                    summary: r.get(5),
                })
                .collect())
        })
    }

    fn leaderboard(&self, game: String, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Leader>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT a.name, r.account, r.game, r.rating, r.state, r.updated_ms, \
                     (SELECT COUNT(*) FROM rating_history h \
                     WHERE h.account = r.account AND h.game = r.game) \
                     FROM ratings r JOIN accounts a ON a.id = r.account \
                     WHERE r.game = $1 AND a.deleted_ms IS NULL \
                     ORDER BY r.rating DESC, r.account LIMIT $2",
                    &[&game, &i64::from(limit)],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| {
                    let rating = rating(r, 1);
                    Leader {
                        account: rating.account,
                        name: r.get(0),
                        rating,
                        games: u(r.get(6)),
                    }
                })
                .collect())
        })
    }
}
