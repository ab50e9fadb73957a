//! The lobby and the listener: quick play pairs strangers, rooms are listed, seats are
//! guarded, `/healthz` answers, and a shutdown tells every client.

mod common;

use std::collections::HashMap;

use common::tuolaji::fast_options;
use common::{metric, Client, TestServer};
use qipai_protocol::xiangqi::{XiangqiEvent, XiangqiOptions};
use qipai_protocol::{ClientMsg, ErrorCode, Event, RoomId, RoomOptions, RoomStatus, ServerMsg};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Two players who quick-play at the very same moment meet at one table, every time: the
/// lobby looks for a waiting room and opens one under one lock (before, each could find none
/// and open a table of its own, and both waited alone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_quick_plays_meet_at_one_table() {
    let server = TestServer::default().await;
    let quick = ClientMsg::QuickPlay {
        seq: 1,
        options: RoomOptions::Xiangqi(XiangqiOptions::default()),
    };
    for round in 0..20 {
        // Each pair from its own address: rooms stay open a while after a pair leaves, and
        // one address may hold only a few.
        let ip = format!("127.0.2.{}", round + 1);
        let a = Client::connect_from(&server, &ip).await.unwrap();
        let mut a = a.say_hello(&format!("A{round}")).await;
        let b = Client::connect_from(&server, &ip).await.unwrap();
        let mut b = b.say_hello(&format!("B{round}")).await;
        tokio::join!(a.send(&quick), b.send(&quick));
        let joined = |m: ServerMsg| match m {
            ServerMsg::Joined { room_id, .. } => room_id,
            other => panic!("{other:?}"),
        };
        let (ma, mb) = tokio::join!(a.recv(), b.recv());
        assert_eq!(joined(ma), joined(mb), "round {round}: two tables");
    }
}

/// Forty players who quick-play into Tuolaji at the same moment, on a server that logs every
/// seat to its store (each seat taken waits for a commit), sit at exactly ten full tables:
/// the lobby hands out seats, not rooms. Before, all of them were sent to the oldest waiting
/// table; those who found it full opened tables of their own and sat alone, and under load
/// the next ones queued behind those tables' commits until they were told `busy`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_quick_plays_fill_tables_one_after_another() {
    let file = std::env::temp_dir().join(format!("qipai_quick_seats_{}.db", std::process::id()));
    let url = file.display().to_string();
    let server = TestServer::start(move |c| c.store.url = url).await;
    let mut players = tokio::task::JoinSet::new();
    for i in 0..40 {
        // Each from its own address: one address may open only a few rooms.
        let client = Client::connect_from(&server, &format!("127.0.3.{}", i + 1)).await;
        let mut client = client.expect("connect").say_hello(&format!("Q{i}")).await;
        players.spawn(async move { client.quick_tuolaji(fast_options()).await });
    }
    let mut tables: HashMap<RoomId, Vec<u8>> = HashMap::new();
    while let Some(seated) = players.join_next().await {
        let (room, seat) = seated.expect("a quick player");
        tables.entry(room).or_default().push(seat);
    }
    assert_eq!(tables.len(), 10, "{tables:?}");
    for seats in tables.values_mut() {
        seats.sort_unstable();
        assert_eq!(*seats, [0, 1, 2, 3]);
    }
    assert_eq!(metric(&server, "qipai_rooms{game=\"tuolaji\"}").await, 10.0);
    let _ = std::fs::remove_file(&file);
}

/// Two quick-players asking for the same game meet at one table; a third with another time
/// control gets a table of their own.
#[tokio::test]
async fn quick_play_pairs_players_with_the_same_options() {
    let server = TestServer::default().await;
    let quick = |tc: &str| ClientMsg::QuickPlay {
        seq: 1,
        options: RoomOptions::Xiangqi(XiangqiOptions {
            time_control: Some(tc.into()),
            ..Default::default()
        }),
    };
    let mut a = Client::hello(&server, "A").await;
    a.send(&quick("10+5")).await;
    let room_a = match a.recv().await {
        ServerMsg::Joined { room_id, seat, .. } => {
            assert_eq!(seat, Some(0));
            room_id
        }
        other => panic!("{other:?}"),
    };
    let mut b = Client::hello(&server, "B").await;
    b.send(&quick("10+5")).await;
    match b.recv().await {
        ServerMsg::Joined { room_id, seat, .. } => assert_eq!((room_id, seat), (room_a, Some(1))),
        other => panic!("{other:?}"),
    }
    a.event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Started { .. })))
        .await;
    let mut c = Client::hello(&server, "C").await;
    c.send(&quick("3+2")).await;
    match c.recv().await {
        ServerMsg::Joined { room_id, .. } => assert_ne!(room_id, room_a),
        other => panic!("{other:?}"),
    }

    c.send(&ClientMsg::ListRooms {
        seq: 5,
        game: None,
        limit: None,
        after: None,
    })
    .await;
    let rooms = match c.until(|m| matches!(m, ServerMsg::Rooms { .. })).await {
        ServerMsg::Rooms { rooms, .. } => rooms,
        _ => unreachable!(),
    };
    assert_eq!(rooms.len(), 2);
    // Listed by id; ids are random, so find A's room among them.
    let (a_room, other) = match rooms.iter().position(|r| r.room_id == room_a) {
        Some(0) => (&rooms[0], &rooms[1]),
        Some(_) => (&rooms[1], &rooms[0]),
        None => panic!("room A is not listed: {rooms:?}"),
    };
    assert_eq!(a_room.status, RoomStatus::Playing);
    assert_eq!(other.status, RoomStatus::Waiting);
    let RoomOptions::Xiangqi(listed) = &a_room.options else {
        panic!("a xiangqi room")
    };
    assert_eq!(listed.time_control.as_deref(), Some("10+5"));
    assert_eq!(
        listed.natural_limit_moves,
        Some(60),
        "defaults are filled in"
    );
}

/// A taken seat is refused; leaving a room before the game frees the seat.
#[tokio::test]
async fn seats_are_guarded_and_leaving_frees_them() {
    let server = TestServer::default().await;
    let mut a = Client::hello(&server, "A").await;
    let room = a.create_xiangqi(XiangqiOptions::default(), Some(1)).await;
    let mut b = Client::hello(&server, "B").await;
    let seq = b.seq();
    b.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat: Some(1),
        entry_code: None,
    })
    .await;
    assert_eq!(b.error_for(Some(seq)).await.0, ErrorCode::SeatTaken);
    let seq = b.seq();
    b.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat: Some(7),
        entry_code: None,
    })
    .await;
    assert_eq!(b.error_for(Some(seq)).await.0, ErrorCode::SeatTaken);
    let seq = a.seq();
    a.send(&ClientMsg::Leave { seq }).await;
    a.until(|m| matches!(m, ServerMsg::Left { .. })).await;
    // The room closed when its last player left.
    let seq = b.seq();
    b.send(&ClientMsg::Join {
        seq,
        room_id: room,
        seat: Some(1),
        entry_code: None,
    })
    .await;
    assert_eq!(b.error_for(Some(seq)).await.0, ErrorCode::NoSuchRoom);
}

/// `GET /healthz` answers over plain HTTP on the same port; other paths are 404.
#[tokio::test]
async fn healthz_answers() {
    let server = TestServer::default().await;
    for (path, status) in [("/healthz", "200"), ("/nope", "404")] {
        let reply = common::http_get(&server, path).await;
        assert!(reply.starts_with(&format!("HTTP/1.1 {status}")), "{reply}");
    }
}

/// A shutdown tells every connected client before closing.
#[tokio::test]
async fn shutdown_tells_clients() {
    let server = TestServer::default().await;
    let mut a = Client::hello(&server, "A").await;
    server.stop();
    assert!(matches!(a.recv().await, ServerMsg::Shutdown { .. }));
    assert!(a.closed().await);
}

/// `ping` answers with the server's time, for clock sync.
#[tokio::test]
async fn ping_gives_the_server_time() {
    let server = TestServer::default().await;
    let mut a = Client::hello(&server, "A").await;
    a.send(&ClientMsg::Ping {
        seq: 3,
        client_time: Some(12345),
    })
    .await;
    match a.recv().await {
        ServerMsg::Pong {
            seq,
            client_time,
            server_time,
        } => {
            assert_eq!((seq, client_time), (3, 12345));
            assert!(server_time < 60_000);
        }
        other => panic!("{other:?}"),
    }
}

/// `GET /metrics` counts connections, rooms by game, accepted actions and errors by code.
#[tokio::test]
async fn metrics_count_what_happened() {
    let server = TestServer::default().await;
    let (mut red, _black, _) = common::xiangqi_pair(&server, XiangqiOptions::default()).await;
    red.play("h2e2").await;
    let seq = red
        .xq(qipai_protocol::xiangqi::XiangqiAction::Move {
            iccs: "a0a5".into(),
        })
        .await;
    red.error_for(Some(seq)).await;
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    tcp.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut reply = String::new();
    tcp.read_to_string(&mut reply).await.unwrap();
    for line in [
        "qipai_connections 2\n",
        "qipai_rooms{game=\"xiangqi\"} 1\n",
        "qipai_rooms{game=\"tuolaji\"} 0\n",
        "qipai_actions_total 1\n",
        "qipai_errors_total{code=\"not_your_turn\"} 1\n",
        "qipai_sessions 2\n",
    ] {
        assert!(reply.contains(line), "{line} missing from:\n{reply}");
    }
}
