//! Bots in entrants' places at a Tuolaji competition table (a rehearsal): each bot is given
//! only its player's entry code, asks `POST /api/entry` until the round that seats it is
//! published, sits there with the code and plays (`qipai-bot --entry-code`, through the
//! same library calls). The table's result is recorded as the game ends; a pair that comes
//! late loses its 第十三条 points inside the first hand. The server's minute is 50 ms (the
//! 90-minute round in 4.5 s).

mod common;

use std::time::Duration;

use common::competition::{
    create_competition, entry_codes, login, server_with_director, start_round, until,
};
use common::{Client, TestServer};
use qipai_bots::client::ClientConfig;
use qipai_bots::entry_code::{self, Lookup};
use qipai_bots::games::{self, Ask};
use qipai_protocol::tuolaji::{HandResult, TuolajiEvent};
use qipai_protocol::{Event, RoomOptions, ServerMsg};
use serde_json::{json, Value};

/// The server's Tuolaji minute, ms: the round clock (五(一)3).
const MINUTE: u64 = 50;

/// The competition's lateness minute, ms (第十三条): long enough that scheduling on a
/// loaded machine does not move a pair into another band.
const LATE_MINUTE: u64 = 200;

/// A server with the director and a Tuolaji competition of two pairs (one table).
async fn set_up() -> (TestServer, String, u64) {
    let s = server_with_director(|c| c.tuolaji.house.minute_ms = MINUTE).await;
    let token = login(&s).await;
    let settings = json!({"name":"工会杯 拖拉机","event":"tuolaji","rounds":1,"seed":3,
        "table_options":{"game":"tuolaji","preset":"competition","deal_interval_ms":0,
            "bid_window_ms":30,"bottom_ms":10000,"turn_ms":10000,"between_hands_ms":0,
            "trick_pause_ms":0},
        "lateness_unit_ms":LATE_MINUTE});
    let form = "甲,拖拉机,1,赵一\n甲,拖拉机,1,钱二\n乙,拖拉机,1,孙三\n乙,拖拉机,1,李四\n";
    let id = create_competition(&s, &token, &settings, form).await.0;
    (s, token, id)
}

/// A bot playing the seat of the holder of `code`, as `qipai-bot --entry-code` does: it
/// waits for its table (asking every 20 ms), then plays the competition's game there.
fn bot(s: &TestServer, name: &str, code: String) -> tokio::task::JoinHandle<()> {
    let url = s.url();
    let name = name.to_owned();
    tokio::spawn(async move {
        let every = Duration::from_millis(20);
        let seat = entry_code::wait_for_seat(&url, &code, every, Duration::from_secs(20))
            .await
            .expect("the bot finds its table");
        let config = ClientConfig {
            url,
            name,
            options: RoomOptions::Tuolaji(Default::default()),
            entry: seat.entry(&code),
            games: 1,
            idle_timeout: Duration::from_secs(30),
            regroup_after: Duration::from_secs(30),
            source: None,
        };
        let ask = Ask {
            search: true,
            think_ms: 10,
            tt_mb: 1,
            seed: 0,
            time_control: None,
            start_fen: None,
        };
        let reports = games::play(seat.game, config, &ask, |_| {})
            .await
            .expect("the bot plays its game");
        assert_eq!(reports.len(), 1);
    })
}

/// The names of round 1's table by side (0: the first-named pair, seats 0 and 2).
fn pairs(round: &Value) -> [Vec<String>; 2] {
    ["first", "second"].map(|side| {
        round["tables"][0][side]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect()
    })
}

/// Waits for round 1's table to have its result.
async fn result_of_table(s: &TestServer, id: u64) -> Value {
    let path = format!("/api/competitions/{id}/rounds/1");
    for _ in 0..10 {
        let v = until(s, &path, |v| {
            !v["tables"][0]["result"].is_null() || v["tables"][0]["status"] == "playing"
        })
        .await;
        if !v["tables"][0]["result"].is_null() {
            return v["tables"][0].clone();
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("round 1's table never got its result");
}

#[tokio::test]
async fn four_bots_with_entry_codes_play_a_competition_table_to_its_result() {
    let (s, token, id) = set_up().await;
    let codes = entry_codes(&s, &token, id).await;
    // Before the round is paired a code's holder has no table yet.
    let code = codes.values().next().unwrap();
    let early = entry_code::look_up(&s.url(), code).await.unwrap();
    assert_eq!(early, Lookup::Waiting);
    // The bots start first and wait for their tables, as in a rehearsal.
    let bots: Vec<_> = codes
        .iter()
        .map(|(name, code)| bot(&s, name, code.clone()))
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    start_round(&s, &token, id).await;
    let table = result_of_table(&s, id).await;
    for b in bots {
        b.await.unwrap();
    }
    let result = table["result"].as_str().unwrap();
    assert!(
        ["first_wins", "second_wins", "draw"].contains(&result),
        "{table}"
    );
    assert_eq!(table["status"], "finished", "{table}");
}

/// The first hand's result and the failed throws' penalties before it, as a spectator saw
/// the table.
async fn first_hand(watcher: &mut Client) -> (HandResult, i32) {
    let mut throws = 0;
    loop {
        if let ServerMsg::Event {
            event: Event::Tuolaji(e),
            ..
        } = watcher.recv().await
        {
            match e {
                TuolajiEvent::ThrowFailed { penalty, .. } => throws += penalty,
                TuolajiEvent::HandOver { result, .. } => return (result, throws),
                _ => {}
            }
        }
    }
}

#[tokio::test]
async fn a_late_pair_loses_twenty_points_inside_the_first_hand() {
    let (s, token, id) = set_up().await;
    let codes = entry_codes(&s, &token, id).await;
    let r1 = start_round(&s, &token, id).await;
    let started = tokio::time::Instant::now();
    let room = r1["tables"][0]["room"].as_u64().unwrap();
    let mut watcher = Client::hello(&s, "Arbiter").await;
    watcher.spectate(room).await;
    // The first-named pair sits at once; the second comes 7½ lateness minutes after the
    // round's start: 6–10 minutes late, 20 points (第十三条).
    let [first, second] = pairs(&r1);
    let mut bots: Vec<_> = first.iter().map(|n| bot(&s, n, codes[n].clone())).collect();
    tokio::time::sleep_until(started + Duration::from_millis(LATE_MINUTE * 15 / 2)).await;
    bots.extend(second.iter().map(|n| bot(&s, n, codes[n].clone())));

    let (result, throws) = first_hand(&mut watcher).await;
    // The late pair (seats 1 and 3) loses 20: taken from the defenders' score when it
    // defends, added to it when it deals.
    let late_defends = result.dealer % 2 == 0;
    let want = if late_defends { -20 } else { 20 };
    assert_eq!(result.penalty_points - throws, want, "{result:?}");
    let table = result_of_table(&s, id).await;
    for b in bots {
        b.await.unwrap();
    }
    let note = table["note"].as_str().unwrap_or("");
    assert!(note.contains("−20 in the first hand"), "{table}");
}
