//! The store, in process: a server that stops and a new one on the same SQLite file reopens
//! the room under the same id, players come back with their tokens, and the game goes on.
//! (The SIGKILL test of the real binary is `tests/crash.rs`.)

mod common;

use common::{Client, TestServer};
use qipai_protocol::xiangqi::{EndReason, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{Event, View};

fn store_file(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir()
        .join(format!("qipai_{name}_{}_{nanos}.db", std::process::id()))
        .display()
        .to_string()
}

async fn with_store(file: &str) -> TestServer {
    let file = file.to_owned();
    TestServer::start(move |c| c.store.url = file).await
}

async fn http_get(server: &TestServer, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n");
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
    first.stop();

    let second = with_store(&file).await;
    let mut red2 = Client::resume(&second, &red.token).await;
    let mut black2 = Client::resume(&second, &black.token).await;
    assert_eq!(red2.player_id, red.player_id);
    let (_, after) = red2.snapshot().await;
    let after = xq(after);
    assert_eq!(after.fen, before.fen);
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.legal_moves, before.legal_moves);
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
    let missing = http_get(&second, "/api/games/999999").await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");

    let mut other = Client::hello(&second, "Other").await;
    let next = other.create_xiangqi(XiangqiOptions::default(), None).await;
    assert!(next > room, "room ids go on: {next} after {room}");
}
