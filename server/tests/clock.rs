//! The server's clock over real sockets: flags fall with no client message, a missing first
//! move aborts, and clocks in views run from the server's time.

mod common;

use common::{xiangqi_pair, Client, TestServer};
use qipai_protocol::xiangqi::{EndReason, GameResult, Side, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{Event, ServerMsg, View};

fn over(e: &Event) -> bool {
    matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. }))
}

async fn result_of(client: &mut Client) -> (GameResult, u64) {
    match client.event(over).await {
        Event::Xiangqi(XiangqiEvent::Over { result, clocks }) => (result, clocks.red_ms),
        _ => unreachable!(),
    }
}

/// 4.1.4: after both free first moves, Red's 300 ms run out; both players are told at
/// once, though nobody sent anything.
#[tokio::test]
async fn flag_falls_on_a_short_clock() {
    let server = TestServer::default().await;
    let options = XiangqiOptions {
        time_control: Some("sd:300ms".into()),
        ..Default::default()
    };
    let (mut red, mut black, _) = xiangqi_pair(&server, options).await;
    red.play("h2e2").await;
    black.play("h9g7").await;
    let started = std::time::Instant::now();
    let expected = GameResult {
        winner: Some(Side::Black),
        reason: EndReason::TimeForfeit,
    };
    let (result, red_ms) = result_of(&mut black).await;
    assert_eq!(result, expected);
    assert_eq!(red_ms, 0);
    assert_eq!(result_of(&mut red).await.0, expected);
    let waited = started.elapsed().as_millis();
    assert!((250..2000).contains(&waited), "flag after {waited} ms");
}

/// A move that arrives in time is charged and the increment added; the clock the other
/// side sees is the same.
#[tokio::test]
async fn increment_is_added_and_both_sides_agree() {
    let server = TestServer::default().await;
    let options = XiangqiOptions {
        time_control: Some("1m+5s".into()),
        ..Default::default()
    };
    let (mut red, mut black, _) = xiangqi_pair(&server, options).await;
    red.play("h2e2").await;
    black.play("h9g7").await;
    red.play("h0g2").await;
    let clocks = match black
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { iccs, .. }) if iccs == "h0g2"))
        .await
    {
        Event::Xiangqi(XiangqiEvent::Moved { clocks, .. }) => clocks,
        _ => unreachable!(),
    };
    // Red's free first move earned 5 s (五(二)2: every move earns the increment); the
    // second was charged a few ms at most, then got 5 s.
    assert!(
        clocks.red_ms > 65_000 && clocks.red_ms <= 70_000,
        "{clocks:?}"
    );
    assert_eq!(
        clocks.black_ms, 65_000,
        "Black's first move was free and earned its increment"
    );
    assert_eq!(clocks.running, Some(Side::Black));
    let (_, View::Xiangqi(red_view)) = red.snapshot().await else {
        panic!("expected a xiangqi view")
    };
    let (_, View::Xiangqi(black_view)) = black.snapshot().await else {
        panic!("expected a xiangqi view")
    };
    assert_eq!(red_view.clocks.red_ms, black_view.clocks.red_ms);
}

/// [D]: a side that does not make its first move within `first_move_ms` aborts the game,
/// with no winner.
#[tokio::test]
async fn missing_first_move_aborts() {
    let server = TestServer::start(|c| c.xiangqi.house.first_move_ms = 200).await;
    let (mut red, mut black, _) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    let (result, _) = result_of(&mut red).await;
    assert_eq!(
        result,
        GameResult {
            winner: None,
            reason: EndReason::Aborted
        }
    );
    assert_eq!(result_of(&mut black).await.0, result);
    // The room says so in its snapshot too.
    let (_, View::Xiangqi(view)) = black.snapshot().await else {
        panic!("expected a xiangqi view")
    };
    assert_eq!(view.result, Some(result));
    assert!(black
        .log
        .iter()
        .all(|m| !matches!(m, ServerMsg::Error { .. })));
}
