//! One node or several: where rooms live and how a player reaches them (README "Several
//! nodes").
//!
//! Every such question is asked of one [`Topology`], chosen once when the server is built
//! ([`start`]): [`alone::Alone`] when `[cluster]` is off (every answer is the local one),
//! [`cluster::Cluster`] on Redis and PostgreSQL when it is on. Nothing outside this folder
//! names the several-nodes implementation.
//! - [`forward`]: a connection piped to the node that holds its room.

pub mod alone;
pub mod cluster;
pub mod forward;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use qipai_protocol::{ClientMsg, GameKind, PlayerId, RoomId, RoomInfo, WireError};
use qipai_store::BoxFuture;
use tokio::sync::Notify;

use crate::base::config::Config;
use crate::base::shutdown::Shutdown;
use crate::lobby::session::Sessions;
use crate::lobby::{Lobby, RoomDirectory};
use crate::persist::Persist;
use crate::room::RoomHandle;
use forward::Forward;

/// A session as every node can read it, so that any node can resume it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRecord {
    pub player: PlayerId,
    pub name: String,
    /// The signed-in account the player plays as (`None`: a guest).
    pub account: Option<u64>,
    pub bot: bool,
    /// The room the player is in (0: none).
    pub room: RoomId,
}

/// Where a room lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Here (now open in the lobby).
    Local,
    /// On another live node, reached at this address.
    Remote(String),
    /// Nowhere: no such room.
    Unknown,
}

/// A live node as its heartbeat describes it.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    pub id: String,
    pub addr: String,
    pub rooms: u64,
    pub connections: u64,
    /// Unix ms of its last heartbeat.
    pub heartbeat_ms: i64,
    /// Draining: no new rooms go there.
    pub draining: bool,
}

/// What the topology works with on this node (the composition root implements it): the
/// topology sits above these parts and below the app that holds them all.
pub trait Node: Send + Sync {
    fn config(&self) -> &Config;
    fn lobby(&self) -> &Lobby;
    fn sessions(&self) -> &Sessions;
    /// The durable store, when one is configured.
    fn persist(&self) -> Option<&Persist>;
    fn shutdown(&self) -> &Shutdown;
    /// WebSocket connections open now (this node's load, told to the others).
    fn connections(&self) -> i64;
}

/// A request that another node may have to serve, and who makes it ([`Topology::route`]).
pub struct Route<'a> {
    /// The player's resume token.
    pub token: &'a str,
    /// The player, in no room (a player in a room is refused before routing).
    pub who: SessionRecord,
    pub msg: &'a ClientMsg,
    /// The client's own address, counted against its budgets wherever it is served.
    pub client_addr: Option<IpAddr>,
}

/// Where a resume token this node does not know leads ([`Topology::resume`]).
pub enum Resume {
    /// Nowhere: the token is refused.
    Unknown,
    /// The player's room lives on another node: the connection goes there.
    Forward(Forward),
    /// The session goes on here, back in `room` when the player has one here.
    Here {
        record: SessionRecord,
        room: Option<RoomHandle>,
    },
}

/// Where rooms live and how players reach them: the only place that knows whether this
/// node is alone. One node answers every question locally; several share a directory.
pub trait Topology: RoomDirectory {
    /// Starts the topology's own work once the server's state exists; `drained` is
    /// notified when a drain asked by the shutdown (SIGTERM) has handed every room over.
    fn run(&self, node: &Arc<dyn Node>, drained: Arc<Notify>);
    /// Whether rooms may move between nodes: their clocks then run on one shared time line
    /// (Unix time), and a session whose room closed here may find it elsewhere.
    fn rooms_move(&self) -> bool;
    /// Whether this node reopens every unfinished room of the store at start-up (with
    /// several nodes a room belongs to its owner until that owner's lease is gone).
    fn recovers_stored_rooms(&self) -> bool;
    /// Whether `/node`, the other nodes' forwarded connections, is served.
    fn accepts_node_links(&self) -> bool;
    /// Whether this node is leaving: it takes no new room and leaves the load balancer's
    /// pool (`/healthz`).
    fn draining(&self) -> bool;
    /// Checks another node's internal hello: `Err` says why it is refused.
    fn admit_node(&self, secret: &str) -> Result<(), &'static str>;
    /// Whether room `id` is here (a room being taken over here is waited for briefly).
    fn here(&self, id: RoomId) -> BoxFuture<'_, Location>;
    /// A page of the rooms open for joining, after `after`, at most `limit`.
    fn list(
        &self,
        game: Option<GameKind>,
        after: Option<RoomId>,
        limit: usize,
    ) -> BoxFuture<'_, (Vec<RoomInfo>, Option<RoomId>)>;
    /// Waits (briefly) until every node can find the new room `id`.
    fn listed(&self, id: RoomId) -> BoxFuture<'_, ()>;
    /// Whether a lobby request is for another node (a room there, a new room placed there,
    /// quick play's waiting table there), and then how to forward the connection.
    fn route<'a>(&'a self, route: Route<'a>) -> BoxFuture<'a, Result<Option<Forward>, WireError>>;
    /// Where a resume token this node does not know leads.
    fn resume<'a>(&'a self, token: &'a str, client_addr: Option<IpAddr>) -> BoxFuture<'a, Resume>;
    /// Records where the player is now, so that any node can resume them.
    fn save_session(&self, token: &str, record: SessionRecord);
    /// The player's connection closed: their record lasts the reconnection grace.
    fn release_session(&self, token: &str, grace_ms: u64);
    /// This node's name and the live nodes; `None` when the server runs alone.
    fn nodes(&self) -> BoxFuture<'_, Option<(String, Vec<NodeInfo>)>>;
    /// The topology's lines in `/metrics`, `rooms` being the rooms open here.
    fn render_metrics(&self, rooms: usize, scrape: &crate::base::metrics::Scrape<'_>);
    /// Counts a forwarded connection starting (`true`) or ending.
    fn forwarding(&self, started: bool);
}

/// The configured topology: alone, or a node of the cluster `[cluster]` describes,
/// `listening` on this address; with several nodes tables are numbered from `first_number` on.
///
/// # Errors
/// The cluster cannot be joined (its settings, or Redis).
pub async fn start(
    config: &Config,
    listening: Option<SocketAddr>,
    first_number: u64,
) -> Result<Arc<dyn Topology>, cluster::ClusterError> {
    Ok(
        match cluster::Cluster::start(config, listening, first_number).await? {
            Some(cluster) => cluster,
            None => Arc::new(alone::Alone::default()),
        },
    )
}
