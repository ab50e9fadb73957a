//! Tables' short numbers with several nodes ("第 12 桌"): one count for the whole cluster,
//! kept in Redis, from which each node leases a block of [`BLOCK`] numbers at a time. A new
//! table takes its number from the node's block without a round trip, the next block is
//! leased while half of this one is left, and no number is ever given by two nodes. Numbers
//! are not in opening order across nodes (two nodes hand out two blocks at once), which a
//! label people read and say does not need.
//!
//! The count never goes below the store's (`rooms.number` and `counters`, shared by the
//! nodes): a Redis that lost its keys starts again above every number already given.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use redis::aio::ConnectionManager;

/// Numbers leased at a time by one node.
pub const BLOCK: u64 = 64;

/// Raises the count to at least ARGV[2] - 1, then takes ARGV[1] numbers: returns the last.
const LEASE: &str = r"
local floor = tonumber(ARGV[2]) - 1
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < floor then redis.call('SET', KEYS[1], floor) end
return redis.call('INCRBY', KEYS[1], ARGV[1])
";

/// This node's leased numbers.
pub struct Numbers {
    redis: ConnectionManager,
    key: String,
    /// The lowest number that may be given: the store's next one when the node started.
    floor: u64,
    blocks: Mutex<Blocks>,
}

#[derive(Default)]
struct Blocks {
    current: Range<u64>,
    next: Option<Range<u64>>,
    /// A lease is on its way.
    leasing: bool,
}

impl Numbers {
    /// Leases the node's first block, none below `floor` (the store's next number).
    ///
    /// # Errors
    /// Redis unreachable.
    pub async fn start(
        redis: ConnectionManager,
        key: String,
        floor: u64,
    ) -> redis::RedisResult<Arc<Numbers>> {
        let numbers = Arc::new(Numbers {
            redis,
            key,
            floor: floor.max(1),
            blocks: Mutex::default(),
        });
        let first = numbers.lease().await?;
        numbers.lock().current = first;
        Ok(numbers)
    }

    /// The next number, or `None` when the blocks ran out faster than Redis answered (the
    /// table then has no short number, as with Redis down).
    pub fn take(self: &Arc<Self>) -> Option<u64> {
        let mut blocks = self.lock();
        if blocks.current.is_empty() {
            if let Some(next) = blocks.next.take() {
                blocks.current = next;
            }
        }
        let number = blocks.current.next();
        let low = (blocks.current.end - blocks.current.start) <= BLOCK / 2;
        if low && blocks.next.is_none() && !blocks.leasing {
            blocks.leasing = true;
            let me = Arc::clone(self);
            tokio::spawn(async move {
                let leased = me.lease().await;
                let mut blocks = me.lock();
                blocks.leasing = false;
                match leased {
                    Ok(block) => blocks.next = Some(block),
                    Err(error) => tracing::warn!(%error, "cannot lease table numbers"),
                }
            });
        }
        number
    }

    async fn lease(&self) -> redis::RedisResult<Range<u64>> {
        let mut conn = self.redis.clone();
        let last: u64 = redis::Script::new(LEASE)
            .key(&self.key)
            .arg(BLOCK)
            .arg(self.floor)
            .invoke_async(&mut conn)
            .await?;
        Ok(last.saturating_sub(BLOCK) + 1..last + 1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Blocks> {
        self.blocks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
