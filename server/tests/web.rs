//! The browser client is served from the binary at `/` on the game's port: the page, its
//! ES modules with a JavaScript content type, revalidation by `ETag`, and 404 for the rest.

mod common;

use common::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends one `GET` with `headers` and returns the whole reply as text.
async fn get(server: &TestServer, path: &str, headers: &str) -> String {
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    tcp.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n").as_bytes())
        .await
        .unwrap();
    let mut reply = Vec::new();
    tcp.read_to_end(&mut reply).await.unwrap();
    String::from_utf8_lossy(&reply).into_owned()
}

/// The value of header `name` in `reply`.
fn header<'a>(reply: &'a str, name: &str) -> Option<&'a str> {
    let head = reply.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim())
    })
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
        assert_eq!(header(&again, "content-length"), Some("0"));
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
