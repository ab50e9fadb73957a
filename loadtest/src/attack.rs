//! `--attack KIND`: a hostile client beside a well-behaved reference load, to check that no
//! one client or address can take the server past its budgets or lock others out.
//!
//! The reference load (the usual `--tables`, `--game`, …) is measured twice in one run:
//! alone, then with the attack going on from its own loopback address (127.0.0.66; the
//! reference's tables come from addresses of their own, so the per-address budgets meet the
//! attacker as they would meet one hostile machine). The attacker is a process of its own
//! (this binary with `--attack-only`, at `--attacker-nice`), so that on a shared machine
//! its own CPU is not counted against the server. Reported: the reference's p99 to `ok`
//! both times, their ratio, the server's peak RSS both times and what the attacker managed
//! to send. Every attack loop is bounded in time (the measured run) and in concurrency.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{encode, ClientMsg, RoomOptions, PROTOCOL_VERSION};
use serde::Serialize;
use std::process::Stdio;

use clap::ValueEnum;
use qipai_bots::client::websocket;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
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
    /// What the attacker did (its own tally).
    #[serde(flatten)]
    pub tally: TallyReport,
}

/// What the attacker managed: connections opened, those the server closed or refused, and
/// frames sent (pings, `list_rooms`, `create_room`).
#[derive(Clone, Copy, Debug, Default, Serialize, serde::Deserialize)]
pub struct TallyReport {
    pub attack_connections: u64,
    pub attack_closed: u64,
    pub attack_frames: u64,
    pub attack_secs: f64,
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
             server peak RSS {} KiB off, {} KiB on; the attacker in {:.1} s: {} connections, \
             {} closed by the server, {} frames",
            self.attack,
            self.p99_off_us as f64 / 1000.0,
            self.p99_on_us as f64 / 1000.0,
            self.p99_ratio,
            self.rss_peak_off_kib,
            self.rss_peak_on_kib,
            self.tally.attack_secs,
            self.tally.attack_connections,
            self.tally.attack_closed,
            self.tally.attack_frames
        )
    }
}

/// Counters the attack loops share.
#[derive(Default)]
struct Tally {
    opened: AtomicU64,
    closed: AtomicU64,
    frames: AtomicU64,
    stop: AtomicBool,
}

/// Runs the reference load alone, then beside `kind` (the attacker started as a child
/// process, see the module's documentation).
///
/// # Errors
/// As [`run`], or [`LoadtestError::Spawn`] when the attacker cannot be started.
pub async fn run_attack(
    opts: &Options,
    kind: AttackKind,
    server_pid: Option<u32>,
) -> Result<AttackReport, LoadtestError> {
    let (off, rss_off) = with_peak_rss(server_pid, run(opts, server_pid)).await;
    let off = off?;
    let mut attacker = spawn_attacker(opts, kind)?;
    let (on, rss_on) = with_peak_rss(server_pid, run(opts, server_pid)).await;
    // Closing its stdin stops the attacker; it answers with its tally.
    drop(attacker.stdin.take());
    let tally = tokio::time::timeout(Duration::from_secs(10), attacker.wait_with_output())
        .await
        .ok()
        .and_then(Result::ok)
        .and_then(|out| {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.lines()
                .rev()
                .find_map(|l| serde_json::from_str(l).ok())
        })
        .unwrap_or_default();
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
        tally,
    })
}

/// This binary again as the attacker (`--attack-only`), under `nice`.
fn spawn_attacker(opts: &Options, kind: AttackKind) -> Result<Child, LoadtestError> {
    let exe = std::env::current_exe().unwrap_or_else(|_| "qipai-loadtest".into());
    let kind = kind
        .to_possible_value()
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default();
    Command::new("nice")
        .arg("-n")
        .arg(opts.attacker_nice.to_string())
        .arg(&exe)
        .args(["--attack-only", &kind, "--url", &opts.url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|source| LoadtestError::Spawn {
            path: exe.display().to_string(),
            source,
        })
}

/// The attacker's side of `--attack`: [`WORKERS`] loops of `kind` against `url` until stdin
/// closes; then their tally.
pub async fn attack_until_stdin_closes(kind: AttackKind, url: &str) -> TallyReport {
    let tally = Arc::new(Tally::default());
    let started = std::time::Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|i| {
            let tally = Arc::clone(&tally);
            let url = url.to_owned();
            tokio::spawn(async move {
                while !tally.stop.load(Relaxed) {
                    attack_once(kind, &url, i, &tally).await;
                }
            })
        })
        .collect();
    let mut sink = Vec::new();
    let _ = tokio::io::stdin().read_to_end(&mut sink).await;
    tally.stop.store(true, Relaxed);
    for w in workers {
        w.abort();
    }
    TallyReport {
        attack_connections: tally.opened.load(Relaxed),
        attack_closed: tally.closed.load(Relaxed),
        attack_frames: tally.frames.load(Relaxed),
        attack_secs: started.elapsed().as_secs_f64(),
    }
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

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A WebSocket from the attacker's address, hello said (its welcome not read).
async fn connect(url: &str, tally: &Tally) -> Option<Ws> {
    let mut ws = websocket(url, ATTACKER.parse().ok()).await.ok()?;
    tally.opened.fetch_add(1, Relaxed);
    let hello = ClientMsg::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: "Attacker".into(),
        resume_token: None,
        account_token: None,
    };
    ws.send(binary(&hello)?).await.ok()?;
    Some(ws)
}

fn binary(msg: &ClientMsg) -> Option<Message> {
    encode(msg).ok().map(|b| Message::Binary(Bytes::from(b)))
}

/// One round of the attack by worker `i`.
async fn attack_once(kind: AttackKind, url: &str, i: usize, tally: &Tally) {
    let Some(mut ws) = connect(url, tally).await else {
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
                if ws.send(m).await.is_ok() {
                    tally.frames.fetch_add(1, Relaxed);
                }
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
                tally.frames.fetch_add(1, Relaxed);
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
                tally.frames.fetch_add(1, Relaxed);
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
