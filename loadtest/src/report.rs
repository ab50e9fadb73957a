//! The figures of a run: one JSON line (for scripts) and a human table.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::options::{GameMix, ThinkTime};
use crate::server_metrics::WindowHistogram;
use crate::stats::Latency;

/// The server process during the measured window.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ServerUsage {
    pub pid: u32,
    /// RSS before the first connection, after the ramp-up and warm-up, and at the end (KiB).
    pub rss_start_kib: u64,
    pub rss_window_kib: u64,
    pub rss_end_kib: u64,
    /// CPU seconds the server used in the window, and as cores.
    pub cpu_secs: f64,
    pub cpu_cores: f64,
    /// (RSS at the window's start − RSS before connecting) / tables, in KiB.
    pub rss_per_table_kib: f64,
    /// CPU seconds in the window by thread name: `qipai-sqlite` is the SQLite store's own
    /// work (its inserts, commits and flushes), `tokio-rt-worker` everything else.
    pub threads_cpu_secs: BTreeMap<String, f64>,
}

/// Everything a play run measured.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: GameMix,
    pub tables: usize,
    pub connections: usize,
    pub think: ThinkTime,
    /// Seconds measured.
    pub window_secs: f64,
    /// Actions accepted (`ok`) that were sent in the window.
    pub actions: u64,
    pub actions_per_sec: f64,
    /// Send → the acting seat's `ok`, µs.
    pub ack_us: Latency,
    /// Send → the last other seat of the table has the event the action caused, µs.
    pub all_seats_us: Latency,
    /// WebSocket messages and bytes per second, client → server and server → client.
    pub msgs_out_per_sec: f64,
    pub msgs_in_per_sec: f64,
    /// Server → client frames per second (a batch frame carries several messages).
    pub frames_in_per_sec: f64,
    pub bytes_out_per_sec: f64,
    pub bytes_in_per_sec: f64,
    /// Clients that failed (connection, refusal, silence): must be 0.
    pub conn_errors: u64,
    /// `error` messages the server sent during the whole run: must be 0.
    pub protocol_errors: u64,
    pub errors: BTreeMap<String, u64>,
    /// Games played to the end during the whole run.
    pub games_completed: u64,
    /// Connections that got `welcome`.
    pub welcomed: u64,
    /// `None` when no server pid is known.
    pub server: Option<ServerUsage>,
    /// The server's histograms over the window (commit time, writes per commit, action to
    /// `ok`), from its `/metrics`; empty when it did not answer (the first node's only).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub server_histograms: BTreeMap<String, WindowHistogram>,
    /// CPU cores the load test itself used in the window (it shares the machine).
    pub loadtest_cores: f64,
    /// The share of the whole machine's CPU time (every core) that was idle or waiting for
    /// the disk in the window: a store that makes the server wait shows here, not in its CPU.
    pub machine_idle: f64,
    /// The machine's cores, for the machine's time per action.
    pub machine_cores: usize,
}

/// Server memory per idle connection (`--idle`).
#[derive(Clone, Debug, Serialize)]
pub struct IdleReport {
    pub idle_connections: usize,
    pub welcomed: u64,
    pub conn_errors: u64,
    pub rss_before_kib: u64,
    pub rss_after_kib: u64,
    /// (after − before) / connections, in bytes.
    pub bytes_per_connection: f64,
}

impl Report {
    /// The one JSON line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl IdleReport {
    /// The one JSON line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

fn ms(us: u64) -> String {
    format!("{:.2}", us as f64 / 1000.0)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:?}: {} tables, {} connections, think {}, {:.1} s measured",
            self.game, self.tables, self.connections, self.think, self.window_secs
        )?;
        writeln!(
            f,
            "{:<22} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "latency (ms)", "count", "p50", "p90", "p99", "p99.9", "max"
        )?;
        for (name, l) in [
            ("send -> ok", &self.ack_us),
            ("send -> all seats", &self.all_seats_us),
        ] {
            writeln!(
                f,
                "{:<22} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}",
                name,
                l.count,
                ms(l.p50),
                ms(l.p90),
                ms(l.p99),
                ms(l.p999),
                ms(l.max)
            )?;
        }
        writeln!(
            f,
            "actions/s {:.0}; msgs/s out {:.0} in {:.0} (in {:.0} frames); KB/s out {:.0} in {:.0}",
            self.actions_per_sec,
            self.msgs_out_per_sec,
            self.msgs_in_per_sec,
            self.frames_in_per_sec,
            self.bytes_out_per_sec / 1000.0,
            self.bytes_in_per_sec / 1000.0
        )?;
        writeln!(
            f,
            "errors: connection {}, protocol {} {:?}; games completed {}; welcomed {}",
            self.conn_errors,
            self.protocol_errors,
            self.errors,
            self.games_completed,
            self.welcomed
        )?;
        if let Some(s) = &self.server {
            writeln!(
                f,
                "server pid {}: RSS {} -> {} -> {} KiB ({:.1} KiB/table), CPU {:.1} s = {:.2} cores; load test {:.2} cores",
                s.pid,
                s.rss_start_kib,
                s.rss_window_kib,
                s.rss_end_kib,
                s.rss_per_table_kib,
                s.cpu_secs,
                s.cpu_cores,
                self.loadtest_cores
            )?;
            let threads: Vec<String> = s
                .threads_cpu_secs
                .iter()
                .map(|(name, secs)| format!("{name} {secs:.1} s"))
                .collect();
            writeln!(f, "server threads: {}", threads.join(", "))?;
        }
        writeln!(
            f,
            "machine ({} cores): {:.0} % idle in the window",
            self.machine_cores,
            self.machine_idle * 100.0
        )?;
        for (name, h) in &self.server_histograms {
            writeln!(
                f,
                "server {name}: {} in the window, mean {:.6}, p50 <= {}, p90 <= {}, p99 <= {}",
                h.count, h.mean, h.p50, h.p90, h.p99
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for IdleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} idle connections ({} welcomed, {} failed): server RSS {} -> {} KiB, {:.0} bytes per connection",
            self.idle_connections,
            self.welcomed,
            self.conn_errors,
            self.rss_before_kib,
            self.rss_after_kib,
            self.bytes_per_connection
        )
    }
}
