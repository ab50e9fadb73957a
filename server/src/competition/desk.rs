//! One task per competition, and the board every reader reads.
//!
//! A competition's state is owned by its *desk*: a task with an inbox of edits, like a room's
//! actor. The desk runs one edit at a time on a copy, commits the edit's writes to the store,
//! and only then keeps the copy and publishes it on the [`Board`]. So edits of one
//! competition are in order and never lost, edits of different competitions never wait for
//! each other, and a reader never waits for a commit: it reads the board, which holds what
//! was last committed.
//!
//! Two partnered competitions (one of each event) share one desk: an import fills both, and
//! 不得兼项 is checked across them (tournaments.md "Entries"), so their edits must be in one
//! order.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use qipai_protocol::WireError;
use qipai_store::competition::CompetitionWrite;
use qipai_store::Store;
use tokio::sync::{mpsc, watch};

use super::Held;

/// Every competition as last committed, by id: what the public pages are answered from.
pub type Published = Arc<BTreeMap<u64, Arc<Held>>>;

/// What the desks publish and every reader reads; none of it is held across an await.
pub struct Board {
    published: watch::Sender<Published>,
    /// Bumped on every publication: the public pages poll or watch it.
    version: watch::Sender<u64>,
    /// The version at which each competition was last published (the WebSocket watch).
    changed_at: std::sync::Mutex<HashMap<u64, u64>>,
}

impl Board {
    pub fn new() -> Board {
        Board {
            published: watch::channel(Published::default()).0,
            version: watch::channel(0).0,
            changed_at: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Every competition as last committed.
    pub fn published(&self) -> Published {
        Arc::clone(&self.published.borrow())
    }

    /// Publishes `held` (just committed) and wakes whoever watches.
    pub fn publish(&self, held: &[Arc<Held>]) {
        self.published.send_modify(|all| {
            let all = Arc::make_mut(all);
            for h in held {
                all.insert(h.id, Arc::clone(h));
            }
        });
        self.version.send_modify(|v| {
            *v += 1;
            if let Ok(mut at) = self.changed_at.lock() {
                for h in held {
                    at.insert(h.id, *v);
                }
            }
        });
    }

    /// The version at which the competition `id` was last published (0: not since the
    /// start).
    pub fn changed_at(&self, id: u64) -> u64 {
        self.changed_at
            .lock()
            .ok()
            .and_then(|at| at.get(&id).copied())
            .unwrap_or(0)
    }

    /// A receiver that sees every publication's version.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }
}

/// An edit made and waiting for its commit.
pub struct Staged {
    /// What the store must commit, in one transaction, before the edit counts.
    pub writes: Vec<CompetitionWrite>,
    /// The competitions as edited (new ones included): kept and published once committed.
    pub edited: Vec<Held>,
    /// Told how the commit went, after the edit is published (or dropped).
    pub done: Box<dyn FnOnce(Result<(), WireError>) + Send>,
}

/// One edit: given the desk's competitions, stages a change, or answers its sender itself
/// (a refusal) and stages nothing.
pub type Edit = Box<dyn FnOnce(&BTreeMap<u64, Arc<Held>>) -> Option<Staged> + Send>;

/// The inbox of a desk.
pub type Inbox = mpsc::Sender<Edit>;

/// Edits waiting at one desk before a sender waits its turn.
const INBOX: usize = 64;

/// Starts the desk of `held` (one competition, or two partners); it ends when every sender
/// of its inbox is dropped.
pub fn spawn(held: Vec<Arc<Held>>, store: Option<Arc<dyn Store>>, board: Arc<Board>) -> Inbox {
    let (tx, rx) = mpsc::channel(INBOX);
    let held = held.into_iter().map(|h| (h.id, h)).collect();
    tokio::spawn(run(held, rx, store, board));
    tx
}

async fn run(
    mut held: BTreeMap<u64, Arc<Held>>,
    mut inbox: mpsc::Receiver<Edit>,
    store: Option<Arc<dyn Store>>,
    board: Arc<Board>,
) {
    while let Some(edit) = inbox.recv().await {
        let Some(staged) = edit(&held) else {
            continue;
        };
        let committed = match &store {
            Some(store) if !staged.writes.is_empty() => store
                .competition_write(staged.writes)
                .await
                .map_err(|e| super::store_failed(&e)),
            _ => Ok(()),
        };
        if committed.is_ok() {
            let edited: Vec<Arc<Held>> = staged.edited.into_iter().map(Arc::new).collect();
            for h in &edited {
                held.insert(h.id, Arc::clone(h));
            }
            board.publish(&edited);
        }
        (staged.done)(committed);
    }
}
