//! Sessions: who a player is across connections.
//!
//! `hello` creates a session with a secret resume token; `hello` with that token on a new
//! connection, within the reconnection grace, finds it again with its place (room and seat).
//! Only the connection currently attached to a session acts for it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dashmap::DashMap;
use qipai_protocol::PlayerId;
use rand::RngCore;
use tokio::sync::Notify;

use crate::room::RoomHandle;

/// Where a player is: a room, seated or watching.
#[derive(Clone, Debug)]
pub struct Place {
    pub room: RoomHandle,
    pub seat: Option<u8>,
}

/// One player, across connections.
#[derive(Debug)]
pub struct Session {
    pub player_id: PlayerId,
    pub name: String,
    /// The signed-in account the player plays as (`None`: a guest, or a bot): what a rated
    /// table asks for, kept with the session in the store and on other nodes.
    pub account: Option<u64>,
    /// A bot the server seated itself.
    pub bot: bool,
    pub token: String,
    /// When the session was made (Unix ms; 0 when another node made it): the retention
    /// sweep keeps the stored rows of live sessions older than its cut.
    pub created_ms: i64,
    /// The room the player is in. A std mutex: held for a clone or a store, never across
    /// an await.
    place: Mutex<Option<Place>>,
    /// The id of the connection attached now; 0 when none.
    conn: AtomicU64,
    /// Rises with every attachment, so a grace timer started by an earlier disconnect
    /// knows it is stale.
    generation: AtomicU64,
    /// Wakes the attached connection's reader to close it when another connection takes
    /// the session over.
    kill: Mutex<Option<Arc<Notify>>>,
}

impl Session {
    /// Where the player is.
    pub fn place(&self) -> Option<Place> {
        self.place
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Records where the player is (`None`: nowhere).
    pub fn set_place(&self, place: Option<Place>) {
        *self.place.lock().unwrap_or_else(PoisonError::into_inner) = place;
    }

    /// Whether `conn_id` is the connection attached now.
    pub fn is_attached(&self, conn_id: u64) -> bool {
        self.conn.load(Ordering::Acquire) == conn_id
    }

    /// Attaches `conn_id` (whose reader `kill` wakes), closing the one attached before.
    fn attach(&self, conn_id: u64, kill: Arc<Notify>) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.conn.store(conn_id, Ordering::Release);
        let old = self
            .kill
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(kill);
        if let Some(old) = old {
            old.notify_one();
        }
    }
}

/// Who a session is, as another node tells it.
pub struct Identity {
    pub player: PlayerId,
    pub name: String,
    pub account: Option<u64>,
    pub bot: bool,
}

/// Every live session, by resume token.
#[derive(Default)]
pub struct Sessions {
    by_token: DashMap<String, Arc<Session>>,
    /// The player ids of live sessions, so a random one is never given twice at once.
    ids: dashmap::DashSet<PlayerId>,
    /// Sessions read back from the store after a restart, by token hash, until their
    /// player says hello with the token (see `persist`).
    restored: DashMap<Vec<u8>, Restored>,
    /// Where new sessions are written, when there is a store.
    writer: std::sync::OnceLock<qipai_store::writer::Writer>,
}

/// A session read back from the store: who, and where they sat.
pub struct Restored {
    pub player_id: PlayerId,
    /// When the session was first made (Unix ms).
    pub created_ms: i64,
    pub name: String,
    pub account: Option<u64>,
    pub bot: bool,
    pub place: Option<Place>,
}

impl Sessions {
    /// A new session for `name` (signed in as `account`), attached to `conn_id` (whose
    /// reader `kill` wakes).
    pub fn create(
        &self,
        name: String,
        account: Option<u64>,
        conn_id: u64,
        kill: Arc<Notify>,
        bot: bool,
    ) -> Arc<Session> {
        let mut secret = [0u8; 16];
        rand::rng().fill_bytes(&mut secret);
        let token = qipai_store::hex(&secret);
        // Random, like room ids (lobby): never an earlier run's, not enumerable.
        let player_id = loop {
            let id = crate::lobby::random_id(|id| self.ids.contains(&id));
            if self.ids.insert(id) {
                break id;
            }
        };
        let created_ms = qipai_store::unix_ms();
        let session = Arc::new(Session {
            player_id,
            name,
            account,
            bot,
            token: token.clone(),
            created_ms,
            place: Mutex::new(None),
            conn: AtomicU64::new(conn_id),
            generation: AtomicU64::new(0),
            kill: Mutex::new(Some(kill)),
        });
        self.by_token.insert(token, session.clone());
        if let (Some(writer), false) = (self.writer.get(), bot) {
            writer.post(qipai_store::Write::Session(qipai_store::SessionRow {
                token_hash: qipai_store::hash_token(&session.token),
                player: session.player_id,
                name: session.name.clone(),
                account: session.account,
                bot,
                created_ms,
            }));
        }
        session
    }

    /// Writes new sessions to the store from now on.
    pub fn set_store(&self, writer: qipai_store::writer::Writer) {
        let _ = self.writer.set(writer);
    }

    /// A session from before a restart, found again by the hash of its token.
    pub fn restore(&self, token_hash: Vec<u8>, restored: Restored) {
        // Its id stays taken, so no new session is given it.
        self.ids.insert(restored.player_id);
        self.restored.insert(token_hash, restored);
    }

    /// Forgets the restored sessions nobody came back for.
    pub fn forget_restored(&self) {
        self.restored.clear();
    }

    /// The restored session whose token this is, now live under it.
    fn adopt(&self, token: &str) -> Option<Arc<Session>> {
        let (_, r) = self.restored.remove(&qipai_store::hash_token(token))?;
        let session = Arc::new(Session {
            player_id: r.player_id,
            name: r.name,
            account: r.account,
            bot: r.bot,
            token: token.to_owned(),
            created_ms: r.created_ms,
            place: Mutex::new(r.place),
            conn: AtomicU64::new(0),
            generation: AtomicU64::new(0),
            kill: Mutex::new(None),
        });
        self.by_token.insert(token.to_owned(), session.clone());
        Some(session)
    }

    /// The session with this token, now attached to `conn_id`; the previous connection, if
    /// one is still open, is closed.
    pub fn resume(&self, token: &str, conn_id: u64, kill: Arc<Notify>) -> Option<Arc<Session>> {
        let session = match self.by_token.get(token) {
            Some(s) => s.clone(),
            None => self.adopt(token)?,
        };
        session.attach(conn_id, kill);
        Some(session)
    }

    /// Several nodes: the session of a player another node knows (forwarded here with
    /// their identity, or found in Redis), attached to `conn_id`: the live one with this
    /// token if there is one, else a new one with the same identity and token at `place`.
    pub fn adopt_identity(
        &self,
        token: &str,
        identity: Identity,
        place: Option<Place>,
        conn_id: u64,
        kill: Arc<Notify>,
    ) -> Arc<Session> {
        if let Some(session) = self.resume(token, conn_id, Arc::clone(&kill)) {
            return session;
        }
        self.ids.insert(identity.player);
        let session = Arc::new(Session {
            player_id: identity.player,
            name: identity.name,
            account: identity.account,
            bot: identity.bot,
            token: token.to_owned(),
            created_ms: 0,
            place: Mutex::new(place),
            conn: AtomicU64::new(conn_id),
            generation: AtomicU64::new(0),
            kill: Mutex::new(Some(kill)),
        });
        self.by_token.insert(token.to_owned(), session.clone());
        session
    }

    /// Forgets a live session at once: its connection continues on another node, which
    /// now holds it (a later `hello` with the token here looks it up in Redis).
    pub fn forget(&self, session: &Session) {
        self.by_token.remove(&session.token);
        self.ids.remove(&session.player_id);
    }

    /// `conn_id` closed. Unless a new connection takes the session within `grace`, the
    /// session is forgotten.
    pub fn release(self: &Arc<Self>, session: &Arc<Session>, conn_id: u64, grace: Duration) {
        if session
            .conn
            .compare_exchange(conn_id, 0, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return;
        }
        let generation = session.generation.load(Ordering::Acquire);
        let sessions = Arc::clone(self);
        let session = Arc::clone(session);
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            let untouched = session.generation.load(Ordering::Acquire) == generation;
            if untouched && session.is_attached(0) {
                sessions.by_token.remove(&session.token);
                sessions.ids.remove(&session.player_id);
            }
        });
    }

    /// The players of live sessions made before `cut_ms` (Unix ms), and of the restored
    /// ones nobody came back for yet: the retention sweep keeps their stored rows.
    pub fn live_before(&self, cut_ms: i64) -> Vec<PlayerId> {
        let live = self.by_token.iter().filter(|s| s.created_ms < cut_ms);
        let live = live.map(|s| s.player_id);
        live.chain(self.restored.iter().map(|r| r.player_id))
            .collect()
    }

    /// How many sessions are live.
    pub fn len(&self) -> usize {
        self.by_token.len()
    }

    /// Whether no session is live.
    pub fn is_empty(&self) -> bool {
        self.by_token.is_empty()
    }
}
