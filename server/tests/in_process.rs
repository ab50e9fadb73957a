//! The server built in-process with no socket (`InProcess`, what the HTTP fuzz target
//! drives) serves a stream it is handed as the listener serves an accepted connection: the
//! same router and refusal shape, the same per-address budget at admission, and the body
//! timeout of `[limits] http_body_timeout_ms` (PROTOCOL.md §13).

use std::net::SocketAddr;

use qipai_server::base::sockets::Turned;
use qipai_server::gateway::listener::InProcess;
use qipai_server::shutdown;
use qipai_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

async fn server(tweak: impl FnOnce(&mut Config)) -> (InProcess, shutdown::ShutdownTrigger) {
    let mut config = Config::defaults().expect("default config");
    config.store.url = String::new();
    tweak(&mut config);
    let (trigger, shutdown) = shutdown::channel();
    let server = InProcess::start(config, shutdown).await.expect("it starts");
    (server, trigger)
}

/// A connection from `peer`, served in the background.
fn connect(server: &InProcess, peer: &str) -> Result<DuplexStream, Turned> {
    let (client, stream) = tokio::io::duplex(64 * 1024);
    let peer: SocketAddr = peer.parse().expect("an address");
    tokio::spawn(server.serve(stream, peer)?);
    Ok(client)
}

/// Writes `request` and reads until the server closes (every request here says `close`).
async fn exchange(conn: &mut DuplexStream, request: &str) -> String {
    conn.write_all(request.as_bytes()).await.expect("written");
    let mut reply = Vec::new();
    conn.read_to_end(&mut reply).await.expect("read");
    String::from_utf8_lossy(&reply).into_owned()
}

#[tokio::test]
async fn a_stream_is_served_by_the_router() {
    let (server, _trigger) = server(|_| {}).await;
    let mut conn = connect(&server, "198.51.100.1:4000").expect("admitted");
    let reply = exchange(
        &mut conn,
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    let mut conn = connect(&server, "198.51.100.1:4000").expect("admitted");
    let reply = exchange(
        &mut conn,
        "DELETE /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 405"), "{reply}");
    assert!(reply.contains(r#""code":"method_not_allowed""#), "{reply}");
}

#[tokio::test]
async fn a_slow_body_is_refused_after_the_body_timeout() {
    let (server, _trigger) = server(|c| c.limits.http_body_timeout_ms = 20).await;
    let mut conn = connect(&server, "198.51.100.2:4000").expect("admitted");
    let reply = exchange(
        &mut conn,
        "POST /api/entry HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"code\":",
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    assert!(reply.contains(r#""code":"bad_request_body""#), "{reply}");
}

#[tokio::test]
async fn admission_counts_the_address() {
    let (server, _trigger) = server(|c| c.limits.http_connections_per_addr = 1).await;
    let held = connect(&server, "198.51.100.3:4000").expect("admitted");
    assert_eq!(
        connect(&server, "198.51.100.3:4001").err(),
        Some(Turned::Address)
    );
    assert!(
        connect(&server, "198.51.100.4:4000").is_ok(),
        "another address"
    );
    drop(held);
}
