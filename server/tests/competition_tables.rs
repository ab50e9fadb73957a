//! A round's tables run themselves (issue 15, PROTOCOL.md §17.3): starting a round opens a
//! room per table with each seat reserved for its entrant (anyone else, and bots, get
//! `seat_reserved`), the result is recorded when the game ends, and an entrant absent when
//! the lateness limit passes forfeits (xiangqi 4.1.5). Fast settings: a lateness "minute"
//! of 20 ms.

mod common;

use std::time::Duration;

use common::competition::{get, login, parse, post_ok, server_with_director, start_round, until};
use common::{Client, TestServer};
use qipai_protocol::xiangqi::XiangqiAction;
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg};
use serde_json::{json, Value};

/// A server, a director's token and a xiangqi competition of three players (one bye a
/// round) whose lateness limit is 15 "minutes" of 20 ms.
async fn set_up() -> (TestServer, String, u64) {
    set_up_with(None, 20).await
}

/// A server (on the store file `store`, if given) with the director.
async fn start(store: Option<String>) -> TestServer {
    server_with_director(|c| {
        if let Some(url) = store {
            c.store.url = url;
        }
    })
    .await
}

async fn set_up_with(store: Option<String>, unit_ms: u64) -> (TestServer, String, u64) {
    let s = start(store).await;
    let token = login(&s).await;
    let c = post_ok(
        &s,
        &token,
        "/api/director/competitions",
        &json!({"name":"象棋","event":"xiangqi","rounds":3,"seed":5,
                "table_options":{"game":"xiangqi"},"lateness_unit_ms":unit_ms})
        .to_string(),
    )
    .await;
    let id = c["id"].as_u64().unwrap();
    post_ok(
        &s,
        &token,
        &format!("/api/director/competitions/{id}/entries"),
        "A,xiangqi,,Zhao\nB,xiangqi,,Qian\nC,xiangqi,,Sun\n",
    )
    .await;
    (s, token, id)
}

/// `join_room` at `seat` of `room` is refused with `seat_reserved`.
async fn assert_seat_reserved(c: &mut Client, room: u64, seat: Option<u8>) {
    let seq = c.seq();
    c.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat,
    })
    .await;
    assert_eq!(c.error_for(Some(seq)).await.0, ErrorCode::SeatReserved);
}

fn name(side: &Value) -> String {
    side["players"][0].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_table_is_reserved_and_its_result_recorded_when_the_game_ends() {
    let (s, token, id) = set_up().await;
    let r1 = start_round(&s, &token, id).await;
    let table = &r1["tables"][0];
    let room = table["room"].as_u64().expect("the table's room is open");
    assert_eq!(table["status"], "waiting");
    let (red, black) = (name(&table["first"]), name(&table["second"]));

    // Somebody else, even at a free seat, is refused; so is the right name at the wrong seat.
    let mut other = Client::hello(&s, "Intruder").await;
    assert_seat_reserved(&mut other, room, None).await;
    let mut r = Client::hello(&s, &red).await;
    assert_seat_reserved(&mut r, room, Some(1)).await;
    // Each entrant sits at their own seat (Red: the first-named entry).
    r.join(room, None).await;
    let mut b = Client::hello(&s, &black).await;
    b.join(room, Some(1)).await;
    until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        v["tables"][0]["status"] == "playing"
    })
    .await;

    // A page waiting for the next change (long poll) is answered when the result comes.
    let before = get(&s, "/api/competitions/changes").await.1["version"]
        .as_u64()
        .unwrap();
    let addr = s.addr;
    let waiting = tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!("GET /api/competitions/changes?after={before} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        tcp.write_all(req.as_bytes()).await.unwrap();
        let mut reply = Vec::new();
        tcp.read_to_end(&mut reply).await.unwrap();
        parse(&String::from_utf8_lossy(&reply)).1["version"].as_u64()
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!waiting.is_finished(), "nothing changed yet");
    // Red resigns: the table's result is recorded as the game ends, no director involved.
    r.xq(XiangqiAction::Resign).await;
    let after = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(after > before);
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "second_wins");
    assert_eq!(v["tables"][0]["status"], "finished");
    let standings = get(&s, &format!("/api/competitions/{id}/standings"))
        .await
        .1;
    let row = |n: &str| {
        standings["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["players"][0] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(
        (row(&black)["points"].as_u64(), row(&red)["points"].as_u64()),
        (Some(2), Some(0))
    );
    drop((r, b, other));
}

#[tokio::test]
async fn an_entrant_absent_past_the_limit_forfeits() {
    let (s, token, id) = set_up().await;
    let r1 = start_round(&s, &token, id).await;
    let table = &r1["tables"][0];
    let room = table["room"].as_u64().unwrap();
    // Only Black comes; Red is still away when 15 minutes (of 20 ms) have passed.
    let mut b = Client::hello(&s, &name(&table["second"])).await;
    b.join(room, Some(1)).await;
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "first_forfeits", "{v}");
    assert!(
        v["tables"][0]["note"]
            .as_str()
            .unwrap()
            .contains("first entry 16 min late"),
        "{v}"
    );
    // Nobody at all in round 2: both forfeit, and round 3 can be paired.
    start_round(&s, &token, id).await;
    let v = until(&s, &format!("/api/competitions/{id}/rounds/2"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "both_forfeit", "{v}");
    start_round(&s, &token, id).await;
    // A bot is never seated at a competition table.
    let summary = get(&s, &format!("/api/competitions/{id}/rounds/3")).await.1;
    let room3 = summary["tables"][0]["room"].as_u64().unwrap();
    let mut watcher = Client::hello(&s, "Watcher").await;
    watcher.spectate(room3).await;
    let seated = watcher
        .try_recv(Duration::from_millis(200))
        .await
        .map(|m| matches!(m, ServerMsg::Event { .. }));
    assert_ne!(seated, Some(true), "nobody (and no bot) sat down");
    drop(b);
}

/// A restart in the middle of a round: the table's room comes back from the store with its
/// seats still reserved, the seated entrant resumes, the late one sits down, and the result
/// is recorded when the game ends.
#[tokio::test]
async fn a_round_goes_on_after_a_restart() {
    let file = std::env::temp_dir().join(format!(
        "qipai_competition_tables_{}_{}.db",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    let url = file.to_str().unwrap().to_owned();
    // Lateness "minutes" of 1 s: nobody forfeits during this test.
    let (s, token, id) = set_up_with(Some(url.clone()), 1000).await;
    let r1 = start_round(&s, &token, id).await;
    let table = r1["tables"][0].clone();
    let room = table["room"].as_u64().unwrap();
    let mut b = Client::hello(&s, &name(&table["second"])).await;
    b.join(room, None).await;
    s.stop();
    tokio::time::sleep(Duration::from_millis(50)).await;

    let s = start(Some(url)).await;
    let v = get(&s, &format!("/api/competitions/{id}/rounds/1")).await.1;
    assert_eq!(
        v["tables"][0]["room"].as_u64(),
        Some(room),
        "the same table"
    );
    assert_eq!(v["tables"][0]["status"], "waiting", "{v}");
    let mut other = Client::hello(&s, "Intruder").await;
    assert_seat_reserved(&mut other, room, None).await;
    let _b2 = Client::resume(&s, &b.token).await;
    let mut r = Client::hello(&s, &name(&table["first"])).await;
    r.join(room, None).await;
    r.xq(XiangqiAction::Resign).await;
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "second_wins", "{v}");
    s.stop();
    let _ = std::fs::remove_file(&file);
}
