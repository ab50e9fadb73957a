//! A round's tables run themselves (PROTOCOL.md §17.3): starting a round opens a
//! room per table with each seat reserved for its entrant, taken only with the entrant's
//! entry code (no code, a wrong one or another entry's: `bad_entry_code`; the right one at
//! another seat, and bots: `seat_reserved`; guesses limited per address), the result is
//! recorded when the game ends, and an entrant absent when the lateness limit passes
//! forfeits (xiangqi 4.1.5). Fast settings: a lateness "minute" of 20 ms.

mod common;

use std::time::Duration;

use common::competition::{
    create_competition, entry_codes, get, login, parse, server_with_director, start_round,
    store_file, until,
};
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
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":3,"seed":5,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":unit_ms});
    let form = "A,xiangqi,,Zhao\nB,xiangqi,,Qian\nC,xiangqi,,Sun\n";
    let id = create_competition(&s, &token, &settings, form).await.0;
    (s, token, id)
}

/// `join_room` at `seat` of `room` with `code` is refused with `expected`.
async fn assert_refused(
    c: &mut Client,
    room: u64,
    seat: Option<u8>,
    code: Option<&str>,
    expected: ErrorCode,
) {
    let seq = c.seq();
    c.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat,
        entry_code: code.map(str::to_owned),
    })
    .await;
    assert_eq!(
        c.error_for(Some(seq)).await.0,
        expected,
        "{code:?} at {seat:?}"
    );
}

/// Nobody sits at `room`: a spectator's snapshot of it.
async fn assert_seats_free(s: &TestServer, room: u64) {
    let mut w = Client::hello(s, "Seat checker").await;
    w.spectate(room).await;
    let ServerMsg::Snapshot { seats, .. } = w.snapshot_msg().await else {
        unreachable!()
    };
    assert!(seats.iter().all(Option::is_none), "{seats:?}");
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
    let codes = entry_codes(&s, &token, id).await;
    let bye = name(&r1["bye"]);

    // Without a code, with a wrong one, or with another entry's (the bye's): refused with
    // `bad_entry_code`. The entrant's own name is nothing without the code; the right code
    // at the other seat is `seat_reserved`. Every seat is still free after all that.
    let bad_code = ErrorCode::BadEntryCode;
    let mut other = Client::hello(&s, "Intruder").await;
    assert_refused(&mut other, room, None, None, bad_code).await;
    assert_refused(&mut other, room, None, Some("AAAA-BBBB-CCCC"), bad_code).await;
    assert_refused(&mut other, room, Some(0), Some(&codes[&bye]), bad_code).await;
    let mut r = Client::hello(&s, &red).await;
    assert_refused(&mut r, room, None, None, bad_code).await;
    let red_code = codes[&red].clone();
    assert_refused(
        &mut r,
        room,
        Some(1),
        Some(&red_code),
        ErrorCode::SeatReserved,
    )
    .await;
    assert_seats_free(&s, room).await;
    // Each entrant sits at their own seat with their code (Red: the first-named entry),
    // typed in lower case without the dashes too.
    let typed = red_code.to_lowercase().replace('-', "");
    r.join_with(room, None, Some(&typed)).await;
    let mut b = Client::hello(&s, "Black's phone").await;
    b.join_with(room, Some(1), Some(&codes[&black])).await;
    // The seat shows the registered name, whatever name its holder said.
    other.spectate(room).await;
    let snapshot = format!("{:?}", other.snapshot_msg().await);
    assert!(snapshot.contains(&format!("{black:?}")), "{snapshot}");
    assert!(!snapshot.contains("Black's phone"), "{snapshot}");
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
    let codes = entry_codes(&s, &token, id).await;
    let black = name(&table["second"]);
    let mut b = Client::hello(&s, &black).await;
    b.join_with(room, Some(1), Some(&codes[&black])).await;
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
    // The table is closed: Black, there, is told why (`table_forfeited`), then `left`.
    // Nobody can sit there any more, so no game played later can change the result.
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Error {
                seq: None,
                code: ErrorCode::TableForfeited,
                ..
            }
        )
    })
    .await;
    b.until(|m| matches!(m, ServerMsg::Left { .. })).await;
    let red = name(&table["first"]);
    let mut r = Client::hello(&s, &red).await;
    assert_refused(
        &mut r,
        room,
        None,
        Some(&codes[&red]),
        ErrorCode::NoSuchRoom,
    )
    .await;
    let again = get(&s, &format!("/api/competitions/{id}/rounds/1")).await.1;
    assert_eq!(again["tables"][0]["result"], "first_forfeits");
    drop(r);
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
    let (file, url) = store_file("tables");
    // Lateness "minutes" of 1 s: nobody forfeits during this test.
    let (s, token, id) = set_up_with(Some(url.clone()), 1000).await;
    let r1 = start_round(&s, &token, id).await;
    let table = r1["tables"][0].clone();
    let room = table["room"].as_u64().unwrap();
    let codes = entry_codes(&s, &token, id).await;
    let (red, black) = (name(&table["first"]), name(&table["second"]));
    let mut b = Client::hello(&s, &black).await;
    b.join_with(room, None, Some(&codes[&black])).await;
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
    // The codes' hashes came back from the store: the same codes, still the only way in.
    let mut other = Client::hello(&s, "Intruder").await;
    assert_refused(&mut other, room, None, None, ErrorCode::BadEntryCode).await;
    assert_refused(
        &mut other,
        room,
        None,
        Some(&codes[&black]),
        ErrorCode::SeatTaken,
    )
    .await;
    // A reconnection needs no code: the session token is enough.
    let _b2 = Client::resume(&s, &b.token).await;
    let mut r = Client::hello(&s, &red).await;
    r.join_with(room, None, Some(&codes[&red])).await;
    r.xq(XiangqiAction::Resign).await;
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        !v["tables"][0]["result"].is_null()
    })
    .await;
    assert_eq!(v["tables"][0]["result"], "second_wins", "{v}");
    s.stop();
    let _ = std::fs::remove_file(&file);
}

/// Guessing codes is limited per address like director logins: after the free failures the
/// address waits (`too_many_attempts`, even with a right code), while another address is
/// not held up.
#[tokio::test]
async fn wrong_codes_are_limited_per_address() {
    let s = server_with_director(|c| {
        c.director.login_free_failures = 3;
        c.director.login_delay_ms = 60_000;
    })
    .await;
    let token = login(&s).await;
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":1,"seed":5,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":60_000});
    let id = create_competition(&s, &token, &settings, "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n")
        .await
        .0;
    let r1 = start_round(&s, &token, id).await;
    let room = r1["tables"][0]["room"].as_u64().unwrap();
    let codes = entry_codes(&s, &token, id).await;
    let red = name(&r1["tables"][0]["first"]);
    let mut guesser = Client::hello(&s, "Guesser").await;
    for guess in ["2222-2222-2222", "3333-3333-3333", "4444-4444-4444"] {
        assert_refused(
            &mut guesser,
            room,
            None,
            Some(guess),
            ErrorCode::BadEntryCode,
        )
        .await;
    }
    assert_refused(
        &mut guesser,
        room,
        None,
        Some(&codes[&red]),
        ErrorCode::TooManyAttempts,
    )
    .await;
    assert_seats_free(&s, room).await;
    let mut r = Client::connect_from(&s, "127.0.0.2")
        .await
        .expect("loopback")
        .say_hello(&red)
        .await;
    r.join_with(room, None, Some(&codes[&red])).await;
}

/// Entry codes never leave through the public pages or the public API: every public
/// answer (JSON decoded, CSV as text) of a competition with a round under way, and the
/// lobby's listing and a spectator's snapshot of its table, are searched for every code.
#[tokio::test]
async fn codes_never_reach_the_public() {
    let (s, token, id) = set_up().await;
    let r1 = start_round(&s, &token, id).await;
    let room = r1["tables"][0]["room"].as_u64().unwrap();
    let codes = entry_codes(&s, &token, id).await;
    let red = name(&r1["tables"][0]["first"]);
    let mut r = Client::hello(&s, &red).await;
    r.join_with(room, None, Some(&codes[&red])).await;
    let mut texts = Vec::new();
    for path in [
        "/api/competitions".to_owned(),
        format!("/api/competitions/{id}"),
        format!("/api/competitions/{id}/entries"),
        format!("/api/competitions/{id}/rounds/1"),
        format!("/api/competitions/{id}/rounds/1.csv"),
        format!("/api/competitions/{id}/standings"),
        format!("/api/competitions/{id}/standings.csv"),
        format!("/api/competitions/{id}/teams"),
        format!("/api/competitions/{id}/awards"),
        format!("/api/competitions/{id}/awards.csv"),
    ] {
        let (status, v) = get(&s, &path).await;
        assert_eq!(status, 200, "{path}: {v}");
        // Every string in the answer, decoded (a JSON escape hides nothing).
        let mut strings = Vec::new();
        collect_strings(&v, &mut strings);
        texts.push((path, strings.join("\n")));
    }
    let mut watcher = Client::hello(&s, "Watcher").await;
    watcher.spectate(room).await;
    texts.push((
        "snapshot".into(),
        format!("{:?}", watcher.snapshot_msg().await),
    ));
    let seq = watcher.seq();
    watcher
        .send(&ClientMsg::ListRooms {
            seq,
            game: None,
            limit: None,
            after: None,
        })
        .await;
    let listed = watcher
        .until(|m| matches!(m, ServerMsg::Rooms { seq: s, .. } if *s == seq))
        .await;
    texts.push(("list_rooms".into(), format!("{listed:?}")));
    assert_eq!(codes.len(), 3);
    for code in codes.values() {
        let bare = code.replace('-', "");
        for (path, text) in &texts {
            assert!(
                !text.contains(code.as_str()) && !text.contains(&bare),
                "{path} shows a code"
            );
        }
    }
    drop((r, token));
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            collect_strings(x, out);
        }),
        other => out.push(other.to_string()),
    }
}

/// A Tuolaji competition of two pairs (one table) whose round lasts 90 "minutes" of 20 ms
/// (`[tuolaji] minute_ms`), lateness "minutes" of `unit_ms`, on the store `store`.
async fn tuolaji_set_up(store: Option<String>, unit_ms: u64) -> (TestServer, String, u64) {
    tuolaji_set_up_with(store, unit_ms, 20).await
}

/// [`tuolaji_set_up`] with the server's Tuolaji minute `minute_ms`.
async fn tuolaji_set_up_with(
    store: Option<String>,
    unit_ms: u64,
    minute_ms: u64,
) -> (TestServer, String, u64) {
    let s = tuolaji_server(store, minute_ms).await;
    let token = login(&s).await;
    let settings = json!({"name":"拖拉机","event":"tuolaji","rounds":1,"seed":7,
        "table_options":{"game":"tuolaji","preset":"competition","deal_interval_ms":0,
            "bid_window_ms":30,"bottom_ms":10000,"turn_ms":10000,"between_hands_ms":0,"trick_pause_ms":0},
        "lateness_unit_ms":unit_ms});
    let form = "A,tuolaji,1,Zhao\nA,tuolaji,1,Qian\nB,tuolaji,1,Sun\nB,tuolaji,1,Li\n";
    let id = create_competition(&s, &token, &settings, form).await.0;
    (s, token, id)
}

async fn tuolaji_server(store: Option<String>, minute_ms: u64) -> TestServer {
    server_with_director(|c| {
        c.tuolaji.house.minute_ms = minute_ms;
        if let Some(url) = store {
            c.store.url = url;
        }
    })
    .await
}

type Codes = std::collections::HashMap<String, String>;

/// The players `who` (side, index in the pair) of `table` sit down with their codes.
async fn sit(s: &TestServer, table: &Value, codes: &Codes, who: &[(&str, usize)]) -> Vec<Client> {
    let room = table["room"].as_u64().unwrap();
    let mut clients = Vec::new();
    for (side, i) in who {
        let name = table[*side]["players"][*i].as_str().unwrap().to_owned();
        let mut c = Client::hello(s, &name).await;
        c.join_with(room, None, Some(&codes[&name])).await;
        clients.push(c);
    }
    clients
}

/// The four players of round 1's table sit down with their codes; returns seat 0's
/// client and how long the round has left by its snapshot (`round_ends_at` −
/// `server_time`, ms).
async fn sit_four(s: &TestServer, table: &Value, codes: &Codes) -> (Vec<Client>, u64) {
    let mut clients = sit(
        s,
        table,
        codes,
        &[("first", 0), ("second", 0), ("first", 1)],
    )
    .await;
    clients.extend(sit(s, table, codes, &[("second", 1)]).await);
    let ServerMsg::Snapshot {
        server_time, view, ..
    } = clients[0].snapshot_msg().await
    else {
        panic!("a snapshot");
    };
    let qipai_protocol::View::Tuolaji(v) = view else {
        panic!("a Tuolaji view");
    };
    let ends = v.round_ends_at.expect("a competition round has an end");
    (clients, ends.saturating_sub(server_time))
}

/// 五(一)3 with 第十三条: the round clock counts from the round's start (the director's
/// "start round"), not from the table's game start: players who sit down 400 ms into a
/// round of 1800 ms have at most 1400 ms left.
#[tokio::test]
async fn the_round_clock_counts_from_the_round_start() {
    let (s, token, id) = tuolaji_set_up(None, 1000).await;
    let r1 = start_round(&s, &token, id).await;
    let codes = entry_codes(&s, &token, id).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (_clients, left) = sit_four(&s, &r1["tables"][0], &codes).await;
    assert!(
        left <= 1400,
        "the round has {left} ms left of 1800 after 400"
    );
    assert!(left > 0);
}

/// The same after a restart: the round clock still counts from the round's start as
/// stored, though the table's room came back from the store before anybody sat.
#[tokio::test]
async fn the_round_clock_counts_from_the_stored_round_start_after_a_restart() {
    let (file, url) = store_file("clock");
    let (s, token, id) = tuolaji_set_up(Some(url.clone()), 1000).await;
    // The server's time line goes on across restarts without the time it was down: let
    // it run past the 400 ms the round is moved back by, so that nothing is clamped at 0.
    tokio::time::sleep(Duration::from_millis(450)).await;
    let r1 = start_round(&s, &token, id).await;
    let codes = entry_codes(&s, &token, id).await;
    // The restarted time line goes on from the last step in the store: let the table log
    // the round's start (its first step) before the stop, or the line would restart near
    // 0 and the round's start, 400 ms before it, would be clamped there.
    tokio::time::sleep(Duration::from_millis(200)).await;
    s.stop();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let s = tuolaji_server(Some(url), 20).await;
    let (_clients, left) = sit_four(&s, &r1["tables"][0], &codes).await;
    assert!(
        left <= 1400,
        "the round has {left} ms left of 1800 after 400"
    );
    s.stop();
    let _ = std::fs::remove_file(&file);
}

/// A lateness ruling is durable: 第十三条's band is applied in the table's start step, so
/// no crash can fall between the start and the ruling. The second pair completes the table
/// 17 "minutes" late (first hand forfeited); the room's log in the store has rulings only
/// before its start step (the round's start, the first pair's band), none after; and after
/// a restart the replayed start shows the band: hand 2, dealt by the first pair one level
/// up.
#[tokio::test]
async fn a_lateness_band_is_part_of_the_start_step() {
    let (file, url) = store_file("band");
    // Lateness "minutes" of 100 ms; the round's own minutes long (nothing ends meanwhile).
    let (s, token, id) = tuolaji_set_up_with(Some(url.clone()), 100, 60_000).await;
    let r1 = start_round(&s, &token, id).await;
    let table = r1["tables"][0].clone();
    let room = table["room"].as_u64().unwrap();
    let codes = entry_codes(&s, &token, id).await;
    let mut clients = sit(&s, &table, &codes, &[("first", 0), ("first", 1)]).await;
    tokio::time::sleep(Duration::from_millis(1_700)).await;
    clients.extend(sit(&s, &table, &codes, &[("second", 0), ("second", 1)]).await);
    let hand_two = |v: &qipai_protocol::View| match v {
        qipai_protocol::View::Tuolaji(v) => (v.hand_number, v.levels),
        _ => panic!("a Tuolaji view"),
    };
    let (_, view) = clients[0].snapshot().await;
    assert_eq!(
        hand_two(&view),
        (2, [3, 2]),
        "第十三条 16~20分钟: first hand forfeited"
    );
    let tokens: Vec<String> = clients.iter().map(|c| c.token.clone()).collect();
    s.stop();
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(clients);

    let store = qipai_store::open(&url).await.expect("the store");
    let log = store
        .unfinished()
        .await
        .expect("the rooms")
        .into_iter()
        .find(|l| l.room.id == room)
        .expect("the table's room");
    let kinds: Vec<qipai_store::StepKind> = log.steps.iter().map(|s| s.kind).collect();
    let start = kinds
        .iter()
        .position(|k| *k == qipai_store::StepKind::Start)
        .expect("a start step");
    assert!(
        start >= 2,
        "the round's start and the first pair's band: {kinds:?}"
    );
    assert!(
        kinds[..start]
            .iter()
            .all(|k| *k == qipai_store::StepKind::Ruling),
        "{kinds:?}"
    );
    assert!(
        !kinds[start..].contains(&qipai_store::StepKind::Ruling),
        "no ruling after the start to lose: {kinds:?}"
    );
    drop(store);

    let s = tuolaji_server(Some(url), 60_000).await;
    let mut c = Client::resume(&s, &tokens[0]).await;
    let (_, view) = c.snapshot().await;
    assert_eq!(
        hand_two(&view),
        (2, [3, 2]),
        "the band came back with the start"
    );
    s.stop();
    let _ = std::fs::remove_file(&file);
}
