//! Several nodes: rooms spread over `qipai-server` processes that share the
//! PostgreSQL store and Redis.
//!
//! - Each room lives on exactly one node (its actor stays the only writer). Redis holds the
//!   directory `room:{id}` → owning node, each node's lease `lease:{node}` (one key per node,
//!   renewed every `lease_ms / 3`, covering all its rooms), the nodes (`node:{id}`: address,
//!   load, last heartbeat), the lobby's listing, and sessions (resume token → player).
//! - A node whose lease lapsed stops accepting actions ([`Fence`]) before any other node
//!   may take its rooms; a takeover raises the room's epoch in the store, which then refuses
//!   the stale owner's steps ([`qipai_store::Store::take_over`]).
//! - A client may connect to any node: requests for a room elsewhere are forwarded
//!   ([`super::forward`]): the node opens a WebSocket to the owner's `/node`, says an internal hello
//!   with the cluster secret and the player's identity, and pipes frames both ways.
//! - [`takeover`]: a sweeper (every `lease_ms`) and lookups take over the rooms of dead
//!   nodes and rebuild them from the store's log.
//! - [`drain`]: SIGTERM hands this node's rooms over to the others (no new ones come
//!   here meanwhile), then it leaves.
//! - [`numbers`]: tables' short numbers, leased in blocks from one count in Redis.

pub mod answers;
pub mod drain;
pub mod numbers;
pub mod takeover;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use qipai_protocol::{GameKind, RoomId, RoomInfo, RoomOptions, RoomStatus};
use redis::aio::ConnectionManager;
use redis::AsyncCommands;
use tokio::sync::watch;

use super::{Location, NodeInfo, SessionRecord};
use crate::base::config::Config;
use crate::room::fence::Fence;
use crate::room::RoomHandle;
use crate::topology::Node;

/// The cluster's lines in `/metrics`: name, kind, help (values in `render_metrics`).
const METRICS: [(&str, &str, &str); 6] = [
    (
        "cluster_lease_held",
        "gauge",
        "1 while this node holds its lease.",
    ),
    (
        "cluster_rooms_owned",
        "gauge",
        "Rooms this node owns (its lease covers them).",
    ),
    (
        "cluster_takeovers_total",
        "counter",
        "Rooms taken over from dead nodes.",
    ),
    (
        "cluster_proxied_total",
        "counter",
        "Client connections forwarded to another node.",
    ),
    (
        "cluster_proxied",
        "gauge",
        "Client connections being forwarded now.",
    ),
    (
        "cluster_lease_lapses_total",
        "counter",
        "Times the lease lapsed before a renewal.",
    ),
];

/// The longest a player waits for a new room's directory entry ([`Cluster::listed`]).
const CLAIM_WAIT: Duration = Duration::from_secs(2);

/// A room the directory does not know is looked up once more after this long, in case it
/// was opened by another path that did not wait for its entry (a competition's table).
const RELOOK_AFTER: Duration = Duration::from_millis(50);

/// Every Redis key starts with this.
const P: &str = "qipai:";

/// How long a session's record lives while its player is connected (the reconnection
/// grace applies once they drop).
const SESSION_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// Why the cluster could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("[cluster] needs the PostgreSQL store: set [store] url to postgres://…")]
    NeedsPostgres,
    #[error("[cluster] needs redis_url and secret")]
    Incomplete,
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
}

/// Counters for `/metrics`.
#[derive(Debug, Default)]
pub struct ClusterMetrics {
    pub takeovers: AtomicU64,
    pub proxied: AtomicU64,
    pub proxied_now: AtomicU64,
    pub lease_lapses: AtomicU64,
}

/// Serving and taking new rooms.
const LIVE: u8 = 0;
/// Draining: handing its rooms over, taking none.
const DRAINING: u8 = 1;
/// Drained: its lease given back, it renews nothing more.
const GONE: u8 = 2;

/// This node's part in the cluster.
pub struct Cluster {
    pub node: String,
    pub advertise: String,
    pub(super) secret: String,
    lease_ms: u64,
    redis: ConnectionManager,
    fence: Fence,
    pub metrics: ClusterMetrics,
    /// The shared state, once it exists (the heartbeat and the sweeper need it).
    shared: std::sync::OnceLock<Weak<dyn Node>>,
    /// Itself, for the work the trait's `&self` answers hand to tasks.
    me: Weak<Cluster>,
    /// [`LIVE`], [`DRAINING`] or [`GONE`].
    state: AtomicU8,
    /// Rooms opened here whose directory entry is being written: true once every node
    /// can find them ([`Cluster::listed`]).
    claims: std::sync::Mutex<HashMap<RoomId, watch::Receiver<bool>>>,
    /// Tables' short numbers, leased from the cluster's one count.
    pub(super) numbers: Arc<numbers::Numbers>,
}

fn key(parts: &[&str]) -> String {
    let mut k = String::from(P);
    k.push_str(&parts.concat());
    k
}

fn room_key(id: RoomId) -> String {
    key(&["room:", &id.to_string()])
}

fn lease_key(node: &str) -> String {
    key(&["lease:", node])
}

fn node_key(node: &str) -> String {
    key(&["node:", node])
}

fn node_rooms_key(node: &str) -> String {
    key(&["node_rooms:", node])
}

/// Adds room `id`'s entry in the lobby's listing (`info`, as the lobby shows it) to `pipe`.
fn add_listing(pipe: &mut redis::Pipeline, id: RoomId, info: &RoomInfo) {
    let bytes = qipai_protocol::encode(info).unwrap_or_default();
    pipe.hset(LISTING, id, bytes)
        .ignore()
        .zadd(LISTING_IDS, id, id as f64)
        .ignore();
}

fn session_key(token: &str) -> String {
    key(&["sess:", &qipai_store::hex(&qipai_store::hash_token(token))])
}

const NODES: &str = "qipai:nodes";
/// The owner named in the directory for a room a draining node handed over: it never holds
/// a lease, so the next lookup or sweep on any node takes the room (see [`drain`]).
const RELEASED: &str = "-released";
const LISTING: &str = "qipai:listing";
const LISTING_IDS: &str = "qipai:listing_ids";

/// Where room `ARGV[1]` lives: `{node, address}` when its owner holds its lease, `{node}`
/// when the owner's lease is gone, nil when the directory does not know it.
const LOCATE: &str = r"
local n = redis.call('GET', KEYS[1])
if not n then return nil end
if redis.call('EXISTS', 'qipai:lease:' .. n) == 1 then
  return {n, redis.call('HGET', 'qipai:node:' .. n, 'addr') or ''}
end
return {n}
";

/// Takes room `ARGV[3]` from dead node `ARGV[1]` for `ARGV[2]`: only if the directory still
/// names the dead node, its lease is gone and the taker holds its own; returns the room's
/// new epoch, or 0.
const TAKE: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('EXISTS', 'qipai:lease:' .. ARGV[1]) == 1 then return 0 end
if redis.call('EXISTS', 'qipai:lease:' .. ARGV[2]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SMOVE', 'qipai:node_rooms:' .. ARGV[1], 'qipai:node_rooms:' .. ARGV[2], ARGV[3])
return redis.call('INCR', 'qipai:room_epoch:' .. ARGV[3])
";

/// Forgets room `ARGV[2]` if node `ARGV[1]` still owns it (a stale owner leaves the new
/// owner's entries alone).
const FORGET: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', 'qipai:node_rooms:' .. ARGV[1], ARGV[2])
redis.call('HDEL', 'qipai:listing', ARGV[2])
redis.call('ZREM', 'qipai:listing_ids', ARGV[2])
return 1
";

impl Cluster {
    /// Connects to Redis and checks the configuration; `None` when `[cluster]` is off.
    /// Tables' numbers go on from `first_number` (the store's next one) at least.
    ///
    /// # Errors
    /// A store other than PostgreSQL, a missing key, or Redis unreachable.
    pub async fn start(
        config: &Config,
        listening: Option<std::net::SocketAddr>,
        first_number: u64,
    ) -> Result<Option<Arc<Cluster>>, ClusterError> {
        let c = &config.cluster;
        if !c.enabled {
            return Ok(None);
        }
        let url = config.store.url.trim();
        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(ClusterError::NeedsPostgres);
        }
        if c.redis_url.trim().is_empty() || c.secret.is_empty() {
            return Err(ClusterError::Incomplete);
        }
        let node = if c.node_id.trim().is_empty() {
            format!("n{:016x}", rand::random::<u64>())
        } else {
            c.node_id.trim().to_owned()
        };
        let advertise = if c.advertise.trim().is_empty() {
            listening.map_or_else(String::new, |a| a.to_string())
        } else {
            c.advertise.trim().to_owned()
        };
        let client = redis::Client::open(c.redis_url.trim())?;
        let redis = ConnectionManager::new(client).await?;
        let numbers =
            numbers::Numbers::start(redis.clone(), key(&["room_number"]), first_number).await?;
        let cluster = Arc::new_cyclic(|me| Cluster {
            me: me.clone(),
            node,
            advertise,
            secret: c.secret.clone(),
            lease_ms: c.lease_ms.max(30),
            redis,
            fence: {
                // Nothing is sent for a room in the last tenth of the lease.
                let fence = Fence::new();
                fence.set_margin(c.lease_ms.max(30) / 10);
                fence
            },
            metrics: ClusterMetrics::default(),
            shared: std::sync::OnceLock::new(),
            state: AtomicU8::new(LIVE),
            claims: std::sync::Mutex::default(),
            numbers,
        });
        let _ = cluster.renew(0, 0).await?;
        tracing::info!(node = %cluster.node, advertise = %cluster.advertise, "joined the cluster");
        Ok(Some(cluster))
    }

    /// Whether this node is draining (or drained): it takes no new room.
    pub fn draining(&self) -> bool {
        self.state.load(Ordering::Acquire) != LIVE
    }

    /// The lease every room of this node checks.
    pub fn fence(&self) -> Fence {
        self.fence.clone()
    }

    /// Whether `secret` is the cluster's (compared in constant time).
    pub fn secret_ok(&self, secret: &str) -> bool {
        let (a, b) = (self.secret.as_bytes(), secret.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// One heartbeat: the lease (`SET PX`), the node's address, load and state, in one
    /// pipeline. The lease counts from before the request left. `Ok(true)` when the lease
    /// had lapsed before this renewal: then the fence stays down until the caller has
    /// stopped the rooms taken over meanwhile ([`Cluster::revoke_lost`]), so that no action
    /// gets in between.
    async fn renew(&self, rooms: u64, connections: u64) -> Result<bool, redis::RedisError> {
        if self.state.load(Ordering::Acquire) == GONE {
            return Ok(false);
        }
        let sent = self.fence.now_ms();
        let draining = u8::from(self.draining()).to_string();
        let mut conn = self.redis.clone();
        redis::pipe()
            .cmd("SET")
            .arg(lease_key(&self.node))
            .arg(1)
            .arg("PX")
            .arg(self.lease_ms)
            .ignore()
            .hset_multiple(
                node_key(&self.node),
                &[
                    ("addr", self.advertise.clone()),
                    ("rooms", rooms.to_string()),
                    ("connections", connections.to_string()),
                    ("heartbeat_ms", qipai_store::unix_ms().to_string()),
                    ("draining", draining),
                ],
            )
            .ignore()
            .sadd(NODES, &self.node)
            .ignore()
            .query_async::<()>(&mut conn)
            .await?;
        let lapsed = self.fence.lapsed();
        if lapsed {
            self.metrics.lease_lapses.fetch_add(1, Ordering::Relaxed);
            tracing::warn!("the lease had lapsed: rooms refused actions meanwhile");
            if let Some(shared) = self.shared.get().and_then(Weak::upgrade) {
                self.revoke_lost(shared.as_ref()).await;
            }
        }
        self.fence.hold_until(sent + self.lease_ms);
        Ok(lapsed)
    }

    /// One heartbeat with this node's load now.
    async fn beat(&self, shared: &dyn Node) -> Result<bool, redis::RedisError> {
        let rooms = shared.lobby().len() as u64;
        let conns = shared.connections();
        self.renew(rooms, conns.max(0) as u64).await
    }

    /// After a lapse: the rooms another node took over meanwhile stop here (their
    /// `Revoke` is queued before any action that comes after the lease is back).
    async fn revoke_lost(&self, shared: &dyn Node) {
        let mut conn = self.redis.clone();
        for room in shared.lobby().handles() {
            let owner: Option<String> = conn.get(room_key(room.id)).await.unwrap_or(None);
            if owner.as_deref() != Some(self.node.as_str()) {
                tracing::warn!(
                    room = room.id,
                    ?owner,
                    "taken over during the lapse: stopped here"
                );
                self.fence.mark_taken(room.id);
                let _ = room.tx.try_send(crate::room::Command::Revoke);
            }
        }
    }

    /// Gives the cluster the shared state and starts the heartbeat and the sweeper.
    pub fn start_work(self: &Arc<Self>, shared: &Arc<dyn Node>) {
        let _ = self.shared.set(Arc::downgrade(shared));
        let me = Arc::clone(self);
        let weak = Arc::downgrade(shared);
        tokio::spawn(async move {
            let beat = Duration::from_millis((me.lease_ms / 3).max(10));
            let mut last_sweep = Instant::now();
            let mut shutdown = match weak.upgrade() {
                Some(s) => s.shutdown().clone(),
                None => return,
            };
            loop {
                tokio::select! {
                    () = tokio::time::sleep(beat) => {}
                    () = shutdown.wait() => break,
                }
                let Some(shared) = weak.upgrade() else { break };
                if let Err(error) = me.beat(shared.as_ref()).await {
                    tracing::warn!(%error, "lease renewal failed");
                }
                if last_sweep.elapsed() >= Duration::from_millis(me.lease_ms) {
                    last_sweep = Instant::now();
                    takeover::sweep(&me, &shared).await;
                }
            }
        });
    }

    /// Lists a room this node opened (or took over) in the directory and the lobby's
    /// listing, keeps the listing current, and forgets it when the room closes. The first
    /// write (directory entry and listing in one pipeline) is awaited by [`Cluster::listed`]
    /// before anyone is told the room's id.
    pub fn publish_room(self: &Arc<Self>, handle: &RoomHandle) {
        let me = Arc::clone(self);
        let mut info = handle.info.clone();
        let id = handle.id;
        let (claimed_tx, claimed_rx) = watch::channel(false);
        self.claims_map().insert(id, claimed_rx);
        tokio::spawn(async move {
            let mut conn = me.redis.clone();
            let mut claim = redis::pipe();
            claim
                .cmd("SET")
                .arg(room_key(id))
                .arg(&me.node)
                .arg("NX")
                .ignore()
                .sadd(node_rooms_key(&me.node), id)
                .ignore();
            add_listing(&mut claim, id, &info.borrow_and_update());
            let claimed: Result<(), _> = claim.query_async(&mut conn).await;
            if let Err(error) = claimed {
                tracing::warn!(%error, room = id, "cannot list the room in the directory");
            }
            // Written (or given up on): whoever waits goes on.
            let _ = claimed_tx.send(true);
            me.claims_map().remove(&id);
            while info.changed().await.is_ok() {
                let mut listing = redis::pipe();
                add_listing(&mut listing, id, &info.borrow_and_update());
                let listed: Result<(), _> = listing.query_async(&mut conn).await;
                if let Err(error) = listed {
                    tracing::debug!(%error, room = id, "listing");
                }
            }
            // A room stopped by a drain or a shutdown, not closed: it stays in the
            // directory, for another node to take over.
            let stopping = me
                .shared
                .get()
                .and_then(Weak::upgrade)
                .is_none_or(|s| s.shutdown().is_fired());
            if me.draining() || stopping {
                return;
            }
            let forgot: Result<i64, _> = redis::Script::new(FORGET)
                .key(room_key(id))
                .arg(&me.node)
                .arg(id)
                .invoke_async(&mut conn)
                .await;
            if let Err(error) = forgot {
                tracing::debug!(%error, room = id, "forgetting the room");
            }
        });
    }

    fn claims_map(&self) -> std::sync::MutexGuard<'_, HashMap<RoomId, watch::Receiver<bool>>> {
        self.claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until room `id`, opened here, is in the directory (every node finds it), so
    /// that a player told its id can join it through any node at once. At most
    /// [`CLAIM_WAIT`]: Redis unreachable delays nobody longer (the room still works here).
    pub async fn listed(&self, id: RoomId) {
        let Some(mut claimed) = self.claims_map().get(&id).cloned() else {
            return;
        };
        let _ = tokio::time::timeout(CLAIM_WAIT, claimed.wait_for(|done| *done)).await;
    }

    /// Where room `id` lives; a room whose owner's lease is gone is taken over here first
    /// (by another node when this one is draining: it waits for that).
    pub async fn locate(self: &Arc<Self>, shared: &Arc<dyn Node>, id: RoomId) -> Location {
        let mut waited_here = false;
        let mut relooked = false;
        for _ in 0..60 {
            if shared.lobby().get(id).is_some() {
                return Location::Local;
            }
            let mut conn = self.redis.clone();
            let found: Result<Option<Vec<String>>, _> = redis::Script::new(LOCATE)
                .key(room_key(id))
                .arg(id)
                .invoke_async(&mut conn)
                .await;
            match found {
                Ok(Some(v)) => match v.as_slice() {
                    [node, addr] if *node != self.node => return Location::Remote(addr.clone()),
                    [_, _] => {
                        // Here, or handed over meanwhile (a drain): then look again.
                        let here = self.here(shared.as_ref(), id).await;
                        if here == Location::Local || waited_here {
                            return here;
                        }
                        waited_here = true;
                    }
                    [_] if self.draining() => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    [dead] => {
                        let dead = dead.clone();
                        takeover::take(self, shared, &dead, id).await;
                    }
                    _ => return Location::Unknown,
                },
                Ok(None) if !relooked => {
                    relooked = true;
                    tokio::time::sleep(RELOOK_AFTER).await;
                }
                Ok(None) => return Location::Unknown,
                Err(error) => {
                    tracing::warn!(%error, room = id, "directory lookup failed");
                    return Location::Unknown;
                }
            }
        }
        if shared.lobby().get(id).is_some() {
            Location::Local
        } else {
            Location::Unknown
        }
    }

    /// Room `id`, which the directory says is here: open in the lobby, or about to be (a
    /// takeover rebuilding it); `Unknown` when it does not come (closed meanwhile).
    pub async fn here(&self, shared: &dyn Node, id: RoomId) -> Location {
        for _ in 0..40 {
            if shared.lobby().get(id).is_some() {
                return Location::Local;
            }
            let mut conn = self.redis.clone();
            let owner: Option<String> = conn.get(room_key(id)).await.unwrap_or(None);
            if owner.as_deref() != Some(self.node.as_str()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if shared.lobby().get(id).is_some() {
            Location::Local
        } else {
            Location::Unknown
        }
    }

    /// The live nodes, from their heartbeats.
    pub async fn nodes(&self) -> Vec<NodeInfo> {
        let mut conn = self.redis.clone();
        let ids: Vec<String> = conn.smembers(NODES).await.unwrap_or_default();
        let mut out = Vec::new();
        for id in ids {
            let alive: bool = conn.exists(lease_key(&id)).await.unwrap_or(false);
            if !alive {
                continue;
            }
            let h: std::collections::HashMap<String, String> =
                conn.hgetall(node_key(&id)).await.unwrap_or_default();
            let num = |k: &str| h.get(k).and_then(|v| v.parse().ok()).unwrap_or(0);
            out.push(NodeInfo {
                addr: h.get("addr").cloned().unwrap_or_default(),
                rooms: num("rooms"),
                connections: num("connections"),
                heartbeat_ms: num("heartbeat_ms") as i64,
                draining: num("draining") == 1,
                id,
            });
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }

    /// Where a new room goes: the live node with the fewest rooms (then connections),
    /// never a draining one; `None` for this node (also when it drains and no other node
    /// may take the room).
    pub async fn placement(&self) -> Option<String> {
        let nodes = self.nodes().await;
        let best = nodes
            .iter()
            .filter(|n| !(n.draining || (n.id == self.node && self.draining())))
            .min_by_key(|n| (n.rooms, n.connections, n.id != self.node))?;
        (best.id != self.node && !best.addr.is_empty()).then(|| best.addr.clone())
    }

    /// One page of the rooms of every node, as [`crate::lobby::Lobby::list`].
    pub async fn list(
        &self,
        game: Option<GameKind>,
        after: Option<RoomId>,
        limit: usize,
    ) -> (Vec<RoomInfo>, Option<RoomId>) {
        let mut out = Vec::new();
        let mut from = after.unwrap_or(0);
        let mut conn = self.redis.clone();
        // Pages of ids from the sorted set, their infos from the hash, until `limit` match.
        loop {
            let ids: Vec<u64> = redis::cmd("ZRANGEBYSCORE")
                .arg(LISTING_IDS)
                .arg(format!("({from}"))
                .arg("+inf")
                .arg("LIMIT")
                .arg(0)
                .arg(256)
                .query_async(&mut conn)
                .await
                .unwrap_or_default();
            let Some(&last) = ids.last() else {
                return (out, None);
            };
            let infos: Vec<Option<Vec<u8>>> = redis::cmd("HMGET")
                .arg(LISTING)
                .arg(&ids)
                .query_async(&mut conn)
                .await
                .unwrap_or_default();
            for bytes in infos.into_iter().flatten() {
                let Ok(info) = rmp_serde::from_slice::<RoomInfo>(&bytes) else {
                    continue;
                };
                if game.is_some_and(|g| info.options.game() != g) {
                    continue;
                }
                out.push(info);
                if out.len() > limit {
                    out.truncate(limit);
                    let next = out.last().map(|r| r.room_id);
                    return (out, next);
                }
            }
            from = last;
        }
    }

    /// A waiting table on another node with these options (defaults filled in) and a free
    /// seat: the address of its node (not a draining one).
    pub async fn waiting_elsewhere(&self, wanted: &RoomOptions) -> Option<String> {
        let (rooms, _) = self.list(Some(wanted.game()), None, 1000).await;
        let draining: std::collections::HashSet<String> = self
            .nodes()
            .await
            .into_iter()
            .filter(|n| n.draining)
            .map(|n| n.id)
            .collect();
        let mut conn = self.redis.clone();
        for info in rooms {
            let free = info.status == RoomStatus::Waiting
                && info.options == *wanted
                && info.seats.iter().any(Option::is_none);
            if !free {
                continue;
            }
            let found: Result<Option<Vec<String>>, _> = redis::Script::new(LOCATE)
                .key(room_key(info.room_id))
                .arg(info.room_id)
                .invoke_async(&mut conn)
                .await;
            if let Ok(Some(v)) = found {
                if let [node, addr] = v.as_slice() {
                    if *node != self.node && !draining.contains(node) {
                        return Some(addr.clone());
                    }
                }
            }
        }
        None
    }

    /// Writes a session's record (while its player is connected).
    pub fn save_session(self: &Arc<Self>, token: &str, record: SessionRecord) {
        self.write_session(token, Some(record), SESSION_TTL_MS);
    }

    /// The player dropped: the record lives for the reconnection grace.
    pub fn release_session(self: &Arc<Self>, token: &str, grace_ms: u64) {
        self.write_session(token, None, grace_ms.max(1));
    }

    fn write_session(self: &Arc<Self>, token: &str, record: Option<SessionRecord>, ttl: u64) {
        let me = Arc::clone(self);
        let k = session_key(token);
        tokio::spawn(async move {
            let mut conn = me.redis.clone();
            let mut pipe = redis::pipe();
            if let Some(r) = record {
                pipe.hset_multiple(
                    &k,
                    &[
                        ("player", r.player.to_string()),
                        ("name", r.name),
                        (
                            "account",
                            r.account.map_or_else(String::new, |a| a.to_string()),
                        ),
                        ("bot", u8::from(r.bot).to_string()),
                        ("room", r.room.to_string()),
                    ],
                )
                .ignore();
            }
            pipe.pexpire(&k, ttl as i64).ignore();
            if let Err(error) = pipe.query_async::<()>(&mut conn).await {
                tracing::debug!(%error, "session record");
            }
        });
    }

    /// The session a resume token names, from Redis.
    pub async fn session(&self, token: &str) -> Option<SessionRecord> {
        let mut conn = self.redis.clone();
        let h: std::collections::HashMap<String, String> =
            conn.hgetall(session_key(token)).await.ok()?;
        let num = |k: &str| h.get(k).and_then(|v| v.parse::<u64>().ok());
        Some(SessionRecord {
            player: num("player")?,
            name: h.get("name")?.clone(),
            account: num("account"),
            bot: num("bot") == Some(1),
            room: num("room").unwrap_or(0),
        })
    }

    /// `GET /metrics` lines of this node's part in the cluster.
    pub fn render_metrics(&self, rooms: usize, scrape: &crate::base::metrics::Scrape<'_>) {
        let m = &self.metrics;
        let lease = u8::from(self.fence.ok());
        let values = [
            u64::from(lease),
            rooms as u64,
            m.takeovers.load(Ordering::Relaxed),
            m.proxied.load(Ordering::Relaxed),
            m.proxied_now.load(Ordering::Relaxed),
            m.lease_lapses.load(Ordering::Relaxed),
        ];
        for ((name, kind, help), value) in METRICS.iter().zip(values) {
            let name = format!("qipai_{name}");
            let labels = [("node", self.node.as_str())];
            match *kind {
                "counter" => scrape.counter(&name, help, &labels, value),
                _ => scrape.gauge(&name, help, &labels, value as f64),
            }
        }
    }
}
