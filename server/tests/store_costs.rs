//! What the store costs, measured on real games (docs/operations.md, "Retention"): bytes per
//! abandoned room and per finished game (xiangqi, Tuolaji) before and after the sweep and the
//! pruning of raw logs, and the time of a page of a player's list read the way it was (each
//! record read whole and decoded) against the way it is (the page's rows with their
//! summaries). Measurements, not checks, so they are ignored by default (bytes do not depend on
//! the build; times do, so compare the two ways within one run):
//!
//! ```text
//! cargo test -p qipai-server --test store_costs -- --ignored --nocapture --test-threads 1
//! ```

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::tuolaji::{fast_options, Player, SEED};
use common::{http_get, store_file, Client, TestServer};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_store::retention::Sweep;
use qipai_store::{GamesFrom, Store};

/// A server on `file` that never sweeps by itself (the measurement sweeps when it wants),
/// and the store opened beside it once the server has migrated it.
async fn server(file: &str) -> (TestServer, Arc<dyn Store>) {
    let path = file.to_owned();
    let server = TestServer::start(move |c| {
        c.store.url = path;
        c.tuolaji.seed = Some(SEED);
        // As `common::tuolaji::seeded_server`: a whole game's events, read at test speed.
        c.server.outbound_queue = 1 << 16;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
        c.limits.max_outbound_bytes = 1 << 26;
        c.retention.every_ms = 0;
        c.limits.empty_room_grace_ms = 10;
        c.limits.rooms_per_addr = 1000;
    })
    .await;
    let ready = http_get(&server, "/healthz").await;
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    let store = qipai_store::open(file).await.expect("the store");
    (server, store)
}

/// The size of a compact copy of the store (`VACUUM INTO`): what its rows take, free pages
/// aside.
async fn compact_bytes(store: &dyn Store, name: &str) -> u64 {
    let copy = std::env::temp_dir().join(format!("{name}_{}.db", std::process::id()));
    let _ = std::fs::remove_file(&copy);
    store.backup(&copy).await.expect("backup");
    let bytes = std::fs::metadata(&copy).expect("copy").len();
    let _ = std::fs::remove_file(&copy);
    bytes
}

/// Every room, session and log older than now.
fn everything() -> Sweep {
    let now = qipai_store::unix_ms() + 1;
    Sweep {
        abandoned_before_ms: now,
        sessions_before_ms: now,
        live_players: Vec::new(),
        now_ms: now,
    }
}

async fn xiangqi_mate(server: &TestServer, i: usize) {
    let mut red = Client::hello(server, &format!("Red{i}")).await;
    let mut black = Client::hello(server, &format!("Black{i}")).await;
    let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    black.join(room, Some(1)).await;
    red.mate_in_five_plies(&mut black).await;
}

/// Waits until the store holds `n` records (the last game's is written as its room ends).
async fn records(store: &dyn Store, name: &str, n: usize) {
    for _ in 0..500 {
        let page = store
            .player_games(name.into(), GamesFrom::Offset(0), 1000)
            .await
            .expect("list");
        if page.len() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{name}: fewer than {n} records");
}

#[tokio::test]
#[ignore = "a measurement (see the file's head)"]
async fn bytes_per_room_and_game() {
    const ROOMS: usize = 200;
    const XIANGQI: usize = 20;
    const TUOLAJI: usize = 2;
    let file = store_file("store_costs");
    let (server, store) = server(&file).await;
    let base = compact_bytes(store.as_ref(), "base").await;

    let mut leaver = Client::hello(&server, "Leaver").await;
    for _ in 0..ROOMS {
        leaver
            .create_xiangqi(XiangqiOptions::default(), Some(0))
            .await;
        leaver.leave().await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let rooms = compact_bytes(store.as_ref(), "rooms").await;
    store.sweep(everything()).await.expect("sweep");
    let swept = compact_bytes(store.as_ref(), "swept").await;

    for i in 0..XIANGQI {
        xiangqi_mate(&server, i).await;
    }
    records(store.as_ref(), "Red0", 1).await;
    let xiangqi = compact_bytes(store.as_ref(), "xiangqi").await;
    store
        .prune(qipai_store::unix_ms() + 1)
        .await
        .expect("prune");
    let xiangqi_pruned = compact_bytes(store.as_ref(), "xiangqi_pruned").await;

    for _ in 0..TUOLAJI {
        let mut me = Client::hello(&server, "Me").await;
        me.create_tuolaji_with_bots(fast_options()).await;
        Player::new(me, 0).play(u32::MAX, false).await;
    }
    records(store.as_ref(), "Me", TUOLAJI).await;
    let tuolaji = compact_bytes(store.as_ref(), "tuolaji").await;
    store
        .prune(qipai_store::unix_ms() + 1)
        .await
        .expect("prune");
    let tuolaji_pruned = compact_bytes(store.as_ref(), "tuolaji_pruned").await;

    let per = |after: u64, before: u64, n: usize| (after.saturating_sub(before)) / n as u64;
    println!("store bytes (compact copies): empty {base}");
    println!(
        "abandoned room: {} bytes each ({ROOMS} rooms); after the sweep {} bytes in all",
        per(rooms, base, ROOMS),
        swept.saturating_sub(base)
    );
    println!(
        "xiangqi game (5 plies, mate): {} bytes each, {} after pruning its log ({XIANGQI} games)",
        per(xiangqi, swept, XIANGQI),
        per(xiangqi_pruned, swept, XIANGQI)
    );
    println!(
        "tuolaji game (one person, three bots, 2 to A): {} bytes each, {} after pruning its log ({TUOLAJI} games)",
        per(tuolaji, xiangqi_pruned, TUOLAJI),
        per(tuolaji_pruned, xiangqi_pruned, TUOLAJI)
    );
    server.stop();
    let _ = std::fs::remove_file(&file);
}

/// A page of 20 of a player's 200 Tuolaji games (real records, copied), read the old way
/// (the page's rows, then each record whole, decoded) and the new way (the rows with their
/// summaries), and over HTTP.
#[tokio::test]
#[ignore = "a measurement (see the file's head)"]
async fn a_page_of_a_players_games() {
    const COPIES: i64 = 200;
    const READS: u32 = 300;
    let file = store_file("players_list");
    let (server, store) = server(&file).await;
    let mut me = Client::hello(&server, "Me").await;
    me.create_tuolaji_with_bots(fast_options()).await;
    Player::new(me, 0).play(u32::MAX, false).await;
    records(store.as_ref(), "Me", 1).await;
    {
        let db = rusqlite::Connection::open(&file).expect("open");
        db.busy_timeout(Duration::from_secs(5)).expect("timeout");
        for n in 1..COPIES {
            db.execute(
                "INSERT INTO records (room, game, finished_ms, body, pgn, summary) \
                 SELECT room + ?1, game, finished_ms + ?1, body, pgn, summary FROM records \
                 WHERE room = (SELECT MIN(room) FROM records)",
                [n * 1_000_000],
            )
            .expect("copy a record");
            db.execute(
                "INSERT INTO record_players (room, seat, name, finished_ms) \
                 SELECT room + ?1, seat, name, finished_ms + ?1 FROM record_players \
                 WHERE room = (SELECT MIN(room) FROM records)",
                [n * 1_000_000],
            )
            .expect("copy its players");
        }
    }
    let body_bytes = store
        .record(
            store
                .player_games("Me".into(), GamesFrom::Offset(0), 1)
                .await
                .expect("list")[0]
                .room,
        )
        .await
        .expect("record")
        .expect("a record")
        .body
        .len();

    let started = Instant::now();
    for _ in 0..READS {
        let page = store
            .player_games("Me".into(), GamesFrom::Offset(0), 20)
            .await
            .expect("list");
        for g in &page {
            let r = store.record(g.room).await.expect("record").expect("there");
            let fields = qipai_server::room::record::list_fields(&r.body);
            assert_eq!(fields.players.len(), 4);
        }
    }
    let whole = started.elapsed() / READS;

    let started = Instant::now();
    for _ in 0..READS {
        let page = store
            .player_games("Me".into(), GamesFrom::Offset(0), 20)
            .await
            .expect("list");
        for g in &page {
            let fields = qipai_server::room::record::list_fields(&g.summary);
            assert_eq!(fields.players.len(), 4);
        }
    }
    let summaries = started.elapsed() / READS;

    let started = Instant::now();
    for _ in 0..READS {
        let page = http_get(&server, "/api/players/Me/games?page=3").await;
        assert!(page.contains("\"players\":["), "{page}");
    }
    let http = started.elapsed() / READS;
    println!(
        "a page of 20 of {COPIES} Tuolaji games (a record body {body_bytes} bytes): records read whole {whole:?}, \
         summaries {summaries:?} ({:.1}x less); over HTTP (one connection a request) {http:?}",
        whole.as_secs_f64() / summaries.as_secs_f64()
    );
    server.stop();
    let _ = std::fs::remove_file(&file);
}
