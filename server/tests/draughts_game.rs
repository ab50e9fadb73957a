//! Draughts over real sockets, through the registry: a full game to a result with a
//! spectator, a game against the server's bot, reconnection, quick play, and bad input
//! (rules page, "Captures" 6.1–6.13; FMJD 第六条) refused with stable codes and nothing
//! changed.

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use qipai_protocol::draughts::{
    DraughtsAction, DraughtsEvent, DraughtsOptions, DraughtsView, EndReason, GameResult, Side,
};
use qipai_protocol::{ClientMsg, ErrorCode, Event, RoomId, RoomOptions, ServerMsg, View};

/// White to move; `28x19x10` takes two (the majority), `47x38` one.
const CAPTURES: &str = "W:W28,47:B14,23,42";

fn options(start_fen: Option<&str>) -> DraughtsOptions {
    DraughtsOptions {
        start_fen: start_fen.map(str::to_owned),
        ..DraughtsOptions::default()
    }
}

async fn create(client: &mut Client, options: DraughtsOptions, bots: bool) -> RoomId {
    let seq = client.seq();
    client
        .send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Draughts(options),
            seat: Some(0),
            bots,
        })
        .await;
    match client
        .until(|m| matches!(m, ServerMsg::Joined { .. }))
        .await
    {
        ServerMsg::Joined { room_id, .. } => room_id,
        _ => unreachable!(),
    }
}

/// White and Black seated at a new table.
async fn pair(server: &TestServer, options: DraughtsOptions) -> (Client, Client, RoomId) {
    let mut white = Client::hello(server, "White").await;
    let mut black = Client::hello(server, "Black").await;
    let room = create(&mut white, options, false).await;
    black.join(room, Some(1)).await;
    for client in [&mut white, &mut black] {
        client
            .event(|e| matches!(e, Event::Draughts(DraughtsEvent::Started { .. })))
            .await;
    }
    (white, black, room)
}

/// Sends a draughts action and returns its answer: `Ok(())` or the error code.
async fn act(client: &mut Client, action: DraughtsAction) -> Result<(), ErrorCode> {
    let seq = client.seq();
    client.send(&ClientMsg::Draughts { seq, action }).await;
    match client
        .until(|m| {
            matches!(m, ServerMsg::Ok { seq: s } if *s == seq)
                || matches!(m, ServerMsg::Error { seq: Some(s), .. } if *s == seq)
        })
        .await
    {
        ServerMsg::Ok { .. } => Ok(()),
        ServerMsg::Error { code, .. } => Err(code),
        _ => unreachable!(),
    }
}

async fn play(client: &mut Client, notation: &str) -> Result<(), ErrorCode> {
    act(
        client,
        DraughtsAction::Move {
            notation: notation.into(),
        },
    )
    .await
}

/// The client's view by snapshot, with the clocks' reading time zeroed so that two
/// snapshots of an unchanged game compare equal.
async fn view(client: &mut Client) -> DraughtsView {
    match client.snapshot().await {
        (_, View::Draughts(mut v)) => {
            v.clocks.server_time = 0;
            v
        }
        (_, other) => panic!("not a draughts view: {other:?}"),
    }
}

async fn result_of(client: &mut Client) -> GameResult {
    match client
        .event(|e| matches!(e, Event::Draughts(DraughtsEvent::Over { .. })))
        .await
    {
        Event::Draughts(DraughtsEvent::Over { result, .. }) => result,
        _ => unreachable!(),
    }
}

fn event_seqs(client: &Client) -> Vec<u64> {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event { event_seq, .. } => Some(*event_seq),
            _ => None,
        })
        .collect()
}

/// A whole game to a result: 32-28 19-23 28x19 takes Black's last piece, and the side with
/// no legal move loses (rules page, "End of the game"); both players and a spectator learn
/// it, the spectator saw every move, and everyone's events run without gaps.
#[tokio::test]
async fn full_game_to_a_win_with_a_spectator() {
    let server = TestServer::default().await;
    let (mut white, mut black, room) = pair(&server, options(Some("W:W32:B19"))).await;
    let mut watcher = Client::hello(&server, "Watcher").await;
    watcher.spectate(room).await;

    play(&mut white, "32-28").await.unwrap();
    play(&mut black, "19-23").await.unwrap();
    play(&mut white, "28x19").await.unwrap();

    let expected = GameResult {
        winner: Some(Side::White),
        reason: EndReason::NoLegalMove,
    };
    for client in [&mut white, &mut black, &mut watcher] {
        assert_eq!(result_of(client).await, expected);
    }
    let seen: Vec<String> = watcher
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event {
                event: Event::Draughts(DraughtsEvent::Moved { notation, .. }),
                ..
            } => Some(notation.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(seen, ["32-28", "19-23", "28x19"]);
    for client in [&white, &black, &watcher] {
        let seqs = event_seqs(client);
        assert!(!seqs.is_empty());
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    }
    let v = view(&mut watcher).await;
    assert_eq!(v.result, Some(expected));
    assert_eq!(v.moves, ["32-28", "19-23", "28x19"]);
}

/// Every refused move gets its stable code, the position stays as it was and the opponent
/// hears nothing: a short capture when a longer one exists (6.8, majority), stopping a
/// capture early, a plain move when a capture is compulsory (6.1), out of turn, garbage
/// notation, and (from a quiet position) a man stepping backwards (5.11).
#[tokio::test]
async fn bad_moves_are_refused_and_change_nothing() {
    let server = TestServer::default().await;
    let (mut white, mut black, _) = pair(&server, options(Some(CAPTURES))).await;
    let before = view(&mut white).await;
    assert_eq!(before.to_move.legal_moves, ["28x19x10"]);
    assert_eq!(before.to_move.must_capture, [28]);

    assert_eq!(
        play(&mut white, "47x38").await,
        Err(ErrorCode::MajorityCapture)
    );
    assert_eq!(
        play(&mut white, "28x19").await,
        Err(ErrorCode::CaptureIncomplete)
    );
    assert_eq!(
        play(&mut white, "47-41").await,
        Err(ErrorCode::CaptureRequired)
    );
    assert_eq!(
        play(&mut white, "fifty-one").await,
        Err(ErrorCode::BadNotation)
    );
    assert_eq!(play(&mut white, "28x").await, Err(ErrorCode::BadNotation));
    assert_eq!(play(&mut black, "14-19").await, Err(ErrorCode::NotYourTurn));
    assert_eq!(view(&mut white).await, before);
    // The opponent noticed nothing: no event reached Black.
    assert!(
        black.try_recv(Duration::from_millis(50)).await.is_none(),
        "{:?}",
        black.log
    );
    play(&mut white, "28x19x10").await.unwrap();
}

/// 5.11: a man moves forward only; stepping backwards without capturing is refused.
#[tokio::test]
async fn a_man_moving_backwards_is_refused() {
    let server = TestServer::default().await;
    let (mut white, _black, _) = pair(&server, options(Some("W:W28:B5"))).await;
    let before = view(&mut white).await;
    assert_eq!(play(&mut white, "28-33").await, Err(ErrorCode::ManBackward));
    assert_eq!(view(&mut white).await, before);
}

/// `create_room` with `bots: true`: the server's draughts bot takes the empty seat and
/// answers a move.
#[tokio::test]
async fn a_person_plays_the_servers_bot() {
    let server = TestServer::default().await;
    let mut person = Client::hello(&server, "Person").await;
    let o = DraughtsOptions {
        bot_think_ms: Some(20),
        ..DraughtsOptions::default()
    };
    create(&mut person, o, true).await;
    person
        .event(|e| matches!(e, Event::Draughts(DraughtsEvent::Started { .. })))
        .await;
    play(&mut person, "32-28").await.unwrap();
    person
        .event(|e| {
            matches!(
                e,
                Event::Draughts(DraughtsEvent::Moved {
                    side: Side::Black,
                    ..
                })
            )
        })
        .await;
    act(&mut person, DraughtsAction::Resign).await.unwrap();
    let result = result_of(&mut person).await;
    assert_eq!(result.winner, Some(Side::Black));
    assert_eq!(result.reason, EndReason::Resignation);
}

/// A player who drops comes back with the resume token to the same seat and a snapshot
/// equal to the opponent's view, and plays on.
#[tokio::test]
async fn reconnection_gives_the_seat_and_the_position_back() {
    let server = TestServer::default().await;
    let (mut white, mut black, _) = pair(&server, options(None)).await;
    play(&mut white, "32-28").await.unwrap();
    play(&mut black, "19-23").await.unwrap();
    let token = white.token.clone();
    drop(white);
    black
        .event(|e| matches!(e, Event::Room(qipai_protocol::RoomEvent::Away { seat: 0 })))
        .await;
    let mut white = Client::resume(&server, &token).await;
    let mine = loop {
        if let ServerMsg::Snapshot {
            view: View::Draughts(v),
            you,
            ..
        } = white.recv().await
        {
            assert_eq!(you, Some(0));
            break v;
        }
    };
    assert_eq!(mine.moves, ["32-28", "19-23"]);
    assert_eq!(mine.to_move.legal_moves, ["28x19"]);
    let theirs = view(&mut black).await;
    assert_eq!(mine.fen, theirs.fen);
    play(&mut white, "28x19").await.unwrap();
}

/// Quick play seats two requests for the same draughts options at one table, and the
/// game starts.
#[tokio::test]
async fn quick_play_pairs_two_players() {
    let server = TestServer::default().await;
    let quick = |seq| ClientMsg::QuickPlay {
        seq,
        options: RoomOptions::Draughts(DraughtsOptions {
            time_control: Some("10+5".into()),
            ..DraughtsOptions::default()
        }),
    };
    let mut a = Client::hello(&server, "A").await;
    a.send(&quick(1)).await;
    let room_a = match a.until(|m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { room_id, .. } => room_id,
        _ => unreachable!(),
    };
    let mut b = Client::hello(&server, "B").await;
    b.send(&quick(1)).await;
    match b.until(|m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { room_id, seat, .. } => assert_eq!((room_id, seat), (room_a, Some(1))),
        _ => unreachable!(),
    }
    a.event(|e| matches!(e, Event::Draughts(DraughtsEvent::Started { .. })))
        .await;
    let v = view(&mut a).await;
    assert_eq!(v.time_control, "10+5");
    assert_eq!(v.status, qipai_protocol::draughts::Status::Playing);
}
