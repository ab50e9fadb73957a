//! Reconnection: the resume token gives the seat back with a snapshot equal to what the
//! others see; after the grace the absent player forfeits.

mod common;

use common::{xiangqi_pair, Client, TestServer};
use qipai_protocol::xiangqi::{EndReason, GameResult, Side, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{ErrorCode, Event, RoomEvent, ServerMsg, View};

/// A player drops mid-game, comes back with the token, gets `joined` and a snapshot equal
/// to the opponent's (but for the clock reading), and the game goes on.
#[tokio::test]
async fn reconnect_mid_game_resumes_with_a_matching_snapshot() {
    let server = TestServer::default().await;
    let (red, mut black, room) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    let mut red = red;
    red.play("h2e2").await;
    black.play("h9g7").await;
    let token = red.token.clone();
    drop(red);
    black
        .event(|e| matches!(e, Event::Room(RoomEvent::Away { seat: 0 })))
        .await;

    let mut red = Client::connect(&server).await;
    red.send(&qipai_protocol::ClientMsg::Hello {
        protocol_version: qipai_protocol::PROTOCOL_VERSION,
        name: String::new(),
        resume_token: Some(token),
        account_token: None,
    })
    .await;
    match red.recv().await {
        ServerMsg::Welcome { room_id, .. } => assert_eq!(room_id, Some(room)),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        red.recv().await,
        ServerMsg::Joined { seat: Some(0), .. }
    ));
    let ServerMsg::Snapshot {
        view: View::Xiangqi(mine),
        you,
        seats,
        ..
    } = red.recv().await
    else {
        panic!("expected a snapshot")
    };
    assert_eq!(you, Some(0));
    assert!(seats.iter().flatten().all(|s| s.connected));
    black
        .event(|e| matches!(e, Event::Room(RoomEvent::Back { seat: 0 })))
        .await;
    let (_, View::Xiangqi(theirs)) = black.snapshot().await else {
        panic!("expected a xiangqi view")
    };
    // Red is to move: only Red's seat gets the legal moves.
    assert!(!mine.legal_moves.is_empty());
    assert!(theirs.legal_moves.is_empty());
    let mut a = mine.clone();
    let b = theirs.clone();
    a.clocks = b.clocks;
    a.legal_moves.clear();
    assert_eq!(
        a, b,
        "the snapshot after reconnecting equals the opponent's but for the legal moves"
    );
    assert_eq!(mine.moves.len(), 2);

    red.play("h0g2").await;
    black
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { iccs, .. }) if iccs == "h0g2"))
        .await;
}

/// [D]: a player who does not come back within the grace loses by abandonment.
#[tokio::test]
async fn absent_past_the_grace_forfeits() {
    let server = TestServer::start(|c| c.server.reconnect_grace_ms = 150).await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    black.play("h9g7").await;
    let token = black.token.clone();
    drop(black);
    match red
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await
    {
        Event::Xiangqi(XiangqiEvent::Over { result, .. }) => assert_eq!(
            result,
            GameResult {
                winner: Some(Side::Red),
                reason: EndReason::Abandoned
            }
        ),
        _ => unreachable!(),
    }
    // The session is gone too: the token no longer works.
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let mut late = Client::connect(&server).await;
    late.send(&qipai_protocol::ClientMsg::Hello {
        protocol_version: qipai_protocol::PROTOCOL_VERSION,
        name: String::new(),
        resume_token: Some(token),
        account_token: None,
    })
    .await;
    assert_eq!(late.error_for(None).await.0, ErrorCode::BadResumeToken);
}

/// A second connection with the same token takes the session over; the first one is closed.
#[tokio::test]
async fn a_newer_connection_takes_the_session_over() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    let mut again = Client::resume(&server, &red.token).await;
    again
        .until(|m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;
    assert!(red.closed().await, "the replaced connection is closed");
    again.play("h2e2").await;
    black
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { .. })))
        .await;
}

/// One session in two browsers: the connection that loses the seat is told so with
/// `playing_elsewhere` (not a bare close, which a page takes for a network failure and
/// answers by reconnecting, taking the seat back and forth) before it is closed; taking
/// the seat back tells the other one the same.
#[tokio::test]
async fn the_replaced_connection_is_told_it_plays_elsewhere() {
    let server = TestServer::default().await;
    let (mut red, _black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    let mut other = Client::resume(&server, &red.token).await;
    other
        .until(|m| matches!(m, ServerMsg::Joined { seat: Some(_), .. }))
        .await;
    assert_eq!(red.error_for(None).await.0, ErrorCode::PlayingElsewhere);
    assert!(red.closed().await, "the replaced connection is closed");
    // Taken back from the first browser: now the second one is told.
    let mut back = Client::resume(&server, &red.token).await;
    back.until(|m| matches!(m, ServerMsg::Joined { seat: Some(_), .. }))
        .await;
    assert_eq!(other.error_for(None).await.0, ErrorCode::PlayingElsewhere);
    assert!(other.closed().await);
    back.play("h2e2").await;
}

/// [D]: leaving before one's first move aborts the game: nothing was at stake yet.
#[tokio::test]
async fn leaving_before_the_first_move_aborts() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    let seq = black.seq();
    black.send(&qipai_protocol::ClientMsg::Leave { seq }).await;
    match red
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await
    {
        Event::Xiangqi(XiangqiEvent::Over { result, .. }) => assert_eq!(
            result,
            GameResult {
                winner: None,
                reason: EndReason::Aborted
            }
        ),
        _ => unreachable!(),
    }
}

/// The grace of an earlier disconnect does not cut short the grace of a later one.
#[tokio::test]
async fn each_disconnect_gets_its_full_grace() {
    use std::time::Duration;
    let server = TestServer::start(|c| c.server.reconnect_grace_ms = 400).await;
    let first = Client::hello(&server, "Flaky").await;
    let token = first.token.clone();
    drop(first);
    tokio::time::sleep(Duration::from_millis(250)).await;
    let second = Client::resume(&server, &token).await;
    drop(second);
    // The first grace ends at about 400 ms, the second at about 650 ms.
    tokio::time::sleep(Duration::from_millis(250)).await;
    let third = Client::resume(&server, &token).await;
    assert_eq!(third.token, token);
}
