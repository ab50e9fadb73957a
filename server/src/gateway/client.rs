//! Who sent a request: the address its per-address budgets count, put beside each request
//! by [`crate::gateway::http::serve`] for the handlers that limit per address, and the
//! session token it carries (an account's, a director's).

use std::net::IpAddr;

use axum::http::header::{self, HeaderMap};

/// The client behind a trusted reverse proxy (`server.trusted_proxies`), else the peer.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

/// The value of cookie `name` among the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == name).then(|| v.to_owned())
        })
}

/// A session token (an account's, a director's): the bearer token, else cookie `name`;
/// none when empty or longer than any token the server gives.
pub fn bearer_or_cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_owned())
        .or_else(|| cookie(headers, name))
        .filter(|t| !t.is_empty() && t.len() <= 256)
}
