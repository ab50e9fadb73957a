//! [`CompetitionStore`] on SQLite.

use rusqlite::{params, OptionalExtension, Row, Transaction};

use super::{
    assemble, u, CompetitionLog, CompetitionRow, CompetitionStore, CompetitionWrite, CorrectionRow,
    DirectorSessionRow, EntryRow, LinkRow, PairingRow, RoundRow, Rows, LINKS,
};
use crate::sqlite::SqliteStore;
use crate::{BoxFuture, StoreResult};

fn write_one(tx: &Transaction<'_>, w: &CompetitionWrite) -> rusqlite::Result<()> {
    for s in w.statements() {
        tx.prepare_cached(s.sql)?
            .execute(rusqlite::params_from_iter(&s.values))?;
    }
    Ok(())
}

fn all<T>(
    conn: &rusqlite::Connection,
    sql: &str,
    f: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    conn.prepare(sql)?.query_map([], f)?.collect()
}

fn load(conn: &rusqlite::Connection) -> rusqlite::Result<Vec<CompetitionLog>> {
    let competitions = all(
        conn,
        "SELECT id, name, settings, created_ms FROM competitions ORDER BY id",
        |r| {
            Ok(CompetitionRow {
                id: u(r.get(0)?),
                name: r.get(1)?,
                settings: r.get(2)?,
                created_ms: r.get(3)?,
            })
        },
    )?;
    let entries = all(
        conn,
        "SELECT competition, idx, team, pair_number, players, contacts FROM competition_entries ORDER BY competition, idx",
        |r| {
            Ok(EntryRow {
                competition: u(r.get(0)?),
                index: r.get(1)?,
                team: r.get(2)?,
                pair_number: r.get(3)?,
                players: r.get(4)?,
                contacts: r.get(5)?,
            })
        },
    )?;
    let rounds = all(
        conn,
        "SELECT competition, number, seed, bye, started_ms FROM competition_rounds ORDER BY competition, number",
        |r| {
            Ok(RoundRow {
                competition: u(r.get(0)?),
                number: r.get(1)?,
                seed: u(r.get(2)?),
                bye: r.get(3)?,
                started_ms: r.get(4)?,
            })
        },
    )?;
    let pairings = all(
        conn,
        "SELECT competition, round, table_no, first, second, room, result, note, games, game_opened_ms FROM competition_pairings ORDER BY competition, round, table_no",
        |r| {
            Ok(PairingRow {
                competition: u(r.get(0)?),
                round: r.get(1)?,
                table: r.get(2)?,
                first: r.get(3)?,
                second: r.get(4)?,
                room: r.get::<_, Option<i64>>(5)?.map(u),
                result: r.get(6)?,
                note: r.get(7)?,
                games: r.get(8)?,
                game_opened_ms: r.get(9)?,
            })
        },
    )?;
    let corrections = all(
        conn,
        "SELECT competition, round, table_no, before, after, reason, author, at_ms FROM competition_corrections ORDER BY competition, id",
        |r| {
            Ok(CorrectionRow {
                competition: u(r.get(0)?),
                round: r.get(1)?,
                table: r.get(2)?,
                before: r.get(3)?,
                after: r.get(4)?,
                reason: r.get(5)?,
                author: r.get(6)?,
                at_ms: r.get(7)?,
            })
        },
    )?;
    let links = all(conn, LINKS, |r| {
        Ok(LinkRow {
            competition: u(r.get(0)?),
            index: r.get(1)?,
            player: r.get(2)?,
            account: u(r.get(3)?),
            account_name: r.get(4)?,
            linked_ms: r.get(5)?,
        })
    })?;
    Ok(assemble(Rows {
        competitions,
        entries,
        rounds,
        pairings,
        corrections,
        links,
    }))
}

impl CompetitionStore for SqliteStore {
    fn competition_write(&self, batch: Vec<CompetitionWrite>) -> BoxFuture<'_, StoreResult<()>> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            for w in &batch {
                write_one(&tx, w)?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn competitions(&self) -> BoxFuture<'_, StoreResult<Vec<CompetitionLog>>> {
        self.call(|conn| Ok(load(conn)?))
    }

    fn director_session(
        &self,
        token_hash: Vec<u8>,
    ) -> BoxFuture<'_, StoreResult<Option<DirectorSessionRow>>> {
        self.call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT director, created_ms, expires_ms FROM director_sessions WHERE token_hash = ?1",
                    params![token_hash],
                    |r| {
                        Ok(DirectorSessionRow {
                            token_hash: token_hash.clone(),
                            director: r.get(0)?,
                            created_ms: r.get(1)?,
                            expires_ms: r.get(2)?,
                        })
                    },
                )
                .optional()?)
        })
    }
}
