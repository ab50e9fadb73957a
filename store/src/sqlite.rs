//! The embedded backend: one SQLite file in WAL mode (readers never wait for the writer),
//! by default `synchronous = FULL` so a commit is on disk before it is acknowledged
//! ([`SqliteSync`] says what the other choice keeps). rusqlite is blocking, so the
//! connection lives on a thread of its own and every call is a job sent to it.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use rusqlite::{params, Connection, OptionalExtension};

use crate::migrate::{MIGRATIONS, VERSION_TABLE};
use crate::retention::{self, Sweep, Swept};
use crate::sql;
use crate::{
    unix_ms, BoxFuture, GameSummary, RecordRow, RoomLog, RoomRow, SeatRow, SessionRow, StepKind,
    StepRow, Store, StoreError, StoreResult, Write,
};

/// How far a SQLite commit has gone when it is acknowledged (`[store] sqlite_sync`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SqliteSync {
    /// `synchronous = FULL`: the WAL is flushed to the disk (`fdatasync`) at every commit, so
    /// an acknowledged commit survives a crash of the process, of the operating system and a
    /// power cut. Each commit waits for the disk (about half a millisecond here,
    /// docs/performance/2026-12-06-store-sync.md).
    #[default]
    Full,
    /// `synchronous = NORMAL`: a commit is written to the WAL (the operating system's cache)
    /// and acknowledged; the disk is flushed at checkpoints. An acknowledged commit survives
    /// any crash of the server's process (`kill -9`, a panic, the OOM killer); a crash of the
    /// operating system or a power cut may lose the last commits before the checkpoint, never
    /// corrupt the file.
    Normal,
}

impl SqliteSync {
    fn pragma(self) -> &'static str {
        match self {
            SqliteSync::Full => "FULL",
            SqliteSync::Normal => "NORMAL",
        }
    }
}

/// A call on the connection, run by its thread.
type Job = Box<dyn FnOnce(&mut Connection) + Send>;

/// A SQLite file.
pub struct SqliteStore {
    /// The jobs for the thread that owns the connection. One thread, woken by its queue,
    /// rather than tokio's blocking pool: a commit handed to the pool was a task made, a pool
    /// thread woken and a join handle woken back, once per commit, and the group-commit
    /// writer commits a few thousand times a second.
    jobs: mpsc::Sender<Job>,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (or creates) the file at `path`, creating its folder, its commits flushed to
    /// the disk as `sync` says.
    ///
    /// # Errors
    /// SQLite's error when the file cannot be opened.
    pub async fn open(path: &Path, sync: SqliteSync) -> StoreResult<SqliteStore> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Task(e.to_string()))?;
        }
        let (jobs, queue) = mpsc::channel::<Job>();
        let (opened, open) = tokio::sync::oneshot::channel();
        let owned = path.to_owned();
        std::thread::Builder::new()
            .name("qipai-sqlite".into())
            .spawn(move || match connect(&owned, sync) {
                Ok(conn) => {
                    let _ = opened.send(Ok(()));
                    serve(conn, &queue);
                }
                Err(error) => {
                    let _ = opened.send(Err(error));
                }
            })
            .map_err(|e| StoreError::Task(e.to_string()))?;
        open.await.map_err(|_| gone())??;
        Ok(SqliteStore {
            jobs,
            path: path.to_owned(),
        })
    }

    /// The file this store lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on the connection's thread.
    pub(crate) fn call<T, F>(&self, f: F) -> BoxFuture<'_, StoreResult<T>>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> StoreResult<T> + Send + 'static,
    {
        let (done, result) = tokio::sync::oneshot::channel();
        let sent = self.jobs.send(Box::new(move |conn: &mut Connection| {
            // A panic in `f` is the call's error, not the end of the thread.
            let out = std::panic::catch_unwind(AssertUnwindSafe(|| f(conn)))
                .unwrap_or_else(|_| Err(StoreError::Task("a SQLite call panicked".into())));
            let _ = done.send(out);
        }));
        Box::pin(async move {
            sent.map_err(|_| gone())?;
            result.await.map_err(|_| gone())?
        })
    }
}

/// Opens the file in WAL mode, its commits flushed as `sync` says.
fn connect(path: &Path, sync: SqliteSync) -> StoreResult<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", sync.pragma())?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

/// The connection's thread: runs the jobs in the order they came, until the store is dropped.
fn serve(mut conn: Connection, queue: &mpsc::Receiver<Job>) {
    for job in queue {
        job(&mut conn);
    }
}

fn gone() -> StoreError {
    StoreError::Task("the SQLite thread is gone".into())
}

fn i(n: u64) -> i64 {
    n as i64
}

fn u(n: i64) -> u64 {
    n as u64
}

impl rusqlite::ToSql for sql::Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            sql::Value::Int(n) => ValueRef::Integer(n),
            sql::Value::Text(s) => ValueRef::Text(s.as_bytes()),
            sql::Value::Bytes(b) => ValueRef::Blob(b),
            sql::Value::Null => ValueRef::Null,
        }))
    }
}

/// Writes `batch` in `tx`, each statement prepared once per connection (`prepare_cached`).
fn write_batch(tx: &rusqlite::Transaction<'_>, batch: &[Write]) -> rusqlite::Result<()> {
    for write in batch {
        if let Write::Rate(update) = write {
            rate(tx, update)?;
        }
        for s in sql::statements(write) {
            tx.prepare_cached(s.sql)?
                .execute(rusqlite::params_from_iter(&s.values))?;
        }
    }
    Ok(())
}

/// Applies a rated game's rule to its seats' ratings as `tx` reads them: after every
/// earlier write of the batch, and with no other transaction between (the store's one
/// connection runs one at a time).
fn rate(
    tx: &rusqlite::Transaction<'_>,
    update: &crate::accounts::RatingUpdate,
) -> rusqlite::Result<()> {
    let current = {
        let mut read = tx.prepare_cached(crate::accounts::RATING_STATE)?;
        update
            .accounts
            .iter()
            .map(|account| match account {
                Some(a) => read
                    .query_row(rusqlite::params![i(*a), update.game], |r| r.get(0))
                    .optional(),
                None => Ok(None),
            })
            .collect::<rusqlite::Result<Vec<Option<String>>>>()?
    };
    for write in update.writes(&current) {
        for s in write.statements() {
            tx.prepare_cached(s.sql)?
                .execute(rusqlite::params_from_iter(&s.values))?;
        }
    }
    Ok(())
}

/// Every open room with its log. The steps are one log in commit order (migration 4): it is
/// read once, from the first step of the oldest open room on, and each step goes to its room
/// in the order it was written (so a step index written twice shows as out of order to the
/// room's replay).
/// With `only`, that one room (if open), its steps read through the room's index instead.
fn room_logs(conn: &Connection, only: Option<u64>) -> StoreResult<Vec<RoomLog>> {
    let mut rooms = conn.prepare(
        "SELECT id, game, options, seed, created_ms, epoch, skew_ms, log_from, number, addr FROM rooms WHERE status = 'open' AND (?1 IS NULL OR id = ?1) ORDER BY id",
    )?;
    let mut from = i64::MAX;
    let mut out: Vec<RoomLog> = rooms
        .query_map(params![only.map(i)], |r| {
            let room = RoomRow {
                id: u(r.get(0)?),
                game: r.get(1)?,
                options: r.get(2)?,
                seed: u(r.get(3)?),
                created_ms: r.get(4)?,
                number: r.get::<_, Option<i64>>(8)?.map(u),
                addr: r.get(9)?,
            };
            Ok((room, u(r.get(5)?), u(r.get(6)?), r.get::<_, i64>(7)?))
        })?
        .map(|row| {
            let (room, epoch, skew_ms, log_from) = row?;
            from = from.min(log_from);
            Ok(RoomLog {
                room,
                steps: Vec::new(),
                seats: Vec::new(),
                epoch,
                skew_ms,
            })
        })
        .collect::<rusqlite::Result<_>>()?;
    let at: HashMap<u64, usize> = out
        .iter()
        .enumerate()
        .map(|(n, log)| (log.room.id, n))
        .collect();
    let columns =
        "SELECT room, idx, kind, seat, at_ms, lag_ms, action, event_seq, epoch, sent_ms FROM steps";
    let mut steps = conn.prepare(&match only {
        Some(_) => format!("{columns} WHERE room = ?2 AND seq > ?1 ORDER BY seq"),
        None => format!("{columns} WHERE seq > ?1 ORDER BY seq"),
    })?;
    let mut rows = match only {
        Some(room) => steps.query(params![from, i(room)])?,
        None => steps.query(params![from])?,
    };
    while let Some(r) = rows.next()? {
        let room = u(r.get(0)?);
        let Some(log) = at.get(&room).and_then(|&n| out.get_mut(n)) else {
            continue;
        };
        let kind: i64 = r.get(2)?;
        log.steps.push(StepRow {
            room,
            index: u(r.get(1)?),
            kind: StepKind::from_i64(kind).unwrap_or(StepKind::Action),
            seat: r.get(3)?,
            at_ms: u(r.get(4)?),
            lag_ms: u(r.get(5)?),
            action: r.get(6)?,
            event_seq: u(r.get(7)?),
            epoch: u(r.get(8)?),
            sent_ms: r.get::<_, Option<i64>>(9)?.map(u),
        });
    }
    let mut seats = conn.prepare(
        "SELECT seat, player, name, bot, at_ms, account FROM seat_changes WHERE room = ?1 ORDER BY id",
    )?;
    for log in &mut out {
        let id = log.room.id;
        log.seats = seats
            .query_map(params![i(id)], |r| {
                Ok(SeatRow {
                    room: id,
                    seat: r.get(0)?,
                    player: r.get::<_, Option<i64>>(1)?.map(u),
                    name: r.get(2)?,
                    bot: r.get::<_, i64>(3)? != 0,
                    at_ms: u(r.get(4)?),
                    account: r.get::<_, Option<i64>>(5)?.map(u),
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
    }
    Ok(out)
}

impl Store for SqliteStore {
    fn migrate(&self) -> BoxFuture<'_, StoreResult<u32>> {
        self.call(|conn| {
            conn.execute(VERSION_TABLE, [])?;
            let current: i64 = conn.query_row(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version",
                [],
                |r| r.get(0),
            )?;
            let mut version = current as u32;
            for m in MIGRATIONS.iter().filter(|m| i64::from(m.version) > current) {
                let tx = conn.transaction()?;
                tx.execute_batch(m.sqlite)?;
                tx.execute(
                    "INSERT INTO schema_version (version, applied_ms) VALUES (?1, ?2)",
                    params![i64::from(m.version), unix_ms()],
                )?;
                tx.commit()?;
                version = m.version;
            }
            Ok(version)
        })
    }

    fn write(&self, batch: Vec<Write>) -> BoxFuture<'_, StoreResult<()>> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            write_batch(&tx, &batch)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn next_room_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.call(|conn| {
            let max: i64 =
                conn.query_row("SELECT COALESCE(MAX(id), 0) FROM rooms", [], |r| r.get(0))?;
            Ok(u(max) + 1)
        })
    }

    fn next_room_number(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.call(|conn| {
            let max: i64 = conn.query_row(
                "SELECT MAX(COALESCE((SELECT MAX(number) FROM rooms), 0), COALESCE((SELECT value FROM counters WHERE name = 'room_number'), 0))",
                [],
                |r| r.get(0),
            )?;
            Ok(u(max) + 1)
        })
    }

    fn max_player_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.call(|conn| {
            let max: i64 = conn.query_row(
                "SELECT MAX(COALESCE((SELECT MAX(player) FROM sessions), 0), COALESCE((SELECT MAX(player) FROM seat_changes), 0))",
                [],
                |r| r.get(0),
            )?;
            Ok(u(max))
        })
    }

    fn last_time(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.call(|conn| {
            let max: i64 = conn.query_row(
                "SELECT MAX(COALESCE((SELECT MAX(at_ms) FROM steps), 0), COALESCE((SELECT MAX(at_ms) FROM seat_changes), 0))",
                [],
                |r| r.get(0),
            )?;
            Ok(u(max))
        })
    }

    fn unfinished(&self) -> BoxFuture<'_, StoreResult<Vec<RoomLog>>> {
        self.call(|conn| room_logs(conn, None))
    }

    fn room_log(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RoomLog>>> {
        self.call(move |conn| Ok(room_logs(conn, Some(room))?.pop()))
    }

    fn open_sessions(&self, finished_since_ms: i64) -> BoxFuture<'_, StoreResult<Vec<SessionRow>>> {
        self.call(move |conn| {
            let mut q = conn.prepare(
                "SELECT token_hash, player, name, bot, created_ms, account FROM sessions WHERE player IN (SELECT s.player FROM seat_changes s JOIN rooms r ON r.id = s.room WHERE s.player IS NOT NULL AND (r.status = 'open' OR r.id IN (SELECT room FROM results WHERE finished_ms >= ?1))) ORDER BY player",
            )?;
            let rows = q
                .query_map(params![finished_since_ms], |r| {
                    Ok(SessionRow {
                        token_hash: r.get(0)?,
                        player: u(r.get(1)?),
                        name: r.get(2)?,
                        bot: r.get::<_, i64>(3)? != 0,
                        created_ms: r.get(4)?,
                        account: r.get::<_, Option<i64>>(5)?.map(u),
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(rows)
        })
    }

    fn record(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RecordRow>>> {
        self.call(move |conn| {
            let row = conn
                .query_row(
                    "SELECT game, finished_ms, body, pgn, summary FROM records WHERE room = ?1",
                    params![i(room)],
                    |r| {
                        Ok(RecordRow {
                            room,
                            game: r.get(0)?,
                            finished_ms: r.get(1)?,
                            body: r.get(2)?,
                            pgn: r.get(3)?,
                            players: Vec::new(),
                            accounts: Vec::new(),
                            summary: r.get(4)?,
                        })
                    },
                )
                .optional()?;
            let Some(mut row) = row else { return Ok(None) };
            let mut q = conn.prepare(
                "SELECT name, account FROM record_players WHERE room = ?1 ORDER BY seat",
            )?;
            let seats: Vec<(String, Option<i64>)> = q
                .query_map(params![i(room)], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            (row.players, row.accounts) = seats
                .into_iter()
                .map(|(name, account)| (name, account.map(u)))
                .unzip();
            Ok(Some(row))
        })
    }

    fn player_games(
        &self,
        name: String,
        from: crate::GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<GameSummary>>> {
        let (finished_ms, room, offset) = from.bounds();
        self.call(move |conn| {
            let mut q = conn.prepare(crate::PLAYER_GAMES)?;
            let rows = q
                .query_map(params![name, i(limit), finished_ms, room, offset], |r| {
                    Ok(GameSummary {
                        room: u(r.get(0)?),
                        game: r.get(1)?,
                        finished_ms: r.get(2)?,
                        seat: r.get(3)?,
                        summary: r.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(rows)
        })
    }

    fn prune(&self, before_ms: i64) -> BoxFuture<'_, StoreResult<u64>> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            let done = "SELECT id FROM rooms WHERE status <> 'open' AND id NOT IN (SELECT room FROM results WHERE finished_ms >= ?1) AND created_ms < ?1";
            let steps = tx.execute(&format!("DELETE FROM steps WHERE room IN ({done})"), params![before_ms])?;
            let seats = tx.execute(
                &format!("DELETE FROM seat_changes WHERE room IN ({done})"),
                params![before_ms],
            )?;
            tx.commit()?;
            Ok((steps + seats) as u64)
        })
    }

    fn sweep(&self, sweep: Sweep) -> BoxFuture<'_, StoreResult<Swept>> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            let mut swept = Swept::default();
            let [_, seats, rooms] = retention::abandoned_rooms();
            let steps = retention::abandoned_steps_sqlite();
            let before = params![sweep.abandoned_before_ms];
            swept.room_rows = (tx.execute(&steps, before)? + tx.execute(&seats, before)?) as u64;
            swept.rooms = tx.execute(&rooms, before)? as u64;
            swept.sessions = tx.execute(
                &retention::expired_sessions(&sweep.live_players),
                params![sweep.sessions_before_ms],
            )? as u64;
            for expired in retention::EXPIRED_SIGN_INS {
                swept.signed_in += tx.execute(expired, params![sweep.now_ms])? as u64;
            }
            tx.commit()?;
            Ok(swept)
        })
    }

    fn size_bytes(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.call(|conn| {
            let bytes: i64 = conn.query_row(
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
                [],
                |r| r.get(0),
            )?;
            Ok(u(bytes))
        })
    }

    fn backup<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, StoreResult<()>> {
        let target = path.to_string_lossy().into_owned();
        self.call(move |conn| {
            conn.execute("VACUUM INTO ?1", params![target])?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[store] sqlite_sync` reaches the connection the writer commits on: SQLite's
    /// `synchronous` is 2 for FULL and 1 for NORMAL.
    #[tokio::test]
    async fn the_sync_setting_is_the_connections() {
        for (sync, expected) in [(SqliteSync::Full, 2), (SqliteSync::Normal, 1)] {
            let path = std::env::temp_dir().join(format!(
                "qipai_sqlite_sync_{}_{expected}.db",
                std::process::id()
            ));
            let store = SqliteStore::open(&path, sync).await.expect("open");
            let got = store
                .call(|c| Ok(c.pragma_query_value(None, "synchronous", |r| r.get::<_, i64>(0))?))
                .await
                .expect("pragma");
            assert_eq!(got, expected, "{sync:?}");
            drop(store);
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
        }
    }
}
