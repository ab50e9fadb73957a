//! [`CompetitionStore`] on PostgreSQL.

use tokio_postgres::{Row, Transaction};

use super::{
    assemble, u, CompetitionLog, CompetitionRow, CompetitionStore, CompetitionWrite, CorrectionRow,
    DirectorSessionRow, EntryRow, LinkRow, PairingRow, RoundRow, Rows, LINKS,
};
use crate::postgres::PostgresStore;
use crate::{BoxFuture, StoreResult};

/// A column that holds a `u32` (stored as BIGINT).
fn u32_at(r: &Row, idx: usize) -> u32 {
    u32::try_from(r.get::<_, i64>(idx)).unwrap_or(u32::MAX)
}

fn opt_u32_at(r: &Row, idx: usize) -> Option<u32> {
    r.get::<_, Option<i64>>(idx)
        .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

async fn write_one(
    tx: &Transaction<'_>,
    w: &CompetitionWrite,
) -> Result<(), tokio_postgres::Error> {
    for s in w.statements() {
        tx.execute_raw(crate::sql::postgres(s.sql).as_str(), s.values.iter())
            .await?;
    }
    Ok(())
}

impl CompetitionStore for PostgresStore {
    fn competition_write(&self, batch: Vec<CompetitionWrite>) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            for w in &batch {
                write_one(&tx, w).await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn competitions(&self) -> BoxFuture<'_, StoreResult<Vec<CompetitionLog>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let competitions = client
                .query(
                    "SELECT id, name, settings, created_ms FROM competitions ORDER BY id",
                    &[],
                )
                .await?
                .iter()
                .map(|r| CompetitionRow {
                    id: u(r.get(0)),
                    name: r.get(1),
                    settings: r.get(2),
                    created_ms: r.get(3),
                })
                .collect();
            let entries = client
                .query(
                    "SELECT competition, idx, team, pair_number, players, contacts FROM competition_entries ORDER BY competition, idx",
                    &[],
                )
                .await?
                .iter()
                .map(|r| EntryRow {
                    competition: u(r.get(0)),
                    index: u32_at(r, 1),
                    team: r.get(2),
                    pair_number: opt_u32_at(r, 3),
                    players: r.get(4),
                    contacts: r.get(5),
                })
                .collect();
            let rounds = client
                .query(
                    "SELECT competition, number, seed, bye, started_ms FROM competition_rounds ORDER BY competition, number",
                    &[],
                )
                .await?
                .iter()
                .map(|r| RoundRow {
                    competition: u(r.get(0)),
                    number: u32_at(r, 1),
                    seed: u(r.get(2)),
                    bye: opt_u32_at(r, 3),
                    started_ms: r.get(4),
                })
                .collect();
            let pairings = client
                .query(
                    "SELECT competition, round, table_no, first, second, room, result, note, games, game_opened_ms FROM competition_pairings ORDER BY competition, round, table_no",
                    &[],
                )
                .await?
                .iter()
                .map(|r| PairingRow {
                    competition: u(r.get(0)),
                    round: u32_at(r, 1),
                    table: u32_at(r, 2),
                    first: u32_at(r, 3),
                    second: u32_at(r, 4),
                    room: r.get::<_, Option<i64>>(5).map(u),
                    result: r.get(6),
                    note: r.get(7),
                    games: r.get(8),
                    game_opened_ms: r.get(9),
                })
                .collect();
            let corrections = client
                .query(
                    "SELECT competition, round, table_no, before, after, reason, author, at_ms FROM competition_corrections ORDER BY competition, id",
                    &[],
                )
                .await?
                .iter()
                .map(|r| CorrectionRow {
                    competition: u(r.get(0)),
                    round: u32_at(r, 1),
                    table: u32_at(r, 2),
                    before: r.get(3),
                    after: r.get(4),
                    reason: r.get(5),
                    author: r.get(6),
                    at_ms: r.get(7),
                })
                .collect();
            let links = client
                .query(crate::sql::postgres(LINKS).as_str(), &[])
                .await?
                .iter()
                .map(|r| LinkRow {
                    competition: u(r.get(0)),
                    index: u32_at(r, 1),
                    player: u32_at(r, 2),
                    account: u(r.get(3)),
                    account_name: r.get(4),
                    linked_ms: r.get(5),
                })
                .collect();
            Ok(assemble(Rows {
                competitions,
                entries,
                rounds,
                pairings,
                corrections,
                links,
            }))
        })
    }

    fn director_session(
        &self,
        token_hash: Vec<u8>,
    ) -> BoxFuture<'_, StoreResult<Option<DirectorSessionRow>>> {
        Box::pin(async move {
            let client = self.client().await?;
            Ok(client
                .query_opt(
                    "SELECT director, created_ms, expires_ms FROM director_sessions WHERE token_hash = $1",
                    &[&token_hash],
                )
                .await?
                .map(|r| DirectorSessionRow {
                    director: r.get(0),
                    created_ms: r.get(1),
                    expires_ms: r.get(2),
                    token_hash,
                }))
        })
    }
}
