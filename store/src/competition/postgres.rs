//! [`CompetitionStore`] on PostgreSQL.

use tokio_postgres::{Row, Transaction};

use super::{
    assemble, i, u, CompetitionLog, CompetitionRow, CompetitionStore, CompetitionWrite,
    CorrectionRow, DirectorSessionRow, EntryRow, PairingRow, RoundRow,
};
use crate::postgres::PostgresStore;
use crate::{BoxFuture, StoreResult};

fn n(v: u32) -> i64 {
    i64::from(v)
}

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
    match w {
        CompetitionWrite::Competition(c) => {
            tx.execute(
                "INSERT INTO competitions (id, name, settings, created_ms) VALUES ($1, $2, $3, $4)",
                &[&i(c.id), &c.name, &c.settings, &c.created_ms],
            )
            .await?;
        }
        CompetitionWrite::Entry(e) => {
            tx.execute(
                "INSERT INTO competition_entries (competition, idx, team, pair_number, players, contacts) VALUES ($1, $2, $3, $4, $5, $6)",
                &[&i(e.competition), &n(e.index), &e.team, &e.pair_number.map(n), &e.players, &e.contacts],
            )
            .await?;
        }
        CompetitionWrite::Round(r, pairings) => {
            tx.execute(
                "INSERT INTO competition_rounds (competition, number, seed, bye, started_ms) VALUES ($1, $2, $3, $4, $5)",
                &[&i(r.competition), &n(r.number), &i(r.seed), &r.bye.map(n), &r.started_ms],
            )
            .await?;
            for p in pairings {
                tx.execute(
                    "INSERT INTO competition_pairings (competition, round, table_no, first, second, room, result, note) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    &[&i(p.competition), &n(p.round), &n(p.table), &n(p.first), &n(p.second), &p.room.map(i), &p.result, &p.note],
                )
                .await?;
            }
        }
        CompetitionWrite::TableRoom {
            competition,
            round,
            table,
            room,
        } => {
            tx.execute(
                "UPDATE competition_pairings SET room = $4 WHERE competition = $1 AND round = $2 AND table_no = $3",
                &[&i(*competition), &n(*round), &n(*table), &i(*room)],
            )
            .await?;
        }
        CompetitionWrite::Result {
            competition,
            round,
            table,
            result,
            note,
        } => {
            tx.execute(
                "UPDATE competition_pairings SET result = $4, note = $5 WHERE competition = $1 AND round = $2 AND table_no = $3",
                &[&i(*competition), &n(*round), &n(*table), result, note],
            )
            .await?;
        }
        CompetitionWrite::Correction(c) => {
            tx.execute(
                "INSERT INTO competition_corrections (competition, round, table_no, before, after, reason, author, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[&i(c.competition), &n(c.round), &n(c.table), &c.before, &c.after, &c.reason, &c.author, &c.at_ms],
            )
            .await?;
        }
        CompetitionWrite::DirectorLogin(s) => {
            tx.execute(
                "INSERT INTO director_sessions (token_hash, director, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
                &[&s.token_hash, &s.director, &s.created_ms, &s.expires_ms],
            )
            .await?;
        }
        CompetitionWrite::DirectorLogout { token_hash } => {
            tx.execute(
                "DELETE FROM director_sessions WHERE token_hash = $1",
                &[token_hash],
            )
            .await?;
        }
    }
    Ok(())
}

impl CompetitionStore for PostgresStore {
    fn competition_write(&self, batch: Vec<CompetitionWrite>) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            let mut client = self.client.lock().await;
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
            let client = self.client.lock().await;
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
                    "SELECT competition, round, table_no, first, second, room, result, note FROM competition_pairings ORDER BY competition, round, table_no",
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
            Ok(assemble(
                competitions,
                entries,
                rounds,
                pairings,
                corrections,
            ))
        })
    }

    fn director_session(
        &self,
        token_hash: Vec<u8>,
    ) -> BoxFuture<'_, StoreResult<Option<DirectorSessionRow>>> {
        Box::pin(async move {
            let client = self.client.lock().await;
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
