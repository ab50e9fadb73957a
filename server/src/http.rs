//! The little HTTP the server speaks besides the WebSocket upgrade: `GET /healthz`,
//! `GET /metrics`, and the browser client's files ([`crate::static_files`]) at `/`.
//!
//! The request line is peeked, not read, so a `/ws` request reaches tungstenite's handshake
//! untouched.

use std::borrow::Cow;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::{static_files, Shared};

/// Where a new connection is going.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// A WebSocket upgrade at `/ws`: hand the stream to tungstenite.
    WebSocket,
    /// Answered here (health check, a file, not found, or the client gave up); drop the stream.
    Done,
}

/// The longest request head we read before answering.
const MAX_HEAD: usize = 8192;

/// Peeks at the request line and answers anything that is not the WebSocket.
pub async fn route(stream: &mut TcpStream, shared: &Shared) -> Route {
    let Some(path) = peek_path(stream).await else {
        return Route::Done;
    };
    let target = path.clone();
    let path = path.split('?').next().unwrap_or_default();
    if path == "/ws" {
        return Route::WebSocket;
    }
    let head = read_head(stream).await;
    let (status, content_type, body, etag): (_, _, Cow<'static, [u8]>, _) = match path {
        "/healthz" => ("200 OK", TEXT, Cow::Borrowed(b"ok\n"), None),
        "/metrics" => (
            "200 OK",
            TEXT,
            Cow::Owned(metrics(shared).into_bytes()),
            None,
        ),
        _ if path.starts_with("/api/") => {
            let (status, content_type, body) = crate::persist::api::get(&target, shared).await;
            (status, content_type, Cow::Owned(body), None)
        }
        _ => match static_files::lookup(path) {
            Some(file) if if_none_match(&head) == Some(file.etag) => (
                "304 Not Modified",
                file.content_type,
                Cow::Borrowed(b""),
                Some(file.etag),
            ),
            Some(file) => (
                "200 OK",
                file.content_type,
                Cow::Borrowed(file.body),
                Some(file.etag),
            ),
            None => (
                "404 Not Found",
                TEXT,
                Cow::Borrowed(b"not found: the page is at /, the WebSocket at /ws\n"),
                None,
            ),
        },
    };
    let mut response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(etag) = etag {
        response.push_str(&format!(
            "ETag: {etag}\r\nCache-Control: {}\r\nX-Content-Type-Options: nosniff\r\n",
            static_files::CACHE_CONTROL
        ));
    }
    response.push_str("\r\n");
    // The client may already be gone; there is nobody to tell.
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.write_all(&body).await;
    let _ = stream.shutdown().await;
    Route::Done
}

const TEXT: &str = "text/plain; charset=utf-8";

/// The `If-None-Match` header's value, when the request has one.
fn if_none_match(head: &str) -> Option<&str> {
    head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("if-none-match")
            .then(|| value.trim())
    })
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

/// Reads the request head up to its blank line (so the answer is not met by a reset) and
/// returns it; what is not UTF-8 is replaced, as only ASCII headers are looked at.
async fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while head.len() < MAX_HEAD && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(buf.get(..n).unwrap_or_default()),
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}
