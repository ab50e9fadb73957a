//! The [`Topology`] questions answered with several nodes: the directory in Redis, rooms
//! forwarded to their owners, sessions any node can resume (README "Several nodes").

use std::net::IpAddr;
use std::sync::{Arc, Weak};

use qipai_protocol::{ClientMsg, ErrorCode, GameKind, RoomId, RoomInfo, WireError};
use qipai_store::BoxFuture;
use tokio::sync::Notify;

use super::Cluster;
use crate::lobby::RoomDirectory;
use crate::room::fence::Fence;
use crate::room::RoomHandle;
use crate::topology::forward::Forward;
use crate::topology::Node;
use crate::topology::{Location, NodeInfo, Resume, Route, SessionRecord, Topology};

/// The rooms this node opens are listed in the shared directory and fenced by the lease;
/// counted ids would collide between nodes, so they are always random, and short numbers
/// come from the cluster's one count.
impl RoomDirectory for Cluster {
    fn ids_are_local(&self) -> bool {
        false
    }

    fn take_number(&self) -> Option<u64> {
        self.numbers.take()
    }

    fn fence(&self) -> Option<Fence> {
        Some(Cluster::fence(self))
    }

    fn publish(self: Arc<Self>, room: &RoomHandle) {
        self.publish_room(room);
    }
}

impl Cluster {
    fn shared(&self) -> Option<Arc<dyn Node>> {
        self.shared.get().and_then(Weak::upgrade)
    }

    fn me(&self) -> Option<Arc<Cluster>> {
        self.me.upgrade()
    }

    /// Where room `id` lives, as [`Cluster::locate`] finds it (takeovers included).
    async fn find(&self, id: RoomId) -> Location {
        match (self.me(), self.shared()) {
            (Some(me), Some(shared)) => me.locate(&shared, id).await,
            _ => Location::Unknown,
        }
    }

    async fn forward_to(&self, route: Route<'_>) -> Result<Option<Forward>, WireError> {
        let Some(shared) = self.shared() else {
            return Ok(None);
        };
        let lobby = shared.lobby();
        let addr = match route.msg {
            ClientMsg::Join { room_id, .. } | ClientMsg::Spectate { room_id, .. } => {
                if lobby.get(*room_id).is_some() {
                    return Ok(None);
                }
                match self.find(*room_id).await {
                    Location::Remote(addr) => addr,
                    _ => return Ok(None),
                }
            }
            ClientMsg::CreateRoom { .. } => match self.placement().await {
                Some(addr) => addr,
                None => return Ok(None),
            },
            ClientMsg::QuickPlay { options, .. } => {
                let wanted = crate::room::wire::normalize(options, shared.config())?;
                // A draining node seats nobody at its own tables.
                if !self.draining() && lobby.has_waiting(options)? {
                    return Ok(None);
                }
                match self.waiting_elsewhere(&wanted).await {
                    Some(addr) => addr,
                    None => match self.placement().await {
                        Some(addr) => addr,
                        None => return Ok(None),
                    },
                }
            }
            _ => return Ok(None),
        };
        let pending = qipai_protocol::encode(route.msg).map_err(|e| WireError {
            code: ErrorCode::NodeUnavailable,
            message: e.to_string(),
        })?;
        Ok(Some(Forward {
            addr,
            hello: self.node_hello(route.token, &route.who, None, route.client_addr),
            pending: Some(pending.into()),
            swallow_welcome: true,
        }))
    }

    async fn resume_token(&self, token: &str, client_addr: Option<IpAddr>) -> Resume {
        let Some(record) = self.session(token).await else {
            return Resume::Unknown;
        };
        let mut room = None;
        if record.room != 0 {
            match self.find(record.room).await {
                Location::Remote(addr) => {
                    let hello = self.node_hello(token, &record, Some(record.room), client_addr);
                    return Resume::Forward(Forward {
                        addr,
                        hello,
                        pending: None,
                        swallow_welcome: false,
                    });
                }
                Location::Local => room = self.shared().and_then(|s| s.lobby().get(record.room)),
                Location::Unknown => {}
            }
        }
        Resume::Here { record, room }
    }
}

impl Topology for Cluster {
    fn run(&self, shared: &Arc<dyn Node>, drained: Arc<Notify>) {
        let Some(me) = self.me() else {
            return;
        };
        me.start_work(shared);
        let (shared, mut asked) = (Arc::clone(shared), shared.shutdown().clone());
        tokio::spawn(async move {
            if asked.drain_asked().await {
                super::drain::drain(&me, &shared).await;
                drained.notify_one();
            }
        });
    }

    fn rooms_move(&self) -> bool {
        true
    }

    fn recovers_stored_rooms(&self) -> bool {
        false
    }

    fn accepts_node_links(&self) -> bool {
        true
    }

    fn draining(&self) -> bool {
        Cluster::draining(self)
    }

    fn admit_node(&self, secret: &str) -> Result<(), &'static str> {
        if self.secret_ok(secret) {
            Ok(())
        } else {
            Err("the cluster's secret is wrong")
        }
    }

    fn here(&self, id: RoomId) -> BoxFuture<'_, Location> {
        Box::pin(async move {
            match self.shared() {
                Some(shared) => Cluster::here(self, shared.as_ref(), id).await,
                None => Location::Unknown,
            }
        })
    }

    fn list(
        &self,
        game: Option<GameKind>,
        after: Option<RoomId>,
        limit: usize,
    ) -> BoxFuture<'_, (Vec<RoomInfo>, Option<RoomId>)> {
        Box::pin(Cluster::list(self, game, after, limit))
    }

    fn listed(&self, id: RoomId) -> BoxFuture<'_, ()> {
        Box::pin(Cluster::listed(self, id))
    }

    fn route<'a>(&'a self, route: Route<'a>) -> BoxFuture<'a, Result<Option<Forward>, WireError>> {
        Box::pin(self.forward_to(route))
    }

    fn resume<'a>(&'a self, token: &'a str, client_addr: Option<IpAddr>) -> BoxFuture<'a, Resume> {
        Box::pin(self.resume_token(token, client_addr))
    }

    fn save_session(&self, token: &str, record: SessionRecord) {
        if let Some(me) = self.me() {
            Cluster::save_session(&me, token, record);
        }
    }

    fn release_session(&self, token: &str, grace_ms: u64) {
        if let Some(me) = self.me() {
            Cluster::release_session(&me, token, grace_ms);
        }
    }

    fn nodes(&self) -> BoxFuture<'_, Option<(String, Vec<NodeInfo>)>> {
        Box::pin(async move { Some((self.node.clone(), Cluster::nodes(self).await)) })
    }

    fn render_metrics(&self, rooms: usize, scrape: &crate::base::metrics::Scrape<'_>) {
        Cluster::render_metrics(self, rooms, scrape);
    }

    fn forwarding(&self, started: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        if started {
            self.metrics.proxied.fetch_add(1, Relaxed);
            self.metrics.proxied_now.fetch_add(1, Relaxed);
        } else {
            self.metrics.proxied_now.fetch_sub(1, Relaxed);
        }
    }
}
