//! A competition's round is published, then started (tournaments.md "The day itself";
//! PROTOCOL.md §17.1): pairing publishes it (pairings shown, tables open, players may sit)
//! and its games wait for the start — the director's button or a time set at publishing —
//! from which lateness counts (4.1.5), so an entrant seated before the start is never late.
//! A director may withdraw an entry (paired no more, its results stand) and undo the latest
//! round while none of its tables has a result. Fast settings: lateness "minutes" of 50 ms.

mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::competition::{
    code, create_competition, entry_codes, get, login, post, post_ok, publish_round,
    server_with_director, start_round, store_file, until,
};
use common::{Client, TestServer};
use qipai_protocol::xiangqi::XiangqiAction;
use qipai_protocol::{ErrorCode, ServerMsg};
use serde_json::{json, Value};

/// The lateness "minute" of these tests, ms; the limit is 4 of them.
const UNIT: u64 = 50;

/// A server (on the store file `store`, if given) with the director, its token, and a
/// xiangqi competition of `players` (one per department) with the players' entry codes.
async fn set_up(
    store: Option<String>,
    players: &[&str],
) -> (
    TestServer,
    String,
    u64,
    std::collections::HashMap<String, String>,
) {
    let s = server_with_director(|c| {
        c.xiangqi.house.first_move_ms = 30;
        if let Some(url) = store {
            c.store.url = url;
        }
    })
    .await;
    let token = login(&s).await;
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":3,"seed":5,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":UNIT,
        "xiangqi_lateness_limit_min":4});
    let form: String = players
        .iter()
        .enumerate()
        .map(|(i, p)| format!("D{i},xiangqi,,{p}\n"))
        .collect();
    let id = create_competition(&s, &token, &settings, &form).await.0;
    let codes = entry_codes(&s, &token, id).await;
    (s, token, id, codes)
}

fn name(side: &Value) -> String {
    side["players"][0].as_str().unwrap().to_owned()
}

fn unix_ms() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// The round's first table as `GET …/rounds/1` shows it.
async fn table_one(s: &TestServer, id: u64) -> Value {
    get(s, &format!("/api/competitions/{id}/rounds/1")).await.1["tables"][0].clone()
}

/// Published, a round's players sit and nothing starts, however long past the lateness
/// limit; the director's start begins the game, and nobody seated before it is late.
#[tokio::test]
async fn a_published_round_waits_for_its_start() {
    let (s, token, id, codes) = set_up(None, &["Zhao", "Qian"]).await;
    let r = publish_round(&s, &token, id).await;
    assert_eq!(
        (r["state"].as_str(), &r["started_ms"]),
        (Some("published"), &Value::Null),
        "{r}"
    );
    let t = &r["tables"][0];
    let room = t["room"].as_u64().expect("the table is open");
    let (red, black) = (name(&t["first"]), name(&t["second"]));
    let mut b = Client::hello(&s, &black).await;
    b.join_with(room, Some(1), Some(&codes[&black])).await;
    // Twice the limit: counted from the pairing, Red would have forfeited by now.
    tokio::time::sleep(Duration::from_millis(8 * UNIT)).await;
    let mut r = Client::hello(&s, &red).await;
    r.join_with(room, Some(0), Some(&codes[&red])).await;
    tokio::time::sleep(Duration::from_millis(2 * UNIT)).await;
    let t = table_one(&s, id).await;
    assert_eq!(
        (&t["result"], t["status"].as_str()),
        (&Value::Null, Some("waiting")),
        "both seated, the game waits: {t}"
    );

    let start = format!("/api/director/competitions/{id}/rounds/1/start");
    let v = post_ok(&s, &token, &start, "").await;
    assert!(v["started_ms"].as_i64().is_some(), "{v}");
    let (status, v) = post(&s, Some(&token), &start, "").await;
    assert_eq!((status, code(&v)), (409, "round_started"), "{v}");
    let round = get(&s, &format!("/api/competitions/{id}/rounds/1")).await.1;
    assert_eq!(round["state"], "started", "{round}");

    r.play("h2e2").await;
    b.xq(XiangqiAction::Resign).await;
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "first_wins", "{v}");
    assert_eq!(v["tables"][0]["note"], "", "nobody was late: {v}");
}

/// A start time set at publishing: the round is `scheduled` until then, and an entrant
/// absent at the limit counted from that time (not from the pairing) forfeits.
#[tokio::test]
async fn a_start_time_set_at_publishing_starts_the_round() {
    let (s, token, id, codes) = set_up(None, &["Zhao", "Qian"]).await;
    let published = std::time::Instant::now();
    let at = unix_ms() + i64::try_from(6 * UNIT).unwrap();
    let body = json!({ "start_at_ms": at }).to_string();
    let r = post_ok(
        &s,
        &token,
        &format!("/api/director/competitions/{id}/rounds"),
        &body,
    )
    .await;
    assert_eq!(
        (r["state"].as_str(), r["started_ms"].as_i64()),
        (Some("scheduled"), Some(at)),
        "{r}"
    );
    let t = &r["tables"][0];
    let room = t["room"].as_u64().unwrap();
    let black = name(&t["second"]);
    let mut b = Client::hello(&s, &black).await;
    b.join_with(room, Some(1), Some(&codes[&black])).await;
    // Red never comes: absent when the limit (4 minutes after the start) has passed.
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "first_forfeits", "{v}");
    let waited = published.elapsed();
    assert!(
        waited >= Duration::from_millis(10 * UNIT),
        "the limit counts from the start set, not from the pairing: {waited:?}"
    );
    assert_eq!(v["state"], "started", "{v}");
}

/// Undo the latest round while it has no result (its tables close, its pairings go; paired
/// again from the same seed it is the same round); withdraw an entry: it is paired no more
/// (no bye either), stays in the standings with its results, and so after a restart.
#[tokio::test]
async fn undo_a_round_and_withdraw_an_entry() {
    let (file, url) = store_file("round_start");
    let (s, token, id, codes) = set_up(Some(url.clone()), &["Zhao", "Qian", "Sun"]).await;
    let r1 = publish_round(&s, &token, id).await;
    let t = &r1["tables"][0];
    let room = t["room"].as_u64().unwrap();
    let red = name(&t["first"]);
    let mut c = Client::hello(&s, &red).await;
    c.join_with(room, Some(0), Some(&codes[&red])).await;

    let undo = format!("/api/director/competitions/{id}/rounds/1/undo");
    let v = post_ok(&s, &token, &undo, "").await;
    assert_eq!(v["undone"], 1, "{v}");
    let (code_seen, message) = c.error_for(None).await;
    assert_eq!(code_seen, ErrorCode::TableClosed, "{message}");
    c.until(|m| matches!(m, ServerMsg::Left { .. })).await;
    let (status, _) = get(&s, &format!("/api/competitions/{id}/rounds/1")).await;
    assert_eq!(status, 404);
    let summary = get(&s, &format!("/api/competitions/{id}")).await.1;
    assert_eq!(summary["rounds_paired"], 0, "{summary}");
    let (status, v) = post(&s, Some(&token), &undo, "").await;
    assert_eq!((status, code(&v)), (404, "not_found"), "{v}");

    let again = start_round(&s, &token, id).await;
    for key in ["bye", "seed"] {
        assert_eq!(again[key], r1[key], "{key}: {again}");
    }
    for side in ["first", "second"] {
        assert_eq!(again["tables"][0][side], r1["tables"][0][side], "{again}");
    }
    let results = format!("/api/director/competitions/{id}/results");
    post_ok(
        &s,
        &token,
        &results,
        r#"{"round":1,"table":1,"result":"first_wins"}"#,
    )
    .await;
    let (status, v) = post(&s, Some(&token), &undo, "").await;
    assert_eq!((status, code(&v)), (409, "round_recorded"), "{v}");

    let bye = again["bye"]["entry"]
        .as_u64()
        .expect("three players: a bye");
    let withdraw = format!("/api/director/competitions/{id}/entries/{bye}/withdraw");
    post_ok(&s, &token, &withdraw, "").await;
    let (status, v) = post(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{id}/entries/9/withdraw"),
        "",
    )
    .await;
    assert_eq!((status, code(&v)), (404, "not_found"), "{v}");
    s.stop();
    tokio::time::sleep(Duration::from_millis(50)).await;

    let s = server_with_director(|c| c.store.url = url).await;
    let token = login(&s).await;
    let summary = get(&s, &format!("/api/competitions/{id}")).await.1;
    assert_eq!(summary["withdrawn"], json!([bye]), "{summary}");
    let r2 = start_round(&s, &token, id).await;
    assert!(r2["bye"].is_null(), "two entries paired: no bye: {r2}");
    let tables = r2["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{r2}");
    for side in ["first", "second"] {
        assert_ne!(tables[0][side]["entry"].as_u64(), Some(bye), "{r2}");
    }
    let standings = get(&s, &format!("/api/competitions/{id}/standings"))
        .await
        .1;
    let row = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["entry"].as_u64() == Some(bye))
        .cloned()
        .expect("a withdrawn entry stays in the standings");
    assert_eq!(
        (row["withdrawn"].as_bool(), row["points"].as_u64()),
        (Some(true), Some(2)),
        "its bye stands: {row}"
    );
    s.stop();
    let _ = std::fs::remove_file(&file);
}
