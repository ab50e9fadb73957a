//! Persistence: the server's side of `qipai-store`.
//!
//! - [`open`]: at start-up, opens the configured store (migrations applied) and starts its
//!   group-commit writer; the server's time line goes on from where the log left it.
//! - [`recover`]: gives the lobby and the sessions the writer, then reopens every unfinished
//!   room with a game going on or a person seated (under the same id, from its log) and
//!   restores its players' sessions, so that they come back with their resume tokens; a
//!   room whose game never started and where nobody sits is closed in the store instead.
//!   Sessions of players whose game ended within [`finished_since`] come back too (their
//!   tokens work; they are in no room).
//!
//! - [`retention`]: the store's sweep on a schedule (abandoned rooms, expired sessions,
//!   finished games' raw logs), started by [`recover`].
//!
//! The rooms themselves log through `room::actor::Journal` (write-ahead: an action's `ok`
//! goes out after its commit).

pub mod retention;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use qipai_games::Millis;
use qipai_protocol::RoomId;
use qipai_store::writer::{Writer, WriterConfig, WriterStats};
use qipai_store::{seated, Store, StoreError};

use crate::base::config::Config;
use crate::base::metrics::Metrics;
use crate::lobby::session::{Place, Restored, Sessions};
use crate::lobby::Lobby;

/// The open store and what start-up read from it.
pub struct Persist {
    pub store: Arc<dyn Store>,
    pub writer: Writer,
    /// Where the server's time line goes on from.
    pub clock_base: Millis,
    /// What the retention sweeps deleted.
    pub swept: Arc<retention::SweptTotals>,
    next_room: RoomId,
    next_number: u64,
}

impl Persist {
    /// The short number the next table gets (the store's count goes on from it).
    pub fn next_number(&self) -> u64 {
        self.next_number
    }
}

/// Opens the configured store; `None` when `[store] url` is empty.
///
/// # Errors
/// The store's error: the server must not run without the store it was told to use.
pub async fn open(config: &Config, metrics: &Metrics) -> Result<Option<Persist>, StoreError> {
    let url = config.store.url.trim();
    if url.is_empty() {
        return Ok(None);
    }
    let store = qipai_store::open_with(url, config.store.sqlite_sync.into()).await?;
    with_store(config, store, WriterConfig::default().retry, metrics)
        .await
        .map(Some)
}

/// Runs on `store` (already migrated), its failed transactions tried again after `retry`
/// (then ×4, five tries): the configured store, or a test's. Its commits are recorded in
/// `metrics`' histograms.
///
/// # Errors
/// The store's error when it cannot be read.
pub async fn with_store(
    config: &Config,
    store: Arc<dyn Store>,
    retry: Duration,
    metrics: &Metrics,
) -> Result<Persist, StoreError> {
    let (writer, _task) = Writer::spawn(
        Arc::clone(&store),
        WriterConfig {
            window: Duration::from_millis(config.store.group_commit_ms),
            retry,
            probe: Duration::from_millis(config.store.health_check_ms),
            commit_seconds: metrics.commit_seconds.clone(),
            batch_items: metrics.batch_items.clone(),
            ..WriterConfig::default()
        },
    );
    Ok(Persist {
        clock_base: Millis(store.last_time().await?),
        next_room: store.next_room_id().await?,
        next_number: store.next_room_number().await?,
        swept: Arc::default(),
        store,
        writer,
    })
}

/// Gives the lobby and the sessions the store's writer; when this node `owns_all` the
/// stored rooms, reopens every unfinished room and restores the sessions of the people
/// seated in them. A room that cannot be reopened is closed with a logged reason; the
/// others go on.
///
/// # Errors
/// The store's error when the logs cannot be read.
pub async fn recover(
    lobby: &Lobby,
    sessions: &Arc<Sessions>,
    config: &Config,
    persist: &Persist,
    owns_all: bool,
) -> Result<(), StoreError> {
    lobby.set_store(
        persist.writer.clone(),
        persist.next_room,
        persist.next_number,
    );
    sessions.set_store(persist.writer.clone());
    // With several nodes the rooms of the store belong to their owners: a node takes one
    // over only when its owner's lease is gone (`topology::cluster::takeover`).
    let logs = if owns_all {
        persist.store.unfinished().await?
    } else {
        Vec::new()
    };
    let mut places: HashMap<u64, Place> = HashMap::new();
    let count = logs.len();
    for log in logs {
        if !lives(lobby, &log) {
            persist.writer.post(qipai_store::Write::Closed {
                room: log.room.id,
                reason: "its game never started and nobody sat in it".into(),
            });
            continue;
        }
        places.extend(reopen(lobby, persist, log).unwrap_or_default());
    }
    let stored = if owns_all {
        persist.store.open_sessions(finished_since(config)).await?
    } else {
        Vec::new()
    };
    let restored = stored.len();
    for s in stored {
        restore_session(sessions, s, &places);
    }
    tracing::info!(
        rooms = count,
        sessions = restored,
        "recovered from the store"
    );
    retention::spawn(
        config.retention.clone(),
        Arc::clone(&persist.store),
        Arc::downgrade(sessions),
        Arc::clone(&persist.swept),
    );
    // Nobody comes back for a restored session after the longest reconnection grace.
    let grace = crate::room::wire::longest_seat_grace(config);
    let weak = Arc::downgrade(sessions);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(grace)).await;
        if let Some(sessions) = weak.upgrade() {
            sessions.forget_restored();
        }
    });
    Ok(())
}

/// Whether a stored open room comes back: its game started (and did not end), a person sits
/// in it (their reconnection grace runs from the restart), or it is a competition's table
/// (its entrants come when they come). A room that closed before its game started, whose
/// closing the store missed, would otherwise come back at every restart, for ever.
fn lives(lobby: &Lobby, log: &qipai_store::RoomLog) -> bool {
    let started = log
        .steps
        .iter()
        .any(|s| s.kind == qipai_store::StepKind::Start);
    let person = seated(&log.seats, usize::from(u8::MAX))
        .into_iter()
        .flatten()
        .any(|s| !s.bot);
    started || person || lobby.is_table(log.room.id)
}

/// Since when (Unix milliseconds) a finished game's players keep their sessions across a
/// restart: the linger of a finished room and the longest reconnection grace, so a player
/// who was still in a just-finished room resumes with their token (in no room).
pub fn finished_since(config: &Config) -> i64 {
    let keep = config.server.room_linger_ms + crate::room::wire::longest_seat_grace(config);
    qipai_store::unix_ms().saturating_sub(i64::try_from(keep).unwrap_or(i64::MAX))
}

/// Reopens one unfinished room from its log (after a restart, or a takeover from a dead
/// node): the places of its seated players, by player id; `None` when the room cannot be
/// reopened (it is then closed in the store with the reason logged).
pub fn reopen(
    lobby: &Lobby,
    persist: &Persist,
    log: qipai_store::RoomLog,
) -> Option<HashMap<u64, Place>> {
    let id = log.room.id;
    let seats: Vec<(u64, u8)> = seated(&log.seats, usize::from(u8::MAX))
        .into_iter()
        .enumerate()
        .filter_map(|(i, s)| Some((s?.player?, i as u8)))
        .collect();
    match lobby.reopen(log) {
        Ok(room) if lobby.get(id).is_some() => Some(
            seats
                .into_iter()
                .map(|(player, seat)| {
                    let place = Place {
                        room: room.clone(),
                        seat: Some(seat),
                    };
                    (player, place)
                })
                .collect(),
        ),
        Ok(_) => None,
        Err(e) => {
            tracing::error!(room = id, error = %e.message, "cannot reopen the room: closed");
            persist.writer.post(qipai_store::Write::Closed {
                room: id,
                reason: e.message,
            });
            None
        }
    }
}

/// Keeps a stored session until its player says hello with the token, with their place
/// among `places` (by player id).
pub fn restore_session(
    sessions: &Sessions,
    s: qipai_store::SessionRow,
    places: &HashMap<u64, Place>,
) {
    sessions.restore(
        s.token_hash,
        Restored {
            player_id: s.player,
            created_ms: s.created_ms,
            name: s.name,
            account: s.account,
            bot: s.bot,
            place: places.get(&s.player).cloned(),
        },
    );
}

/// The store writer's counters for `GET /metrics`. With SQLite (`synchronous = FULL`) each
/// commit is one fsync of the WAL, so `qipai_store_commits_total` per second is the fsync
/// rate (checkpoints aside), and items per commit is what the group commit shares.
pub fn scrape(stats: &WriterStats, scrape: &crate::base::metrics::Scrape<'_>) {
    use std::sync::atomic::Ordering::Relaxed;
    for (name, help, value) in [
        (
            "qipai_store_commits_total",
            "Store transactions committed by the group-commit writer.",
            &stats.commits,
        ),
        (
            "qipai_store_items_total",
            "Writes (steps, seat changes, results, records, sessions) committed.",
            &stats.items,
        ),
        (
            "qipai_store_failures_total",
            "Store batches that failed after every retry.",
            &stats.failures,
        ),
        (
            "qipai_store_refused_total",
            "Writes refused because the writer's queue was full.",
            &stats.refused,
        ),
    ] {
        scrape.counter(name, help, &[], value.load(Relaxed));
    }
}

/// `qipai-server backup FILE`: an online copy of the configured SQLite store into a new
/// file (`VACUUM INTO`: a consistent snapshot while the server runs and writes).
///
/// # Errors
/// No store configured, a PostgreSQL store (use `pg_dump`), or the copy failed.
pub async fn backup(config: &Config, file: &std::path::Path) -> Result<(), StoreError> {
    let url = config.store.url.trim();
    if url.is_empty() {
        return Err(StoreError::Unsupported("no [store] url is configured"));
    }
    let store = qipai_store::open(url).await?;
    store.backup(file).await
}
