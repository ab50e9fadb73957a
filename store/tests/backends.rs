//! The same store tests on both backends: SQLite in a temporary file, and PostgreSQL in a
//! fresh database on the server that `QIPAI_TEST_POSTGRES_URL` names (`.ci/postgres.sh`
//! starts one). Without that variable the PostgreSQL half is skipped with a message, except
//! under CI (`CI=true`), where a missing database fails.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use qipai_store::writer::{Writer, WriterConfig};
use qipai_store::{
    hash_token, seated, GamesFrom, RecordRow, RoomRow, SeatRow, SessionRow, StepKind, StepRow,
    Store, Write,
};

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{prefix}_{}_{n}_{nanos}", std::process::id())
}

async fn sqlite() -> Arc<dyn Store> {
    let path = std::env::temp_dir().join(format!("{}.db", unique("qipai_store_test")));
    qipai_store::open(path.to_str().expect("a UTF-8 temp path"))
        .await
        .expect("sqlite opens")
}

async fn postgres() -> Option<Arc<dyn Store>> {
    let Ok(url) = std::env::var("QIPAI_TEST_POSTGRES_URL") else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "CI=true but QIPAI_TEST_POSTGRES_URL is not set: .ci/postgres.sh must run first"
            );
        }
        // Straight to stderr, past the test harness's capture, so a local run says it.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: the PostgreSQL half of this test (set QIPAI_TEST_POSTGRES_URL, e.g. `. .ci/postgres.sh`)"
        );
        return None;
    };
    let (client, conn) = tokio_postgres_connect(&url).await;
    let db = unique("qipai_test");
    client
        .batch_execute(&format!("CREATE DATABASE {db}"))
        .await
        .expect("create a test database");
    drop(client);
    conn.abort();
    let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
    Some(
        qipai_store::open(&format!("{base}/{db}"))
            .await
            .expect("postgres opens"),
    )
}

async fn tokio_postgres_connect(
    url: &str,
) -> (tokio_postgres::Client, tokio::task::JoinHandle<()>) {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the test PostgreSQL is reachable");
    let task = tokio::spawn(async move {
        let _ = connection.await;
    });
    (client, task)
}

/// Runs `case` on every backend available.
async fn on_both<F, Fut>(case: F)
where
    F: Fn(Arc<dyn Store>, &'static str) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    case(sqlite().await, "sqlite").await;
    if let Some(pg) = postgres().await {
        case(pg, "postgres").await;
    }
}

fn room(id: u64) -> RoomRow {
    RoomRow {
        id,
        game: "xiangqi".into(),
        options: vec![0x81, 0xa1, b'x', 1],
        seed: u64::MAX - id,
        created_ms: 1_700_000_000_000,
        number: Some(id),
        addr: Some(format!("10.0.0.{id}")),
    }
}

fn step(room: u64, index: u64, kind: StepKind) -> StepRow {
    StepRow {
        room,
        index,
        kind,
        seat: (index % 2) as u8,
        at_ms: 1000 + index * 10,
        lag_ms: index,
        action: (kind == StepKind::Action).then(|| vec![index as u8; 3]),
        event_seq: index * 2,
        epoch: 0,
        // Every other step carries the moment the answers before it left (one row an action).
        sent_ms: (index % 2 == 1).then(|| 1000 + index * 10 - 3),
    }
}

fn seat(room: u64, seat: u8, player: Option<u64>, at_ms: u64) -> SeatRow {
    SeatRow {
        room,
        seat,
        player,
        name: format!("p{}", player.unwrap_or(0)),
        account: None,
        bot: player == Some(99),
        at_ms,
    }
}

/// Migrations run once: a second start-up finds the schema current and changes nothing.
#[tokio::test]
async fn migrations_are_versioned_and_idempotent() {
    on_both(|store, name| async move {
        assert_eq!(
            store.migrate().await.expect(name),
            qipai_store::migrate::latest()
        );
        assert_eq!(
            store.migrate().await.expect(name),
            qipai_store::migrate::latest(),
            "{name}"
        );
        assert_eq!(
            store.next_room_id().await.expect(name),
            1,
            "{name}: empty store"
        );
        assert_eq!(store.next_room_number().await.expect(name), 1, "{name}");
    })
    .await;
}

/// A room's log comes back in order with its seats; ids and the time line go on after it.
#[tokio::test]
async fn an_open_room_comes_back_with_its_log() {
    on_both(|store, name| async move {
        let mut batch = vec![Write::Room(room(7)), Write::Room(room(8))];
        batch.push(Write::Seat(seat(7, 0, Some(3), 5)));
        batch.push(Write::Seat(seat(7, 1, Some(4), 6)));
        batch.push(Write::Seat(seat(7, 1, None, 7)));
        batch.push(Write::Seat(seat(7, 1, Some(99), 8)));
        batch.push(Write::Step(step(7, 0, StepKind::Start)));
        batch.push(Write::Step(step(7, 1, StepKind::Action)));
        batch.push(Write::Step(step(7, 2, StepKind::Deadline)));
        store.write(batch).await.expect(name);
        store
            .write(vec![Write::Step(step(7, 3, StepKind::Action))])
            .await
            .expect(name);
        let logs = store.unfinished().await.expect(name);
        assert_eq!(logs.len(), 2, "{name}");
        let log = &logs[0];
        assert_eq!(log.room, room(7), "{name}");
        let want: Vec<StepRow> = [
            StepKind::Start,
            StepKind::Action,
            StepKind::Deadline,
            StepKind::Action,
        ]
        .into_iter()
        .enumerate()
        .map(|(i, k)| step(7, i as u64, k))
        .collect();
        assert_eq!(log.steps, want, "{name}");
        let seats = seated(&log.seats, 2);
        assert_eq!(seats[0].as_ref().and_then(|s| s.player), Some(3), "{name}");
        assert_eq!(
            seats[1].as_ref().map(|s| (s.player, s.bot)),
            Some((Some(99), true)),
            "{name}"
        );
        assert!(logs[1].steps.is_empty(), "{name}");
        assert_eq!(store.next_room_id().await.expect(name), 9, "{name}");
        // The short numbers go on after the largest stored (the rooms' numbers are their ids here).
        assert_eq!(store.next_room_number().await.expect(name), 9, "{name}");
        // A number handed out to a room never written counts too, and the count never
        // goes back.
        for n in [20, 5] {
            store.write(vec![Write::RoomNumber(n)]).await.expect(name);
        }
        assert_eq!(store.next_room_number().await.expect(name), 21, "{name}");
        assert_eq!(store.last_time().await.expect(name), 1030, "{name}");
        assert_eq!(store.max_player_id().await.expect(name), 99, "{name}");
    })
    .await;
}

/// Rooms opened at different times, their steps interleaved over many commits: each open
/// room gets back exactly its own steps, in order; a finished room's are not read.
#[tokio::test]
async fn interleaved_logs_come_back_room_by_room() {
    on_both(|store, name| async move {
        store
            .write(vec![Write::Room(room(1)), Write::Room(room(2))])
            .await
            .expect(name);
        let mut next = [0u64; 5];
        for round in 0..6u64 {
            if round == 2 {
                store.write(vec![Write::Room(room(3))]).await.expect(name);
            }
            if round == 4 {
                store.write(vec![Write::Room(room(4))]).await.expect(name);
            }
            let live = if round < 2 {
                1..=2
            } else if round < 4 {
                1..=3
            } else {
                1..=4
            };
            let batch = live
                .map(|r| {
                    let index = next[r as usize];
                    next[r as usize] += 1;
                    Write::Step(step(r, index, StepKind::Action))
                })
                .collect();
            store.write(batch).await.expect(name);
        }
        store
            .write(vec![Write::Result {
                room: 2,
                result: "{}".into(),
                finished_ms: 1_700_000_000_000,
            }])
            .await
            .expect(name);
        let logs = store.unfinished().await.expect(name);
        let ids: Vec<u64> = logs.iter().map(|l| l.room.id).collect();
        assert_eq!(
            ids,
            [1, 3, 4],
            "{name}: the finished room 2 is not reopened"
        );
        for log in &logs {
            let id = log.room.id;
            let want: Vec<StepRow> = (0..next[id as usize])
                .map(|i| step(id, i, StepKind::Action))
                .collect();
            assert_eq!(log.steps, want, "{name}: room {id}");
            // One room's log read alone is the same.
            let alone = store.room_log(id).await.expect(name);
            assert_eq!(alone.as_ref(), Some(log), "{name}: room {id} alone");
        }
        assert_eq!(
            store.room_log(2).await.expect(name),
            None,
            "{name}: finished"
        );
        assert_eq!(
            store.room_log(9).await.expect(name),
            None,
            "{name}: never opened"
        );
    })
    .await;
}

/// A room's step fails: the writer refuses that room's later steps unwritten (its log must
/// not have a gap) while other rooms' go on; once the room has rebuilt itself from its log
/// and says so (`mend`), its steps are taken again from where the log ends.
#[tokio::test]
async fn a_refused_room_is_taken_again_once_mended() {
    on_both(|store, name| async move {
        let (writer, task) = Writer::spawn(
            Arc::clone(&store),
            WriterConfig {
                retry: Duration::from_millis(1),
                give_up: Duration::from_millis(20),
                ..WriterConfig::default()
            },
        );
        for r in [1, 2] {
            assert!(
                writer.send(Write::Room(room(r))).await.durable().await,
                "{name}"
            );
        }
        let first = vec![Write::Step(step(1, 0, StepKind::Start))];
        assert!(writer.send_all(first).await.durable().await, "{name}");
        // Step 1 of room 1 fails (a duplicate room row in its batch): step 2 is refused too.
        let bad = vec![
            Write::Step(step(1, 1, StepKind::Action)),
            Write::Room(room(2)),
        ];
        assert!(!writer.send_all(bad).await.durable().await, "{name}");
        let later = writer.send(Write::Step(step(1, 2, StepKind::Action))).await;
        let other = writer.send(Write::Step(step(2, 0, StepKind::Start))).await;
        assert!(!later.durable().await, "{name}: after a gap");
        assert!(other.durable().await, "{name}: another room goes on");
        writer.mend(1).await;
        let again = writer.send(Write::Step(step(1, 1, StepKind::Action))).await;
        assert!(again.durable().await, "{name}: mended");
        let log = store.room_log(1).await.expect(name).expect(name);
        let kinds: Vec<(u64, StepKind)> = log.steps.iter().map(|s| (s.index, s.kind)).collect();
        assert_eq!(
            kinds,
            [(0, StepKind::Start), (1, StepKind::Action)],
            "{name}"
        );
        drop(writer);
        task.await.expect("the writer ends");
    })
    .await;
}

/// A batch is one transaction: one bad item and nothing of it is written.
#[tokio::test]
async fn a_failed_batch_writes_nothing() {
    on_both(|store, name| async move {
        store.write(vec![Write::Room(room(1))]).await.expect(name);
        let bad = vec![
            Write::Step(step(1, 0, StepKind::Start)),
            Write::Room(room(2)),
            Write::Room(room(1)),
        ];
        assert!(store.write(bad).await.is_err(), "{name}: duplicate room id");
        let logs = store.unfinished().await.expect(name);
        assert_eq!(logs.len(), 1, "{name}: room 2 was rolled back");
        assert!(logs[0].steps.is_empty(), "{name}: step 0 was rolled back");
    })
    .await;
}

/// A result finishes the room; its record is found by id and by player, newest first by
/// the time the game ended (not by room id), paged.
#[tokio::test]
async fn results_and_records() {
    on_both(|store, name| async move {
        let mut batch = Vec::new();
        for id in 1..=5 {
            // Ended in the order 5, 2, 4, 1, 3: ids say nothing of when a game ended.
            let finished_ms = 1_700_000_000_000 + (id as i64 * 3) % 5;
            batch.push(Write::Room(room(id)));
            batch.push(Write::Result {
                room: id,
                result: format!("{{\"winner\":{id}}}"),
                finished_ms,
            });
            batch.push(Write::Record(RecordRow {
                room: id,
                game: "xiangqi".into(),
                finished_ms,
                body: format!("{{\"room\":{id}}}"),
                pgn: Some(format!("[Event \"{id}\"]")),
                players: vec!["ann".into(), if id % 2 == 0 { "bob" } else { "cy" }.into()],
                accounts: Vec::new(),
                // Records written before summaries were kept have none.
                summary: (id != 5).then(|| format!("{{\"summary\":{id}}}")),
            }));
        }
        batch.push(Write::Room(room(6)));
        store.write(batch).await.expect(name);
        let open = store.unfinished().await.expect(name);
        assert_eq!(
            open.iter().map(|l| l.room.id).collect::<Vec<_>>(),
            vec![6],
            "{name}"
        );
        let rec = store.record(4).await.expect(name).expect("record 4");
        assert_eq!(
            rec.players,
            vec!["ann".to_owned(), "bob".to_owned()],
            "{name}"
        );
        assert_eq!(rec.pgn.as_deref(), Some("[Event \"4\"]"), "{name}");
        assert!(store.record(6).await.expect(name).is_none(), "{name}");
        let page = |n: &'static str, o, l| {
            let store = Arc::clone(&store);
            async move {
                store
                    .player_games(n.into(), qipai_store::GamesFrom::Offset(o), l)
                    .await
                    .expect(name)
                    .iter()
                    .map(|g| (g.room, g.seat))
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(page("ann", 0, 2).await, vec![(3, 0), (1, 0)], "{name}");
        assert_eq!(page("ann", 2, 2).await, vec![(4, 0), (2, 0)], "{name}");
        assert_eq!(page("ann", 4, 2).await, vec![(5, 0)], "{name}");
        assert_eq!(page("bob", 0, 10).await, vec![(4, 1), (2, 1)], "{name}");
        assert!(page("nobody", 0, 10).await.is_empty(), "{name}");
        // Each line carries its record's summary, or its body when it has none.
        let lines = store
            .player_games("ann".into(), qipai_store::GamesFrom::Offset(0), 5)
            .await
            .expect(name);
        let summary = |room| {
            lines
                .iter()
                .find(|g| g.room == room)
                .map(|g| g.summary.as_str())
        };
        assert_eq!(summary(4), Some("{\"summary\":4}"), "{name}");
        assert_eq!(summary(5), Some("{\"room\":5}"), "{name}");
        assert_eq!(
            store
                .record(4)
                .await
                .expect(name)
                .and_then(|r| r.summary)
                .as_deref(),
            Some("{\"summary\":4}"),
            "{name}"
        );
        assert_eq!(
            store.unfinished().await.expect(name)[0]
                .room
                .addr
                .as_deref(),
            Some("10.0.0.6"),
            "{name}: the opening address comes back with the room"
        );
        // By the time games ended: the page after a cursor (the last game of the page
        // before) is the same whatever ends meanwhile.
        let first = store
            .player_games("ann".into(), qipai_store::GamesFrom::Offset(0), 2)
            .await
            .expect(name);
        let last = first.last().expect("a first page");
        let after = |finished_ms, room| {
            let store = Arc::clone(&store);
            async move {
                store
                    .player_games(
                        "ann".into(),
                        qipai_store::GamesFrom::Before { finished_ms, room },
                        2,
                    )
                    .await
                    .expect(name)
                    .iter()
                    .map(|g| g.room)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(after(last.finished_ms, last.room).await, [4, 2], "{name}");
        assert!(after(i64::MIN, 0).await.is_empty(), "{name}");
    })
    .await;
}

/// Sessions are kept by the hash of their token, and only those seated in open rooms, or
/// in rooms whose game ended recently, come back at start-up.
#[tokio::test]
async fn sessions_are_stored_hashed() {
    on_both(|store, name| async move {
        let session = |token: &str, player| {
            Write::Session(SessionRow {
                token_hash: hash_token(token),
                player,
                name: format!("p{player}"),
                account: None,
                bot: false,
                created_ms: 1,
            })
        };
        store
            .write(vec![
                Write::Room(room(1)),
                Write::Room(room(2)),
                session("secret-a", 10),
                session("secret-b", 11),
                session("secret-c", 12),
                session("secret-a", 10),
                Write::Seat(seat(1, 0, Some(10), 1)),
                Write::Seat(seat(2, 0, Some(11), 1)),
                Write::Result {
                    room: 2,
                    result: "{}".into(),
                    finished_ms: 2,
                },
            ])
            .await
            .expect(name);
        let open = store.open_sessions(3).await.expect(name);
        assert_eq!(open.len(), 1, "{name}");
        assert_eq!(open[0].player, 10, "{name}");
        assert_eq!(open[0].token_hash, hash_token("secret-a"), "{name}");
        assert_ne!(open[0].token_hash, b"secret-a".to_vec(), "{name}");
        assert_eq!(open[0].token_hash.len(), 32, "{name}: SHA-256");
        let recent = store.open_sessions(2).await.expect(name);
        let players: Vec<u64> = recent.iter().map(|s| s.player).collect();
        assert_eq!(players, vec![10, 11], "{name}: room 2 ended at 2");
    })
    .await;
}

/// Group commit: many items handed in at once are acknowledged after far fewer commits,
/// and every acknowledged item is there.
#[tokio::test]
async fn the_writer_batches_and_acknowledges_after_commit() {
    on_both(|store, name| async move {
        let (writer, task) = Writer::spawn(
            Arc::clone(&store),
            WriterConfig {
                window: Duration::from_millis(3),
                retry: Duration::from_millis(1),
                ..WriterConfig::default()
            },
        );
        assert!(
            writer.send(Write::Room(room(1))).await.durable().await,
            "{name}"
        );
        let mut acks = Vec::new();
        for i in 0..200 {
            acks.push(writer.send(Write::Step(step(1, i, StepKind::Action))).await);
        }
        for ack in acks {
            assert!(ack.durable().await, "{name}");
        }
        let stats = Arc::clone(writer.stats());
        assert_eq!(stats.items.load(Ordering::Relaxed), 201, "{name}");
        let commits = stats.commits.load(Ordering::Relaxed);
        assert!(commits < 20, "{name}: {commits} commits for 201 items");
        let logs = store.unfinished().await.expect(name);
        assert_eq!(logs[0].steps.len(), 200, "{name}");
        // A failed batch is acknowledged as not durable.
        let ack = writer.send(Write::Room(room(1))).await;
        assert!(!ack.durable().await, "{name}: a duplicate room id fails");
        assert_eq!(stats.failures.load(Ordering::Relaxed), 1, "{name}");
        drop(writer);
        task.await
            .expect("the writer ends when its handles are gone");
    })
    .await;
}

/// Pruning drops the raw logs of finished rooms before the cut-off; records stay, and open
/// rooms keep their logs.
#[tokio::test]
async fn prune_keeps_records_and_open_rooms() {
    on_both(|store, name| async move {
        store
            .write(vec![
                Write::Room(room(1)),
                Write::Room(room(2)),
                Write::Step(step(1, 0, StepKind::Start)),
                Write::Step(step(2, 0, StepKind::Start)),
                Write::Seat(seat(1, 0, Some(1), 1)),
                Write::Result {
                    room: 1,
                    result: "{}".into(),
                    finished_ms: 1_700_000_000_100,
                },
                Write::Record(RecordRow {
                    room: 1,
                    game: "xiangqi".into(),
                    finished_ms: 1_700_000_000_100,
                    body: "{}".into(),
                    pgn: None,
                    players: vec!["a".into()],
                    accounts: Vec::new(),
                    summary: None,
                }),
            ])
            .await
            .expect(name);
        assert_eq!(
            store.prune(1_700_000_000_000).await.expect(name),
            0,
            "{name}: too recent"
        );
        assert_eq!(
            store.prune(1_800_000_000_000).await.expect(name),
            2,
            "{name}"
        );
        assert!(store.record(1).await.expect(name).is_some(), "{name}");
        let open = store.unfinished().await.expect(name);
        assert_eq!(open[0].steps.len(), 1, "{name}: room 2 is open");
    })
    .await;
}

/// A sweep deletes rooms closed without a result before the cut (with their steps and seat
/// changes), expired game sessions and expired director sessions; it keeps open rooms,
/// finished games' records, recent rooms, the room with the largest id, sessions of players
/// seated in an open room or live on the server, and sessions within their time.
#[tokio::test]
async fn sweep_deletes_what_expired_and_keeps_the_rest() {
    use qipai_store::competition::{CompetitionWrite, DirectorSessionRow};
    use qipai_store::retention::{Sweep, Swept};
    on_both(|store, name| async move {
        let old = 1_700_000_000_000;
        let recent = |id| RoomRow {
            created_ms: old + 10_000,
            ..room(id)
        };
        let session = |player, created_ms| {
            Write::Session(SessionRow {
                token_hash: hash_token(&format!("t{player}")),
                player,
                name: format!("p{player}"),
                bot: false,
                created_ms,
                account: None,
            })
        };
        let closed = |room| Write::Closed {
            room,
            reason: "left".into(),
        };
        store
            .write(vec![
                // 1 abandoned, 2 finished, 3 open, 4 abandoned lately, 5 the largest id.
                Write::Room(room(1)),
                Write::Step(step(1, 0, StepKind::Start)),
                Write::Seat(seat(1, 0, Some(11), 1)),
                closed(1),
                Write::Room(room(2)),
                Write::Result {
                    room: 2,
                    result: "{}".into(),
                    finished_ms: old,
                },
                Write::Record(RecordRow {
                    room: 2,
                    game: "xiangqi".into(),
                    finished_ms: old,
                    body: "{}".into(),
                    pgn: None,
                    players: vec!["a".into()],
                    accounts: Vec::new(),
                    summary: None,
                }),
                Write::Room(room(3)),
                Write::Seat(seat(3, 0, Some(10), 1)),
                Write::Room(recent(4)),
                closed(4),
                Write::Room(room(5)),
                closed(5),
                // 10 seated in room 3, 11 gone, 12 live, 13 recent.
                session(10, old),
                session(11, old),
                session(12, old),
                session(13, old + 10_000),
            ])
            .await
            .expect(name);
        let director = |n: u8, expires_ms| {
            CompetitionWrite::DirectorLogin(DirectorSessionRow {
                token_hash: vec![n; 32],
                director: "director".into(),
                created_ms: old,
                expires_ms,
            })
        };
        store
            .competition_write(vec![director(1, old + 1), director(2, old + 20_000)])
            .await
            .expect(name);
        let cut = old + 5_000;
        let swept = store
            .sweep(Sweep {
                abandoned_before_ms: cut,
                sessions_before_ms: cut,
                live_players: vec![12],
                now_ms: cut,
            })
            .await
            .expect(name);
        assert_eq!(
            swept,
            Swept {
                rooms: 1,
                room_rows: 2,
                sessions: 1,
                signed_in: 1,
            },
            "{name}"
        );
        assert!(store.record(2).await.expect(name).is_some(), "{name}");
        assert_eq!(
            store.unfinished().await.expect(name)[0].room.id,
            3,
            "{name}"
        );
        assert_eq!(store.next_room_id().await.expect(name), 6, "{name}");
        let kept: Vec<u64> = store
            .open_sessions(0)
            .await
            .expect(name)
            .iter()
            .map(|s| s.player)
            .collect();
        assert_eq!(kept, vec![10], "{name}: the seated player's session stays");
        assert!(
            store
                .director_session(vec![2; 32])
                .await
                .expect(name)
                .is_some(),
            "{name}"
        );
        assert!(
            store
                .director_session(vec![1; 32])
                .await
                .expect(name)
                .is_none(),
            "{name}"
        );
        let again = store
            .sweep(Sweep {
                abandoned_before_ms: cut,
                sessions_before_ms: cut,
                live_players: Vec::new(),
                now_ms: cut,
            })
            .await
            .expect(name);
        assert_eq!(again.sessions, 1, "{name}: no longer live, 12 goes");
        assert!(store.size_bytes().await.expect(name) > 0, "{name}");
    })
    .await;
}

/// `backup` copies a live SQLite store into a file that opens as a store with the same rooms.
#[tokio::test]
async fn sqlite_backup_is_a_working_copy() {
    let store = sqlite().await;
    store
        .write(vec![
            Write::Room(room(3)),
            Write::Step(step(3, 0, StepKind::Start)),
        ])
        .await
        .expect("write");
    let path = std::env::temp_dir().join(format!("{}.db", unique("qipai_backup")));
    store.backup(&path).await.expect("backup");
    let copy = qipai_store::open(path.to_str().expect("utf-8"))
        .await
        .expect("opens");
    let logs = copy.unfinished().await.expect("reads");
    assert_eq!(logs.len(), 1);
    assert_eq!(logs[0].steps, vec![step(3, 0, StepKind::Start)]);
    if let Some(pg) = postgres().await {
        assert!(
            pg.backup(&path).await.is_err(),
            "PostgreSQL says to use pg_dump"
        );
    }
}

/// Competitions: everything written comes back in order; a failed batch writes
/// nothing; contacts are kept; director sessions are found by their hash and logged out.
#[tokio::test]
async fn competitions_are_kept_whole() {
    use qipai_store::competition::{
        CompetitionRow, CompetitionWrite as W, CorrectionRow, DirectorSessionRow, EntryRow,
        PairingRow, RoundRow,
    };
    on_both(|store, name| async move {
        let c = CompetitionRow {
            id: 7,
            name: "工会杯".into(),
            settings: r#"{"event":"tuolaji"}"#.into(),
            created_ms: 1_700_000_000_000,
        };
        let entry = |index: u32| EntryRow {
            competition: 7,
            index,
            team: format!("部门{index}"),
            pair_number: Some(index + 1),
            players: format!(r#"["a{index}","b{index}"]"#),
            contacts: r#"[{"phone":"138"}]"#.into(),
        };
        let mut batch = vec![W::Competition(c.clone())];
        batch.extend((0..3).map(|i| W::Entry(entry(i))));
        store.competition_write(batch).await.expect(name);
        // A duplicate entry fails the whole batch: the round in it is not written either.
        let round = RoundRow {
            competition: 7,
            number: 1,
            seed: u64::MAX - 3,
            bye: Some(2),
            started_ms: 5,
        };
        let pairing = PairingRow {
            competition: 7,
            round: 1,
            table: 1,
            first: 0,
            second: 1,
            room: None,
            result: None,
            note: String::new(),
            games: String::new(),
            game_opened_ms: None,
        };
        let failed = store
            .competition_write(vec![
                W::Round(round.clone(), vec![pairing.clone()]),
                W::Entry(entry(0)),
            ])
            .await;
        assert!(failed.is_err(), "{name}: duplicate entry");
        // An entry's contacts replaced (a reissued entry code's hash): that row only.
        let hashed = r#"[{"phone":"138","code_hash":"ab01"}]"#;
        store
            .competition_write(vec![W::EntryContacts {
                competition: 7,
                index: 1,
                contacts: hashed.into(),
            }])
            .await
            .expect(name);
        let logs = store.competitions().await.expect(name);
        let contacts: Vec<&str> = logs[0]
            .entries
            .iter()
            .map(|e| e.contacts.as_str())
            .collect();
        assert_eq!(
            contacts,
            [
                entry(0).contacts.as_str(),
                hashed,
                entry(2).contacts.as_str()
            ],
            "{name}"
        );
        store
            .competition_write(vec![W::EntryContacts {
                competition: 7,
                index: 1,
                contacts: entry(1).contacts,
            }])
            .await
            .expect(name);
        let logs = store.competitions().await.expect(name);
        assert_eq!(logs.len(), 1, "{name}");
        assert!(
            logs[0].rounds.is_empty(),
            "{name}: nothing of a failed batch"
        );
        store
            .competition_write(vec![W::Round(round.clone(), vec![pairing.clone()])])
            .await
            .expect(name);
        // A match goes on: its first game kept, the next game's room opened at 11.
        store
            .competition_write(vec![W::NextGame {
                competition: 7,
                round: 1,
                table: 1,
                games: "draw".into(),
                note: "late 3 min".into(),
                room: 41,
                opened_ms: 11,
            }])
            .await
            .expect(name);
        let logs = store.competitions().await.expect(name);
        let mut going_on = pairing.clone();
        going_on.room = Some(41);
        going_on.games = "draw".into();
        going_on.note = "late 3 min".into();
        going_on.game_opened_ms = Some(11);
        assert_eq!(logs[0].pairings, vec![going_on], "{name}: a match going on");
        store
            .competition_write(vec![
                W::TableRoom {
                    competition: 7,
                    round: 1,
                    table: 1,
                    room: 42,
                },
                W::Result {
                    competition: 7,
                    round: 1,
                    table: 1,
                    result: "first_wins".into(),
                    note: "late 3 min".into(),
                },
            ])
            .await
            .expect(name);
        let correction = CorrectionRow {
            competition: 7,
            round: 1,
            table: 1,
            before: Some("first_wins".into()),
            after: "draw".into(),
            reason: "仲裁: wrong score".into(),
            author: "director".into(),
            at_ms: 9,
        };
        store
            .competition_write(vec![
                W::Result {
                    competition: 7,
                    round: 1,
                    table: 1,
                    result: "draw".into(),
                    note: "late 3 min".into(),
                },
                W::Correction(correction.clone()),
            ])
            .await
            .expect(name);
        let logs = store.competitions().await.expect(name);
        let log = &logs[0];
        assert_eq!(log.competition, c, "{name}");
        assert_eq!(log.entries, (0..3).map(entry).collect::<Vec<_>>(), "{name}");
        assert_eq!(log.rounds, vec![round], "{name}");
        let mut done = pairing;
        done.room = Some(42);
        done.result = Some("draw".into());
        done.note = "late 3 min".into();
        done.games = "draw".into();
        done.game_opened_ms = Some(11);
        assert_eq!(log.pairings, vec![done], "{name}");
        assert_eq!(log.corrections, vec![correction], "{name}");

        let session = DirectorSessionRow {
            token_hash: hash_token("secret"),
            director: "director".into(),
            created_ms: 1,
            expires_ms: 2,
        };
        store
            .competition_write(vec![W::DirectorLogin(session.clone())])
            .await
            .expect(name);
        let session_of = |token: &'static str| {
            let store = Arc::clone(&store);
            async move { store.director_session(hash_token(token)).await.expect(name) }
        };
        assert_eq!(session_of("secret").await, Some(session), "{name}");
        assert_eq!(session_of("other").await, None, "{name}");
        store
            .competition_write(vec![W::DirectorLogout {
                token_hash: hash_token("secret"),
            }])
            .await
            .expect(name);
        assert_eq!(session_of("secret").await, None, "{name}: logged out");
    })
    .await;
}

#[tokio::test]
async fn accounts_sessions_and_ratings() {
    use qipai_store::accounts::{AccountSessionRow, AccountWrite as W, NewAccount, RatingRow};
    on_both(|store, name| async move {
        let new = |n: &str, key: &str| NewAccount {
            name: n.into(),
            name_key: key.into(),
            password_hash: "$argon2id$v=19$x".into(),
            created_ms: 10,
        };
        let zhang = store.create_account(new("张伟", "张伟")).await.expect(name);
        let li = store.create_account(new("Li", "li")).await.expect(name);
        let (Some(zhang), Some(li)) = (zhang, li) else {
            panic!("{name}: both accounts created");
        };
        assert_ne!(zhang, li, "{name}");
        // One account per name key, whatever the name as typed.
        let taken = store.create_account(new("LI", "li")).await.expect(name);
        assert_eq!(taken, None, "{name}: a second account with the same key");
        let found = store.account_by_key("li".into()).await.expect(name);
        assert_eq!(
            found.map(|a| (a.id, a.name)),
            Some((li, "Li".into())),
            "{name}"
        );

        // Sessions: found while not expired, gone after signing out.
        let session = |token: &str, expires_ms| {
            W::SignIn(AccountSessionRow {
                token_hash: hash_token(token),
                account: li,
                created_ms: 10,
                expires_ms,
            })
        };
        store
            .account_write(vec![session("t1", 1_000), session("t2", 50)])
            .await
            .expect(name);
        let who = |token: &'static str, now| {
            let store = Arc::clone(&store);
            async move {
                store
                    .account_session(hash_token(token), now)
                    .await
                    .expect("account_session")
                    .map(|a| a.id)
            }
        };
        assert_eq!(who("t1", 100).await, Some(li), "{name}");
        assert_eq!(who("t2", 100).await, None, "{name}: expired");
        assert_eq!(who("nope", 100).await, None, "{name}");
        store
            .account_write(vec![W::SignOut {
                token_hash: hash_token("t1"),
            }])
            .await
            .expect(name);
        assert_eq!(who("t1", 100).await, None, "{name}: signed out");

        // Ratings: each rated game replaces the rating and adds a point to the history.
        let rated = |account, rating, room, at| W::Rated {
            rating: RatingRow {
                account,
                game: "xiangqi".into(),
                rating,
                state: format!(r#"{{"rating":{rating}}}"#),
                updated_ms: at,
            },
            room,
        };
        // A rated game's record, seats' accounts and ratings go in one batch, as the
        // server writes them with the game's last step.
        let game = |room: u64, at| {
            vec![Write::Record(RecordRow {
                room,
                game: "xiangqi".into(),
                finished_ms: at,
                body: r#"{"players":["Li","张伟"],"events":[{"player":{"name":"Li"}}]}"#.into(),
                pgn: Some("[Red \"Li\"]\n[Black \"张伟\"]".into()),
                players: vec!["Li".into(), "张伟".into()],
                accounts: vec![Some(li), Some(zhang)],
                summary: Some(r#"{"players":["Li","张伟"],"rated":true}"#.into()),
            })]
        };
        let mut first = game(5, 100);
        first.extend([rated(li, 1662, 5, 100), rated(zhang, 1338, 5, 100)].map(Write::Account));
        store.write(first).await.expect(name);
        let mut second = game(6, 200);
        second.extend([rated(li, 1700, 6, 200), rated(zhang, 1300, 6, 200)].map(Write::Account));
        store.write(second).await.expect(name);
        let games = store
            .account_games(li, GamesFrom::Offset(0), 10)
            .await
            .expect(name);
        let rows: Vec<(u64, u8, Option<i64>)> = games
            .iter()
            .map(|g| (g.room, g.seat, g.rating_after))
            .collect();
        assert_eq!(rows, [(6, 0, Some(1700)), (5, 0, Some(1662))], "{name}");
        let before = GamesFrom::Before {
            finished_ms: 200,
            room: 6,
        };
        let older = store.account_games(zhang, before, 10).await.expect(name);
        assert_eq!(older.len(), 1, "{name}");
        assert_eq!((older[0].room, older[0].seat), (5, 1), "{name}");
        let ratings = store.ratings(li).await.expect(name);
        assert_eq!(ratings.len(), 1, "{name}");
        assert_eq!(ratings[0].rating, 1700, "{name}");
        let history = store
            .rating_history(li, "xiangqi".into())
            .await
            .expect(name);
        let points: Vec<(u64, i64)> = history.iter().map(|p| (p.room, p.rating)).collect();
        assert_eq!(points, [(5, 1662), (6, 1700)], "{name}");
        let board = store.leaderboard("xiangqi".into(), 10).await.expect(name);
        let names: Vec<&str> = board.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["Li", "张伟"], "{name}");
        let games: Vec<u64> = board.iter().map(|l| l.games).collect();
        assert_eq!(games, [2, 2], "{name}: each leader's rated games");

        // Deleting: the name is replaced and freed, sessions end, the account leaves the
        // leaderboard, its history stays.
        store
            .account_write(vec![session("t3", 1_000)])
            .await
            .expect(name);
        store
            .account_write(vec![W::Delete {
                account: li,
                was: "\"Li\"".into(),
                was_in_pgn: "Li".into(),
                shown_as: "已注销".into(),
                at_ms: 300,
            }])
            .await
            .expect(name);
        assert_eq!(who("t3", 100).await, None, "{name}: sessions end");
        assert_eq!(store.account_by_key("li".into()).await.expect(name), None);
        let board = store.leaderboard("xiangqi".into(), 10).await.expect(name);
        assert_eq!(board.len(), 1, "{name}");
        assert_eq!(
            store
                .rating_history(li, "xiangqi".into())
                .await
                .expect(name)
                .len(),
            2,
            "{name}"
        );
        // Its finished games' records name it no more: seats, events, PGN.
        let record = store.record(5).await.expect(name).expect("record");
        assert_eq!(record.players, ["已注销", "张伟"], "{name}");
        assert_eq!(record.accounts, [Some(li), Some(zhang)], "{name}");
        assert!(
            record.body.contains(r#"{"name":"已注销"}"#),
            "{name}: {}",
            record.body
        );
        assert_eq!(
            record.pgn.as_deref(),
            Some("[Red \"已注销\"]\n[Black \"张伟\"]"),
            "{name}"
        );
        assert_eq!(
            record.summary.as_deref(),
            Some(r#"{"players":["已注销","张伟"],"rated":true}"#),
            "{name}: the lists' summary too"
        );
        let listed = store
            .account_games(li, GamesFrom::Offset(0), 10)
            .await
            .expect(name);
        assert!(
            listed.iter().all(|g| !g.summary.contains("\"Li\"")),
            "{name}: the account's list shows the new name"
        );
        let by_name = store
            .player_games("Li".into(), GamesFrom::Offset(0), 10)
            .await
            .expect(name);
        assert!(by_name.is_empty(), "{name}: the old name lists nothing");
        let again = store.create_account(new("li", "li")).await.expect(name);
        assert!(
            again.is_some_and(|id| id != li),
            "{name}: the name is free again"
        );
    })
    .await;
}

/// A new account named `name` (its key the name in small letters).
fn account(name: &str) -> qipai_store::accounts::NewAccount {
    qipai_store::accounts::NewAccount {
        name: name.into(),
        name_key: name.to_lowercase(),
        password_hash: "$argon2id$v=19$x".into(),
        created_ms: 10,
    }
}

/// Entries linked to accounts: a link comes back with the account's name; one account per
/// player and one player per account in a competition; unlinked, and gone with the
/// account when it is deleted.
#[tokio::test]
async fn entry_links_are_kept_and_go_with_the_account() {
    use qipai_store::accounts::AccountWrite;
    use qipai_store::competition::{CompetitionRow, CompetitionWrite as W, EntryRow, LinkRow};
    on_both(|store, name| async move {
        let wang = store.create_account(account("Wang")).await.expect(name);
        let li = store.create_account(account("Li")).await.expect(name);
        let (Some(wang), Some(li)) = (wang, li) else {
            panic!("{name}: both accounts created");
        };
        let entry = |index: u32| {
            W::Entry(EntryRow {
                competition: 3,
                index,
                team: "A".into(),
                pair_number: Some(1),
                players: r#"["a","b"]"#.into(),
                contacts: "[null,null]".into(),
            })
        };
        let competition = W::Competition(CompetitionRow {
            id: 3,
            name: "杯".into(),
            settings: "{}".into(),
            created_ms: 1,
        });
        store
            .competition_write(vec![competition, entry(0), entry(1)])
            .await
            .expect(name);
        let link = |index, player, account| {
            W::Link(LinkRow {
                competition: 3,
                index,
                player,
                account,
                account_name: String::new(),
                linked_ms: 20,
            })
        };
        store
            .competition_write(vec![link(0, 1, wang)])
            .await
            .expect(name);
        let links = |store: Arc<dyn Store>| async move {
            let logs = store.competitions().await.expect("competitions");
            logs[0]
                .links
                .iter()
                .map(|l| (l.index, l.player, l.account, l.account_name.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            links(Arc::clone(&store)).await,
            [(0, 1, wang, "Wang".to_owned())],
            "{name}"
        );
        let twice = store.competition_write(vec![link(0, 1, li)]).await;
        assert!(twice.is_err(), "{name}: one account per player");
        let again = store.competition_write(vec![link(1, 0, wang)]).await;
        assert!(again.is_err(), "{name}: one player per account");
        store
            .competition_write(vec![W::Unlink {
                competition: 3,
                index: 0,
                player: 1,
            }])
            .await
            .expect(name);
        assert!(links(Arc::clone(&store)).await.is_empty(), "{name}");
        store
            .competition_write(vec![link(1, 0, wang), link(0, 0, li)])
            .await
            .expect(name);
        store
            .account_write(vec![AccountWrite::Delete {
                account: wang,
                was: "\"Wang\"".into(),
                was_in_pgn: "Wang".into(),
                shown_as: "gone".into(),
                at_ms: 30,
            }])
            .await
            .expect(name);
        assert_eq!(
            links(Arc::clone(&store)).await,
            [(0, 0, li, "Li".to_owned())],
            "{name}: the deleted account's link went with it"
        );
    })
    .await;
}

/// The test's rating rule: each rated seat gains 10 on what the store holds (1500 when
/// nothing), its state the rating itself.
struct PlusTen;

impl qipai_store::accounts::RatingRule for PlusTen {
    fn rate(&self, current: &[Option<String>]) -> Vec<Option<qipai_store::accounts::NewRating>> {
        current
            .iter()
            .map(|state| {
                let before: i64 = state.as_deref().map_or(1500, |s| s.parse().expect("state"));
                Some(qipai_store::accounts::NewRating {
                    rating: before + 10,
                    state: (before + 10).to_string(),
                })
            })
            .collect()
    }
}

/// Rating updates are computed in the transaction from what it reads: two games of one
/// account in one batch apply one after the other, and so do batches committed at the same
/// time on several connections (PostgreSQL locks the accounts until the commit).
#[tokio::test]
async fn rating_updates_apply_one_after_the_other() {
    use qipai_store::accounts::RatingUpdate;
    on_both(|store, name| async move {
        let (Some(wu), Some(li)) = (
            store.create_account(account("Wu")).await.expect(name),
            store.create_account(account("Li")).await.expect(name),
        ) else {
            panic!("{name}: accounts created");
        };
        let rule: Arc<dyn qipai_store::accounts::RatingRule> = Arc::new(PlusTen);
        let game = |room: u64, accounts: Vec<Option<u64>>| {
            Write::Rate(RatingUpdate {
                game: "xiangqi".into(),
                room,
                at_ms: i64::try_from(room).expect("small"),
                accounts,
                rule: Arc::clone(&rule),
            })
        };
        // Two games of Wu in one batch (a bot at the second).
        store
            .write(vec![
                game(1, vec![Some(wu), Some(li)]),
                game(2, vec![Some(wu), None]),
            ])
            .await
            .expect(name);
        // Eight batches at once, each a game of Wu and Li.
        let batches = (3..11).map(|room| {
            let store = Arc::clone(&store);
            let write = game(room, vec![Some(li), Some(wu)]);
            async move { store.write(vec![write]).await }
        });
        for done in futures_util::future::join_all(batches).await {
            done.expect(name);
        }
        let history = |account| {
            let store = Arc::clone(&store);
            async move {
                let points = store
                    .rating_history(account, "xiangqi".into())
                    .await
                    .expect("history");
                let mut ratings: Vec<i64> = points.iter().map(|p| p.rating).collect();
                ratings.sort_unstable();
                ratings
            }
        };
        let wu_points: Vec<i64> = (1..=10).map(|n| 1500 + 10 * n).collect();
        assert_eq!(
            history(wu).await,
            wu_points,
            "{name}: every game counted once"
        );
        let li_points: Vec<i64> = (1..=9).map(|n| 1500 + 10 * n).collect();
        assert_eq!(history(li).await, li_points, "{name}");
        let now = store.ratings(wu).await.expect(name);
        assert_eq!(now[0].rating, 1600, "{name}: ten games of +10 each");
    })
    .await;
}
