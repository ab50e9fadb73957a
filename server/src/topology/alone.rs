//! One node: every room is here, every answer is the local one, nothing is forwarded.

use std::net::IpAddr;
use std::sync::{Arc, OnceLock, Weak};

use qipai_protocol::{GameKind, RoomId, RoomInfo, WireError};
use qipai_store::BoxFuture;
use tokio::sync::Notify;

use super::forward::Forward;
use super::{Location, NodeInfo, Resume, Route, SessionRecord, Topology};
use crate::lobby::RoomDirectory;
use crate::room::fence::Fence;
use crate::room::RoomHandle;
use crate::topology::Node;

/// The topology of a server that runs alone (no `[cluster]`).
#[derive(Default)]
pub struct Alone {
    /// The server's state, once it exists (held weakly: the state owns the topology).
    shared: OnceLock<Weak<dyn Node>>,
}

impl Alone {
    fn shared(&self) -> Option<Arc<dyn Node>> {
        self.shared.get().and_then(Weak::upgrade)
    }
}

/// Alone, this node hands out every room id, and nothing can take a room away.
impl RoomDirectory for Alone {
    fn ids_are_local(&self) -> bool {
        true
    }

    fn take_number(&self) -> Option<u64> {
        None
    }

    fn fence(&self) -> Option<Fence> {
        None
    }

    fn publish(self: Arc<Self>, _room: &RoomHandle) {}
}

impl Topology for Alone {
    fn run(&self, shared: &Arc<dyn Node>, _drained: Arc<Notify>) {
        let _ = self.shared.set(Arc::downgrade(shared));
    }

    fn rooms_move(&self) -> bool {
        false
    }

    fn recovers_stored_rooms(&self) -> bool {
        true
    }

    fn accepts_node_links(&self) -> bool {
        false
    }

    fn draining(&self) -> bool {
        false
    }

    fn admit_node(&self, _secret: &str) -> Result<(), &'static str> {
        Err("this server is not in a cluster")
    }

    fn here(&self, id: RoomId) -> BoxFuture<'_, Location> {
        let here = self.shared().is_some_and(|s| s.lobby().get(id).is_some());
        Box::pin(std::future::ready(if here {
            Location::Local
        } else {
            Location::Unknown
        }))
    }

    fn list(
        &self,
        game: Option<GameKind>,
        after: Option<RoomId>,
        limit: usize,
    ) -> BoxFuture<'_, (Vec<RoomInfo>, Option<RoomId>)> {
        let page = self
            .shared()
            .map(|s| s.lobby().list(game, after, limit))
            .unwrap_or_default();
        Box::pin(std::future::ready(page))
    }

    fn listed(&self, _id: RoomId) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }

    fn route<'a>(&'a self, _route: Route<'a>) -> BoxFuture<'a, Result<Option<Forward>, WireError>> {
        Box::pin(std::future::ready(Ok(None)))
    }

    fn resume<'a>(
        &'a self,
        _token: &'a str,
        _client_addr: Option<IpAddr>,
    ) -> BoxFuture<'a, Resume> {
        Box::pin(std::future::ready(Resume::Unknown))
    }

    fn save_session(&self, _token: &str, _record: SessionRecord) {}

    fn release_session(&self, _token: &str, _grace_ms: u64) {}

    fn nodes(&self) -> BoxFuture<'_, Option<(String, Vec<NodeInfo>)>> {
        Box::pin(std::future::ready(None))
    }

    fn render_metrics(&self, _rooms: usize, _scrape: &crate::base::metrics::Scrape<'_>) {}

    fn forwarding(&self, _started: bool) {}
}
