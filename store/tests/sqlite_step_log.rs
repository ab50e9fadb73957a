//! SQLite's migration 4 (the steps as one log in commit order) on a store written at
//! version 3: the open rooms come back with their logs, and go on after the migration.

use qipai_store::migrate::{MIGRATIONS, VERSION_TABLE};
use qipai_store::{RoomRow, StepKind, StepRow, Write};
use rusqlite::{params, Connection};

fn room(id: u64) -> RoomRow {
    RoomRow {
        id,
        game: "tuolaji".into(),
        options: vec![0x80],
        seed: id * 7,
        created_ms: 1_700_000_000_000,
        number: None,
        addr: None,
    }
}

fn step(room: u64, index: u64) -> StepRow {
    StepRow {
        room,
        index,
        kind: StepKind::Action,
        seat: (index % 4) as u8,
        at_ms: 100 * index,
        lag_ms: 0,
        action: Some(vec![room as u8, index as u8]),
        event_seq: 3 * index,
        epoch: 0,
        sent_ms: None,
    }
}

/// A version-3 file: rooms 1 (open), 2 (finished) and 3 (open), steps interleaved.
fn version_3(path: &std::path::Path) -> rusqlite::Result<()> {
    let conn = Connection::open(path)?;
    conn.execute(VERSION_TABLE, [])?;
    for m in MIGRATIONS.iter().filter(|m| m.version <= 3) {
        conn.execute_batch(m.sqlite)?;
        conn.execute(
            "INSERT INTO schema_version (version, applied_ms) VALUES (?1, 0)",
            params![m.version],
        )?;
    }
    for id in 1..=3i64 {
        conn.execute(
            "INSERT INTO rooms (id, game, options, seed, created_ms, status) VALUES (?1, 'tuolaji', x'80', ?2, 1700000000000, ?3)",
            params![id, id * 7, if id == 2 { "finished" } else { "open" }],
        )?;
    }
    for index in 0..4i64 {
        for id in [3i64, 1, 2] {
            conn.execute(
                "INSERT INTO steps (room, idx, kind, seat, at_ms, lag_ms, action, event_seq) VALUES (?1, ?2, 1, ?3, ?4, 0, ?5, ?6)",
                params![id, index, index % 4, 100 * index, vec![id as u8, index as u8], 3 * index],
            )?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn a_version_3_store_keeps_its_open_rooms_logs() {
    let path = std::env::temp_dir().join(format!("qipai_step_log_{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    version_3(&path).expect("a version-3 file");
    let url = path.to_str().expect("a UTF-8 temp path");
    let store = qipai_store::open(url).await.expect("opens and migrates");
    assert_eq!(
        store.migrate().await.expect("current"),
        qipai_store::migrate::latest()
    );

    let logs = store.unfinished().await.expect("logs");
    let ids: Vec<u64> = logs.iter().map(|l| l.room.id).collect();
    assert_eq!(ids, [1, 3]);
    for log in &logs {
        assert_eq!(log.room, room(log.room.id));
        let want: Vec<StepRow> = (0..4).map(|i| step(log.room.id, i)).collect();
        assert_eq!(log.steps, want, "room {}", log.room.id);
    }

    // After the migration: room 1 goes on, and a room created now reads only its own steps.
    store
        .write(vec![
            Write::Step(step(1, 4)),
            Write::Room(room(4)),
            Write::Step(step(4, 0)),
        ])
        .await
        .expect("writes after the migration");
    store
        .write(vec![Write::Step(step(4, 1)), Write::Step(step(3, 4))])
        .await
        .expect("writes after the migration");
    let logs = store.unfinished().await.expect("logs");
    let lens: Vec<(u64, usize)> = logs.iter().map(|l| (l.room.id, l.steps.len())).collect();
    assert_eq!(lens, [(1, 5), (3, 5), (4, 2)]);
    assert_eq!(logs[2].steps, [step(4, 0), step(4, 1)]);
    drop(store);
    let _ = std::fs::remove_file(&path);
}

/// The point of the log: a commit of 100 steps of 100 different rooms writes a few pages
/// to the WAL, not one per room (under the old (room, idx) key: ~111 a commit).
#[tokio::test]
async fn a_commit_of_many_rooms_steps_writes_a_few_pages() {
    const ROOMS: u64 = 1000;
    let path = std::env::temp_dir().join(format!("qipai_step_pages_{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let url = path.to_str().expect("a UTF-8 temp path");
    let store = qipai_store::open(url).await.expect("opens");
    let mut next = vec![0u64; ROOMS as usize + 1];
    let mut step_of = |room: u64| {
        let index = next[room as usize];
        next[room as usize] += 1;
        Write::Step(step(room, index))
    };
    store
        .write((1..=ROOMS).map(|id| Write::Room(room(id))).collect())
        .await
        .expect("rooms");
    for _ in 0..40 {
        let batch = (1..=ROOMS).map(&mut step_of).collect();
        store.write(batch).await.expect("warm-up steps");
    }
    let wal = format!("{}-wal", path.display());
    let conn = Connection::open(&path).expect("a second connection");
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .expect("checkpoint");
    assert_eq!(std::fs::metadata(&wal).map_or(0, |m| m.len()), 0);
    const COMMITS: u64 = 20;
    for k in 0..COMMITS {
        let batch = (0..100)
            .map(|j| step_of(1 + (k * 37 + j * 101) % ROOMS))
            .collect();
        store.write(batch).await.expect("steps");
    }
    let frame = 24 + 4096;
    let frames = std::fs::metadata(&wal).map_or(0, |m| m.len()) / frame / COMMITS;
    assert!(
        frames <= 12,
        "{frames} WAL pages a commit of 100 rooms' steps"
    );
    drop(conn);
    drop(store);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
