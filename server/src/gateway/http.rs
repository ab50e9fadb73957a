//! HTTP on one router (axum over the hyper connection the listener accepts): `GET /healthz`,
//! `GET /metrics`, the WebSocket upgrade at `/ws` (any query; another node's link at
//! `/node`), the games' catalogue and the records under `/api/`
//! ([`crate::gateway::records_api`]), profiles and leaderboards
//! ([`crate::gateway::ratings_api`]), the competitions' API
//! ([`crate::gateway::competition_api`]), and the browser client's files
//! ([`crate::gateway::static_files`]) for every other path.
//!
//! Every request gets an answer: `HEAD` like `GET` without the body; a refusal is one shape
//! ([`crate::gateway::refusal`]), `405` with `Allow` for a method a path does not take,
//! `404` for unknown paths, `400` for a `/ws` request that is not an upgrade (hyper itself
//! answers `400` to what it cannot parse and `414` to an over-long URI). Connections are
//! kept alive between requests, so a page loads its files over one; the wait for each
//! request's head is bounded by `hello_timeout_ms`. A connection served from the descriptor
//! reserve ([`crate::base::sockets`]) is served `/healthz` and `/ws` only, each request's
//! head due within [`RESERVE_HEAD_MS`]; any other path is answered `503`.

use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, Response, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{any, get, post};
use axum::{Extension, Router};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use qipai_protocol::ErrorCode;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::WebSocketStream;
use tower::Service;

use crate::app::App;
use crate::base::forwarded;
use crate::base::sockets::{HttpTicket, Tier, RESERVE_HEAD_MS};
use crate::gateway::account_api as account;
use crate::gateway::client::Client;
use crate::gateway::competition_api as comp;
use crate::gateway::entry_links_api as links;
use crate::gateway::ratings_api as ratings;
use crate::gateway::records_api as records;
use crate::gateway::refusal::{self, Refusal};
use crate::gateway::socket::Socket;
use crate::gateway::timed_body::TimedBody;
use crate::gateway::{connection, static_files};

/// The largest request head hyper buffers; a longer URI gets `414`, longer headers `431`.
const MAX_HEAD: usize = 80 * 1024;

/// The peer's address, taken by the connection's one WebSocket upgrade (which counts it in
/// the connection budgets then, knowing whether it is a client's `/ws` or another node's
/// `/node`).
#[derive(Clone)]
struct Ticket(Arc<Mutex<Option<IpAddr>>>);

/// Every path the server answers, and the methods each takes.
pub fn router(app: Arc<App>) -> Router {
    const C: &str = "/api/competitions";
    const D: &str = "/api/director";
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/ws", get(ws))
        .route("/node", get(node))
        .route("/api/games", get(crate::gateway::catalogue::answer))
        .route("/api/games/{id}", get(records::game))
        .route("/api/nodes", get(records::nodes))
        .route("/api/players/{name}/games", get(records::player_games))
        .route("/api/players/{name}/profile", get(ratings::profile))
        .route("/api/leaderboard/{game}", get(ratings::leaderboard))
        .route("/api/entry", post(comp::entry))
        .route("/api/entry/link", post(links::link))
        .route("/api/entry/unlink", post(links::unlink))
        .route("/api/account/entries", get(links::account_entries))
        .route("/api/account", get(account::me))
        .route("/api/account/games", get(records::account_games))
        .route("/api/account/signup", post(account::sign_up))
        .route("/api/account/signin", post(account::sign_in))
        .route("/api/account/signout", post(account::sign_out))
        .route("/api/account/password", post(account::change_password))
        .route("/api/account/delete", post(account::delete))
        .route(C, get(comp::list))
        .route(&format!("{C}/changes"), get(comp::changes_answer))
        .route(&format!("{C}/{{id}}"), get(comp::summary))
        .route(&format!("{C}/{{id}}/entries"), get(comp::entries))
        .route(&format!("{C}/{{id}}/rounds/{{n}}"), get(comp::round))
        .route(&format!("{C}/{{id}}/standings"), get(comp::standings))
        .route(
            &format!("{C}/{{id}}/standings.csv"),
            get(comp::standings_csv),
        )
        .route(&format!("{C}/{{id}}/teams"), get(comp::teams))
        .route(&format!("{C}/{{id}}/teams.csv"), get(comp::teams_csv))
        .route(&format!("{C}/{{id}}/awards"), get(comp::awards))
        .route(&format!("{C}/{{id}}/awards.csv"), get(comp::awards_csv))
        .route(&format!("{D}/login"), post(comp::login))
        .route(&format!("{D}/logout"), post(comp::logout))
        .route(&format!("{D}/session"), get(comp::session))
        .route(&format!("{D}/qr.svg"), get(comp::qr))
        .route(&format!("{D}/competitions"), post(comp::create))
        .route(
            &format!("{D}/competitions/{{id}}/entries"),
            get(comp::private_entries).post(comp::import),
        )
        .route(
            &format!("{D}/competitions/{{id}}/entries/{{entry}}/players/{{player}}/code"),
            post(comp::reissue),
        )
        .route(
            &format!("{D}/competitions/{{id}}/entries/{{entry}}/players/{{player}}/unlink"),
            post(links::director_unlink),
        )
        .route(
            &format!("{D}/competitions/{{id}}/rounds"),
            post(comp::start_round),
        )
        .route(
            &format!("{D}/competitions/{{id}}/rounds/{{n}}/start"),
            post(comp::begin_round),
        )
        .route(
            &format!("{D}/competitions/{{id}}/rounds/{{n}}/undo"),
            post(comp::undo_round),
        )
        .route(
            &format!("{D}/competitions/{{id}}/entries/{{entry}}/withdraw"),
            post(comp::withdraw),
        )
        .route(
            &format!("{D}/competitions/{{id}}/results"),
            post(comp::results),
        )
        .route(
            &format!("{D}/competitions/{{id}}/corrections"),
            post(comp::corrections),
        )
        .route(&format!("{D}/{{*rest}}"), any(comp::director_unknown))
        .route("/api", any(api_unknown))
        .route("/api/{*rest}", any(api_unknown))
        .fallback(page)
        .with_state(app)
}

/// Serves one accepted connection with `router` until it closes or upgrades to a
/// WebSocket, holding its place as plain HTTP (`place`) until then.
pub async fn serve<S>(
    stream: Socket<S>,
    place: HttpTicket,
    router: Router,
    shared: &App,
    peer: IpAddr,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let ticket = Ticket(Arc::new(Mutex::new(Some(peer))));
    let trusted = shared.config.server.trusted_proxies.clone();
    let reserve = place.tier() == Tier::Reserve;
    let head_ms = match place.tier() {
        Tier::Normal => shared.config.server.hello_timeout_ms,
        Tier::Reserve => RESERVE_HEAD_MS.min(shared.config.server.hello_timeout_ms),
    };
    let head_timeout = Duration::from_millis(head_ms);
    let body_timeout = Duration::from_millis(shared.config.limits.http_body_timeout_ms);
    let service = service_fn(move |req: Request<hyper::body::Incoming>| {
        let reserved_only = reserve && !matches!(req.uri().path(), "/healthz" | "/ws");
        let mut req = req.map(|body| Body::new(TimedBody::new(body, body_timeout)));
        let client = forwarded::client_addr(peer, req.headers(), &trusted);
        let extensions = req.extensions_mut();
        extensions.insert(ticket.clone());
        extensions.insert(Client(client));
        let mut router = router.clone();
        async move {
            if reserved_only {
                return Ok(full());
            }
            // Outside the router, where its `405`s carry their `Allow`.
            let answer: Result<Response<Body>, Infallible> = router.call(req).await;
            answer.map(refusal::uniform)
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
    drop(place);
}

/// The answer to a request other than `/healthz` or `/ws` on a connection from the reserve.
fn full() -> Response<Body> {
    Refusal {
        status: StatusCode::SERVICE_UNAVAILABLE,
        ..Refusal::new(
            ErrorCode::TooManyConnections,
            "the server is full: try again later",
        )
    }
    .with(header::RETRY_AFTER, HeaderValue::from_static("1"))
    .into_response()
}

/// A draining node (several nodes) leaves the load balancer's pool, and so does a node
/// whose store cannot write (it would refuse every action).
async fn healthz(State(shared): State<Arc<App>>) -> Response<Body> {
    match (shared.topology.draining(), store_down(&shared)) {
        (true, _) => refusal::as_is(text(StatusCode::SERVICE_UNAVAILABLE, "draining\n")),
        (false, Some(reason)) => refusal::as_is(text(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("store unavailable: {reason}\n"),
        )),
        (false, None) => text(StatusCode::OK, "ok\n"),
    }
}

async fn metrics(State(shared): State<Arc<App>>) -> Response<Body> {
    use crate::persist::retention::SIZE_WAIT;
    let rooms = shared.lobby.count_by_game();
    let store_bytes = match &shared.persist {
        Some(p) => tokio::time::timeout(SIZE_WAIT, p.store.size_bytes())
            .await
            .ok()
            .and_then(Result::ok),
        None => None,
    };
    let page = shared
        .metrics
        .render(&rooms, shared.sessions.len(), |scrape| {
            shared.budget.scrape(scrape);
            shared.hashing.scrape(scrape);
            if let Some(writer) = shared.lobby.writer() {
                crate::persist::scrape(writer.stats(), scrape);
            }
            if let Some(p) = &shared.persist {
                p.swept.scrape(store_bytes, scrape);
            }
            shared.topology.render_metrics(shared.lobby.len(), scrape);
        });
    text(StatusCode::OK, page)
}

/// Why the store cannot write now, if it cannot.
fn store_down(shared: &App) -> Option<String> {
    shared.persist.as_ref()?.writer.unavailable()
}

/// An unknown path under `/api/`.
async fn api_unknown() -> Refusal {
    Refusal::not_found(
        "the API has /api/games, /api/games/{id}, /api/games/{id}.pgn, /api/games/{id}.pdn, \
         /api/players/{name}/games, /api/players/{name}/profile, /api/leaderboard/{game}, \
         /api/competitions…, /api/director/…, /api/entry, /api/account…",
    )
}

/// The page's files, for every path no route names: gzipped for a browser that accepts it,
/// `304` when the client's copy is current ([`static_files::serve`]).
async fn page(method: Method, headers: HeaderMap, req: Request) -> Response<Body> {
    let Some(file) = static_files::serve(req.uri().path(), &headers) else {
        return Refusal::not_found("not found: the page is at /, the WebSocket at /ws")
            .into_response();
    };
    let head = match method {
        Method::GET => false,
        Method::HEAD => true,
        _ => {
            return Refusal::method_not_allowed(HeaderValue::from_static("GET, HEAD"))
                .into_response()
        }
    };
    let len = file.body.len();
    let mut response = Response::new(Body::from(file.body));
    *response.status_mut() = file.status;
    *response.headers_mut() = file.headers;
    if head {
        // The headers of the GET, without its body.
        *response.body_mut() = Body::empty();
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    }
    response
}

/// A client's WebSocket.
async fn ws(
    State(shared): State<Arc<App>>,
    Extension(ticket): Extension<Ticket>,
    Extension(client): Extension<Client>,
    req: Request,
) -> Result<Response<Body>, Refusal> {
    upgrade(req, &shared, &ticket, Some(client))
}

/// Another node's link, when this node is one of several (else no such path).
async fn node(
    State(shared): State<Arc<App>>,
    Extension(ticket): Extension<Ticket>,
    req: Request,
) -> Result<Response<Body>, Refusal> {
    if !shared.topology.accepts_node_links() {
        return Err(Refusal::not_found("no such path"));
    }
    upgrade(req, &shared, &ticket, None)
}

/// The WebSocket handshake: `101` and the socket handed to tungstenite. `client`: the
/// client's address for `/ws`; `None` for another node's link.
fn upgrade(
    mut req: Request,
    shared: &Arc<App>,
    ticket: &Ticket,
    client: Option<Client>,
) -> Result<Response<Body>, Refusal> {
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
    // An account's cookie counts only from this server's own page: another site's page
    // may open a WebSocket here too, and its browser would send the cookie along.
    let account_cookie = account::same_origin(headers)
        .then(|| crate::gateway::client::cookie(headers, crate::accounts::COOKIE))
        .flatten();
    let (true, Some(key)) = (is_upgrade, key) else {
        return Err(Refusal::new(
            ErrorCode::BadRequest,
            "a WebSocket upgrade (version 13) is expected at /ws",
        ));
    };
    let Some(peer) = ticket
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    else {
        return Err(Refusal::new(
            ErrorCode::BadRequest,
            "one WebSocket per connection",
        ));
    };
    let internal = client.is_none();
    // Over a budget, a WebSocket is told `too_many_connections` and closed, or, from an
    // address that connects too often, refused before its handshake. Another node's link
    // carries one of its clients: that client's address is counted once the link names it
    // (the internal hello), never the forwarding node's (it carries many players).
    let ticket = match client {
        None => shared.budget.node_link(peer),
        Some(Client(addr)) if shared.budget.connect_rate(addr) => shared.budget.connection(addr),
        Some(_) => {
            return Err(Refusal::new(
                ErrorCode::TooManyConnections,
                "your address opens connections too often",
            )
            .with(header::RETRY_AFTER, HeaderValue::from_static("1")));
        }
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
                connection::serve(ws, shared, ticket, internal, account_cookie).await;
            }
            Err(error) => tracing::debug!(%error, "upgrade failed"),
        }
    });
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = r.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(accept) = HeaderValue::from_str(&derive_accept_key(key.as_bytes())) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    Ok(r)
}

const TEXT: &str = "text/plain; charset=utf-8";

fn text(status: StatusCode, body: impl Into<Body>) -> Response<Body> {
    let mut r = Response::new(body.into());
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(TEXT));
    r
}
