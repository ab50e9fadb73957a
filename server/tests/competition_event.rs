//! The whole event of the seed's notice, through the real server binary on a SQLite store:
//! 8 departments, 24 Tuolaji pairs and 13 xiangqi players (odd: a bye each round), four
//! Swiss rounds each. Every xiangqi game is played at its table by scripted clients (one
//! side resigns) or lost by an entrant who never comes (4.1.5 lateness, fast "minutes" of
//! 20 ms); one player tries to abort by leaving before its first move (the table waits,
//! then the absent side loses: never a draw), and the director records the result of one
//! live table over its game, with a reason. Every Tuolaji table is played at the server by
//! four bot clients (`qipai_bots`, the hint strategy, each seated with its entry code)
//! through the notice's 90-minute round with the last hand called at 75 (the server's
//! minute is 20 ms here): the result is the table's own (levels reached), as the bots saw
//! it. Some pairs come late by each band of 第十三条 (a warning, −20 and −30 in the first
//! hand, the first hand forfeited, never: the round forfeited), and the test checks at the
//! table that each band was applied; each Tuolaji round is published with a start time, the
//! pairs on time sit before it and are never late. A xiangqi round is undone before any
//! result and paired again the same, and a xiangqi player withdraws after round 2 (no bye
//! from then on). Between rounds 2 and 3 the server is killed (SIGKILL) and started again on
//! its store: the event goes on. After every round the standings (轮分, 对手分, 级差), team
//! totals and award places are computed here from `tournaments.md` — not by the core's
//! standings code — and must equal the server's.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::competition::{
    director_env, entry_codes, get, login, post, post_ok, publish_round, store_file,
};
use common::{http, Addressed, Client, Endpoint, Process};
use qipai_bots::client::{play_over, websocket, ClientConfig, Entry};
use qipai_bots::observe::Observer;
use qipai_bots::table::Verdict;
use qipai_bots::{HintStrategy, TuolajiTable};
use qipai_protocol::tuolaji::TuolajiEvent;
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent};
use qipai_protocol::{ErrorCode, Event, RoomOptions, ServerMsg};
use serde_json::{json, Value};

/// The server binary.
const SERVER: &str = env!("CARGO_BIN_EXE_qipai-server");

const DEPARTMENTS: usize = 8;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The server's minute in this test (Tuolaji's round clock, xiangqi's lateness), ms.
const MINUTE: u64 = 20;

/// The Tuolaji competition's lateness minute, ms: longer, so that a loaded machine's
/// scheduling (a few tens of ms) does not move a pair into the next band.
const LATE_MINUTE: u64 = 50;

/// How a Tuolaji table of the test is scripted: which pair (0: first-named, 1: second) is
/// late by how many minutes (`None`: never comes), or everybody on time.
#[derive(Clone, Copy, Debug)]
struct Late {
    side: usize,
    minutes: Option<u64>,
}

/// The lateness script of table `n` in `round`: the first five tables of rounds 1 and 3
/// have a late pair, one per band of 第十三条; the rest are on time.
fn late_script(round: u64, n: u64) -> Option<Late> {
    if round.is_multiple_of(2) {
        return None;
    }
    let side = usize::from(round == 3);
    let minutes = match n {
        1 => Some(3),
        2 => Some(7),
        3 => Some(12),
        4 => Some(17),
        5 => None,
        _ => return None,
    };
    Some(Late { side, minutes })
}

/// The band's words in the table's note (the server's `note`), for `minutes` late.
fn band_note(minutes: u64) -> &'static str {
    match minutes {
        1..=5 => "warning",
        6..=10 => "−20 in the first hand",
        11..=15 => "−30 in the first hand",
        16..=20 => "first hand forfeited",
        _ => "round forfeited",
    }
}

/// What one bot saw of its table's Tuolaji events.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<TuolajiEvent>>>);

impl Observer for Seen {
    fn received(&mut self, msg: &ServerMsg, _at: std::time::Instant) {
        if let ServerMsg::Event {
            event: Event::Tuolaji(e),
            ..
        } = msg
        {
            self.0.lock().unwrap().push(e.clone());
        }
    }

    fn inline_strategy(&self) -> bool {
        true
    }
}

/// Plays seat `seat` of `room` as `name` (with the entry code `code`) with the hint
/// strategy, over a connection opened before the round (so that joining takes no
/// connection time), at `at`.
#[allow(clippy::too_many_arguments)]
fn tuolaji_bot(
    url: String,
    socket: Socket,
    name: String,
    code: String,
    room: u64,
    seat: u8,
    at: tokio::time::Instant,
    seen: Seen,
) -> tokio::task::JoinHandle<Verdict> {
    let config = ClientConfig {
        url,
        name,
        options: RoomOptions::Tuolaji(Default::default()),
        entry: Entry::Join {
            room_id: room,
            seat: Some(seat),
            entry_code: Some(code),
        },
        games: 1,
        idle_timeout: Duration::from_secs(20),
        regroup_after: Duration::from_secs(60),
        source: None,
    };
    tokio::spawn(async move {
        tokio::time::sleep_until(at).await;
        let reports = play_over::<TuolajiTable, _>(
            Box::new(socket),
            &config,
            HintStrategy,
            Box::new(seen),
            |_| {},
        )
        .await
        .expect("the bot plays its game");
        reports[0].ending.verdict
    })
}

/// 第十三条 as the late pair's table showed it: the first hand's result (−20/−30 against
/// the late side, failed throws aside) or the hand dealt by the opponents one level up.
fn check_band_applied(events: &[TuolajiEvent], late_side: usize, minutes: u64, what: &str) {
    // Seats 0 and 2 are the first-named pair, 1 and 3 the second (the levels' order too).
    let late_team = late_side;
    match minutes {
        6..=15 => {
            let want = if minutes <= 10 { 20 } else { 30 };
            let throws: i32 = events
                .iter()
                .take_while(|e| !matches!(e, TuolajiEvent::HandOver { .. }))
                .filter_map(|e| match e {
                    TuolajiEvent::ThrowFailed { penalty, .. } => Some(*penalty),
                    _ => None,
                })
                .sum();
            let result = events
                .iter()
                .find_map(|e| match e {
                    TuolajiEvent::HandOver { result, .. } => Some(result),
                    _ => None,
                })
                .unwrap_or_else(|| panic!("{what}: the first hand was played"));
            let late_defends = usize::from(result.dealer % 2) != late_team;
            let lateness = if late_defends { -want } else { want };
            assert_eq!(
                result.penalty_points - throws,
                lateness,
                "{what}: 第十三条 {minutes} min late: {result:?}"
            );
        }
        16..=20 => {
            let first_played = events
                .iter()
                .find_map(|e| match e {
                    TuolajiEvent::HandStarted {
                        hand_number: 2,
                        dealer,
                        levels,
                        ..
                    } => Some((*dealer, *levels)),
                    TuolajiEvent::HandOver { .. } => Some((None, [0, 0])),
                    _ => None,
                })
                .unwrap_or_else(|| panic!("{what}: a hand was played"));
            let mut levels = [2, 2];
            levels[1 - late_team] = 3;
            let dealer = u8::try_from(1 - late_team).unwrap();
            assert_eq!(
                first_played,
                (Some(dealer), levels),
                "{what}: 第十三条 {minutes} min late: the first hand forfeited, the opponents up a level"
            );
        }
        _ => {}
    }
}

/// What the test itself knows of one entry, from the pairings and the results it caused.
#[derive(Clone, Debug, Default)]
struct Line {
    team: String,
    points: u64,
    level_diff: i64,
    opponents: Vec<u64>,
    played: u64,
}

/// 五(一)4 and tournaments.md: win 2 / +2, draw 1 / 0, loss and forfeit 0 / −2; a forfeit is
/// not a game played but the opponent counts as met.
fn score(lines: &mut HashMap<u64, Line>, first: u64, second: u64, result: &str) {
    let (a, b, a_played, b_played) = match result {
        "first_wins" => ((2, 2), (0, -2), true, true),
        "second_wins" => ((0, -2), (2, 2), true, true),
        "draw" => ((1, 0), (1, 0), true, true),
        "first_forfeits" => ((0, -2), (2, 2), false, true),
        "second_forfeits" => ((2, 2), (0, -2), true, false),
        _ => panic!("unexpected result {result}"),
    };
    for (me, other, (p, l), played) in [(first, second, a, a_played), (second, first, b, b_played)]
    {
        let line = lines.get_mut(&me).unwrap();
        line.points += p;
        line.level_diff += l;
        line.opponents.push(other);
        line.played += u64::from(played);
    }
}

/// The bye: a win, 2 points and 级差 +2, nothing to 对手分 **[D]**.
fn bye(lines: &mut HashMap<u64, Line>, entry: u64) {
    let line = lines.get_mut(&entry).unwrap();
    line.points += 2;
    line.level_diff += 2;
}

/// 六: first 2, second 4, third the rest, at most two thirds (rounded down) of `eligible`.
fn award(place: usize, eligible: usize) -> Option<&'static str> {
    if place >= eligible * 2 / 3 {
        None
    } else if place < 2 {
        Some("first")
    } else if place < 6 {
        Some("second")
    } else {
        Some("third")
    }
}

/// Checks a competition's standings against the test's own lines: 对手分 is the sum of the
/// final points of every opponent met; the order is points, 对手分, 级差, then the server's
/// recorded lots.
fn check_standings(lines: &HashMap<u64, Line>, standings: &Value) -> Vec<(u64, u64, u64, i64)> {
    let rows = standings["standings"].as_array().unwrap();
    assert_eq!(rows.len(), lines.len());
    let lot: HashMap<u64, u64> = rows
        .iter()
        .map(|r| (r["entry"].as_u64().unwrap(), r["lot"].as_u64().unwrap()))
        .collect();
    let opp = |e: u64| -> u64 { lines[&e].opponents.iter().map(|o| lines[o].points).sum() };
    let mut mine: Vec<u64> = lines.keys().copied().collect();
    mine.sort_by_key(|e| {
        (
            std::cmp::Reverse((lines[e].points, opp(*e), lines[e].level_diff)),
            lot[e],
        )
    });
    let eligible = lines.values().filter(|l| l.played > 0).count();
    // 六3 [D]: award places go down the standings to the entries that played.
    let mut awarded_place = 0;
    for (place, (e, row)) in mine.iter().zip(rows).enumerate() {
        let l = &lines[e];
        assert_eq!(row["entry"].as_u64(), Some(*e), "place {place}");
        assert_eq!(row["rank"].as_u64(), Some(place as u64 + 1));
        assert_eq!(row["points"].as_u64(), Some(l.points), "entry {e}");
        assert_eq!(row["opponents_points"].as_u64(), Some(opp(*e)), "entry {e}");
        assert_eq!(row["level_diff"].as_i64(), Some(l.level_diff), "entry {e}");
        assert_eq!(row["played"].as_u64(), Some(l.played), "entry {e}");
        let want = if l.played > 0 {
            awarded_place += 1;
            award(awarded_place - 1, eligible)
        } else {
            None
        };
        assert_eq!(row["award"].as_str(), want, "entry {e} at place {place}");
    }
    mine.iter()
        .map(|e| (*e, lines[e].points, opp(*e), lines[e].level_diff))
        .collect()
}

/// Round `round` of competition `c` once every table has a result (polled).
async fn round_done(s: &impl Addressed, c: u64, round: u64) -> Value {
    let path = format!("/api/competitions/{c}/rounds/{round}");
    let mut done = Value::Null;
    for _ in 0..300 {
        done = get(s, &path).await.1;
        if done["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|tb| !tb["result"].is_null())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done
}

/// Table `n` of a round's answer.
fn table_of(round: &Value, n: u64) -> &Value {
    round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tb| tb["table"] == n)
        .unwrap()
}

/// What the director says when recording a live table's result over its game.
const OVERRULING: &str = "仲裁: a phone rang at the table twice (the event's rules)";

/// How a xiangqi table of the test is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    /// Red never comes: it forfeits by lateness (4.1.5).
    RedAbsent,
    RedResigns,
    BlackResigns,
    /// Red moves, and Black leaves before its first move, trying to abort the game: the
    /// table waits, and Black, absent at the limit, loses (never a draw).
    BlackLeavesBeforeItsFirstMove,
    /// Both move; the director records a result over the game being played, with a reason.
    Overruled,
}

impl Script {
    /// Table `n` of xiangqi round `round`.
    fn of(round: u64, n: u64) -> Script {
        match (round, n) {
            (1, 2) => Script::BlackLeavesBeforeItsFirstMove,
            (4, 3) => Script::Overruled,
            _ => match (round * 7 + n * 3) % 4 {
                0 => Script::RedAbsent,
                1 => Script::RedResigns,
                _ => Script::BlackResigns,
            },
        }
    }

    /// The table's result, from the first-named entry's (Red's) side.
    fn result(self) -> &'static str {
        match self {
            Script::RedAbsent => "first_forfeits",
            Script::RedResigns | Script::Overruled => "second_wins",
            Script::BlackResigns | Script::BlackLeavesBeforeItsFirstMove => "first_wins",
        }
    }
}

/// Sends `action` again until it is accepted: the table's game begins a moment after the
/// round's start (when its watcher sees the start), not with the director's answer.
async fn until_accepted(client: &mut Client, action: XiangqiAction) {
    for _ in 0..200 {
        let seq = client.xq(action.clone()).await;
        if matches!(client.answer(seq).await, ServerMsg::Ok { .. }) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{action:?} was never accepted");
}

/// Waits until `client` sees the other side's move.
async fn moved(client: &mut Client) {
    client
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { .. })))
        .await;
}

/// The competitions of the day and what the test itself knows of them.
struct Day {
    token: String,
    /// Tuolaji and xiangqi.
    t: u64,
    x: u64,
    codes: HashMap<String, String>,
    tl: HashMap<u64, Line>,
    xl: HashMap<u64, Line>,
    /// The xiangqi entry withdrawn after round 2 (tournaments.md "The day itself").
    withdrawn: Option<u64>,
}

/// The server's settings for the day: connections of 61 players and a director from one
/// address, whole deals in one burst to 48 players, the notice's 90-minute round in 1.8 s,
/// and a xiangqi first move due 2 s after its turn came at the earliest (a loaded machine
/// never makes a scripted player absent).
fn day_env() -> Vec<(&'static str, String)> {
    let mut env = director_env();
    env.extend([
        ("QIPAI_LIMITS__MAX_CONNECTIONS_PER_ADDR", "10000".into()),
        ("QIPAI_LIMITS__CONNECT_RATE_PER_ADDR", "10000".into()),
        ("QIPAI_LIMITS__CONNECT_BURST_PER_ADDR", "10000".into()),
        ("QIPAI_SERVER__OUTBOUND_QUEUE", "65536".into()),
        ("QIPAI_LIMITS__MAX_OUTBOUND_BYTES", (1u64 << 26).to_string()),
        ("QIPAI_TUOLAJI__MINUTE_MS", MINUTE.to_string()),
        ("QIPAI_XIANGQI__FIRST_MOVE_MS", "2000".into()),
    ]);
    env
}

/// Creates both competitions, imports the form and hands out the entry codes.
async fn set_up(s: &Process) -> Day {
    let token = login(s).await;
    let t = post_ok(
        s,
        &token,
        "/api/director/competitions",
        &json!({"name":"拖拉机","event":"tuolaji","rounds":4,"seed":2026,
                "table_options":{"game":"tuolaji","preset":"competition","deal_interval_ms":0,
                    "bid_window_ms":30,"bottom_ms":10000,"turn_ms":10000,"between_hands_ms":0,"trick_pause_ms":0},
                "lateness_unit_ms":LATE_MINUTE})
        .to_string(),
    )
    .await["id"]
        .as_u64()
        .unwrap();
    let x = post_ok(
        s,
        &token,
        "/api/director/competitions",
        &json!({"name":"象棋","event":"xiangqi","rounds":4,"seed":1949,"partner":t,
                "table_options":{"game":"xiangqi"},"lateness_unit_ms":MINUTE})
        .to_string(),
    )
    .await["id"]
        .as_u64()
        .unwrap();
    // The form: three pairs per department, and 13 xiangqi players over the 8 departments.
    let mut form = String::from("department,event,pair,name,phone,joined_group\n");
    for d in 0..DEPARTMENTS {
        for p in 1..=3 {
            for who in ["a", "b"] {
                form += &format!("Dept{d},tuolaji,{p},T{d}p{p}{who},1380000{d}{p},是\n");
            }
        }
    }
    for i in 0..13 {
        form += &format!("Dept{},xiangqi,,X{i},,\n", i % DEPARTMENTS);
    }
    let path = format!("/api/director/competitions/{t}/entries");
    let v = post_ok(s, &token, &path, &form).await;
    assert_eq!(
        (v["imported"].as_u64(), v["imported_into_partner"].as_u64()),
        (Some(24), Some(13))
    );
    // Each player sits with their own entry code (the director hands them out).
    let mut codes = entry_codes(s, &token, t).await;
    codes.extend(entry_codes(s, &token, x).await);
    assert_eq!(codes.len(), 24 * 2 + 13);
    let mut day = Day {
        token,
        t,
        x,
        codes,
        tl: HashMap::new(),
        xl: HashMap::new(),
        withdrawn: None,
    };
    for (lines, c) in [(&mut day.tl, t), (&mut day.xl, x)] {
        let entries = get(s, &format!("/api/competitions/{c}/entries")).await.1;
        for e in entries["entries"].as_array().unwrap() {
            lines.insert(
                e["entry"].as_u64().unwrap(),
                Line {
                    team: e["team"].as_str().unwrap().into(),
                    ..Line::default()
                },
            );
        }
    }
    day
}

/// Xiangqi round `round`: published, every entrant who comes sits (before the start: never
/// late), the director starts it, and every table is played at the server as
/// [`Script::of`] says. Round 3 is first published, undone before any result, and paired
/// again: the same round from the recorded seed.
async fn xiangqi_round(s: &Process, day: &mut Day, round: u64) {
    let (token, x) = (day.token.clone(), day.x);
    let mut r = publish_round(s, &token, x).await;
    assert_eq!(r["state"], "published", "{r}");
    if round == 3 {
        let undo = format!("/api/director/competitions/{x}/rounds/3/undo");
        post_ok(s, &token, &undo, "").await;
        let again = publish_round(s, &token, x).await;
        let pairs = |v: &Value| {
            let tables = v["tables"].as_array().unwrap().iter();
            let pairs: Vec<Value> = tables
                .map(|tb| json!([tb["first"]["entry"], tb["second"]["entry"]]))
                .collect();
            (pairs, v["bye"].clone(), v["seed"].clone())
        };
        assert_eq!(pairs(&again), pairs(&r), "round 3 paired again");
        r = again;
    }
    match (r["bye"]["entry"].as_u64(), day.withdrawn) {
        (Some(e), None) => bye(&mut day.xl, e),
        (None, Some(w)) => {
            // Twelve entries left: no bye, and the withdrawn one is not paired.
            assert!(
                r["tables"].as_array().unwrap().iter().all(|tb| {
                    tb["first"]["entry"].as_u64() != Some(w)
                        && tb["second"]["entry"].as_u64() != Some(w)
                }),
                "{r}"
            );
        }
        other => panic!("xiangqi round {round}: bye {other:?}: {r}"),
    }
    let mut tables = Vec::new();
    for tb in r["tables"].as_array().unwrap() {
        let n = tb["table"].as_u64().unwrap();
        let room = tb["room"].as_u64().unwrap();
        let (red, black) = (
            tb["first"]["players"][0].as_str().unwrap(),
            tb["second"]["players"][0].as_str().unwrap(),
        );
        let script = Script::of(round, n);
        let mut b = Client::hello(s, black).await;
        b.join_with(room, None, Some(&day.codes[black])).await;
        let r = if script == Script::RedAbsent {
            None
        } else {
            let mut r = Client::hello(s, red).await;
            r.join_with(room, None, Some(&day.codes[red])).await;
            Some(r)
        };
        let (first, second) = (
            tb["first"]["entry"].as_u64(),
            tb["second"]["entry"].as_u64(),
        );
        tables.push((n, first.unwrap(), second.unwrap(), script, r, b));
    }
    let start = format!("/api/director/competitions/{x}/rounds/{round}/start");
    post_ok(s, &token, &start, "").await;
    for (n, _, _, script, r, b) in &mut tables {
        let Some(r) = r else {
            continue; // Red never comes.
        };
        match script {
            Script::RedResigns => until_accepted(r, XiangqiAction::Resign).await,
            Script::BlackResigns => until_accepted(b, XiangqiAction::Resign).await,
            Script::BlackLeavesBeforeItsFirstMove => {
                until_accepted(
                    r,
                    XiangqiAction::Move {
                        iccs: "h2e2".into(),
                    },
                )
                .await;
                moved(b).await;
                b.leave().await;
            }
            Script::Overruled => {
                until_accepted(
                    r,
                    XiangqiAction::Move {
                        iccs: "h2e2".into(),
                    },
                )
                .await;
                moved(b).await;
                b.play("h7e7").await;
                overrule(s, &token, x, round, *n, script.result()).await;
                for c in [r, b] {
                    let (code, message) = c.error_for(None).await;
                    assert_eq!(code, ErrorCode::TableClosed, "{message}");
                    assert!(message.contains(OVERRULING), "{message}");
                }
            }
            Script::RedAbsent => unreachable!("Red is absent"),
        }
    }
    let done = round_done(s, x, round).await;
    for (n, first, second, script, _, _) in &tables {
        let tb = table_of(&done, *n);
        let result = script.result();
        assert_eq!(
            tb["result"], result,
            "xiangqi round {round} table {n}: {tb}"
        );
        let note = tb["note"].as_str().unwrap();
        match script {
            Script::RedAbsent => assert!(note.contains("first entry 16 min late"), "{tb}"),
            Script::Overruled => assert!(
                note.contains(&format!(
                    "director's result over the game at the table: {OVERRULING}"
                )),
                "{tb}"
            ),
            _ => assert!(!note.contains("late"), "seated before the start: {tb}"),
        }
        score(&mut day.xl, *first, *second, result);
    }
    drop(tables);
    if round == 2 {
        // A player leaves the event: paired no more, the results stand.
        let w = r["tables"][0]["first"]["entry"].as_u64().unwrap();
        let path = format!("/api/director/competitions/{x}/entries/{w}/withdraw");
        post_ok(s, &token, &path, "").await;
        day.withdrawn = Some(w);
    }
}

/// The director records `result` at a table whose game is being played: refused
/// (`table_live`, 409) without an override, recorded with one and a reason.
async fn overrule(s: &Process, token: &str, x: u64, round: u64, n: u64, result: &str) {
    let path = format!("/api/director/competitions/{x}/results");
    let plain = json!({"round": round, "table": n, "result": result}).to_string();
    let (status, v) = post(s, Some(token), &path, &plain).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("table_live")),
        "{v}"
    );
    let body = json!({"round": round, "table": n, "result": result,
        "override": true, "reason": OVERRULING})
    .to_string();
    post_ok(s, token, &path, &body).await;
}

/// Tuolaji round `round`: every table played by four bots; some pairs late (第十三条).
async fn tuolaji_round(s: &Process, day: &mut Day, round: u64) {
    let (token, t) = (day.token.clone(), day.t);
    // Every player's connection is open before the round starts.
    let mut sockets = Vec::new();
    for _ in 0..DEPARTMENTS * 3 * 2 {
        sockets.push(websocket(&s.ws_url(), None).await.expect("a connection"));
    }
    // Published with a start time: the pairs on time sit before it (and are never late),
    // the late ones come after it.
    let lead = Duration::from_millis(600);
    let unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    let start_at_ms = (unix + lead).as_millis();
    let started = tokio::time::Instant::now() + lead;
    let body = json!({ "start_at_ms": u64::try_from(start_at_ms).unwrap() }).to_string();
    let path = format!("/api/director/competitions/{t}/rounds");
    let r = post_ok(s, &token, &path, &body).await;
    assert_eq!(r["state"], "scheduled", "{r}");
    assert!(r["bye"].is_null(), "24 pairs: no bye");
    let mut games = Vec::new();
    for tb in r["tables"].as_array().unwrap() {
        let n = tb["table"].as_u64().unwrap();
        let room = tb["room"].as_u64().unwrap();
        let late = late_script(round, n);
        let seen = Seen::default();
        let mut bots = Vec::new();
        for seat in 0..4u8 {
            let side = usize::from(seat % 2);
            let entry = if side == 0 { "first" } else { "second" };
            let name = tb[entry]["players"][usize::from(seat / 2)]
                .as_str()
                .unwrap()
                .to_owned();
            let at = match late {
                Some(Late { side: l, minutes }) if l == side => match minutes {
                    Some(m) => started + Duration::from_millis(m * LATE_MINUTE),
                    None => continue, // Never comes.
                },
                _ => tokio::time::Instant::now(),
            };
            let watch = if seat == 0 {
                seen.clone()
            } else {
                Seen::default()
            };
            let socket = sockets.pop().expect("a connection per player");
            let code = day.codes[&name].clone();
            let bot = tuolaji_bot(s.ws_url(), socket, name, code, room, seat, at, watch);
            bots.push((seat, bot));
        }
        games.push((n, tb.clone(), late, seen, bots));
    }
    // A bot that fails (its task panics, or its game never ends) fails the test: each is
    // awaited at most until the round's end plus a margin, and its panic is the test's.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let mut expected = Vec::new();
    for (n, tb, late, seen, bots) in games {
        let mut verdict = None;
        for (seat, bot) in bots {
            if matches!(late, Some(Late { minutes: None, .. })) {
                // The table never starts: the pair present waits until the test ends.
                bot.abort();
                continue;
            }
            let v = tokio::time::timeout_at(deadline, bot)
                .await
                .unwrap_or_else(|_| panic!("Tuolaji round {round} table {n}: a bot never ended"))
                .unwrap_or_else(|e| panic!("Tuolaji round {round} table {n}: a bot failed: {e}"));
            if seat == 0 {
                verdict = Some(v);
            }
        }
        let result = match (late, verdict) {
            (
                Some(Late {
                    side: 0,
                    minutes: None,
                }),
                _,
            ) => "first_forfeits",
            (Some(Late { minutes: None, .. }), _) => "second_forfeits",
            (_, Some(Verdict::Win)) => "first_wins",
            (_, Some(Verdict::Loss)) => "second_wins",
            (_, Some(Verdict::Draw)) => "draw",
            (_, v) => panic!("Tuolaji round {round} table {n}: {v:?}"),
        };
        if let Some(Late {
            side,
            minutes: Some(m),
        }) = late
        {
            let events = seen.0.lock().unwrap().clone();
            check_band_applied(&events, side, m, &format!("round {round} table {n}"));
        }
        expected.push((
            n,
            tb["first"]["entry"].as_u64().unwrap(),
            tb["second"]["entry"].as_u64().unwrap(),
            result,
            late,
        ));
    }
    let done = round_done(s, t, round).await;
    for (n, first, second, result, late) in expected {
        let tb = table_of(&done, n);
        assert_eq!(
            tb["result"], result,
            "Tuolaji round {round} table {n}: {tb}"
        );
        let note = tb["note"].as_str().unwrap();
        if let Some(Late { side, minutes }) = late {
            let who = if side == 0 { "first" } else { "second" };
            let m = minutes.unwrap_or(21);
            assert!(
                note.contains(&format!("{who} entry")) && note.contains(band_note(m)),
                "Tuolaji round {round} table {n}, {who} pair {m} min late: {note}"
            );
        }
        // Seated before the round's start: never late.
        let on_time: &[&str] = match late {
            Some(Late { side: 0, .. }) => &["second"],
            Some(_) => &["first"],
            None => &["first", "second"],
        };
        for who in on_time {
            assert!(
                !note.contains(&format!("{who} entry")),
                "Tuolaji round {round} table {n}: the {who} pair sat before the start: {note}"
            );
        }
        score(&mut day.tl, first, second, result);
    }
}

/// After round `round`: both competitions' standings, the team totals and the award places
/// as the server shows them, against the test's own reading of the rules page; all of them
/// provisional until the last round is recorded.
async fn check_round(s: &Process, day: &Day, round: u64) {
    let (t, x) = (day.t, day.x);
    let provisional = round < 4;
    let t_standings = get(s, &format!("/api/competitions/{t}/standings")).await.1;
    let x_standings = get(s, &format!("/api/competitions/{x}/standings")).await.1;
    for v in [&t_standings, &x_standings] {
        assert_eq!(v["provisional"], provisional, "after round {round}: {v}");
    }
    let t_rows = check_standings(&day.tl, &t_standings);
    let x_rows = check_standings(&day.xl, &x_standings);

    // Teams (六): each department's two best entries over both events.
    let teams = get(s, &format!("/api/competitions/{t}/teams")).await.1;
    assert_eq!(teams["provisional"], provisional, "after round {round}");
    let rows = teams["teams"].as_array().unwrap();
    assert_eq!(rows.len(), DEPARTMENTS);
    let lot: HashMap<String, u64> = rows
        .iter()
        .map(|r| {
            (
                r["team"].as_str().unwrap().to_owned(),
                r["lot"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut totals: Vec<(String, u64, u64, i64)> = (0..DEPARTMENTS)
        .map(|d| {
            let team = format!("Dept{d}");
            let mut mine: Vec<(u64, u64, i64)> = t_rows
                .iter()
                .filter(|r| day.tl[&r.0].team == team)
                .chain(x_rows.iter().filter(|r| day.xl[&r.0].team == team))
                .map(|r| (r.1, r.2, r.3))
                .collect();
            mine.sort_by_key(|m| std::cmp::Reverse(*m));
            mine.truncate(2);
            let sum = mine
                .iter()
                .fold((0, 0, 0), |a, m| (a.0 + m.0, a.1 + m.1, a.2 + m.2));
            (team, sum.0, sum.1, sum.2)
        })
        .collect();
    totals
        .sort_by_key(|(team, total, opp, ld)| (std::cmp::Reverse((*total, *opp, *ld)), lot[team]));
    for (place, (want, row)) in totals.iter().zip(rows).enumerate() {
        let what = format!("after round {round}, team place {place}: {row}");
        assert_eq!(row["team"].as_str(), Some(want.0.as_str()), "{what}");
        assert_eq!(row["total"].as_u64(), Some(want.1), "{what}");
        assert_eq!(row["opponents_points"].as_u64(), Some(want.2), "{what}");
        assert_eq!(row["level_diff"].as_i64(), Some(want.3), "{what}");
        assert_eq!(row["award"].as_str(), award(place, DEPARTMENTS), "{what}");
    }
    // The awards page lists exactly the places given.
    let awards = get(s, &format!("/api/competitions/{x}/awards")).await.1;
    assert_eq!(awards["provisional"], provisional, "{awards}");
    assert_eq!(awards["teams_provisional"], provisional, "{awards}");
    assert_eq!(
        awards["teams"].as_array().unwrap().len(),
        DEPARTMENTS * 2 / 3
    );
    let x_awarded = day.xl.values().filter(|l| l.played > 0).count() * 2 / 3;
    assert!(awards["entries"].as_array().unwrap().len() <= x_awarded);
}

#[tokio::test]
async fn the_whole_event() {
    let (file, url) = store_file("whole_event");
    let env = day_env();
    let mut ports = 31_400..31_800;
    let mut s = Process::start(SERVER, &url, &env, &mut ports).await;
    let mut day = set_up(&s).await;
    for round in 1..=4u64 {
        xiangqi_round(&s, &mut day, round).await;
        tuolaji_round(&s, &mut day, round).await;
        check_round(&s, &day, round).await;
        if round == 2 {
            // The server dies between rounds (SIGKILL: no goodbye) and is started again on
            // its store: everything stands, and the event goes on.
            s.kill();
            s = Process::start(SERVER, &url, &env, &mut ports).await;
            check_round(&s, &day, round).await;
        }
    }
    // Every pairing of four Swiss rounds avoided a rematch where it could: here it always could.
    for lines in [&day.tl, &day.xl] {
        for (e, l) in lines {
            let mut met = l.opponents.clone();
            met.sort_unstable();
            met.dedup();
            assert_eq!(
                met.len(),
                l.opponents.len(),
                "entry {e} met someone twice: {:?}",
                l.opponents
            );
        }
    }
    let csv = http(
        &s,
        "GET",
        &format!("/api/competitions/{}/awards.csv", day.t),
        &[],
        "",
    )
    .await;
    assert!(
        csv.contains("kind,rank,award,award_zh,team,players,points"),
        "{csv}"
    );
    assert!(!csv.contains("1380000"), "no contacts in the awards");
    s.kill();
    let _ = std::fs::remove_file(&file);
}
