//! The server backend: PostgreSQL through tokio-postgres (async, no TLS: a database on the
//! same host or network). One connection: the writer's batches are already one transaction
//! each, and reads are rare (start-up, records).

use std::path::Path;

use tokio::sync::Mutex;
use tokio_postgres::{Client, NoTls, Row, Transaction};

use crate::migrate::{MIGRATIONS, VERSION_TABLE};
use crate::{
    unix_ms, BoxFuture, GameSummary, RecordRow, RoomLog, RoomRow, SeatRow, SessionRow, StepKind,
    StepRow, Store, StoreError, StoreResult, Write,
};

/// A PostgreSQL database.
pub struct PostgresStore {
    pub(crate) client: Mutex<Client>,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/db`).
    ///
    /// # Errors
    /// The connection's error.
    pub async fn connect(url: &str) -> StoreResult<PostgresStore> {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::error!(%error, "the PostgreSQL connection failed");
            }
        });
        Ok(PostgresStore {
            client: Mutex::new(client),
        })
    }
}

fn i(n: u64) -> i64 {
    n as i64
}

fn u(n: i64) -> u64 {
    n as u64
}

async fn write_one(tx: &Transaction<'_>, w: &Write) -> Result<(), tokio_postgres::Error> {
    match w {
        Write::Room(r) => {
            tx.execute(
                "INSERT INTO rooms (id, game, options, seed, created_ms, status) VALUES ($1, $2, $3, $4, $5, 'open')",
                &[&i(r.id), &r.game, &r.options, &i(r.seed), &r.created_ms],
            )
            .await?;
        }
        Write::Step(s) => {
            tx.execute(
                "INSERT INTO steps (room, idx, kind, seat, at_ms, lag_ms, action, event_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[&i(s.room), &i(s.index), &(s.kind as i64), &i64::from(s.seat), &i(s.at_ms), &i(s.lag_ms), &s.action, &i(s.event_seq)],
            )
            .await?;
        }
        Write::Seat(s) => {
            tx.execute(
                "INSERT INTO seat_changes (room, seat, player, name, bot, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
                &[&i(s.room), &i64::from(s.seat), &s.player.map(i), &s.name, &i64::from(s.bot), &i(s.at_ms)],
            )
            .await?;
        }
        Write::Result {
            room,
            result,
            finished_ms,
        } => {
            tx.execute(
                "INSERT INTO results (room, result, finished_ms) VALUES ($1, $2, $3) ON CONFLICT (room) DO UPDATE SET result = excluded.result, finished_ms = excluded.finished_ms",
                &[&i(*room), result, finished_ms],
            )
            .await?;
            tx.execute(
                "UPDATE rooms SET status = 'finished' WHERE id = $1",
                &[&i(*room)],
            )
            .await?;
        }
        Write::Closed { room, reason } => {
            tx.execute(
                "UPDATE rooms SET status = 'closed', reason = $2 WHERE id = $1 AND status = 'open'",
                &[&i(*room), reason],
            )
            .await?;
        }
        Write::Session(s) => {
            tx.execute(
                "INSERT INTO sessions (token_hash, player, name, bot, created_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (token_hash) DO NOTHING",
                &[&s.token_hash, &i(s.player), &s.name, &i64::from(s.bot), &s.created_ms],
            )
            .await?;
        }
        Write::Record(r) => {
            tx.execute(
                "INSERT INTO records (room, game, finished_ms, body, pgn) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (room) DO UPDATE SET body = excluded.body, pgn = excluded.pgn, finished_ms = excluded.finished_ms",
                &[&i(r.room), &r.game, &r.finished_ms, &r.body, &r.pgn],
            )
            .await?;
            for (seat, name) in r.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO record_players (room, seat, name) VALUES ($1, $2, $3) ON CONFLICT (room, seat) DO UPDATE SET name = excluded.name",
                    &[&i(r.room), &(seat as i64), name],
                )
                .await?;
            }
        }
    }
    Ok(())
}

fn seat_of(row: &Row, col: usize) -> u8 {
    u8::try_from(row.get::<_, i64>(col)).unwrap_or(u8::MAX)
}

impl Store for PostgresStore {
    fn migrate(&self) -> BoxFuture<'_, StoreResult<u32>> {
        Box::pin(async move {
            let mut client = self.client.lock().await;
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
        })
    }

    fn write(&self, batch: Vec<Write>) -> BoxFuture<'_, StoreResult<()>> {
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

    fn next_room_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client.lock().await;
            let max: i64 = client
                .query_one("SELECT COALESCE(MAX(id), 0)::BIGINT FROM rooms", &[])
                .await?
                .get(0);
            Ok(u(max) + 1)
        })
    }

    fn max_player_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let client = self.client.lock().await;
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
            let client = self.client.lock().await;
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
            let client = self.client.lock().await;
            let rooms = client
                .query(
                    "SELECT id, game, options, seed, created_ms FROM rooms WHERE status = 'open' ORDER BY id",
                    &[],
                )
                .await?;
            let mut out = Vec::with_capacity(rooms.len());
            for r in rooms {
                let room = RoomRow {
                    id: u(r.get(0)),
                    game: r.get(1),
                    options: r.get(2),
                    seed: u(r.get(3)),
                    created_ms: r.get(4),
                };
                let id = room.id;
                let steps = client
                    .query(
                        "SELECT idx, kind, seat, at_ms, lag_ms, action, event_seq FROM steps WHERE room = $1 ORDER BY idx",
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
                    })
                    .collect();
                let seats = client
                    .query(
                        "SELECT seat, player, name, bot, at_ms FROM seat_changes WHERE room = $1 ORDER BY id",
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
                    })
                    .collect();
                out.push(RoomLog { room, steps, seats });
            }
            Ok(out)
        })
    }

    fn open_sessions(&self) -> BoxFuture<'_, StoreResult<Vec<SessionRow>>> {
        Box::pin(async move {
            let client = self.client.lock().await;
            let rows = client
                .query(
                    "SELECT token_hash, player, name, bot, created_ms FROM sessions WHERE player IN (SELECT s.player FROM seat_changes s JOIN rooms r ON r.id = s.room WHERE r.status = 'open' AND s.player IS NOT NULL) ORDER BY player",
                    &[],
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
                })
                .collect())
        })
    }

    fn record(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RecordRow>>> {
        Box::pin(async move {
            let client = self.client.lock().await;
            let Some(r) = client
                .query_opt(
                    "SELECT game, finished_ms, body, pgn FROM records WHERE room = $1",
                    &[&i(room)],
                )
                .await?
            else {
                return Ok(None);
            };
            let players = client
                .query(
                    "SELECT name FROM record_players WHERE room = $1 ORDER BY seat",
                    &[&i(room)],
                )
                .await?
                .iter()
                .map(|p| p.get(0))
                .collect();
            Ok(Some(RecordRow {
                room,
                game: r.get(0),
                finished_ms: r.get(1),
                body: r.get(2),
                pgn: r.get(3),
                players,
            }))
        })
    }

    fn player_games(
        &self,
        name: String,
        offset: u64,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<GameSummary>>> {
        Box::pin(async move {
            let client = self.client.lock().await;
            let rows = client
                .query(
                    "SELECT r.room, r.game, r.finished_ms, p.seat FROM record_players p JOIN records r ON r.room = p.room WHERE p.name = $1 ORDER BY r.room DESC LIMIT $2 OFFSET $3",
                    &[&name, &i(limit), &i(offset)],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| GameSummary {
                    room: u(r.get(0)),
                    game: r.get(1),
                    finished_ms: r.get(2),
                    seat: seat_of(r, 3),
                })
                .collect())
        })
    }

    fn prune(&self, before_ms: i64) -> BoxFuture<'_, StoreResult<u64>> {
        Box::pin(async move {
            let mut client = self.client.lock().await;
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

    fn backup<'a>(&'a self, _path: &'a Path) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async {
            Err(StoreError::Unsupported(
                "backing up PostgreSQL is pg_dump's job: pg_dump --format=custom DBNAME > FILE",
            ))
        })
    }
}
