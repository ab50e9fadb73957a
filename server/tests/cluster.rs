//! Several nodes (issue 17): three real `qipai-server` processes on one PostgreSQL and one
//! Redis. A Tuolaji table whose four players said hello on different nodes, a xiangqi game
//! whose players are on two nodes and its spectator on a third; the node that owns the
//! xiangqi room is killed with SIGKILL mid-game (then, if the Tuolaji table lives elsewhere,
//! its node too): every player reconnects to a survivor with their token, every acknowledged
//! action is still there, the clocks are fair (the time without an owner is charged to
//! nobody), and both games go on to an end on the survivors. Bad input: an internal hello
//! with a wrong secret, and a stale owner's step refused by the store's fencing.
//!
//! Needs `QIPAI_TEST_REDIS_URL` and `QIPAI_TEST_POSTGRES_URL` (`.ci/redis.sh`,
//! `.ci/postgres.sh`; `.ci/run` sets both); without them each test says why and passes.

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::records::Rng;
use common::tuolaji::{next_action, patient_env, seat_view};
use common::{spawn_listening, Client, Endpoint};
use qipai_protocol::tuolaji::{TuolajiAction, TuolajiOptions};
use qipai_protocol::xiangqi::{Side, Status, XiangqiAction, XiangqiOptions, XiangqiView};
use qipai_protocol::{ClientMsg, ErrorCode, GameKind, RoomId, ServerMsg, View, PROTOCOL_VERSION};

/// The nodes' lease: a takeover comes this long after the owner's last heartbeat at the
/// earliest, so a room is at least this long without an owner (none of it on a clock).
const LEASE_MS: u64 = 1000;
const SECRET: &str = "cluster-test-secret";

/// The Redis and PostgreSQL the tests share, or why the test is skipped.
fn backends() -> Option<(String, String)> {
    let redis = std::env::var("QIPAI_TEST_REDIS_URL").ok();
    let pg = std::env::var("QIPAI_TEST_POSTGRES_URL").ok();
    match (redis, pg) {
        (Some(r), Some(p)) => Some((r, p)),
        _ => {
            eprintln!(
                "skipped: QIPAI_TEST_REDIS_URL and QIPAI_TEST_POSTGRES_URL are not both set \
                 (source .ci/redis.sh and .ci/postgres.sh, as .ci/run does)"
            );
            None
        }
    }
}

/// Redis database `db` of the test's server, emptied: each test its own keys.
async fn redis_db(url: &str, db: u8) -> String {
    let url = format!("{}/{db}", url.trim_end_matches('/'));
    let client = redis::Client::open(url.as_str()).expect("redis url");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("redis");
    let () = redis::cmd("FLUSHDB")
        .query_async(&mut conn)
        .await
        .expect("flushdb");
    url
}

/// One node: the server binary with `[cluster]` on.
struct Node {
    child: Child,
    addr: SocketAddr,
    name: &'static str,
}

impl Endpoint for Node {
    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

/// Ports for the nodes, below the kernel's ephemeral range (as the crash test's).
static NEXT_PORT: std::sync::atomic::AtomicU16 = std::sync::atomic::AtomicU16::new(26_000);

impl Node {
    async fn start(name: &'static str, redis: &str, pg: &str, secret: &str) -> Node {
        let addr = loop {
            let port = NEXT_PORT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let addr = SocketAddr::from(([127, 0, 0, 1], port));
            if std::net::TcpListener::bind(addr).is_ok() {
                break addr;
            }
        };
        let mut server = Command::new(env!("CARGO_BIN_EXE_qipai-server"));
        server
            .env("QIPAI_SERVER__ADDR", addr.to_string())
            .env("QIPAI_STORE__URL", pg)
            .env("QIPAI_CLUSTER__ENABLED", "true")
            .env("QIPAI_CLUSTER__REDIS_URL", redis)
            .env("QIPAI_CLUSTER__NODE_ID", name)
            .env("QIPAI_CLUSTER__LEASE_MS", LEASE_MS.to_string())
            .env("QIPAI_CLUSTER__SECRET", secret)
            .envs(patient_env(200))
            .env("QIPAI_LIMITS__ROOMS_PER_ADDR", "1000")
            .env("RUST_LOG", "warn,qipai_server::cluster=info");
        let child = spawn_listening(server, addr, &format!("node {name}")).await;
        Node { child, addr, name }
    }

    /// `GET path`: the body.
    async fn get(&self, path: &str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut tcp = tokio::net::TcpStream::connect(self.addr)
            .await
            .expect("connect");
        let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        tcp.write_all(request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).await.expect("read");
        answer
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_owned())
    }

    /// The rooms of `game` open on this node, from its `/metrics`.
    async fn rooms(&self, game: GameKind) -> u32 {
        let page = self.get("/metrics").await;
        let line = format!("qipai_rooms{{game=\"{}\"}} ", game.name());
        page.lines()
            .find_map(|l| l.strip_prefix(line.as_str()))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    }

    /// SIGKILL: no goodbye, no lease given back.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Says hello with `token` to the live nodes in turn until one serves it (a node may still
/// forward to the dead one until its lease runs out).
async fn reconnect(nodes: &[&Node], token: &str) -> Client {
    for attempt in 0..200 {
        let node = nodes[attempt % nodes.len()];
        let mut c = Client::connect(node).await;
        c.send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: String::new(),
            resume_token: Some(token.into()),
        })
        .await;
        if let Some(ServerMsg::Welcome {
            player_id,
            resume_token,
            room_id: Some(_),
            ..
        }) = c.try_recv(Duration::from_secs(3)).await
        {
            c.player_id = player_id;
            c.token = resume_token;
            // Back in the room: `joined` and a snapshot.
            c.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
            return c;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("nobody took the player back");
}

async fn xq_view(client: &mut Client) -> XiangqiView {
    match client.snapshot().await.1 {
        View::Xiangqi(v) => v,
        other => panic!("not xiangqi: {other:?}"),
    }
}

fn mover(side: Side) -> usize {
    usize::from(side == Side::Black)
}

/// Plays `n` random legal moves, each acknowledged; returns them.
async fn xq_moves(clients: &mut [Client], rng: &mut Rng, n: usize) -> Vec<String> {
    let mut played = Vec::new();
    for _ in 0..n {
        let v = xq_view(&mut clients[0]).await;
        if v.status != Status::Playing || v.legal_moves.is_empty() {
            break;
        }
        let mv = rng.pick(&v.legal_moves).clone();
        clients[mover(v.side_to_move)].play(&mv).await;
        played.push(mv);
    }
    played
}

/// Plays `n` Tuolaji actions (or to the end of the hand in progress when `to_hand_end`);
/// the acknowledged ones are counted.
async fn tl_actions(clients: &mut [Client], rng: &mut Rng, n: usize, to_hand_end: bool) -> usize {
    let mut acked = 0;
    let start_hand = seat_view(&mut clients[0]).await.1.hand_number;
    for _ in 0..if to_hand_end { 10_000 } else { n } {
        let Some((seat, action, hand)) = next_action(clients, rng).await else {
            break;
        };
        if to_hand_end && hand != start_hand {
            break;
        }
        let client = &mut clients[seat];
        let seq = client.tl(action.clone()).await;
        match client.answer(seq).await {
            ServerMsg::Ok { .. } => acked += 1,
            refused => assert!(
                matches!(action, TuolajiAction::Bid { .. }),
                "seat {seat}: {action:?} refused: {refused:?}"
            ),
        }
    }
    acked
}

/// Each Tuolaji seat's own cards and the cards played, as their snapshots show them.
async fn tl_state(clients: &mut [Client]) -> Vec<(u32, Option<Vec<String>>, Vec<String>)> {
    let mut out = Vec::new();
    for c in clients.iter_mut() {
        let (_, v) = seat_view(c).await;
        out.push((v.hand_number, v.hand, v.played));
    }
    out
}

/// The node among `nodes` (by index) that has a room of `game` open.
async fn owner(nodes: &[Option<Node>], game: GameKind) -> Option<usize> {
    for (i, node) in nodes.iter().enumerate() {
        if let Some(node) = node {
            if node.rooms(game).await > 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Kills node `dead`, waits `down` more, and brings every client back through the others.
async fn kill_and_come_back(
    nodes: &mut [Option<Node>],
    dead: usize,
    down: Duration,
    clients: &mut [&mut Vec<Client>],
) {
    let killed = nodes[dead].take().map(|mut n| {
        n.kill();
        n.name
    });
    eprintln!("killed {killed:?}");
    tokio::time::sleep(down).await;
    let live: Vec<&Node> = nodes.iter().flatten().collect();
    for group in clients.iter_mut() {
        for c in group.iter_mut() {
            let token = c.token.clone();
            *c = reconnect(&live, &token).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_lose_nothing_when_one_is_killed() {
    let Some((redis, pg)) = backends() else {
        return;
    };
    let redis = redis_db(&redis, 1).await;
    let mut nodes = vec![
        Some(Node::start("a", &redis, &pg, SECRET).await),
        Some(Node::start("b", &redis, &pg, SECRET).await),
        Some(Node::start("c", &redis, &pg, SECRET).await),
    ];
    // Every node's first heartbeat is in Redis.
    tokio::time::sleep(Duration::from_millis(LEASE_MS)).await;
    let node = |i: usize| nodes[i].as_ref().expect("alive");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);

    // Tuolaji: the four players said hello on a, b, c and a.
    let mut tl: Vec<Client> = Vec::new();
    for (seat, at) in [0usize, 1, 2, 0].into_iter().enumerate() {
        tl.push(Client::hello(node(at), &format!("T{seat}")).await);
    }
    let options = TuolajiOptions {
        bid_window_ms: Some(200),
        ..TuolajiOptions::default()
    };
    let table = tl[0].create_tuolaji(options, Some(0)).await;
    for (seat, c) in tl.iter_mut().enumerate().skip(1) {
        c.join(table, Some(seat as u8)).await;
    }
    // Placement sees the table in the next heartbeats.
    tokio::time::sleep(Duration::from_millis(LEASE_MS)).await;

    // Xiangqi: red on b, black on c, a spectator on a.
    let mut xq = vec![
        Client::hello(node(1), "Red").await,
        Client::hello(node(2), "Black").await,
    ];
    let xq_options = XiangqiOptions {
        time_control: Some("10+0".into()),
        ..XiangqiOptions::default()
    };
    let game = xq[0].create_xiangqi(xq_options, Some(0)).await;
    xq[1].join(game, Some(1)).await;
    let mut watchers = vec![Client::hello(node(0), "Watcher").await];
    watchers[0].spectate(game).await;

    // Every node knows the three nodes (`GET /api/nodes`).
    let listed = node(2).get("/api/nodes").await;
    for id in ["\"a\"", "\"b\"", "\"c\""] {
        assert!(listed.contains(id), "{listed}");
    }
    // Every node lists both tables.
    for i in 0..3 {
        let mut c = Client::hello(node(i), "Lister").await;
        let seq = c.seq();
        c.send(&ClientMsg::ListRooms {
            seq,
            game: None,
            limit: None,
            after: None,
        })
        .await;
        match c.until(|m| matches!(m, ServerMsg::Rooms { .. })).await {
            ServerMsg::Rooms { rooms, .. } => {
                let ids: Vec<RoomId> = rooms.iter().map(|r| r.room_id).collect();
                assert!(
                    ids.contains(&table) && ids.contains(&game),
                    "node {i} lists {ids:?}"
                );
            }
            _ => unreachable!(),
        }
    }

    let mut moves = xq_moves(&mut xq, &mut rng, 6).await;
    let mut tl_acked = tl_actions(&mut tl, &mut rng, 6, false).await;
    assert!(tl_acked > 0, "nothing was played at the Tuolaji table");

    // Kill the xiangqi room's node, then (if it lived elsewhere) the Tuolaji table's.
    let mut kills = 0;
    for gk in [GameKind::Xiangqi, GameKind::Tuolaji] {
        let Some(dead) = owner(&nodes, gk).await else {
            continue;
        };
        if nodes.iter().flatten().count() < 2 {
            break;
        }
        let xq_moves_too = owner(&nodes, GameKind::Xiangqi).await == Some(dead);
        let before = xq_view(&mut xq[0]).await;
        let tl_before = tl_state(&mut tl).await;
        let last_ack = Instant::now();
        // Everybody tries to come back at once (a survivor may still forward to the dead
        // node until its lease runs out).
        let down = Duration::ZERO;
        eprintln!("{gk:?} lives on node {dead}");
        kill_and_come_back(
            &mut nodes,
            dead,
            down,
            &mut [&mut xq, &mut tl, &mut watchers],
        )
        .await;
        kills += 1;
        let since_ack = last_ack.elapsed();

        // Every acknowledged move is there, and nothing more.
        let after = xq_view(&mut xq[0]).await;
        let played: Vec<String> = after.moves.iter().map(|m| m.iccs.clone()).collect();
        assert_eq!(played, moves, "after killing node {dead}");
        assert_eq!(after.fen, before.fen);
        // The side that moved keeps its clock exactly; the side to move is charged its
        // thinking time, never the time the room had no owner (at least `LEASE_MS`: from the
        // dead node's last heartbeat until its lease ran out and a survivor took over).
        // (The time after the takeover until the snapshot is thinking time, as after a
        // restart.)
        let (kept, kept_before, running, running_before) = match after.side_to_move {
            Side::Red => (
                after.clocks.black_ms,
                before.clocks.black_ms,
                after.clocks.red_ms,
                before.clocks.red_ms,
            ),
            Side::Black => (
                after.clocks.red_ms,
                before.clocks.red_ms,
                after.clocks.black_ms,
                before.clocks.black_ms,
            ),
        };
        assert_eq!(kept, kept_before, "the clock of the side that moved");
        let charged = running_before.saturating_sub(running);
        eprintln!(
            "side to move charged {charged} ms of {} ms between the snapshots{}",
            since_ack.as_millis(),
            if xq_moves_too {
                ""
            } else {
                " (its room did not move)"
            },
        );
        assert!(
            !xq_moves_too ||
            // The owner's last heartbeat came at most a third of the lease before the
            // snapshot, the takeover a whole lease after that heartbeat.
            charged + LEASE_MS * 2 / 3 - 100 <= since_ack.as_millis() as u64,
            "the time without an owner was charged: {charged} ms of {since_ack:?}"
        );
        // The spectator watches the same game.
        let seen = xq_view(&mut watchers[0]).await;
        assert_eq!(seen.fen, after.fen);
        // Tuolaji: every seat's cards are as they were.
        assert_eq!(
            tl_state(&mut tl).await,
            tl_before,
            "after killing node {dead}"
        );

        // Play goes on.
        moves.extend(xq_moves(&mut xq, &mut rng, 4).await);
        tl_acked += tl_actions(&mut tl, &mut rng, 4, false).await;
    }
    assert!(kills >= 1);

    // Both games end on the survivors: the Tuolaji hand is played out, xiangqi resigned.
    tl_acked += tl_actions(&mut tl, &mut rng, 0, true).await;
    let v = xq_view(&mut xq[0]).await;
    if v.status == Status::Playing {
        xq[mover(v.side_to_move)].xq(XiangqiAction::Resign).await;
    }
    let over = xq_view(&mut watchers[0]).await;
    for _ in 0..100 {
        if xq_view(&mut xq[0]).await.status != Status::Playing {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_ne!(
        xq_view(&mut xq[1]).await.status,
        Status::Playing,
        "{over:?}"
    );
    let hand = seat_view(&mut tl[0]).await.1.hand_number;
    assert!(hand >= 2, "the first hand ended (now hand {hand})");
    eprintln!(
        "cluster: {kills} node(s) killed, {} xiangqi moves, {tl_acked} Tuolaji actions kept",
        moves.len()
    );
}

/// An internal hello without the cluster's secret is refused with `bad_node_secret`, and
/// so is anything else as the first frame on `/node`; the connection closes.
#[tokio::test]
async fn an_internal_hello_needs_the_secret() {
    let Some((redis, pg)) = backends() else {
        return;
    };
    let redis = redis_db(&redis, 2).await;
    let node = Node::start("s", &redis, &pg, SECRET).await;
    let url = format!("ws://{}/node", node.addr);
    for frame in [
        rmp_serde::to_vec_named(&serde_json::json!({
            "type": "node_hello", "secret": "wrong", "player_id": 7, "name": "Mallory",
            "resume_token": "00", "room_id": null,
        }))
        .expect("encode"),
        b"\x91\x01".to_vec(),
    ] {
        use futures_util::{SinkExt, StreamExt};
        let (mut ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("connect");
        ws.send(tokio_tungstenite::tungstenite::Message::Binary(
            frame.into(),
        ))
        .await
        .expect("send");
        let answer = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("an answer");
        let Some(Ok(tokio_tungstenite::tungstenite::Message::Binary(bytes))) = answer else {
            panic!("no error frame: {answer:?}");
        };
        match rmp_serde::from_slice::<ServerMsg>(&bytes).expect("a server message") {
            ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::BadNodeSecret),
            other => panic!("expected bad_node_secret, got {other:?}"),
        }
        let closed = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                match ws.next().await {
                    None | Some(Err(_)) => break,
                    Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) => break,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "the connection stayed open");
    }
    // The node still serves clients on `/ws`.
    let c = Client::hello(&node, "Alice").await;
    assert!(c.player_id > 0);
}

/// Fencing in the store: once a takeover has raised a room's epoch, a step written at the
/// old epoch (a stale owner's) is refused and changes nothing; the new owner's goes in.
#[tokio::test]
async fn the_store_refuses_a_stale_owners_step() {
    let Some((_, pg)) = backends() else {
        return;
    };
    use qipai_store::{RoomRow, StepKind, StepRow, Write};
    let store = qipai_store::open(&pg).await.expect("store");
    let room = rand_id();
    let step = |index: u64, epoch: u64| {
        Write::Step(StepRow {
            room,
            index,
            kind: StepKind::Action,
            seat: 0,
            at_ms: 1000 + index,
            lag_ms: 0,
            action: Some(vec![1, 2, 3]),
            event_seq: index,
            epoch,
        })
    };
    store
        .write(vec![
            Write::Room(RoomRow {
                id: room,
                game: "xiangqi".into(),
                options: vec![0x80],
                seed: 1,
                created_ms: 0,
            }),
            step(0, 0),
        ])
        .await
        .expect("the first owner writes");
    let log = store
        .take_over(room, 1, 250)
        .await
        .expect("takeover")
        .expect("an open room");
    assert_eq!((log.epoch, log.skew_ms, log.steps.len()), (1, 250, 1));
    // A second takeover at the same epoch gets nothing: one node wins.
    assert!(store.take_over(room, 1, 0).await.expect("read").is_none());
    let stale = store.write(vec![step(1, 0)]).await;
    assert!(stale.is_err(), "a stale owner's step went in");
    store
        .write(vec![step(1, 1)])
        .await
        .expect("the new owner writes");
    let log = store
        .take_over(room, 2, 0)
        .await
        .expect("takeover")
        .expect("open");
    assert_eq!(log.steps.len(), 2);
    assert_eq!(log.steps[1].epoch, 1);
}

fn rand_id() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (t ^ (u64::from(std::process::id()) << 20)) % (1 << 53)
}

/// A measurement, not a check (README "Several nodes"): the round trip of `ping` on a
/// connection to the room's node against one forwarded to it by another node (loopback).
/// `cargo test --release -p qipai-server --test cluster -- --ignored --nocapture hop`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run by hand"]
async fn hop() {
    let Some((redis, pg)) = backends() else {
        return;
    };
    let redis = redis_db(&redis, 3).await;
    let nodes = [
        Node::start("h1", &redis, &pg, SECRET).await,
        Node::start("h2", &redis, &pg, SECRET).await,
    ];
    tokio::time::sleep(Duration::from_millis(LEASE_MS)).await;
    let mut red = Client::hello(&nodes[0], "Red").await;
    let game = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    let owner = usize::from(nodes[0].rooms(GameKind::Xiangqi).await == 0);
    let mut direct = Client::hello(&nodes[owner], "Direct").await;
    direct.spectate(game).await;
    let mut forwarded = Client::hello(&nodes[1 - owner], "Forwarded").await;
    forwarded.spectate(game).await;
    for (name, c) in [("direct", &mut direct), ("forwarded", &mut forwarded)] {
        let mut times = Vec::new();
        for _ in 0..3000 {
            let seq = c.seq();
            let t = Instant::now();
            c.send(&ClientMsg::Ping {
                seq,
                client_time: None,
            })
            .await;
            c.until(|m| matches!(m, ServerMsg::Pong { seq: s, .. } if *s == seq))
                .await;
            times.push(t.elapsed().as_micros() as u64);
        }
        times.sort_unstable();
        eprintln!(
            "{name}: ping round trip p50 {} µs, p90 {} µs, p99 {} µs (3000 pings)",
            times[1500], times[2700], times[2970]
        );
    }
}
