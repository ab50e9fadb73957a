//! Competitions over HTTP, for the tests: a server with a director, JSON requests.

use std::time::Duration;

use serde_json::{json, Value};

use super::{http, Addressed, TestServer};

/// The director's password in the tests.
pub const PASSWORD: &str = "裁判长的密码";

/// A server with a director whose password hash is cheap to check (the cost is in the
/// hash), request rates lifted, changed by `tweak`.
pub async fn server_with_director(tweak: impl FnOnce(&mut qipai_server::Config)) -> TestServer {
    let hash = qipai_server::competition::auth::hash_password_cost(PASSWORD, 64, 1).unwrap();
    TestServer::start(|c| {
        c.director.password_hash = hash;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
        tweak(c);
    })
    .await
}

/// The environment of a `qipai-server` process ([`super::Process`]) with the same director
/// as [`server_with_director`], request rates lifted.
pub fn director_env() -> Vec<(&'static str, String)> {
    let hash = qipai_server::competition::auth::hash_password_cost(PASSWORD, 64, 1).unwrap();
    vec![
        ("QIPAI_DIRECTOR__PASSWORD_HASH", hash),
        ("QIPAI_SERVER__RATE_PER_SEC", "10000".into()),
        ("QIPAI_SERVER__RATE_BURST", "10000".into()),
    ]
}

/// Status and JSON (or the text as a JSON string) of a reply.
pub fn parse(reply: &str) -> (u16, Value) {
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {reply:?}"));
    let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let value = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()));
    (status, value)
}

/// `GET path`, as a director when `token` is given.
pub async fn get_as(s: &impl Addressed, token: Option<&str>, path: &str) -> (u16, Value) {
    let auth = token.map(|t| format!("Authorization: Bearer {t}"));
    let headers: Vec<&str> = auth.iter().map(String::as_str).collect();
    parse(&http(s, "GET", path, &headers, "").await)
}

/// `GET path`, public.
pub async fn get(s: &impl Addressed, path: &str) -> (u16, Value) {
    get_as(s, None, path).await
}

/// `POST path` with `body`, as a director when `token` is given.
pub async fn post(s: &impl Addressed, token: Option<&str>, path: &str, body: &str) -> (u16, Value) {
    let auth = token.map(|t| format!("Authorization: Bearer {t}"));
    let headers: Vec<&str> = auth.iter().map(String::as_str).collect();
    parse(&http(s, "POST", path, &headers, body).await)
}

/// `POST path` as the director; the answer must be `200`.
pub async fn post_ok(s: &impl Addressed, token: &str, path: &str, body: &str) -> Value {
    let (status, v) = post(s, Some(token), path, body).await;
    assert_eq!(status, 200, "{path}: {v}");
    v
}

/// Signs in as the director; returns the session token.
pub async fn login(s: &impl Addressed) -> String {
    let body = json!({ "name": "director", "password": PASSWORD }).to_string();
    let (status, v) = post(s, None, "/api/director/login", &body).await;
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().expect("a token").to_owned()
}

/// Pairs the next round of competition `id`, and starts it at once.
pub async fn start_round(s: &impl Addressed, token: &str, id: u64) -> Value {
    post_ok(
        s,
        token,
        &format!("/api/director/competitions/{id}/rounds"),
        r#"{"start":true}"#,
    )
    .await
}

/// Pairs and publishes the next round of competition `id`, not started.
pub async fn publish_round(s: &impl Addressed, token: &str, id: u64) -> Value {
    post_ok(
        s,
        token,
        &format!("/api/director/competitions/{id}/rounds"),
        "",
    )
    .await
}

/// Polls `path` until `done` holds (at most 6 s).
pub async fn until(s: &impl Addressed, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..300 {
        let (_, v) = get(s, path).await;
        if done(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{path} never got there: {}", get(s, path).await.1);
}

/// The error code of a refusal.
pub fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

/// Every player's entry code in competition `id`, by name. The store keeps only their
/// hashes, so a code is seen only when it is issued: this reissues every player's
/// (`POST …/entries/{entry}/players/{player}/code`), which makes the imported ones stop
/// working.
pub async fn entry_codes(
    s: &impl Addressed,
    token: &str,
    id: u64,
) -> std::collections::HashMap<String, String> {
    let (status, v) = get_as(
        s,
        Some(token),
        &format!("/api/director/competitions/{id}/entries"),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let mut codes = std::collections::HashMap::new();
    for e in v["entries"].as_array().expect("entries") {
        let entry = e["entry"].as_u64().expect("entry");
        for (i, p) in e["players"].as_array().expect("players").iter().enumerate() {
            assert!(p.get("code").is_none(), "codes are never shown again: {p}");
            let path = format!("/api/director/competitions/{id}/entries/{entry}/players/{i}/code");
            let v = post_ok(s, token, &path, "").await;
            let code = v["code"]["code"].as_str().expect("the new code");
            assert!(!code.is_empty(), "every player has a code: {v}");
            codes.insert(p["name"].as_str().unwrap().to_owned(), code.to_owned());
        }
    }
    codes
}

/// A fresh store file for a test that restarts its server: the file and its URL.
pub fn store_file(name: &str) -> (std::path::PathBuf, String) {
    let file = std::env::temp_dir().join(format!(
        "qipai_competition_{name}_{}_{}.db",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    let url = file.to_str().unwrap().to_owned();
    (file, url)
}

/// Creates a competition with `settings` and imports `form` into it: its id and the
/// import's answer (with the entry codes issued, the only time they are shown).
pub async fn create_competition(
    s: &impl Addressed,
    token: &str,
    settings: &Value,
    form: &str,
) -> (u64, Value) {
    let c = post_ok(
        s,
        token,
        "/api/director/competitions",
        &settings.to_string(),
    )
    .await;
    let id = c["id"].as_u64().expect("an id");
    let entries = format!("/api/director/competitions/{id}/entries");
    (id, post_ok(s, token, &entries, form).await)
}
