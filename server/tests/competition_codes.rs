//! Entry codes (tournaments.md "Who sits where"): the store keeps only their SHA-256, a
//! director sees each once (in the answer that issued it), may reissue one (the old code
//! stops working at once, at an open table too), codes kept in clear by an older server are
//! hashed when the store is loaded, and a player asks with their code where they play next
//! (`POST /api/entry`; a wrong code is `bad_entry_code`, repeated ones `too_many_attempts`).

mod common;

use common::competition::{
    code, create_competition, get, login, post, post_ok, server_with_director, start_round,
    store_file,
};
use common::{Client, TestServer};
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg};
use qipai_store::competition::CompetitionWrite;
use serde_json::{json, Value};

/// A server on the store file `url` with the director; `free` wrong codes per address.
async fn start(url: &str, free: u32) -> TestServer {
    let url = url.to_owned();
    server_with_director(move |c| {
        c.store.url = url;
        c.director.login_free_failures = free;
        c.director.login_delay_ms = 60_000;
    })
    .await
}

/// A server on `url` (`free` wrong codes per address), a director's token, and a xiangqi
/// competition of three players: its id and the import's answer (with the codes issued).
async fn set_up(url: &str, free: u32) -> (TestServer, String, u64, Value) {
    let s = start(url, free).await;
    let token = login(&s).await;
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":3,"seed":5,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":1000});
    let form = "A,xiangqi,,Zhao\nB,xiangqi,,Qian 13700000001\nC,xiangqi,,Sun\n";
    let (id, imported) = create_competition(&s, &token, &settings, form).await;
    (s, token, id, imported)
}

/// Round 1's only table (three players: one has the bye).
struct Table1 {
    room: u64,
    red: String,
    red_entry: u32,
    black: String,
}

/// Starts round 1: its table.
async fn round_one(s: &TestServer, token: &str, id: u64) -> Table1 {
    let r1 = start_round(s, token, id).await;
    let table = &r1["tables"][0];
    let name = |side: &str| table[side]["players"][0].as_str().unwrap().to_owned();
    Table1 {
        room: table["room"].as_u64().unwrap(),
        red: name("first"),
        red_entry: u32::try_from(table["first"]["entry"].as_u64().unwrap()).unwrap(),
        black: name("second"),
    }
}

/// Stops `s` and starts a server on the same store.
async fn restart(s: TestServer, url: &str) -> TestServer {
    s.stop();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    start(url, 100).await
}

/// The contacts JSON of every entry of every competition, as the store holds it.
async fn raw_contacts(url: &str) -> Vec<String> {
    let store = qipai_store::open(url).await.unwrap();
    let logs = store.competitions().await.unwrap();
    logs.into_iter()
        .flat_map(|l| l.entries.into_iter().map(|e| e.contacts))
        .collect()
}

fn assert_not_in_clear(rows: &[String], codes: &[String]) {
    for code in codes {
        let bare = code.replace('-', "");
        for row in rows {
            assert!(
                !row.contains(code.as_str()) && !row.contains(&bare),
                "{row}"
            );
        }
    }
}

/// `join_room` at `room` with `code`: the error, if refused.
async fn join(c: &mut Client, room: u64, code: &str) -> Option<ErrorCode> {
    let seq = c.seq();
    c.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat: None,
        entry_code: Some(code.to_owned()),
    })
    .await;
    let answer = c
        .until(|m| match m {
            ServerMsg::Joined { .. } => true,
            ServerMsg::Error { seq: s, .. } => *s == Some(seq),
            _ => false,
        })
        .await;
    match answer {
        ServerMsg::Error { code, .. } => Some(code),
        _ => None,
    }
}

/// 8 connections, one restart: about 0.3 s.
#[tokio::test]
async fn codes_are_stored_hashed_shown_once_and_reissued() {
    let (file, url) = store_file("hashed");
    let (s, token, id, imported) = set_up(&url, 100).await;
    let codes: std::collections::HashMap<String, String> = imported["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().into(),
                c["code"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(codes.len(), 3, "{imported}");
    let csv = imported["codes_csv"].as_str().unwrap();
    assert!(
        csv.starts_with("competition,team,pair_number,entry,name,code\n"),
        "{csv}"
    );
    for (name, code) in &codes {
        assert!(csv.contains(&format!(",{name},{code}\n")), "{csv}");
    }
    // The store holds their hashes only; the director's list no longer shows them.
    let all: Vec<String> = codes.values().cloned().collect();
    let rows = raw_contacts(&url).await;
    assert_eq!(rows.len(), 3);
    assert_not_in_clear(&rows, &all);
    assert!(rows.iter().all(|r| r.contains("code_hash")), "{rows:?}");
    let (_, listed) = common::competition::get_as(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{id}/entries"),
    )
    .await;
    assert!(!listed.to_string().contains(&codes["Zhao"]), "{listed}");

    let Table1 {
        room,
        red,
        red_entry,
        black,
    } = round_one(&s, &token, id).await;
    // Reissue: refused without the director's session, with a stable code; nothing changes.
    let reissue = format!("/api/director/competitions/{id}/entries/{red_entry}/players/0/code");
    let (status, v) = post(&s, None, &reissue, "").await;
    assert_eq!((status, code(&v)), (401, "director_required"), "{v}");
    let (status, v) = post(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{id}/entries/{red_entry}/players/1/code"),
        "",
    )
    .await;
    assert_eq!((status, code(&v)), (400, "bad_request_body"), "{v}");
    // With it: a new code; the old one no longer seats Red at the table already open.
    let v = post_ok(&s, &token, &reissue, "").await;
    let new_red = v["code"]["code"].as_str().unwrap().to_owned();
    assert_eq!(v["code"]["name"], red.as_str());
    assert!(v["codes_csv"].as_str().unwrap().contains(&new_red));
    assert_ne!(new_red, codes[&red]);
    let mut r = Client::hello(&s, &red).await;
    assert_eq!(
        join(&mut r, room, &codes[&red]).await,
        Some(ErrorCode::BadEntryCode)
    );
    assert_eq!(
        join(&mut r, room, &new_red).await,
        None,
        "the new code seats Red"
    );
    let rows = raw_contacts(&url).await;
    assert_not_in_clear(&rows, &[new_red.clone(), codes[&red].clone()]);
    // After a restart the codes (from their hashes) still work: Black's imported one.
    let s = restart(s, &url).await;
    let mut b = Client::hello(&s, &black).await;
    assert_eq!(join(&mut b, room, &codes[&black]).await, None);
    s.stop();
    let _ = std::fs::remove_file(&file);
}

/// A store written by a server that kept codes in clear is hashed when loaded: the raw
/// rows lose the codes, and the codes still seat their holders. About 0.3 s.
#[tokio::test]
async fn codes_kept_in_clear_are_hashed_on_load() {
    let (file, url) = store_file("legacy");
    let (s, token, id, _) = set_up(&url, 100).await;
    let Table1 {
        room,
        red,
        red_entry,
        ..
    } = round_one(&s, &token, id).await;
    s.stop();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    // What an older server wrote: the code in clear in the contacts.
    let legacy = "WXYZ-2345-6789";
    let store = qipai_store::open(&url).await.unwrap();
    store
        .competition_write(vec![CompetitionWrite::EntryContacts {
            competition: id,
            index: red_entry,
            contacts: json!([{ "phone": "", "joined_group": "", "code": legacy }]).to_string(),
        }])
        .await
        .unwrap();
    drop(store);

    let s = start(&url, 100).await;
    // (The server answers once the store is loaded.)
    let mut r = Client::hello(&s, &red).await;
    assert_eq!(
        join(&mut r, room, "wxyz23456789").await,
        None,
        "the old code, hashed"
    );
    let rows = raw_contacts(&url).await;
    assert_not_in_clear(&rows, &[legacy.to_owned()]);
    assert!(rows.iter().all(|r| r.contains("code_hash")), "{rows:?}");
    s.stop();
    let _ = std::fs::remove_file(&file);
}

/// `POST /api/entry`: the holder of a code learns their next table (competition, round,
/// table, seat, room); a wrong code is `bad_entry_code`, and past the free failures the
/// address waits (`too_many_attempts`, for joining with a code too). About 0.2 s.
#[tokio::test]
async fn a_code_tells_its_holder_the_next_table() {
    let (file, url) = store_file("next");
    let (s, token, id, imported) = set_up(&url, 2).await;
    let code_of = |name: &str| {
        imported["codes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()["code"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    // Before round 1: the competition, no table yet.
    let ask = |c: &str| json!({ "code": c }).to_string();
    let (status, v) = post(&s, None, "/api/entry", &ask(&code_of("Zhao"))).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["competition"].as_u64(), v["player_name"].as_str()),
        (Some(id), Some("Zhao"))
    );
    assert!(v["round"].is_null(), "{v}");
    let r1 = start_round(&s, &token, id).await;
    let table = &r1["tables"][0];
    let black = table["second"]["players"][0].as_str().unwrap();
    let (status, v) = post(&s, None, "/api/entry", &ask(&code_of(black).to_lowercase())).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["round"], 1);
    assert_eq!(v["table"], table["table"]);
    assert_eq!(v["seat"], 1, "Black");
    assert_eq!(v["room"], table["room"]);
    assert_eq!(v["status"], "waiting");
    assert!(
        !v.to_string().contains(&code_of(black)),
        "the answer does not repeat the code"
    );
    let bye = r1["bye"]["players"][0].as_str().unwrap();
    let v = post(&s, None, "/api/entry", &ask(&code_of(bye))).await.1;
    assert_eq!(v["bye"], true, "{v}");
    assert!(v["table"].is_null(), "{v}");

    // Wrong codes: refused; the second (the last free one) makes the address wait, for
    // joining by code too. A right code between them does not clear the count (the page
    // asks every few seconds).
    for i in 0..2 {
        if i == 1 {
            assert_eq!(
                post(&s, None, "/api/entry", &ask(&code_of(bye))).await.0,
                200
            );
        }
        let (status, v) = post(&s, None, "/api/entry", &ask("AAAA-BBBB-CCCC")).await;
        assert_eq!((status, code(&v)), (403, "bad_entry_code"), "{v}");
    }
    let (status, v) = post(&s, None, "/api/entry", &ask(&code_of(black))).await;
    assert_eq!((status, code(&v)), (429, "too_many_attempts"), "{v}");
    let mut b = Client::hello(&s, black).await;
    let room = table["room"].as_u64().unwrap();
    assert_eq!(
        join(&mut b, room, &code_of(black)).await,
        Some(ErrorCode::TooManyAttempts)
    );
    // Nothing public answers it: `/api/entry` takes only `POST`.
    assert_eq!(get(&s, "/api/entry").await.0, 405);
    s.stop();
    let _ = std::fs::remove_file(&file);
}
