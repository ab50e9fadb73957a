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
    pub token: String,
    /// The room the player is in. A std mutex: held for a clone or a store, never across
    /// an await.
    place: Mutex<Option<Place>>,
    /// The id of the connection attached now; 0 when none.
    conn: AtomicU64,
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
}

/// Every live session, by resume token.
#[derive(Debug, Default)]
pub struct Sessions {
    by_token: DashMap<String, Arc<Session>>,
    next_player: AtomicU64,
}

impl Sessions {
    /// A new session for `name`, attached to `conn_id`.
    pub fn create(&self, name: String, conn_id: u64) -> Arc<Session> {
        let mut secret = [0u8; 16];
        rand::rng().fill_bytes(&mut secret);
        let token: String = secret.iter().map(|b| format!("{b:02x}")).collect();
        let session = Arc::new(Session {
            player_id: self.next_player.fetch_add(1, Ordering::Relaxed) + 1,
            name,
            token: token.clone(),
            place: Mutex::new(None),
            conn: AtomicU64::new(conn_id),
        });
        self.by_token.insert(token, session.clone());
        session
    }

    /// The session with this token, now attached to `conn_id` (the previous connection, if
    /// any is still open, no longer acts for it).
    pub fn resume(&self, token: &str, conn_id: u64) -> Option<Arc<Session>> {
        let session = self.by_token.get(token)?.clone();
        session.conn.store(conn_id, Ordering::Release);
        Some(session)
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
        let sessions = Arc::clone(self);
        let session = Arc::clone(session);
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            if session.is_attached(0) {
                sessions.by_token.remove(&session.token);
            }
        });
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
