//! The store stays bounded (docs/operations.md, "Retention"): the sweep deletes abandoned
//! rooms, expired sessions and finished games' raw logs on its schedule, while records are
//! still served and a live player's session survives; the cap on live sessions refuses a
//! new `hello` with `too_many_sessions`; the store's size is in `/metrics`.

mod common;

use std::time::Duration;

use common::{http_get, metric, store_file, Client, TestServer};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION};

/// A server on the SQLite `file` that sweeps every 20 ms, and deems every room, session and
/// log expired at once; room ids are counted (seeded), so later rooms have larger ids.
async fn sweeping(file: &str) -> TestServer {
    let file = file.to_owned();
    TestServer::start(move |c| {
        c.store.url = file;
        c.tuolaji.seed = Some(common::tuolaji::SEED);
        c.retention.every_ms = 20;
        c.retention.abandoned_after_ms = 0;
        c.retention.sessions_after_ms = 0;
        c.retention.logs_after_ms = 1;
        c.limits.empty_room_grace_ms = 10;
        c.server.reconnect_grace_ms = 20;
    })
    .await
}

/// Waits (up to 10 s) until `metric` reads at least `least`.
async fn at_least(server: &TestServer, name: &str, least: f64) {
    for _ in 0..500 {
        if metric(server, name).await >= least {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{name} never reached {least}");
}

/// An abandoned room and a finished game's log go, a gone player's session goes; the
/// record is still served by id and in the players' lists, and a player connected all along
/// (older than the sessions' age) still resumes after a restart.
#[tokio::test]
async fn the_sweep_deletes_what_expired_and_keeps_records_and_live_sessions() {
    let file = store_file("retention");
    let server = sweeping(&file).await;
    // Sat down and left before the game: the room closes without a result.
    let mut leaver = Client::hello(&server, "Leaver").await;
    leaver
        .create_xiangqi(XiangqiOptions::default(), Some(0))
        .await;
    leaver.leave().await;
    // Said hello and went: the session's row goes after its grace.
    drop(Client::hello(&server, "Gone").await);
    at_least(&server, "qipai_store_swept_total{what=\"sessions\"}", 1.0).await;

    let mut red = Client::hello(&server, "Red").await;
    let mut black = Client::hello(&server, "Black").await;
    let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    black.join(room, Some(1)).await;
    red.mate_in_five_plies(&mut black).await;
    // The abandoned room goes once it is not the latest (the next id is counted from that).
    at_least(&server, "qipai_store_swept_total{what=\"rooms\"}", 1.0).await;
    // The game's raw log goes (a sweep ran after the game ended, and Red was not seated
    // in an open room then: only being live kept Red's session).
    at_least(&server, "qipai_store_swept_total{what=\"log_rows\"}", 1.0).await;
    let record = http_get(&server, &format!("/api/games/{room}")).await;
    assert!(record.starts_with("HTTP/1.1 200"), "{record}");
    let list = http_get(&server, "/api/players/Red/games?page=0").await;
    assert!(list.contains(&format!("\"room_id\":{room}")), "{list}");
    assert!(list.contains("\"winners\":[0]"), "{list}");
    assert!(metric(&server, "qipai_store_bytes").await > 0.0);

    red.leave().await;
    red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    server.stop();
    let again = sweeping(&file).await;
    let back = Client::resume(&again, &red.token).await;
    assert_eq!(back.player_id, red.player_id);
    again.stop();
    let _ = std::fs::remove_file(&file);
}

/// Past `max_sessions` a new `hello` is refused with `too_many_sessions` (counted in
/// `/metrics`); a live session still resumes.
#[tokio::test]
async fn the_session_cap_refuses_a_new_hello() {
    let server = TestServer::start(|c| c.limits.max_sessions = 2).await;
    let first = Client::hello(&server, "One").await;
    let _second = Client::hello(&server, "Two").await;
    let mut third = Client::connect(&server).await;
    third
        .send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: "Three".into(),
            resume_token: None,
            account_token: None,
        })
        .await;
    assert_eq!(third.error_for(None).await.0, ErrorCode::TooManySessions);
    assert_eq!(
        metric(&server, "qipai_refused_total{what=\"session\"}").await,
        1.0
    );
    assert_eq!(
        metric(&server, "qipai_limit{key=\"max_sessions\"}").await,
        2.0
    );
    let back = Client::resume(&server, &first.token).await;
    assert_eq!(back.player_id, first.player_id);
}
