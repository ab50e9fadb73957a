//! The password-hashing pool under attack (docs/accounts.md, "Passwords and the hashing
//! pool"): 40 addresses each sending 5 wrong director logins at once — within each address's
//! free failures, so only the pool stands in their way — at the real Argon2id cost (19 MiB, 2
//! passes). The checks run at most `[passwords] threads` at a time, the rest wait in a short
//! queue or are refused at once with `429 password_checks_busy` and `Retry-After`; the
//! process's threads stay bounded, and xiangqi games on the same server keep moving.
//!
//! The test prints the median and the 99th percentile of the reference games' move times,
//! calm and attacked, and their ratio (the figures in docs/accounts.md). It does not assert
//! the ratio: on a shared machine it is noise-bound, and a test that fails one run in twenty
//! is worse than none.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::competition::{parse, PASSWORD};
use common::{header, metric, xiangqi_pair, TestServer, PATIENCE};
use qipai_protocol::xiangqi::XiangqiOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ADDRESSES: u8 = 40;
const LOGINS_EACH: usize = 5;

/// The opening both reference games play (legal from the start, no repetition).
const MOVES: [&str; 10] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5",
];

/// The process's threads now (this test's server runs in it).
fn threads() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("Threads:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// A wrong director login from the local address `ip`: the status and the reply.
async fn wrong_login(addr: SocketAddr, ip: String) -> (u16, String) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::new(ip.parse().expect("ip"), 0))
        .expect("bind");
    let mut tcp = socket.connect(addr).await.expect("connect");
    let body = r#"{"name":"director","password":"a wrong guess"}"#;
    let request = format!(
        "POST /api/director/login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(PATIENCE * 4, tcp.read_to_end(&mut reply)).await;
    let reply = String::from_utf8_lossy(&reply).into_owned();
    (parse(&reply).0, reply)
}

/// The pause after each move: players think between moves, and a reference game played
/// flat out would itself keep both cores busy and crowd out the hashing it is measured
/// against.
const PACE: Duration = Duration::from_millis(2);

/// The time each move of the opening takes to be answered `ok`, red and black in turn, at a
/// new table.
async fn play_opening(s: &TestServer) -> Vec<Duration> {
    let (mut red, mut black, _) = xiangqi_pair(s, XiangqiOptions::default()).await;
    let mut took = Vec::new();
    for (i, m) in MOVES.iter().enumerate() {
        let player = if i % 2 == 0 { &mut red } else { &mut black };
        let start = Instant::now();
        player.play(m).await;
        took.push(start.elapsed());
        tokio::time::sleep(PACE).await;
    }
    took
}

/// The `p`-th percentile (nearest rank) of `took`.
fn percentile(took: &[Duration], p: usize) -> Duration {
    let mut sorted = took.to_vec();
    sorted.sort();
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted.get(rank - 1).copied().unwrap_or_default()
}

/// "p50 …, p99 …, slowest … of N moves".
fn summary(took: &[Duration]) -> String {
    format!(
        "p50 {:?}, p99 {:?}, slowest {:?} of {} moves",
        percentile(took, 50),
        percentile(took, 99),
        percentile(took, 100),
        took.len()
    )
}

/// How long openings are played before the attack, for the calm figures (about as many
/// moves as the attack lasts for).
const CALM: Duration = Duration::from_secs(1);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_addresses_guessing_at_once_are_bounded_and_the_game_moves() {
    let hash = qipai_server::competition::auth::hash_password(PASSWORD).unwrap();
    let s = TestServer::start(|c| {
        c.director.password_hash = hash;
        c.passwords.threads = 2;
        c.passwords.queue = 16;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
        // Every opening is a new table of two new connections from this one address.
        c.limits.max_rooms = 100_000;
        c.limits.rooms_per_addr = 100_000;
        c.limits.connect_rate_per_addr = 10_000;
        c.limits.connect_burst_per_addr = 10_000;
    })
    .await;
    let mut calm = Vec::new();
    let began = Instant::now();
    while began.elapsed() < CALM {
        calm.extend(play_opening(&s).await);
    }
    let before = threads();

    let addr = s.addr;
    let logins: Vec<_> = (0..ADDRESSES)
        .flat_map(|a| (0..LOGINS_EACH).map(move |_| format!("127.0.3.{}", a + 1)))
        .map(|ip| tokio::spawn(wrong_login(addr, ip)))
        .collect();
    let attack = tokio::spawn(async move {
        let mut replies = Vec::new();
        for login in logins {
            replies.push(login.await.expect("attacker"));
        }
        replies
    });
    let peak = tokio::spawn(async move {
        let mut peak = 0;
        for _ in 0..200 {
            peak = peak.max(threads());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        peak
    });
    let began = Instant::now();
    // Every opening begun while the attack is still being answered.
    let mut attacked = Vec::new();
    loop {
        attacked.extend(play_opening(&s).await);
        if attack.is_finished() {
            break;
        }
    }
    let lasted = began.elapsed();
    let mut busy = 0;
    let mut wrong = 0;
    for (status, reply) in attack.await.expect("attack") {
        match status {
            401 => wrong += 1,
            429 => {
                assert!(reply.contains("password_checks_busy"), "{reply}");
                assert_eq!(header(&reply, "retry-after"), Some("1"));
                busy += 1;
            }
            other => panic!("{other}: {reply}"),
        }
    }
    let peak = peak.await.expect("sampler");
    let ratio = percentile(&attacked, 99).as_secs_f64() / percentile(&calm, 99).as_secs_f64();
    eprintln!(
        "wrong {wrong}, busy {busy}; threads {before} before, {peak} at most; \
         calm: {}; attacked ({lasted:?}): {}; p99 attacked/calm {ratio:.2}",
        summary(&calm),
        summary(&attacked)
    );
    assert_eq!(wrong + busy, usize::from(ADDRESSES) * LOGINS_EACH);
    assert!(busy > 0 && wrong >= 2, "wrong {wrong}, busy {busy}");
    // Two hashing threads, and a few the runtime may start meanwhile; unbounded, it was
    // one thread per login in flight (141–204 measured).
    assert!(
        peak <= before + 8,
        "threads {before} before, {peak} at most"
    );
    let slowest = percentile(&attacked, 100);
    assert!(slowest < Duration::from_secs(1), "a move took {slowest:?}");
    let refused = metric(&s, "qipai_password_checks_total{outcome=\"refused\"}").await;
    assert_eq!(refused as usize, busy);
    assert_eq!(
        metric(&s, "qipai_password_hashing{what=\"threads\"}").await,
        2.0
    );
}
