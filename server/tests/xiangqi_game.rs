//! Whole xiangqi games over real sockets: checkmate, perpetual check, the natural limit,
//! a draw by agreement, resignation, and a spectator who sees every move.

mod common;

use common::{xiangqi_pair, Client, TestServer};
use qipai_protocol::xiangqi::{
    EndReason, GameResult, Iccs, Side, Status, XiangqiAction, XiangqiEvent, XiangqiOptions,
};
use qipai_protocol::{Event, ServerMsg, View};

/// A five-ply mate from the start: the cannon swings to c9 behind the advisor.
const MATE: [&str; 5] = ["b2b4", "a6a5", "b4c4", "f9e8", "c4c9"];

fn is_over(e: &Event) -> bool {
    matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. }))
}

async fn result_of(client: &mut Client) -> GameResult {
    match client.event(is_over).await {
        Event::Xiangqi(XiangqiEvent::Over { result, .. }) => result,
        _ => unreachable!(),
    }
}

/// Plays `moves` alternately, Red first.
async fn play_line(red: &mut Client, black: &mut Client, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            red.play(mv).await;
        } else {
            black.play(mv).await;
        }
    }
}

/// 4.1.1: a full game to checkmate; both players and a spectator learn the result, and
/// the spectator saw every move with its Chinese notation.
#[tokio::test]
async fn full_game_to_checkmate_with_a_spectator() {
    let server = TestServer::default().await;
    let (mut red, mut black, room) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    let mut watcher = Client::hello(&server, "Watcher").await;
    watcher.spectate(room).await;

    play_line(&mut red, &mut black, &MATE).await;

    let expected = GameResult {
        winner: Some(Side::Red),
        reason: EndReason::Checkmate,
    };
    assert_eq!(result_of(&mut red).await, expected);
    assert_eq!(result_of(&mut black).await, expected);
    assert_eq!(result_of(&mut watcher).await, expected);

    let seen: Vec<(Iccs, String)> = watcher
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event {
                event: Event::Xiangqi(XiangqiEvent::Moved { iccs, chinese, .. }),
                ..
            } => Some((*iccs, chinese.clone())),
            _ => None,
        })
        .collect();
    let iccs: Vec<&str> = seen.iter().map(|(i, _)| i.as_str()).collect();
    assert_eq!(iccs, MATE);
    assert_eq!(seen[0].1, "炮八进二");

    // Event numbers run without gaps for everyone.
    for client in [&red, &black, &watcher] {
        let seqs: Vec<u64> = client
            .log
            .iter()
            .filter_map(|m| match m {
                ServerMsg::Event { event_seq, .. } => Some(*event_seq),
                _ => None,
            })
            .collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    }

    let (_, View::Xiangqi(view)) = watcher.snapshot().await else {
        panic!("expected a xiangqi view")
    };
    assert_eq!(view.status, Status::Over);
    assert_eq!(view.moves.len(), 5);
    assert!(view.legal_moves.is_empty());
}

/// 4.1.7, 4.2.3: checking with every move until the position repeats a third time loses.
#[tokio::test]
async fn perpetual_check_loses() {
    let server = TestServer::default().await;
    let options = XiangqiOptions {
        start_fen: Some("4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1".into()),
        ..Default::default()
    };
    let (mut red, mut black, _) = xiangqi_pair(&server, options).await;
    // Position A (rook a9, king e9, Black to move) occurs after plies 1, 5 and 9; Red
    // checked with every move of the cycle, Black never did.
    let line = [
        "a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9",
    ];
    play_line(&mut red, &mut black, &line).await;
    assert_eq!(
        result_of(&mut black).await,
        GameResult {
            winner: Some(Side::Black),
            reason: EndReason::PerpetualCheck
        }
    );
}

/// 4.2.4: with a natural limit of two full moves, four quiet plies draw the game.
#[tokio::test]
async fn natural_limit_draws() {
    let server = TestServer::default().await;
    let options = XiangqiOptions {
        natural_limit_moves: Some(2),
        ..Default::default()
    };
    let (mut red, mut black, _) = xiangqi_pair(&server, options).await;
    play_line(&mut red, &mut black, &["h2e2", "h9g7", "h0g2", "i9h9"]).await;
    assert_eq!(
        result_of(&mut red).await,
        GameResult {
            winner: None,
            reason: EndReason::NaturalLimit
        }
    );
}

/// 4.2.2: an offer stands until answered; accepting it draws.
#[tokio::test]
async fn draw_by_agreement() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    let offer = black.xq(XiangqiAction::OfferDraw).await;
    black
        .until(|m| matches!(m, ServerMsg::Ok { seq } if *seq == offer))
        .await;
    red.event(|e| {
        matches!(
            e,
            Event::Xiangqi(XiangqiEvent::DrawOffered { by: Side::Black })
        )
    })
    .await;
    red.xq(XiangqiAction::AcceptDraw).await;
    assert_eq!(
        result_of(&mut black).await,
        GameResult {
            winner: None,
            reason: EndReason::Agreement
        }
    );
}

/// 4.1.9: resigning loses at once; a declined offer does not end the game; offers are
/// rate-limited per side.
#[tokio::test]
async fn decline_rate_limit_and_resign() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    black.xq(XiangqiAction::OfferDraw).await;
    red.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::DrawOffered { .. })))
        .await;
    red.xq(XiangqiAction::DeclineDraw).await;
    black
        .event(|e| {
            matches!(
                e,
                Event::Xiangqi(XiangqiEvent::DrawDeclined { by: Side::Red })
            )
        })
        .await;
    black.play("h9g7").await;
    let again = black.xq(XiangqiAction::OfferDraw).await;
    let (code, _) = black.error_for(Some(again)).await;
    assert_eq!(code, qipai_protocol::ErrorCode::DrawOfferLimit);
    red.xq(XiangqiAction::Resign).await;
    assert_eq!(
        result_of(&mut black).await,
        GameResult {
            winner: Some(Side::Black),
            reason: EndReason::Resignation
        }
    );
}

/// Offering while the opponent's offer stands accepts it, at the time it happened.
#[tokio::test]
async fn crossing_offers_agree() {
    let server = TestServer::default().await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    black.xq(XiangqiAction::OfferDraw).await;
    red.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::DrawOffered { .. })))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    red.xq(XiangqiAction::OfferDraw).await;
    match black.event(is_over).await {
        Event::Xiangqi(XiangqiEvent::Over { result, clocks }) => {
            assert_eq!(result.reason, EndReason::Agreement);
            assert!(clocks.server_time >= 30, "{clocks:?}");
        }
        _ => unreachable!(),
    }
}

/// Named presets are accepted as time controls; positions where the game is already over
/// are refused as options.
#[tokio::test]
async fn presets_and_decided_positions() {
    let server = TestServer::default().await;
    let mut a = Client::hello(&server, "A").await;
    a.create_xiangqi(
        XiangqiOptions {
            time_control: Some("6.1".into()),
            ..Default::default()
        },
        None,
    )
    .await;
    let mut b = Client::hello(&server, "B").await;
    let seq = b.seq();
    b.send(&qipai_protocol::ClientMsg::CreateRoom {
        seq,
        options: qipai_protocol::RoomOptions::Xiangqi(XiangqiOptions {
            start_fen: Some("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()),
            ..Default::default()
        }),
        seat: None,
        bots: false,
    })
    .await;
    assert_eq!(
        b.error_for(Some(seq)).await.0,
        qipai_protocol::ErrorCode::BadOptions
    );
}
