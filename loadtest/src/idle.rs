//! `--idle N`: connections that say `hello`, get `welcome` and then only answer the server's
//! pings: what an idle player costs the server in memory.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qipai_bots::client::websocket;
use qipai_protocol::{decode, encode, ClientMsg, ServerMsg, PROTOCOL_VERSION};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::{Bytes, Message};

use crate::drive::check_loopback;
use crate::procfs;
use crate::report::IdleReport;
use crate::stats::Stats;
use crate::LoadtestError;

/// Connections opened at once; the next batch waits for this one's `welcome`s.
const BATCH: usize = 250;

/// Opens `opts.idle` idle connections, waits `opts.settle` seconds, reads the server's RSS,
/// holds them for `opts.duration` seconds, closes them.
///
/// # Errors
/// [`LoadtestError::NotLoopback`] for a remote target.
pub async fn run_idle(
    url: &str,
    count: usize,
    settle: Duration,
    hold: Duration,
    server_pid: Option<u32>,
) -> Result<IdleReport, LoadtestError> {
    check_loopback(url)?;
    let stats = Arc::new(Stats::new()?);
    let before = server_pid.and_then(|p| procfs::sample(Some(p)));
    let mut set = JoinSet::new();
    let mut opened = 0;
    while opened < count {
        let batch = BATCH.min(count - opened);
        let (tx, mut rx) = tokio::sync::mpsc::channel(batch);
        for i in opened..opened + batch {
            let (url, stats, tx) = (url.to_owned(), Arc::clone(&stats), tx.clone());
            set.spawn(async move { idle_client(&url, i, &stats, tx).await });
        }
        drop(tx);
        while rx.recv().await.is_some() {}
        opened += batch;
    }
    tokio::time::sleep(settle).await;
    let after = server_pid.and_then(|p| procfs::sample(Some(p)));
    tokio::time::sleep(hold).await;
    set.shutdown().await;
    let counters = stats.counters();
    let kib = |s: Option<procfs::ProcSample>| s.map_or(0, |s| s.rss_bytes / 1024);
    let (rss_before_kib, rss_after_kib) = (kib(before), kib(after));
    Ok(IdleReport {
        idle_connections: count,
        welcomed: counters.welcomed,
        conn_errors: counters.conn_errors,
        rss_before_kib,
        rss_after_kib,
        bytes_per_connection: rss_after_kib.saturating_sub(rss_before_kib) as f64 * 1024.0
            / count.max(1) as f64,
    })
}

/// One idle player: `hello`, `welcome`, then reading (which answers pings) until stopped.
async fn idle_client(url: &str, index: usize, stats: &Stats, ready: tokio::sync::mpsc::Sender<()>) {
    let failed = || {
        stats.conn_errors.fetch_add(1, Ordering::Relaxed);
    };
    let Ok(mut ws) = websocket(url, Some(crate::drive::table_address(index))).await else {
        failed();
        drop(ready);
        return;
    };
    let hello = ClientMsg::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: format!("idle{index}"),
        resume_token: None,
        account_token: None,
    };
    let Ok(bytes) = encode(&hello) else {
        failed();
        return;
    };
    if ws.send(Message::Binary(Bytes::from(bytes))).await.is_err() {
        failed();
        return;
    }
    let mut ready = Some(ready);
    while let Some(Ok(frame)) = ws.next().await {
        if let Message::Binary(bytes) = frame {
            if let Ok(ServerMsg::Welcome { .. }) = decode::<ServerMsg>(&bytes, &["welcome"]) {
                stats.welcomed.fetch_add(1, Ordering::Relaxed);
                ready.take();
            }
        }
    }
    if ready.is_some() {
        failed();
    }
}
