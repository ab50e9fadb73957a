//! Draining a node (SIGTERM with `[cluster]` on): the node stops taking new rooms at once
//! (its heartbeat says `draining`, so placement and quick play on every node skip it, and
//! it places its own clients' new rooms elsewhere), stops each of its rooms (they write
//! nothing more: every acknowledged action is already in the store), hands them over in
//! the directory, gives its lease back and leaves; the server then closes its connections
//! and exits.
//!
//! Handing over is the cheap correct way: the directory names [`RELEASED`] as the room's
//! owner, a node that never holds a lease, so the next lookup on any node (a player
//! reconnecting) or the next sweep takes the room over from the store's log exactly as
//! after a death, at once instead of `lease_ms` later. The time from the release to the
//! takeover is on nobody's clock (`released_at:{id}`). Fencing stays as it is: the
//! takeover raises the room's epoch.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Cluster, DRAINING, GONE, NODES, RELEASED};
use crate::room::Command;
use crate::topology::Node;

/// At most this long for the rooms to stop; the rest is handed over as it is (a room
/// still running then is fenced by the takeover's epoch).
const STOP_WITHIN: Duration = Duration::from_secs(10);

/// Moves every room the directory gives node `ARGV[1]` to [`RELEASED`], noting the time
/// `ARGV[2]` (Unix ms) for its clocks; rooms the directory gives another node (taken over
/// meanwhile) only leave the node's set. Returns how many were handed over.
const RELEASE: &str = r"
local moved = 0
for _, id in ipairs(redis.call('SMEMBERS', 'qipai:node_rooms:' .. ARGV[1])) do
  if redis.call('GET', 'qipai:room:' .. id) == ARGV[1] then
    redis.call('SET', 'qipai:room:' .. id, ARGV[3])
    redis.call('SMOVE', 'qipai:node_rooms:' .. ARGV[1], 'qipai:node_rooms:' .. ARGV[3], id)
    redis.call('SET', 'qipai:released_at:' .. id, ARGV[2], 'PX', 86400000)
    moved = moved + 1
  else
    redis.call('SREM', 'qipai:node_rooms:' .. ARGV[1], id)
  end
end
return moved
";

/// Drains this node (see the module's doc); returns once it holds no room and has left
/// the cluster.
pub async fn drain(cluster: &Arc<Cluster>, shared: &Arc<dyn Node>) {
    cluster.state.store(DRAINING, Ordering::Release);
    let rooms = shared.lobby().len();
    tracing::info!(
        rooms,
        "draining: no new rooms here, handing the others over"
    );
    // The other nodes learn it now rather than at the next heartbeat.
    if let Err(error) = cluster.beat(shared.as_ref()).await {
        tracing::warn!(%error, "draining: heartbeat");
    }
    let until = Instant::now() + STOP_WITHIN;
    let mut handed = 0;
    loop {
        // Stopped rooms leave the lobby; a room opened meanwhile (a client of this node
        // whom no other node could take) is stopped in the next round.
        for room in shared.lobby().handles() {
            let _ =
                tokio::time::timeout(Duration::from_secs(1), room.tx.send(Command::Revoke)).await;
        }
        while !shared.lobby().is_empty() && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        handed += release(cluster).await;
        if shared.lobby().is_empty() || Instant::now() >= until {
            break;
        }
    }
    leave(cluster).await;
    tracing::info!(handed, left = shared.lobby().len(), "drained: leaving");
}

/// Hands every room of this node in the directory over (the script above).
async fn release(cluster: &Cluster) -> u64 {
    let mut conn = cluster.redis.clone();
    let moved: Result<u64, _> = redis::Script::new(RELEASE)
        .arg(&cluster.node)
        .arg(qipai_store::unix_ms())
        .arg(RELEASED)
        .invoke_async(&mut conn)
        .await;
    moved.unwrap_or_else(|error| {
        tracing::error!(%error, "draining: cannot hand the rooms over (they come back when the lease runs out)");
        0
    })
}

/// Gives the lease back and leaves the list of nodes: nothing more is renewed.
async fn leave(cluster: &Cluster) {
    cluster.state.store(GONE, Ordering::Release);
    cluster.fence.lower();
    let mut conn = cluster.redis.clone();
    let left: Result<(), _> = redis::pipe()
        .del(super::lease_key(&cluster.node))
        .ignore()
        .del(super::node_key(&cluster.node))
        .ignore()
        .srem(NODES, &cluster.node)
        .ignore()
        .query_async(&mut conn)
        .await;
    if let Err(error) = left {
        tracing::warn!(%error, "draining: cannot leave the list (the lease runs out)");
    }
}
