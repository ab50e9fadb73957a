//! Descriptors and plain HTTP connections within budgets (PROTOCOL.md §13): the server never
//! lets its process reach the descriptor limit, so slow bodies, idle sockets and WebSockets
//! together cannot lock out `/healthz` or a new player; plain HTTP is capped by address; an
//! idle connection is closed when its request's head does not come.

mod common;

use std::io::Read;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{metric, Client, Endpoint, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// A connection from `ip` (an address of 127.0.0.0/8) to `addr`.
async fn connect_from(addr: SocketAddr, ip: &str) -> std::io::Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(ip.parse().expect("ip"), 0))?;
    socket.connect(addr).await
}

/// What `tcp` receives within `wait` or until the server closes it.
async fn read_for(tcp: &mut TcpStream, wait: Duration) -> String {
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(wait, tcp.read_to_end(&mut reply)).await;
    String::from_utf8_lossy(&reply).into_owned()
}

/// `GET path` from `ip`; the reply, or what the connection failed with.
async fn get_from(addr: SocketAddr, ip: &str, path: &str) -> String {
    let mut tcp = match connect_from(addr, ip).await {
        Ok(tcp) => tcp,
        Err(error) => return format!("connect: {error}"),
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    if let Err(error) = tcp.write_all(request.as_bytes()).await {
        return format!("write: {error}");
    }
    read_for(&mut tcp, Duration::from_secs(3)).await
}

#[tokio::test]
async fn plain_http_is_capped_by_address() {
    let server = TestServer::start(|c| c.limits.http_connections_per_addr = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from(server.addr, "127.0.0.51").await.unwrap());
    }
    let mut fourth = connect_from(server.addr, "127.0.0.51").await.unwrap();
    let reply = read_for(&mut fourth, Duration::from_secs(3)).await;
    assert!(reply.starts_with("HTTP/1.1 429"), "{reply}");
    assert!(reply.contains("\"too_many_connections\""), "{reply}");
    assert!(
        reply.to_ascii_lowercase().contains("retry-after: 1"),
        "{reply}"
    );
    assert!(get_from(server.addr, "127.0.0.52", "/healthz")
        .await
        .starts_with("HTTP/1.1 200"));
    assert_eq!(
        metric(&server, "qipai_refused_total{what=\"http_per_addr\"}").await,
        1.0
    );
    drop(held);
    let until = Instant::now() + Duration::from_secs(5);
    while !get_from(server.addr, "127.0.0.51", "/healthz")
        .await
        .starts_with("HTTP/1.1 200")
    {
        assert!(
            Instant::now() < until,
            "the address's places never came back"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn an_idle_connection_is_closed_when_no_request_head_comes() {
    let server = TestServer::start(|c| c.server.hello_timeout_ms = 200).await;
    let started = Instant::now();
    let mut silent = connect_from(server.addr, "127.0.0.53").await.unwrap();
    assert_eq!(read_for(&mut silent, Duration::from_secs(3)).await, "");
    assert!(started.elapsed() < Duration::from_secs(2), "held too long");

    // Kept alive after an answer, then silent: closed the same way.
    let mut kept = connect_from(server.addr, "127.0.0.53").await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let reply = read_for(&mut kept, Duration::from_secs(3)).await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(started.elapsed() < Duration::from_secs(2), "held too long");
    assert_eq!(
        metric(&server, "qipai_in_use{what=\"http_connections\"}").await,
        1.0,
        "only the scrape's own"
    );
}

/// The server binary under a descriptor limit, its errors collected.
struct Limited {
    child: Child,
    addr: SocketAddr,
    errors: std::thread::JoinHandle<String>,
}

impl Endpoint for Limited {
    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

impl Limited {
    /// `qipai-server` with at most `files` descriptors (`prlimit`), on a fresh store file.
    async fn start(files: u32) -> Limited {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port");
        let addr = SocketAddr::from(([127, 0, 0, 1], port.port()));
        let mut child = Command::new("prlimit")
            .arg(format!("--nofile={files}:{files}"))
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_qipai-server"))
            .env("QIPAI_SERVER__ADDR", addr.to_string())
            .env("QIPAI_STORE__URL", common::store_file("descriptors"))
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn prlimit qipai-server");
        let mut stderr = child.stderr.take().expect("stderr");
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(addr).await.is_err() {
            assert!(Instant::now() < until, "the server did not listen");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        Limited {
            child,
            addr,
            errors,
        }
    }

    /// Stops the server; what it wrote to stderr.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.errors.join().unwrap_or_default()
    }
}

/// 256 descriptors: 40 WebSockets, then slow bodies and idle sockets from 40 addresses until
/// well past the limit. Every connection is answered or held, none is failed at its accept;
/// `/healthz` answers `200` and a new player is welcomed meanwhile.
#[tokio::test]
async fn slow_bodies_and_idle_sockets_cannot_lock_out_healthz_or_a_new_player() {
    let server = Limited::start(256).await;
    let mut players = Vec::new();
    for i in 0..40 {
        let ip = format!("127.0.2.{}", 1 + i % 10);
        let client = Client::connect_from(&server, &ip).await.expect("a player");
        players.push(client.say_hello(&format!("p{i}")).await);
    }
    let mut attack = Vec::new();
    for i in 0..320 {
        let ip = format!("127.0.1.{}", 1 + i % 40);
        let Ok(mut tcp) = connect_from(server.addr, &ip).await else {
            continue;
        };
        if i % 2 == 0 {
            // A body that never comes whole.
            let head = "POST /api/entry HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n{";
            let _ = tcp.write_all(head.as_bytes()).await;
        }
        attack.push(tcp);
    }
    // Those past every place are answered `503` at once.
    let mut refused = 0;
    for tcp in &mut attack {
        let mut first = [0u8; 12];
        if let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_millis(5), tcp.peek(&mut first)).await
        {
            if first[..n].starts_with(b"HTTP/1.1 503") {
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "nothing refused: the limit was not reached");

    let until = Instant::now() + Duration::from_secs(4);
    loop {
        let reply = get_from(server.addr, "127.0.0.1", "/healthz").await;
        assert!(reply.starts_with("HTTP/1.1 "), "not answered: {reply}");
        if reply.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < until, "/healthz never 200: {reply}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let newcomer = Client::connect_from(&server, "127.0.0.9")
        .await
        .expect("a new player's upgrade");
    let newcomer = newcomer.say_hello("newcomer").await;
    assert_ne!(newcomer.player_id, 0, "welcomed");

    drop(attack);
    let until = Instant::now() + Duration::from_secs(5);
    let page = loop {
        let page = get_from(server.addr, "127.0.0.1", "/metrics").await;
        if page.starts_with("HTTP/1.1 200") {
            break page;
        }
        assert!(Instant::now() < until, "/metrics never answered: {page}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let value = |name: &str| -> f64 {
        page.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("{name} missing:\n{page}"))
    };
    assert_eq!(value("qipai_limit{key=\"descriptors\"}"), 256.0);
    assert!(value("qipai_refused_total{what=\"descriptors\"}") > 0.0);
    drop(players);
    drop(newcomer);
    let errors = server.stop();
    assert!(
        !errors.contains("accept failed") && !errors.contains("Too many open files"),
        "{errors}"
    );
}
