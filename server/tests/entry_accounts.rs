//! Entries linked to accounts over real sockets (PROTOCOL.md §17.2b, docs/accounts.md): a
//! signed-in player links their entry by its code once; the account's session then takes
//! the reserved seat without the code, lists the entry with its next table and finds the
//! table's game in its own list; another account, a guest and another site's page are
//! refused; wrong codes count with the entry codes' limiter; the link survives a restart
//! and is undone by the account, a director, a new code and the account's deletion.

mod common;

use std::collections::HashMap;

use common::competition::{
    code, create_competition, get, get_as, login, parse, post_ok, publish_round,
    server_with_director, start_round, store_file,
};
use common::{http, sign_up, Client, TestServer};
use qipai_protocol::xiangqi::XiangqiAction;
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg};
use serde_json::{json, Value};

use common::ACCOUNT_PASSWORD as PASSWORD;

/// A server on the store file `url` with the director and cheap password hashes; `free`
/// wrong entry codes per address.
async fn start(url: &str, free: u32) -> TestServer {
    let url = url.to_owned();
    server_with_director(move |c| {
        c.store.url = url;
        c.director.login_free_failures = free;
        c.director.login_delay_ms = 60_000;
        c.passwords.memory_kib = 64;
        c.passwords.passes = 1;
    })
    .await
}

/// A xiangqi competition of Zhao and Qian: its id and their entry codes by name.
async fn two_players(s: &TestServer, token: &str) -> (u64, HashMap<String, String>) {
    let settings = json!({"name":"象棋","event":"xiangqi","rounds":1,"seed":5,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":60000});
    let form = "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n";
    let (id, imported) = create_competition(s, token, &settings, form).await;
    let codes = imported["codes"]
        .as_array()
        .expect("codes")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().into(),
                c["code"].as_str().unwrap().into(),
            )
        })
        .collect();
    (id, codes)
}

/// `POST path` with `body`, as the account of `session` when given, with extra headers.
async fn post_as(
    s: &TestServer,
    session: Option<&str>,
    path: &str,
    extra: &[&str],
    body: &Value,
) -> (u16, Value) {
    let auth = session.map(|t| format!("Authorization: Bearer {t}"));
    let mut headers: Vec<&str> = auth.iter().map(String::as_str).collect();
    headers.extend_from_slice(extra);
    parse(&http(s, "POST", path, &headers, &body.to_string()).await)
}

/// `POST /api/entry/link` with `code`.
async fn link(s: &TestServer, session: Option<&str>, code: &str, extra: &[&str]) -> (u16, Value) {
    post_as(
        s,
        session,
        "/api/entry/link",
        extra,
        &json!({ "code": code }),
    )
    .await
}

/// The account's linked entries (`GET /api/account/entries`).
async fn entries(s: &TestServer, session: &str) -> Vec<Value> {
    let auth = format!("Authorization: Bearer {session}");
    let (status, v) = parse(&http(s, "GET", "/api/account/entries", &[&auth], "").await);
    assert_eq!(status, 200, "{v}");
    v["entries"].as_array().expect("entries").clone()
}

/// The account linked to each player, by name, in the director's list of entries.
async fn linked(s: &TestServer, token: &str, id: u64) -> HashMap<String, Value> {
    let path = format!("/api/director/competitions/{id}/entries");
    let (status, v) = get_as(s, Some(token), &path).await;
    assert_eq!(status, 200, "{v}");
    v["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .flat_map(|e| e["players"].as_array().expect("players").iter())
        .map(|p| (p["name"].as_str().unwrap().to_owned(), p["account"].clone()))
        .collect()
}

/// `POST /api/entry/unlink`: the account's link in competition `id` undone.
async fn unlink(s: &TestServer, session: &str, id: u64) -> (u16, Value) {
    let body = json!({ "competition": id });
    post_as(s, Some(session), "/api/entry/unlink", &[], &body).await
}

/// `join` at `room` without an entry code: the refusal, if refused.
async fn join_without_code(c: &mut Client, room: u64) -> Option<ErrorCode> {
    let seq = c.seq();
    c.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat: None,
        entry_code: None,
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
        _ => {
            c.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
            None
        }
    }
}

/// 4 connections: about 0.3 s.
#[tokio::test]
async fn a_linked_account_sits_without_the_code_and_finds_the_game() {
    let (_file, url) = store_file("entry_link");
    let s = start(&url, 100).await;
    let token = login(&s).await;
    let (id, codes) = two_players(&s, &token).await;
    let (wang, li) = (sign_up(&s, "王芳").await, sign_up(&s, "李雷").await);
    let (zhao_code, qian_code) = (&codes["Zhao"], &codes["Qian"]);

    // A guest has no account to link to; another site's page may not link anybody's.
    let (status, v) = link(&s, None, zhao_code, &[]).await;
    assert_eq!((status, code(&v)), (401, "account_required"), "{v}");
    let evil = ["Origin: http://evil.example"];
    let (status, v) = link(&s, Some(&wang), zhao_code, &evil).await;
    assert_eq!((status, code(&v)), (403, "cross_origin"), "{v}");
    let (status, v) = link(&s, Some(&wang), "ABCD-EFGH-JKLM", &[]).await;
    assert_eq!((status, code(&v)), (403, "bad_entry_code"), "{v}");
    assert!(entries(&s, &wang).await.is_empty());

    // Linked: the answer is the player's next table, as for the code; twice is once.
    let (status, v) = link(&s, Some(&wang), zhao_code, &[]).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["competition"].as_u64(), v["player_name"].as_str()),
        (Some(id), Some("Zhao"))
    );
    assert_eq!(v["round"], Value::Null, "{v}");
    let (status, _) = link(&s, Some(&wang), &zhao_code.to_lowercase(), &[]).await;
    assert_eq!(status, 200);
    // One account per player, one player per account in a competition.
    let (status, v) = link(&s, Some(&li), zhao_code, &[]).await;
    assert_eq!((status, code(&v)), (409, "entry_linked"), "{v}");
    let (status, v) = link(&s, Some(&wang), qian_code, &[]).await;
    assert_eq!((status, code(&v)), (409, "account_has_entry"), "{v}");

    let mine = entries(&s, &wang).await;
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_eq!(mine[0]["player_name"], "Zhao");
    assert!(entries(&s, &li).await.is_empty());
    // The director sees the account beside the player; the public list does not.
    let by_name = linked(&s, &token, id).await;
    assert_eq!(by_name["Zhao"]["name"], "王芳", "{by_name:?}");
    assert!(by_name["Zhao"]["id"].as_u64().is_some(), "{by_name:?}");
    assert_eq!(by_name["Qian"], Value::Null, "{by_name:?}");
    let (_, public) = get(&s, &format!("/api/competitions/{id}/entries")).await;
    assert!(!public.to_string().contains("王芳"), "{public}");

    // The round: the account's session sits at Zhao's seat without the code, under the
    // registered name; Qian with the code.
    let r1 = start_round(&s, &token, id).await;
    let table = &r1["tables"][0];
    let room = table["room"].as_u64().expect("room");
    let zhao_is_red = table["first"]["players"][0] == "Zhao";
    let next = &entries(&s, &wang).await[0];
    assert_eq!(next["room"].as_u64(), Some(room), "{next}");
    assert_eq!(
        next["seat"].as_u64(),
        Some(if zhao_is_red { 0 } else { 1 }),
        "{next}"
    );
    let mut zhao = Client::signed_in(&s, &wang).await;
    assert_eq!(join_without_code(&mut zhao, room).await, None);
    let mut qian = Client::hello(&s, "Qian").await;
    qian.join_with(room, None, Some(qian_code)).await;
    let (red, black) = if zhao_is_red {
        (&mut zhao, &mut qian)
    } else {
        (&mut qian, &mut zhao)
    };
    red.play("h2e2").await;
    black.play("h9g7").await;
    let seq = black.xq(XiangqiAction::Resign).await;
    assert!(matches!(black.answer(seq).await, ServerMsg::Ok { .. }));

    // The table's game is in the account's own list, under the registered name.
    let auth = format!("Authorization: Bearer {wang}");
    let (status, games) = parse(&http(&s, "GET", "/api/account/games", &[&auth], "").await);
    assert_eq!(status, 200, "{games}");
    let row = &games["games"][0];
    assert_eq!(row["room_id"].as_u64(), Some(room), "{games}");
    assert!(row["players"].to_string().contains("Zhao"), "{games}");
}

/// A wrong code to link counts against the address with the entry codes' other wrong
/// codes: past the free ones, linking and `POST /api/entry` both wait.
#[tokio::test]
async fn wrong_codes_to_link_count_with_the_entry_codes() {
    let (_file, url) = store_file("entry_link_limit");
    let s = start(&url, 2).await;
    let token = login(&s).await;
    let (_, codes) = two_players(&s, &token).await;
    let wang = sign_up(&s, "王芳").await;
    for _ in 0..2 {
        let (status, v) = link(&s, Some(&wang), "2222-3333-4444", &[]).await;
        assert_eq!((status, code(&v)), (403, "bad_entry_code"), "{v}");
    }
    let (status, v) = link(&s, Some(&wang), &codes["Zhao"], &[]).await;
    assert_eq!((status, code(&v)), (429, "too_many_attempts"), "{v}");
    let body = json!({ "code": codes["Zhao"] }).to_string();
    let (status, v) = parse(&http(&s, "POST", "/api/entry", &[], &body).await);
    assert_eq!((status, code(&v)), (429, "too_many_attempts"), "{v}");
}

/// One restart, 5 connections: about 0.5 s.
#[tokio::test]
async fn a_link_survives_a_restart_and_is_undone() {
    let (_file, url) = store_file("entry_link_restart");
    let s = start(&url, 100).await;
    let token = login(&s).await;
    let (id, codes) = two_players(&s, &token).await;
    let wang = sign_up(&s, "王芳").await;
    assert_eq!(link(&s, Some(&wang), &codes["Zhao"], &[]).await.0, 200);

    s.stop();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let s = start(&url, 100).await;
    let token = login(&s).await;
    assert_eq!(entries(&s, &wang).await.len(), 1, "the link was kept");
    assert_eq!(linked(&s, &token, id).await["Zhao"]["name"], "王芳");
    let room = publish_round(&s, &token, id).await["tables"][0]["room"]
        .as_u64()
        .expect("room");
    let mut zhao = Client::signed_in(&s, &wang).await;
    assert_eq!(join_without_code(&mut zhao, room).await, None);
    zhao.leave().await;

    // The account undoes its own link: the seat wants the code again.
    let (status, v) = unlink(&s, &wang, id).await;
    assert_eq!(status, 200, "{v}");
    assert!(entries(&s, &wang).await.is_empty());
    let (status, v) = unlink(&s, &wang, id).await;
    assert_eq!((status, code(&v)), (404, "not_found"), "{v}");
    assert_eq!(
        join_without_code(&mut zhao, room).await,
        Some(ErrorCode::BadEntryCode)
    );

    // A director undoes it.
    assert_eq!(link(&s, Some(&wang), &codes["Zhao"], &[]).await.0, 200);
    let zhao_at =
        |what: &str| format!("/api/director/competitions/{id}/entries/0/players/0/{what}");
    let zhao_entry = linked(&s, &token, id).await;
    assert_eq!(zhao_entry["Zhao"]["name"], "王芳", "entry 0 is Zhao's");
    let v = post_ok(&s, &token, &zhao_at("unlink"), "").await;
    assert_eq!(v["unlinked"], true, "{v}");
    assert!(entries(&s, &wang).await.is_empty());

    // A new code undoes it: the link was proved with the old one.
    assert_eq!(link(&s, Some(&wang), &codes["Zhao"], &[]).await.0, 200);
    let v = post_ok(&s, &token, &zhao_at("code"), "").await;
    let new_code = v["code"]["code"].as_str().expect("new code").to_owned();
    assert!(entries(&s, &wang).await.is_empty());
    let (status, v) = link(&s, Some(&wang), &codes["Zhao"], &[]).await;
    assert_eq!((status, code(&v)), (403, "bad_entry_code"), "{v}");

    // Deleting the account undoes it: the player is free for another account.
    assert_eq!(link(&s, Some(&wang), &new_code, &[]).await.0, 200);
    let body = json!({ "password": PASSWORD });
    let (status, v) = post_as(&s, Some(&wang), "/api/account/delete", &[], &body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(linked(&s, &token, id).await["Zhao"], Value::Null);
    let li = sign_up(&s, "李雷").await;
    assert_eq!(link(&s, Some(&li), &new_code, &[]).await.0, 200);
    assert_eq!(linked(&s, &token, id).await["Zhao"]["name"], "李雷");
}
