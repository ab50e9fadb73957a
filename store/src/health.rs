//! Whether the store can take a write now, and if not why: what `/healthz` answers and
//! what a room checks before it applies an action (an action the store cannot save is
//! refused with `store_unavailable` before it changes anything, so the room stays open and
//! takes the next action once the store is back).
//!
//! Two sources keep it current: every commit the writer tries (a failed try marks the
//! store down at once, a commit marks it up), and the writer's probe of the backend
//! ([`crate::Store::ping`]) between commits, which notices a database that went away or
//! came back while nothing was written.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// The store's health, shared by the writer, the rooms and `/healthz`.
#[derive(Debug)]
pub struct Health {
    /// Read on every action, so a flag rather than the lock.
    up: AtomicBool,
    /// Why the last try failed (kept while the store is down).
    reason: Mutex<String>,
}

impl Default for Health {
    fn default() -> Health {
        Health {
            up: AtomicBool::new(true),
            reason: Mutex::new(String::new()),
        }
    }
}

impl Health {
    /// `None` while the store can write; otherwise why it cannot.
    pub fn unavailable(&self) -> Option<String> {
        if self.up.load(Ordering::Acquire) {
            return None;
        }
        Some(
            self.reason
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        )
    }

    /// The store took a write (or answered a probe).
    pub fn up(&self) {
        if !self.up.swap(true, Ordering::AcqRel) {
            tracing::info!("the store can write again");
        }
    }

    /// A write (or a probe) failed with `reason`.
    pub fn down(&self, reason: &str) {
        *self.reason.lock().unwrap_or_else(PoisonError::into_inner) = reason.to_owned();
        if self.up.swap(false, Ordering::AcqRel) {
            tracing::warn!(reason, "the store cannot write");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn down_names_the_reason_until_up() {
        let h = Health::default();
        assert_eq!(h.unavailable(), None);
        h.down("connection refused");
        assert_eq!(h.unavailable().as_deref(), Some("connection refused"));
        h.down("still refused");
        assert_eq!(h.unavailable().as_deref(), Some("still refused"));
        h.up();
        assert_eq!(h.unavailable(), None);
    }
}
