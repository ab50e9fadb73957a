//! The browser client is served from the binary at `/` on the game's port: the page, its
//! ES modules with a JavaScript content type, revalidation by `ETag`, and 404 for the rest.

mod common;

use common::{header, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends one `GET` with `headers` and returns the whole reply as text.
async fn get(server: &TestServer, path: &str, headers: &str) -> String {
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    tcp.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{headers}\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut reply = Vec::new();
    tcp.read_to_end(&mut reply).await.unwrap();
    String::from_utf8_lossy(&reply).into_owned()
}

/// `GET /` is the page, as HTML that loads the app as an ES module.
#[tokio::test]
async fn the_page_is_served_at_the_root() {
    let server = TestServer::default().await;
    let reply = get(&server, "/", "").await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert_eq!(
        header(&reply, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(header(&reply, "cache-control"), Some("no-cache"));
    assert_eq!(header(&reply, "x-content-type-options"), Some("nosniff"));
    assert!(reply.contains("<script type=\"module\""), "{reply}");
    let with_query = get(&server, "/?room=3", "").await;
    assert!(with_query.starts_with("HTTP/1.1 200"), "{with_query}");
}

/// The app's modules and the vendored MessagePack codec are JavaScript, which browsers
/// insist on for modules; a second load with the `ETag` gets `304`.
#[tokio::test]
async fn modules_are_javascript_and_revalidate() {
    let server = TestServer::default().await;
    for path in ["/app.js", "/net.js", "/vendor/msgpack/index.mjs"] {
        let reply = get(&server, path, "").await;
        assert!(reply.starts_with("HTTP/1.1 200"), "{path}: {reply}");
        assert_eq!(
            header(&reply, "content-type"),
            Some("text/javascript; charset=utf-8"),
            "{path}"
        );
        let etag = header(&reply, "etag").expect("an ETag").to_owned();
        let again = get(&server, path, &format!("If-None-Match: {etag}\r\n")).await;
        assert!(again.starts_with("HTTP/1.1 304"), "{path}: {again}");
        // A 304 has no body (hyper sends no Content-Length with it, as HTTP allows).
        assert!(matches!(header(&again, "content-length"), None | Some("0")));
        assert!(again.ends_with("\r\n\r\n"), "{again}");
    }
    let css = get(&server, "/style.css", "").await;
    assert_eq!(
        header(&css, "content-type"),
        Some("text/css; charset=utf-8")
    );
}

/// Unknown paths are still 404, and nothing outside `web/` can be reached.
#[tokio::test]
async fn unknown_paths_are_not_found() {
    let server = TestServer::default().await;
    for path in ["/nope.js", "/../Cargo.toml", "/vendor/", "/wss"] {
        let reply = get(&server, path, "").await;
        assert!(reply.starts_with("HTTP/1.1 404"), "{path}: {reply}");
    }
}

/// `GET /api/games` is the one catalogue of games the lobby reads (without a store too):
/// every game with its seats, presets, offered time controls and bot levels, as JSON.
#[tokio::test]
async fn the_catalogue_of_games_is_served() {
    let server = TestServer::default().await;
    let reply = get(&server, "/api/games", "").await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert_eq!(header(&reply, "content-type"), Some("application/json"));
    let body = reply.split("\r\n\r\n").nth(1).unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(body).expect(body);
    let games = json["games"].as_array().expect("a list of games");
    let kinds: Vec<&str> = games.iter().filter_map(|g| g["game"].as_str()).collect();
    assert_eq!(kinds, ["xiangqi", "tuolaji", "draughts"]);
    assert_eq!(games[1]["seats"], 4);
    assert_eq!(
        games[1]["bot_levels"],
        serde_json::json!(["beginner", "casual", "expert"])
    );
    assert_eq!(games[0]["presets"], serde_json::json!(["competition"]));
    assert!(games[2]["time_controls"]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
}

/// Sends `request` as it is on one connection and reads until the server has answered
/// `answers` times (or closed, or a second passed).
async fn exchange(server: &TestServer, request: &[u8], answers: usize) -> String {
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    tcp.write_all(request).await.unwrap();
    let mut reply = Vec::new();
    let mut buf = [0u8; 65536];
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
    while String::from_utf8_lossy(&reply).matches("HTTP/1.1 ").count() < answers {
        match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => reply.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&reply).into_owned()
}

/// Every request gets a proper answer: HEAD as GET without a body, 405 with `Allow` for
/// other methods, 400 for garbage and for a plain GET of `/ws`, 414 for a huge URI.
#[tokio::test]
async fn every_method_gets_an_answer() {
    let server = TestServer::default().await;
    let head = exchange(&server, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", 1).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let length: usize = header(&head, "content-length").unwrap().parse().unwrap();
    assert!(length > 100, "HEAD gives the GET's length");
    assert!(head.ends_with("\r\n\r\n"), "HEAD has no body: {head}");
    for method in ["POST", "OPTIONS", "PUT", "DELETE"] {
        let req = format!("{method} / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        let reply = exchange(&server, req.as_bytes(), 1).await;
        assert!(reply.starts_with("HTTP/1.1 405"), "{method}: {reply}");
        assert_eq!(header(&reply, "allow"), Some("GET, HEAD"), "{method}");
    }
    let garbage = exchange(&server, b"\x16\x03\x01 hello\r\n\r\n", 1).await;
    assert!(garbage.starts_with("HTTP/1.1 400"), "{garbage}");
    let plain_ws = exchange(&server, b"GET /ws HTTP/1.1\r\nHost: x\r\n\r\n", 1).await;
    assert!(plain_ws.starts_with("HTTP/1.1 400"), "{plain_ws}");
    let huge = format!("GET /?{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(100_000));
    let reply = exchange(&server, huge.as_bytes(), 1).await;
    assert!(
        reply.starts_with("HTTP/1.1 414") || reply.starts_with("HTTP/1.1 431"),
        "{reply}"
    );
}

/// The page's files come over one kept-alive connection, and `/ws` upgrades with any
/// query, however long.
#[tokio::test]
async fn keep_alive_and_ws_with_any_query() {
    let server = TestServer::default().await;
    let two = exchange(
        &server,
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        2,
    )
    .await;
    assert_eq!(two.matches("HTTP/1.1 200").count(), 2, "{two}");
    let url = format!("{}?v={}", server.url(), "x".repeat(4000));
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    use futures_util::SinkExt;
    let hello = qipai_protocol::encode(&qipai_protocol::ClientMsg::Hello {
        protocol_version: qipai_protocol::PROTOCOL_VERSION,
        name: "Q".into(),
        resume_token: None,
        account_token: None,
    })
    .unwrap();
    ws.send(tokio_tungstenite::tungstenite::Message::Binary(
        hello.into(),
    ))
    .await
    .unwrap();
    use futures_util::StreamExt;
    let welcome = ws.next().await.unwrap().unwrap();
    let msg: qipai_protocol::ServerMsg = rmp_serde::from_slice(&welcome.into_data()).unwrap();
    assert!(matches!(msg, qipai_protocol::ServerMsg::Welcome { .. }));
}
