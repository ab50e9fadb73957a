//! A table's games decide its result (2.6, 2.9; docs/rules/tournaments.md): a xiangqi best
//! of three is played at the server game after game (the colours changed each game) until
//! it is decided, and a drawn knockout game gets an extra game, then lots. A match survives
//! the server's crash between its games: the games played count, the colours go on changing.

mod common;

use common::competition::{
    create_competition, director_env, entry_codes, get, login, server_with_director, start_round,
    store_file, until,
};
use common::{Addressed, Client, Endpoint, Process, TestServer};
use qipai_protocol::xiangqi::XiangqiAction;
use serde_json::{json, Value};

/// The server binary.
const SERVER: &str = env!("CARGO_BIN_EXE_qipai-server");

/// A server, a director's token, a xiangqi competition of two players with these settings,
/// round 1 started: its first table, and the entry codes.
async fn set_up(
    extra: Value,
) -> (
    TestServer,
    u64,
    Value,
    std::collections::HashMap<String, String>,
) {
    let s = server_with_director(|_| {}).await;
    let token = login(&s).await;
    let mut settings = json!({"name":"象棋","event":"xiangqi","rounds":1,"seed":8,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":60_000});
    for (k, v) in extra.as_object().unwrap() {
        settings[k] = v.clone();
    }
    let form = "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n";
    let id = create_competition(&s, &token, &settings, form).await.0;
    let codes = entry_codes(&s, &token, id).await;
    let r = start_round(&s, &token, id).await;
    (s, id, r["tables"][0].clone(), codes)
}

fn name(side: &Value) -> String {
    side["players"][0].as_str().unwrap().to_owned()
}

/// Seats both players of `room` (Red first) with their codes.
async fn seat(
    s: &impl Endpoint,
    room: u64,
    red: &str,
    black: &str,
    codes: &std::collections::HashMap<String, String>,
) -> (Client, Client) {
    let mut r = Client::hello(s, red).await;
    r.join_with(room, Some(0), Some(&codes[red])).await;
    let mut b = Client::hello(s, black).await;
    b.join_with(room, Some(1), Some(&codes[black])).await;
    (r, b)
}

/// The table's room once it is not `room` (the next game's table opened).
async fn next_room(s: &impl Addressed, id: u64, room: u64) -> u64 {
    let path = format!("/api/competitions/{id}/rounds/1");
    let v = until(s, &path, |v| v["tables"][0]["room"].as_u64() != Some(room)).await;
    v["tables"][0]["room"].as_u64().unwrap()
}

/// A draw by agreement: Red moves, Black offers, Red accepts.
async fn agree_a_draw(r: &mut Client, b: &mut Client) {
    r.play("h2e2").await;
    b.xq(XiangqiAction::OfferDraw).await;
    r.xq(XiangqiAction::AcceptDraw).await;
}

/// 2.6: the first entry wins game 1 as Red and game 2 as Black: the match is decided 2–0
/// and recorded then, with its games in the note.
#[tokio::test]
async fn a_best_of_three_is_played_to_its_decision() {
    let (s, id, t, codes) = set_up(json!({"best_of_three": true})).await;
    let (first, second) = (name(&t["first"]), name(&t["second"]));
    let room = t["room"].as_u64().unwrap();
    let (_r, mut b) = seat(&s, room, &first, &second, &codes).await;
    b.xq(XiangqiAction::Resign).await;
    let room2 = next_room(&s, id, room).await;
    // Game 2: the colours changed, the second entry plays Red.
    let (mut r2, _b2) = seat(&s, room2, &second, &first, &codes).await;
    r2.xq(XiangqiAction::Resign).await;
    let path = format!("/api/competitions/{id}/rounds/1");
    let v = until(&s, &path, |v| !v["tables"][0]["result"].is_null()).await;
    assert_eq!(v["tables"][0]["result"], "first_wins", "{v}");
    let note = v["tables"][0]["note"].as_str().unwrap();
    assert!(note.contains("games: first_wins, first_wins"), "{note}");
}

/// 2.9: a drawn knockout game gets an extra game (colours changed); drawn too, lots decide
/// from the recorded seed: never a draw, which would put both out.
#[tokio::test]
async fn a_drawn_knockout_game_gets_an_extra_game_then_lots() {
    let (s, id, t, codes) = set_up(json!({"format": "knockout"})).await;
    let (first, second) = (name(&t["first"]), name(&t["second"]));
    let room = t["room"].as_u64().unwrap();
    let (mut r, mut b) = seat(&s, room, &first, &second, &codes).await;
    agree_a_draw(&mut r, &mut b).await;
    let room2 = next_room(&s, id, room).await;
    let (mut r2, mut b2) = seat(&s, room2, &second, &first, &codes).await;
    agree_a_draw(&mut r2, &mut b2).await;
    let path = format!("/api/competitions/{id}/rounds/1");
    let v = until(&s, &path, |v| !v["tables"][0]["result"].is_null()).await;
    let result = v["tables"][0]["result"].as_str().unwrap();
    assert!(matches!(result, "first_wins" | "second_wins"), "{v}");
    let note = v["tables"][0]["note"].as_str().unwrap();
    assert!(note.contains("games: draw, draw"), "{note}");
}

/// 2.6 across a crash: the server binary is killed (SIGKILL) between game 1 and game 2 of a
/// best of three and started again on its store. The table is the second game's, its
/// colours changed (the second entry plays Red), and game 1 still counts: 1–1 after game 2,
/// game 3 (the first entry Red again) decides it.
#[tokio::test]
async fn a_best_of_three_goes_on_after_a_crash() {
    let (file, url) = store_file("best_of_three");
    let env = director_env();
    let mut ports = 31_000..31_400;
    let s = Process::start(SERVER, &url, &env, &mut ports).await;
    let token = login(&s).await;
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":1,"seed":8,
        "best_of_three":true,"table_options":{"game":"xiangqi"},"lateness_unit_ms":60_000});
    let form = "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n";
    let id = create_competition(&s, &token, &settings, form).await.0;
    let codes = entry_codes(&s, &token, id).await;
    let t = start_round(&s, &token, id).await["tables"][0].clone();
    let (first, second) = (name(&t["first"]), name(&t["second"]));
    let room = t["room"].as_u64().unwrap();
    // Game 1: the first entry (Red) wins.
    let (_r, mut b) = seat(&s, room, &first, &second, &codes).await;
    b.xq(XiangqiAction::Resign).await;
    let room2 = next_room(&s, id, room).await;
    drop(b);
    s.kill();

    let s = Process::start(SERVER, &url, &env, &mut ports).await;
    let path = format!("/api/competitions/{id}/rounds/1");
    let v = get(&s, &path).await.1;
    assert_eq!(v["tables"][0]["room"].as_u64(), Some(room2), "{v}");
    assert!(v["tables"][0]["result"].is_null(), "{v}");
    // Game 2: the second entry plays Red (seat 0 is reserved for it) and wins.
    let (_r2, mut b2) = seat(&s, room2, &second, &first, &codes).await;
    b2.xq(XiangqiAction::Resign).await;
    let room3 = next_room(&s, id, room2).await;
    // Game 3: the first entry Red again; it wins the match 2–1.
    let (_r3, mut b3) = seat(&s, room3, &first, &second, &codes).await;
    b3.xq(XiangqiAction::Resign).await;
    let v = until(&s, &path, |v| !v["tables"][0]["result"].is_null()).await;
    assert_eq!(v["tables"][0]["result"], "first_wins", "{v}");
    let note = v["tables"][0]["note"].as_str().unwrap();
    assert!(
        note.contains("games: first_wins, second_wins, first_wins"),
        "{note}"
    );
    s.kill();
    let _ = std::fs::remove_file(&file);
}
