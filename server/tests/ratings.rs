//! Rated tables over real sockets (docs/ratings.md): a rated xiangqi game between two
//! accounts moves both ratings by Glicko-2's values, computed here from Glickman's paper
//! (and checked against his worked example); a rated Tuolaji table with the server's bots
//! rates its account against the bots' fixed ratings; an aborted game rates nobody; a guest
//! is refused a rated table; ratings survive SIGKILL and a restart of the real binary and are
//! not counted twice; rated quick play seats near ratings first and widens its range with
//! the wait; the account's list of games finds its games by the account.

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::competition::parse;
use common::{http, http_to, spawn_listening, store_file, Client, Endpoint, TestServer};
use qipai_games::rating::{bot_rating, rate, Rated, Rating};
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiOptions};
use qipai_protocol::{ClientMsg, ErrorCode, GameKind, Outcome, RoomId, RoomOptions, ServerMsg};
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse";

/// Glicko-2's system constant τ, as the paper's example and the server use it.
const TAU: f64 = 0.5;
/// Glicko-2's scale: rating 1500 is μ 0, and 173.7178 rating points are one unit.
const SCALE: f64 = 173.7178;

/// One player's Glicko-2 state.
#[derive(Clone, Copy, Debug)]
struct Glicko {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

/// Glicko-2 for one rating period, step by step as Glickman's "Example of the Glicko-2
/// system" (2013) gives it, written here apart from the server's rating crate: `results`
/// are the opponents with the score against each (1 a win, 0 a loss, ½ a draw).
fn glicko2(me: Glicko, results: &[(Glicko, f64)]) -> Glicko {
    let (mu, phi, sigma) = (
        (me.rating - 1500.0) / SCALE,
        me.deviation / SCALE,
        me.volatility,
    );
    let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi * phi / std::f64::consts::PI.powi(2)).sqrt();
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (o, score) in results {
        let (mu_j, phi_j) = ((o.rating - 1500.0) / SCALE, o.deviation / SCALE);
        let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        v_inv += g(phi_j).powi(2) * e * (1.0 - e);
        sum += g(phi_j) * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu = mu + phi * phi * sum;
    Glicko {
        rating: SCALE * mu + 1500.0,
        deviation: SCALE * phi,
        volatility: sigma,
    }
}

/// The reference computation above gives Glickman's published figures: a 1500 (RD 200)
/// player beating a 1400 (30) and losing to a 1550 (100) and a 1700 (300) ends at
/// 1464.06, RD 151.52, volatility 0.05999.
#[test]
fn the_reference_glicko2_gives_glickmans_example() {
    let p = |rating, deviation| Glicko {
        rating,
        deviation,
        volatility: 0.06,
    };
    let after = glicko2(
        p(1500.0, 200.0),
        &[
            (p(1400.0, 30.0), 1.0),
            (p(1550.0, 100.0), 0.0),
            (p(1700.0, 300.0), 0.0),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
}

/// A newcomer's Glicko-2 state (lichess's and the paper's: 1500, RD 350, σ 0.06).
const NEWCOMER: Glicko = Glicko {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// A server on the store `file`, cheap password hashes, rated quick play widening every
/// `widen_ms`.
async fn server(file: &str, widen_ms: u64) -> TestServer {
    let file = file.to_owned();
    TestServer::start(move |c| {
        c.store.url = file;
        c.passwords.memory_kib = 64;
        c.passwords.passes = 1;
        c.accounts.rated_range = 100;
        c.accounts.rated_widen_ms = widen_ms;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
        c.server.outbound_queue = 1 << 16;
        c.limits.max_outbound_bytes = 1 << 26;
        c.limits.rooms_per_addr = 1000;
    })
    .await
}

/// Signs `name` up on the server at `addr`: the session's token.
async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({ "name": name, "password": PASSWORD }).to_string();
    let (status, v) = parse(&http_to(addr, "POST", "/api/account/signup", &[], &body).await);
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().expect("token").to_owned()
}

/// `GET /api/account/games` as the session `token`: the status and the JSON.
async fn my_games(addr: SocketAddr, token: &str) -> (u16, Value) {
    let auth = format!("Authorization: Bearer {token}");
    parse(&http_to(addr, "GET", "/api/account/games", &[&auth], "").await)
}

/// The account's newest game in its list.
async fn last_game(addr: SocketAddr, token: &str) -> Value {
    let (status, v) = my_games(addr, token).await;
    assert_eq!(status, 200, "{v}");
    v["games"][0].clone()
}

fn rated_xiangqi() -> XiangqiOptions {
    XiangqiOptions {
        rated: true,
        ..XiangqiOptions::default()
    }
}

/// `red` opens a rated xiangqi table, `black` sits down, each moves once and black resigns:
/// red wins. The room.
async fn red_wins(red: &mut Client, black: &mut Client) -> RoomId {
    let room = red.create_xiangqi(rated_xiangqi(), Some(0)).await;
    black.join(room, Some(1)).await;
    red.play("h2e2").await;
    black.play("h9g7").await;
    let seq = black.xq(XiangqiAction::Resign).await;
    assert!(matches!(black.answer(seq).await, ServerMsg::Ok { .. }));
    room
}

/// The stored Glicko-2 state of `account` at xiangqi, read from the store itself.
async fn stored(file: &str, account: u64) -> Glicko {
    let store = qipai_store::open(file).await.expect("store");
    let row = store
        .ratings(account)
        .await
        .expect("ratings")
        .into_iter()
        .find(|r| r.game == "xiangqi")
        .expect("a xiangqi rating");
    let r: Rating = serde_json::from_str(&row.state).expect("state");
    Glicko {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// The account id of the session `token`.
async fn account_id(s: &TestServer, token: &str) -> u64 {
    let auth = format!("Authorization: Bearer {token}");
    let (_, v) = parse(&http(s, "GET", "/api/account", &[&auth], "").await);
    v["account"]["id"].as_u64().expect("account id")
}

fn close(a: Glicko, b: Glicko) -> bool {
    (a.rating - b.rating).abs() < 0.01
        && (a.deviation - b.deviation).abs() < 0.01
        && (a.volatility - b.volatility).abs() < 1e-6
}

#[tokio::test]
async fn a_rated_xiangqi_game_moves_both_ratings_by_glicko2() {
    let file = store_file("ratings_xiangqi");
    let s = server(&file, 10_000).await;
    let (wu, li) = (sign_up(s.addr, "Wu").await, sign_up(s.addr, "Li").await);
    let mut red = Client::signed_in(&s, &wu).await;
    let mut black = Client::signed_in(&s, &li).await;
    let room = red_wins(&mut red, &mut black).await;

    let (winner, loser) = (
        glicko2(NEWCOMER, &[(NEWCOMER, 1.0)]),
        glicko2(NEWCOMER, &[(NEWCOMER, 0.0)]),
    );
    // Two newcomers: the winner gains what the loser loses (1662.3 and 1337.7).
    assert!((winner.rating - 1662.31).abs() < 0.01, "{winner:?}");
    let (wu_id, li_id) = (account_id(&s, &wu).await, account_id(&s, &li).await);
    assert!(close(stored(&file, wu_id).await, winner));
    assert!(close(stored(&file, li_id).await, loser));

    let row = last_game(s.addr, &wu).await;
    assert_eq!(row["room_id"], room);
    assert_eq!(row["rated"], true);
    assert_eq!(row["rating_after"], winner.rating.round() as i64);
    assert_eq!(row["players"], json!(["Wu", "Li"]));
    assert_eq!(
        last_game(s.addr, &li).await["rating_after"],
        loser.rating.round() as i64
    );

    // The record carries each seat's account; a casual game is listed, unrated.
    let (_, record) = parse(&common::http_get(&s, &format!("/api/games/{room}")).await);
    assert_eq!(record["accounts"], json!([wu_id, li_id]));
    assert_eq!(record["rated"], true);
    red.leave().await;
    black.leave().await;
    let casual = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    black.join(casual, Some(1)).await;
    red.play("h2e2").await;
    black.play("h9g7").await;
    let seq = black.xq(XiangqiAction::Resign).await;
    black.answer(seq).await;
    let row = last_game(s.addr, &li).await;
    assert_eq!(
        (row["room_id"].as_u64(), row["rated"].as_bool()),
        (Some(casual), Some(false))
    );
    assert_eq!(row["rating_after"], Value::Null);
    assert!(
        close(stored(&file, li_id).await, loser),
        "a casual game rates nobody"
    );

    // Without a session the list is refused.
    let (status, v) = parse(&http(&s, "GET", "/api/account/games", &[], "").await);
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (401, Some("account_required"))
    );

    // Wu deletes the account: its records show the replaced name, in the seats, the events
    // and the PGN; Li's list shows it too.
    let auth = format!("Authorization: Bearer {wu}");
    let body = json!({ "password": PASSWORD }).to_string();
    let (status, v) = parse(&http(&s, "POST", "/api/account/delete", &[&auth], &body).await);
    assert_eq!(status, 200, "{v}");
    let gone = format!("deleted player {wu_id}");
    let (_, record) = parse(&common::http_get(&s, &format!("/api/games/{room}")).await);
    assert_eq!(record["players"], json!([gone, "Li"]));
    assert!(!record.to_string().contains("\"Wu\""), "{record}");
    let pgn = common::http_get(&s, &format!("/api/games/{room}.pgn")).await;
    assert!(pgn.contains(&format!("[Red \"{gone}\"]")), "{pgn}");
    assert!(!pgn.contains("\"Wu\""), "{pgn}");
    let (_, list) = my_games(s.addr, &li).await;
    assert_eq!(list["games"][1]["players"], json!([gone, "Li"]), "{list}");
}

#[tokio::test]
async fn an_aborted_game_is_not_rated_and_guests_are_refused() {
    let file = store_file("ratings_aborted");
    let s = server(&file, 10_000).await;
    let (wu, li) = (sign_up(s.addr, "Wu").await, sign_up(s.addr, "Li").await);
    let mut red = Client::signed_in(&s, &wu).await;
    let mut black = Client::signed_in(&s, &li).await;
    let room = red.create_xiangqi(rated_xiangqi(), Some(0)).await;

    // A guest may neither open nor join nor quick-play a rated table.
    let mut guest = Client::hello(&s, "Guest").await;
    let options = RoomOptions::Xiangqi(rated_xiangqi());
    for msg in [
        ClientMsg::CreateRoom {
            seq: 1,
            options: options.clone(),
            seat: None,
            bots: false,
        },
        ClientMsg::Join {
            seq: 2,
            room_id: room,
            seat: Some(1),
            entry_code: None,
        },
        ClientMsg::QuickPlay { seq: 3, options },
    ] {
        let seq = msg.seq();
        guest.send(&msg).await;
        assert_eq!(guest.error_for(seq).await.0, ErrorCode::AccountRequired);
    }
    // Nor may an account take both seats, nor a rated table seat bots without a rating.
    let mut again = Client::signed_in(&s, &wu).await;
    let seq = again.seq();
    again
        .send(&ClientMsg::Join {
            seq,
            room_id: room,
            seat: Some(1),
            entry_code: None,
        })
        .await;
    assert_eq!(again.error_for(Some(seq)).await.0, ErrorCode::SeatTaken);
    let seq = again.seq();
    again
        .send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Xiangqi(rated_xiangqi()),
            seat: None,
            bots: true,
        })
        .await;
    assert_eq!(again.error_for(Some(seq)).await.0, ErrorCode::BadOptions);

    // Red leaves before its first move: aborted, no result, nobody rated.
    black.join(room, Some(1)).await;
    red.leave().await;
    let row = last_game(s.addr, &li).await;
    assert_eq!(row["room_id"], room);
    assert_eq!(row["result"]["reason"], "aborted");
    assert_eq!(row["rated"], true);
    assert_eq!(row["rating_after"], Value::Null);
    let store = qipai_store::open(&file).await.expect("store");
    assert!(store
        .ratings(account_id(&s, &wu).await)
        .await
        .expect("ratings")
        .is_empty());
}

#[tokio::test]
async fn a_rated_tuolaji_table_rates_its_account_against_the_bots() {
    let file = store_file("ratings_tuolaji");
    let file_url = file.clone();
    let s = TestServer::start(move |c| {
        c.store.url = file_url;
        c.passwords.memory_kib = 64;
        c.passwords.passes = 1;
        c.tuolaji.seed = Some(common::tuolaji::SEED);
        c.server.outbound_queue = 1 << 16;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
        c.limits.max_outbound_bytes = 1 << 26;
    })
    .await;
    let token = sign_up(s.addr, "Wu").await;
    let mut wu = Client::signed_in(&s, &token).await;
    // One hand, the server playing every turn at once (the round's time is up after it).
    let options = TuolajiOptions {
        rated: true,
        bot_level: Some("beginner".into()),
        round_minutes: Some(1),
        last_call_minutes: Some(1),
        turn_ms: Some(0),
        bottom_ms: Some(0),
        ..common::tuolaji::fast_options()
    };
    wu.create_tuolaji_with_bots(options).await;
    wu.until(|m| {
        matches!(
            common::tuolaji::tl_event(m),
            Some((_, qipai_protocol::tuolaji::TuolajiEvent::GameOver { .. }))
        )
    })
    .await;
    // The end's commit goes out before its events: the list shows it now.
    let row = last_game(s.addr, &token).await;
    assert_eq!(row["rated"], true, "{row}");
    let winners: Vec<u8> =
        serde_json::from_value(row["result"]["winners"].clone()).expect("winners");
    let reason = row["result"]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let bot = Rated::Bot(bot_rating(GameKind::Tuolaji, "beginner").expect("a fixed rating"));
    let me = Rated::Player(Rating::newcomer(GameKind::Tuolaji));
    let outcome = Outcome {
        winners: winners.clone(),
        reason,
        no_result: false,
    };
    let after = rate(GameKind::Tuolaji, &[me, bot, bot, bot], &outcome).expect("rated");
    let expected = after[0].expect("the account's new rating");
    assert_eq!(row["rating_after"], expected.rating.round() as i64, "{row}");
    // Partnered with a bot of 1000 against two, a win gains and a loss costs.
    match winners.as_slice() {
        [0, 2] => assert!(expected.rating > 1500.0),
        [1, 3] => assert!(expected.rating < 1500.0),
        _ => {}
    }
}

/// The server binary on the store `file` at `addr`.
async fn spawn(file: &str, addr: SocketAddr) -> Child {
    let mut server = Command::new(env!("CARGO_BIN_EXE_qipai-server"));
    server
        .env("QIPAI_SERVER__ADDR", addr.to_string())
        .env("QIPAI_STORE__URL", file)
        .env("QIPAI_PASSWORDS__MEMORY_KIB", "64")
        .env("QIPAI_PASSWORDS__PASSES", "1")
        .env("RUST_LOG", "warn");
    spawn_listening(server, addr, "qipai-server").await
}

/// The server binary at its address.
struct At(SocketAddr);

impl Endpoint for At {
    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.0)
    }
}

#[tokio::test]
async fn ratings_survive_sigkill_and_count_once() {
    let file = store_file("ratings_crash");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a port");
    let addr = SocketAddr::from(([127, 0, 0, 1], port.port()));
    let mut child = spawn(&file, addr).await;
    let (wu, li) = (sign_up(addr, "Wu").await, sign_up(addr, "Li").await);
    let mut red = Client::signed_in(&At(addr), &wu).await;
    let mut black = Client::signed_in(&At(addr), &li).await;
    red_wins(&mut red, &mut black).await;
    // A second rated game, under way when the server dies.
    red.leave().await;
    black.leave().await;
    let room = red.create_xiangqi(rated_xiangqi(), Some(0)).await;
    black.join(room, Some(1)).await;
    red.play("h2e2").await;
    black.play("h9g7").await;
    // SIGKILL right after an action's answer: no goodbye, no flush.
    let _ = child.kill();
    let _ = child.wait();

    let mut child = spawn(&file, addr).await;
    let first = glicko2(NEWCOMER, &[(NEWCOMER, 1.0)]);
    let first_loss = glicko2(NEWCOMER, &[(NEWCOMER, 0.0)]);
    assert_eq!(
        last_game(addr, &wu).await["rating_after"],
        first.rating.round() as i64
    );
    // Both come back with their resume tokens: the reopened table knows their accounts
    // (its seat changes), and so do their sessions.
    let mut red = Client::resume(&At(addr), &red.token).await;
    let mut black = Client::resume(&At(addr), &black.token).await;
    let seq = black.xq(XiangqiAction::Resign).await;
    assert!(matches!(black.answer(seq).await, ServerMsg::Ok { .. }));
    // The second game starts from the first's ratings, and the first counts once.
    let second = glicko2(first, &[(first_loss, 1.0)]);
    let (status, list) = my_games(addr, &wu).await;
    assert_eq!(status, 200);
    let rows: Vec<(Value, Value)> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| (g["room_id"].clone(), g["rating_after"].clone()))
        .collect();
    assert_eq!(rows.len(), 2, "{list}");
    assert_eq!(rows[0], (json!(room), json!(second.rating.round() as i64)));
    assert_eq!(rows[1].1, json!(first.rating.round() as i64));
    black.leave().await;
    red.leave().await;
    let again = red.create_xiangqi(rated_xiangqi(), Some(0)).await;
    assert_ne!(
        again, room,
        "the resumed session sits at a rated table: it is signed in"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// Quick-plays at a rated xiangqi table: the room it seats `c` in.
async fn quick(c: &mut Client) -> RoomId {
    let seq = c.seq();
    c.send(&ClientMsg::QuickPlay {
        seq,
        options: RoomOptions::Xiangqi(rated_xiangqi()),
    })
    .await;
    c.joined(seq).await
}

#[tokio::test]
async fn rated_quick_play_seats_near_ratings_first_and_widens_with_the_wait() {
    const WIDEN_MS: u64 = 2_000;
    let file = store_file("ratings_quick");
    let s = server(&file, WIDEN_MS).await;
    let names = ["Wu", "Li", "Zhao", "Qian", "Sun"];
    let mut tokens = Vec::new();
    for name in names {
        tokens.push(sign_up(s.addr, name).await);
    }
    let mut c = Vec::new();
    for t in &tokens {
        c.push(Client::signed_in(&s, t).await);
    }
    let [wu, li, zhao, qian, sun] = &mut c[..] else {
        unreachable!()
    };
    // Wu and Zhao win (about 1662), Li and Qian lose (about 1338); Sun is new (1500).
    red_wins(wu, li).await;
    red_wins(zhao, qian).await;
    for p in [&mut *wu, &mut *li, &mut *zhao, &mut *qian] {
        p.leave().await;
    }

    let since = Instant::now();
    let li_table = quick(li).await;
    let wu_table = quick(wu).await;
    assert_ne!(wu_table, li_table, "324 apart: beyond reach at once");
    // Zhao is seated with Wu (the same rating), not at Li's older table.
    assert_eq!(quick(zhao).await, wu_table);
    // Sun is 162 from Li: beyond the first 100, so a table of Sun's own...
    let own = quick(sun).await;
    assert_ne!(own, li_table);
    assert!(
        since.elapsed() < Duration::from_millis(WIDEN_MS),
        "the steps took too long"
    );
    sun.leave().await;
    // ... and once Li has waited WIDEN_MS, 200 away is within reach.
    tokio::time::sleep(Duration::from_millis(WIDEN_MS + 100).saturating_sub(since.elapsed())).await;
    assert_eq!(quick(sun).await, li_table);
}
