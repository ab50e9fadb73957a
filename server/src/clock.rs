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
}

impl ServerClock {
    /// A clock whose zero is now.
    pub fn start() -> ServerClock {
        ServerClock {
            epoch: Instant::now(),
        }
    }

    /// Milliseconds since start-up.
    pub fn now(&self) -> Millis {
        Millis(self.epoch.elapsed().as_millis() as u64)
    }

    /// The tokio instant of a moment on this time line, for `sleep_until`.
    pub fn instant(&self, at: Millis) -> Instant {
        self.epoch + Duration::from_millis(at.0)
    }
}
