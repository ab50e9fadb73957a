//! HTTP on hyper: `GET /healthz`, `GET /metrics`, the browser client's files
//! ([`crate::gateway::static_files`]) at `/`, and the WebSocket upgrade at `/ws` (any query), after
//! which the socket belongs to tokio-tungstenite ([`crate::gateway::connection`]).
//!
//! Every request gets an answer: `HEAD` like `GET` without the body, `405` with `Allow` for
//! other methods, `404` for unknown paths, `400` for a `/ws` request that is not an upgrade
//! (hyper itself answers `400` to what it cannot parse and `414` to an over-long URI).
//! Connections are kept alive between requests, so a page loads its files over one; the
//! wait for each request's head is bounded by `hello_timeout_ms`.

use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::Bytes;
use tokio_tungstenite::WebSocketStream;

use crate::app::App;
use crate::base::forwarded;
use crate::gateway::{connection, static_files};

/// The largest request head hyper buffers; a longer URI gets `414`, longer headers `431`.
const MAX_HEAD: usize = 80 * 1024;

/// The peer's address, taken by the connection's one WebSocket upgrade (which counts it in
/// the connection budgets then, knowing whether it is a client's `/ws` or another node's
/// `/node`).
type Ticket = Arc<Mutex<Option<IpAddr>>>;

type Answer = Response<Full<Bytes>>;

/// Serves one accepted TCP connection until it closes or upgrades to a WebSocket.
pub async fn serve(stream: TcpStream, shared: Arc<App>, peer: IpAddr) {
    let ticket: Ticket = Arc::new(Mutex::new(Some(peer)));
    let peer = Some(peer);
    let head_timeout = Duration::from_millis(shared.config.server.hello_timeout_ms);
    let service = service_fn(move |req: Request<Incoming>| {
        let shared = Arc::clone(&shared);
        let ticket = Arc::clone(&ticket);
        async move {
            let path = req.uri().path();
            let answer = if path.starts_with("/api/director")
                || path.starts_with("/api/competitions")
                || path == "/api/entry"
            {
                // Director logins and entry codes are limited per address: the client's.
                let client = peer.map(|p| client_addr(p, &req, &shared));
                competition_api(req, &shared, client).await
            } else if path.starts_with("/api/") {
                api(req, &shared).await
            } else {
                answer(req, &shared, &ticket)
            };
            Ok::<_, Infallible>(answer)
        }
    });
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(head_timeout)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    if let Err(error) = conn.await {
        tracing::debug!(%error, "http connection");
    }
}

fn answer(req: Request<Incoming>, shared: &Arc<App>, ticket: &Ticket) -> Answer {
    let path = req.uri().path();
    if path == "/ws" || (path == "/node" && shared.topology.accepts_node_links()) {
        let internal = path == "/node";
        return upgrade(req, shared, ticket, internal);
    }
    let head = match *req.method() {
        Method::GET => false,
        Method::HEAD => true,
        _ => {
            return text_with(
                StatusCode::METHOD_NOT_ALLOWED,
                "only GET and HEAD here\n",
                header::ALLOW,
                "GET, HEAD",
            );
        }
    };
    let mut response = match path {
        // A draining node (several nodes) leaves the load balancer's pool, and so does a
        // node whose store cannot write (it would refuse every action).
        "/healthz" => match (shared.topology.draining(), store_down(shared)) {
            (true, _) => text(StatusCode::SERVICE_UNAVAILABLE, "draining\n"),
            (false, Some(reason)) => text(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("store unavailable: {reason}\n"),
            ),
            (false, None) => text(StatusCode::OK, "ok\n"),
        },
        "/metrics" => {
            let rooms = shared.lobby.count_by_game();
            let page = shared
                .metrics
                .render(&rooms, shared.sessions.len(), |scrape| {
                    shared.budget.scrape(scrape);
                    if let Some(writer) = shared.lobby.writer() {
                        crate::persist::scrape(writer.stats(), scrape);
                    }
                    shared.topology.render_metrics(shared.lobby.len(), scrape);
                });
            text(StatusCode::OK, page)
        }
        _ => match static_files::serve(path, req.headers()) {
            Some(file) => file_answer(file),
            None => text(
                StatusCode::NOT_FOUND,
                "not found: the page is at /, the WebSocket at /ws\n",
            ),
        },
    };
    if head {
        // The headers of the GET, without its body.
        let len = HeaderValue::from(http_body_len(&response));
        *response.body_mut() = Full::new(Bytes::new());
        response.headers_mut().insert(header::CONTENT_LENGTH, len);
    }
    response
}

/// Why the store cannot write now, if it cannot.
fn store_down(shared: &App) -> Option<String> {
    shared.persist.as_ref()?.writer.unavailable()
}

/// The records under `/api/` ([`crate::gateway::records_api`]), read from the store, and the
/// catalogue of games at `/api/games` ([`crate::gateway::catalogue`]).
async fn api(req: Request<Incoming>, shared: &App) -> Answer {
    let head = match *req.method() {
        Method::GET => false,
        Method::HEAD => true,
        _ => {
            return text_with(
                StatusCode::METHOD_NOT_ALLOWED,
                "the API is read-only: GET and HEAD\n",
                header::ALLOW,
                "GET, HEAD",
            );
        }
    };
    let target = req
        .uri()
        .path_and_query()
        .map_or(req.uri().path(), |p| p.as_str());
    let (status, content_type, body) = if req.uri().path() == "/api/games" {
        crate::gateway::catalogue::answer()
    } else {
        crate::gateway::records_api::get(target, shared).await
    };
    let len = body.len();
    let mut r = Response::new(Full::new(if head {
        Bytes::new()
    } else {
        Bytes::from(body)
    }));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r.headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    r
}

/// The competitions' API ([`crate::gateway::competition_api`]): directors' actions and public reads.
async fn competition_api(
    req: Request<Incoming>,
    shared: &Arc<App>,
    peer: Option<std::net::IpAddr>,
) -> Answer {
    let head = req.method() == Method::HEAD;
    let a = crate::gateway::competition_api::handle(req, shared, peer).await;
    let len = a.body.len();
    let mut r = Response::new(Full::new(if head {
        Bytes::new()
    } else {
        Bytes::from(a.body)
    }));
    *r.status_mut() = a.status;
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(a.content_type),
    );
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(cookie) = a.cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        h.insert(header::SET_COOKIE, cookie);
    }
    r
}

/// A file, or `304` when the client's copy is current ([`static_files::serve`]).
fn file_answer(file: static_files::Answer) -> Answer {
    let mut r = Response::new(Full::new(Bytes::from_static(file.body)));
    *r.status_mut() = file.status;
    *r.headers_mut() = file.headers;
    r
}

/// The WebSocket handshake at `/ws`: `101` and the socket handed to tungstenite.
fn upgrade(
    mut req: Request<Incoming>,
    shared: &Arc<App>,
    ticket: &Ticket,
    internal: bool,
) -> Answer {
    if req.method() != Method::GET {
        return text_with(
            StatusCode::METHOD_NOT_ALLOWED,
            "the WebSocket is opened with GET\n",
            header::ALLOW,
            "GET",
        );
    }
    let headers = req.headers();
    let has = |name: header::HeaderName, want: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|v| v.trim().eq_ignore_ascii_case(want))
    };
    let is_upgrade = has(header::UPGRADE, "websocket")
        && has(header::CONNECTION, "upgrade")
        && has(header::SEC_WEBSOCKET_VERSION, "13");
    let key = headers.get(header::SEC_WEBSOCKET_KEY).cloned();
    let (true, Some(key)) = (is_upgrade, key) else {
        return text(
            StatusCode::BAD_REQUEST,
            "a WebSocket upgrade (version 13) is expected at /ws\n",
        );
    };
    let Some(peer) = ticket.lock().unwrap_or_else(PoisonError::into_inner).take() else {
        return text(StatusCode::BAD_REQUEST, "one WebSocket per connection\n");
    };
    let peer = if internal {
        peer
    } else {
        client_addr(peer, &req, shared)
    };
    // Over a budget, a WebSocket is told `too_many_connections` and closed, or, from an
    // address that connects too often, refused before its handshake. Another node's link
    // carries one of its clients: that client's address is counted once the link names it
    // (the internal hello), never the forwarding node's (it carries many players).
    let ticket = if internal {
        shared.budget.node_link(peer)
    } else if shared.budget.connect_rate(peer) {
        shared.budget.connection(peer)
    } else {
        return text_with(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_connections: your address opens connections too often\n",
            header::RETRY_AFTER,
            "1",
        );
    };
    let upgraded = hyper::upgrade::on(&mut req);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        match upgraded.await {
            Ok(socket) => {
                let config = connection::ws_config(&shared);
                let ws = WebSocketStream::from_raw_socket(
                    TokioIo::new(socket),
                    Role::Server,
                    Some(config),
                )
                .await;
                connection::serve(ws, shared, ticket, internal).await;
            }
            Err(error) => tracing::debug!(%error, "upgrade failed"),
        }
    });
    let mut r = Response::new(Full::new(Bytes::new()));
    *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = r.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(accept) = HeaderValue::from_str(&derive_accept_key(key.as_bytes())) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    r
}

/// The address a request's budgets count: the client behind a trusted reverse proxy
/// (`server.trusted_proxies`), else the peer.
fn client_addr(peer: IpAddr, req: &Request<Incoming>, shared: &App) -> IpAddr {
    forwarded::client_addr(peer, req.headers(), &shared.config.server.trusted_proxies)
}

const TEXT: &str = "text/plain; charset=utf-8";

fn text(status: StatusCode, body: impl Into<Bytes>) -> Answer {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(TEXT));
    r
}

/// [`text`] with one more header (`Allow` for a wrong method, `Retry-After` for too many).
fn text_with(
    status: StatusCode,
    body: &'static str,
    name: header::HeaderName,
    value: &'static str,
) -> Answer {
    let mut r = text(status, body);
    r.headers_mut()
        .insert(name, HeaderValue::from_static(value));
    r
}

/// The length of a response's body.
fn http_body_len(r: &Answer) -> u64 {
    use hyper::body::Body;
    r.body().size_hint().exact().unwrap_or(0)
}
