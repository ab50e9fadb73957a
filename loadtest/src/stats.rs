//! What all clients of a run add to: counters and latency histograms, shared and cheap to
//! update from thousands of tasks (atomics; histograms in shards behind short locks).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::LoadtestError;

/// Histogram shards: enough that thousands of clients rarely wait on one lock.
const SHARDS: usize = 32;
/// The largest latency recorded, in microseconds (a minute).
const MAX_US: u64 = 60_000_000;

/// Counters and histograms of one run.
pub struct Stats {
    pub msgs_out: AtomicU64,
    pub bytes_out: AtomicU64,
    /// Server messages read, and the frames that carried them (a batch carries several).
    pub msgs_in: AtomicU64,
    pub frames_in: AtomicU64,
    pub bytes_in: AtomicU64,
    /// Actions the server accepted (`ok`), sent inside the measured window.
    pub actions: AtomicU64,
    /// Games played to their end (counted once per table, by seat 0).
    pub games: AtomicU64,
    /// Connections that said `hello` and got `welcome`.
    pub welcomed: AtomicU64,
    /// Clients that stopped on a connection or protocol failure.
    pub conn_errors: AtomicU64,
    /// `error` messages from the server.
    pub protocol_errors: AtomicU64,
    /// `error` messages by code, and the first client failures' texts.
    pub errors_by_code: Mutex<BTreeMap<String, u64>>,
    /// Send → the acting seat's `ok`.
    ack: Vec<Mutex<Histogram<u64>>>,
    /// Send → the last other seat at the table has the resulting event.
    all_seats: Vec<Mutex<Histogram<u64>>>,
    /// From this moment on, actions are measured.
    window: OnceLock<Instant>,
}

/// Latency percentiles of one histogram, in microseconds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Latency {
    pub count: u64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
}

/// The counters at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    pub msgs_out: u64,
    pub bytes_out: u64,
    pub msgs_in: u64,
    pub frames_in: u64,
    pub bytes_in: u64,
    pub actions: u64,
    pub games: u64,
    pub welcomed: u64,
    pub conn_errors: u64,
    pub protocol_errors: u64,
}

fn histogram() -> Result<Histogram<u64>, LoadtestError> {
    Histogram::new_with_bounds(1, MAX_US, 3).map_err(|e| LoadtestError::Histogram(e.to_string()))
}

fn shards() -> Result<Vec<Mutex<Histogram<u64>>>, LoadtestError> {
    (0..SHARDS).map(|_| histogram().map(Mutex::new)).collect()
}

fn record(shards: &[Mutex<Histogram<u64>>], shard: usize, latency: Duration) {
    let us = u64::try_from(latency.as_micros()).unwrap_or(MAX_US).max(1);
    if let Some(h) = shards.get(shard % SHARDS) {
        if let Ok(mut h) = h.lock() {
            h.saturating_record(us);
        }
    }
}

fn merged(shards: &[Mutex<Histogram<u64>>]) -> Result<Latency, LoadtestError> {
    let mut all = histogram()?;
    for h in shards {
        if let Ok(h) = h.lock() {
            all.add(&*h)
                .map_err(|e| LoadtestError::Histogram(e.to_string()))?;
        }
    }
    Ok(Latency {
        count: all.len(),
        p50: all.value_at_quantile(0.5),
        p90: all.value_at_quantile(0.9),
        p99: all.value_at_quantile(0.99),
        p999: all.value_at_quantile(0.999),
        max: all.max(),
    })
}

impl Stats {
    /// Empty statistics.
    ///
    /// # Errors
    /// [`LoadtestError::Histogram`] if the histograms cannot be made (they always can).
    pub fn new() -> Result<Stats, LoadtestError> {
        Ok(Stats {
            msgs_out: AtomicU64::new(0),
            bytes_out: AtomicU64::new(0),
            msgs_in: AtomicU64::new(0),
            frames_in: AtomicU64::new(0),
            bytes_in: AtomicU64::new(0),
            actions: AtomicU64::new(0),
            games: AtomicU64::new(0),
            welcomed: AtomicU64::new(0),
            conn_errors: AtomicU64::new(0),
            protocol_errors: AtomicU64::new(0),
            errors_by_code: Mutex::new(BTreeMap::new()),
            ack: shards()?,
            all_seats: shards()?,
            window: OnceLock::new(),
        })
    }

    /// Starts the measured window now.
    pub fn open_window(&self) {
        let _ = self.window.set(Instant::now());
    }

    /// Whether an action sent at `sent` is measured.
    pub fn measured(&self, sent: Instant) -> bool {
        self.window.get().is_some_and(|w| sent >= *w)
    }

    /// An accepted action: its round trip to `ok`.
    pub fn record_ack(&self, shard: usize, sent: Instant, latency: Duration) {
        if self.measured(sent) {
            self.actions.fetch_add(1, Ordering::Relaxed);
            record(&self.ack, shard, latency);
        }
    }

    /// An action's event has reached every other seat.
    pub fn record_all_seats(&self, shard: usize, sent: Instant, latency: Duration) {
        if self.measured(sent) {
            record(&self.all_seats, shard, latency);
        }
    }

    /// One more of `what` (an error code, or a client failure).
    pub fn count_error(&self, what: &str) {
        if let Ok(mut m) = self.errors_by_code.lock() {
            *m.entry(what.to_owned()).or_default() += 1;
        }
    }

    /// The counters now.
    pub fn counters(&self) -> Counters {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Counters {
            msgs_out: get(&self.msgs_out),
            bytes_out: get(&self.bytes_out),
            msgs_in: get(&self.msgs_in),
            frames_in: get(&self.frames_in),
            bytes_in: get(&self.bytes_in),
            actions: get(&self.actions),
            games: get(&self.games),
            welcomed: get(&self.welcomed),
            conn_errors: get(&self.conn_errors),
            protocol_errors: get(&self.protocol_errors),
        }
    }

    /// Percentiles of send → `ok` and send → every other seat.
    ///
    /// # Errors
    /// [`LoadtestError::Histogram`] if shards cannot be merged (same bounds: never).
    pub fn latencies(&self) -> Result<(Latency, Latency), LoadtestError> {
        Ok((merged(&self.ack)?, merged(&self.all_seats)?))
    }

    /// Errors by code so far.
    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors_by_code
            .lock()
            .map(|m| m.clone())
            .unwrap_or_default()
    }
}
