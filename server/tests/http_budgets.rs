//! Plain HTTP within budgets (PROTOCOL.md §13): a request body that trickles in is refused
//! at its deadline and its connection closed, while `/healthz` still answers; long polls are
//! capped by address and in all, refused with `429 too_many_connections` and `Retry-After`.

mod common;

use std::time::Duration;

use common::{http_get, metric, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A connection from `ip` (an address of 127.0.0.0/8) to `server`.
async fn connect_from(server: &TestServer, ip: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::new(ip.parse().unwrap(), 0))
        .unwrap();
    socket.connect(server.addr).await.unwrap()
}

/// Everything `tcp` receives until the server closes it (at most 5 s).
async fn read_all(tcp: &mut TcpStream) -> String {
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut reply)).await;
    String::from_utf8_lossy(&reply).into_owned()
}

#[tokio::test]
async fn a_body_that_trickles_in_is_refused_at_its_deadline() {
    let server = TestServer::start(|c| c.limits.http_body_timeout_ms = 150).await;
    let mut tcp = connect_from(&server, "127.0.0.31").await;
    tcp.write_all(b"POST /api/entry HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"code\":")
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    let reply = read_all(&mut tcp).await;
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    assert!(reply.contains("\"bad_request_body\""), "{reply}");
    assert!(reply.contains("did not arrive within 150 ms"), "{reply}");
    assert!(started.elapsed() < Duration::from_secs(3), "closed late");
    assert!(http_get(&server, "/healthz")
        .await
        .starts_with("HTTP/1.1 200"));
}

/// Opens a long poll from `ip` that waits (its `after` is far ahead).
async fn long_poll(server: &TestServer, ip: &str) -> TcpStream {
    let mut tcp = connect_from(server, ip).await;
    tcp.write_all(b"GET /api/competitions/changes?after=999999 HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    tcp
}

/// Waits until `/metrics` counts `n` long polls waiting.
async fn long_polls_become(server: &TestServer, n: f64) {
    let until = tokio::time::Instant::now() + Duration::from_secs(5);
    while metric(server, "qipai_in_use{what=\"long_polls\"}").await != n {
        assert!(tokio::time::Instant::now() < until, "never {n} long polls");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn long_polls_are_capped_by_address_and_in_all() {
    let server = TestServer::start(|c| {
        c.limits.long_polls_per_addr = 2;
        c.limits.max_long_polls = 3;
    })
    .await;
    let first = long_poll(&server, "127.0.0.41").await;
    let _second = long_poll(&server, "127.0.0.41").await;
    long_polls_become(&server, 2.0).await;
    let mut third = long_poll(&server, "127.0.0.41").await;
    let reply = read_all_until_answer(&mut third).await;
    assert!(reply.starts_with("HTTP/1.1 429"), "{reply}");
    assert!(reply.contains("\"too_many_connections\""), "{reply}");
    assert!(
        reply.to_ascii_lowercase().contains("retry-after: 1"),
        "{reply}"
    );
    let _other = long_poll(&server, "127.0.0.42").await;
    long_polls_become(&server, 3.0).await;
    let mut over = long_poll(&server, "127.0.0.43").await;
    let reply = read_all_until_answer(&mut over).await;
    assert!(reply.starts_with("HTTP/1.1 429"), "{reply}");
    // A poll that does not wait (no `after`) and everything else still answer.
    let now = http_get(&server, "/api/competitions/changes").await;
    assert!(now.starts_with("HTTP/1.1 200"), "{now}");
    assert!(http_get(&server, "/healthz")
        .await
        .starts_with("HTTP/1.1 200"));
    assert!(metric(&server, "qipai_refused_total{what=\"long_poll\"}").await >= 2.0);
    drop(first);
    long_polls_become(&server, 2.0).await;
}

/// The first answer on a kept-alive connection (its head and body).
async fn read_all_until_answer(tcp: &mut TcpStream) -> String {
    let mut reply = Vec::new();
    let mut buf = [0u8; 4096];
    let until = tokio::time::Instant::now() + Duration::from_secs(5);
    while !String::from_utf8_lossy(&reply).contains("}}") {
        match tokio::time::timeout_at(until, tcp.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => reply.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&reply).into_owned()
}
