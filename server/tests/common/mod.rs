//! A real server on an ephemeral port and a real WebSocket client for the tests.

#![allow(dead_code)] // each test file uses a different part of this kit

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiOptions};
use qipai_protocol::{
    decode_batch, encode, ClientMsg, ErrorCode, Event, RoomId, RoomOptions, ServerMsg, View,
    PROTOCOL_VERSION,
};
use qipai_server::shutdown::{self, ShutdownTrigger};
use qipai_server::Config;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub mod competition;
pub mod postgres;
pub mod records;
pub mod store_double;
pub mod tuolaji;

/// How long a test waits for any one message before failing.
pub const PATIENCE: Duration = Duration::from_secs(5);

/// The value of header `name` in `reply`.
pub fn header<'a>(reply: &'a str, name: &str) -> Option<&'a str> {
    let head = reply.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// A server reached over HTTP at an address: one in this process, or a spawned binary.
pub trait Addressed {
    fn addr(&self) -> SocketAddr;
}

impl Addressed for TestServer {
    fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// A server shared between a test's tasks.
impl<T: Addressed> Addressed for std::sync::Arc<T> {
    fn addr(&self) -> SocketAddr {
        T::addr(self)
    }
}

/// The password the tests' accounts sign up with.
pub const ACCOUNT_PASSWORD: &str = "correct horse";

/// Signs `name` up on `server` with [`ACCOUNT_PASSWORD`]: the account session's token.
pub async fn sign_up(server: &impl Addressed, name: &str) -> String {
    let body = serde_json::json!({ "name": name, "password": ACCOUNT_PASSWORD }).to_string();
    let reply = http(server, "POST", "/api/account/signup", &[], &body).await;
    let (status, v) = competition::parse(&reply);
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().expect("token").to_owned()
}

/// `GET path` over a fresh connection; the whole reply as text.
pub async fn http_get(server: &impl Addressed, path: &str) -> String {
    http(server, "GET", path, &[], "").await
}

/// `method path` with extra header lines and a body, over a fresh connection; the whole
/// reply as text.
pub async fn http(
    server: &impl Addressed,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> String {
    http_to(server.addr(), method, path, headers, body).await
}

/// [`http`] to the server at `addr` (a spawned binary, say).
pub async fn http_to(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
    for h in headers {
        request += &format!("{h}\r\n");
    }
    if !body.is_empty() || method == "POST" {
        request += &format!("Content-Length: {}\r\n", body.len());
    }
    request += "\r\n";
    request += body;
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, tcp.read_to_end(&mut reply)).await;
    String::from_utf8_lossy(&reply).into_owned()
}

/// The value of the metric line starting with `name` (labels included) in `/metrics`.
pub async fn metric(server: &TestServer, name: &str) -> f64 {
    let page = http_get(server, "/metrics").await;
    page.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} missing from /metrics:\n{page}"))
}

/// A new SQLite file in the temp folder, for one test's store.
pub fn store_file(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir()
        .join(format!("qipai_{name}_{}_{nanos}.db", std::process::id()))
        .display()
        .to_string()
}

/// Redis database `db` of the test's servers, emptied: each test its own keys.
pub async fn redis_db(url: &str, db: u8) -> String {
    let url = format!("{}/{db}", url.trim_end_matches('/'));
    let client = redis::Client::open(url.as_str()).expect("redis url");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("redis");
    let () = redis::cmd("FLUSHDB")
        .query_async(&mut conn)
        .await
        .expect("flushdb");
    url
}

/// A server running in this test's runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    trigger: ShutdownTrigger,
}

impl TestServer {
    /// Starts a server with the default configuration changed by `tweak`, on 127.0.0.1:0.
    pub async fn start(tweak: impl FnOnce(&mut Config)) -> TestServer {
        TestServer::with(Config::defaults().expect("default config"), tweak).await
    }

    /// Starts a server with `config` changed by `tweak`, on 127.0.0.1:0.
    pub async fn with(mut config: Config, tweak: impl FnOnce(&mut Config)) -> TestServer {
        config.server.addr = "127.0.0.1:0".parse().expect("addr");
        // No store unless a test asks for one (tests/store.rs): servers share no file.
        config.store.url = String::new();
        tweak(&mut config);
        let listener = qipai_server::bind(&config).await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let (trigger, shutdown) = shutdown::channel();
        tokio::spawn(qipai_server::run(listener, config, shutdown));
        TestServer { addr, trigger }
    }

    /// Starts a server on `store` (a test's double behind the `Store` trait), its failed
    /// transactions tried again after `retry`.
    pub async fn on_store(
        store: std::sync::Arc<dyn qipai_store::Store>,
        retry: Duration,
        tweak: impl FnOnce(&mut Config),
    ) -> TestServer {
        let mut config = Config::defaults().expect("default config");
        config.server.addr = "127.0.0.1:0".parse().expect("addr");
        tweak(&mut config);
        let listener = qipai_server::bind(&config).await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let (trigger, shutdown) = shutdown::channel();
        tokio::spawn(qipai_server::run_with_store(
            listener, config, shutdown, store, retry,
        ));
        TestServer { addr, trigger }
    }

    /// The defaults.
    pub async fn default() -> TestServer {
        TestServer::start(|_| {}).await
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

/// Something clients connect to: a server in this process or a spawned binary.
pub trait Endpoint {
    /// The WebSocket URL.
    fn ws_url(&self) -> String;
}

impl Endpoint for TestServer {
    fn ws_url(&self) -> String {
        self.url()
    }
}

impl TestServer {
    pub fn stop(&self) {
        self.trigger.fire();
    }
}

/// A client connection.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_seq: u64,
    pub player_id: u64,
    pub token: String,
    /// Every server message this client has decoded, in order.
    pub log: Vec<ServerMsg>,
    /// Messages of a batch frame not handed out yet.
    inbox: std::collections::VecDeque<ServerMsg>,
    /// Frames received (a batch frame carries several messages).
    pub frames: usize,
    /// For each message of `log`, the number of the frame that carried it (from 1).
    pub frame_of: Vec<usize>,
}

impl Client {
    /// A client on an open WebSocket, before hello.
    fn on(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            next_seq: 1,
            player_id: 0,
            token: String::new(),
            log: Vec::new(),
            inbox: std::collections::VecDeque::new(),
            frames: 0,
            frame_of: Vec::new(),
        }
    }

    /// Connects without saying hello.
    pub async fn connect(server: &impl Endpoint) -> Client {
        let url = server.ws_url();
        let (ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .unwrap_or_else(|e| panic!("connect to {url}: {e}"));
        Client::on(ws)
    }

    /// Connects from the local address `ip` (on Linux any 127.x.y.z), without saying hello;
    /// `None` when the server refused the upgrade.
    pub async fn connect_from(server: &impl Endpoint, ip: &str) -> Option<Client> {
        let url = server.ws_url();
        let addr: SocketAddr = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .and_then(|a| a.parse().ok())
            .expect("ws://ADDR/…");
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::new(ip.parse().expect("ip"), 0))
            .expect("bind");
        let tcp = socket.connect(addr).await.ok()?;
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp))
            .await
            .ok()?;
        Some(Client::on(ws))
    }

    /// Connects with `request` (its own headers: a cookie, an `Origin`), without saying hello.
    pub async fn on_request(
        request: tokio_tungstenite::tungstenite::handshake::client::Request,
    ) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("upgrade");
        Client::on(ws)
    }

    /// Connects as a reverse proxy on this machine does, naming the client it serves in
    /// `X-Forwarded-For`, without saying hello.
    pub async fn connect_forwarded(server: &impl Endpoint, forwarded_for: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = server.ws_url().into_client_request().expect("request");
        request.headers_mut().insert(
            "x-forwarded-for",
            forwarded_for.parse().expect("header value"),
        );
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("upgrade");
        Client::on(ws)
    }

    /// Sends one WebSocket message as it is; `false` once the connection is gone.
    pub async fn send_message(&mut self, msg: Message) -> bool {
        self.ws.send(msg).await.is_ok()
    }

    /// The TCP socket under the WebSocket, to write what no client library would.
    pub fn tcp(&mut self) -> &mut TcpStream {
        match self.ws.get_mut() {
            MaybeTlsStream::Plain(tcp) => tcp,
            _ => unreachable!("the tests speak plain TCP"),
        }
    }

    /// Connects and says hello as `name`.
    pub async fn hello(server: &impl Endpoint, name: &str) -> Client {
        Client::connect(server).await.say_hello(name).await
    }

    /// Says hello as `name` and waits for `welcome`.
    pub async fn say_hello(mut self, name: &str) -> Client {
        let c = &mut self;
        c.send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: name.into(),
            resume_token: None,
            account_token: None,
        })
        .await;
        c.welcome().await;
        self
    }

    /// Connects and says hello as the signed-in account of session `account_token`.
    pub async fn signed_in(server: &impl Endpoint, account_token: &str) -> Client {
        let mut c = Client::connect(server).await;
        c.send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: String::new(),
            resume_token: None,
            account_token: Some(account_token.into()),
        })
        .await;
        c.welcome().await;
        c
    }

    /// Reconnects with `token`.
    pub async fn resume(server: &impl Endpoint, token: &str) -> Client {
        let mut c = Client::connect(server).await;
        c.send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: String::new(),
            resume_token: Some(token.into()),
            account_token: None,
        })
        .await;
        c.welcome().await;
        c
    }

    async fn welcome(&mut self) {
        match self.recv().await {
            ServerMsg::Welcome {
                player_id,
                resume_token,
                ..
            } => {
                self.player_id = player_id;
                self.token = resume_token;
            }
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    pub async fn send(&mut self, msg: &ClientMsg) {
        self.send_raw(encode(msg).expect("encode")).await;
    }

    pub async fn send_raw(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(Bytes::from(bytes)))
            .await
            .expect("send");
    }

    /// Sends, reporting instead of failing when the server has closed the connection.
    pub async fn try_send(&mut self, msg: &ClientMsg) -> bool {
        let bytes = Bytes::from(encode(msg).expect("encode"));
        self.ws.send(Message::Binary(bytes)).await.is_ok()
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// A fresh request sequence number.
    pub fn seq(&mut self) -> u64 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    /// The next server message (pings are answered by tungstenite and skipped).
    pub async fn recv(&mut self) -> ServerMsg {
        self.try_recv(PATIENCE)
            .await
            .expect("the connection closed or no message came in time")
    }

    /// The next server message, or `None` when the connection closes or `wait` passes. A
    /// batch frame's messages come one at a time, in order.
    pub async fn try_recv(&mut self, wait: Duration) -> Option<ServerMsg> {
        loop {
            if let Some(msg) = self.inbox.pop_front() {
                return Some(msg);
            }
            let frame = tokio::time::timeout(wait, self.ws.next()).await.ok()??;
            match frame.ok()? {
                Message::Binary(bytes) => {
                    let msgs = decode_batch::<ServerMsg>(&bytes, ServerMsg::TYPES).expect("decode");
                    self.logged(&msgs);
                    self.inbox.extend(msgs);
                }
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    /// Writes one frame's messages into the log.
    fn logged(&mut self, msgs: &[ServerMsg]) {
        self.frames += 1;
        self.log.extend(msgs.iter().cloned());
        self.frame_of.extend(msgs.iter().map(|_| self.frames));
    }

    /// Skips messages until one matches.
    pub async fn until(&mut self, mut want: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.recv().await;
            if want(&msg) {
                return msg;
            }
        }
    }

    /// Waits for the error answering `seq` (or with no seq when `None`) and returns its code.
    /// Waits for the answer to request `seq`: its `ok` or its `error`.
    pub async fn answer(&mut self, seq: u64) -> ServerMsg {
        self.until(|m| {
            matches!(m, ServerMsg::Ok { seq: s } if *s == seq)
                || matches!(m, ServerMsg::Error { seq: Some(s), .. } if *s == seq)
        })
        .await
    }

    /// The answer to request `seq` (its `ok` or its `error`), or `None` when the connection
    /// closes first: the request then went unanswered, so it was not acknowledged. Panics
    /// when neither comes within [`PATIENCE`].
    pub async fn answer_or_closed(&mut self, seq: u64) -> Option<ServerMsg> {
        let answers = |m: &ServerMsg| {
            matches!(m, ServerMsg::Ok { seq: s } if *s == seq)
                || matches!(m, ServerMsg::Error { seq: Some(s), .. } if *s == seq)
        };
        loop {
            if let Some(i) = self.inbox.iter().position(answers) {
                return self.inbox.remove(i);
            }
            self.inbox.clear();
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("an answer or the connection's close in time");
            match frame {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                Some(Ok(Message::Binary(bytes))) => {
                    let msgs = decode_batch::<ServerMsg>(&bytes, ServerMsg::TYPES).expect("decode");
                    self.logged(&msgs);
                    self.inbox.extend(msgs);
                }
                Some(Ok(_)) => {}
            }
        }
    }

    pub async fn error_for(&mut self, seq: Option<u64>) -> (ErrorCode, String) {
        match self
            .until(|m| matches!(m, ServerMsg::Error { seq: s, .. } if *s == seq))
            .await
        {
            ServerMsg::Error { code, message, .. } => (code, message),
            _ => unreachable!(),
        }
    }

    /// Leaves the current room and waits for `left` answering it.
    pub async fn leave(&mut self) {
        let seq = self.seq();
        self.send(&ClientMsg::Leave { seq }).await;
        self.until(|m| matches!(m, ServerMsg::Left { seq: Some(s), .. } if *s == seq))
            .await;
    }

    /// Waits until the connection is closed by the server.
    pub async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Ok(None) | Ok(Some(Err(_))) => return true,
                Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(Message::Binary(bytes)))) => {
                    if let Ok(msgs) = decode_batch::<ServerMsg>(&bytes, ServerMsg::TYPES) {
                        self.logged(&msgs);
                    }
                }
                Ok(Some(Ok(_))) => {}
                Err(_) => return false,
            }
        }
    }

    /// Creates a xiangqi room with `options` at `seat`; returns the room id once joined.
    pub async fn create_xiangqi(&mut self, options: XiangqiOptions, seat: Option<u8>) -> RoomId {
        let seq = self.seq();
        self.send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Xiangqi(options),
            seat,
            bots: false,
        })
        .await;
        self.joined(seq).await
    }

    /// Joins `room` at `seat` (or any); returns the room id.
    pub async fn join(&mut self, room_id: RoomId, seat: Option<u8>) -> RoomId {
        self.join_with(room_id, seat, None).await
    }

    /// Joins `room` at `seat` (or any) with an entry code (a competition's table, PROTOCOL
    /// §17.3); returns the room id.
    pub async fn join_with(
        &mut self,
        room_id: RoomId,
        seat: Option<u8>,
        entry_code: Option<&str>,
    ) -> RoomId {
        let seq = self.seq();
        self.send(&ClientMsg::Join {
            seq,
            room_id,
            seat,
            entry_code: entry_code.map(str::to_owned),
        })
        .await;
        self.joined(seq).await
    }

    /// Watches `room`.
    pub async fn spectate(&mut self, room_id: RoomId) {
        let seq = self.seq();
        self.send(&ClientMsg::Spectate { seq, room_id }).await;
        self.joined(seq).await;
    }

    /// Waits for `joined` and its snapshot answering request `seq`: the room's id.
    pub async fn joined(&mut self, seq: u64) -> RoomId {
        match self.recv().await {
            ServerMsg::Joined { room_id, .. } => {
                let snapshot = self.recv().await;
                assert!(
                    matches!(snapshot, ServerMsg::Snapshot { .. }),
                    "{snapshot:?}"
                );
                room_id
            }
            ServerMsg::Error { code, message, .. } => {
                panic!("join {seq} refused: {code:?} {message}")
            }
            other => panic!("expected joined, got {other:?}"),
        }
    }

    /// Sends a xiangqi action; returns its seq.
    pub async fn xq(&mut self, action: XiangqiAction) -> u64 {
        let seq = self.seq();
        self.send(&ClientMsg::Xiangqi { seq, action }).await;
        seq
    }

    /// Moves and waits for the `ok`.
    pub async fn play(&mut self, iccs: &str) {
        let seq = self.xq(XiangqiAction::Move { iccs: iccs.into() }).await;
        match self
            .until(|m| {
                matches!(m, ServerMsg::Ok { seq: s } if *s == seq)
                    || matches!(m, ServerMsg::Error { seq: Some(s), .. } if *s == seq)
            })
            .await
        {
            ServerMsg::Ok { .. } => {}
            other => panic!("move {iccs} refused: {other:?}"),
        }
    }

    /// Red (this client) and `black`, seated at a new xiangqi table, play the five plies
    /// b2b4 a6a5 b4c4 f9e8 c4c9 to checkmate; returns once Red has seen the game end.
    pub async fn mate_in_five_plies(&mut self, black: &mut Client) {
        for (red_moves, mv) in [
            (true, "b2b4"),
            (false, "a6a5"),
            (true, "b4c4"),
            (false, "f9e8"),
            (true, "c4c9"),
        ] {
            if red_moves {
                self.play(mv).await;
            } else {
                black.play(mv).await;
            }
        }
        self.event(|e| {
            matches!(
                e,
                Event::Xiangqi(qipai_protocol::xiangqi::XiangqiEvent::Over { .. })
            )
        })
        .await;
    }

    /// Asks for a snapshot and returns the whole `snapshot` message.
    pub async fn snapshot_msg(&mut self) -> ServerMsg {
        let seq = self.seq();
        self.send(&ClientMsg::Snapshot { seq }).await;
        self.until(|m| matches!(m, ServerMsg::Snapshot { .. }))
            .await
    }

    /// Asks for a snapshot and returns its view.
    pub async fn snapshot(&mut self) -> (u64, View) {
        match self.snapshot_msg().await {
            ServerMsg::Snapshot {
                event_seq, view, ..
            } => (event_seq, view),
            _ => unreachable!(),
        }
    }

    /// Waits for the next room event matching `want`.
    pub async fn event(&mut self, mut want: impl FnMut(&Event) -> bool) -> Event {
        match self
            .until(|m| matches!(m, ServerMsg::Event { event, .. } if want(event)))
            .await
        {
            ServerMsg::Event { event, .. } => event,
            _ => unreachable!(),
        }
    }
}

/// Two players seated at a new xiangqi table with `options`: red and black.
pub async fn xiangqi_pair(
    server: &TestServer,
    options: XiangqiOptions,
) -> (Client, Client, RoomId) {
    let mut red = Client::hello(server, "Red").await;
    let mut black = Client::hello(server, "Black").await;
    let room = red.create_xiangqi(options, Some(0)).await;
    black.join(room, Some(1)).await;
    (red, black, room)
}

/// Starts a `qipai-server` process set up by `server` (its address, store, environment) and
/// waits until it listens on `addr` (at most 10 s; else it is killed and the test fails,
/// naming `what`). Its output goes nowhere but its errors, which stay on the test's stderr.
pub async fn spawn_listening(
    mut server: std::process::Command,
    addr: SocketAddr,
    what: &str,
) -> std::process::Child {
    let mut child = server
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("spawn qipai-server");
    for _ in 0..400 {
        if TcpStream::connect(addr).await.is_ok() {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("{what} did not listen within 10 s");
}

/// The `qipai-server` binary running on a store, to be killed with SIGKILL (no goodbye, no
/// flush) and started again on the same store.
pub struct Process {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Process {
    /// Starts `binary` (the test's `env!("CARGO_BIN_EXE_qipai-server")`: only a test knows
    /// it) on the store `url` with the environment `env` (`QIPAI_…` settings), on the first
    /// free port of `ports`: a range of this test's own below the kernel's ephemeral ports
    /// (32768–60999), so that no client's connection can take the port between the check
    /// and the server's bind.
    pub async fn start(
        binary: &str,
        url: &str,
        env: &[(&str, String)],
        ports: &mut std::ops::Range<u16>,
    ) -> Process {
        let addr = ports
            .by_ref()
            .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
            .find(|addr| std::net::TcpListener::bind(addr).is_ok())
            .expect("a free port");
        let mut server = std::process::Command::new(binary);
        server
            .env("QIPAI_SERVER__ADDR", addr.to_string())
            .env("QIPAI_STORE__URL", url)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("RUST_LOG", "warn");
        let child = spawn_listening(server, addr, "qipai-server").await;
        Process { child, addr }
    }

    /// SIGKILL, and wait for the process to be gone.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Endpoint for Process {
    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

impl Addressed for Process {
    fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// A test that fails leaves no server behind.
impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
