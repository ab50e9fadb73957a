//! `GET /metrics`: the server's counters and histograms in the Prometheus text format,
//! written by `metrics-exporter-prometheus` (one recorder per server, not a global one, so
//! that several servers in one process keep their own numbers).
//!
//! Counters are plain atomics, bumped where things happen (the reader, the writer, the
//! outbox) and handed to the recorder only when scraped ([`Scrape`]); nothing on the hot
//! path takes a lock. Histograms are the recorder's own (lock-free buckets, folded in at each
//! scrape and every few seconds). Every family is described in `docs/metrics.md`.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};

use metrics::{Histogram, Key, Label, Level, Metadata, Recorder};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusRecorder};
use qipai_protocol::ErrorCode;

/// Who registers the metrics (the recorder asks; nothing reads it back).
static META: Metadata<'static> = Metadata::new("qipai", Level::INFO, None);

/// Latency buckets, in seconds: 0.1 ms to 10 s.
const SECONDS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// Count buckets (items in a batch, frames in a queue): 1 to 4096.
const COUNTS: &[f64] = &[
    0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0,
];

/// The histograms, with their help text and buckets.
const HISTOGRAMS: [(&str, &str, &[f64]); 4] = [
    (
        "qipai_action_seconds",
        "From a room taking a player's action to its ok queued on the connection (the store's commit included), in seconds.",
        SECONDS,
    ),
    (
        "qipai_store_commit_seconds",
        "One store transaction of the group-commit writer (its tries included), in seconds.",
        SECONDS,
    ),
    (
        "qipai_store_batch_items",
        "Writes in one store transaction of the group-commit writer.",
        COUNTS,
    ),
    (
        "qipai_outbound_queue_frames",
        "Frames waiting in a connection's outbound queue, seen as each frame is queued.",
        COUNTS,
    ),
];

/// Every counter and histogram the server keeps.
pub struct Metrics {
    /// WebSocket connections open now.
    pub connections: AtomicI64,
    /// WebSocket connections ever accepted.
    pub connections_total: AtomicU64,
    /// Frames and bytes received from clients.
    pub frames_in: AtomicU64,
    pub bytes_in: AtomicU64,
    /// Frames and bytes written to clients.
    pub frames_out: AtomicU64,
    pub bytes_out: AtomicU64,
    /// Game actions accepted (each answered `ok`).
    pub actions: AtomicU64,
    /// Connections closed because their outbound queue was full.
    pub queue_drops: AtomicU64,
    /// Errors sent, by code (indexed like [`ErrorCode::ALL`]).
    errors: Vec<AtomicU64>,
    /// From a room taking an action to its `ok` queued, in seconds.
    pub action_seconds: Histogram,
    /// One store transaction, in seconds (the writer records it).
    pub commit_seconds: Histogram,
    /// Writes in one store transaction.
    pub batch_items: Histogram,
    /// Frames in a connection's outbound queue as each is queued.
    pub outbound_frames: Histogram,
    recorder: PrometheusRecorder,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("actions", &self.actions)
            .finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        // Only an empty bucket list is refused, and none is.
        let recorder = HISTOGRAMS
            .iter()
            .try_fold(PrometheusBuilder::new(), |b, (name, _, buckets)| {
                b.set_buckets_for_metric(Matcher::Full((*name).into()), buckets)
            })
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .build_recorder();
        let [action_seconds, commit_seconds, batch_items, outbound_frames] =
            HISTOGRAMS.map(|(name, help, _)| {
                recorder.describe_histogram(name.into(), None, help.into());
                recorder.register_histogram(&Key::from_static_name(name), &META)
            });
        Metrics {
            connections: AtomicI64::new(0),
            connections_total: AtomicU64::new(0),
            frames_in: AtomicU64::new(0),
            bytes_in: AtomicU64::new(0),
            frames_out: AtomicU64::new(0),
            bytes_out: AtomicU64::new(0),
            actions: AtomicU64::new(0),
            queue_drops: AtomicU64::new(0),
            errors: ErrorCode::ALL.iter().map(|_| AtomicU64::new(0)).collect(),
            action_seconds,
            commit_seconds,
            batch_items,
            outbound_frames,
            recorder,
        }
    }
}

/// One scrape: the values read now, handed to the recorder by name, help and labels.
pub struct Scrape<'a> {
    recorder: &'a PrometheusRecorder,
}

impl Scrape<'_> {
    /// A counter's value now (`name` in full, `qipai_…_total`).
    pub fn counter(&self, name: &str, help: &str, labels: &[(&str, &str)], n: u64) {
        self.recorder
            .describe_counter(name.to_owned().into(), None, help.to_owned().into());
        self.recorder
            .register_counter(&key(name, labels), &META)
            .absolute(n);
    }

    /// A gauge's value now.
    pub fn gauge(&self, name: &str, help: &str, labels: &[(&str, &str)], v: f64) {
        self.recorder
            .describe_gauge(name.to_owned().into(), None, help.to_owned().into());
        self.recorder
            .register_gauge(&key(name, labels), &META)
            .set(v);
    }
}

fn key(name: &str, labels: &[(&str, &str)]) -> Key {
    let labels: Vec<Label> = labels
        .iter()
        .map(|(k, v)| Label::new(k.to_string(), v.to_string()))
        .collect();
    Key::from_parts(name.to_owned(), labels)
}

impl Metrics {
    /// Counts one error sent with `code`.
    pub fn error(&self, code: ErrorCode) {
        if let Some(i) = ErrorCode::ALL.iter().position(|c| *c == code) {
            if let Some(counter) = self.errors.get(i) {
                counter.fetch_add(1, Relaxed);
            }
        }
    }

    /// Folds the histograms' newest samples in (a few times a minute, so that they do
    /// not pile up between scrapes).
    pub fn upkeep(&self) {
        self.recorder.handle().run_upkeep();
    }

    /// The Prometheus text exposition: this server's counters, then whatever `more` adds
    /// (the budgets, the store's writer, the cluster), with the number of open rooms per
    /// game and of live sessions.
    pub fn render(
        &self,
        rooms: &[(&str, usize)],
        sessions: usize,
        more: impl FnOnce(&Scrape<'_>),
    ) -> String {
        let scrape = Scrape {
            recorder: &self.recorder,
        };
        scrape.gauge(
            "qipai_connections",
            "WebSocket connections open now.",
            &[],
            self.connections.load(Relaxed) as f64,
        );
        let counters: [(&str, &str, &AtomicU64); 7] = [
            (
                "qipai_connections_total",
                "WebSocket connections accepted.",
                &self.connections_total,
            ),
            (
                "qipai_frames_in_total",
                "Frames received from clients.",
                &self.frames_in,
            ),
            (
                "qipai_bytes_in_total",
                "Bytes received from clients.",
                &self.bytes_in,
            ),
            (
                "qipai_frames_out_total",
                "Frames written to clients.",
                &self.frames_out,
            ),
            (
                "qipai_bytes_out_total",
                "Bytes written to clients.",
                &self.bytes_out,
            ),
            (
                "qipai_actions_total",
                "Game actions accepted.",
                &self.actions,
            ),
            (
                "qipai_queue_drops_total",
                "Connections closed for a full outbound queue.",
                &self.queue_drops,
            ),
        ];
        for (name, help, value) in counters {
            scrape.counter(name, help, &[], value.load(Relaxed));
        }
        scrape.gauge(
            "qipai_sessions",
            "Player sessions live (connected or within the reconnection grace).",
            &[],
            sessions as f64,
        );
        for (game, n) in rooms {
            scrape.gauge(
                "qipai_rooms",
                "Rooms open now, by game.",
                &[("game", game)],
                *n as f64,
            );
        }
        scrape.gauge(
            "qipai_process_resident_bytes",
            "The server process's resident memory (VmRSS), in bytes.",
            &[],
            resident_bytes() as f64,
        );
        for (code, n) in ErrorCode::ALL.iter().zip(&self.errors) {
            scrape.counter(
                "qipai_errors_total",
                "Errors sent to clients, by code.",
                &[("code", code.as_str())],
                n.load(Relaxed),
            );
        }
        more(&scrape);
        self.recorder.handle().render()
    }
}

/// The process's resident memory from `/proc/self/status` (0 where there is none).
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb * 1024)
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_family_with_labels() {
        let m = Metrics::default();
        m.error(ErrorCode::IllegalMove);
        m.error(ErrorCode::IllegalMove);
        m.actions.fetch_add(3, Relaxed);
        m.action_seconds.record(0.002);
        let text = m.render(&[("xiangqi", 2)], 5, |_| {});
        assert!(
            text.contains("qipai_errors_total{code=\"illegal_move\"} 2\n"),
            "{text}"
        );
        assert!(text.contains("qipai_actions_total 3\n"));
        assert!(text.contains("qipai_rooms{game=\"xiangqi\"} 2\n"));
        assert!(text.contains("qipai_sessions 5\n"));
        assert!(text.contains("# TYPE qipai_connections gauge\n"));
        assert!(
            text.contains("qipai_action_seconds_bucket{le=\"0.0025\"} 1\n"),
            "{text}"
        );
        assert!(text.contains("qipai_action_seconds_count 1\n"), "{text}");
    }
}
