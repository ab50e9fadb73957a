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
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Tuolaji(fast_options()),
        seat: Some(0),
        bots: true,
    })
    .await;
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
