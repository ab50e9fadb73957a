//! Graceful shutdown: one trigger, many listeners.
//!
//! `main` (or a test) holds the [`ShutdownTrigger`]; every connection and room holds a
//! [`Shutdown`] clone and `select!`s on [`Shutdown::wait`]. Connections tell their client
//! with a `shutdown` message before closing.

use tokio::sync::watch;

/// Fires the shutdown.
#[derive(Debug)]
pub struct ShutdownTrigger(watch::Sender<bool>);

/// Waits for the shutdown.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Receiver<bool>);

/// A connected trigger and listener.
pub fn channel() -> (ShutdownTrigger, Shutdown) {
    let (tx, rx) = watch::channel(false);
    (ShutdownTrigger(tx), Shutdown(rx))
}

impl ShutdownTrigger {
    /// Tells every listener to stop.
    pub fn fire(&self) {
        self.0.send_replace(true);
    }
}

impl Shutdown {
    /// Whether the shutdown has fired.
    pub fn is_fired(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once the shutdown fires (at once if it already has, or if the trigger is
    /// gone).
    pub async fn wait(&mut self) {
        // An error means the trigger was dropped: treat that as a shutdown too.
        let _ = self.0.wait_for(|fired| *fired).await;
    }
}
