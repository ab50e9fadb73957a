//! The address a request's per-address budgets count, put beside each request by
//! [`crate::gateway::http::serve`] for the handlers that limit per address.

use std::net::IpAddr;

/// The client behind a trusted reverse proxy (`server.trusted_proxies`), else the peer.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);
