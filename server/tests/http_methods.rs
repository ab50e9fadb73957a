//! Every documented HTTP path answers a method it does not take with `405`, the methods it
//! does take in `Allow`, and the one refusal shape `{"error":{"code","message"}}`
//! (PROTOCOL.md §11, `method_not_allowed`); unknown paths are `404 not_found` in the same
//! shape, under `/api/` and beside the page.

mod common;

use common::competition::{code, parse, server_with_director};
use common::{header, http};

/// Every documented path (PROTOCOL.md §1, §16, §17, §19, §20; the page's files) and the
/// methods it takes.
const PATHS: &[(&str, &str)] = &[
    ("/healthz", "GET, HEAD"),
    ("/metrics", "GET, HEAD"),
    ("/ws", "GET, HEAD"),
    ("/api/games", "GET, HEAD"),
    ("/api/games/1", "GET, HEAD"),
    ("/api/games/1.pgn", "GET, HEAD"),
    ("/api/games/1.pdn", "GET, HEAD"),
    ("/api/nodes", "GET, HEAD"),
    ("/api/players/x/games", "GET, HEAD"),
    ("/api/players/x/profile", "GET, HEAD"),
    ("/api/leaderboard/xiangqi", "GET, HEAD"),
    ("/api/entry", "POST"),
    ("/api/entry/link", "POST"),
    ("/api/entry/unlink", "POST"),
    ("/api/account", "GET, HEAD"),
    ("/api/account/signup", "POST"),
    ("/api/account/signin", "POST"),
    ("/api/account/signout", "POST"),
    ("/api/account/password", "POST"),
    ("/api/account/delete", "POST"),
    ("/api/account/entries", "GET, HEAD"),
    ("/api/competitions", "GET, HEAD"),
    ("/api/competitions/changes", "GET, HEAD"),
    ("/api/competitions/1", "GET, HEAD"),
    ("/api/competitions/1/entries", "GET, HEAD"),
    ("/api/competitions/1/rounds/1", "GET, HEAD"),
    ("/api/competitions/1/rounds/1.csv", "GET, HEAD"),
    ("/api/competitions/1/standings", "GET, HEAD"),
    ("/api/competitions/1/standings.csv", "GET, HEAD"),
    ("/api/competitions/1/teams", "GET, HEAD"),
    ("/api/competitions/1/awards", "GET, HEAD"),
    ("/api/competitions/1/awards.csv", "GET, HEAD"),
    ("/api/director/login", "POST"),
    ("/api/director/logout", "POST"),
    ("/api/director/session", "GET, HEAD"),
    ("/api/director/qr.svg", "GET, HEAD"),
    ("/api/director/competitions", "POST"),
    ("/api/director/competitions/1/entries", "GET, HEAD, POST"),
    (
        "/api/director/competitions/1/entries/1/players/0/code",
        "POST",
    ),
    (
        "/api/director/competitions/1/entries/1/players/0/unlink",
        "POST",
    ),
    ("/api/director/competitions/1/rounds", "POST"),
    ("/api/director/competitions/1/results", "POST"),
    ("/api/director/competitions/1/corrections", "POST"),
    ("/", "GET, HEAD"),
    ("/index.html", "GET, HEAD"),
    ("/app.js", "GET, HEAD"),
];

const METHODS: &[&str] = &["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

#[tokio::test]
async fn every_path_answers_a_wrong_method_with_405_and_allow() {
    let s = server_with_director(|_| {}).await;
    let mut checked = 0;
    for (path, allow) in PATHS {
        let taken: Vec<&str> = allow.split(", ").collect();
        for method in METHODS.iter().filter(|m| !taken.contains(m)) {
            let reply = http(&s, method, path, &[], "").await;
            let (status, v) = parse(&reply);
            assert_eq!(header(&reply, "allow"), Some(*allow), "{method} {path}");
            if *method == "HEAD" {
                // The headers of the refusal, without its body.
                assert_eq!(status, 405, "{method} {path}: {reply}");
                continue;
            }
            assert_eq!(
                (status, code(&v)),
                (405, "method_not_allowed"),
                "{method} {path}: {reply}"
            );
            assert_eq!(
                header(&reply, "content-type"),
                Some("application/json"),
                "{method} {path}"
            );
            assert!(v["error"]["message"].is_string(), "{method} {path}: {v}");
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked} requests");
}

/// `DELETE /api/competitions` was a `400` before the paths shared one router.
#[tokio::test]
async fn delete_on_the_competitions_is_405() {
    let s = server_with_director(|_| {}).await;
    let reply = http(&s, "DELETE", "/api/competitions", &[], "").await;
    assert!(reply.starts_with("HTTP/1.1 405"), "{reply}");
    assert_eq!(header(&reply, "allow"), Some("GET, HEAD"));
}

/// (An unknown path under `/api/director/` asks for a director's session first, so that
/// the directors' paths are not told to others: `competition_api.rs` checks it.)
#[tokio::test]
async fn unknown_paths_are_404_in_the_one_shape() {
    let s = server_with_director(|_| {}).await;
    for path in [
        "/nope",
        "/api",
        "/api/nope",
        "/api/games/1/x",
        "/api/competitions/1/nope",
    ] {
        for method in ["GET", "POST"] {
            let (status, v) = parse(&http(&s, method, path, &[], "").await);
            assert_eq!((status, code(&v)), (404, "not_found"), "{method} {path}");
        }
    }
}
