//! Hostile input over a real socket: every kind gets an error with a stable code, the game
//! does not change, and another pair of players on the same server never notices.

mod common;

use common::{xiangqi_pair, Client, TestServer};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{encode, ClientMsg, ErrorCode, RoomOptions, ServerMsg, View};
use serde::Serialize;

#[derive(Serialize)]
struct Shaped<'a, T: Serialize> {
    #[serde(rename = "type")]
    ty: &'a str,
    seq: u64,
    #[serde(flatten)]
    rest: T,
}

#[derive(Serialize)]
struct RoomIdText {
    room_id: &'static str,
}

#[derive(Serialize)]
struct Nothing {}

/// The game as Red sees it, for before/after comparisons (the running clock aside).
async fn state(client: &mut Client) -> (u64, qipai_protocol::xiangqi::XiangqiView) {
    let (seq, View::Xiangqi(mut view)) = client.snapshot().await else {
        panic!("a xiangqi view")
    };
    view.clocks.red_ms = 0;
    view.clocks.black_ms = 0;
    view.clocks.server_time = 0;
    (seq, view)
}

#[tokio::test]
async fn every_kind_of_bad_input_is_refused_and_changes_nothing() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    let (mut red2, mut black2, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    let before = state(&mut red).await;

    // Frames that are not messages.
    red.send_raw(vec![0xc1, 0x00, 0xff]).await;
    assert_eq!(red.error_for(None).await.0, ErrorCode::Malformed);
    red.send_text("{\"type\":\"ping\"}").await;
    assert_eq!(red.error_for(None).await.0, ErrorCode::TextFrame);
    let bytes = encode(&Shaped {
        ty: "join",
        seq: 41,
        rest: RoomIdText { room_id: "abc" },
    })
    .unwrap();
    red.send_raw(bytes).await;
    assert_eq!(red.error_for(Some(41)).await.0, ErrorCode::BadShape);
    let bytes = encode(&Shaped {
        ty: "launch_missiles",
        seq: 42,
        rest: Nothing {},
    })
    .unwrap();
    red.send_raw(bytes).await;
    assert_eq!(red.error_for(Some(42)).await.0, ErrorCode::UnknownType);
    red.send_raw(vec![0x90; 70 * 1024]).await;
    assert_eq!(red.error_for(None).await.0, ErrorCode::FrameTooLarge);

    // Moves the rules refuse.
    let seq = red
        .xq(XiangqiAction::Move {
            iccs: "h9g7".into(),
        })
        .await;
    assert_eq!(
        red.error_for(Some(seq)).await.0,
        ErrorCode::NotYourTurn,
        "out of turn"
    );
    let seq = black
        .xq(XiangqiAction::Move {
            iccs: "h0g2".into(),
        })
        .await;
    let (code, message) = black.error_for(Some(seq)).await;
    assert_eq!(
        code,
        ErrorCode::IllegalMove,
        "a move for the other side: {message}"
    );
    assert!(message.contains("not yours"), "{message}");
    let seq = black
        .xq(XiangqiAction::Move {
            iccs: "b9b5".into(),
        })
        .await;
    // The refusal carries its reason and article for the page to say it.
    match black
        .until(|m| matches!(m, ServerMsg::Error { seq: s, .. } if *s == Some(seq)))
        .await
    {
        ServerMsg::Error { code, details, .. } => {
            assert_eq!(code, ErrorCode::IllegalMove);
            let details = details.expect("an illegal move has details");
            assert!(details.reason.is_some(), "{details:?}");
            assert_eq!(details.article.as_deref(), Some("2.2"), "{details:?}");
        }
        other => panic!("not an error: {other:?}"),
    }
    let seq = black
        .xq(XiangqiAction::Move {
            iccs: "z9z5".into(),
        })
        .await;
    assert_eq!(black.error_for(Some(seq)).await.0, ErrorCode::BadNotation);
    let seq = black.xq(XiangqiAction::AcceptDraw).await;
    assert_eq!(black.error_for(Some(seq)).await.0, ErrorCode::NoDrawOffer);

    // Lobby requests that make no sense.
    let seq = red.seq();
    red.send(&ClientMsg::Join {
        seq,
        room_id: 9999,
        seat: None,
        entry_code: None,
    })
    .await;
    assert_eq!(red.error_for(Some(seq)).await.0, ErrorCode::AlreadyInRoom);
    let mut stranger = Client::hello(&server, "Stranger").await;
    let seq = stranger.seq();
    stranger
        .send(&ClientMsg::Join {
            seq,
            room_id: 9999,
            seat: None,
            entry_code: None,
        })
        .await;
    assert_eq!(stranger.error_for(Some(seq)).await.0, ErrorCode::NoSuchRoom);
    let seq = stranger.xq(XiangqiAction::Resign).await;
    assert_eq!(stranger.error_for(Some(seq)).await.0, ErrorCode::NotInRoom);
    let seq = stranger.seq();
    stranger
        .send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Xiangqi(XiangqiOptions {
                time_control: Some("forever".into()),
                ..Default::default()
            }),
            seat: None,
            bots: false,
        })
        .await;
    assert_eq!(stranger.error_for(Some(seq)).await.0, ErrorCode::BadOptions);
    let room = match red.log.iter().find_map(|m| match m {
        ServerMsg::Joined { room_id, .. } => Some(*room_id),
        _ => None,
    }) {
        Some(r) => r,
        None => panic!("red joined a room"),
    };
    stranger.spectate(room).await;
    let seq = stranger.xq(XiangqiAction::Resign).await;
    assert_eq!(stranger.error_for(Some(seq)).await.0, ErrorCode::NotSeated);
    stranger
        .send(&ClientMsg::Hello {
            protocol_version: 1,
            name: "again".into(),
            resume_token: None,
            account_token: None,
        })
        .await;
    assert_eq!(stranger.error_for(None).await.0, ErrorCode::AlreadyHello);

    // Nothing changed, and the connections still work.
    assert_eq!(state(&mut red).await, before);
    black.play("h9g7").await;

    // The other pair played on undisturbed.
    red2.play("h2e2").await;
    black2.play("h9g7").await;
}

/// After a finished game, any action gets `game_over`.
#[tokio::test]
async fn actions_after_the_end_are_refused() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.xq(XiangqiAction::Resign).await;
    black
        .event(|e| matches!(e, qipai_protocol::Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await;
    let seq = black
        .xq(XiangqiAction::Move {
            iccs: "h9g7".into(),
        })
        .await;
    assert_eq!(black.error_for(Some(seq)).await.0, ErrorCode::GameOver);
    let seq = red.xq(XiangqiAction::OfferDraw).await;
    assert_eq!(red.error_for(Some(seq)).await.0, ErrorCode::GameOver);
}

/// A flood is answered with `rate_limited`, and a connection that keeps at it is closed;
/// its opponent keeps playing.
#[tokio::test]
async fn a_flood_is_limited_then_closed() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    for i in 0..400 {
        let ping = ClientMsg::Ping {
            seq: 1000 + i,
            client_time: None,
        };
        if !red.try_send(&ping).await {
            break;
        }
    }
    assert!(red.closed().await, "the flooding connection is closed");
    let codes: Vec<ErrorCode> = red
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Error { code, .. } => Some(*code),
            _ => None,
        })
        .collect();
    assert!(codes.contains(&ErrorCode::RateLimited), "{codes:?}");
    // `rate_limited` tells the limit (the page says it in the player's language).
    let limit = red.log.iter().find_map(|m| match m {
        ServerMsg::Error {
            code: ErrorCode::RateLimited,
            details,
            ..
        } => details.as_ref().and_then(|d| d.limit),
        _ => None,
    });
    assert!(limit.is_some_and(|n| n > 0), "{limit:?}");
    assert_eq!(codes.last(), Some(&ErrorCode::Closing));
    let pongs = red
        .log
        .iter()
        .filter(|m| matches!(m, ServerMsg::Pong { .. }))
        .count();
    assert!(
        (90..400).contains(&pongs),
        "{pongs} pongs: about the burst of 100"
    );
    // Black is unaffected and sees Red go away.
    let seq = black.seq();
    black
        .send(&ClientMsg::Ping {
            seq,
            client_time: Some(7),
        })
        .await;
    black
        .until(|m| matches!(m, ServerMsg::Pong { client_time: 7, .. }))
        .await;
}

/// Before `hello`: a wrong protocol version (an unknown one, or version 2, whose clients
/// cannot read a batch frame), or any other message, closes the connection with the reason.
#[tokio::test]
async fn the_handshake_is_strict() {
    let server = TestServer::default().await;
    for version in [99, 2] {
        let mut c = Client::connect(&server).await;
        c.send(&ClientMsg::Hello {
            protocol_version: version,
            name: "Old".into(),
            resume_token: None,
            account_token: None,
        })
        .await;
        assert_eq!(c.error_for(None).await.0, ErrorCode::ProtocolVersion);
        assert!(c.closed().await);
    }

    let mut c = Client::connect(&server).await;
    c.send(&ClientMsg::Ping {
        seq: 1,
        client_time: None,
    })
    .await;
    assert_eq!(c.error_for(Some(1)).await.0, ErrorCode::HelloFirst);
    assert!(c.closed().await);

    let mut c = Client::connect(&server).await;
    c.send(&ClientMsg::Hello {
        protocol_version: qipai_protocol::PROTOCOL_VERSION,
        name: " ".into(),
        resume_token: None,
        account_token: None,
    })
    .await;
    assert_eq!(c.error_for(None).await.0, ErrorCode::BadName);

    let mut c = Client::connect(&server).await;
    c.send_raw(vec![0xc1]).await;
    assert_eq!(c.error_for(None).await.0, ErrorCode::Malformed);
    assert!(c.closed().await);
}
