//! Whole Tuolaji games over real sockets: four players found by quick play play from level
//! 2 past A while a spectator watches, and the result matches a replay of the same seed and
//! actions through the engine alone; a round time limit ends the game after its last hand.

mod common;

use common::tuolaji::{fast_options, merged, replay, rules_of, seeded_server, Player, SEED};
use common::Client;
use qipai_games::tuolaji::level::Team;
use qipai_protocol::tuolaji::{EndReason, TuolajiEvent, TuolajiOptions};
use qipai_protocol::{ErrorCode, ServerMsg};

fn game_over(log: &[ServerMsg]) -> Option<qipai_protocol::tuolaji::Outcome> {
    common::tuolaji::tl_events(log)
        .into_iter()
        .find_map(|e| match e {
            TuolajiEvent::GameOver { outcome } => Some(outcome),
            _ => None,
        })
}

/// 第二条, 第二十条: a whole game from 2 past A; every seat and the spectator see the same
/// outcome, no lead, follow or bottom was refused, and replaying the seed and the actions through
/// `Match` gives the same hand results and final levels.
#[tokio::test]
async fn four_players_play_a_whole_game_past_ace() {
    let server = seeded_server().await;
    let mut players = Vec::new();
    let mut room = 0;
    let mut watcher = Client::hello(&server, "Watcher").await;
    for name in ["North", "East", "South", "West"] {
        let mut client = Client::hello(&server, name).await;
        let (r, seat) = client.quick_tuolaji(fast_options()).await;
        assert!(
            room == 0 || room == r,
            "quick play seats everyone at one table"
        );
        room = r;
        if players.len() == 2 {
            watcher.spectate(room).await;
        }
        players.push(Player::new(client, seat));
    }
    let tasks: Vec<_> = players
        .into_iter()
        .map(|mut p| {
            tokio::spawn(async move {
                p.play(u32::MAX, false).await;
                p
            })
        })
        .collect();
    let watched = tokio::spawn(async move {
        watcher
            .until(|m| {
                matches!(
                    common::tuolaji::tl_event(m),
                    Some((_, TuolajiEvent::GameOver { .. }))
                )
            })
            .await;
        watcher
    });
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.expect("a player"));
    }
    let watcher = watched.await.expect("the watcher");

    let outcome = game_over(&watcher.log).expect("the spectator saw the end");
    assert_eq!(outcome.reason, EndReason::PastAce);
    for p in &players {
        // Bids race (several seats answer the same bid at once); plays never do.
        let plays: Vec<_> = p
            .refused
            .iter()
            .filter(|(code, _)| !matches!(code, ErrorCode::BidTooWeak | ErrorCode::BiddingClosed))
            .collect();
        assert!(plays.is_empty(), "seat {} refused: {plays:?}", p.seat);
        assert_eq!(game_over(&p.client.log), Some(outcome));
    }

    for p in &players {
        assert_plays_come_in_one_frame(&p.client);
    }
    assert_plays_come_in_one_frame(&watcher);

    let logs: Vec<&[ServerMsg]> = players.iter().map(|p| p.client.log.as_slice()).collect();
    let events = merged(&logs);
    let game = replay(&rules_of(&fast_options()), SEED + room, &events);
    let levels = Team::ALL.map(|t| game.levels().get(t).number());
    assert_eq!(levels, outcome.levels);
    assert!(levels.iter().any(|l| *l > 14), "{levels:?}");
    let announced: Vec<i32> = events
        .iter()
        .filter_map(|e| match e {
            TuolajiEvent::HandOver { result, .. } => Some(result.defenders_points),
            _ => None,
        })
        .collect();
    let replayed: Vec<i32> = game.history().iter().map(|r| r.defenders_points).collect();
    assert_eq!(announced, replayed);
    assert!(announced.len() >= 2);
}

/// 五(一)3: with the last call due at once, the first hand is announced as the last one
/// and its end ends the game by the round's time, the higher level winning.
#[tokio::test]
async fn the_round_limit_calls_the_last_hand() {
    let server = seeded_server().await;
    let options = TuolajiOptions {
        round_minutes: Some(1),
        last_call_minutes: Some(1),
        turn_ms: Some(0),
        bottom_ms: Some(0),
        ..fast_options()
    };
    let mut first = Client::hello(&server, "First").await;
    let room = first.create_tuolaji(options.clone(), Some(0)).await;
    let mut others = Vec::new();
    for seat in 1..4 {
        let mut c = Client::hello(&server, &format!("P{seat}")).await;
        c.join(room, Some(seat)).await;
        others.push(c);
    }
    first
        .until(|m| {
            matches!(
                common::tuolaji::tl_event(m),
                Some((_, TuolajiEvent::GameOver { .. }))
            )
        })
        .await;
    let events = common::tuolaji::tl_events(&first.log);
    assert!(events
        .iter()
        .any(|e| matches!(e, TuolajiEvent::LastHand { .. })));
    let hands = events
        .iter()
        .filter(|e| matches!(e, TuolajiEvent::HandOver { .. }))
        .count();
    assert_eq!(hands, 1);
    let outcome = game_over(&first.log).expect("over");
    assert_eq!(outcome.reason, EndReason::RoundTime);
    assert_eq!(outcome.round_points.iter().sum::<u8>(), 2);
}

/// PROTOCOL §2 (batches): a step's events reach a connection in one frame, so a play and
/// the `turn` that follows it (or the `trick_won` a last play brings) share a frame, and
/// events of different steps never do (a frame's events have consecutive numbers).
fn assert_plays_come_in_one_frame(client: &Client) {
    let events: Vec<(usize, u64, &TuolajiEvent)> = client
        .log
        .iter()
        .zip(&client.frame_of)
        .filter_map(|(m, f)| common::tuolaji::tl_event(m).map(|(seq, e)| (*f, seq, e)))
        .collect();
    let mut plays = 0;
    for pair in events.windows(2) {
        let [(frame, seq, event), (next_frame, next_seq, next)] = pair else {
            continue;
        };
        if frame == next_frame {
            assert_eq!(
                *next_seq,
                seq + 1,
                "one frame, one step: {event:?} then {next:?}"
            );
        }
        if matches!(
            event,
            TuolajiEvent::Led { .. } | TuolajiEvent::Followed { .. }
        ) {
            plays += 1;
            assert_eq!(
                frame, next_frame,
                "{event:?} and then {next:?} in two frames"
            );
        }
    }
    assert!(plays > 100, "a whole game has plays: {plays}");
    assert!(
        client.frames < client.log.len(),
        "batches carried several messages"
    );
}
