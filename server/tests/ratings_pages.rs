//! Profiles and leaderboards over real HTTP (PROTOCOL.md "Profiles and leaderboards"): the
//! ratings are written through the store as a rated game writes them
//! (`AccountWrite::Rated`), and the read endpoints answer what the store keeps; deleted
//! accounts leave the leaderboard; bad names, games and limits get their stable codes.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::competition::parse;
use common::{http, store_file, TestServer};
use qipai_store::accounts::{AccountWrite, RatingRow};
use qipai_store::Store;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse";

/// A server on `store`, with a cheap hash cost.
async fn server(store: Arc<dyn Store>) -> TestServer {
    TestServer::on_store(store, Duration::from_millis(20), |c| {
        c.passwords.memory_kib = 64;
        c.passwords.passes = 1;
    })
    .await
}

/// Signs up `name` over HTTP: the account's id and its session token.
async fn sign_up(s: &TestServer, name: &str) -> (u64, String) {
    let body = json!({ "name": name, "password": PASSWORD }).to_string();
    let (status, v) = parse(&http(s, "POST", "/api/account/signup", &[], &body).await);
    assert_eq!(status, 200, "{v}");
    let id = v["account"]["id"].as_u64().expect("id");
    (id, v["token"].as_str().expect("token").to_owned())
}

/// A rated game's new rating for `account` at `game`, as the server writes it.
fn rated(
    account: u64,
    game: &str,
    rating: i64,
    deviation: f64,
    room: u64,
    at: i64,
) -> AccountWrite {
    AccountWrite::Rated {
        rating: RatingRow {
            account,
            game: game.into(),
            rating,
            state: json!({
                "rating": rating, "deviation": deviation, "volatility": 0.06, "games": 1
            })
            .to_string(),
            updated_ms: at,
        },
        room,
    }
}

async fn get(s: &TestServer, path: &str) -> (u16, Value) {
    parse(&http(s, "GET", path, &[], "").await)
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or_default()
}

/// A profile gives each game's rating, deviation, rated games and history, oldest first; a
/// leaderboard ranks the live accounts best first with their games, bounded by `limit`.
#[tokio::test]
async fn profiles_and_leaderboards_read_what_rated_games_wrote() {
    let store = qipai_store::open(&store_file("ratings_pages"))
        .await
        .expect("store");
    let s = server(Arc::clone(&store)).await;
    let (alice, _) = sign_up(&s, "Alice").await;
    let (li, _) = sign_up(&s, "李雷").await;
    let (carol, carol_token) = sign_up(&s, "Carol").await;

    // Three rated xiangqi games and one rated draughts game, as the server commits them.
    for batch in [
        vec![
            rated(alice, "xiangqi", 1662, 290.3, 11, 1_000),
            rated(li, "xiangqi", 1338, 90.3, 11, 1_000),
        ],
        vec![
            rated(alice, "xiangqi", 1701, 251.6, 12, 2_000),
            rated(carol, "xiangqi", 1820, 240.0, 12, 2_000),
        ],
        vec![rated(alice, "xiangqi", 1689, 230.4, 13, 3_000)],
        vec![rated(alice, "draughts", 1540, 300.0, 14, 4_000)],
    ] {
        store.account_write(batch).await.expect("rated");
    }

    let (status, v) = get(&s, "/api/players/alice/profile").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["id"].as_u64(), v["name"].as_str()),
        (Some(alice), Some("Alice"))
    );
    let ratings = v["ratings"].as_array().expect("ratings");
    let xiangqi = ratings
        .iter()
        .find(|r| r["game"] == "xiangqi")
        .expect("xiangqi");
    assert_eq!(xiangqi["rating"], 1689);
    assert_eq!(xiangqi["deviation"], 230);
    assert_eq!(xiangqi["provisional"], true);
    assert_eq!(xiangqi["games"], 3);
    let points: Vec<(i64, i64, u64)> = xiangqi["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|p| {
            let n = |k: &str| p[k].as_i64().unwrap_or(-1);
            (n("at_ms"), n("rating"), p["room"].as_u64().unwrap_or(0))
        })
        .collect();
    assert_eq!(
        points,
        [(1_000, 1662, 11), (2_000, 1701, 12), (3_000, 1689, 13)]
    );
    let draughts = ratings
        .iter()
        .find(|r| r["game"] == "draughts")
        .expect("draughts");
    assert_eq!(
        (draughts["rating"].as_i64(), draughts["games"].as_u64()),
        (Some(1540), Some(1))
    );

    // A name in the path is percent-encoded; a registered player without rated games has
    // a profile with no ratings.
    let (status, v) = get(&s, "/api/players/%E6%9D%8E%E9%9B%B7/profile").await;
    assert_eq!((status, v["name"].as_str()), (200, Some("李雷")), "{v}");
    assert_eq!(v["ratings"][0]["games"], 1);
    assert_eq!(v["ratings"][0]["deviation"], 90);
    assert_eq!(v["ratings"][0]["provisional"], false);
    let (dan, _) = sign_up(&s, "Dan").await;
    let (status, v) = get(&s, "/api/players/Dan/profile").await;
    assert_eq!((status, v["id"].as_u64()), (200, Some(dan)));
    assert_eq!(v["ratings"], json!([]));

    let (status, v) = get(&s, "/api/leaderboard/xiangqi").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["game"], "xiangqi");
    let rows: Vec<(u64, &str, i64, u64)> = v["leaders"]
        .as_array()
        .expect("leaders")
        .iter()
        .map(|l| {
            (
                l["rank"].as_u64().unwrap_or(0),
                l["name"].as_str().unwrap_or_default(),
                l["rating"].as_i64().unwrap_or(0),
                l["games"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, "Carol", 1820, 1),
            (2, "Alice", 1689, 3),
            (3, "李雷", 1338, 1)
        ]
    );
    let (_, v) = get(&s, "/api/leaderboard/xiangqi?limit=1").await;
    assert_eq!(v["leaders"].as_array().map(Vec::len), Some(1));
    let (_, v) = get(&s, "/api/leaderboard/tuolaji").await;
    assert_eq!(v["leaders"], json!([]));

    // A deleted account leaves the leaderboard and has no profile any more.
    let auth = format!("Authorization: Bearer {carol_token}");
    let body = json!({ "password": PASSWORD }).to_string();
    let (status, v) = parse(&http(&s, "POST", "/api/account/delete", &[&auth], &body).await);
    assert_eq!(status, 200, "{v}");
    let (_, v) = get(&s, "/api/leaderboard/xiangqi").await;
    let names: Vec<&str> = v["leaders"]
        .as_array()
        .expect("leaders")
        .iter()
        .filter_map(|l| l["name"].as_str())
        .collect();
    assert_eq!(names, ["Alice", "李雷"]);
    assert_eq!(v["leaders"][0]["rank"], 1);
    let (status, v) = get(&s, "/api/players/Carol/profile").await;
    assert_eq!((status, code(&v)), (404, "not_found"));
    s.stop();
}

/// Unknown games, out-of-range limits and names that cannot be a player's are refused with
/// their stable codes; a name that is no account's is not found.
#[tokio::test]
async fn bad_names_games_and_limits_are_refused() {
    let store = qipai_store::open(&store_file("ratings_pages_bad"))
        .await
        .expect("store");
    let s = server(store).await;
    sign_up(&s, "Alice").await;
    for (path, status, want) in [
        ("/api/leaderboard/chess", 404, "not_found"),
        ("/api/leaderboard/XIANGQI", 404, "not_found"),
        ("/api/leaderboard/xiangqi?limit=0", 400, "bad_request"),
        ("/api/leaderboard/xiangqi?limit=101", 400, "bad_request"),
        (
            "/api/leaderboard/xiangqi?limit=99999999999999999999",
            400,
            "bad_request",
        ),
        ("/api/leaderboard/xiangqi?limit=-1", 400, "bad_request"),
        ("/api/leaderboard/xiangqi?limit=ten", 400, "bad_request"),
        ("/api/players/Bob/profile", 404, "not_found"),
        ("/api/players/%E2%80%8B/profile", 400, "bad_name"),
        ("/api/players/A%E2%80%8Bb/profile", 400, "bad_name"),
        ("/api/players/Bot%201/profile", 400, "bad_name"),
        (
            "/api/players/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/profile",
            400,
            "bad_name",
        ),
        // Not UTF-8: the router cannot read the path's name.
        ("/api/players/%FF%FE/profile", 400, "bad_request"),
    ] {
        let (got, v) = get(&s, path).await;
        assert_eq!((got, code(&v)), (status, want), "{path}: {v}");
    }
    let (status, v) = get(&s, "/api/leaderboard/xiangqi?limit=100").await;
    assert_eq!(
        (status, v["leaders"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    // Look-alikes of a registered name find its profile, as they are one name.
    let (status, v) = get(&s, "/api/players/%D0%90lice/profile").await;
    assert_eq!((status, v["name"].as_str()), (200, Some("Alice")), "{v}");
    s.stop();
}
