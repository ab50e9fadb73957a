//! Counters for `GET /metrics`, in the Prometheus text format.
//!
//! Plain atomics, bumped where things happen (the reader, the writer, the outbox) and read
//! only when scraped; nothing on the hot path takes a lock.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};

use qipai_protocol::ErrorCode;

/// Every counter the server keeps.
#[derive(Debug)]
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
}

impl Default for Metrics {
    fn default() -> Metrics {
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
        }
    }
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

    /// The Prometheus text exposition, with the number of open rooms per game.
    pub fn render(&self, rooms: &[(&str, usize)], sessions: usize) -> String {
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, lines: Vec<(String, String)>| {
            let _ = writeln!(out, "# HELP qipai_{name} {help}");
            let _ = writeln!(out, "# TYPE qipai_{name} {kind}");
            for (labels, value) in lines {
                let _ = writeln!(out, "qipai_{name}{labels} {value}");
            }
        };
        let plain = |v: String| vec![(String::new(), v)];
        metric(
            "connections",
            "gauge",
            "WebSocket connections open now.",
            plain(self.connections.load(Relaxed).to_string()),
        );
        let counters: [(&str, &str, &AtomicU64); 7] = [
            (
                "connections_total",
                "WebSocket connections accepted.",
                &self.connections_total,
            ),
            (
                "frames_in_total",
                "Frames received from clients.",
                &self.frames_in,
            ),
            (
                "bytes_in_total",
                "Bytes received from clients.",
                &self.bytes_in,
            ),
            (
                "frames_out_total",
                "Frames written to clients.",
                &self.frames_out,
            ),
            (
                "bytes_out_total",
                "Bytes written to clients.",
                &self.bytes_out,
            ),
            ("actions_total", "Game actions accepted.", &self.actions),
            (
                "queue_drops_total",
                "Connections closed for a full outbound queue.",
                &self.queue_drops,
            ),
        ];
        for (name, help, value) in counters {
            metric(
                name,
                "counter",
                help,
                plain(value.load(Relaxed).to_string()),
            );
        }
        metric(
            "sessions",
            "gauge",
            "Player sessions live (connected or within the reconnection grace).",
            plain(sessions.to_string()),
        );
        metric(
            "rooms",
            "gauge",
            "Rooms open now, by game.",
            rooms
                .iter()
                .map(|(game, n)| (format!("{{game=\"{game}\"}}"), n.to_string()))
                .collect(),
        );
        metric(
            "process_resident_bytes",
            "gauge",
            "The server process's resident memory (VmRSS), in bytes.",
            plain(resident_bytes().to_string()),
        );
        metric(
            "errors_total",
            "counter",
            "Errors sent to clients, by code.",
            ErrorCode::ALL
                .iter()
                .zip(&self.errors)
                .map(|(code, n)| {
                    (
                        format!("{{code=\"{}\"}}", code.as_str()),
                        n.load(Relaxed).to_string(),
                    )
                })
                .collect(),
        );
        out
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
        let text = m.render(&[("xiangqi", 2)], 5);
        assert!(
            text.contains("qipai_errors_total{code=\"illegal_move\"} 2\n"),
            "{text}"
        );
        assert!(text.contains("qipai_actions_total 3\n"));
        assert!(text.contains("qipai_rooms{game=\"xiangqi\"} 2\n"));
        assert!(text.contains("qipai_sessions 5\n"));
        assert!(text.contains("# TYPE qipai_connections gauge\n"));
    }
}
