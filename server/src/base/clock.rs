//! The server's one time line: milliseconds since start-up on tokio's monotonic clock.
//!
//! Every `server_time` on the wire and every `now` given to a game comes from here, so
//! clients can line their clocks up with `pong` and tests can pause and advance it.

use std::time::Duration;

use qipai_games::Millis;
use tokio::time::Instant;

/// Converts between tokio instants and the milliseconds games and clients speak in.
#[derive(Clone, Copy, Debug)]
pub struct ServerClock {
    epoch: Instant,
    /// The time line's value at `epoch`: 0, or where the time line stopped before a
    /// restart (see `persist`), so that it goes on instead of starting again at zero.
    base: Millis,
}

impl ServerClock {
    /// A clock whose zero is now.
    pub fn start() -> ServerClock {
        ServerClock::start_at(Millis::ZERO)
    }

    /// A clock that reads `base` now: the time line after a restart goes on from where the
    /// stored log left it, and the time the server was down is on nobody's clock.
    pub fn start_at(base: Millis) -> ServerClock {
        ServerClock {
            epoch: Instant::now(),
            base,
        }
    }

    /// The same clock running `by` behind: a room taken over from a dead node runs this far
    /// behind its new node's clock, the time it had no owner (`cluster::takeover`).
    pub fn behind(self, by: Millis) -> ServerClock {
        ServerClock {
            epoch: self.epoch,
            base: self.base.saturating_sub(by),
        }
    }

    /// Milliseconds since start-up (plus the base).
    pub fn now(&self) -> Millis {
        self.base + Millis(self.epoch.elapsed().as_millis() as u64)
    }

    /// The tokio instant of a moment on this time line, for `sleep_until`.
    pub fn instant(&self, at: Millis) -> Instant {
        self.epoch + Duration::from_millis(at.saturating_sub(self.base).0)
    }
}
