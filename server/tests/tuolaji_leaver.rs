//! A player who leaves a rated Tuolaji table during the game is rated as that seat
//! (docs/ratings.md "What counts"), also when the server is killed after they left and the
//! table is rebuilt from the store: who left is read back from the seat changes.

mod common;

use common::competition::parse;
use common::tuolaji::{fast_options, tl_event, Player, SEED};
use common::{http, sign_up, Client, Process};
use qipai_games::rating::{bot_rating, rate, Rated, Rating};
use qipai_protocol::tuolaji::{TuolajiEvent, TuolajiOptions};
use qipai_protocol::{ClientMsg, GameKind, Outcome, ServerMsg};
use serde_json::{json, Value};

const SERVER: &str = env!("CARGO_BIN_EXE_qipai-server");

/// Wu (seat 0) and Li (seat 2) at a rated one-hand table, the server's bots filling seats 1
/// and 3 after a second; Wu leaves in the bidding, the server is killed, and Li plays the
/// hand out on the rebuilt table. A hand with one person playing: a few seconds.
#[tokio::test]
async fn the_leaver_is_rated_after_a_restart() {
    let file = common::store_file("tuolaji_leaver");
    let env = vec![
        ("QIPAI_TUOLAJI__SEED", SEED.to_string()),
        ("QIPAI_TUOLAJI__BOT_FILL_MS", "1000".to_string()),
        ("QIPAI_PASSWORDS__MEMORY_KIB", "64".to_string()),
        ("QIPAI_PASSWORDS__PASSES", "1".to_string()),
        ("QIPAI_SERVER__OUTBOUND_QUEUE", "65536".to_string()),
        ("QIPAI_SERVER__RATE_PER_SEC", "10000".to_string()),
        ("QIPAI_SERVER__RATE_BURST", "10000".to_string()),
    ];
    let mut ports = 31_800..32_000;
    let s = Process::start(SERVER, &file, &env, &mut ports).await;
    let (wu_token, li_token) = (sign_up(&s, "Wu").await, sign_up(&s, "Li").await);
    // One hand (the last one is called at once), turns long enough for a person.
    let options = TuolajiOptions {
        rated: true,
        bot_level: Some("beginner".into()),
        round_minutes: Some(1),
        last_call_minutes: Some(1),
        turn_ms: Some(60_000),
        ..fast_options()
    };
    let mut wu = Client::signed_in(&s, &wu_token).await;
    let room = wu.create_tuolaji(options, Some(0)).await;
    let mut li = Client::signed_in(&s, &li_token).await;
    li.join(room, Some(2)).await;
    wu.until(|m| matches!(tl_event(m), Some((_, TuolajiEvent::HandStarted { .. }))))
        .await;
    let seq = wu.seq();
    wu.send(&ClientMsg::Leave { seq }).await;
    wu.until(|m| matches!(m, ServerMsg::Left { seq: Some(s), .. } if *s == seq))
        .await;
    s.kill();

    let s = Process::start(SERVER, &file, &env, &mut ports).await;
    let li = Client::resume(&s, &li.token).await;
    let mut li = Player::new(li, 2);
    // Back on the rebuilt table: its turn may be now, with no event to say so.
    if let Some(hint) = li.view().await.hint {
        li.act(hint).await.expect("the hint is accepted");
    }
    li.play(2, false).await;

    // The record names Wu at seat 0, and Wu's rating moved with the pair's result.
    let auth = format!("Authorization: Bearer {wu_token}");
    let (status, list) = parse(&http(&s, "GET", "/api/account/games", &[&auth], "").await);
    assert_eq!(status, 200, "{list}");
    let row = &list["games"][0];
    assert_eq!(row["room_id"].as_u64(), Some(room), "{list}");
    assert_eq!(row["players"][0], "Wu", "{row}");
    assert_eq!(row["rated"], true, "{row}");
    let winners: Vec<u8> =
        serde_json::from_value(row["result"]["winners"].clone()).expect("winners");
    let outcome = Outcome {
        winners,
        reason: row["result"]["reason"].as_str().unwrap_or_default().into(),
        no_result: false,
    };
    let bot = Rated::Bot(bot_rating(GameKind::Tuolaji, "beginner").expect("a fixed rating"));
    let me = Rated::Player(Rating::newcomer(GameKind::Tuolaji));
    let after = rate(GameKind::Tuolaji, &[me, bot, me, bot], &outcome).expect("rated");
    let expected = after[0].expect("Wu's new rating");
    assert_eq!(
        row["rating_after"],
        json!(expected.rating.round() as i64),
        "{row}"
    );
    assert_ne!(row["rating_after"], Value::Null);
    s.kill();
}
