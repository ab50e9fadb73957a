//! PROTOCOL.md §14 "A complete session", played for real: Wu opens a 10+5 table as Red, Li
//! finds it and joins, they play four moves, Li offers a draw that Wu declines, Wu resigns
//! and both leave. Every frame is written down as it went over the socket (MessagePack shown
//! as JSON, map keys in the order sent), so the page's transcript is this test's output:
//!
//! ```text
//! QIPAI_TRANSCRIPT=/tmp/session.txt cargo test -p qipai-server --test transcript
//! ```
//!
//! Without the variable the session is still played and each answer checked.

mod common;

use std::fmt::Write as _;
use std::time::Duration;

use common::{TestServer, PATIENCE};
use futures_util::{SinkExt, StreamExt};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A decoded frame as JSON text in the page's style (`{"type": "ok", "seq": 3}`), keys in
/// the order they were sent, lists of legal moves cut to their first and their length.
struct Shown(String);

impl<'de> Deserialize<'de> for Shown {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shown, D::Error> {
        d.deserialize_any(ShowVisitor).map(Shown)
    }
}

struct ShowVisitor;

impl<'de> Visitor<'de> for ShowVisitor {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a MessagePack value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(Value::from(v).to_string())
    }
    fn visit_unit<E>(self) -> Result<String, E> {
        Ok("null".into())
    }
    fn visit_none<E>(self) -> Result<String, E> {
        Ok("null".into())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<String, A::Error> {
        let mut items = Vec::new();
        while let Some(Shown(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(format!("[{}]", items.join(", ")))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        let mut entries = Vec::new();
        while let Some((Shown(key), Shown(value))) = map.next_entry()? {
            let value = if key == "\"legal_moves\"" {
                cut(&value)
            } else {
                value
            };
            entries.push(format!("{key}: {value}"));
        }
        Ok(format!("{{{}}}", entries.join(", ")))
    }
}

/// `["a0a1", "a0a2", …]` as `["a0a1", … 44 in all]`.
fn cut(list: &str) -> String {
    let moves: Vec<&str> = list
        .trim_matches(|c| c == '[' || c == ']')
        .split(", ")
        .filter(|m| !m.is_empty())
        .collect();
    match moves.as_slice() {
        [] | [_] => list.to_owned(),
        [first, ..] => format!("[{first}, … {} in all]", moves.len()),
    }
}

/// A client message as JSON text, its keys kept in the order written, so that it is sent
/// as the page shows it (`type` first).
enum Ordered {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Seq(Vec<Ordered>),
    Map(Vec<(String, Ordered)>),
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        d.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a client message as JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Ordered, E> {
        Ok(Ordered::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Ordered, E> {
        Ok(Ordered::Int(v))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Ordered, E> {
        i64::try_from(v).map(Ordered::Int).map_err(E::custom)
    }
    fn visit_str<E>(self, v: &str) -> Result<Ordered, E> {
        Ok(Ordered::Str(v.to_owned()))
    }
    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Ordered::Map(entries))
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Ordered::Null => s.serialize_unit(),
            Ordered::Bool(v) => s.serialize_bool(*v),
            Ordered::Int(v) => s.serialize_i64(*v),
            Ordered::Str(v) => s.serialize_str(v),
            Ordered::Seq(items) => s.collect_seq(items),
            Ordered::Map(entries) => s.collect_map(entries.iter().map(|(k, v)| (k, v))),
        }
    }
}

/// One side of the session: a raw WebSocket that writes down what it sends and receives.
struct Peer {
    name: &'static str,
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Peer {
    async fn connect(server: &TestServer, name: &'static str) -> Peer {
        let (ws, _) = tokio_tungstenite::connect_async(server.url())
            .await
            .expect("connect");
        Peer { name, ws }
    }

    /// Sends `msg`, JSON text, as MessagePack with its keys in the order written.
    async fn send(&mut self, log: &mut String, msg: &str) {
        let msg: Ordered = serde_json::from_str(msg).expect("a JSON message");
        let bytes = rmp_serde::to_vec_named(&msg).expect("encode");
        let shown: Shown = rmp_serde::from_slice(&bytes).expect("decode");
        let _ = writeln!(log, "{} → {}", self.name, shown.0);
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// The next frame: as shown, and as a value to check.
    async fn recv(&mut self) -> (String, Value) {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("a frame in time")
                .expect("open")
                .expect("a frame");
            if let Message::Binary(bytes) = frame {
                let shown: Shown = rmp_serde::from_slice(&bytes).expect("show");
                let value: Value = rmp_serde::from_slice(&bytes).expect("decode");
                return (shown.0, value);
            }
        }
    }

    /// Receives the next frame, writes it down and returns it.
    async fn takes(&mut self, log: &mut String) -> Value {
        let (shown, value) = self.recv().await;
        let _ = writeln!(log, "{} ← {shown}", self.name);
        value
    }
}

/// The same event to both sides: written once as `A,B ←` (the copy with the legal moves,
/// which only the side to move gets) when the two differ only in those.
async fn both(a: &mut Peer, b: &mut Peer, log: &mut String) -> Value {
    let (shown_a, value_a) = a.recv().await;
    let (shown_b, value_b) = b.recv().await;
    let bare = |v: &Value| {
        let mut v = v.clone();
        if let Some(e) = v.pointer_mut("/event/legal_moves") {
            *e = json!([]);
        }
        v
    };
    assert_eq!(bare(&value_a), bare(&value_b), "{shown_a}\n{shown_b}");
    let has_moves = |v: &Value| {
        v.pointer("/event/legal_moves")
            .and_then(Value::as_array)
            .is_some_and(|l| !l.is_empty())
    };
    let shown = if has_moves(&value_b) {
        shown_b
    } else {
        shown_a
    };
    let _ = writeln!(log, "A,B ← {shown}");
    value_a
}

fn field<'a>(v: &'a Value, path: &str) -> &'a Value {
    v.pointer(path)
        .unwrap_or_else(|| panic!("{path} missing in {v}"))
}

fn mv(seq: u64, iccs: &str) -> String {
    format!(
        r#"{{"type": "xiangqi", "seq": {seq}, "action": {{"type": "move", "iccs": "{iccs}"}}}}"#
    )
}

fn act(seq: u64, action: &str) -> String {
    format!(r#"{{"type": "xiangqi", "seq": {seq}, "action": {{"type": "{action}"}}}}"#)
}

/// The session of PROTOCOL.md §14, each answer checked; written to `QIPAI_TRANSCRIPT`
/// when set.
#[tokio::test]
async fn the_complete_session_of_the_protocol_page() {
    let server = TestServer::default().await;
    let mut log = String::new();
    let l = &mut log;
    let think = Duration::from_millis(300);

    let mut a = Peer::connect(&server, "A").await;
    a.send(
        l,
        r#"{"type": "hello", "protocol_version": 3, "name": "Wu"}"#,
    )
    .await;
    assert_eq!(field(&a.takes(l).await, "/type"), "welcome");
    a.send(
        l,
        r#"{"type": "create_room", "seq": 1, "options": {"game": "xiangqi", "time_control": "10+5"}, "seat": 0}"#,
    )
    .await;
    assert_eq!(field(&a.takes(l).await, "/type"), "joined");
    assert_eq!(field(&a.takes(l).await, "/type"), "snapshot");

    let mut b = Peer::connect(&server, "B").await;
    b.send(
        l,
        r#"{"type": "hello", "protocol_version": 3, "name": "Li"}"#,
    )
    .await;
    assert_eq!(field(&b.takes(l).await, "/type"), "welcome");
    b.send(l, r#"{"type": "list_rooms", "seq": 1}"#).await;
    let rooms = b.takes(l).await;
    let room = field(&rooms, "/rooms/0/room_id").clone();
    b.send(
        l,
        &format!(r#"{{"type": "join", "seq": 2, "room_id": {room}}}"#),
    )
    .await;
    assert_eq!(field(&b.takes(l).await, "/type"), "joined");
    assert_eq!(field(&b.takes(l).await, "/type"), "snapshot");
    assert_eq!(field(&a.takes(l).await, "/event/type"), "joined");
    assert_eq!(
        field(&both(&mut a, &mut b, l).await, "/event/type"),
        "started"
    );

    a.send(
        l,
        r#"{"type": "ping", "seq": 2, "client_time": 1700000000000}"#,
    )
    .await;
    assert_eq!(field(&a.takes(l).await, "/type"), "pong");

    a.send(l, &mv(3, "h2e2")).await;
    assert_eq!(field(&a.takes(l).await, "/type"), "ok");
    both(&mut a, &mut b, l).await;
    let _ = writeln!(
        l,
        "     (Red's first move was free of charge and earned the 5 s increment)"
    );

    a.send(l, &mv(4, "h0g2")).await;
    assert_eq!(field(&a.takes(l).await, "/code"), "not_your_turn");
    b.send(l, &mv(3, "a9a5")).await;
    assert_eq!(field(&b.takes(l).await, "/code"), "illegal_move");

    tokio::time::sleep(think).await;
    b.send(l, &mv(4, "h9g7")).await;
    assert_eq!(field(&b.takes(l).await, "/type"), "ok");
    let moved = both(&mut a, &mut b, l).await;
    assert_eq!(field(&moved, "/event/clocks/running"), "red");
    let _ = writeln!(l, "     (both sides have moved: Red's clock now runs)");

    tokio::time::sleep(think).await;
    a.send(l, &mv(5, "h0g2")).await;
    assert_eq!(field(&a.takes(l).await, "/type"), "ok");
    let moved = both(&mut a, &mut b, l).await;
    let red_ms = field(&moved, "/event/clocks/red_ms").as_u64().unwrap_or(0);
    // 10 minutes, +5 s for the free first move, +5 s for this one, less what it used.
    let used = (600_000 + 2 * 5_000u64).saturating_sub(red_ms);
    assert!(used < 5_000, "Red was charged {used} ms");
    let _ = writeln!(
        l,
        "     (Red was charged {used} ms, from the moment its position was sent; each of its two moves earned 5 s)"
    );

    b.send(l, &act(5, "offer_draw")).await;
    assert_eq!(field(&b.takes(l).await, "/type"), "ok");
    both(&mut a, &mut b, l).await;
    a.send(l, &act(6, "decline_draw")).await;
    assert_eq!(field(&a.takes(l).await, "/type"), "ok");
    both(&mut a, &mut b, l).await;
    b.send(l, &act(6, "offer_draw")).await;
    assert_eq!(field(&b.takes(l).await, "/code"), "draw_offer_limit");

    tokio::time::sleep(think).await;
    b.send(l, &mv(7, "i9h9")).await;
    assert_eq!(field(&b.takes(l).await, "/type"), "ok");
    both(&mut a, &mut b, l).await;

    a.send(l, &act(7, "resign")).await;
    assert_eq!(field(&a.takes(l).await, "/type"), "ok");
    let over = both(&mut a, &mut b, l).await;
    assert_eq!(field(&over, "/event/result/reason"), "resignation");
    a.send(l, &act(8, "resign")).await;
    assert_eq!(field(&a.takes(l).await, "/code"), "game_over");

    a.send(l, r#"{"type": "leave", "seq": 9}"#).await;
    assert_eq!(field(&a.takes(l).await, "/type"), "left");
    assert_eq!(field(&b.takes(l).await, "/event/type"), "left");
    b.send(l, r#"{"type": "leave", "seq": 9}"#).await;
    assert_eq!(field(&b.takes(l).await, "/type"), "left");
    let _ = writeln!(l, "     (the room is now empty and closes)");

    if let Some(path) = std::env::var_os("QIPAI_TRANSCRIPT") {
        std::fs::write(path, &log).expect("write the transcript");
    }
}
