//! Taking over the rooms of a dead node: the directory entry moves here with a new epoch
//! (Redis, one script), the store raises the room's epoch and hands back its log (one
//! transaction), the lobby rebuilds the room from it with the one-node recovery code, and
//! the sessions of its seated players come back from the store so their tokens work here.
//!
//! Clocks: the room's time line stops while it has no owner. The time from the dead
//! owner's last heartbeat to the takeover is added to the room's `skew_ms` in the store,
//! and the rebuilt room runs that far behind the node's clock, so the player to move is
//! charged their thinking time up to the owner's last heartbeat (at most `lease_ms / 3`
//! before it died) and nothing for the time the room was ownerless.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use qipai_protocol::RoomId;
use redis::AsyncCommands;

use super::{key, lease_key, node_key, node_rooms_key, room_key, Cluster, NODES, RELEASED, TAKE};
use crate::topology::Node;

/// Every `lease_ms`: the rooms of every node whose lease is gone, and those a draining
/// node handed over, are taken over (not by a draining node).
pub async fn sweep(cluster: &Arc<Cluster>, shared: &Arc<dyn Node>) {
    if !cluster.fence.ok() || cluster.draining() {
        return;
    }
    let mut conn = cluster.redis.clone();
    let mut nodes: Vec<String> = conn.smembers(NODES).await.unwrap_or_default();
    nodes.push(RELEASED.to_owned());
    for node in nodes.into_iter().filter(|n| *n != cluster.node) {
        let alive: bool = conn.exists(lease_key(&node)).await.unwrap_or(true);
        if alive {
            continue;
        }
        let rooms: Vec<RoomId> = conn
            .smembers(node_rooms_key(&node))
            .await
            .unwrap_or_default();
        if rooms.is_empty() {
            // Nothing left to take: the node leaves the list.
            let _: Result<(), _> = redis::pipe()
                .srem(NODES, &node)
                .ignore()
                .del(node_key(&node))
                .ignore()
                .query_async(&mut conn)
                .await;
            continue;
        }
        for room in rooms {
            take(cluster, shared, &node, room).await;
        }
    }
}

/// When a draining node handed room `id` over (Unix ms): the room's time without an
/// owner starts there.
pub(super) fn released_at_key(id: RoomId) -> String {
    key(&["released_at:", &id.to_string()])
}

/// Takes room `id` over from `dead` (or from [`RELEASED`]); `true` when it is open here now.
pub async fn take(cluster: &Arc<Cluster>, shared: &Arc<dyn Node>, dead: &str, id: RoomId) -> bool {
    let Some(persist) = shared.persist() else {
        return false;
    };
    if cluster.draining() {
        return false;
    }
    let mut conn = cluster.redis.clone();
    let epoch: u64 = match redis::Script::new(TAKE)
        .key(room_key(id))
        .arg(dead)
        .arg(&cluster.node)
        .arg(id)
        .invoke_async(&mut conn)
        .await
    {
        Ok(e) => e,
        Err(error) => {
            tracing::warn!(%error, room = id, "takeover script failed");
            return false;
        }
    };
    if epoch == 0 {
        return false;
    }
    let heartbeat: Option<i64> = if dead == RELEASED {
        conn.get(released_at_key(id)).await.unwrap_or(None)
    } else {
        conn.hget(node_key(dead), "heartbeat_ms")
            .await
            .unwrap_or(None)
    };
    let now = qipai_store::unix_ms();
    let ownerless = heartbeat.map_or(0, |hb| now.saturating_sub(hb).max(0) as u64);
    let log = match persist.store.take_over(id, epoch, ownerless).await {
        Ok(Some(log)) => log,
        Ok(None) => {
            // Finished or closed meanwhile (or already taken at this epoch): nothing to run.
            let _: Result<i64, _> = redis::Script::new(super::FORGET)
                .key(room_key(id))
                .arg(&cluster.node)
                .arg(id)
                .invoke_async(&mut conn)
                .await;
            return false;
        }
        Err(error) => {
            tracing::error!(%error, room = id, "the store refused the takeover");
            return false;
        }
    };
    let players: HashSet<u64> = qipai_store::seated(&log.seats, usize::from(u8::MAX))
        .into_iter()
        .flatten()
        .filter_map(|s| s.player)
        .collect();
    let places = match crate::persist::reopen(shared.lobby(), persist, log) {
        Some(places) => places,
        None => return false,
    };
    cluster.metrics.takeovers.fetch_add(1, Ordering::Relaxed);
    tracing::info!(
        room = id,
        from = dead,
        epoch,
        ownerless_ms = ownerless,
        "took the room over"
    );
    // The seated players' sessions, so that their tokens resume here.
    let since = crate::persist::finished_since(shared.config());
    match persist.store.open_sessions(since).await {
        Ok(sessions) => {
            for s in sessions.into_iter().filter(|s| players.contains(&s.player)) {
                crate::persist::restore_session(shared.sessions(), s, &places);
            }
        }
        Err(error) => tracing::warn!(%error, room = id, "cannot read the room's sessions"),
    }
    true
}
