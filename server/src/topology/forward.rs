//! Forwarding a client's connection to the node that holds its room.
//!
//! The node the client reached opens a WebSocket to the owner's `ws://ADVERTISE/node`,
//! sends a [`NodeHello`] (the cluster's secret and the player's identity, resume token
//! included), and from then on pipes frames both ways: the owner serves the connection as
//! one of its own, so the client and the page need nothing new, any TCP/HTTP load balancer
//! works, and nodes need not be reachable from outside. The cost is one more hop (loopback
//! or LAN) and this node staying in the path: if it dies the client reconnects, as after
//! any drop.

use std::time::Duration;

use futures_util::{SinkExt, Stream, StreamExt};
use qipai_protocol::{ErrorCode, PlayerId, RoomId, ServerMsg};
use serde::{Deserialize, Serialize};
use tokio_tungstenite::tungstenite::{Bytes, Error as WsError, Message};

use super::cluster::Cluster;
use super::SessionRecord;
use crate::base::shutdown::Shutdown;
use crate::room::Outbox;

/// How long connecting to another node and its answer to the internal hello may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The internal hello, the first frame on `/node` (MessagePack map, PROTOCOL.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeHello {
    /// Always `node_hello`.
    #[serde(rename = "type")]
    pub kind: String,
    pub secret: String,
    pub player_id: PlayerId,
    pub name: String,
    /// The signed-in account the player plays as (`None`: a guest).
    #[serde(default)]
    pub account: Option<u64>,
    #[serde(default)]
    pub bot: bool,
    pub resume_token: String,
    /// A reconnection: the room the player is in (the node sends them back to it).
    #[serde(default)]
    pub room_id: Option<RoomId>,
    /// The client's own address as the forwarding node saw it: the owner counts the
    /// player's rooms against it (`limits.rooms_per_addr`), not against the forwarding
    /// node's.
    #[serde(default)]
    pub client_addr: Option<String>,
}

impl NodeHello {
    /// The hello in `bytes`, if that is what they are.
    pub fn decode(bytes: &[u8]) -> Option<NodeHello> {
        rmp_serde::from_slice::<NodeHello>(bytes)
            .ok()
            .filter(|h| h.kind == "node_hello")
    }
}

/// Where and how to forward a connection.
#[derive(Debug)]
pub struct Forward {
    /// The owner's `advertise` address.
    pub addr: String,
    /// The encoded [`NodeHello`].
    pub hello: Bytes,
    /// The client's request that led here, sent on after the hello.
    pub pending: Option<Bytes>,
    /// The client already has its `welcome` from this node: the owner's is not passed on.
    pub swallow_welcome: bool,
}

impl Cluster {
    /// The encoded internal hello for this player, who connected from `client_addr`.
    pub fn node_hello(
        &self,
        token: &str,
        who: &SessionRecord,
        room: Option<RoomId>,
        client_addr: Option<std::net::IpAddr>,
    ) -> Bytes {
        let hello = NodeHello {
            client_addr: client_addr.map(|a| a.to_string()),
            kind: "node_hello".into(),
            secret: self.secret.clone(),
            player_id: who.player,
            name: who.name.clone(),
            account: who.account,
            bot: who.bot,
            resume_token: token.to_owned(),
            room_id: room,
        };
        qipai_protocol::encode(&hello).unwrap_or_default().into()
    }
}

/// The byte a forwarding node appends to its client's pong before it passes it on to the
/// owner: the owner measures the player's round trip from these (hop included), not from
/// the link's own automatic pongs (the hop alone).
pub const RELAYED_PONG: u8 = 1;

/// Pipes the client's connection (`client`, and `outbox` towards it; `pings`, its socket's
/// queue, for the owner's pings) to the node named in `forward` until either side closes.
pub async fn pipe<S>(
    forward: Forward,
    client: &mut S,
    outbox: &Outbox,
    pings: &tokio::sync::mpsc::Sender<crate::room::Outgoing>,
    topology: &dyn super::Topology,
    mut shutdown: Shutdown,
) where
    S: Stream<Item = Result<Message, WsError>> + Unpin,
{
    let unavailable = |why: String| {
        tracing::warn!(addr = %forward.addr, %why, "cannot forward to the room's node");
        outbox.send(&ServerMsg::error(
            None,
            ErrorCode::NodeUnavailable,
            "the node that holds the room cannot be reached: reconnect with your token",
        ));
    };
    let url = format!("ws://{}/node", forward.addr);
    let mut up =
        match tokio::time::timeout(CONNECT_TIMEOUT, tokio_tungstenite::connect_async(url)).await {
            Ok(Ok((ws, _))) => ws,
            Ok(Err(e)) => return unavailable(e.to_string()),
            Err(_) => return unavailable("timed out".into()),
        };
    if let Err(e) = up.send(Message::Binary(forward.hello)).await {
        return unavailable(e.to_string());
    }
    if forward.swallow_welcome {
        let first = tokio::time::timeout(CONNECT_TIMEOUT, up.next()).await;
        match first {
            Ok(Some(Ok(Message::Binary(bytes)))) => {
                let welcome = rmp_serde::from_slice::<ServerMsg>(&bytes)
                    .is_ok_and(|m| matches!(m, ServerMsg::Welcome { .. }));
                if !welcome {
                    // A refusal (a wrong secret): the client hears it, the pipe ends.
                    outbox.send_frame(bytes);
                    return;
                }
            }
            _ => return unavailable("no answer to the internal hello".into()),
        }
    }
    if let Some(pending) = forward.pending {
        if let Err(e) = up.send(Message::Binary(pending)).await {
            return unavailable(e.to_string());
        }
    }
    topology.forwarding(true);
    loop {
        tokio::select! {
            frame = client.next() => match frame {
                Some(Ok(m @ (Message::Binary(_) | Message::Text(_)))) => {
                    if up.send(m).await.is_err() {
                        break;
                    }
                }
                // The answer to the owner's ping (below): the whole round trip, for the
                // owner's lag allowance.
                Some(Ok(Message::Pong(payload))) if payload.len() == 8 => {
                    let mut relayed = payload.to_vec();
                    relayed.push(RELAYED_PONG);
                    if up.send(Message::Pong(relayed.into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {}
                _ => break,
            },
            frame = up.next() => match frame {
                Some(Ok(Message::Binary(bytes))) => {
                    if !outbox.send_frame(bytes) {
                        break;
                    }
                }
                // The owner's ping goes on to the client (the link answers it too, by
                // itself: the owner ignores that pong for the round trip).
                Some(Ok(Message::Ping(payload))) => {
                    if let Ok(time) = <[u8; 8]>::try_from(&payload[..]) {
                        let _ = pings.try_send(crate::room::Outgoing::Control(crate::room::Control::Ping(
                            u64::from_be_bytes(time),
                        )));
                    }
                }
                Some(Ok(Message::Pong(_) | Message::Text(_) | Message::Frame(_))) => {}
                _ => break,
            },
            () = shutdown.wait() => break,
        }
    }
    topology.forwarding(false);
    let _ = up.close(None).await;
}
