//! Competitions over HTTP (PROTOCOL.md "Competitions over HTTP"): directors sign in
//! and every director action is refused without a valid session, with a stable code; the
//! public pages never show contacts; results, corrections, standings, team totals, awards
//! and CSV exports; everything survives a restart on the store.

mod common;

use common::competition::{
    code, get, get_as, login, parse, post, server_with_director as server, PASSWORD,
};
use common::{http, TestServer};
use serde_json::{json, Value};

/// A login with this name and password is refused with `bad_credentials`.
async fn assert_refused_login(s: &TestServer, name: &str, password: &str) {
    let body = json!({ "name": name, "password": password }).to_string();
    let (status, v) = post(s, None, "/api/director/login", &body).await;
    assert_eq!((status, code(&v)), (401, "bad_credentials"), "{name}");
}

/// Five Tuolaji pairs (odd: a bye each round) and three xiangqi players in three
/// departments, with contacts on some lines.
const FORM: &str = "department,event,pair,name,phone,joined_group
工会甲,tuolaji,1,张一,13800000001,是
工会甲,tuolaji,1,张二,,
工会甲,tuolaji,2,张三,,
工会甲,tuolaji,2,张四,,
工会乙,tuolaji,1,李一,13900000002,否
工会乙,tuolaji,1,李二,,
工会乙,tuolaji,2,李三,,
工会乙,tuolaji,2,李四,,
工会丙,tuolaji,1,王一,,
工会丙,tuolaji,1,王二,,
工会甲,xiangqi,,赵一,13700000003,是
工会乙,xiangqi,,钱一,,
工会丙,xiangqi,,孙一,,
";

/// Every director action, refused without a session and with a wrong one, with
/// `director_required`; a wrong password is `bad_credentials`; nothing changes.
#[tokio::test]
async fn every_director_action_is_refused_without_a_session() {
    let s = server(|_| {}).await;
    assert_refused_login(&s, "director", "guess").await;
    assert_refused_login(&s, "someone", PASSWORD).await;
    let token = login(&s).await;
    let (_, created) = post(
        &s,
        Some(&token),
        "/api/director/competitions",
        r#"{"name":"cup","event":"tuolaji","seed":1}"#,
    )
    .await;
    let id = created["id"].as_u64().expect("an id");
    let actions: Vec<(&str, String, &str)> = vec![
        (
            "POST",
            "/api/director/competitions".into(),
            r#"{"name":"x","event":"xiangqi"}"#,
        ),
        (
            "POST",
            format!("/api/director/competitions/{id}/entries"),
            FORM,
        ),
        (
            "GET",
            format!("/api/director/competitions/{id}/entries"),
            "",
        ),
        (
            "POST",
            format!("/api/director/competitions/{id}/rounds"),
            "",
        ),
        (
            "POST",
            format!("/api/director/competitions/{id}/results"),
            r#"{"round":1,"table":1,"result":"draw"}"#,
        ),
        (
            "POST",
            format!("/api/director/competitions/{id}/corrections"),
            r#"{"round":1,"table":1,"result":"draw","reason":"r"}"#,
        ),
        (
            "POST",
            format!("/api/director/competitions/{id}/entries/0/players/0/code"),
            "",
        ),
        ("GET", "/api/director/qr.svg?text=x".into(), ""),
        ("POST", "/api/director/logout".into(), ""),
        ("GET", "/api/director/anything".into(), ""),
    ];
    let wrong = [
        vec![],
        vec!["Authorization: Bearer 0123456789abcdef".to_string()],
        vec![format!("Cookie: qipai_director={}x", token)],
        vec!["Authorization: Basic ZGlyZWN0b3I6Z3Vlc3M=".to_string()],
    ];
    for (method, path, body) in &actions {
        for headers in &wrong {
            let h: Vec<&str> = headers.iter().map(String::as_str).collect();
            let (status, v) = parse(&http(&s, method, path, &h, body).await);
            assert_eq!(
                (status, code(&v)),
                (401, "director_required"),
                "{method} {path} with {headers:?}: {v}"
            );
        }
    }
    // Nothing changed: one competition, no entries, no round.
    let (_, list) = get(&s, "/api/competitions").await;
    assert_eq!(list["competitions"].as_array().map(Vec::len), Some(1));
    let (_, c) = get(&s, &format!("/api/competitions/{id}")).await;
    assert_eq!(
        (c["entries"].as_u64(), c["rounds_paired"].as_u64()),
        (Some(0), Some(0))
    );
    // The cookie works like the bearer token; after logout neither does.
    let cookie = format!("Cookie: qipai_director={token}");
    let (status, _) = parse(
        &http(
            &s,
            "GET",
            &format!("/api/director/competitions/{id}/entries"),
            &[&cookie],
            "",
        )
        .await,
    );
    assert_eq!(status, 200);
    let (status, _) = post(&s, Some(&token), "/api/director/logout", "").await;
    assert_eq!(status, 200);
    let (status, v) = post(
        &s,
        Some(&token),
        "/api/director/competitions",
        r#"{"name":"y","event":"xiangqi"}"#,
    )
    .await;
    assert_eq!((status, code(&v)), (401, "director_required"));
}

/// With no password hash configured nobody is a director.
#[tokio::test]
async fn no_configured_hash_means_no_director() {
    let s = server(|c| c.director.password_hash = String::new()).await;
    assert_refused_login(&s, "director", "").await;
}

/// Creates the Tuolaji competition and its xiangqi partner, imports the form; returns the ids.
async fn set_up(s: &TestServer, token: &str) -> (u64, u64) {
    let (status, t) = post(
        s,
        Some(token),
        "/api/director/competitions",
        r#"{"name":"工会杯 拖拉机","event":"tuolaji","rounds":3,"seed":42}"#,
    )
    .await;
    assert_eq!(status, 200, "{t}");
    let t = t["id"].as_u64().unwrap();
    let (status, x) = post(
        s,
        Some(token),
        "/api/director/competitions",
        &json!({"name":"工会杯 象棋","event":"xiangqi","rounds":3,"seed":43,"partner":t})
            .to_string(),
    )
    .await;
    assert_eq!(status, 200, "{x}");
    let x = x["id"].as_u64().unwrap();
    let (status, v) = post(
        s,
        Some(token),
        &format!("/api/director/competitions/{t}/entries"),
        FORM,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["imported"].as_u64(), v["imported_into_partner"].as_u64()),
        (Some(5), Some(3))
    );
    (t, x)
}

#[tokio::test]
async fn a_director_runs_a_small_event() {
    let s = server(|_| {}).await;
    let token = login(&s).await;
    let tok = Some(token.as_str());
    let (t, x) = set_up(&s, &token).await;

    // 不得兼项 across the partners: a Tuolaji player entering xiangqi is refused, whole.
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{x}/entries"),
        "工会甲,xiangqi,,张一\n工会丙,xiangqi,,新人\n",
    )
    .await;
    assert_eq!((status, code(&v)), (409, "already_entered"), "{v}");
    let (_, xs) = get(&s, &format!("/api/competitions/{x}")).await;
    assert_eq!(xs["entries"].as_u64(), Some(3), "nothing of a refused form");
    // A malformed form names its line.
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{x}/entries"),
        "工会丙,poker,,某人\n",
    )
    .await;
    assert_eq!((status, code(&v)), (400, "bad_entry_form"));
    assert!(
        v["error"]["message"].as_str().unwrap().contains("line 1"),
        "{v}"
    );

    // Contacts: the directors' list has them, the public one never.
    let (_, public) = get(&s, &format!("/api/competitions/{t}/entries")).await;
    let text = public.to_string();
    assert!(
        text.contains("张一") && !text.contains("13800000001") && !text.contains("phone"),
        "{text}"
    );
    let (_, private) = get_as(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{t}/entries"),
    )
    .await;
    assert!(private.to_string().contains("13800000001"), "{private}");
    for path in [
        "",
        "/standings",
        "/teams",
        "/awards",
        "/awards.csv",
        "/standings.csv",
    ] {
        let body = http(&s, "GET", &format!("/api/competitions/{t}{path}"), &[], "").await;
        assert!(
            !body.contains("13800000001") && !body.contains("13700000003"),
            "{path}: {body}"
        );
    }

    // Before any game is played, team totals rank the teams but give no award places.
    let (_, teams) = get(&s, &format!("/api/competitions/{t}/teams")).await;
    let list = teams["teams"].as_array().unwrap();
    assert!(!list.is_empty());
    assert!(list.iter().all(|t| t["award"].is_null()), "{teams}");
    let (_, awards) = get(&s, &format!("/api/competitions/{t}/awards")).await;
    assert_eq!(awards["teams"], json!([]), "{awards}");

    // Round 1: five pairs, two tables and a bye; replayable from the recorded seed.
    let (status, r1) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/rounds"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{r1}");
    let tables = r1["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 2);
    assert!(r1["bye"]["entry"].is_u64());
    assert!(tables.iter().all(|tb| tb["status"] == "waiting"));
    // Entries close once a round is paired.
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/entries"),
        "工会丙,tuolaji,2,甲,\n工会丙,tuolaji,2,乙,\n",
    )
    .await;
    assert_eq!((status, code(&v)), (409, "entries_closed"));
    // Round 2 waits for every result.
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/rounds"),
        "",
    )
    .await;
    assert_eq!((status, code(&v)), (409, "round_unfinished"));
    let record = |table: u64, result: &str| {
        json!({"round":1,"table":table,"result":result,"note":"on time"}).to_string()
    };
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/results"),
        &record(1, "first_wins"),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/results"),
        &record(1, "draw"),
    )
    .await;
    assert_eq!(
        (status, code(&v)),
        (400, "bad_request_body"),
        "a result is changed by a correction"
    );
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/results"),
        &record(9, "draw"),
    )
    .await;
    assert_eq!((status, code(&v)), (404, "unknown_table"));
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/results"),
        &json!({"round":1,"table":2,"result":"won"}).to_string(),
    )
    .await;
    assert_eq!((status, code(&v)), (400, "bad_request_body"));
    post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/results"),
        &record(2, "second_forfeits"),
    )
    .await;

    // 仲裁: a correction needs a reason, and is kept and shown with its author.
    let (status, v) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/corrections"),
        r#"{"round":1,"table":1,"result":"draw","reason":"  "}"#,
    )
    .await;
    assert_eq!((status, code(&v)), (400, "missing_reason"));
    let (status, _) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/corrections"),
        r#"{"round":1,"table":1,"result":"draw","reason":"记分错误"}"#,
    )
    .await;
    assert_eq!(status, 200);
    let (_, summary) = get(&s, &format!("/api/competitions/{t}")).await;
    assert_eq!(
        summary["corrections"],
        json!([{"round":1,"table":1,"before":"first_wins","after":"draw","reason":"记分错误","author":"director","at_ms":summary["corrections"][0]["at_ms"]}])
    );

    // Standings: computed here from the rules (tournaments.md): draw 1/0, forfeit 2/+2 and
    // 0/−2, the bye 2/+2 and no 对手分.
    let (_, standings) = get(&s, &format!("/api/competitions/{t}/standings")).await;
    let rows = standings["standings"].as_array().unwrap();
    let by_entry = |e: &Value| rows.iter().find(|r| r["entry"] == *e).unwrap().clone();
    let (a, b) = (
        tables[0]["first"]["entry"].clone(),
        tables[0]["second"]["entry"].clone(),
    );
    let (c, d) = (
        tables[1]["first"]["entry"].clone(),
        tables[1]["second"]["entry"].clone(),
    );
    let bye = r1["bye"]["entry"].clone();
    let points = |e: &Value| by_entry(e)["points"].as_u64().unwrap();
    assert_eq!(
        [points(&a), points(&b), points(&c), points(&d), points(&bye)],
        [1, 1, 2, 0, 2]
    );
    assert_eq!(by_entry(&c)["level_diff"], 2);
    assert_eq!(by_entry(&d)["level_diff"], -2);
    assert_eq!(by_entry(&bye)["opponents_points"], 0);
    assert_eq!(
        by_entry(&a)["opponents_points"],
        1,
        "对手分: the opponent's points"
    );
    assert_eq!(by_entry(&d)["played"], 0, "a forfeit is not a game played");
    let ranks: Vec<u64> = rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, [1, 2, 3, 4, 5]);
    for w in rows.windows(2) {
        let key = |r: &Value| {
            (
                r["points"].as_u64(),
                r["opponents_points"].as_u64(),
                r["level_diff"].as_i64(),
            )
        };
        assert!(key(&w[0]) >= key(&w[1]), "ranked by points, 对手分, 级差");
    }

    // Round 2 pairs with no rematch, the bye to someone who has not had it.
    let (status, r2) = post(
        &s,
        tok,
        &format!("/api/director/competitions/{t}/rounds"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{r2}");
    assert_ne!(r2["bye"]["entry"], bye);
    let met = [(a.clone(), b.clone()), (c.clone(), d.clone())];
    for tb in r2["tables"].as_array().unwrap() {
        let pair = (tb["first"]["entry"].clone(), tb["second"]["entry"].clone());
        assert!(
            !met.iter()
                .any(|(x, y)| (x == &pair.0 && y == &pair.1) || (x == &pair.1 && y == &pair.0)),
            "rematch {pair:?}"
        );
    }

    // Exports: CSV with headers, printable pairings.
    let pairings = http(
        &s,
        "GET",
        &format!("/api/competitions/{t}/rounds/1.csv"),
        &[],
        "",
    )
    .await;
    assert!(pairings.contains("text/csv"), "{pairings}");
    assert!(pairings.contains(
        "round,table,first_team,first_players,first_seats,second_team,second_players,second_seats,result"
    ));
    assert!(pairings.contains(",bye,"), "the bye is listed");
    let csv = http(
        &s,
        "GET",
        &format!("/api/competitions/{t}/standings.csv"),
        &[],
        "",
    )
    .await;
    assert!(csv.contains(
        "rank,entry,team,players,points,opponents_points,level_diff,lot,played,byes,award"
    ));

    // Teams: each department's two best entries over both events.
    let (_, teams) = get(&s, &format!("/api/competitions/{x}/teams")).await;
    let list = teams["teams"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    for team in list {
        assert!(team["counted"].as_array().unwrap().len() <= 2);
    }
    // Awards: at most two thirds of 3 teams = 2.
    let (_, awards) = get(&s, &format!("/api/competitions/{t}/awards")).await;
    assert_eq!(awards["teams"].as_array().unwrap().len(), 2);
    let (status, v) = get(&s, "/api/competitions/999").await;
    assert_eq!((status, code(&v)), (404, "unknown_competition"));
    let (status, v) = post(&s, None, &format!("/api/competitions/{t}"), "").await;
    assert_eq!(
        (status, code(&v)),
        (405, "method_not_allowed"),
        "the public pages are read-only"
    );
}

/// On the store, competitions, rounds, results, corrections and the director's session come
/// back after a restart.
#[tokio::test]
async fn competitions_survive_a_restart() {
    let file = std::env::temp_dir().join(format!(
        "qipai_competitions_{}_{}.db",
        std::process::id(),
        rand_suffix()
    ));
    let url = file.to_str().unwrap().to_owned();
    let before;
    let token;
    let t;
    {
        let u = url.clone();
        let s = server(move |c| c.store.url = u).await;
        token = login(&s).await;
        (t, _) = set_up(&s, &token).await;
        post(
            &s,
            Some(&token),
            &format!("/api/director/competitions/{t}/rounds"),
            "",
        )
        .await;
        post(
            &s,
            Some(&token),
            &format!("/api/director/competitions/{t}/results"),
            r#"{"round":1,"table":1,"result":"first_wins","note":"late 7 min: −20"}"#,
        )
        .await;
        post(
            &s,
            Some(&token),
            &format!("/api/director/competitions/{t}/corrections"),
            r#"{"round":1,"table":1,"result":"second_wins","reason":"仲裁"}"#,
        )
        .await;
        before = [
            get(&s, &format!("/api/competitions/{t}")).await.1,
            get(&s, &format!("/api/competitions/{t}/rounds/1")).await.1,
            get(&s, &format!("/api/competitions/{t}/standings")).await.1,
            get(&s, &format!("/api/competitions/{t}/teams")).await.1,
            get(&s, &format!("/api/director/competitions/{t}/entries"))
                .await
                .1,
        ];
        s.stop();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let u = url.clone();
    let s = server(move |c| c.store.url = u).await;
    let after = [
        get(&s, &format!("/api/competitions/{t}")).await.1,
        get(&s, &format!("/api/competitions/{t}/rounds/1")).await.1,
        get(&s, &format!("/api/competitions/{t}/standings")).await.1,
        get(&s, &format!("/api/competitions/{t}/teams")).await.1,
        get(&s, &format!("/api/director/competitions/{t}/entries"))
            .await
            .1,
    ];
    assert_eq!(before[..4], after[..4]);
    assert_eq!(after[1]["tables"][0]["note"], "late 7 min: −20");
    // The session was stored hashed and still works.
    let (status, private) = get_as(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{t}/entries"),
    )
    .await;
    assert_eq!(status, 200);
    assert!(private.to_string().contains("13800000001"));
    let _ = before[4].clone();
    // The next round goes on from the stored one.
    post(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{t}/results"),
        r#"{"round":1,"table":2,"result":"draw"}"#,
    )
    .await;
    let (status, r2) = post(
        &s,
        Some(&token),
        &format!("/api/director/competitions/{t}/rounds"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{r2}");
    assert_eq!(r2["round"], 2);
    s.stop();
    let _ = std::fs::remove_file(&file);
}

fn rand_suffix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos().into())
}

/// A login from `source` (a loopback address of its own); status and error code.
async fn login_from(s: &TestServer, source: &str, password: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    let mut tcp = socket.connect(s.addr).await.unwrap();
    let body = json!({ "name": "director", "password": password }).to_string();
    let request = format!(
        "POST /api/director/login HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut reply = String::new();
    tcp.read_to_string(&mut reply).await.unwrap();
    let (status, v) = parse(&reply);
    (status, code(&v).to_owned())
}

/// Failed director logins are limited per address: five are free, then the address must
/// wait (`too_many_attempts`, 429) — even with the right password, which is not checked —
/// a wait that doubles with each further failure; other addresses are not affected; once
/// the wait is over a right password signs in and clears the count.
#[tokio::test]
async fn login_attempts_are_limited_per_address() {
    const DELAY_MS: u64 = 300;
    let s = server(|c| {
        c.director.login_free_failures = 5;
        c.director.login_delay_ms = DELAY_MS;
    })
    .await;
    let a = "127.0.0.7";
    for i in 0..5 {
        assert_eq!(
            login_from(&s, a, "guess").await,
            (401, "bad_credentials".into()),
            "free failure {i}"
        );
    }
    // The fifth failure starts the wait: the sixth attempt is not checked.
    assert_eq!(
        login_from(&s, a, PASSWORD).await,
        (429, "too_many_attempts".into())
    );
    // Another address signs in meanwhile.
    assert_eq!(login_from(&s, "127.0.0.8", PASSWORD).await.0, 200);
    tokio::time::sleep(std::time::Duration::from_millis(DELAY_MS + 50)).await;
    // A sixth failure doubles the wait: still refused after one delay.
    assert_eq!(
        login_from(&s, a, "guess").await,
        (401, "bad_credentials".into())
    );
    tokio::time::sleep(std::time::Duration::from_millis(DELAY_MS + 50)).await;
    assert_eq!(
        login_from(&s, a, PASSWORD).await,
        (429, "too_many_attempts".into())
    );
    tokio::time::sleep(std::time::Duration::from_millis(DELAY_MS + 50)).await;
    assert_eq!(login_from(&s, a, PASSWORD).await.0, 200, "the wait is over");
    // The success cleared the count: five free failures again.
    for _ in 0..5 {
        assert_eq!(login_from(&s, a, "guess").await.0, 401);
    }
}
