//! `--attack KIND`: a hostile client beside a well-behaved reference load, to check that no
//! one client or address can take the server past its budgets or lock others out.
//!
//! The reference load (the usual `--tables`, `--game`, …) is measured twice in one run:
//! alone, then with the attack going on from its own loopback address (127.0.0.66, so the
//! per-address budgets meet the attacker, not the reference). Reported: the reference's
//! p99 to `ok` both times, their ratio, and the server's peak RSS both times. Every attack
//! loop is bounded in time (the measured run) and in concurrency.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{encode, ClientMsg, RoomOptions, PROTOCOL_VERSION};
use serde::Serialize;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::options::Options;
use crate::{procfs, run, LoadtestError};

/// The attacker's own loopback address.
const ATTACKER: &str = "127.0.0.66";

/// Attack loops running at once.
const WORKERS: usize = 32;

/// What the hostile client does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// Connect, hello, `create_room` with bots (xiangqi bots asked to think 60 s, and
    /// Tuolaji tables), disconnect; again.
    Rooms,
    /// Connections that send pings as fast as they can and never read.
    Pings,
    /// Connections that say hello and then neither read nor answer pings, as many as the
    /// server lets in.
    Idle,
    /// Connections that start a 60 KB frame, send a little of it, and stop.
    HalfFrames,
    /// `list_rooms` over and over without reading the answers.
    ListRooms,
}

/// The figures of an attack run.
#[derive(Clone, Debug, Serialize)]
pub struct AttackReport {
    pub attack: AttackKind,
    /// The reference's p99 to `ok`, in µs, without and with the attack.
    pub p99_off_us: u64,
    pub p99_on_us: u64,
    pub p99_ratio: f64,
    /// The reference's failures with the attack on (must stay 0).
    pub conn_errors_on: u64,
    /// The server's peak RSS while each phase ran, in KiB.
    pub rss_peak_off_kib: u64,
    pub rss_peak_on_kib: u64,
    /// Attack connections opened, and those the server closed or refused.
    pub attack_connections: u64,
    pub attack_closed: u64,
}

impl AttackReport {
    /// The one JSON line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl std::fmt::Display for AttackReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "attack {:?}: reference p99 to ok {:.2} ms off, {:.2} ms on ({:.2}×); \
             server peak RSS {} KiB off, {} KiB on; {} attack connections, {} closed by the server",
            self.attack,
            self.p99_off_us as f64 / 1000.0,
            self.p99_on_us as f64 / 1000.0,
            self.p99_ratio,
            self.rss_peak_off_kib,
            self.rss_peak_on_kib,
            self.attack_connections,
            self.attack_closed
        )
    }
}

/// Counters the attack loops share.
#[derive(Default)]
struct Tally {
    opened: AtomicU64,
    closed: AtomicU64,
    stop: AtomicBool,
}

/// Runs the reference load alone, then beside `kind`.
///
/// # Errors
/// As [`run`].
pub async fn run_attack(
    opts: &Options,
    kind: AttackKind,
    server_pid: Option<u32>,
) -> Result<AttackReport, LoadtestError> {
    let (off, rss_off) = with_peak_rss(server_pid, run(opts, server_pid)).await;
    let off = off?;
    let tally = Arc::new(Tally::default());
    let addr = server_addr(&opts.url);
    let workers: Vec<_> = (0..WORKERS)
        .map(|i| {
            let tally = Arc::clone(&tally);
            let url = opts.url.clone();
            tokio::spawn(async move {
                while !tally.stop.load(Relaxed) {
                    attack_once(kind, addr, &url, i, &tally).await;
                }
            })
        })
        .collect();
    let (on, rss_on) = with_peak_rss(server_pid, run(opts, server_pid)).await;
    tally.stop.store(true, Relaxed);
    for w in workers {
        w.abort();
    }
    let on = on?;
    let ratio = on.ack_us.p99 as f64 / off.ack_us.p99.max(1) as f64;
    Ok(AttackReport {
        attack: kind,
        p99_off_us: off.ack_us.p99,
        p99_on_us: on.ack_us.p99,
        p99_ratio: ratio,
        conn_errors_on: on.conn_errors,
        rss_peak_off_kib: rss_off,
        rss_peak_on_kib: rss_on,
        attack_connections: tally.opened.load(Relaxed),
        attack_closed: tally.closed.load(Relaxed),
    })
}

/// Runs `work`, reading the server's RSS every 100 ms; its result and the peak in KiB.
async fn with_peak_rss<T>(
    pid: Option<u32>,
    work: impl std::future::Future<Output = T>,
) -> (T, u64) {
    let peak = Arc::new(AtomicU64::new(0));
    let sampler = {
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            loop {
                if let Some(s) = pid.and_then(|p| procfs::sample(Some(p))) {
                    peak.fetch_max(s.rss_bytes / 1024, Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let out = work.await;
    sampler.abort();
    (out, peak.load(Relaxed))
}

/// The server's socket address from `ws://host:port/ws`.
fn server_addr(url: &str) -> SocketAddr {
    let hostport = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap_or_default()
        .replace("localhost", "127.0.0.1");
    hostport
        .parse()
        .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 7878)))
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A WebSocket from the attacker's address, hello said (its welcome not read).
async fn connect(addr: SocketAddr, url: &str, tally: &Tally) -> Option<Ws> {
    let socket = TcpSocket::new_v4().ok()?;
    socket
        .bind(SocketAddr::new(ATTACKER.parse().ok()?, 0))
        .ok()?;
    let tcp = socket.connect(addr).await.ok()?;
    let (mut ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp))
        .await
        .ok()?;
    tally.opened.fetch_add(1, Relaxed);
    let hello = ClientMsg::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: "Attacker".into(),
        resume_token: None,
    };
    ws.send(binary(&hello)?).await.ok()?;
    Some(ws)
}

fn binary(msg: &ClientMsg) -> Option<Message> {
    encode(msg).ok().map(|b| Message::Binary(Bytes::from(b)))
}

/// One round of the attack by worker `i`.
async fn attack_once(kind: AttackKind, addr: SocketAddr, url: &str, i: usize, tally: &Tally) {
    let Some(mut ws) = connect(addr, url, tally).await else {
        tally.closed.fetch_add(1, Relaxed);
        tokio::time::sleep(Duration::from_millis(20)).await;
        return;
    };
    let closed = match kind {
        AttackKind::Rooms => {
            let options = if i.is_multiple_of(2) {
                RoomOptions::Xiangqi(XiangqiOptions {
                    bot_think_ms: Some(60_000),
                    ..Default::default()
                })
            } else {
                RoomOptions::Tuolaji(TuolajiOptions::default())
            };
            let create = ClientMsg::CreateRoom {
                seq: 1,
                options,
                seat: None,
                bots: true,
            };
            if let Some(m) = binary(&create) {
                let _ = ws.send(m).await;
            }
            // Read the answer (or the refusal), then leave without a word.
            let _ = tokio::time::timeout(Duration::from_millis(200), ws.next()).await;
            false
        }
        AttackKind::Pings => {
            let payload = Bytes::from(vec![0u8; 125]);
            let mut closed = false;
            for _ in 0..100_000 {
                if ws.send(Message::Ping(payload.clone())).await.is_err() {
                    closed = true;
                    break;
                }
            }
            closed
        }
        AttackKind::Idle => wait_closed(&mut ws, &[], tally).await,
        AttackKind::HalfFrames => {
            let mut frame = vec![0x82, 0x80 | 126];
            frame.extend_from_slice(&60_000u16.to_be_bytes());
            frame.extend_from_slice(&[1, 2, 3, 4]);
            frame.extend_from_slice(&[0u8; 1000]);
            wait_closed(&mut ws, &frame, tally).await
        }
        AttackKind::ListRooms => {
            let mut closed = false;
            for seq in 2..100_000 {
                let list = ClientMsg::ListRooms {
                    seq,
                    game: None,
                    limit: None,
                    after: None,
                };
                let Some(m) = binary(&list) else { break };
                if ws.send(m).await.is_err() {
                    closed = true;
                    break;
                }
            }
            closed
        }
    };
    if closed {
        tally.closed.fetch_add(1, Relaxed);
    }
}

/// Writes `bytes` under the WebSocket, then reads the raw socket without answering anything
/// (so no pong goes back) until the server closes it, for at most 60 s; whether it did.
async fn wait_closed(ws: &mut Ws, bytes: &[u8], tally: &Tally) -> bool {
    use tokio::io::AsyncReadExt;
    let MaybeTlsStream::Plain(tcp) = ws.get_mut() else {
        return false;
    };
    if tcp.write_all(bytes).await.is_err() {
        return true;
    }
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while tokio::time::Instant::now() < deadline && !tally.stop.load(Relaxed) {
        match tokio::time::timeout(Duration::from_millis(200), tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            _ => {}
        }
    }
    false
}
