//! What watching a competition costs (PROTOCOL.md §17.4): `N` pages, each on its own
//! WebSocket, watch one competition; an arbiter's correction is recorded, and the time until
//! the last page is told is measured (five times; the median and the worst). The process's
//! resident memory is read before and after the `N` watches start (the connections are all
//! open before), so the difference over `N` is what one watch costs the server.
//!
//! `cargo run --profile test -p qipai-server --example watch_fanout -- 1000`
//! (README "Running a competition (organisers)" gives the figures and the machine.)

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::competition::{login, post_ok, server_with_director, start_round};
use common::Client;
use qipai_protocol::{ClientMsg, ServerMsg};
use serde_json::json;

/// The process's resident memory in KiB (Linux `/proc/self/status`).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let s = server_with_director(|c| {
        c.server.max_connections = n + 100;
        c.limits.max_connections_per_addr = n + 100;
        c.limits.connect_rate_per_addr = 1_000_000;
        c.limits.connect_burst_per_addr = 1_000_000;
    })
    .await;
    let token = login(&s).await;
    let created = post_ok(
        &s,
        &token,
        "/api/director/competitions",
        &json!({"name": "fan-out", "event": "xiangqi", "rounds": 2, "seed": 1}).to_string(),
    )
    .await;
    let id = created["id"].as_u64().expect("an id");
    post_ok(
        &s,
        &token,
        &format!("/api/director/competitions/{id}/entries"),
        "A,xiangqi,,Zhao\nB,xiangqi,,Qian\n",
    )
    .await;
    start_round(&s, &token, id).await;
    let path = format!("/api/director/competitions/{id}/results");
    post_ok(
        &s,
        &token,
        &path,
        r#"{"round":1,"table":1,"result":"draw"}"#,
    )
    .await;

    let mut pages = Vec::with_capacity(n);
    for i in 0..n {
        pages.push(Client::hello(&s, &format!("Page{i}")).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = rss_kib();
    for page in &mut pages {
        let seq = page.seq();
        page.send(&ClientMsg::WatchCompetition {
            seq,
            competition_id: id,
        })
        .await;
        page.until(|m| matches!(m, ServerMsg::Ok { seq: s } if *s == seq))
            .await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = rss_kib();

    let path = format!("/api/director/competitions/{id}/corrections");
    let mut times = Vec::new();
    for k in 0..5 {
        let result = if k % 2 == 0 { "first_wins" } else { "draw" };
        let body = json!({"round": 1, "table": 1, "result": result, "reason": "fan-out"});
        let start = Instant::now();
        post_ok(&s, &token, &path, &body.to_string()).await;
        for page in &mut pages {
            page.until(|m| matches!(m, ServerMsg::CompetitionChanged { .. }))
                .await;
        }
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "{n} watchers: a correction reaches the last in {:.1} ms (median of 5), {:.1} ms (worst); \
         resident memory {before} KiB → {after} KiB with the watches: {:.2} KiB per watch",
        times[2].as_secs_f64() * 1e3,
        times[4].as_secs_f64() * 1e3,
        after.saturating_sub(before) as f64 / n as f64,
    );
}
