//! A token bucket: `rate` tokens per second, holding at most `burst`.
//!
//! Used twice per connection: for messages (a flood is dropped with `rate_limited`) and for
//! errors (a connection that keeps sending bad input is closed); and once per address, for
//! new connections ([`crate::base::budget`]).

use tokio::time::Instant;

/// A token bucket refilled continuously.
#[derive(Debug)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate_per_sec: u32, burst: u32) -> TokenBucket {
        TokenBucket {
            rate: f64::from(rate_per_sec),
            burst: f64::from(burst.max(1)),
            tokens: f64::from(burst.max(1)),
            last: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket has refilled: forgetting it then loses nothing.
    pub fn is_full(&self) -> bool {
        let elapsed = Instant::now().duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.rate >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn burst_then_rate() {
        let mut bucket = TokenBucket::new(10, 3);
        assert!((0..3).all(|_| bucket.take()));
        assert!(!bucket.take());
        tokio::time::advance(Duration::from_millis(100)).await;
        assert!(bucket.take());
        assert!(!bucket.take());
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!((0..10).filter(|_| bucket.take()).count(), 3);
        assert!(!bucket.is_full());
        tokio::time::advance(Duration::from_millis(299)).await;
        assert!(!bucket.is_full());
        tokio::time::advance(Duration::from_millis(1)).await;
        assert!(bucket.is_full());
    }
}
