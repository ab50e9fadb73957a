//! The PostgreSQL store goes away under a running server and comes back: while it is down
//! `/healthz` answers 503 with the reason and actions are refused with `store_unavailable`
//! (nothing applied, the room stays open); once it is back `/healthz` answers 200 again and
//! the next action is accepted, without a restart (the pool makes new connections). On one
//! node, and on two nodes sharing the store (a player on each, the room on one of them).
//!
//! Each test starts a PostgreSQL of its own (`common::postgres`), since it stops it; the
//! two-node test also needs `QIPAI_TEST_REDIS_URL` (`.ci/redis.sh`). Without them a test
//! says why and passes.

mod common;

use std::time::{Duration, Instant};

use common::postgres::OwnPostgres;
use common::{http_get, Client, TestServer};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiOptions};
use qipai_protocol::{ErrorCode, ServerMsg};
use qipai_server::Config;

/// How often the servers probe the store in these tests (the default is a second).
const PROBE_MS: u64 = 50;

/// The server's settings for `pg`: probed often.
fn on_postgres(c: &mut Config, pg: &OwnPostgres) {
    c.store.url = pg.url();
    c.store.health_check_ms = PROBE_MS;
}

/// Waits until `GET /healthz` on `server` has status `status`; its body.
async fn health_becomes(server: &TestServer, status: &str) -> String {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let reply = http_get(server, "/healthz").await;
        if reply.starts_with(&format!("HTTP/1.1 {status}")) {
            return reply;
        }
        assert!(
            Instant::now() < until,
            "/healthz did not become {status}: {reply}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `player` moves `iccs`; the answer to it.
async fn try_move(player: &mut Client, iccs: &str) -> ServerMsg {
    let seq = player.xq(XiangqiAction::Move { iccs: iccs.into() }).await;
    player.answer(seq).await
}

/// Stops `pg` under `servers` (Red and Black seated at one table, Red has moved), checks
/// that every server says so and that Black's move is refused without being applied, then
/// starts `pg` again and checks that the same move is accepted and seen by Red.
async fn outage(pg: &OwnPostgres, servers: &[&TestServer], red: &mut Client, black: &mut Client) {
    pg.stop().await;
    for server in servers {
        let reply = health_becomes(server, "503").await;
        assert!(reply.contains("store unavailable"), "{reply}");
    }
    match try_move(black, "a6a5").await {
        ServerMsg::Error { code, message, .. } => {
            assert_eq!(code, ErrorCode::StoreUnavailable, "{message}");
        }
        other => panic!("a move while the store is down: {other:?}"),
    }
    // Nothing was applied: it is still Black's turn, and the room is open.
    assert!(
        !black
            .log
            .iter()
            .any(|m| matches!(m, ServerMsg::Left { .. })),
        "the room closed: {:?}",
        black.log
    );

    pg.resume().await;
    for server in servers {
        health_becomes(server, "200").await;
    }
    match try_move(black, "a6a5").await {
        ServerMsg::Ok { .. } => {}
        other => panic!("the move after the store came back: {other:?}"),
    }
    red.event(|e| {
        matches!(e, qipai_protocol::Event::Xiangqi(
            qipai_protocol::xiangqi::XiangqiEvent::Moved { iccs, .. }) if iccs == "a6a5")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_node_refuses_actions_while_postgres_is_down_and_takes_them_after() {
    let Some(pg) = OwnPostgres::start().await else {
        return;
    };
    let server = TestServer::start(|c| on_postgres(c, &pg)).await;
    health_becomes(&server, "200").await;
    let (mut red, mut black, _) = common::xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("b2b4").await;
    outage(&pg, &[&server], &mut red, &mut black).await;
    // And again: the pool recovers every time, not once.
    red.play("b4b5").await;
    pg.stop().await;
    pg.resume().await;
    health_becomes(&server, "200").await;
    // The connections the pool held died with the database; new ones are made.
    match try_move(&mut black, "a5a4").await {
        ServerMsg::Ok { .. } => {}
        other => panic!("after a second restart: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_refuse_actions_while_postgres_is_down_and_take_them_after() {
    let Ok(redis) = std::env::var("QIPAI_TEST_REDIS_URL") else {
        eprintln!("skipped: QIPAI_TEST_REDIS_URL is not set (source .ci/redis.sh)");
        return;
    };
    let Some(pg) = OwnPostgres::start().await else {
        return;
    };
    let redis = common::redis_db(&redis, 12).await;
    let node = |name: &'static str| {
        let (pg, redis) = (&pg, redis.clone());
        move |c: &mut Config| {
            on_postgres(c, pg);
            c.cluster.enabled = true;
            c.cluster.redis_url = redis;
            c.cluster.node_id = name.into();
            c.cluster.lease_ms = 1000;
            c.cluster.secret = "outage-test-secret".into();
        }
    };
    let a = TestServer::start(node("outage-a")).await;
    let b = TestServer::start(node("outage-b")).await;
    for server in [&a, &b] {
        health_becomes(server, "200").await;
    }
    // Red on one node, Black on the other: one of them reaches the room through its node.
    let mut red = Client::hello(&a, "Red").await;
    let mut black = Client::hello(&b, "Black").await;
    let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    black.join(room, Some(1)).await;
    red.play("b2b4").await;
    outage(&pg, &[&a, &b], &mut red, &mut black).await;
}
