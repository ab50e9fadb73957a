//! The little HTTP the server speaks besides the WebSocket upgrade: `GET /healthz`.
//!
//! The request line is peeked, not read, so a `/ws` request reaches tungstenite's handshake
//! untouched.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::Shared;

/// Where a new connection is going.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// A WebSocket upgrade at `/ws`: hand the stream to tungstenite.
    WebSocket,
    /// Answered here (health check, not found, or the client gave up); drop the stream.
    Done,
}

/// The longest request head we read before answering.
const MAX_HEAD: usize = 8192;

/// Peeks at the request line and answers anything that is not the WebSocket.
pub async fn route(stream: &mut TcpStream, shared: &Shared) -> Route {
    let Some(path) = peek_path(stream).await else {
        return Route::Done;
    };
    let path = path.split('?').next().unwrap_or_default();
    if path == "/ws" {
        return Route::WebSocket;
    }
    let (status, body) = match path {
        "/healthz" => ("200 OK", "ok\n".to_owned()),
        "/metrics" => ("200 OK", metrics(shared)),
        _ => (
            "404 Not Found",
            "not found: the WebSocket is at /ws\n".to_owned(),
        ),
    };
    drain_head(stream).await;
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    // The client may already be gone; there is nobody to tell.
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
    Route::Done
}

/// The metrics page.
fn metrics(shared: &Shared) -> String {
    let rooms = shared.lobby.count_by_game();
    shared.metrics.render(&rooms, shared.sessions.len())
}

/// The path of a `GET` request line, once the whole line has arrived.
async fn peek_path(stream: &TcpStream) -> Option<String> {
    let mut buf = [0u8; 1024];
    for _ in 0..200 {
        let n = stream.peek(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        let head = buf.get(..n)?;
        if let Some(end) = head.windows(2).position(|w| w == b"\r\n") {
            let line = std::str::from_utf8(head.get(..end)?).ok()?;
            let mut parts = line.split(' ');
            return match (parts.next(), parts.next()) {
                (Some("GET"), Some(path)) => Some(path.to_owned()),
                _ => None,
            };
        }
        if n == buf.len() {
            return None;
        }
        // Part of the line is here; wait a little for the rest.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    None
}

/// Reads the request head up to its blank line, so the answer is not met by a reset.
async fn drain_head(stream: &mut TcpStream) {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while head.len() < MAX_HEAD && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(buf.get(..n).unwrap_or_default()),
        }
    }
}
