//! A room pipelines its commits: it takes its next command while the last one's commit is
//! in flight, and releases every answer and event strictly in order, each only once its own
//! commit is done (README "Data": nothing is shown before it is saved).

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::store_double::Hooked;
use common::{store_file, xiangqi_pair, Client, TestServer, PATIENCE};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{Event, ServerMsg};
use tokio::sync::Semaphore;

/// Holds the store's writes back while `held`: each then waits for a permit the test gives.
struct Gate {
    held: AtomicBool,
    /// Writes that reached the store while held.
    arrived: AtomicUsize,
    permits: Semaphore,
}

impl Gate {
    fn new() -> Gate {
        Gate {
            held: AtomicBool::new(false),
            arrived: AtomicUsize::new(0),
            permits: Semaphore::new(0),
        }
    }

    /// Waits until `n` writes have reached the store while held.
    async fn arrived(&self, n: usize) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while self.arrived.load(Ordering::SeqCst) < n {
            assert!(
                tokio::time::Instant::now() < deadline,
                "write {n} never reached the store"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// A server on a SQLite file whose writes `gate` can hold back.
async fn gated(file: &str, gate: &Arc<Gate>) -> TestServer {
    let inner = qipai_store::open(file).await.expect("open the store");
    let gate = Arc::clone(gate);
    let store = Hooked {
        inner,
        write: Arc::new(move |batch, inner| {
            let gate = Arc::clone(&gate);
            Box::pin(async move {
                if gate.held.load(Ordering::SeqCst) {
                    gate.arrived.fetch_add(1, Ordering::SeqCst);
                    if let Ok(permit) = gate.permits.acquire().await {
                        permit.forget();
                    }
                }
                inner.write(batch).await
            })
        }),
    };
    let file = file.to_owned();
    TestServer::on_store(Arc::new(store), Duration::from_millis(10), move |c| {
        c.store.url = file;
    })
    .await
}

/// Nothing comes to `client` for a while.
async fn quiet(client: &mut Client) {
    let got = client.try_recv(Duration::from_millis(100)).await;
    assert!(got.is_none(), "sent before its commit: {got:?}");
}

/// Red moves, then offers a draw while the move's commit is held: neither is answered
/// before its own commit; once the move's commit is let through, its `ok` and its event go
/// out while the offer still waits (its step already handed to the store behind it); then
/// the offer's. Black sees the move no sooner than Red's `ok`.
#[tokio::test]
async fn two_commands_are_released_in_order_each_after_its_commit() {
    let file = store_file("pipelined");
    let gate = Arc::new(Gate::new());
    let server = gated(&file, &gate).await;
    let (mut red, mut black, _room) = xiangqi_pair(&server, XiangqiOptions::default()).await;
    // Everything said before comes ahead of a snapshot.
    red.snapshot().await;
    black.snapshot().await;

    gate.held.store(true, Ordering::SeqCst);
    let moved = red
        .xq(XiangqiAction::Move {
            iccs: "h2e2".into(),
        })
        .await;
    gate.arrived(1).await;
    let offered = red.xq(XiangqiAction::OfferDraw).await;
    quiet(&mut red).await;
    quiet(&mut black).await;

    // The move's commit goes through; the offer's is handed to the store next, and held.
    gate.permits.add_permits(1);
    assert!(matches!(red.answer(moved).await, ServerMsg::Ok { .. }));
    red.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { .. })))
        .await;
    black
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { .. })))
        .await;
    gate.arrived(2).await;
    quiet(&mut red).await;
    quiet(&mut black).await;

    gate.permits.add_permits(1);
    assert!(matches!(red.answer(offered).await, ServerMsg::Ok { .. }));
    red.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::DrawOffered { .. })))
        .await;
    black
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::DrawOffered { .. })))
        .await;
    let order: Vec<&str> = red
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Ok { seq } if *seq == moved => Some("ok move"),
            ServerMsg::Ok { seq } if *seq == offered => Some("ok offer"),
            ServerMsg::Event {
                event: Event::Xiangqi(XiangqiEvent::Moved { .. }),
                ..
            } => Some("moved"),
            ServerMsg::Event {
                event: Event::Xiangqi(XiangqiEvent::DrawOffered { .. }),
                ..
            } => Some("offered"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["ok move", "moved", "ok offer", "offered"]);
    gate.held.store(false, Ordering::SeqCst);
    gate.permits.add_permits(64);
    server.stop();
}
