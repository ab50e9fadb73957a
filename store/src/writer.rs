//! Group commit: one task owns the store's writes. Rooms hand it [`Write`]s; it takes
//! whatever is ready, writes the lot in one transaction — one fsync for the batch — and then
//! acknowledges each item. Whatever arrives while a transaction commits makes the next
//! batch, so batches grow with the load by themselves: an idle server commits an action at
//! once, a busy one shares each fsync among everything that came in during the last.
//! Items are committed in the order they were handed in, so a room's steps stay in order,
//! and without a gap: once a room's step failed, its later steps are refused unwritten (a
//! room hands in its next steps before the last ones are committed, and a restart replays a
//! log only up to its first gap).
//! Between commits the same task probes the backend now and then, so that [`Health`] knows
//! whether the store can write even while nothing is written.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use crate::health::Health;
use crate::{StepRow, Store, Write};

/// Counters of the writer's work.
#[derive(Debug, Default)]
pub struct WriterStats {
    /// Transactions committed (each one fsync on SQLite with `synchronous = FULL`).
    pub commits: AtomicU64,
    /// Items written.
    pub items: AtomicU64,
    /// Batches that failed after every retry (their items were acknowledged as lost).
    pub failures: AtomicU64,
    /// Items refused because the queue was full.
    pub refused: AtomicU64,
}

/// How long a batch may take, tries and pauses included, by default: the actions waiting
/// for it are answered within a second, whatever the store does.
pub const GIVE_UP: Duration = Duration::from_millis(700);

/// Writes handed in together (a room's step with its seat changes), acknowledged together.
type Writes = (Vec<Write>, Option<oneshot::Sender<bool>>);

/// What a room hands the writer.
enum Item {
    Writes(Writes),
    /// The room rebuilt itself from its log after a refused step: its later steps go on
    /// from that log, so the gap the refusal left is closed (acknowledged once every item
    /// the room handed in before is done with).
    Mend(u64, oneshot::Sender<()>),
}

/// The writer's handle: cheap to clone, shared by every room.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::Sender<Item>,
    /// The store it writes to, for what a writer must read before it writes (a rated
    /// game's ratings before the game's last step).
    store: Arc<dyn Store>,
    stats: Arc<WriterStats>,
    health: Arc<Health>,
}

/// Resolves to `true` once the item is committed, `false` if it could not be.
pub struct Ack(oneshot::Receiver<bool>);

impl Ack {
    /// Waits for the commit.
    pub async fn durable(self) -> bool {
        self.await
    }
}

/// An ack is itself the wait for the commit, so that a room can keep several in a queue and
/// wait for the oldest beside its other work (`&mut ack` in a `select!`).
impl Future for Ack {
    type Output = bool;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        Pin::new(&mut self.0).poll(cx).map(|r| r.unwrap_or(false))
    }
}

/// How the writer batches, and where it records each commit.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// After the first item of a batch, how long to wait for more before committing (0, the
    /// default: take what is queued; the batch grows while the previous one commits).
    pub window: Duration,
    /// Most items in one transaction.
    pub max_batch: usize,
    /// Items queued before `post` refuses and `send` waits.
    pub queue: usize,
    /// The first pause before a failed transaction is tried again (then ×4), as long as
    /// `give_up` allows.
    pub retry: Duration,
    /// How long a batch may take, its tries and pauses included, before it is given up
    /// (its items acknowledged as not committed): a try is cut off when this runs out, and
    /// no pause starts that would end after it.
    pub give_up: Duration,
    /// How often the backend is probed between commits ([`Store::ping`]); zero: never.
    pub probe: Duration,
    /// Each transaction's time in seconds, its tries included (the server's histogram;
    /// by default recorded nowhere).
    pub commit_seconds: metrics::Histogram,
    /// The number of items in each transaction.
    pub batch_items: metrics::Histogram,
}

impl Default for WriterConfig {
    fn default() -> WriterConfig {
        WriterConfig {
            window: Duration::ZERO,
            max_batch: 4096,
            queue: 65536,
            retry: Duration::from_millis(10),
            give_up: GIVE_UP,
            probe: Duration::from_secs(1),
            commit_seconds: metrics::Histogram::noop(),
            batch_items: metrics::Histogram::noop(),
        }
    }
}

impl Writer {
    /// Starts the writer task over `store`. It ends when every handle is dropped, after
    /// writing what was queued.
    pub fn spawn(
        store: Arc<dyn Store>,
        config: WriterConfig,
    ) -> (Writer, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(config.queue.max(1));
        let stats = Arc::new(WriterStats::default());
        let health = Arc::new(Health::default());
        let task = tokio::spawn(run(
            Arc::clone(&store),
            config,
            rx,
            Arc::clone(&stats),
            Arc::clone(&health),
        ));
        (
            Writer {
                tx,
                store,
                stats,
                health,
            },
            task,
        )
    }

    /// Queues `write`; the [`Ack`] resolves once it is committed.
    pub async fn send(&self, write: Write) -> Ack {
        self.send_all(vec![write]).await
    }

    /// Queues `writes`, in order, to be committed in one transaction; the [`Ack`] resolves
    /// once they are.
    pub async fn send_all(&self, writes: Vec<Write>) -> Ack {
        let (ack, rx) = oneshot::channel();
        // A send error means the writer is gone: the dropped sender resolves the ack false.
        let _ = self.tx.send(Item::Writes((writes, Some(ack)))).await;
        Ack(rx)
    }

    /// Room `room` has rebuilt itself from its stored log after one of its steps was refused
    /// (its later ones were refused too, unwritten): from now on its steps are taken again.
    /// Returns once the writer has seen everything the room handed in before.
    pub async fn mend(&self, room: u64) {
        let (done, mended) = oneshot::channel();
        if self.tx.send(Item::Mend(room, done)).await.is_ok() {
            let _ = mended.await;
        }
    }

    /// Queues `write` without waiting and without an acknowledgement; `false` (counted in
    /// `refused`) when the queue is full or the writer gone.
    pub fn post(&self, write: Write) -> bool {
        let ok = self.tx.try_send(Item::Writes((vec![write], None))).is_ok();
        if !ok {
            self.stats.refused.fetch_add(1, Ordering::Relaxed);
        }
        ok
    }

    /// Queues `write` without waiting; the [`Ack`] resolves once it is committed (false
    /// at once when the queue is full).
    pub fn try_send(&self, write: Write) -> Ack {
        let (ack, rx) = oneshot::channel();
        if self
            .tx
            .try_send(Item::Writes((vec![write], Some(ack))))
            .is_err()
        {
            self.stats.refused.fetch_add(1, Ordering::Relaxed);
        }
        Ack(rx)
    }

    /// The store it writes to.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The writer's counters.
    pub fn stats(&self) -> &Arc<WriterStats> {
        &self.stats
    }

    /// `None` while the store can write; otherwise why it cannot ([`Health`]).
    pub fn unavailable(&self) -> Option<String> {
        self.health.unavailable()
    }
}

async fn run(
    store: Arc<dyn Store>,
    config: WriterConfig,
    mut rx: mpsc::Receiver<Item>,
    stats: Arc<WriterStats>,
    health: Arc<Health>,
) {
    let max = config.max_batch.max(1);
    let mut writes = Vec::new();
    let mut acks = Vec::new();
    let mut broken = Broken::default();
    let mut probe = (!config.probe.is_zero()).then(|| {
        let mut every = tokio::time::interval(config.probe);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every
    });
    loop {
        let item = tokio::select! {
            item = rx.recv() => match item {
                Some(item) => item,
                None => break,
            },
            () = tick(probe.as_mut()) => {
                match store.ping().await {
                    Ok(()) => health.up(),
                    Err(error) => health.down(&error.to_string()),
                }
                continue;
            }
        };
        broken.admit(item, &mut writes, &mut acks);
        if !config.window.is_zero() {
            tokio::time::sleep(config.window).await;
        }
        while writes.len() < max {
            match rx.try_recv() {
                Ok(item) => broken.admit(item, &mut writes, &mut acks),
                Err(_) => break,
            }
        }
        if writes.is_empty() && acks.is_empty() {
            // Everything taken was refused.
            continue;
        }
        let count = writes.len() as u64;
        config.batch_items.record(count as f64);
        let started = std::time::Instant::now();
        let ok = commit(&*store, &health, &writes, config.retry, config.give_up).await;
        config
            .commit_seconds
            .record(started.elapsed().as_secs_f64());
        if ok {
            stats.commits.fetch_add(1, Ordering::Relaxed);
            stats.items.fetch_add(count, Ordering::Relaxed);
        } else {
            stats.failures.fetch_add(1, Ordering::Relaxed);
            broken.rooms.extend(steps(&writes).map(Broken::key));
        }
        writes.clear();
        for ack in acks.drain(..) {
            let _ = ack.send(ok);
        }
    }
}

/// The rooms whose logs have a gap: a step of theirs was not committed, so none of their
/// later steps may be. Keyed by the owner's lease epoch too, since a room taken over (several
/// nodes) goes on from its log under a new epoch.
#[derive(Default)]
struct Broken {
    rooms: HashSet<(u64, u64)>,
}

impl Broken {
    fn key(step: &StepRow) -> (u64, u64) {
        (step.room, step.epoch)
    }

    /// Adds `item` to the batch, or refuses it (acknowledged as not committed) when it
    /// carries a step of a room whose log has a gap; a mended room's steps are taken again.
    fn admit(
        &mut self,
        item: Item,
        writes: &mut Vec<Write>,
        acks: &mut Vec<oneshot::Sender<bool>>,
    ) {
        let (items, ack) = match item {
            Item::Writes(writes) => writes,
            Item::Mend(room, done) => {
                self.rooms.retain(|&(r, _)| r != room);
                let _ = done.send(());
                return;
            }
        };
        if !self.rooms.is_empty() && steps(&items).any(|s| self.rooms.contains(&Self::key(s))) {
            if let Some(ack) = ack {
                let _ = ack.send(false);
            }
            return;
        }
        writes.extend(items);
        acks.extend(ack);
    }
}

/// The steps among `writes`.
fn steps(writes: &[Write]) -> impl Iterator<Item = &StepRow> {
    writes.iter().filter_map(|w| match w {
        Write::Step(step) => Some(step),
        _ => None,
    })
}

/// The probe's next tick; never, without a probe.
async fn tick(probe: Option<&mut tokio::time::Interval>) {
    match probe {
        Some(every) => {
            every.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// Writes a batch, retrying a failed transaction (a busy or restarting database) while
/// `give_up` allows: pauses of `delay`, then ×4, none that would end after it, and a try
/// cut off when it runs out. The store is marked down from the first failed try (rooms
/// then refuse new actions instead of applying what may not be saved).
async fn commit(
    store: &dyn Store,
    health: &Health,
    batch: &[Write],
    mut delay: Duration,
    give_up: Duration,
) -> bool {
    let end = tokio::time::Instant::now() + give_up;
    for attempt in 1.. {
        let error = match tokio::time::timeout_at(end, store.write(batch.to_vec())).await {
            Ok(Ok(())) => {
                health.up();
                return true;
            }
            Ok(Err(error)) => error.to_string(),
            Err(_) => format!("no answer within {} ms", give_up.as_millis()),
        };
        health.down(&error);
        tracing::error!(%error, attempt, items = batch.len(), "a store batch failed");
        if tokio::time::Instant::now() + delay >= end {
            break;
        }
        tokio::time::sleep(delay).await;
        delay *= 4;
    }
    false
}
