//! Retention: the store's sweep, on the schedule of `[retention]`, so that the store stays
//! bounded whatever clients do (an abandoned room added some 700 bytes, a session row
//! stayed for ever). Each pass deletes abandoned rooms and expired sessions
//! ([`qipai_store::retention`]) and, when configured, finished games' raw logs (their
//! records stay, so `/api/games/{id}` and the players' lists still serve them). What it
//! deleted is counted in `/metrics` (`qipai_store_swept_total`), beside the store's size
//! (`qipai_store_bytes`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Weak};
use std::time::Duration;

use qipai_store::retention::{Sweep, Swept};
use qipai_store::{Store, StoreError};

use crate::base::config::RetentionConfig;
use crate::base::metrics::Scrape;
use crate::lobby::session::Sessions;

/// What the sweeps deleted since the start, by kind, for `/metrics`.
#[derive(Debug, Default)]
pub struct SweptTotals {
    rooms: AtomicU64,
    room_rows: AtomicU64,
    sessions: AtomicU64,
    signed_in: AtomicU64,
    log_rows: AtomicU64,
}

impl SweptTotals {
    fn add(&self, swept: Swept, log_rows: u64) {
        self.rooms.fetch_add(swept.rooms, Relaxed);
        self.room_rows.fetch_add(swept.room_rows, Relaxed);
        self.sessions.fetch_add(swept.sessions, Relaxed);
        self.signed_in.fetch_add(swept.signed_in, Relaxed);
        self.log_rows.fetch_add(log_rows, Relaxed);
    }

    /// `qipai_store_swept_total{what=…}`, and `qipai_store_bytes` when the size was read.
    pub fn scrape(&self, store_bytes: Option<u64>, scrape: &Scrape<'_>) {
        for (what, n) in [
            ("rooms", &self.rooms),
            ("room_rows", &self.room_rows),
            ("sessions", &self.sessions),
            ("signed_in", &self.signed_in),
            ("log_rows", &self.log_rows),
        ] {
            scrape.counter(
                "qipai_store_swept_total",
                "Rows the retention sweep deleted: abandoned rooms, their steps and seat changes, \
                 game sessions, account and director sessions, finished games' log rows.",
                &[("what", what)],
                n.load(Relaxed),
            );
        }
        if let Some(bytes) = store_bytes {
            scrape.gauge(
                "qipai_store_bytes",
                "The store's size (SQLite: its pages in use; PostgreSQL: pg_database_size).",
                &[],
                bytes as f64,
            );
        }
    }
}

/// How long `/metrics` waits for the store's size before it leaves it out (a PostgreSQL
/// that does not answer must not hold the scrape).
pub const SIZE_WAIT: Duration = Duration::from_secs(1);

/// One sweep at Unix time `now_ms`: abandoned rooms, expired sessions (the live ones of
/// `sessions` kept) and, with `logs_after_ms`, finished games' raw logs.
///
/// # Errors
/// The store's error; nothing of that pass is deleted.
pub async fn sweep(
    config: &RetentionConfig,
    store: &dyn Store,
    sessions: &Sessions,
    totals: &SweptTotals,
    now_ms: i64,
) -> Result<(Swept, u64), StoreError> {
    let ago = |ms: u64| now_ms.saturating_sub(i64::try_from(ms).unwrap_or(i64::MAX));
    let sessions_before_ms = ago(config.sessions_after_ms);
    let swept = store
        .sweep(Sweep {
            abandoned_before_ms: ago(config.abandoned_after_ms),
            sessions_before_ms,
            live_players: sessions.live_before(sessions_before_ms),
            now_ms,
        })
        .await?;
    let log_rows = match config.logs_after_ms {
        0 => 0,
        after => store.prune(ago(after)).await?,
    };
    totals.add(swept, log_rows);
    Ok((swept, log_rows))
}

/// Sweeps now and every `every_ms` (none when 0), while `sessions` lives.
pub fn spawn(
    config: RetentionConfig,
    store: Arc<dyn Store>,
    sessions: Weak<Sessions>,
    totals: Arc<SweptTotals>,
) {
    if config.every_ms == 0 {
        return;
    }
    tokio::spawn(async move {
        loop {
            let Some(live) = sessions.upgrade() else {
                return;
            };
            match sweep(
                &config,
                store.as_ref(),
                &live,
                &totals,
                qipai_store::unix_ms(),
            )
            .await
            {
                Ok((swept, log_rows)) => tracing::info!(?swept, log_rows, "store swept"),
                Err(error) => tracing::error!(%error, "the store's sweep failed"),
            }
            drop(live);
            tokio::time::sleep(Duration::from_millis(config.every_ms)).await;
        }
    });
}
