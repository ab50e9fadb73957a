//! What the record tests share: seeded choices, a store file of their own, and a finished
//! game's record fetched over HTTP.

use super::{http_get, TestServer};

/// A small deterministic generator (xorshift), so that a seed replays a run.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The body of an HTTP answer, which must be `200`.
pub fn body(answer: &str) -> &str {
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    answer.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

/// A server on a SQLite file of its own (`name` in the file's name), people's rate limit
/// lifted: the tests ask for a snapshot before every ply and play as fast as it answers.
pub async fn server_with_store(name: &str) -> TestServer {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let file = std::env::temp_dir()
        .join(format!("qipai_{name}_{}_{nanos}.db", std::process::id()))
        .display()
        .to_string();
    TestServer::start(move |c| {
        c.store.url = file;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
    })
    .await
}

/// Room `room`'s record as `/api/games/{room}.{ext}` (waiting for it: the record is written
/// with the result) and as JSON. With the environment variable `dir_var` set, both are also
/// written there as `{name}.{ext}` and `{name}.json`, for the checking scripts.
pub async fn record_files(
    server: &TestServer,
    room: u64,
    ext: &str,
    name: &str,
    dir_var: &str,
) -> (String, String) {
    let mut text = String::new();
    for _ in 0..200 {
        let answer = http_get(server, &format!("/api/games/{room}.{ext}")).await;
        if answer.starts_with("HTTP/1.1 200") {
            text = body(&answer).to_owned();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(!text.is_empty(), "{name}: no .{ext} for room {room}");
    let json = body(&http_get(server, &format!("/api/games/{room}")).await).to_owned();
    if let Ok(dir) = std::env::var(dir_var) {
        std::fs::create_dir_all(&dir).expect("the records' folder");
        std::fs::write(format!("{dir}/{name}.{ext}"), &text).expect("write the record");
        std::fs::write(format!("{dir}/{name}.json"), &json).expect("write the JSON");
    }
    (text, json)
}
