//! The whole event of the seed's notice, through the real server:
//! 8 departments, 24 Tuolaji pairs and 13 xiangqi players (odd: a bye each round), four
//! Swiss rounds each. Every xiangqi game is played at its table by scripted clients (one
//! side resigns) or lost by an entrant who never comes (4.1.5 lateness, fast "minutes" of
//! 20 ms). Every Tuolaji table is played at the server by four bot clients
//! (`qipai_bots`, the hint strategy) through the notice's 90-minute round with the last hand
//! called at 75 (the server's minute is 20 ms here): the result is the table's own (levels
//! reached), as the bots saw it. Some pairs come late by each band of 第十三条 (a warning,
//! −20 and −30 in the first hand, the first hand forfeited, never: the round forfeited),
//! and the test checks at the table that each band was applied; each Tuolaji round is
//! published with a start time, the pairs on time sit before it and are never late. A
//! xiangqi round is undone before any result and paired again the same, and a xiangqi
//! player withdraws after round 2 (no bye from then on). The final standings, team
//! totals and award places are computed here from `tournaments.md` — not by the core's
//! standings code — and must equal the server's.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::competition::{
    entry_codes, get, login, post_ok as post, publish_round, server_with_director, start_round,
};
use common::{http, Client};
use qipai_bots::client::{play_over, websocket, ClientConfig, Entry};
use qipai_bots::observe::Observer;
use qipai_bots::table::Verdict;
use qipai_bots::{HintStrategy, TuolajiTable};
use qipai_protocol::tuolaji::TuolajiEvent;
use qipai_protocol::xiangqi::XiangqiAction;
use qipai_protocol::{Event, RoomOptions, ServerMsg};
use serde_json::{json, Value};

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
    s: &common::TestServer,
    socket: Socket,
    name: String,
    code: String,
    room: u64,
    seat: u8,
    at: tokio::time::Instant,
    seen: Seen,
) -> tokio::task::JoinHandle<Verdict> {
    let config = ClientConfig {
        url: s.url(),
        name,
        options: RoomOptions::Tuolaji(Default::default()),
        entry: Entry::Join {
            room_id: room,
            seat: Some(seat),
            entry_code: Some(code),
        },
        games: 1,
        idle_timeout: Duration::from_secs(60),
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
async fn round_done(s: &common::TestServer, c: u64, round: u64) -> Value {
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

#[tokio::test]
async fn the_whole_event() {
    let s = server_with_director(|c| {
        c.limits.max_connections_per_addr = 10_000;
        c.limits.connect_rate_per_addr = 10_000;
        c.limits.connect_burst_per_addr = 10_000;
        // A whole deal in one burst to 48 players.
        c.server.outbound_queue = 1 << 16;
        c.limits.max_outbound_bytes = 1 << 26;
        // The notice's 90-minute round in 1.8 s.
        c.tuolaji.house.minute_ms = MINUTE;
    })
    .await;
    let token = login(&s).await;
    let t = post(
        &s,
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
    let x = post(
        &s,
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
    let v = post(
        &s,
        &token,
        &format!("/api/director/competitions/{t}/entries"),
        &form,
    )
    .await;
    assert_eq!(
        (v["imported"].as_u64(), v["imported_into_partner"].as_u64()),
        (Some(24), Some(13))
    );
    // Each player sits with their own entry code (the director hands them out).
    let mut codes = entry_codes(&s, &token, t).await;
    codes.extend(entry_codes(&s, &token, x).await);
    assert_eq!(codes.len(), 24 * 2 + 13);

    let entries = |c: u64| {
        let s = &s;
        async move { get(s, &format!("/api/competitions/{c}/entries")).await.1 }
    };
    let mut tl: HashMap<u64, Line> = HashMap::new();
    let mut xl: HashMap<u64, Line> = HashMap::new();
    for (lines, c) in [(&mut tl, t), (&mut xl, x)] {
        for e in entries(c).await["entries"].as_array().unwrap() {
            lines.insert(
                e["entry"].as_u64().unwrap(),
                Line {
                    team: e["team"].as_str().unwrap().into(),
                    ..Line::default()
                },
            );
        }
    }

    // The xiangqi entry withdrawn after round 2 (tournaments.md "The day itself").
    let mut withdrawn = None;
    for round in 1..=4u64 {
        // Xiangqi: every table played at the server. Round 3 is first published, undone
        // before any result, and paired again: the same round from the recorded seed.
        let r = if round == 3 {
            let published = publish_round(&s, &token, x).await;
            assert_eq!(published["state"], "published", "{published}");
            let undo = format!("/api/director/competitions/{x}/rounds/3/undo");
            post(&s, &token, &undo, "").await;
            let again = start_round(&s, &token, x).await;
            let pairs = |v: &Value| {
                let tables = v["tables"].as_array().unwrap().iter();
                let pairs: Vec<Value> = tables
                    .map(|tb| json!([tb["first"]["entry"], tb["second"]["entry"]]))
                    .collect();
                (pairs, v["bye"].clone(), v["seed"].clone())
            };
            assert_eq!(pairs(&again), pairs(&published), "round 3 paired again");
            again
        } else {
            start_round(&s, &token, x).await
        };
        match (r["bye"]["entry"].as_u64(), withdrawn) {
            (Some(e), None) => bye(&mut xl, e),
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
        let mut clients = Vec::new();
        let mut expected = Vec::new();
        for tb in r["tables"].as_array().unwrap() {
            let n = tb["table"].as_u64().unwrap();
            let room = tb["room"].as_u64().unwrap();
            let (red, black) = (
                tb["first"]["players"][0].as_str().unwrap(),
                tb["second"]["players"][0].as_str().unwrap(),
            );
            let script = (round * 7 + n * 3) % 4;
            let result = match script {
                0 => "first_forfeits", // Red never comes (4.1.5).
                1 => "second_wins",    // Red resigns.
                _ => "first_wins",     // Black resigns.
            };
            let mut b = Client::hello(&s, black).await;
            b.join_with(room, None, Some(&codes[black])).await;
            if script != 0 {
                let mut r = Client::hello(&s, red).await;
                r.join_with(room, None, Some(&codes[red])).await;
                if script == 1 {
                    r.xq(XiangqiAction::Resign).await;
                } else {
                    b.xq(XiangqiAction::Resign).await;
                }
                clients.push(r);
            }
            clients.push(b);
            expected.push((
                n,
                tb["first"]["entry"].as_u64().unwrap(),
                tb["second"]["entry"].as_u64().unwrap(),
                result,
            ));
        }
        let done = round_done(&s, x, round).await;
        for (n, first, second, result) in expected {
            let tb = table_of(&done, n);
            assert_eq!(
                tb["result"], result,
                "xiangqi round {round} table {n}: {tb}"
            );
            if result == "first_forfeits" {
                assert!(
                    tb["note"]
                        .as_str()
                        .unwrap()
                        .contains("first entry 16 min late"),
                    "{tb}"
                );
            }
            score(&mut xl, first, second, result);
        }
        drop(clients);
        if round == 2 {
            // A player leaves the event: paired no more, the results stand.
            let w = r["tables"][0]["first"]["entry"].as_u64().unwrap();
            let path = format!("/api/director/competitions/{x}/entries/{w}/withdraw");
            post(&s, &token, &path, "").await;
            withdrawn = Some(w);
        }

        // Tuolaji: every table played by four bots; some pairs late (第十三条).
        // Every player's connection is open before the round starts.
        let mut sockets = Vec::new();
        for _ in 0..DEPARTMENTS * 3 * 2 {
            sockets.push(websocket(&s.url(), None).await.expect("a connection"));
        }
        // Published with a start time: the pairs on time sit before it (and are never
        // late), the late ones come after it.
        let lead = Duration::from_millis(600);
        let unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        let start_at_ms = (unix + lead).as_millis();
        let started = tokio::time::Instant::now() + lead;
        let body = json!({ "start_at_ms": u64::try_from(start_at_ms).unwrap() }).to_string();
        let r = post(
            &s,
            &token,
            &format!("/api/director/competitions/{t}/rounds"),
            &body,
        )
        .await;
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
                let code = codes[&name].clone();
                bots.push((
                    seat,
                    tuolaji_bot(&s, socket, name, code, room, seat, at, watch),
                ));
            }
            games.push((n, tb.clone(), late, seen, bots));
        }
        let mut expected = Vec::new();
        for (n, tb, late, seen, bots) in games {
            let mut verdict = None;
            for (seat, bot) in bots {
                if matches!(late, Some(Late { minutes: None, .. })) {
                    // The table never starts: the pair present waits until the test ends.
                    bot.abort();
                    continue;
                }
                let v = bot.await.unwrap();
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
        let done = round_done(&s, t, round).await;
        for (n, first, second, result, late) in expected {
            let tb = table_of(&done, n);
            assert_eq!(
                tb["result"], result,
                "Tuolaji round {round} table {n}: {tb}"
            );
            if let Some(Late { side, minutes }) = late {
                let who = if side == 0 { "first" } else { "second" };
                let note = tb["note"].as_str().unwrap();
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
            let note = tb["note"].as_str().unwrap();
            for who in on_time {
                assert!(
                    !note.contains(&format!("{who} entry")),
                    "Tuolaji round {round} table {n}: the {who} pair sat before the start: {note}"
                );
            }
            score(&mut tl, first, second, result);
        }
    }
    // Every pairing of four Swiss rounds avoided a rematch where it could: here it always could.
    for lines in [&tl, &xl] {
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

    let t_rows = check_standings(
        &tl,
        &get(&s, &format!("/api/competitions/{t}/standings")).await.1,
    );
    let x_rows = check_standings(
        &xl,
        &get(&s, &format!("/api/competitions/{x}/standings")).await.1,
    );

    // Teams (六): each department's two best entries over both events.
    let teams = get(&s, &format!("/api/competitions/{t}/teams")).await.1;
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
                .filter(|r| tl[&r.0].team == team)
                .chain(x_rows.iter().filter(|r| xl[&r.0].team == team))
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
        assert_eq!(
            row["team"].as_str(),
            Some(want.0.as_str()),
            "team place {place}"
        );
        assert_eq!(row["total"].as_u64(), Some(want.1));
        assert_eq!(row["opponents_points"].as_u64(), Some(want.2));
        assert_eq!(row["level_diff"].as_i64(), Some(want.3));
        assert_eq!(
            row["award"].as_str(),
            award(place, DEPARTMENTS),
            "team place {place}"
        );
    }
    // The awards page lists exactly the places given.
    let awards = get(&s, &format!("/api/competitions/{x}/awards")).await.1;
    assert_eq!(
        awards["teams"].as_array().unwrap().len(),
        DEPARTMENTS * 2 / 3
    );
    let x_awarded = xl.values().filter(|l| l.played > 0).count() * 2 / 3;
    assert!(awards["entries"].as_array().unwrap().len() <= x_awarded);
    let csv = http(
        &s,
        "GET",
        &format!("/api/competitions/{t}/awards.csv"),
        &[],
        "",
    )
    .await;
    assert!(
        csv.contains("kind,rank,award,award_zh,team,players,points"),
        "{csv}"
    );
    assert!(!csv.contains("1380000"), "no contacts in the awards");
}
