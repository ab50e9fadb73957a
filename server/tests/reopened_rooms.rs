//! Rooms reopened after a restart count against the rooms budgets (PROTOCOL.md §13): the
//! server binary on a SQLite store is killed with SIGKILL while its rooms are at
//! `max_rooms` (or one address's rooms at `rooms_per_addr`), started again, and at once
//! shows them in `qipai_in_use{what="rooms"}` and refuses a new room with `too_many_rooms`.

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command};

use common::{spawn_listening, Client, Endpoint};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{ClientMsg, ErrorCode, RoomOptions, ServerMsg};

/// The server binary at its address.
struct At(SocketAddr);

impl Endpoint for At {
    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.0)
    }
}

/// The server binary on the store `file` at `addr`, with the rooms budget `limit` at 2.
async fn start(file: &str, addr: SocketAddr, limit: &str) -> Child {
    let mut server = Command::new(env!("CARGO_BIN_EXE_qipai-server"));
    server
        .env("QIPAI_SERVER__ADDR", addr.to_string())
        .env("QIPAI_STORE__URL", file)
        .env(format!("QIPAI_LIMITS__{}", limit.to_uppercase()), "2")
        .env("RUST_LOG", "warn");
    spawn_listening(server, addr, "qipai-server").await
}

/// A free port on 127.0.0.1.
fn free_addr() -> SocketAddr {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap();
    SocketAddr::from(([127, 0, 0, 1], port.port()))
}

/// `create_room` from `client`: the refusal's code and message, if refused.
async fn create(c: &mut Client) -> Option<(ErrorCode, String)> {
    let seq = c.seq();
    c.send(&ClientMsg::CreateRoom {
        seq,
        options: RoomOptions::Xiangqi(XiangqiOptions::default()),
        seat: Some(0),
        bots: false,
    })
    .await;
    match c
        .until(|m| {
            matches!(m, ServerMsg::Error { seq: Some(s), .. } | ServerMsg::Joined { seq: Some(s), .. } if *s == seq)
        })
        .await
    {
        ServerMsg::Error { code, message, .. } => Some((code, message)),
        _ => None,
    }
}

/// SIGKILL: no goodbye, no flush.
fn kill(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// The value of `name` in `addr`'s `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> f64 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut page = String::new();
    tcp.read_to_string(&mut page).await.unwrap();
    page.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} missing"))
}

#[tokio::test]
async fn reopened_rooms_count_against_max_rooms() {
    let file = common::store_file("reopened_rooms");
    let addr = free_addr();
    let server = start(&file, addr, "max_rooms").await;
    for name in ["a", "b"] {
        let mut c = Client::hello(&At(addr), name).await;
        c.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    }
    kill(server);

    let server = start(&file, addr, "max_rooms").await;
    assert_eq!(metric(addr, "qipai_in_use{what=\"rooms\"}").await, 2.0);
    let mut c = Client::hello(&At(addr), "c").await;
    let refused = create(&mut c).await.expect("refused");
    assert_eq!(refused.0, ErrorCode::TooManyRooms);
    kill(server);
    let _ = std::fs::remove_file(&file);
}

/// Two rooms opened from one address (by two sessions) come back after a SIGKILL counted
/// against that address: a third session from it is refused, another address is not.
#[tokio::test]
async fn reopened_rooms_count_against_their_address() {
    let file = common::store_file("reopened_rooms_addr");
    let addr = free_addr();
    let server = start(&file, addr, "rooms_per_addr").await;
    for name in ["a", "b"] {
        let c = Client::connect_from(&At(addr), "127.0.0.7").await.unwrap();
        let mut c = c.say_hello(name).await;
        c.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    }
    kill(server);

    let server = start(&file, addr, "rooms_per_addr").await;
    assert_eq!(metric(addr, "qipai_in_use{what=\"rooms\"}").await, 2.0);
    let same = Client::connect_from(&At(addr), "127.0.0.7").await.unwrap();
    let (code, message) = create(&mut same.say_hello("c").await)
        .await
        .expect("refused");
    assert_eq!(code, ErrorCode::TooManyRooms);
    assert!(message.contains("address"), "{message}");
    let other = Client::connect_from(&At(addr), "127.0.0.8").await.unwrap();
    assert_eq!(create(&mut other.say_hello("d").await).await, None);
    kill(server);
    let _ = std::fs::remove_file(&file);
}
