//! The HTTP request paths, served the way the listener serves them: each input is one
//! connection from one address carrying a few requests, written as bytes into an in-memory
//! pipe whose other end hyper's HTTP/1 connection serves with the server's own router,
//! budgets, body and head timeouts (`qipai_server::gateway::listener::InProcess`). The
//! server is built once per process on a SQLite file, with a director signed in, a Tuolaji
//! competition and its xiangqi partner, a registration form imported, a round published and
//! an account signed up, so the requests reach past the refusals of strangers.
//!
//! An input is either structured (the `arbitrary` crate reads a [`Connection`] from the
//! bytes: methods, the router's routes with fuzzed ids and segments, queries, headers,
//! cookies and session tokens, JSON, registration forms and raw bodies, framed right or
//! wrong), or, when it starts with [`LITERAL`], requests written out as text with
//! placeholders (the corpus's readable seeds: a real request of every route).
//!
//! What must hold (a failed assertion is a crash, and so is a panic anywhere in the server:
//! libFuzzer's hook aborts on any): no `5xx` but `503`; a body that says it is JSON parses
//! as JSON; a refusal carries a code of the catalogue (`ErrorCode`) in the one shape, except
//! hyper's own answers to what it cannot parse (`400`, `414`, `431`, empty) and `/healthz`'s
//! text; and after every input a `GET /healthz` on a new connection answers `200`.
#![no_main]

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::Duration;

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use qipai_protocol::ErrorCode;
use qipai_server::base::shutdown::{self, ShutdownTrigger};
use qipai_server::gateway::listener::InProcess;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::runtime::Runtime;

/// The mark of an input written out as text ([`literal`]).
const LITERAL: &[u8] = b"#http\n";

/// The line between two requests of a literal input.
const NEXT: &str = "\n~~~\n";

/// The director's password, and the account's.
const PASSWORD: &str = "裁判长的密码 fuzz";

/// The address the harness's own requests come from; no input's.
const HARNESS_ADDR: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));

/// The one trusted proxy of the configuration: its `X-Forwarded-For` counts.
const PROXY: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 9, 9, 9));

/// The head and body timeouts of the configuration: short, so slow bodies and unfinished
/// heads are refused within an input.
const TIMEOUT_MS: u64 = 20;

/// How long an answer is waited for before the connection is given up (a long poll waits
/// 25 s; a client may leave it): several times [`TIMEOUT_MS`].
const WAIT: Duration = Duration::from_millis(120);

/// How long `/healthz` may take after an input, under any load.
const HEALTHZ_WAIT: Duration = Duration::from_secs(20);

/// Every path the router names (`server/src/gateway/http.rs`, `router`), `{}` where it
/// takes a parameter, and a few of the page's files.
const ROUTES: &[&str] = &[
    "/healthz",
    "/metrics",
    "/ws",
    "/node",
    "/api/games",
    "/api/games/{}",
    "/api/nodes",
    "/api/players/{}/games",
    "/api/players/{}/profile",
    "/api/leaderboard/{}",
    "/api/entry",
    "/api/account",
    "/api/account/games",
    "/api/account/signup",
    "/api/account/signin",
    "/api/account/signout",
    "/api/account/password",
    "/api/account/delete",
    "/api/competitions",
    "/api/competitions/changes",
    "/api/competitions/{}",
    "/api/competitions/{}/entries",
    "/api/competitions/{}/rounds/{}",
    "/api/competitions/{}/standings",
    "/api/competitions/{}/standings.csv",
    "/api/competitions/{}/teams",
    "/api/competitions/{}/teams.csv",
    "/api/competitions/{}/awards",
    "/api/competitions/{}/awards.csv",
    "/api/director/login",
    "/api/director/logout",
    "/api/director/session",
    "/api/director/qr.svg",
    "/api/director/competitions",
    "/api/director/competitions/{}/entries",
    "/api/director/competitions/{}/entries/{}/players/{}/code",
    "/api/director/competitions/{}/rounds",
    "/api/director/competitions/{}/rounds/{}/start",
    "/api/director/competitions/{}/rounds/{}/undo",
    "/api/director/competitions/{}/entries/{}/withdraw",
    "/api/director/competitions/{}/results",
    "/api/director/competitions/{}/corrections",
    "/api/director/{}",
    "/api",
    "/api/{}",
    "/",
    "/index.html",
    "/app.js",
    "/style.css",
    "/i18n/{}",
    "/{}",
];

/// Words the requests are made of: the routes' segments and the API's fields and values.
const WORDS: &[&str] = &[
    "director",
    "fuzzer",
    "工会杯",
    "张一",
    "Bot 1",
    "Вot 1",
    "Ｂot １",
    "tuolaji",
    "xiangqi",
    "draughts",
    "first_wins",
    "draw",
    "second_wins",
    "first_forfeits",
    "second_forfeits",
    "both_forfeit",
    "name",
    "password",
    "new_password",
    "event",
    "rounds",
    "seed",
    "partner",
    "round",
    "table",
    "result",
    "note",
    "reason",
    "override",
    "start",
    "start_at_ms",
    "at_ms",
    "code",
    "text",
    "after",
    "page",
    "before",
    "limit",
    "department",
    "pair",
    "phone",
    "joined_group",
    "是",
    "否",
    "games",
    "entries",
    "standings.csv",
    "1.pgn",
    "1.pdn",
    "1.csv",
    "..",
    "%",
    "%00",
    "%2F",
    "%FF",
    "+",
    "",
    " ",
    "\u{200b}",
    "\u{feff}",
    "\u{34f}",
    "-1",
    "0",
    "1",
    "2",
    "18446744073709551615",
    "18446744073709551616",
    "9007199254740993",
    "1e3",
    "null",
    "true",
];

/// One connection: where it comes from and what it sends.
#[derive(Arbitrary, Debug)]
struct Connection {
    peer: Peer,
    requests: Vec<Request>,
}

/// The address a connection comes from.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Peer {
    V4(u8),
    V6(u16),
    /// The trusted proxy: its `X-Forwarded-For` names the client.
    Proxy,
}

impl Peer {
    fn addr(self) -> SocketAddr {
        let ip = match self {
            Peer::V4(n) => IpAddr::V4(Ipv4Addr::new(198, 51, 100, n)),
            Peer::V6(n) => IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, n, 0, 0, 0, 0, 1)),
            Peer::Proxy => PROXY,
        };
        SocketAddr::new(ip, 40000)
    }
}

/// One request, structured, or its head as any bytes.
#[derive(Arbitrary, Debug)]
enum Request {
    Built {
        method: Method,
        path: Path,
        query: Vec<(Word, Word)>,
        headers: Vec<Header>,
        body: Payload,
        framing: Framing,
    },
    /// Anything at all, for hyper's parser and what it lets through.
    Raw(Vec<u8>),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Method {
    Get,
    Head,
    Post,
    Put,
    Delete,
    Patch,
    Options,
    Trace,
    Connect,
    Lowercase,
    Unknown,
}

impl Method {
    fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
            Method::Patch => "PATCH",
            Method::Options => "OPTIONS",
            Method::Trace => "TRACE",
            Method::Connect => "CONNECT",
            Method::Lowercase => "post",
            Method::Unknown => "PROPFIND",
        }
    }
}

/// A path: a route of the router with its parameters filled in, or segments of any kind.
#[derive(Arbitrary, Debug)]
enum Path {
    Route {
        route: u8,
        params: Vec<Param>,
        trailing_slash: bool,
    },
    Segments(Vec<Param>),
}

/// A path parameter.
#[derive(Arbitrary, Debug)]
enum Param {
    /// The Tuolaji competition, or its xiangqi partner.
    Competition,
    Partner,
    Small(u8),
    Number(u64),
    Signed(i64),
    Word(Word),
    /// A word with an extension (`.csv`, `.pgn`, `.pdn`, `.json`).
    Dotted(Word, u8),
}

/// A piece of text: a known word, a session or entry code of the harness, or anything.
#[derive(Arbitrary, Debug)]
enum Word {
    Known(u8),
    Password,
    Director,
    Account,
    EntryCode,
    Text(String),
    /// Sent as it is (not percent-encoded) where it lands in a URL.
    Unencoded(String),
}

#[derive(Arbitrary, Debug)]
enum Header {
    ContentType(u8),
    Bearer(Word),
    Authorization(Word),
    Cookie(Vec<(Cookie, Word)>),
    Origin(u8),
    Host(Word),
    SecFetchSite(u8),
    AcceptEncoding(u8),
    IfNoneMatch(Word),
    ForwardedFor(ForwardedFor),
    /// The WebSocket upgrade's headers, those whose bits are set.
    Upgrade(u8),
    Expect,
    Close,
    Other(Word, Word),
}

#[derive(Arbitrary, Debug)]
enum Cookie {
    Director,
    Account,
    Other(Word),
}

#[derive(Arbitrary, Debug)]
enum ForwardedFor {
    Peer(Peer),
    Harness,
    Many(Vec<Peer>),
    Text(Word),
}

/// A body.
#[derive(Arbitrary, Debug)]
enum Payload {
    None,
    Json(Json),
    Form(Form),
    Bytes(Vec<u8>),
}

/// A JSON value, its keys and strings mostly the API's own words.
#[derive(Arbitrary, Debug)]
enum Json {
    Null,
    Bool(bool),
    Small(u8),
    Int(i64),
    Big(u64),
    Float(f64),
    Str(Word),
    Array(Vec<Json>),
    Object(Vec<(Word, Json)>),
}

/// A registration form (附件1) as a director uploads it.
#[derive(Arbitrary, Debug)]
struct Form {
    header: bool,
    bom: bool,
    crlf: bool,
    rows: Vec<[Word; 6]>,
}

/// How the body is framed.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Framing {
    Length,
    Chunked(u8),
    /// A `Content-Length` past the body: the rest never comes (a slow body).
    Short(u8),
    /// No length: the body runs into the next request.
    Missing,
    /// `Content-Length` and `Transfer-Encoding: chunked` both.
    Both,
}

/// What the harness signed in as and made, that inputs refer to.
struct Known {
    director: String,
    account: String,
    competition: u64,
    partner: u64,
    entry_code: String,
}

/// How many inputs one server serves before it is built anew. What inputs add stays (entries,
/// accounts, sessions, rooms), and the pages that list it grow with it: one server for a
/// whole run went from ~1,000 inputs a second to ~240 in 900,000 inputs, most of its time in
/// the competition's standings and field. A new server is set up in under 0.2 s.
const INPUTS_PER_SERVER: u32 = 10_000;

/// The server and the runtime that drives it, built once per [`INPUTS_PER_SERVER`] inputs.
struct Harness {
    runtime: Runtime,
    server: InProcess,
    known: Known,
    /// Accounts signed up so far (a new one when the last cannot be signed in again).
    accounts: u32,
    /// Inputs this server has served.
    served: u32,
    trigger: ShutdownTrigger,
}

static HARNESS: Mutex<Option<Harness>> = Mutex::new(None);

fuzz_target!(|bytes: &[u8]| {
    let mut harness = HARNESS.lock().unwrap_or_else(|e| e.into_inner());
    if harness
        .as_ref()
        .is_some_and(|h| h.served >= INPUTS_PER_SERVER)
    {
        if let Some(old) = harness.take() {
            old.stop();
        }
    }
    let harness = harness.get_or_insert_with(Harness::new);
    harness.served += 1;
    let (peer, requests) = match bytes.strip_prefix(LITERAL) {
        Some(text) => literal(text, &harness.known),
        None => {
            let Ok(connection) = Connection::arbitrary_take_rest(Unstructured::new(bytes)) else {
                return;
            };
            let peer = connection.peer;
            let sent = connection
                .requests
                .iter()
                .take(4)
                .map(|r| r.render(&harness.known))
                .collect();
            (peer.addr(), sent)
        }
    };
    harness.run(peer, &requests);
});

/// A request as sent: its bytes, and its method and path as its first line says.
struct Sent {
    bytes: Vec<u8>,
    method: String,
    path: String,
}

impl Sent {
    fn new(bytes: Vec<u8>) -> Sent {
        let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = String::from_utf8_lossy(line);
        let mut words = line.split_whitespace();
        let method = words.next().unwrap_or_default().to_owned();
        let path = words.next().unwrap_or_default().to_owned();
        Sent {
            bytes,
            method,
            path,
        }
    }

    /// Whether the answer to this request has no body whatever its headers say.
    fn head(&self) -> bool {
        self.method == "HEAD"
    }
}

/// An answer as read off the connection.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl Harness {
    fn new() -> Harness {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let (trigger, shutdown) = shutdown::channel();
        let config = config();
        let server = runtime
            .block_on(InProcess::start(config, shutdown))
            .expect("the server starts");
        let known = Known {
            director: String::new(),
            account: String::new(),
            competition: 0,
            partner: 0,
            entry_code: String::new(),
        };
        let mut harness = Harness {
            runtime,
            server,
            known,
            accounts: 0,
            served: 0,
            trigger,
        };
        harness.set_up();
        harness
    }

    /// Stops the server and its runtime (tasks still running are given a second).
    fn stop(self) {
        self.trigger.fire();
        drop(self.server);
        self.runtime.shutdown_timeout(Duration::from_secs(1));
    }

    /// Signs the director in, creates the competitions, imports a form, publishes a round
    /// and signs an account up.
    fn set_up(&mut self) {
        self.sign_director_in();
        let token = self.known.director.clone();
        let create = |h: &Harness, body: Value| {
            let v = h.ok(
                "POST",
                "/api/director/competitions",
                &token,
                &body.to_string(),
            );
            v["id"].as_u64().expect("a competition id")
        };
        let t = create(
            self,
            json!({"name":"工会杯 拖拉机","event":"tuolaji","rounds":3,"seed":42}),
        );
        let x = create(
            self,
            json!({"name":"工会杯 象棋","event":"xiangqi","rounds":3,"seed":43,"partner":t}),
        );
        let form = "department,event,pair,name,phone,joined_group\n\
                    工会甲,tuolaji,1,张一,13800000001,是\n工会甲,tuolaji,1,张二,,\n\
                    工会乙,tuolaji,1,李一,13900000002,否\n工会乙,tuolaji,1,李二,,\n\
                    工会丙,tuolaji,1,王一,,\n工会丙,tuolaji,1,王二,,\n\
                    工会甲,xiangqi,,赵一,13700000003,是\n工会乙,xiangqi,,钱一,,\n";
        let path = format!("/api/director/competitions/{t}/entries");
        let imported = self.ok("POST", &path, &token, form);
        self.known.entry_code = imported["codes"][0]["code"]
            .as_str()
            .expect("an entry code")
            .to_owned();
        let path = format!("/api/director/competitions/{t}/rounds");
        self.ok("POST", &path, &token, "");
        self.known.competition = t;
        self.known.partner = x;
        self.sign_account_in();
    }

    fn sign_director_in(&mut self) {
        let body = json!({ "name": "director", "password": PASSWORD }).to_string();
        let v = self.ok("POST", "/api/director/login", "", &body);
        self.known.director = v["token"].as_str().expect("a token").to_owned();
    }

    /// Signs the harness's account in again, or a new one up when it cannot be (an input
    /// changed its password, deleted it, or made it wait).
    fn sign_account_in(&mut self) {
        let body =
            |n: u32| json!({ "name": format!("fuzzer{n}"), "password": PASSWORD }).to_string();
        let (_, mut v) = self.call("POST", "/api/account/signin", "", &body(self.accounts));
        // An input may have taken the next names: a few tries.
        for _ in 0..20 {
            if v["token"].is_string() {
                break;
            }
            self.accounts += 1;
            v = self
                .call("POST", "/api/account/signup", "", &body(self.accounts))
                .1;
        }
        self.known.account = v["token"]
            .as_str()
            .expect("an account signed in")
            .to_owned();
    }

    /// The harness's own request from [`HARNESS_ADDR`]; it must answer `200`.
    fn ok(&self, method: &str, path: &str, token: &str, body: &str) -> Value {
        let (status, v) = self.call(method, path, token, body);
        assert_eq!(status, 200, "{method} {path}: {v}");
        v
    }

    fn call(&self, method: &str, path: &str, token: &str, body: &str) -> (u16, Value) {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: fuzz\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let answers = self.runtime.block_on(self.exchange(
            SocketAddr::new(HARNESS_ADDR, 40000),
            &[Sent::new(request.into_bytes())],
            HEALTHZ_WAIT,
        ));
        let answer = answers.into_iter().next().expect("an answer");
        let value = serde_json::from_slice(&answer.body).unwrap_or(Value::Null);
        (answer.status, value)
    }

    /// Sends `requests` over one connection from `peer`, checks every answer, then that the
    /// server still answers `/healthz`, and signs the harness in again where an input may
    /// have signed it out.
    fn run(&mut self, peer: SocketAddr, requests: &[Sent]) {
        let answers = self.runtime.block_on(self.exchange(peer, requests, WAIT));
        for (sent, answer) in requests.iter().zip(&answers) {
            check(sent, answer);
        }
        let healthz = Sent::new(b"GET /healthz HTTP/1.1\r\nHost: fuzz\r\n\r\n".to_vec());
        let answers = self.runtime.block_on(self.exchange(
            SocketAddr::new(HARNESS_ADDR, 40000),
            std::slice::from_ref(&healthz),
            HEALTHZ_WAIT,
        ));
        let status = answers.first().map(|a| a.status);
        assert_eq!(status, Some(200), "/healthz after the input");
        let signs_out = ["logout", "signout", "password", "delete"];
        if requests
            .iter()
            .any(|s| signs_out.iter().any(|w| s.path.contains(w)))
        {
            self.check_sessions();
        }
    }

    /// Signs the director and the account in again when an input ended their sessions.
    fn check_sessions(&mut self) {
        let token = self.known.director.clone();
        let (_, v) = self.call("GET", "/api/director/session", &token, "");
        if v["director"].is_null() {
            self.sign_director_in();
        }
        let token = self.known.account.clone();
        let (_, v) = self.call("GET", "/api/account", &token, "");
        if v["account"].is_null() {
            self.sign_account_in();
        }
    }

    /// One connection from `peer`: each request written, its answer read (within `wait`),
    /// until the requests run out, the server closes, an answer is late or the connection
    /// becomes a WebSocket. The server's side is dropped at the end, as a client leaving.
    async fn exchange(&self, peer: SocketAddr, requests: &[Sent], wait: Duration) -> Vec<Answer> {
        let (mut client, stream) = tokio::io::duplex(1 << 20);
        let Ok(serving) = self.server.serve(stream, peer) else {
            return Vec::new();
        };
        let serving = tokio::spawn(serving);
        let mut answers = Vec::new();
        let mut buffer = Vec::new();
        for sent in requests {
            if client.write_all(&sent.bytes).await.is_err() {
                break;
            }
            let read = read_answer(&mut client, &mut buffer, sent.head());
            let Ok(Some(answer)) = tokio::time::timeout(wait, read).await else {
                break;
            };
            let upgraded = answer.status == 101;
            answers.push(answer);
            if upgraded {
                break;
            }
        }
        drop(client);
        serving.abort();
        answers
    }
}

/// The server's configuration: the defaults, a SQLite file of this process, short
/// timeouts, cheap password hashes, one trusted proxy.
fn config() -> qipai_server::Config {
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_owned()
    } else {
        std::env::temp_dir()
    };
    let file = dir.join(format!("qipai-fuzz-http-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    let hash = qipai_server::competition::auth::hash_password_cost(PASSWORD, 64, 1)
        .expect("a password hash");
    let toml = format!(
        r#"
[server]
hello_timeout_ms = {TIMEOUT_MS}
trusted_proxies = ["{PROXY}/32"]
[limits]
http_body_timeout_ms = {TIMEOUT_MS}
[store]
url = {url:?}
[director]
password_hash = {hash:?}
login_delay_ms = 1
[passwords]
memory_kib = 64
passes = 1
[accounts]
signin_delay_ms = 1
"#,
        url = file.display().to_string(),
    );
    qipai_server::Config::layered(Some(&toml), std::iter::empty()).expect("the configuration")
}

/// What must hold of `answer` to `sent`.
fn check(sent: &Sent, answer: &Answer) {
    let request = String::from_utf8_lossy(&sent.bytes);
    let status = answer.status;
    let content_type = answer.header("content-type");
    // hyper's own answer to a request it cannot parse: never reaches the router.
    let hypers = content_type.is_none() && matches!(status, 400 | 414 | 431);
    assert!(
        status < 500 || status == 503,
        "{status} answered to {request:?}"
    );
    let json = content_type.is_some_and(|t| t.starts_with("application/json"));
    let body = (!answer.body.is_empty()).then_some(&answer.body);
    let value = match (json, body) {
        (true, Some(body)) => Some(serde_json::from_slice::<Value>(body).unwrap_or_else(|e| {
            panic!("a body said to be JSON is not ({e}) in the answer to {request:?}")
        })),
        _ => None,
    };
    if status < 400 || hypers {
        return;
    }
    let healthz = sent.path.starts_with("/healthz") && status == 503;
    if healthz && content_type.is_some_and(|t| t.starts_with("text/plain")) {
        return;
    }
    assert!(
        json,
        "a {status} refusal without the JSON shape ({content_type:?}) to {request:?}"
    );
    if sent.head() {
        return;
    }
    let code = value
        .as_ref()
        .and_then(|v| v["error"]["code"].as_str())
        .unwrap_or_else(|| panic!("a {status} refusal without error.code to {request:?}"));
    assert!(
        ErrorCode::ALL.iter().any(|c| c.as_str() == code),
        "{status} refusal with {code:?}, not a code of the catalogue, to {request:?}"
    );
}

/// Reads one answer (after any `100 Continue`) from `conn`, `buffer` holding what was read
/// past the previous one; `None` when the connection closes first.
async fn read_answer(conn: &mut DuplexStream, buffer: &mut Vec<u8>, head: bool) -> Option<Answer> {
    loop {
        let end = loop {
            if let Some(at) = find(buffer, b"\r\n\r\n") {
                break at;
            }
            fill(conn, buffer).await?;
        };
        let text = String::from_utf8_lossy(&buffer[..end]).into_owned();
        buffer.drain(..end + 4);
        let mut lines = text.split("\r\n");
        let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
            .collect();
        if status == 100 {
            continue;
        }
        let mut answer = Answer {
            status,
            headers,
            body: Vec::new(),
        };
        if head || matches!(status, 101 | 204 | 304) {
            return Some(answer);
        }
        if answer
            .header("transfer-encoding")
            .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
        {
            answer.body = read_chunked(conn, buffer).await?;
        } else if let Some(len) = answer.header("content-length") {
            let len: usize = len.parse().ok()?;
            while buffer.len() < len {
                fill(conn, buffer).await?;
            }
            answer.body = buffer.drain(..len).collect();
        } else {
            while fill(conn, buffer).await.is_some() {}
            answer.body = std::mem::take(buffer);
        }
        return Some(answer);
    }
}

/// A chunked body, decoded.
async fn read_chunked(conn: &mut DuplexStream, buffer: &mut Vec<u8>) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = loop {
            if let Some(at) = find(buffer, b"\r\n") {
                break at;
            }
            fill(conn, buffer).await?;
        };
        let size = String::from_utf8_lossy(&buffer[..line]).into_owned();
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        buffer.drain(..line + 2);
        while buffer.len() < size + 2 {
            fill(conn, buffer).await?;
        }
        body.extend(buffer.drain(..size));
        buffer.drain(..2);
        if size == 0 {
            return Some(body);
        }
    }
}

/// Reads more of `conn` into `buffer`; `None` at its end.
async fn fill(conn: &mut DuplexStream, buffer: &mut Vec<u8>) -> Option<()> {
    let mut chunk = [0u8; 8192];
    match conn.read(&mut chunk).await {
        Ok(0) | Err(_) => None,
        Ok(n) => {
            buffer.extend_from_slice(&chunk[..n]);
            Some(())
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The requests of a literal input: text after [`LITERAL`], requests apart by [`NEXT`]
/// lines, each a request line, headers, an empty line and the body. Lines of the head end
/// in CRLF when written; `{director}`, `{account}`, `{competition}`, `{partner}`, `{code}`
/// and `{password}` are the harness's, and `{length}` the body's length. The peer is one of
/// the inputs' addresses, picked by the text's length.
fn literal(text: &[u8], known: &Known) -> (SocketAddr, Vec<Sent>) {
    let text = String::from_utf8_lossy(text);
    let peer = Peer::V4((text.len() % 251) as u8).addr();
    let sent = text
        .split(NEXT)
        .take(4)
        .map(|request| {
            let request = known.fill_in(request);
            let (head, body) = match request.split_once("\n\n") {
                Some((head, body)) => (head.to_owned(), body.to_owned()),
                None => (request.clone(), String::new()),
            };
            let head = head
                .replace("\r\n", "\n")
                .replace('\n', "\r\n")
                .replace("{length}", &body.len().to_string());
            let mut bytes = head.into_bytes();
            bytes.extend_from_slice(b"\r\n\r\n");
            bytes.extend_from_slice(body.as_bytes());
            Sent::new(bytes)
        })
        .collect();
    (peer, sent)
}

impl Known {
    fn fill_in(&self, text: &str) -> String {
        text.replace("{director}", &self.director)
            .replace("{account}", &self.account)
            .replace("{competition}", &self.competition.to_string())
            .replace("{partner}", &self.partner.to_string())
            .replace("{code}", &self.entry_code)
            .replace("{password}", PASSWORD)
    }
}

impl Request {
    fn render(&self, known: &Known) -> Sent {
        match self {
            Request::Raw(bytes) => Sent::new(bytes.clone()),
            Request::Built {
                method,
                path,
                query,
                headers,
                body,
                framing,
            } => {
                let mut target = path.render(known);
                for (i, (key, value)) in query.iter().enumerate() {
                    target.push(if i == 0 { '?' } else { '&' });
                    target.push_str(&key.in_url(known));
                    target.push('=');
                    target.push_str(&value.in_url(known));
                }
                let mut head = format!("{} {target} HTTP/1.1\r\n", method.as_str());
                if !headers.iter().any(|h| matches!(h, Header::Host(_))) {
                    head.push_str("Host: fuzz\r\n");
                }
                for (name, value) in headers.iter().flat_map(|h| h.render(known)) {
                    head.push_str(&format!("{}: {}\r\n", clean(&name), clean(&value)));
                }
                Sent::new(framing.frame(head, &body.render(known)))
            }
        }
    }
}

impl Framing {
    /// The request: `head` (its lines so far), the framing's headers, and `body` framed.
    fn frame(self, mut head: String, body: &[u8]) -> Vec<u8> {
        let length = match self {
            Framing::Length | Framing::Both => Some(body.len()),
            Framing::Short(more) => Some(body.len() + usize::from(more) + 1),
            Framing::Chunked(_) | Framing::Missing => None,
        };
        if let Some(length) = length {
            head.push_str(&format!("Content-Length: {length}\r\n"));
        }
        let chunk = match self {
            Framing::Chunked(size) => Some(usize::from(size).max(1)),
            Framing::Both => Some(body.len().max(1)),
            _ => None,
        };
        if chunk.is_some() {
            head.push_str("Transfer-Encoding: chunked\r\n");
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        match chunk {
            None => bytes.extend_from_slice(body),
            Some(size) => {
                for piece in body.chunks(size) {
                    bytes.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
                    bytes.extend_from_slice(piece);
                    bytes.extend_from_slice(b"\r\n");
                }
                bytes.extend_from_slice(b"0\r\n\r\n");
            }
        }
        bytes
    }
}

/// A header's name or value with the line breaks that would end it taken out.
fn clean(text: &str) -> String {
    text.replace(['\r', '\n'], "")
}

impl Path {
    fn render(&self, known: &Known) -> String {
        match self {
            Path::Route {
                route,
                params,
                trailing_slash,
            } => {
                let route = ROUTES[usize::from(*route) % ROUTES.len()];
                let mut params = params.iter();
                let mut out = String::new();
                for (i, piece) in route.split("{}").enumerate() {
                    if i > 0 {
                        out.push_str(
                            &params
                                .next()
                                .map_or_else(|| known.competition.to_string(), |p| p.render(known)),
                        );
                    }
                    out.push_str(piece);
                }
                if *trailing_slash {
                    out.push('/');
                }
                out
            }
            Path::Segments(segments) => {
                let mut out = String::new();
                for segment in segments.iter().take(8) {
                    out.push('/');
                    out.push_str(&segment.render(known));
                }
                if out.is_empty() {
                    out.push('/');
                }
                out
            }
        }
    }
}

impl Param {
    fn render(&self, known: &Known) -> String {
        match self {
            Param::Competition => known.competition.to_string(),
            Param::Partner => known.partner.to_string(),
            Param::Small(n) => n.to_string(),
            Param::Number(n) => n.to_string(),
            Param::Signed(n) => n.to_string(),
            Param::Word(w) => w.in_url(known),
            Param::Dotted(w, i) => {
                let ext = [".csv", ".pgn", ".pdn", ".json", ".", ".svg"];
                format!("{}{}", w.in_url(known), ext[usize::from(*i) % ext.len()])
            }
        }
    }
}

impl Word {
    fn text(&self, known: &Known) -> String {
        match self {
            Word::Known(i) => WORDS[usize::from(*i) % WORDS.len()].to_owned(),
            Word::Password => PASSWORD.to_owned(),
            Word::Director => known.director.clone(),
            Word::Account => known.account.clone(),
            Word::EntryCode => known.entry_code.clone(),
            Word::Text(t) | Word::Unencoded(t) => t.clone(),
        }
    }

    /// The word in a path or query: percent-encoded (but for [`Word::Unencoded`] and the
    /// known words, which are sent as they are, `%` and all, save spaces).
    fn in_url(&self, known: &Known) -> String {
        let text = self.text(known);
        match self {
            Word::Text(_) | Word::Password => percent_encode(&text),
            Word::Unencoded(_) => clean(&text),
            _ => text.replace(' ', "%20"),
        }
    }
}

fn percent_encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Header {
    /// The header's lines (the WebSocket upgrade's are several).
    fn render(&self, known: &Known) -> Vec<(String, String)> {
        let pick = |list: &[&str], i: u8| list[usize::from(i) % list.len()].to_owned();
        let named = |name: &str, value: String| (name.to_owned(), value);
        vec![match self {
            Header::ContentType(i) => named(
                "Content-Type",
                pick(
                    &[
                        "application/json",
                        "text/csv; charset=utf-8",
                        "text/plain",
                        "application/x-www-form-urlencoded",
                        "multipart/form-data; boundary=x",
                        "application/json; charset=gbk",
                        "",
                    ],
                    *i,
                ),
            ),
            Header::Bearer(w) => named("Authorization", format!("Bearer {}", w.text(known))),
            Header::Authorization(w) => named("Authorization", w.text(known)),
            Header::Cookie(pairs) => {
                let value: Vec<String> = pairs
                    .iter()
                    .take(4)
                    .map(|(name, w)| {
                        let name = match name {
                            Cookie::Director => "qipai_director".to_owned(),
                            Cookie::Account => "qipai_account".to_owned(),
                            Cookie::Other(n) => n.text(known),
                        };
                        format!("{name}={}", w.text(known))
                    })
                    .collect();
                named("Cookie", value.join("; "))
            }
            Header::Origin(i) => named(
                "Origin",
                pick(
                    &[
                        "http://fuzz",
                        "https://fuzz",
                        "http://evil.example",
                        "null",
                        "fuzz",
                    ],
                    *i,
                ),
            ),
            Header::Host(w) => named("Host", w.text(known)),
            Header::SecFetchSite(i) => named(
                "Sec-Fetch-Site",
                pick(&["same-origin", "same-site", "cross-site", "none"], *i),
            ),
            Header::AcceptEncoding(i) => named(
                "Accept-Encoding",
                pick(&["gzip", "gzip, br", "identity", "*", "gzip;q=0"], *i),
            ),
            Header::IfNoneMatch(w) => named("If-None-Match", w.text(known)),
            Header::ForwardedFor(f) => {
                let value = match f {
                    ForwardedFor::Peer(p) => p.addr().ip().to_string(),
                    ForwardedFor::Harness => HARNESS_ADDR.to_string(),
                    ForwardedFor::Many(peers) => peers
                        .iter()
                        .take(4)
                        .map(|p| p.addr().ip().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    ForwardedFor::Text(w) => w.text(known),
                };
                named("X-Forwarded-For", value)
            }
            Header::Upgrade(bits) => {
                let all = [
                    ("Upgrade", "websocket"),
                    ("Connection", "Upgrade"),
                    ("Sec-WebSocket-Version", "13"),
                    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                ];
                return all
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, (n, v))| ((*n).to_owned(), (*v).to_owned()))
                    .collect();
            }
            Header::Expect => named("Expect", "100-continue".to_owned()),
            Header::Close => named("Connection", "close".to_owned()),
            Header::Other(n, v) => (n.text(known), v.text(known)),
        }]
    }
}

impl Payload {
    fn render(&self, known: &Known) -> Vec<u8> {
        match self {
            Payload::None => Vec::new(),
            Payload::Json(j) => j.value(known).to_string().into_bytes(),
            Payload::Form(f) => f.render(known).into_bytes(),
            Payload::Bytes(b) => b.clone(),
        }
    }
}

impl Json {
    fn value(&self, known: &Known) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => json!(b),
            Json::Small(n) => json!(n),
            Json::Int(n) => json!(n),
            Json::Big(n) => json!(n),
            Json::Float(x) => json!(x),
            Json::Str(w) => json!(w.text(known)),
            Json::Array(items) => Value::Array(items.iter().map(|j| j.value(known)).collect()),
            Json::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.text(known), v.value(known)))
                    .collect(),
            ),
        }
    }
}

impl Form {
    fn render(&self, known: &Known) -> String {
        let end = if self.crlf { "\r\n" } else { "\n" };
        let mut out = String::new();
        if self.bom {
            out.push('\u{feff}');
        }
        if self.header {
            out.push_str("department,event,pair,name,phone,joined_group");
            out.push_str(end);
        }
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(|w| w.text(known)).collect();
            out.push_str(&cells.join(","));
            out.push_str(end);
        }
        out
    }
}
