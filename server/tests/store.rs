//! The store, in process: a server that stops and a new one on the same SQLite file reopens
//! the room under the same id, players come back with their tokens, and the game goes on.
//! (The SIGKILL test of the real binary is `tests/crash.rs`.)

mod common;

use common::{store_file, Client, TestServer};
use qipai_protocol::xiangqi::{EndReason, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{Event, View};

async fn with_store(file: &str) -> TestServer {
    let file = file.to_owned();
    TestServer::start(move |c| c.store.url = file).await
}

async fn http_get(server: &TestServer, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    stream.read_to_end(&mut out).await.expect("read");
    String::from_utf8_lossy(&out).into_owned()
}

fn xq(view: View) -> qipai_protocol::xiangqi::XiangqiView {
    match view {
        View::Xiangqi(v) => v,
        other => panic!("not xiangqi: {other:?}"),
    }
}

/// 4.1.1 mate after a restart: three plies before, two after, on the same room id; the
/// position and move list survive, the next room gets a new id.
#[tokio::test]
async fn a_xiangqi_game_goes_on_after_a_restart() {
    let file = store_file("restart");
    let first = with_store(&file).await;
    let mut red = Client::hello(&first, "Red").await;
    let mut black = Client::hello(&first, "Black").await;
    let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    black.join(room, Some(1)).await;
    red.play("b2b4").await;
    black.play("a6a5").await;
    red.play("b4c4").await;
    let (_, before) = red.snapshot().await;
    let before = xq(before);
    let black_before = xq(black.snapshot().await.1);
    assert!(!black_before.legal_moves.is_empty(), "Black is to move");
    first.stop();

    let second = with_store(&file).await;
    let mut red2 = Client::resume(&second, &red.token).await;
    let mut black2 = Client::resume(&second, &black.token).await;
    assert_eq!(red2.player_id, red.player_id);
    let (_, after) = red2.snapshot().await;
    let after = xq(after);
    assert_eq!(after.fen, before.fen);
    assert_eq!(after.moves, before.moves);
    let black_after = xq(black2.snapshot().await.1);
    assert_eq!(black_after.legal_moves, black_before.legal_moves);
    // Red has moved: Red's clock is as it was; Black's runs from the restart.
    assert_eq!(after.clocks.red_ms, before.clocks.red_ms);
    black2.play("f9e8").await;
    red2.play("c4c9").await;
    match red2
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Over { .. })))
        .await
    {
        Event::Xiangqi(XiangqiEvent::Over { result, .. }) => {
            assert_eq!(result.reason, EndReason::Checkmate)
        }
        _ => unreachable!(),
    }
    // The record: PGN with ICCS movetext and the Chinese notation, JSON, and by player.
    let pgn = http_get(&second, &format!("/api/games/{room}.pgn")).await;
    assert!(pgn.starts_with("HTTP/1.1 200"), "{pgn}");
    assert!(
        pgn.contains("[Red \"Red\"]") && pgn.contains("[Result \"1-0\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Format \"ICCS\"]"), "{pgn}");
    assert!(pgn.contains("1. B2-B4 {炮八进二} A6-A5"), "{pgn}");
    assert!(pgn.contains("3. C4-C9"), "{pgn}");
    let json = http_get(&second, &format!("/api/games/{room}")).await;
    assert!(json.contains("\"players\":[\"Red\",\"Black\"]"), "{json}");
    assert!(json.contains("\"checkmate\""), "{json}");
    let list = http_get(&second, "/api/players/Black/games?page=0").await;
    assert!(list.contains(&format!("\"room_id\":{room}")), "{list}");
    let none = http_get(&second, "/api/players/Black/games?page=1").await;
    assert!(none.contains("\"games\":[]"), "{none}");
    // One game is no full page: no cursor to a next one; a cursor must be `ms.room`.
    assert!(list.contains("\"next\":null"), "{list}");
    let bad = http_get(&second, "/api/players/Black/games?before=yesterday").await;
    assert!(
        bad.starts_with("HTTP/1.1 400") && bad.contains("bad_request"),
        "{bad}"
    );
    // The writer's counters: every acknowledged step was committed, none failed.
    let metrics = http_get(&second, "/metrics").await;
    let counter = |name: &str| -> u64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&format!("qipai_{name} ")))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {metrics}"))
    };
    assert!(counter("store_commits_total") >= 1, "{metrics}");
    assert!(
        counter("store_items_total") >= 2,
        "two moves and the result were written: {metrics}"
    );
    assert_eq!(counter("store_failures_total"), 0, "{metrics}");
    let missing = http_get(&second, "/api/games/999999").await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");

    let mut other = Client::hello(&second, "Other").await;
    let next = other.create_xiangqi(XiangqiOptions::default(), None).await;
    // Ids are random (PROTOCOL.md §13): a restart never hands out the old room's id again.
    assert_ne!(
        next, room,
        "a new room after a restart got the old room's id"
    );
}

/// A Tuolaji table of one person and three bots survives a restart mid-hand: same hand
/// number, levels and dealer, every card played before is still played, the person's cards
/// are theirs again, and the bots come back to their seats by themselves.
#[tokio::test]
async fn a_tuolaji_table_goes_on_after_a_restart_with_its_bots() {
    use qipai_protocol::{ClientMsg, RoomOptions, ServerMsg};
    let file = store_file("tuolaji");
    let start = |file: String| {
        TestServer::start(move |c| {
            c.store.url = file;
            c.tuolaji.seed = Some(common::tuolaji::SEED);
        })
    };
    let first = start(file.clone()).await;
    let mut me = Client::hello(&first, "Me").await;
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Tuolaji(common::tuolaji::fast_options()),
        seat: Some(0),
        bots: true,
    })
    .await;
    me.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    // Let the deal and the bots run a little.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, before) = me.tl_view().await;
    assert!(before.dealt > 0, "the deal had begun");
    eprintln!(
        "before the restart: {:?}, {} dealt, {} played",
        before.phase,
        before.dealt,
        before.played.len()
    );
    first.stop();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;

    let second = start(file).await;
    let mut back = Client::resume(&second, &me.token).await;
    back.until(|m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;
    let (_, after) = back.tl_view().await;
    assert_eq!(after.hand_number, before.hand_number);
    assert_eq!(after.levels, before.levels);
    if before.dealer.is_some() {
        assert_eq!(after.dealer, before.dealer);
    }
    assert!(
        after.played.starts_with(&before.played),
        "before {:?}, after {:?}",
        before.played,
        after.played
    );
    assert!(after.dealt >= before.dealt);
    // Waiting for the person to follow (they have not acted): nothing moved meanwhile.
    if matches!(
        before.phase,
        qipai_protocol::tuolaji::Phase::Following { seat: 0, .. }
    ) {
        assert_eq!(after.phase, before.phase);
        assert_eq!(after.hand, before.hand);
        assert_eq!(after.current_trick, before.current_trick);
        assert_eq!(after.trump, before.trump);
    }
    // The bots are back in seats 1–3, connected.
    let mut seated = 0;
    for _ in 0..100 {
        let seq = back.seq();
        back.send(&ClientMsg::Snapshot { seq }).await;
        if let ServerMsg::Snapshot { seats, .. } = back
            .until(|m| matches!(m, ServerMsg::Snapshot { .. }))
            .await
        {
            seated = seats
                .iter()
                .skip(1)
                .filter(|s| s.as_ref().is_some_and(|s| s.bot && s.connected))
                .count();
        }
        if seated == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(seated, 3, "the bots are back");
}

/// A store that fails every write while `failing` is set: the double behind the `Store`
/// trait for the store-failure rule (PROTOCOL.md, "Durability"). With `hangs`, failing
/// writes never answer (a database that hangs) instead of failing at once.
fn failing_store(
    inner: std::sync::Arc<dyn qipai_store::Store>,
    failing: std::sync::Arc<std::sync::atomic::AtomicBool>,
    hangs: bool,
) -> common::store_double::Hooked {
    common::store_double::Hooked {
        inner,
        write: std::sync::Arc::new(move |batch, inner| {
            let fails = failing.load(std::sync::atomic::Ordering::SeqCst);
            Box::pin(async move {
                if !fails {
                    return inner.write(batch).await;
                }
                if hangs {
                    std::future::pending::<()>().await;
                }
                Err(qipai_store::StoreError::Task("injected failure".into()))
            })
        }),
    }
}

/// A server on a new store file whose writes fail while the returned flag is set, its
/// health probed every 10 ms so that it knows soon when the store writes again.
async fn server_on_failing_store(
    name: &str,
    tweak: impl FnOnce(&mut qipai_server::Config),
) -> (
    TestServer,
    String,
    std::sync::Arc<std::sync::atomic::AtomicBool>,
) {
    let file = store_file(name);
    let failing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let store = failing_store(
        qipai_store::open(&file).await.expect("open the store"),
        std::sync::Arc::clone(&failing),
        false,
    );
    let url = file.clone();
    let server = TestServer::on_store(
        std::sync::Arc::new(store),
        std::time::Duration::from_millis(1),
        |c| {
            c.store.url = url;
            c.store.health_check_ms = 10;
            tweak(c);
        },
    )
    .await;
    (server, file, failing)
}

/// The store fails (after its retries) while a move waits for its commit: the move is
/// refused with `store_unavailable` and nobody sees it played. The room does not close: it
/// rebuilds itself from its log (PROTOCOL.md §12.1, "When the store fails"), the players and
/// the spectator keep their connections and get `joined` and a snapshot as of the last saved
/// move, and once the store writes again the game goes on from there. The log has no gap and
/// no refused step: a restart on the same file replays exactly the moves that were played.
#[tokio::test]
async fn a_store_failure_refuses_the_action_and_the_room_comes_back_from_its_log() {
    use qipai_protocol::{ErrorCode, ServerMsg};
    use std::sync::atomic::Ordering;
    let (server, file, failing) = server_on_failing_store("failing", |_| {}).await;
    let mut red = Client::hello(&server, "Red").await;
    let mut black = Client::hello(&server, "Black").await;
    let mut watcher = Client::hello(&server, "Watcher").await;
    let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    black.join(room, Some(1)).await;
    let seq = watcher.seq();
    watcher
        .send(&qipai_protocol::ClientMsg::Spectate { seq, room_id: room })
        .await;
    watcher
        .until(|m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;
    red.play("b2b4").await;

    failing.store(true, Ordering::SeqCst);
    let seq = black
        .xq(qipai_protocol::xiangqi::XiangqiAction::Move {
            iccs: "a6a5".into(),
        })
        .await;
    let (code, message) = black.error_for(Some(seq)).await;
    assert_eq!(code, ErrorCode::StoreUnavailable, "{message}");
    // Everybody is told where the saved game stands: Red's move, not Black's.
    for (c, seat) in [
        (&mut red, Some(0)),
        (&mut black, Some(1)),
        (&mut watcher, None),
    ] {
        c.until(|m| {
            matches!(m, ServerMsg::Joined { seq: None, room_id, seat: s, .. }
                if *room_id == room && *s == seat)
        })
        .await;
        let ServerMsg::Snapshot { view, .. } =
            c.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await
        else {
            unreachable!()
        };
        let moves: Vec<String> = xq(view).moves.iter().map(|m| m.iccs.to_string()).collect();
        assert_eq!(moves, ["b2b4"]);
        assert!(
            !c.log.iter().any(|m| matches!(
                m,
                ServerMsg::Event {
                    event: Event::Xiangqi(XiangqiEvent::Moved { iccs, .. }),
                    ..
                } if iccs == "a6a5"
            ) || matches!(m, ServerMsg::Left { .. })),
            "an unsaved move was shown, or the room closed: {:?}",
            c.log
        );
    }

    // Once the store writes again (its probe says so), the game goes on from the snapshot.
    failing.store(false, Ordering::SeqCst);
    let mut tries = 0;
    loop {
        let seq = black
            .xq(qipai_protocol::xiangqi::XiangqiAction::Move {
                iccs: "a6a5".into(),
            })
            .await;
        match black.answer(seq).await {
            ServerMsg::Ok { .. } => break,
            ServerMsg::Error {
                code: ErrorCode::StoreUnavailable,
                ..
            } if tries < 200 => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            other => panic!("a6a5 after the store came back: {other:?}"),
        }
    }
    red.play("b4c4").await;
    watcher
        .event(|e| matches!(e, Event::Xiangqi(XiangqiEvent::Moved { iccs, .. }) if iccs == "b4c4"))
        .await;
    server.stop();

    let second = with_store(&file).await;
    let mut red2 = Client::resume(&second, &red.token).await;
    red2.until(|m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;
    let after = xq(red2.snapshot().await.1);
    let moves: Vec<&str> = after.moves.iter().map(|m| m.iccs.as_str()).collect();
    assert_eq!(moves, ["b2b4", "a6a5", "b4c4"]);
}

/// A Tuolaji table of one person and three bots whose deal step the store refuses comes
/// back from its log in place: the person gets `joined` and a snapshot of their own seat
/// (their hand and nobody else's), the same bots keep their seats and connections (none is
/// summoned anew), and once the store writes again the hand goes on.
#[tokio::test]
async fn a_tuolaji_table_comes_back_with_its_bots_after_a_store_failure() {
    use qipai_protocol::{ClientMsg, RoomOptions, ServerMsg};
    use std::sync::atomic::Ordering;
    let (server, _file, failing) = server_on_failing_store("tuolaji_failing", |c| {
        c.tuolaji.seed = Some(common::tuolaji::SEED);
    })
    .await;
    let mut me = Client::hello(&server, "Me").await;
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Tuolaji(common::tuolaji::fast_options()),
        seat: Some(0),
        bots: true,
    })
    .await;
    // The deal runs on its timer: a few cards reach the person first.
    for _ in 0..3 {
        me.until(|m| common::tuolaji::tl_event(m).is_some()).await;
    }
    let players = |seats: &[Option<qipai_protocol::SeatInfo>]| -> Vec<Option<(u64, bool)>> {
        seats
            .iter()
            .map(|s| s.as_ref().map(|s| (s.player_id, s.bot)))
            .collect()
    };
    let ServerMsg::Snapshot { seats, .. } = me.snapshot_msg().await else {
        unreachable!()
    };
    let before = players(&seats);
    assert!(before.iter().skip(1).all(|s| s.is_some_and(|(_, bot)| bot)));

    failing.store(true, Ordering::SeqCst);
    me.until(|m| {
        matches!(
            m,
            ServerMsg::Joined {
                seq: None,
                seat: Some(0),
                ..
            }
        )
    })
    .await;
    let ServerMsg::Snapshot {
        seats,
        you,
        view,
        event_seq,
        ..
    } = me.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(you, Some(0));
    assert_eq!(players(&seats), before, "the same bots keep their seats");
    assert!(
        seats.iter().flatten().all(|s| s.connected),
        "everybody is still connected: {seats:?}"
    );
    let View::Tuolaji(view) = view else {
        panic!("not Tuolaji: {view:?}")
    };
    assert!(view.dealt > 0, "the deal as saved is there");

    failing.store(false, Ordering::SeqCst);
    // The hand goes on from the snapshot once the store writes again.
    me.until(|m| common::tuolaji::tl_event(m).is_some_and(|(seq, _)| seq > event_seq))
        .await;
    server.stop();
}

/// Store failures are answered within a second, the writer's retries bounded by time: a
/// store that fails every try (its pauses, 10 ms then ×4, stop before the budget would run
/// out) and one that never answers (the try is cut off when the budget runs out).
#[tokio::test]
async fn a_store_failure_is_answered_within_a_second() {
    use qipai_protocol::ErrorCode;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    for hangs in [false, true] {
        let file = store_file(if hangs { "hanging" } else { "refusing" });
        let failing = Arc::new(AtomicBool::new(false));
        let store = failing_store(
            qipai_store::open(&file).await.expect("open the store"),
            Arc::clone(&failing),
            hangs,
        );
        let retry = std::time::Duration::from_millis(10);
        let server = TestServer::on_store(Arc::new(store), retry, |c| {
            c.store.url = file.clone();
            // No probe meanwhile: the action meets the failing commit, not a known outage.
            c.store.health_check_ms = 0;
        })
        .await;
        let mut red = Client::hello(&server, "Red").await;
        let mut black = Client::hello(&server, "Black").await;
        let room = red.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
        black.join(room, Some(1)).await;
        failing.store(true, Ordering::SeqCst);
        let sent = std::time::Instant::now();
        let seq = red
            .xq(qipai_protocol::xiangqi::XiangqiAction::Move {
                iccs: "b2b4".into(),
            })
            .await;
        let (code, message) = red.error_for(Some(seq)).await;
        let waited = sent.elapsed();
        assert_eq!(code, ErrorCode::StoreUnavailable, "{message}");
        assert!(
            waited < std::time::Duration::from_secs(1),
            "hangs: {hangs}: answered after {waited:?}"
        );
        server.stop();
    }
}

/// The number people say of a room, in `joined` and in the lobby's list.
fn number_joined(client: &Client, room: qipai_protocol::RoomId) -> Option<u64> {
    client.log.iter().rev().find_map(|m| match m {
        qipai_protocol::ServerMsg::Joined {
            room_id, number, ..
        } if *room_id == room => *number,
        _ => None,
    })
}

/// Short table numbers are counted from 1 and go on after a restart on the same store: a
/// reopened room keeps its number, the next room gets the next one, none is given twice.
#[tokio::test]
async fn rooms_are_numbered_from_one_and_the_count_survives_a_restart() {
    let file = store_file("numbers");
    let first = with_store(&file).await;
    let mut wu = Client::hello(&first, "Wu").await;
    let mut li = Client::hello(&first, "Li").await;
    let one = wu.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    li.join(one, Some(1)).await;
    wu.play("h2e2").await;
    let mut sun = Client::hello(&first, "Sun").await;
    let two = sun.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    assert_eq!(number_joined(&wu, one), Some(1));
    assert_eq!(number_joined(&li, one), Some(1));
    assert_eq!(number_joined(&sun, two), Some(2));
    first.stop();

    let second = with_store(&file).await;
    let mut wu2 = Client::resume(&second, &wu.token).await;
    wu2.until(|m| matches!(m, qipai_protocol::ServerMsg::Snapshot { .. }))
        .await;
    assert_eq!(
        number_joined(&wu2, one),
        Some(1),
        "a reopened room keeps its number"
    );
    let mut zhao = Client::hello(&second, "Zhao").await;
    let three = zhao
        .create_xiangqi(XiangqiOptions::default(), Some(0))
        .await;
    assert_eq!(number_joined(&zhao, three), Some(3), "2 is not given again");
    let seq = zhao.seq();
    zhao.send(&qipai_protocol::ClientMsg::ListRooms {
        seq,
        game: None,
        limit: None,
        after: None,
    })
    .await;
    match zhao
        .until(|m| matches!(m, qipai_protocol::ServerMsg::Rooms { .. }))
        .await
    {
        qipai_protocol::ServerMsg::Rooms { rooms, .. } => {
            let number = |id| {
                rooms
                    .iter()
                    .find(|r| r.room_id == id)
                    .and_then(|r| r.number)
            };
            assert_eq!(number(one), Some(1));
            assert_eq!(number(three), Some(3));
        }
        _ => unreachable!(),
    }
}
