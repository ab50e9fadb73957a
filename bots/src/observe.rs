//! Hooks into the bot client for tools that drive many bots (the load test): every message
//! each way with its size and the moment it was sent or read, and the pace of play.
//!
//! A plain bot uses [`Quiet`]: no hooks, the strategy on a blocking thread, no pause.

use std::time::{Duration, Instant};

use qipai_protocol::{ClientMsg, ServerMsg};

/// Watches one bot client's traffic and sets its pace. Called on the client's own task, so
/// every method must return quickly.
pub trait Observer: Send + 'static {
    /// `msg` is about to be written: `bytes` long, encoded at `at`.
    fn sent(&mut self, msg: &ClientMsg, bytes: usize, at: Instant) {
        let _ = (msg, bytes, at);
    }

    /// A frame `bytes` long came off the socket at `at` (before it was decoded); its
    /// messages follow, one [`Observer::received`] each (a batch holds several).
    fn frame(&mut self, bytes: usize, at: Instant) {
        let _ = (bytes, at);
    }

    /// `msg` was read from a frame that came off the socket at `at`.
    fn received(&mut self, msg: &ServerMsg, at: Instant) {
        let _ = (msg, at);
    }

    /// How long to wait after the strategy has decided and before the action goes out: a
    /// human's pace. Messages keep being read meanwhile.
    fn think_time(&mut self) -> Duration {
        Duration::ZERO
    }

    /// Whether to run the strategy on the client's async task rather than a blocking
    /// thread: right for strategies that take microseconds, when thousands of bots share
    /// a few cores.
    fn inline_strategy(&self) -> bool {
        false
    }

    /// Permits shared by many bots: a decision waits for one before it takes a blocking
    /// thread, so at most that many searches run at once (the server's `bot_threads`).
    /// `None`: no limit.
    fn think_permits(&self) -> Option<std::sync::Arc<tokio::sync::Semaphore>> {
        None
    }

    /// The game ended while the strategy was still deciding: the decision is not wanted,
    /// and a strategy that can be told to stop (the server's xiangqi bots) may be told now.
    fn stop_thinking(&mut self) {}
}

/// No hooks: the strategy thinks on a blocking thread and its answer goes out at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Observer for Quiet {}
