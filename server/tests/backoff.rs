//! Attempt limits without gaps (PROTOCOL.md §13, §17): an entry code is counted from the
//! request's head, so heads sent first and bodies later get no more codes checked than the
//! free ones; a join that sits down (an ordinary room, where a code means nothing) does not
//! clear an address's wrong codes; a frame must hold exactly one MessagePack value.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{Client, TestServer};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{encode, ClientMsg, ErrorCode, ServerMsg};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A connection from `ip` (an address of 127.0.0.0/8) to `server`.
async fn connect_from(server: &TestServer, ip: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(ip.parse().unwrap(), 0))
        .unwrap();
    socket.connect(server.addr).await.unwrap()
}

/// A wrong entry code's request, its head and its body apart.
fn wrong_code() -> (String, &'static str) {
    let body = r#"{"code":"AAAA-BBBB-CCCC"}"#;
    let head = format!(
        "POST /api/entry HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    (head, body)
}

/// The reply's status line.
async fn status(tcp: &mut TcpStream) -> String {
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut reply)).await;
    let reply = String::from_utf8_lossy(&reply);
    reply.lines().next().unwrap_or_default().to_owned()
}

/// A wrong code from `ip`, whole: the status line.
async fn guess(server: &TestServer, ip: &str) -> String {
    let (head, body) = wrong_code();
    let mut tcp = connect_from(server, ip).await;
    tcp.write_all(format!("{head}{body}").as_bytes())
        .await
        .unwrap();
    status(&mut tcp).await
}

#[tokio::test]
async fn heads_first_and_bodies_later_get_only_the_free_codes_checked() {
    let server = TestServer::start(|c| {
        c.director.login_free_failures = 5;
        c.director.login_delay_ms = 60_000;
    })
    .await;
    let (head, body) = wrong_code();
    let mut held = Vec::new();
    for _ in 0..12 {
        let mut tcp = connect_from(&server, "127.0.0.61").await;
        tcp.write_all(head.as_bytes()).await.unwrap();
        held.push(tcp);
    }
    for tcp in &mut held {
        // A refused request may be closed already.
        let _ = tcp.write_all(body.as_bytes()).await;
    }
    let mut statuses = Vec::new();
    for tcp in &mut held {
        statuses.push(status(tcp).await);
    }
    let checked = statuses.iter().filter(|s| s.contains(" 403 ")).count();
    let waited = statuses.iter().filter(|s| s.contains(" 429 ")).count();
    assert_eq!((checked, waited), (5, 7), "{statuses:?}");
    assert!(guess(&server, "127.0.0.61").await.contains(" 429 "));
    assert!(
        guess(&server, "127.0.0.62").await.contains(" 403 "),
        "another address is not held up"
    );
}

#[tokio::test]
async fn joining_an_ordinary_room_with_a_code_does_not_clear_wrong_codes() {
    let server = TestServer::start(|c| {
        c.director.login_free_failures = 2;
        c.director.login_delay_ms = 60_000;
    })
    .await;
    let ip = "127.0.0.63";
    assert!(guess(&server, ip).await.contains(" 403 "));
    let mut host = Client::hello(&server, "host").await;
    let room = host
        .create_xiangqi(XiangqiOptions::default(), Some(0))
        .await;
    let mut guest = Client::connect_from(&server, ip)
        .await
        .expect("loopback")
        .say_hello("guest")
        .await;
    guest.join_with(room, None, Some("ANY-CODE")).await;
    assert!(
        guess(&server, ip).await.contains(" 403 "),
        "the second wrong code"
    );
    assert!(
        guess(&server, ip).await.contains(" 429 "),
        "the join did not clear the first"
    );
}

#[tokio::test]
async fn a_frame_of_two_values_is_malformed() {
    let server = TestServer::default().await;
    let mut c = Client::hello(&server, "two").await;
    let ping = encode(&ClientMsg::Ping {
        seq: 9,
        client_time: None,
    })
    .unwrap();
    let mut two = ping.clone();
    two.extend_from_slice(&ping);
    c.send_raw(two).await;
    let (code, message) = c.error_for(Some(9)).await;
    assert_eq!(code, ErrorCode::Malformed, "{message}");
    c.send_raw(ping).await;
    c.until(|m| matches!(m, ServerMsg::Pong { .. })).await;
}
