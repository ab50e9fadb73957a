//! Graceful shutdown: one trigger, many listeners.
//!
//! `main` (or a test) holds the [`ShutdownTrigger`]; every connection and room holds a
//! [`Shutdown`] clone and `select!`s on [`Shutdown::wait`]. Connections tell their client
//! with a `shutdown` message before closing. Several nodes: a drain comes first
//! ([`ShutdownTrigger::drain`]: the node hands its rooms over, then stops accepting).

use tokio::sync::watch;

/// Serving.
const RUNNING: u8 = 0;
/// Asked to drain (several nodes), still serving.
const DRAINING: u8 = 1;
/// Stopping.
const FIRED: u8 = 2;

/// Fires the shutdown.
#[derive(Debug)]
pub struct ShutdownTrigger(watch::Sender<u8>);

/// Waits for the shutdown.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Receiver<u8>);

/// A connected trigger and listener.
pub fn channel() -> (ShutdownTrigger, Shutdown) {
    let (tx, rx) = watch::channel(RUNNING);
    (ShutdownTrigger(tx), Shutdown(rx))
}

impl ShutdownTrigger {
    /// Tells every listener to stop.
    pub fn fire(&self) {
        self.0.send_replace(FIRED);
    }

    /// Asks the server to drain before it stops (several nodes: `cluster::drain`); it stops
    /// accepting once drained, and the caller then fires.
    pub fn drain(&self) {
        self.0.send_if_modified(|s| {
            let running = *s == RUNNING;
            if running {
                *s = DRAINING;
            }
            running
        });
    }
}

impl Shutdown {
    /// Whether the shutdown has fired.
    pub fn is_fired(&self) -> bool {
        *self.0.borrow() == FIRED
    }

    /// Resolves once the shutdown fires (at once if it already has, or if the trigger is
    /// gone).
    pub async fn wait(&mut self) {
        // An error means the trigger was dropped: treat that as a shutdown too.
        let _ = self.0.wait_for(|s| *s == FIRED).await;
    }

    /// Resolves when a drain is asked (`true`) or the shutdown fires first (`false`).
    pub async fn drain_asked(&mut self) -> bool {
        match self.0.wait_for(|s| *s != RUNNING).await {
            Ok(s) => *s == DRAINING,
            Err(_) => false,
        }
    }
}
