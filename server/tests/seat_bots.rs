//! The server's own bots fill seats: "play the bot" at a xiangqi table, a waiting table
//! filled after `bot_fill_ms`, a person taking a bot's seat at a Tuolaji table, and a player
//! away past the grace replaced by a bot and given the seat back on returning.

mod common;

use common::tuolaji::{fast_options, seeded_server, Player};
use common::{Client, TestServer};
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::{Side, XiangqiAction, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{ClientMsg, ErrorCode, Event, RoomEvent, RoomOptions, ServerMsg};

fn joined_bot(e: &Event) -> Option<u8> {
    match e {
        Event::Room(RoomEvent::Joined { seat, player }) if player.bot => Some(*seat),
        _ => None,
    }
}

/// `create_room` with `bots: true`: the bot takes Black at once and answers every move,
/// thinking off the room's task.
#[tokio::test]
async fn play_the_bot_at_xiangqi() {
    let server = TestServer::default().await;
    let mut me = Client::hello(&server, "Me").await;
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Xiangqi(XiangqiOptions {
            bot_think_ms: Some(20),
            ..Default::default()
        }),
        seat: Some(0),
        bots: true,
    })
    .await;
    me.event(|e| joined_bot(e) == Some(1)).await;
    me.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Started { .. })))
        .await;
    for mv in ["h2e2", "h0g2", "i0h0"] {
        me.play(mv).await;
        me.event(|e| {
            matches!(
                e,
                Event::Xiangqi(XiangqiEvent::Moved {
                    side: Side::Black,
                    ..
                })
            ) || matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. }))
        })
        .await;
    }
    me.xq(XiangqiAction::Resign).await;
    me.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await;
}

/// A table nobody else joins gets a bot after `bot_fill_ms`.
#[tokio::test]
async fn a_waiting_table_gets_a_bot() {
    let server = TestServer::start(|c| {
        c.xiangqi.bot_fill_ms = 150;
        c.xiangqi.table.bot_think_ms = Some(20);
    })
    .await;
    let mut me = Client::hello(&server, "Me").await;
    me.create_xiangqi(XiangqiOptions::default(), Some(1)).await;
    let started = std::time::Instant::now();
    me.event(|e| joined_bot(e) == Some(0)).await;
    assert!(started.elapsed().as_millis() >= 100);
    // The bot has Red and moves first.
    me.event(|e| {
        matches!(
            e,
            Event::Xiangqi(XiangqiEvent::Moved {
                side: Side::Red,
                ..
            })
        )
    })
    .await;
}

/// At a Tuolaji table of three bots a person sits down; a stranger may not take a bot's
/// seat during a hand (it would show them the bot's cards), but may between hands, and
/// plays on from that seat's view.
#[tokio::test]
async fn a_person_takes_a_bots_seat_at_tuolaji_between_hands() {
    let server = seeded_server().await;
    let mut host = Client::hello(&server, "Host").await;
    host.create_tuolaji_with_bots(TuolajiOptions {
        between_hands_ms: Some(3000),
        ..fast_options()
    })
    .await;
    let room = match host.recv().await {
        ServerMsg::Joined { room_id, .. } => room_id,
        other => panic!("{other:?}"),
    };
    for _ in 0..3 {
        host.event(|e| joined_bot(e).is_some()).await;
    }
    // During the first hand a stranger is refused every bot's seat.
    let mut peeker = Client::hello(&server, "Peeker").await;
    for seat in 1..4 {
        let seq = peeker.seq();
        peeker
            .send(&ClientMsg::Join {
                seq,
                room_id: room,
                seat: Some(seat),
                entry_code: None,
            })
            .await;
        assert_eq!(peeker.error_for(Some(seq)).await.0, ErrorCode::RoomFull);
    }
    assert!(!peeker
        .log
        .iter()
        .any(|m| matches!(m, ServerMsg::Snapshot { .. })));
    let mut host = Player::new(host, 0);
    // The host plays a hand with the bots.
    host.play(1, false).await;
    // Between hands a newcomer takes seat 2 from its bot.
    let mut newcomer = Client::hello(&server, "Newcomer").await;
    newcomer.join(room, Some(2)).await;
    let mut newcomer = Player::new(newcomer, 2);
    let view = newcomer.view().await;
    assert!(view.hand.is_some(), "the newcomer sees seat 2's hand");
    host.client
        .event(|e| matches!(e, Event::Room(RoomEvent::Joined { seat: 2, player }) if !player.bot))
        .await;
    assert!(host.client.log.iter().any(|m| matches!(
        m,
        ServerMsg::Event {
            event: Event::Room(RoomEvent::Left { seat: 2 }),
            ..
        }
    )));
    // Both play another hand to its end, with the two remaining bots.
    tokio::join!(host.play(1, false), newcomer.play(1, false));
    assert!(newcomer.hands >= 1);
}

/// A player away past `seat_grace_ms` is replaced by a bot, and gets the seat back when
/// they return with their token.
#[tokio::test]
async fn a_bot_keeps_the_seat_warm() {
    let server = seeded_server().await;
    let options = qipai_protocol::tuolaji::TuolajiOptions {
        seat_grace_ms: Some(100),
        ..fast_options()
    };
    let mut host = Client::hello(&server, "Host").await;
    let seq = host.seq();
    host.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Tuolaji(options),
        seat: Some(0),
        bots: false,
    })
    .await;
    let room = match host.recv().await {
        ServerMsg::Joined { room_id, .. } => room_id,
        other => panic!("{other:?}"),
    };
    let mut away = Client::hello(&server, "Away").await;
    away.join(room, Some(1)).await;
    let token = away.token.clone();
    let mut others = Vec::new();
    for (i, name) in ["C", "D"].iter().enumerate() {
        let mut c = Client::hello(&server, name).await;
        c.join(room, Some(2 + i as u8)).await;
        others.push(c);
    }
    drop(away);
    host.event(|e| matches!(e, Event::Room(RoomEvent::Away { seat: 1 })))
        .await;
    host.event(|e| joined_bot(e) == Some(1)).await;
    let mut back = Client::resume(&server, &token).await;
    match back.until(|m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { seat, .. } => assert_eq!(seat, Some(1), "the seat is theirs again"),
        _ => unreachable!(),
    }
    host.event(|e| matches!(e, Event::Room(RoomEvent::Joined { seat: 1, player }) if !player.bot))
        .await;
}

/// One person at a Tuolaji table, three bots fill in, and the game runs to its end.
#[tokio::test]
async fn one_person_and_three_bots_play_a_whole_game() {
    let server = seeded_server().await;
    let mut me = Client::hello(&server, "Me").await;
    me.create_tuolaji_with_bots(fast_options()).await;
    let mut me = Player::new(me, 0);
    me.play(u32::MAX, false).await;
    let over = me.client.log.iter().any(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: Event::Tuolaji(qipai_protocol::tuolaji::TuolajiEvent::GameOver { .. }),
                ..
            }
        )
    });
    assert!(over, "the game ran to its end after {} hands", me.hands);
    assert!(me.hands >= 2);
}

/// Bots never race the creator: a table opened with `bots: true` seats its creator first and
/// fills the other seats after, every time.
#[tokio::test]
async fn bots_wait_for_the_creator() {
    let server = seeded_server().await;
    for i in 0..20 {
        let mut me = Client::hello(&server, &format!("Me{i}")).await;
        let seq = me.seq();
        me.send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Tuolaji(fast_options()),
            seat: None,
            bots: true,
        })
        .await;
        match me.recv().await {
            ServerMsg::Joined { seat, .. } => assert_eq!(seat, Some(0), "try {i}"),
            other => panic!("try {i}: {other:?}"),
        }
        for _ in 0..3 {
            me.event(|e| joined_bot(e).is_some()).await;
        }
    }
}

/// The last person leaving a table of bots ends its game there and closes the room at once:
/// its place in the rooms budget is free before `left` arrives (so a player who leaves and
/// opens tables one after another is never told to close one first), and the Tuolaji game
/// left before its end is recorded as abandoned under the person's name (我的对局).
#[tokio::test]
async fn leaving_a_table_of_bots_ends_its_game_and_frees_its_place() {
    let file = common::store_file("left_bots");
    let server = TestServer::start(move |c| {
        c.store.url = file;
        c.tuolaji.seed = Some(common::tuolaji::SEED);
        c.limits.rooms_per_session = 1;
    })
    .await;
    let mut me = Client::hello(&server, "Leaver").await;
    let mut rooms = Vec::new();
    for _ in 0..3 {
        me.create_tuolaji_with_bots(fast_options()).await;
        let room = match me.recv().await {
            ServerMsg::Joined { room_id, .. } => room_id,
            other => panic!("a table after leaving the last one: {other:?}"),
        };
        rooms.push(room);
        me.event(|e| {
            matches!(
                e,
                Event::Tuolaji(qipai_protocol::tuolaji::TuolajiEvent::HandStarted { .. })
            )
        })
        .await;
        me.leave().await;
    }
    // Each game is in the leaver's list once its room has closed (written with its end).
    let mut listed = String::new();
    for _ in 0..100 {
        listed = common::http_get(&server, "/api/players/Leaver/games?page=0").await;
        if rooms.iter().all(|r| listed.contains(&r.to_string())) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    for room in &rooms {
        assert!(listed.contains(&room.to_string()), "{room} in {listed}");
    }
    let record = common::http_get(&server, &format!("/api/games/{}", rooms[0])).await;
    assert!(record.contains("\"Leaver\""), "{record}");
    assert!(record.contains("abandoned"), "{record}");
}

/// A bot answers a draw offer at once: it declines at the start (level, the game young) and
/// then moves; it accepts when it stands clearly worse (a rook down).
#[tokio::test]
async fn a_bot_answers_a_draw_offer() {
    use qipai_protocol::xiangqi::EndReason;
    let server = TestServer::default().await;
    let mut me = Client::hello(&server, "Offerer").await;
    play_the_bot_from(&mut me, None).await;
    me.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Started { .. })))
        .await;
    me.xq(XiangqiAction::OfferDraw).await;
    me.event(|e| {
        matches!(
            e,
            Event::Xiangqi(XiangqiEvent::DrawDeclined { by: Side::Black })
        )
    })
    .await;
    me.play("h2e2").await;
    me.event(|e| {
        matches!(
            e,
            Event::Xiangqi(XiangqiEvent::Moved {
                side: Side::Black,
                ..
            })
        )
    })
    .await;
    me.xq(XiangqiAction::Resign).await;
    me.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await;
    me.leave().await;

    // Black has lost both rooks: the bot takes the draw.
    let two_rooks_down = "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    play_the_bot_from(&mut me, Some(two_rooks_down)).await;
    me.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Started { .. })))
        .await;
    me.xq(XiangqiAction::OfferDraw).await;
    let over = me
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await;
    match over {
        Event::Xiangqi(XiangqiEvent::Over { result, .. }) => {
            assert_eq!(result.winner, None);
            assert_eq!(result.reason, EndReason::Agreement);
        }
        other => panic!("{other:?}"),
    }
}

/// Opens a xiangqi table against the server's bot, as Red, from `fen` (the start if `None`).
async fn play_the_bot_from(me: &mut Client, fen: Option<&str>) {
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Xiangqi(XiangqiOptions {
            bot_think_ms: Some(20),
            start_fen: fen.map(str::to_owned),
            ..Default::default()
        }),
        seat: Some(0),
        bots: true,
    })
    .await;
}
