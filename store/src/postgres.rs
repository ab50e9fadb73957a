//! The server backend: PostgreSQL through tokio-postgres (async, no TLS: a database on the
//! same host or network), over a small pool of connections that reconnects: a connection
//! the database dropped (a restart, a failover) is replaced at its next use, so the store
//! comes back by itself once the database does. The writer's batches are one transaction
//! each; reads are rare (start-up, records, takeovers).

use std::path::Path;
use std::time::Duration;

use bytes::BytesMut;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::types::{IsNull, Type};
use tokio_postgres::{Client, NoTls, Row, Transaction};

use crate::accounts::RatingUpdate;
use crate::migrate::{MIGRATIONS, VERSION_TABLE};
use crate::retention::{self, Sweep, Swept};
use crate::sql;
use crate::{
    unix_ms, BoxFuture, GameSummary, RecordRow, RoomLog, RoomRow, SeatRow, SessionRow, StepKind,
    StepRow, Store, StoreError, StoreResult, Write,
};

/// Connections in the pool: the writer's one, and a few for reads, takeovers and
/// competitions meanwhile.
const POOL_SIZE: usize = 4;

/// How long making a connection, or waiting for a free one, may take before the call fails
/// (and the store counts as down) rather than hang on an unreachable host.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A PostgreSQL database.
pub struct PostgresStore {
    pool: Pool,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/db`): one connection is made at once, so
    /// that a wrong URL or a database that is not there stops the start-up.
    ///
    /// # Errors
    /// The URL's or the connection's error.
    pub async fn connect(url: &str) -> StoreResult<PostgresStore> {
        let mut config: tokio_postgres::Config = url.parse()?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                // A connection the database closed is noticed without a round trip, and
                // replaced; one that fails mid-use is dropped by its caller's error.
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(CONNECT_TIMEOUT))
            .wait_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Pool(e.to_string()))?;
        let store = PostgresStore { pool };
        drop(store.client().await?);
        Ok(store)
    }

    /// A connection from the pool (a new one if the database dropped the last).
    pub(crate) async fn client(&self) -> StoreResult<Object> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Pool(e.to_string()))
    }
}

fn i(n: u64) -> i64 {
    n as i64
}

fn u(n: i64) -> u64 {
    n as u64
}

impl tokio_postgres::types::ToSql for sql::Value<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match *self {
            sql::Value::Int(n) => n.to_sql(ty, out),
            sql::Value::Text(s) => s.to_sql(ty, out),
            sql::Value::Bytes(b) => b.to_sql(ty, out),
            sql::Value::Null => Ok(IsNull::Yes),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    fn to_sql_checked(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match *self {
            sql::Value::Int(n) => n.to_sql_checked(ty, out),
            sql::Value::Text(s) => s.to_sql_checked(ty, out),
            sql::Value::Bytes(b) => b.to_sql_checked(ty, out),
            sql::Value::Null => Ok(IsNull::Yes),
        }
    }
}

/// Writes `batch` in `tx`, pipelined: every statement is sent before the first answer is
/// awaited (one round trip for the batch, not one per row); PostgreSQL runs them in order.
/// The statements are prepared once per connection (the pool's statement cache keeps them,
/// and a new connection prepares them again). The batch's steps go in as one statement
/// ([`STEPS`]: one execution, not one per row), after the fence ([`FENCE`]), after the
/// batch's other writes (a room's row before its first step).
async fn write_batch(tx: &deadpool_postgres::Transaction<'_>, batch: &[Write]) -> StoreResult<()> {
    let statements: Vec<sql::Statement<'_>> = batch
        .iter()
        .filter(|w| !matches!(w, Write::Step(_)))
        .flat_map(sql::statements)
        .collect();
    let mut prepared = Vec::with_capacity(statements.len());
    for s in &statements {
        prepared.push(tx.prepare_cached(&sql::postgres(s.sql)).await?);
    }
    let steps: Vec<&StepRow> = batch
        .iter()
        .filter_map(|w| match w {
            Write::Step(step) => Some(step),
            _ => None,
        })
        .collect();
    let fence_at = lowest_epochs(&steps);
    let fence_rooms: Vec<i64> = fence_at.iter().map(|&(room, _)| i(room)).collect();
    let columns = StepColumns::of(&steps);
    let fence = tx.prepare_cached(FENCE).await?;
    let insert = tx.prepare_cached(STEPS).await?;
    let others = futures_util::future::try_join_all(
        statements
            .iter()
            .zip(&prepared)
            .map(|(s, statement)| tx.execute_raw(statement, s.values.iter())),
    );
    let fenced = async {
        if steps.is_empty() {
            return Ok(Vec::new());
        }
        tx.query(&fence, &[&fence_rooms]).await
    };
    let inserted = async {
        if steps.is_empty() {
            return Ok(0);
        }
        tx.execute(&insert, &columns.params()).await
    };
    let (_, epochs, _) = futures_util::future::try_join3(others, fenced, inserted).await?;
    // A step below its room's epoch was written by an owner the room has been taken from:
    // the transaction is dropped unfinished, so none of the batch is committed.
    for row in &epochs {
        let (room, epoch) = (u(row.get(0)), u(row.get(1)));
        let found = fence_at.binary_search_by_key(&room, |&(r, _)| r).ok();
        let Some(&(_, written)) = found.and_then(|at| fence_at.get(at)) else {
            continue;
        };
        if written < epoch {
            return Err(StoreError::Fenced {
                room,
                written,
                epoch,
            });
        }
    }
    let updates: Vec<&RatingUpdate> = batch
        .iter()
        .filter_map(|w| match w {
            Write::Rate(update) => Some(update),
            _ => None,
        })
        .collect();
    if !updates.is_empty() {
        rate(tx, &updates).await?;
    }
    Ok(())
}

/// Fencing, several nodes: reads the epochs of the batch's rooms `FOR SHARE`, in the order of
/// their ids, until the commit. A takeover raises a room's epoch under a row lock, so it waits
/// for this transaction, then reads the steps it wrote; or this one waits for the takeover and
/// reads the raised epoch. A step is either in the log the new owner reads or refused, never
/// committed after it. (Once per batch: a trigger did it for every row.)
const FENCE: &str = "SELECT id, epoch FROM rooms WHERE id = ANY($1) ORDER BY id FOR SHARE";

/// Every step of a batch in one statement, a column an array.
const STEPS: &str = "INSERT INTO steps (room, idx, kind, seat, at_ms, lag_ms, action, \
    event_seq, epoch, sent_ms) SELECT * FROM unnest($1::BIGINT[], $2::BIGINT[], \
    $3::BIGINT[], $4::BIGINT[], $5::BIGINT[], $6::BIGINT[], $7::BYTEA[], $8::BIGINT[], \
    $9::BIGINT[], $10::BIGINT[])";

/// Each room of `steps` with the lowest epoch a step of it was written at, in the order of
/// the rooms' ids (as [`FENCE`] returns them; looked up by binary search).
fn lowest_epochs(steps: &[&StepRow]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = steps.iter().map(|s| (s.room, s.epoch)).collect();
    out.sort_unstable();
    out.dedup_by_key(|&mut (room, _)| room);
    out
}

/// The batch's steps as [`STEPS`]' arrays.
struct StepColumns<'a> {
    room: Vec<i64>,
    index: Vec<i64>,
    kind: Vec<i64>,
    seat: Vec<i64>,
    at_ms: Vec<i64>,
    lag_ms: Vec<i64>,
    action: Vec<Option<&'a [u8]>>,
    event_seq: Vec<i64>,
    epoch: Vec<i64>,
    sent_ms: Vec<Option<i64>>,
}

impl<'a> StepColumns<'a> {
    fn of(steps: &[&'a StepRow]) -> StepColumns<'a> {
        StepColumns {
            room: steps.iter().map(|s| i(s.room)).collect(),
            index: steps.iter().map(|s| i(s.index)).collect(),
            kind: steps.iter().map(|s| s.kind as i64).collect(),
            seat: steps.iter().map(|s| i64::from(s.seat)).collect(),
            at_ms: steps.iter().map(|s| i(s.at_ms)).collect(),
            lag_ms: steps.iter().map(|s| i(s.lag_ms)).collect(),
            action: steps.iter().map(|s| s.action.as_deref()).collect(),
            event_seq: steps.iter().map(|s| i(s.event_seq)).collect(),
            epoch: steps.iter().map(|s| i(s.epoch)).collect(),
            sent_ms: steps.iter().map(|s| s.sent_ms.map(i)).collect(),
        }
    }

    fn params(&self) -> [&(dyn tokio_postgres::types::ToSql + Sync); 10] {
        [
            &self.room,
            &self.index,
            &self.kind,
            &self.seat,
            &self.at_ms,
            &self.lag_ms,
            &self.action,
            &self.event_seq,
            &self.epoch,
            &self.sent_ms,
        ]
    }
}

/// Applies rated games' rules to their seats' ratings as `tx` reads them, after the batch's
/// other writes. Every account rated in the batch is locked first, in one statement and in
/// the order of their ids, until the commit: a transaction of another connection (or node)
/// rating one of them waits for this one to commit and then reads what it wrote, and two
/// such transactions never wait for each other in a circle.
async fn rate(
    tx: &deadpool_postgres::Transaction<'_>,
    updates: &[&RatingUpdate],
) -> StoreResult<()> {
    let mut ids: Vec<i64> = updates.iter().flat_map(|u| u.accounts()).map(i).collect();
    ids.sort_unstable();
    ids.dedup();
    tx.query(
        "SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE",
        &[&ids],
    )
    .await?;
    let read = tx
        .prepare_cached(&sql::postgres(crate::accounts::RATING_STATE))
        .await?;
    for update in updates {
        let mut current = Vec::with_capacity(update.accounts.len());
        for account in &update.accounts {
            current.push(match account {
                Some(a) => tx
                    .query_opt(&read, &[&i(*a), &update.game])
                    .await?
                    .map(|r| r.get::<_, String>(0)),
                None => None,
            });
        }
        for write in update.writes(&current) {
            for s in write.statements() {
                tx.execute_raw(sql::postgres(s.sql).as_str(), s.values.iter())
                    .await?;
            }
        }
    }
    Ok(())
}

/// A room's log, from its row (`id, game, options, seed, created_ms, epoch, skew_ms`).
async fn room_log<C: tokio_postgres::GenericClient + Sync>(
    client: &C,
    r: &Row,
) -> StoreResult<RoomLog> {
    let room = RoomRow {
        id: u(r.get(0)),
        game: r.get(1),
        options: r.get(2),
        seed: u(r.get(3)),
        created_ms: r.get(4),
        number: r.get::<_, Option<i64>>(7).map(u),
        addr: r.get(8),
    };
    let id = room.id;
    let steps = client
        .query(
            "SELECT idx, kind, seat, at_ms, lag_ms, action, event_seq, epoch, sent_ms FROM steps WHERE room = $1 ORDER BY idx",
            &[&i(id)],
        )
        .await?
        .iter()
        .map(|r| StepRow {
            room: id,
            index: u(r.get(0)),
            kind: StepKind::from_i64(r.get(1)).unwrap_or(StepKind::Action),
            seat: seat_of(r, 2),
            at_ms: u(r.get(3)),
            lag_ms: u(r.get(4)),
            action: r.get(5),
            event_seq: u(r.get(6)),
            epoch: u(r.get(7)),
            sent_ms: r.get::<_, Option<i64>>(8).map(u),
        })
        .collect();
    let seats = client
        .query(
            "SELECT seat, player, name, bot, at_ms, account FROM seat_changes WHERE room = $1 ORDER BY id",
            &[&i(id)],
        )
        .await?
        .iter()
        .map(|r| SeatRow {
            room: id,
            seat: seat_of(r, 0),
            player: r.get::<_, Option<i64>>(1).map(u),
            name: r.get(2),
            bot: r.get::<_, i64>(3) != 0,
            at_ms: u(r.get(4)),
            account: r.get::<_, Option<i64>>(5).map(u),
        })
        .collect();
    Ok(RoomLog {
        room,
        steps,
        seats,
        epoch: u(r.get(5)),
        skew_ms: u(r.get(6)),
    })
}

/// Applies the migrations not yet applied (under the caller's lock); the schema version.
async fn migrate(client: &mut Object) -> StoreResult<u32> {
    client.batch_execute(VERSION_TABLE).await?;
    let current: i64 = client
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_version",
            &[],
        )
        .await?
        .get(0);
    let mut version = current as u32;
    for m in MIGRATIONS.iter().filter(|m| i64::from(m.version) > current) {
        let tx = client.transaction().await?;
        tx.batch_execute(m.postgres).await?;
        tx.execute(
            "INSERT INTO schema_version (version, applied_ms) VALUES ($1, $2)",
            &[&i64::from(m.version), &unix_ms()],
        )
        .await?;
        tx.commit().await?;
        version = m.version;
    }
    Ok(version)
}

fn seat_of(row: &Row, col: usize) -> u8 {
    u8::try_from(row.get::<_, i64>(col)).unwrap_or(u8::MAX)
}

impl Store for PostgresStore {
    fn migrate(&self) -> BoxFuture<'_, StoreResult<u32>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            // Several nodes may start at once on one database: one migrates at a time (a
            // session lock, given back below whatever happened).
            client
                .batch_execute("SELECT pg_advisory_lock(7171717)")
                .await?;
            let result = migrate(&mut client).await;
            client
                .batch_execute("SELECT pg_advisory_unlock(7171717)")
                .await?;
            result
        })
    }

    fn write(&self, batch: Vec<Write>) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            write_batch(&tx, &batch).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn next_room_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client().await?;
            let max: i64 = client
                .query_one("SELECT COALESCE(MAX(id), 0)::BIGINT FROM rooms", &[])
                .await?
                .get(0);
            Ok(u(max) + 1)
        })
    }

    fn next_room_number(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client().await?;
            let max: i64 = client
                .query_one(
                    "SELECT GREATEST(COALESCE((SELECT MAX(number) FROM rooms), 0), COALESCE((SELECT value FROM counters WHERE name = 'room_number'), 0))::BIGINT",
                    &[],
                )
                .await?
                .get(0);
            Ok(u(max) + 1)
        })
    }

    fn max_player_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client().await?;
            let max: i64 = client
                .query_one(
                    "SELECT GREATEST(COALESCE((SELECT MAX(player) FROM sessions), 0), COALESCE((SELECT MAX(player) FROM seat_changes), 0))::BIGINT",
                    &[],
                )
                .await?
                .get(0);
            Ok(u(max))
        })
    }

    fn last_time(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client().await?;
            let max: i64 = client
                .query_one(
                    "SELECT GREATEST(COALESCE((SELECT MAX(at_ms) FROM steps), 0), COALESCE((SELECT MAX(at_ms) FROM seat_changes), 0))::BIGINT",
                    &[],
                )
                .await?
                .get(0);
            Ok(u(max))
        })
    }

    fn unfinished(&self) -> BoxFuture<'_, StoreResult<Vec<RoomLog>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rooms = client
                .query(
                    "SELECT id, game, options, seed, created_ms, epoch, skew_ms, number, addr FROM rooms WHERE status = 'open' ORDER BY id",
                    &[],
                )
                .await?;
            let mut out = Vec::with_capacity(rooms.len());
            for r in rooms {
                out.push(room_log::<Client>(&client, &r).await?);
            }
            Ok(out)
        })
    }

    fn room_log(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RoomLog>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT id, game, options, seed, created_ms, epoch, skew_ms, number, addr FROM rooms WHERE status = 'open' AND id = $1",
                    &[&i(room)],
                )
                .await?;
            match row {
                Some(r) => Ok(Some(room_log::<Client>(&client, &r).await?)),
                None => Ok(None),
            }
        })
    }

    fn take_over(
        &self,
        room: u64,
        epoch: u64,
        add_skew_ms: u64,
    ) -> BoxFuture<'_, StoreResult<Option<RoomLog>>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            // The row lock taken here makes a stale owner's batch wait, then fail (the
            // writer reads the batch's rooms FOR SHARE: `FENCE`).
            let row = tx
                .query_opt(
                    "UPDATE rooms SET epoch = $2, skew_ms = skew_ms + $3 \
                     WHERE id = $1 AND status = 'open' AND epoch < $2 \
                     RETURNING id, game, options, seed, created_ms, epoch, skew_ms, number, addr",
                    &[&i(room), &i(epoch), &i(add_skew_ms)],
                )
                .await?;
            let log = match row {
                Some(r) => Some(room_log::<Transaction<'_>>(&tx, &r).await?),
                None => None,
            };
            tx.commit().await?;
            Ok(log)
        })
    }

    fn open_sessions(&self, finished_since_ms: i64) -> BoxFuture<'_, StoreResult<Vec<SessionRow>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT token_hash, player, name, bot, created_ms, account FROM sessions WHERE player IN (SELECT s.player FROM seat_changes s JOIN rooms r ON r.id = s.room WHERE s.player IS NOT NULL AND (r.status = 'open' OR r.id IN (SELECT room FROM results WHERE finished_ms >= $1))) ORDER BY player",
                    &[&finished_since_ms],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| SessionRow {
                    token_hash: r.get(0),
                    player: u(r.get(1)),
                    name: r.get(2),
                    bot: r.get::<_, i64>(3) != 0,
                    created_ms: r.get(4),
                    account: r.get::<_, Option<i64>>(5).map(u),
                })
                .collect())
        })
    }

    fn record(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RecordRow>>> {
        Box::pin(async move {
            let client = self.client().await?;
            let Some(r) = client
                .query_opt(
                    "SELECT game, finished_ms, body, pgn, summary FROM records WHERE room = $1",
                    &[&i(room)],
                )
                .await?
            else {
                return Ok(None);
            };
            let (players, accounts) = client
                .query(
                    "SELECT name, account FROM record_players WHERE room = $1 ORDER BY seat",
                    &[&i(room)],
                )
                .await?
                .iter()
                .map(|p| (p.get(0), p.get::<_, Option<i64>>(1).map(u)))
                .unzip();
            Ok(Some(RecordRow {
                room,
                game: r.get(0),
                finished_ms: r.get(1),
                body: r.get(2),
                pgn: r.get(3),
                players,
                accounts,
                summary: r.get(4),
            }))
        })
    }

    fn player_games(
        &self,
        name: String,
        from: crate::GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<GameSummary>>> {
        let (finished_ms, room, offset) = from.bounds();
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    sql::postgres(crate::PLAYER_GAMES).as_str(),
                    &[&name, &i(limit), &finished_ms, &room, &offset],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| GameSummary {
                    room: u(r.get(0)),
                    game: r.get(1),
                    finished_ms: r.get(2),
                    seat: seat_of(r, 3),
                    summary: r.get(4),
                })
                .collect())
        })
    }

    fn prune(&self, before_ms: i64) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            let done = "SELECT id FROM rooms WHERE status <> 'open' AND id NOT IN (SELECT room FROM results WHERE finished_ms >= $1) AND created_ms < $1";
            let steps = tx
                .execute(
                    &format!("DELETE FROM steps WHERE room IN ({done})"),
                    &[&before_ms],
                )
                .await?;
            let seats = tx
                .execute(
                    &format!("DELETE FROM seat_changes WHERE room IN ({done})"),
                    &[&before_ms],
                )
                .await?;
            tx.commit().await?;
            Ok(steps + seats)
        })
    }

    fn sweep(&self, sweep: Sweep) -> BoxFuture<'_, StoreResult<Swept>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            let mut swept = Swept::default();
            let [steps, seats, rooms] = retention::abandoned_rooms().map(|s| sql::postgres(&s));
            let before = [&sweep.abandoned_before_ms as &(dyn tokio_postgres::types::ToSql + Sync)];
            swept.room_rows =
                tx.execute(&steps, &before).await? + tx.execute(&seats, &before).await?;
            swept.rooms = tx.execute(&rooms, &before).await?;
            let sessions = sql::postgres(&retention::expired_sessions(&sweep.live_players));
            swept.sessions = tx.execute(&sessions, &[&sweep.sessions_before_ms]).await?;
            for expired in retention::EXPIRED_SIGN_INS {
                swept.signed_in += tx
                    .execute(&sql::postgres(expired), &[&sweep.now_ms])
                    .await?;
            }
            tx.commit().await?;
            Ok(swept)
        })
    }

    fn size_bytes(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client().await?;
            let bytes: i64 = client
                .query_one("SELECT pg_database_size(current_database())", &[])
                .await?
                .get(0);
            Ok(u(bytes))
        })
    }

    fn ping(&self) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            self.client().await?.batch_execute("SELECT 1").await?;
            Ok(())
        })
    }

    fn backup<'a>(&'a self, _path: &'a Path) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async {
            Err(StoreError::Unsupported(
                "backing up PostgreSQL is pg_dump's job: pg_dump --format=custom DBNAME > FILE",
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fence compares each room's lowest epoch in the batch, found by binary search: the
    /// list is sorted by room, one entry a room, whatever order the steps came in.
    #[test]
    fn lowest_epochs_are_one_a_room_sorted_by_room() {
        let step = |room: u64, epoch: u64| StepRow {
            room,
            index: 0,
            kind: StepKind::Action,
            seat: 0,
            at_ms: 0,
            lag_ms: 0,
            action: None,
            event_seq: 0,
            epoch,
            sent_ms: None,
        };
        let steps = [step(9, 2), step(3, 1), step(9, 1), step(5, 4), step(3, 3)];
        let refs: Vec<&StepRow> = steps.iter().collect();
        assert_eq!(lowest_epochs(&refs), [(3, 1), (5, 4), (9, 1)]);
        assert!(lowest_epochs(&[]).is_empty());
    }
}
