//! Time and seats over real sockets (rules page, "Time online" [D]): a player who never
//! acts is auto-played through a whole hand; a reconnection in the middle of a trick
//! resumes with a snapshot equal to what the others see plus the own hand; a seat left in
//! the middle of a hand is played at once and kept from strangers until the hand is over.

mod common;

use std::time::Duration;

use common::tuolaji::{fast_options, seeded_server, tl_events, Player};
use common::{Client, TestServer};
use qipai_protocol::tuolaji::{AutoReason, Phase, TuolajiEvent, TuolajiOptions};
use qipai_protocol::{ClientMsg, ErrorCode, Event, RoomEvent, RoomId, ServerMsg, View};

/// Four players at a new table with `options`, and a spectator watching from the start.
async fn table(server: &TestServer, options: TuolajiOptions) -> (RoomId, Vec<Player>, Client) {
    let mut first = Client::hello(server, "S0").await;
    let room = first.create_tuolaji(options, Some(0)).await;
    let mut players = vec![Player::new(first, 0)];
    let mut watcher = Client::hello(server, "Watcher").await;
    watcher.spectate(room).await;
    for seat in 1..4u8 {
        let mut c = Client::hello(server, &format!("S{seat}")).await;
        c.join(room, Some(seat)).await;
        players.push(Player::new(c, seat));
    }
    (room, players, watcher)
}

/// Plays the hints until the first trick has been led and followed once; returns the seat
/// that must follow next.
async fn into_the_first_trick(players: &mut [Player]) -> u8 {
    loop {
        let view = players[0].view().await;
        let to_act = match view.phase {
            Phase::NamingTrump { dealer, .. } | Phase::Bottom { dealer, .. } => dealer,
            Phase::Leading { seat, .. } => seat,
            Phase::Following { seat, .. } => return seat,
            _ => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let p = &mut players[usize::from(to_act)];
        let hint = p.view().await.hint.expect("a hint for the seat to act");
        p.act(hint).await.expect("the hint is accepted");
        if matches!(view.phase, Phase::Leading { .. }) {
            let next = (to_act + 1) % 4;
            let p = &mut players[usize::from(next)];
            let hint = p.view().await.hint.expect("a follow hint");
            p.act(hint).await.expect("the follow is accepted");
            return (next + 1) % 4;
        }
    }
}

/// A seat whose player never acts is played by the server when its time runs out, through
/// a whole hand: marked auto-played once, all 39 of its cards played, the hand finished.
#[tokio::test]
async fn a_silent_player_is_auto_played_through_a_whole_hand() {
    let server = seeded_server().await;
    let options = TuolajiOptions {
        turn_ms: Some(40),
        bottom_ms: Some(40),
        between_hands_ms: Some(60_000),
        ..fast_options()
    };
    let (_, players, _watcher) = table(&server, options).await;
    let tasks: Vec<_> = players
        .into_iter()
        .map(|mut p| {
            tokio::spawn(async move {
                let silent = p.seat == 2;
                p.play(1, silent).await;
                p
            })
        })
        .collect();
    let mut silent = None;
    for t in tasks {
        let p = t.await.expect("a player");
        if p.seat == 2 {
            silent = Some(p);
        }
    }
    let silent = silent.expect("seat 2");
    let events = tl_events(&silent.client.log);
    assert_eq!(silent.hands, 1);
    let marks: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            TuolajiEvent::Auto { seat: 2, reason } => Some(*reason),
            _ => None,
        })
        .collect();
    assert_eq!(marks, [Some(AutoReason::TimedOut)]);
    let played: usize = events
        .iter()
        .map(|e| match e {
            TuolajiEvent::Led { seat: 2, cards, .. }
            | TuolajiEvent::Followed { seat: 2, cards } => cards.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(played, 39);
}

/// A player drops in the middle of a trick and comes back with the resume token: `joined`
/// and a snapshot that equals the spectator's view plus the own hand, played cards and
/// hint; then the player plays on.
#[tokio::test]
async fn a_reconnect_mid_trick_resumes_with_the_table_as_others_see_it() {
    let server = seeded_server().await;
    let (room, mut players, mut watcher) = table(&server, fast_options()).await;
    let seat = into_the_first_trick(&mut players).await;
    let dropped = players.remove(usize::from(seat));
    let token = dropped.client.token.clone();
    drop(dropped);
    watcher
        .event(|e| matches!(e, Event::Room(RoomEvent::Away { seat: s }) if *s == seat))
        .await;

    let mut back = Client::resume(&server, &token).await;
    assert!(
        matches!(back.recv().await, ServerMsg::Joined { room_id, seat: Some(s), .. } if room_id == room && s == seat)
    );
    let ServerMsg::Snapshot {
        view: View::Tuolaji(mine),
        you,
        ..
    } = back.recv().await
    else {
        panic!("expected a snapshot")
    };
    assert_eq!(you, Some(seat));
    let (_, View::Tuolaji(theirs)) = watcher.snapshot().await else {
        panic!("a Tuolaji view")
    };
    let mut mine = *mine;
    let hand = mine.hand.take().expect("the own hand");
    assert_eq!(hand.len() as u32, mine.card_counts[usize::from(seat)]);
    // This seat has not played yet in this hand: its own played cards are none.
    assert!(mine.played.is_empty());
    let hint = mine.hint.take().expect("a hint: it is this seat's turn");
    assert_eq!(
        mine, *theirs,
        "the resumed view is the table as the others see it"
    );
    assert!(matches!(theirs.phase, Phase::Following { seat: s, .. } if s == seat));
    assert_eq!(
        theirs.current_trick.as_ref().map(|t| t.plays.len()),
        Some(2)
    );

    let mut back = Player::new(back, seat);
    back.act(hint).await.expect("the resumed player plays on");
}

/// A player leaves in the middle of a hand: the seat is marked vacant and played at once
/// (long before `turn_ms`); a stranger may not take it during the hand (the seat's cards
/// would be shown to them): `room_full`, and the seat goes on being played for.
#[tokio::test]
async fn a_seat_left_mid_hand_is_played_at_once_and_kept_from_strangers() {
    let server = seeded_server().await;
    let (room, mut players, mut watcher) = table(&server, fast_options()).await;
    let seat = into_the_first_trick(&mut players).await;
    let leaver = &mut players[usize::from(seat)];
    let seq = leaver.client.seq();
    leaver.client.send(&ClientMsg::Leave { seq }).await;
    // turn_ms is 10 s; the patience of `event` is 5 s: the vacant seat plays at once.
    watcher
        .event(|e| {
            matches!(e, Event::Tuolaji(TuolajiEvent::Auto { seat: s, reason: Some(AutoReason::Vacant) }) if *s == seat)
        })
        .await;
    watcher
        .event(
            |e| matches!(e, Event::Tuolaji(TuolajiEvent::Followed { seat: s, .. }) if *s == seat),
        )
        .await;

    let mut newcomer = Client::hello(&server, "Newcomer").await;
    let seq = newcomer.seq();
    newcomer
        .send(&ClientMsg::Join {
            seq,
            room_id: room,
            seat: Some(seat),
            entry_code: None,
        })
        .await;
    assert_eq!(newcomer.error_for(Some(seq)).await.0, ErrorCode::RoomFull);
    assert!(
        !newcomer
            .log
            .iter()
            .any(|m| matches!(m, ServerMsg::Snapshot { .. })),
        "no view of the seat reached the stranger"
    );
    assert!(tl_events(&watcher.log)
        .iter()
        .all(|e| !matches!(e, TuolajiEvent::GameOver { .. })));
}
