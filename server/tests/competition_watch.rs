//! A competition watched over the WebSocket (PROTOCOL.md §17.4): `watch_competition` answers `ok`, then
//! `competition_changed` for every change to that competition (import, round, table status,
//! result, correction) and for nothing else; an unknown id is `unknown_competition`; one
//! watch per connection (a second replaces the first); `unwatch_competition` ends it.

mod common;

use std::time::Duration;

use common::competition::{entry_codes, login, post_ok, server_with_director, start_round};
use common::{Client, TestServer};
use qipai_protocol::xiangqi::XiangqiAction;
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg};
use serde_json::json;

/// How long "nothing comes" is waited for.
const QUIET: Duration = Duration::from_millis(150);

async fn create(s: &TestServer, token: &str, name: &str) -> u64 {
    let c = post_ok(
        s,
        token,
        "/api/director/competitions",
        &json!({"name": name, "event": "xiangqi", "rounds": 2, "seed": 3,
                "table_options": {"game": "xiangqi"}})
        .to_string(),
    )
    .await;
    c["id"].as_u64().unwrap()
}

async fn import(s: &TestServer, token: &str, id: u64, form: &str) {
    post_ok(
        s,
        token,
        &format!("/api/director/competitions/{id}/entries"),
        form,
    )
    .await;
}

/// Sends `watch_competition` for `id`; returns its `seq`.
async fn ask_to_watch(c: &mut Client, id: u64) -> u64 {
    let seq = c.seq();
    c.send(&ClientMsg::WatchCompetition {
        seq,
        competition_id: id,
    })
    .await;
    seq
}

/// An arbiter's correction of round 1, table 1 of `id`.
async fn correct(s: &TestServer, token: &str, id: u64, result: &str, reason: &str) {
    let body = json!({"round": 1, "table": 1, "result": result, "reason": reason});
    post_ok(
        s,
        token,
        &format!("/api/director/competitions/{id}/corrections"),
        &body.to_string(),
    )
    .await;
}

/// Watches `id`; waits for the `ok`.
async fn watch(c: &mut Client, id: u64) {
    let seq = ask_to_watch(c, id).await;
    c.until(|m| matches!(m, ServerMsg::Ok { seq: s } if *s == seq))
        .await;
}

/// Watching `id` is refused with `unknown_competition`.
async fn refused_watch(c: &mut Client, id: u64) {
    let seq = ask_to_watch(c, id).await;
    assert_eq!(
        c.error_for(Some(seq)).await.0,
        ErrorCode::UnknownCompetition
    );
}

/// The next message is `competition_changed` for `id`; returns its version.
async fn changed(c: &mut Client, id: u64) -> u64 {
    match c.recv().await {
        ServerMsg::CompetitionChanged {
            competition_id,
            version,
        } => {
            assert_eq!(competition_id, id);
            version
        }
        other => panic!("expected competition_changed for {id}, got {other:?}"),
    }
}

/// Nothing arrives for a while.
async fn quiet(c: &mut Client) {
    let got = c.try_recv(QUIET).await;
    assert!(got.is_none(), "unexpected {got:?}");
}

/// A server with a director, two xiangqi competitions `a` and `b`, and a page's connection.
async fn set_up() -> (TestServer, String, u64, u64, Client) {
    let s = server_with_director(|_| {}).await;
    let token = login(&s).await;
    let a = create(&s, &token, "A").await;
    let b = create(&s, &token, "B").await;
    let page = Client::hello(&s, "Page").await;
    (s, token, a, b, page)
}

#[tokio::test]
async fn a_watcher_is_told_of_every_change_to_its_competition_and_of_no_other() {
    let (s, token, a, b, mut page) = set_up().await;
    watch(&mut page, a).await;

    // Another competition's changes are not told.
    import(&s, &token, b, "X,xiangqi,,Xu\nY,xiangqi,,Yu\n").await;
    quiet(&mut page).await;

    // Entries, then a round: each told once, the version rising.
    import(&s, &token, a, "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n").await;
    let v1 = changed(&mut page, a).await;
    let round = start_round(&s, &token, a).await;
    let v2 = changed(&mut page, a).await;
    assert!(v2 > v1);
    // Opening the table's room is a change too (its room is noted).
    let mut seen = v2;
    while let Some(ServerMsg::CompetitionChanged { version, .. }) = page.try_recv(QUIET).await {
        assert!(version >= seen);
        seen = version;
    }

    // The table's status: both entrants sit down, the game starts (waiting → playing),
    // which the change feed does not carry: the watch tells it from the room.
    let table = &round["tables"][0];
    let room = table["room"].as_u64().expect("an open room");
    let red = table["first"]["players"][0].as_str().unwrap().to_owned();
    let black = table["second"]["players"][0].as_str().unwrap().to_owned();
    let codes = entry_codes(&s, &token, a).await;
    let mut r = Client::hello(&s, &red).await;
    r.join_with(room, None, Some(&codes[&red])).await;
    let mut k = Client::hello(&s, &black).await;
    k.join_with(room, None, Some(&codes[&black])).await;
    changed(&mut page, a).await;

    // The game ends: its result is recorded, and told.
    r.xq(XiangqiAction::Resign).await;
    let mut told = 0;
    while let Some(msg) = page.try_recv(QUIET * 2).await {
        assert!(
            matches!(msg, ServerMsg::CompetitionChanged { competition_id, .. } if competition_id == a),
            "{msg:?}"
        );
        told += 1;
    }
    assert!(told >= 1, "the result was not told");

    // A correction is told.
    correct(&s, &token, a, "draw", "arbiter: clock fault").await;
    changed(&mut page, a).await;

    // After `unwatch_competition`, nothing more.
    let seq = page.seq();
    page.send(&ClientMsg::UnwatchCompetition { seq }).await;
    assert!(matches!(page.recv().await, ServerMsg::Ok { seq: s } if s == seq));
    correct(&s, &token, a, "first_wins", "arbiter: back again").await;
    quiet(&mut page).await;
}

#[tokio::test]
async fn an_unknown_competition_is_refused_and_a_second_watch_replaces_the_first() {
    let (s, token, a, b, mut page) = set_up().await;

    refused_watch(&mut page, 999).await;

    // Watching a, then b: only b's changes are told.
    watch(&mut page, a).await;
    watch(&mut page, b).await;
    import(&s, &token, a, "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n").await;
    quiet(&mut page).await;
    import(&s, &token, b, "X,xiangqi,,Xu\nY,xiangqi,,Yu\n").await;
    changed(&mut page, b).await;

    // A refused watch leaves the one in place.
    refused_watch(&mut page, 12345).await;
    start_round(&s, &token, b).await;
    changed(&mut page, b).await;
}

/// Many watch requests on one connection hold one watch: the server keeps answering and
/// only the last competition is told.
#[tokio::test]
async fn watching_again_and_again_holds_one_watch() {
    let (s, token, a, b, mut page) = set_up().await;
    for i in 0..200 {
        watch(&mut page, if i % 2 == 0 { a } else { b }).await;
    }
    import(&s, &token, a, "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n").await;
    quiet(&mut page).await;
    import(&s, &token, b, "X,xiangqi,,Xu\nY,xiangqi,,Yu\n").await;
    changed(&mut page, b).await;
    quiet(&mut page).await;
}
