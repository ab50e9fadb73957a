//! A competition's day at the server (tournaments.md "The day itself"; PROTOCOL.md §17.3):
//! a xiangqi table has no casual abort (a side that leaves before its first move may come
//! back; one that never moves is absent and loses when the lateness limit passes), and a
//! director's result over a game still being played, or the next round while a table is
//! open, is refused unless overridden with a reason, which ends the game at the table.
//! Fast settings: a lateness "minute" of 100 ms, the limit 10 of them.

mod common;

use common::competition::{
    code, create_competition, entry_codes, get, login, post, post_ok, server_with_director,
    start_round, until,
};
use common::{Client, TestServer};
use qipai_protocol::{ErrorCode, Event, RoomEvent, ServerMsg};
use serde_json::{json, Value};

/// A server whose xiangqi first move is due 30 ms after its turn comes, a director's
/// token, a xiangqi competition of two players (Red: Zhao or Qian by lots) and their
/// entry codes, issued before the round so that the lateness limit (1 s) is spent at the
/// table.
async fn set_up() -> (
    TestServer,
    String,
    u64,
    std::collections::HashMap<String, String>,
) {
    let s = server_with_director(|c| c.xiangqi.house.first_move_ms = 30).await;
    let token = login(&s).await;
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":2,"seed":5,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":100,
        "xiangqi_lateness_limit_min":10});
    let form = "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n";
    let id = create_competition(&s, &token, &settings, form).await.0;
    let codes = entry_codes(&s, &token, id).await;
    (s, token, id, codes)
}

fn name(side: &Value) -> String {
    side["players"][0].as_str().unwrap().to_owned()
}

/// The first table of round 1, paired: its room and the names at Red and Black.
async fn pair(s: &TestServer, token: &str, id: u64) -> (u64, String, String) {
    let r1 = start_round(s, token, id).await;
    let t = &r1["tables"][0];
    let room = t["room"].as_u64().expect("the table's room");
    (room, name(&t["first"]), name(&t["second"]))
}

/// Whether `m` says the game is over.
fn over(m: &ServerMsg) -> bool {
    format!("{m:?}").contains("Over {")
}

#[tokio::test]
async fn a_xiangqi_table_has_no_casual_abort() {
    let (s, token, id, codes) = set_up().await;
    let (room, red, black) = pair(&s, &token, id).await;
    let mut r = Client::hello(&s, &red).await;
    r.join_with(room, Some(0), Some(&codes[&red])).await;
    let mut b = Client::hello(&s, &black).await;
    b.join_with(room, Some(1), Some(&codes[&black])).await;
    // Red leaves before the first move: at a casual table an abort, here the seat waits.
    r.leave().await;
    let left = b
        .until(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: Event::Room(RoomEvent::Left { seat: 0 }),
                    ..
                }
            ) || over(m)
        })
        .await;
    assert!(!over(&left), "the game was not aborted: {left:?}");
    // Red comes back to the reserved seat (nobody else could take it) and moves.
    r.join_with(room, Some(0), Some(&codes[&red])).await;
    r.play("h2e2").await;
    // Black leaves before its first move and never comes back: when the limit has passed
    // Black is absent and loses; nothing is aborted or drawn.
    b.leave().await;
    let path = format!("/api/competitions/{id}/rounds/1");
    let v = until(&s, &path, |v| !v["tables"][0]["result"].is_null()).await;
    assert_eq!(v["tables"][0]["result"], "first_wins", "{v}");
    let end = r.until(over).await;
    assert!(format!("{end:?}").contains("Abandoned"), "{end:?}");
}

#[tokio::test]
async fn a_directors_result_over_a_live_game_needs_an_override() {
    let (s, token, id, codes) = set_up().await;
    let (room, red, black) = pair(&s, &token, id).await;
    let mut r = Client::hello(&s, &red).await;
    r.join_with(room, Some(0), Some(&codes[&red])).await;
    let mut b = Client::hello(&s, &black).await;
    b.join_with(room, Some(1), Some(&codes[&black])).await;
    r.play("h2e2").await;
    let results = format!("/api/director/competitions/{id}/results");
    let rounds = format!("/api/director/competitions/{id}/rounds");
    let result = json!({"round":1,"table":1,"result":"first_wins"});
    // The game is being played: no result over it, no next round meanwhile.
    let (status, v) = post(&s, Some(&token), &results, &result.to_string()).await;
    assert_eq!((status, code(&v)), (409, "table_live"), "{v}");
    let (status, v) = post(&s, Some(&token), &rounds, "").await;
    assert_eq!((status, code(&v)), (409, "round_unfinished"), "{v}");
    // An override says why.
    let mut overruled = result.clone();
    overruled["override"] = json!(true);
    let (status, v) = post(&s, Some(&token), &results, &overruled.to_string()).await;
    assert_eq!((status, code(&v)), (400, "missing_reason"), "{v}");
    overruled["reason"] = json!("黑方手机作弊，裁判长判负");
    post_ok(&s, &token, &results, &overruled.to_string()).await;
    // The game ends at the table: its players are told why, and the room is gone.
    for c in [&mut r, &mut b] {
        let (code, message) = c.error_for(None).await;
        assert_eq!(code, ErrorCode::TableClosed);
        assert!(message.contains("黑方手机作弊"), "{message}");
        c.until(|m| matches!(m, ServerMsg::Left { .. })).await;
    }
    let path = format!("/api/competitions/{id}/rounds/1");
    let v = until(&s, &path, |v| v["tables"][0]["status"] == "finished").await;
    assert_eq!(v["tables"][0]["result"], "first_wins", "{v}");
    let note = v["tables"][0]["note"].as_str().unwrap();
    assert!(note.contains("黑方手机作弊"), "{v}");
    // One round of two recorded: the standings and awards are provisional, the awards
    // named as the notice names them.
    let standings = until(&s, &format!("/api/competitions/{id}/standings"), |v| {
        v["provisional"] == true
    })
    .await;
    assert_eq!(
        standings["standings"][0]["award_zh"], "一等奖",
        "{standings}"
    );
    let awards = get(&s, &format!("/api/competitions/{id}/awards")).await.1;
    assert_eq!(awards["provisional"], true, "{awards}");
    // Nothing is live now: the next round is paired.
    let r2 = start_round(&s, &token, id).await;
    assert_eq!(r2["round"], 2, "{r2}");
}

/// `qipai-server --hash-password`, as `config/default.toml` names it, works like
/// `qipai-server hash-password`.
#[test]
fn hash_password_is_also_a_flag() {
    use std::io::Write;
    for arg in ["--hash-password", "hash-password"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qipai-server"))
            .arg(arg)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"secret\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{arg}");
        let hash = String::from_utf8(out.stdout).unwrap();
        assert!(hash.starts_with("$argon2id$"), "{arg}: {hash}");
    }
}
