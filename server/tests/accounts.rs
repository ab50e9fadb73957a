//! Accounts over real sockets (docs/accounts.md, PROTOCOL.md "Accounts over HTTP"): sign up,
//! sign in and out, a password changed and an account deleted; the WebSocket playing as the
//! account by its token in `hello` or by the page's cookie; guests refused a registered name
//! and its look-alikes; sessions surviving a restart; writes from another site refused;
//! guessing limited per address and per account.

mod common;

use std::net::SocketAddr;

use common::competition::parse;
use common::{header, http, store_file, Client, TestServer, PATIENCE};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PASSWORD: &str = "correct horse";

/// A server on its own store, with a cheap hash cost and long waits after failures.
async fn server(store: &str) -> TestServer {
    let store = store.to_owned();
    TestServer::start(move |c| {
        c.store.url = store;
        c.passwords.memory_kib = 64;
        c.passwords.passes = 1;
        c.accounts.signin_delay_ms = 60_000;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
    })
    .await
}

/// `POST path` with `body` and extra header lines; the status, the JSON and the reply.
async fn post(s: &TestServer, path: &str, headers: &[&str], body: &Value) -> (u16, Value, String) {
    let reply = http(s, "POST", path, headers, &body.to_string()).await;
    let (status, v) = parse(&reply);
    (status, v, reply)
}

fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or_default()
}

/// Signs up `name`; the session's token.
async fn sign_up(s: &TestServer, name: &str) -> String {
    let (status, v, _) = post(
        s,
        "/api/account/signup",
        &[],
        &json!({ "name": name, "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().expect("token").to_owned()
}

/// `GET /api/account` with the bearer token: the account's name, if the session is live.
async fn who(s: &TestServer, token: &str) -> Option<String> {
    let auth = format!("Authorization: Bearer {token}");
    let (status, v) = parse(&http(s, "GET", "/api/account", &[&auth], "").await);
    assert_eq!(status, 200, "{v}");
    v["account"]["name"].as_str().map(str::to_owned)
}

/// The `hello` of a new connection: its answer (welcome or the refusal).
async fn hello(c: &mut Client, name: &str, account_token: Option<&str>) -> ServerMsg {
    c.send(&ClientMsg::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: name.into(),
        resume_token: None,
        account_token: account_token.map(str::to_owned),
    })
    .await;
    c.recv().await
}

/// The name the server seats `c` under: it creates a xiangqi table and lists it.
async fn seated_name(c: &mut Client) -> String {
    let room = c.create_xiangqi(XiangqiOptions::default(), Some(0)).await;
    let seq = c.seq();
    c.send(&ClientMsg::ListRooms {
        seq,
        game: None,
        limit: None,
        after: None,
    })
    .await;
    match c.until(|m| matches!(m, ServerMsg::Rooms { .. })).await {
        ServerMsg::Rooms { rooms, .. } => rooms
            .into_iter()
            .find(|r| r.room_id == room)
            .and_then(|r| r.seats.into_iter().flatten().next())
            .map(|seat| seat.name)
            .expect("the table and its seat"),
        _ => unreachable!(),
    }
}

/// A guest's hello with `name` is refused with `code`.
async fn guest_refused(s: &TestServer, name: &str, code: ErrorCode) {
    let mut c = Client::connect(s).await;
    match hello(&mut c, name, None).await {
        ServerMsg::Error { code: got, .. } => assert_eq!(got, code, "{name:?}"),
        other => panic!("{name:?}: expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn an_account_signs_up_plays_under_its_name_and_keeps_it_from_guests() {
    let file = store_file("accounts_life");
    let s = server(&file).await;
    let (status, v, reply) = post(
        &s,
        "/api/account/signup",
        &[],
        &json!({ "name": "Alice", "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["account"]["name"], "Alice");
    let cookie = header(&reply, "set-cookie").expect("a cookie");
    for part in ["qipai_account=", "HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    let token = v["token"].as_str().unwrap().to_owned();
    assert_eq!(who(&s, &token).await.as_deref(), Some("Alice"));

    // Nobody else takes the name or a look-alike of it.
    for taken in ["alice", "ＡＬＩＣＥ", "\u{0410}lice", "Al\u{0456}ce"] {
        let body = json!({ "name": taken, "password": PASSWORD });
        let (status, v, _) = post(&s, "/api/account/signup", &[], &body).await;
        assert_eq!((status, error_code(&v)), (409, "name_taken"), "{taken:?}");
        guest_refused(&s, taken, ErrorCode::NameTaken).await;
    }
    let short = json!({ "name": "Bob", "password": "short" });
    let (status, v, _) = post(&s, "/api/account/signup", &[], &short).await;
    assert_eq!((status, error_code(&v)), (400, "weak_password"));
    let bot = json!({ "name": "Вot 1", "password": PASSWORD });
    let (status, v, _) = post(&s, "/api/account/signup", &[], &bot).await;
    assert_eq!((status, error_code(&v)), (400, "bad_name"));

    // The WebSocket plays as the account: by the token in hello, whatever name it types…
    let mut c = Client::connect(&s).await;
    assert!(matches!(
        hello(&mut c, "Mallory", Some(&token)).await,
        ServerMsg::Welcome { .. }
    ));
    assert_eq!(seated_name(&mut c).await, "Alice");
    // …or by the page's cookie on the upgrade.
    let mut c = connect_with_cookie(&s, &token).await;
    assert!(matches!(
        hello(&mut c, "", None).await,
        ServerMsg::Welcome { .. }
    ));
    assert_eq!(seated_name(&mut c).await, "Alice");
    let mut c = Client::connect(&s).await;
    match hello(&mut c, "x", Some("no such session")).await {
        ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::AccountRequired),
        other => panic!("{other:?}"),
    }

    // Signing in: a wrong password is refused, the right one opens another session.
    let wrong = json!({ "name": "alice", "password": "not the password" });
    let (status, v, _) = post(&s, "/api/account/signin", &[], &wrong).await;
    assert_eq!((status, error_code(&v)), (401, "bad_credentials"));
    let right = json!({ "name": "ALICE", "password": PASSWORD });
    let (status, v, _) = post(&s, "/api/account/signin", &[], &right).await;
    assert_eq!(status, 200, "{v}");
    let second = v["token"].as_str().unwrap().to_owned();

    // Sessions survive a restart on the same store.
    s.stop();
    let s = server(&file).await;
    assert_eq!(who(&s, &token).await.as_deref(), Some("Alice"));

    // Signing out ends that session only.
    let auth = format!("Authorization: Bearer {token}");
    let (status, _, reply) = post(&s, "/api/account/signout", &[&auth], &json!({})).await;
    assert_eq!(status, 200);
    assert!(header(&reply, "set-cookie").is_some_and(|c| c.contains("Max-Age=0")));
    assert_eq!(who(&s, &token).await, None);
    assert_eq!(who(&s, &second).await.as_deref(), Some("Alice"));

    // A new password ends every session and opens a new one.
    let auth = format!("Authorization: Bearer {second}");
    let change = json!({ "password": PASSWORD, "new_password": "battery staple" });
    let (status, v, _) = post(&s, "/api/account/password", &[&auth], &change).await;
    assert_eq!(status, 200, "{v}");
    let third = v["token"].as_str().unwrap().to_owned();
    assert_eq!(who(&s, &second).await, None);
    assert_eq!(who(&s, &third).await.as_deref(), Some("Alice"));

    // Deleting frees the name; the session ends.
    let auth = format!("Authorization: Bearer {third}");
    let wrong = json!({ "password": PASSWORD });
    let (status, v, _) = post(&s, "/api/account/delete", &[&auth], &wrong).await;
    assert_eq!((status, error_code(&v)), (401, "bad_credentials"));
    let delete = json!({ "password": "battery staple" });
    let (status, v, _) = post(&s, "/api/account/delete", &[&auth], &delete).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(who(&s, &third).await, None);
    let mut guest = Client::connect(&s).await;
    assert!(matches!(
        hello(&mut guest, "Alice", None).await,
        ServerMsg::Welcome { .. }
    ));
    sign_up(&s, "alice").await;
}

/// A WebSocket whose upgrade carries the account's cookie, from the server's own page.
async fn connect_with_cookie(s: &TestServer, token: &str) -> Client {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = s.url().into_client_request().expect("request");
    let h = request.headers_mut();
    h.insert("cookie", format!("qipai_account={token}").parse().unwrap());
    h.insert("origin", format!("http://{}", s.addr).parse().unwrap());
    Client::on_request(request).await
}

/// A cookie-authenticated write from another site's page is refused before it is read, and
/// so is a sign-in from one; the server's own page (its `Origin`) and clients that send no
/// `Origin` are served.
#[tokio::test]
async fn writes_from_another_site_are_refused() {
    let s = server(&store_file("accounts_csrf")).await;
    let token = sign_up(&s, "Carol").await;
    let cookie = format!("Cookie: qipai_account={token}");
    for elsewhere in ["Origin: https://evil.example", "Sec-Fetch-Site: cross-site"] {
        let (status, v, _) = post(
            &s,
            "/api/account/signout",
            &[&cookie, elsewhere],
            &json!({}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (403, "cross_origin"),
            "{elsewhere}"
        );
        let body = json!({ "password": PASSWORD });
        let (status, v, _) = post(&s, "/api/account/delete", &[&cookie, elsewhere], &body).await;
        assert_eq!(
            (status, error_code(&v)),
            (403, "cross_origin"),
            "{elsewhere}"
        );
        let body = json!({ "name": "Carol", "password": PASSWORD });
        let (status, v, _) = post(&s, "/api/account/signin", &[elsewhere], &body).await;
        assert_eq!(
            (status, error_code(&v)),
            (403, "cross_origin"),
            "{elsewhere}"
        );
    }
    assert_eq!(who(&s, &token).await.as_deref(), Some("Carol"));
    // The helper's requests say `Host: x`: a page of http://x is this server's own.
    let own = "Origin: http://x";
    let (status, v, _) = post(
        &s,
        "/api/account/signout",
        &[&cookie, own, "Sec-Fetch-Site: same-origin"],
        &json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(who(&s, &token).await, None);
}

/// `POST path` over a connection from the local address `ip`; status and JSON.
async fn post_from(s: &TestServer, ip: &str, path: &str, body: &Value) -> (u16, Value) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::new(ip.parse().expect("ip"), 0))
        .expect("bind");
    let mut tcp = socket.connect(s.addr).await.expect("connect");
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, tcp.read_to_end(&mut reply)).await;
    parse(&String::from_utf8_lossy(&reply))
}

/// Guessing one account's password: one address is stopped after its free failures (the
/// right password then refused too), and many addresses together after the account's.
#[tokio::test]
async fn guessing_is_limited_per_address_and_per_account() {
    let s = server(&store_file("accounts_guess")).await;
    sign_up(&s, "Dave").await;
    sign_up(&s, "Erin").await;
    let guess = |name: &str| json!({ "name": name, "password": "a wrong guess" });
    let right = |name: &str| json!({ "name": name, "password": PASSWORD });

    let mut refused_at = None;
    for attempt in 1..=8 {
        let (status, v) = post_from(&s, "127.0.0.2", "/api/account/signin", &guess("Dave")).await;
        if status == 429 {
            assert_eq!(error_code(&v), "too_many_attempts");
            refused_at = Some(attempt);
            break;
        }
        assert_eq!((status, error_code(&v)), (401, "bad_credentials"));
    }
    assert!(refused_at.is_some_and(|n| n <= 6), "{refused_at:?}");
    let (status, _) = post_from(&s, "127.0.0.2", "/api/account/signin", &right("Erin")).await;
    assert_eq!(status, 429, "the address waits, whatever it tries");

    // One wrong guess from each of many addresses: the account waits after its ten.
    let mut refused_at = None;
    for n in 0..14 {
        let ip = format!("127.0.1.{}", n + 1);
        let (status, v) = post_from(&s, &ip, "/api/account/signin", &guess("Erin")).await;
        if status == 429 {
            refused_at = Some(n + 1);
            break;
        }
        assert_eq!((status, error_code(&v)), (401, "bad_credentials"));
    }
    assert!(refused_at.is_some_and(|n| n <= 11), "{refused_at:?}");
    let (status, v) = post_from(&s, "127.0.2.1", "/api/account/signin", &right("Erin")).await;
    assert_eq!((status, error_code(&v)), (429, "too_many_attempts"));
    // Another account is not held up by it.
    let (status, v) = post_from(&s, "127.0.2.2", "/api/account/signin", &right("Dave")).await;
    assert_eq!(status, 200, "{v}");
}
