//! The attacks a hostile client tried, each at small bounded scale on loopback, each held to its budget
//! (PROTOCOL.md §13), with a well-behaved reference game beside it that still gets its `ok`
//! quickly. Attackers bind to their own 127.x addresses, the reference to another.

mod common;

use std::time::{Duration, Instant};

use common::{metric, Client, TestServer};
use qipai_protocol::draughts::DraughtsOptions;
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiOptions};
use qipai_protocol::{ClientMsg, ErrorCode, RoomOptions, ServerMsg, PROTOCOL_VERSION};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::{Bytes, Message};

/// How fast the reference game's move must be answered while an attack runs.
const QUICK: Duration = Duration::from_millis(500);

/// The reference: two players at a xiangqi table from 127.0.0.200; returns Red and Black.
async fn reference(server: &TestServer) -> (Client, Client) {
    let red = Client::connect_from(server, "127.0.0.200").await.unwrap();
    let mut red = red.say_hello("Red").await;
    let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    let black = Client::connect_from(server, "127.0.0.200").await.unwrap();
    let mut black = black.say_hello("Black").await;
    black.join(room, Some(1)).await;
    (red, black)
}

/// Red plays `iccs` and gets its `ok` within [`QUICK`].
async fn answered_quickly(red: &mut Client, iccs: &str) {
    let started = Instant::now();
    let seq = red
        .xq(XiangqiAction::Move {
            iccs: iccs.to_owned(),
        })
        .await;
    red.until(|m| matches!(m, ServerMsg::Ok { seq: s } if *s == seq))
        .await;
    let took = started.elapsed();
    assert!(took < QUICK, "the reference game waited {took:?}");
}

fn bot_table(game: &str) -> RoomOptions {
    match game {
        "xiangqi" => RoomOptions::Xiangqi(XiangqiOptions {
            bot_think_ms: Some(60_000),
            ..Default::default()
        }),
        "draughts" => RoomOptions::Draughts(DraughtsOptions {
            bot_think_ms: Some(60_000),
            ..Default::default()
        }),
        _ => RoomOptions::Tuolaji(TuolajiOptions::default()),
    }
}

/// Waits (bounded) until `name` in `/metrics` is at most `bound`.
async fn settles(server: &TestServer, name: &str, bound: f64, within: Duration) {
    let started = Instant::now();
    loop {
        let now = metric(server, name).await;
        if now <= bound {
            return;
        }
        assert!(
            started.elapsed() < within,
            "{name} is {now}, still over {bound} after {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Connect, hello, `create_room` with bots, disconnect — in a loop, from one address. The
/// address holds at most `rooms_per_addr` rooms, the server at most `max_bots` bots, nobody
/// with a bot table of their own keeps it after the grace, and memory stays flat.
#[tokio::test]
async fn create_and_drop_rooms_in_a_loop() {
    let server = TestServer::start(|c| {
        c.limits.rooms_per_addr = 3;
        c.limits.max_bots = 8;
        c.server.reconnect_grace_ms = 150;
        c.tuolaji.table.seat_grace_ms = Some(150);
        c.limits.empty_room_grace_ms = 50;
    })
    .await;
    let (mut red, _black) = reference(&server).await;
    let rss_before = metric(&server, "qipai_process_resident_bytes").await;
    let (mut opened, mut refused) = (0, 0);
    for i in 0..40 {
        let game = if i % 2 == 0 { "xiangqi" } else { "tuolaji" };
        let c = Client::connect_from(&server, "127.0.0.10").await.unwrap();
        let mut c = c.say_hello("Flood").await;
        let seq = c.seq();
        c.send(&ClientMsg::CreateRoom {
            seq,
            options: bot_table(game),
            seat: None,
            bots: true,
        })
        .await;
        match c
            .until(|m| matches!(m, ServerMsg::Joined { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Joined { .. } => opened += 1,
            ServerMsg::Error { code, .. } => {
                assert!(
                    matches!(code, ErrorCode::TooManyRooms | ErrorCode::TooManyBots),
                    "{code:?}"
                );
                refused += 1;
            }
            _ => unreachable!(),
        }
        drop(c);
        // Rooms held by the flood: the reference's one plus at most three.
        assert!(metric(&server, "qipai_in_use{what=\"rooms\"}").await <= 4.0);
        assert!(metric(&server, "qipai_in_use{what=\"bots\"}").await <= 8.0);
    }
    assert!(
        opened >= 3 && refused > 0,
        "opened {opened}, refused {refused}"
    );
    answered_quickly(&mut red, "h2e2").await;
    // Nobody is left at the flood's tables: they close, their bots stop.
    settles(
        &server,
        "qipai_in_use{what=\"rooms\"}",
        1.0,
        Duration::from_secs(3),
    )
    .await;
    settles(
        &server,
        "qipai_in_use{what=\"bots\"}",
        0.0,
        Duration::from_secs(3),
    )
    .await;
    let grown = metric(&server, "qipai_process_resident_bytes").await - rss_before;
    assert!(grown < 64e6, "memory grew by {grown} bytes");
}

/// Idle sockets from one address cannot fill the server: past `max_connections_per_addr`
/// the upgrade is answered with `too_many_connections` and closed, while another address
/// still plays and `/healthz` still answers.
#[tokio::test]
async fn idle_connections_from_one_address_are_capped() {
    let server = TestServer::start(|c| {
        c.limits.max_connections_per_addr = 5;
        c.server.max_connections = 8;
    })
    .await;
    let (mut red, _black) = reference(&server).await;
    let mut idle = Vec::new();
    for _ in 0..5 {
        let c = Client::connect_from(&server, "127.0.0.11").await.unwrap();
        idle.push(c.say_hello("Idle").await);
    }
    for _ in 0..20 {
        let mut c = Client::connect_from(&server, "127.0.0.11").await.unwrap();
        match c.recv().await {
            ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::TooManyConnections),
            other => panic!("{other:?}"),
        }
        assert!(c.closed().await);
    }
    // The server total (8) is reached from a second address: one more is refused there
    // too, but the health check and the reference game go on.
    let _eighth = Client::connect_from(&server, "127.0.0.12")
        .await
        .unwrap()
        .say_hello("Eighth")
        .await;
    let mut ninth = Client::connect_from(&server, "127.0.0.12").await.unwrap();
    assert!(matches!(
        ninth.recv().await,
        ServerMsg::Error {
            code: ErrorCode::TooManyConnections,
            ..
        }
    ));
    assert!(common::http_get(&server, "/healthz").await.contains("ok"));
    answered_quickly(&mut red, "h2e2").await;
    assert!(metric(&server, "qipai_refused_total{what=\"connection\"}").await >= 20.0);
}

/// A client that never answers the server's pings (it never reads) is closed with
/// `timed_out` after `ping_interval_ms + pong_timeout_ms`.
#[tokio::test]
async fn a_client_that_never_answers_pings_is_closed() {
    let server = TestServer::start(|c| {
        c.server.ping_interval_ms = 50;
        c.limits.pong_timeout_ms = 100;
    })
    .await;
    let mut silent = Client::hello(&server, "Silent").await;
    // Not reading means tungstenite sends no pong.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mut saw_timeout = false;
    while let Some(msg) = silent.try_recv(Duration::from_secs(2)).await {
        if matches!(
            msg,
            ServerMsg::Error {
                code: ErrorCode::TimedOut,
                ..
            }
        ) {
            saw_timeout = true;
        }
    }
    assert!(saw_timeout, "{:?}", silent.log);
    // A client that reads (and so answers pings) stays.
    let mut awake = Client::hello(&server, "Awake").await;
    // Reading answers the pings (every 50 ms): 400 ms later it is still open and quiet.
    let quiet = tokio::time::timeout(
        Duration::from_millis(400),
        awake.try_recv(Duration::from_secs(10)),
    )
    .await;
    assert!(quiet.is_err(), "{:?}", awake.log);
    let seq = awake.seq();
    awake
        .send(&ClientMsg::Ping {
            seq,
            client_time: None,
        })
        .await;
    assert!(matches!(awake.recv().await, ServerMsg::Pong { .. }));
}

/// A frame that never completes is not held for ever: the connection is closed once the
/// silence timeout passes, and the reference game is not disturbed.
#[tokio::test]
async fn a_half_sent_frame_is_dropped() {
    let server = TestServer::start(|c| {
        c.server.ping_interval_ms = 50;
        c.limits.pong_timeout_ms = 100;
    })
    .await;
    let (mut red, _black) = reference(&server).await;
    let mut halves = Vec::new();
    for _ in 0..10 {
        let c = Client::connect_from(&server, "127.0.0.13").await.unwrap();
        let mut c = c.say_hello("Half").await;
        // A masked binary frame announcing 60,000 bytes, of which 100 are sent.
        let mut frame = vec![0x82, 0x80 | 126];
        frame.extend_from_slice(&60_000u16.to_be_bytes());
        frame.extend_from_slice(&[1, 2, 3, 4]);
        frame.extend_from_slice(&[0u8; 100]);
        c.tcp().write_all(&frame).await.unwrap();
        halves.push(c);
    }
    answered_quickly(&mut red, "h2e2").await;
    for mut c in halves {
        assert!(c.closed().await, "a half frame kept its connection");
    }
    settles(
        &server,
        "qipai_connections",
        2.0,
        Duration::from_millis(1500),
    )
    .await;
}

/// Pings count against the rate limit: a client sending thousands of pings and never
/// reading is closed, the server does not grow, the reference game goes on.
#[tokio::test]
async fn a_ping_flood_is_closed() {
    let server = TestServer::default().await;
    let (mut red, _black) = reference(&server).await;
    let rss_before = metric(&server, "qipai_process_resident_bytes").await;
    let c = Client::connect_from(&server, "127.0.0.14").await.unwrap();
    let mut c = c.say_hello("Pinger").await;
    let payload = Bytes::from(vec![7u8; 125]);
    let mut sent = 0;
    for _ in 0..5_000 {
        if !c.send_message(Message::Ping(payload.clone())).await {
            break;
        }
        sent += 1;
    }
    answered_quickly(&mut red, "h2e2").await;
    assert!(
        c.closed().await,
        "the flood was not closed after {sent} pings"
    );
    assert!(
        metric(&server, "qipai_errors_total{code=\"rate_limited\"}").await >= 1.0,
        "the pings were not counted"
    );
    let grown = metric(&server, "qipai_process_resident_bytes").await - rss_before;
    assert!(grown < 32e6, "memory grew by {grown} bytes");
}

/// Tables of bots left by their people end after the grace; a bot thinking for 60 s at a
/// table that ends stops at once (its thread is free again), and think time is capped.
#[tokio::test]
async fn bot_tables_without_people_end_and_stop_thinking() {
    bot_stops_thinking_when_its_table_ends("xiangqi").await;
}

/// The same for the draughts bot (its search is cancelled like xiangqi's).
#[tokio::test]
async fn a_draughts_bot_stops_thinking_when_its_table_ends() {
    bot_stops_thinking_when_its_table_ends("draughts").await;
}

/// A person opens a `game` table with a bot that moves first and thinks for 60 s, then
/// leaves: the table ends and the bot's one search thread is free again at once.
async fn bot_stops_thinking_when_its_table_ends(game: &str) {
    let server = TestServer::start(|c| {
        c.server.reconnect_grace_ms = 100;
        c.limits.empty_room_grace_ms = 50;
        c.limits.bot_threads = 1;
    })
    .await;
    let mut me = Client::hello(&server, "Leaver").await;
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options: bot_table(game),
        seat: Some(1),
        bots: true,
    })
    .await;
    me.until(|m| matches!(m, ServerMsg::Joined { .. })).await;
    // The bot is Red (White) and moves first: wait until its thread is taken.
    settles(
        &server,
        "qipai_in_use{what=\"bot_threads_free\"}",
        0.0,
        Duration::from_secs(2),
    )
    .await;
    drop(me);
    settles(
        &server,
        "qipai_in_use{what=\"rooms\"}",
        0.0,
        Duration::from_secs(2),
    )
    .await;
    settles(
        &server,
        "qipai_in_use{what=\"bots\"}",
        0.0,
        Duration::from_secs(1),
    )
    .await;
    // The search was cancelled: the one thread is free long before 60 s (or the 5 s cap).
    let started = Instant::now();
    while metric(&server, "qipai_in_use{what=\"bot_threads_free\"}").await < 1.0 {
        assert!(started.elapsed() < Duration::from_secs(1), "still thinking");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Names: blank, invisible, bidi-overridden and bot-like names are refused — names of
/// default-ignorable code points or marks alone, and look-alikes of a bot's name (full-width,
/// Cyrillic, a combining accent) among them; a decomposed name is stored composed.
#[tokio::test]
async fn bad_names_are_refused() {
    let server = TestServer::default().await;
    for name in [
        "\u{200B}",
        "\u{FEFF}",
        "a\u{202E}b",
        "Bot 1",
        " \t ",
        "\u{034F}",
        "\u{FE0F}",
        "\u{E0100}",
        "\u{17B4}",
        "\u{0301}\u{0308}",
        "Bot \u{FF11}",
        "Bot 1\u{0301}",
        "\u{0412}ot 1",
    ] {
        let mut c = Client::connect(&server).await;
        c.send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: name.into(),
            resume_token: None,
            account_token: None,
        })
        .await;
        assert_eq!(c.error_for(None).await.0, ErrorCode::BadName, "{name:?}");
    }
    let mut ok = Client::hello(&server, "Re\u{301}mi").await;
    let room = ok.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    let (_, view) = ok.snapshot().await;
    let _ = (room, view);
    let seats = ok
        .log
        .iter()
        .find_map(|m| match m {
            ServerMsg::Snapshot { seats, .. } => Some(seats.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(seats[0].as_ref().unwrap().name, "R\u{e9}mi");
}

/// `list_rooms` answers in pages: small, with a cursor, every room once.
#[tokio::test]
async fn list_rooms_is_paged() {
    let server = TestServer::start(|c| c.limits.list_rooms_page = 3).await;
    let mut hosts = Vec::new();
    for i in 0..7 {
        let mut c = Client::hello(&server, &format!("Host{i}")).await;
        c.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
        hosts.push(c);
    }
    let mut c = Client::hello(&server, "Reader").await;
    let (mut seen, mut after, mut pages) = (Vec::new(), None, 0);
    loop {
        let seq = c.seq();
        c.send(&ClientMsg::ListRooms {
            seq,
            game: None,
            limit: Some(100),
            after,
        })
        .await;
        let ServerMsg::Rooms { rooms, next, .. } =
            c.until(|m| matches!(m, ServerMsg::Rooms { .. })).await
        else {
            unreachable!()
        };
        assert!(rooms.len() <= 3);
        pages += 1;
        seen.extend(rooms.iter().map(|r| r.room_id));
        match next {
            Some(n) => after = Some(n),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let mut sorted = seen.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 7);
    // Ids are random below 2^53, not a count from 1.
    assert!(seen.iter().all(|&id| id > 0 && id < 1 << 53));
    assert!(seen.iter().any(|&id| id > 1_000_000), "{seen:?}");
}

/// Writes `request` on a raw TCP connection from `ip` and reads the answer's head.
async fn raw_request(server: &TestServer, ip: &str, request: &str) -> String {
    use tokio::io::AsyncReadExt;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::new(ip.parse().unwrap(), 0))
        .unwrap();
    let mut tcp = socket.connect(server.addr).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&buf[..n]).to_lowercase()
}

/// An address that connects and drops in a loop meets its bucket of new connections: past
/// `connect_burst_per_addr` its upgrades are answered `429` before any handshake, while its
/// plain HTTP is still served, another address still connects, and the reference game goes on.
#[tokio::test]
async fn connecting_in_a_loop_is_refused_before_the_handshake() {
    let server = TestServer::start(|c| {
        c.limits.connect_rate_per_addr = 1;
        c.limits.connect_burst_per_addr = 10;
    })
    .await;
    let (mut red, _black) = reference(&server).await;
    let mut accepted = 0;
    for _ in 0..30 {
        if let Some(c) = Client::connect_from(&server, "127.0.0.13").await {
            accepted += 1;
            drop(c);
        }
    }
    // The burst, and perhaps a token or two refilled while the loop ran.
    assert!((10..=13).contains(&accepted), "accepted {accepted}");
    let upgrade = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                   Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    let refused = raw_request(&server, "127.0.0.13", upgrade).await;
    assert!(refused.starts_with("http/1.1 429"), "{refused}");
    assert!(refused.contains("retry-after: 1"), "{refused}");
    let health = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    let healthy = raw_request(&server, "127.0.0.13", health).await;
    assert!(healthy.starts_with("http/1.1 200"), "{healthy}");
    assert!(Client::connect_from(&server, "127.0.0.14").await.is_some());
    answered_quickly(&mut red, "h2e2").await;
    assert!(metric(&server, "qipai_refused_total{what=\"connect_rate\"}").await >= 17.0);
}

/// `list_rooms` over and over from a client that never reads: the answers meet the
/// connection's outbound budget in bytes (`max_outbound_bytes`), the server closes it (its
/// queue dropped, counted in `qipai_queue_drops_total`), its memory stays bounded, and the
/// reference game goes on.
#[tokio::test]
async fn a_list_rooms_flood_that_never_reads_is_closed() {
    let server = TestServer::start(|c| {
        // The rate limit would close the flood first: lift it so the byte budget is met.
        c.server.rate_per_sec = 1_000_000;
        c.server.rate_burst = 1_000_000;
        c.limits.max_outbound_bytes = 64 * 1024;
    })
    .await;
    let (mut red, _black) = reference(&server).await;
    let mut hosts = Vec::new();
    for i in 0..8 {
        let mut c = Client::hello(&server, &format!("Host{i}")).await;
        c.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
        hosts.push(c);
    }
    let rss_before = metric(&server, "qipai_process_resident_bytes").await;
    let flood = Client::connect_from(&server, "127.0.0.15").await.unwrap();
    let mut flood = flood.say_hello("Flood").await;
    let started = Instant::now();
    let mut sent = 0u64;
    while started.elapsed() < Duration::from_secs(5) {
        let seq = flood.seq();
        let list = ClientMsg::ListRooms {
            seq,
            game: None,
            limit: None,
            after: None,
        };
        let Ok(bytes) = qipai_protocol::encode(&list) else {
            unreachable!()
        };
        if !flood
            .send_message(Message::Binary(Bytes::from(bytes)))
            .await
        {
            break;
        }
        sent += 1;
        if metric(&server, "qipai_queue_drops_total").await >= 1.0 {
            break;
        }
    }
    assert!(
        metric(&server, "qipai_queue_drops_total").await >= 1.0,
        "not closed after {sent} lists"
    );
    let grown = metric(&server, "qipai_process_resident_bytes").await - rss_before;
    assert!(grown < 16e6, "memory grew by {grown} bytes");
    answered_quickly(&mut red, "h2e2").await;
}
