//! The listener: accepts connections, counts each against the descriptors' and plain HTTP's
//! budgets ([`crate::base::sockets`]), and hands it to [`crate::gateway::http`]; a connection
//! over them is answered at once and closed.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Weak};
use std::time::Duration;

use qipai_protocol::ErrorCode;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::app::{App, Built};
use crate::base::config::Config;
use crate::base::metrics::Metrics;
use crate::base::shutdown::Shutdown;
use crate::base::sockets::{Admitted, Turned};
use crate::gateway::http;
use crate::gateway::socket::Socket;

/// How long a refused connection is given to read its refusal before it is closed.
const REFUSAL_LINGER: Duration = Duration::from_millis(200);

/// Binds the configured address (port 0 picks a free one, as tests do).
///
/// # Errors
/// The bind failure.
pub async fn bind(config: &Config) -> std::io::Result<TcpListener> {
    TcpListener::bind(config.server.addr).await
}

/// Serves `listener` until `shutdown` fires; then every connection says goodbye.
pub async fn run(listener: TcpListener, config: Config, shutdown: Shutdown) {
    if let Some((persist, metrics)) = open(&config).await {
        serve(listener, config, shutdown, persist, metrics).await;
    }
}

/// The configured store, if any, and the counters of `/metrics` it reports to; `None` when
/// the store cannot be opened (logged: the server does not serve).
async fn open(config: &Config) -> Option<(Option<crate::persist::Persist>, Arc<Metrics>)> {
    let metrics = Arc::new(Metrics::default());
    match crate::persist::open(config, &metrics).await {
        Ok(persist) => Some((persist, metrics)),
        Err(error) => {
            tracing::error!(%error, "cannot open the store: not serving");
            None
        }
    }
}

/// [`run`] on a store given by the caller (a test's double behind the `Store` trait),
/// whose failed transactions are tried again after `retry` (then ×4, five tries).
pub async fn run_with_store(
    listener: TcpListener,
    config: Config,
    shutdown: Shutdown,
    store: Arc<dyn qipai_store::Store>,
    retry: Duration,
) {
    let metrics = Arc::new(Metrics::default());
    match crate::persist::with_store(&config, store, retry, &metrics).await {
        Ok(p) => serve(listener, config, shutdown, Some(p), metrics).await,
        Err(error) => tracing::error!(%error, "cannot read the store: not serving"),
    }
}

async fn serve(
    listener: TcpListener,
    config: Config,
    mut shutdown: Shutdown,
    persist: Option<crate::persist::Persist>,
    metrics: Arc<Metrics>,
) {
    let listening = listener.local_addr().ok();
    let built = build(config, shutdown.clone(), persist, metrics, listening).await;
    let Some((Built { app, drained }, router)) = built else {
        return;
    };
    tracing::info!(addr = ?listening, "listening");
    let refusing = Arc::new(AtomicUsize::new(0));
    loop {
        // Accepting never stops at a cap: a connection over its budget is answered and
        // closed at once, and the descriptors kept back make sure an accept never fails for
        // want of one, so no cap can keep `/healthz` or other addresses out.
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.wait() => break,
            () = drained.notified() => break,
        };
        match accepted {
            Ok((stream, peer)) => match admit(&app, peer) {
                Ok(admitted) => {
                    let app = Arc::clone(&app);
                    tokio::spawn(accept(stream, admitted, peer, router.clone(), app));
                }
                Err(turned) => {
                    let most = app.config.limits.descriptors_kept / 2;
                    turn_away(stream, turned, &refusing, most);
                }
            },
            Err(error) => {
                // Out of file descriptors and the like: back off instead of spinning.
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
    tracing::info!("stopped accepting");
}

/// The server's parts and its router, as [`serve`] and [`InProcess`] serve them: with the
/// upkeep of its metrics and the serving of its own bots' in-memory connections. `None` when
/// the server must not serve (the reason is logged).
async fn build(
    config: Config,
    shutdown: Shutdown,
    persist: Option<crate::persist::Persist>,
    metrics: Arc<Metrics>,
    listening: Option<SocketAddr>,
) -> Option<(Built, axum::Router)> {
    upkeep(Arc::downgrade(&metrics));
    let serve_bots = |app: Weak<App>| -> crate::seat_bots::Serve {
        Arc::new(move |socket| {
            if let Some(app) = app.upgrade() {
                tokio::spawn(crate::gateway::connection::serve_in_memory(socket, app));
            }
        })
    };
    let built = App::build(config, shutdown, persist, metrics, listening, serve_bots).await?;
    let router = http::router(Arc::clone(&built.app));
    Some((built, router))
}

/// The places of a connection from `peer` in the descriptors' and plain HTTP's budgets, or
/// why it is refused (a configured trusted proxy is not capped by address).
fn admit(app: &App, peer: SocketAddr) -> Result<Admitted, Turned> {
    let proxies = &app.config.server.trusted_proxies;
    let trusted = proxies.iter().any(|net| net.contains(peer.ip()));
    app.budget.sockets.admit(peer.ip(), trusted)
}

/// The server built in-process with no socket bound, serving the streams its caller hands
/// it as the listener serves accepted connections: through the same budgets, router and
/// middleware. It exists for in-process drivers such as the HTTP fuzz target
/// (`fuzz/fuzz_targets/http.rs`), which serve in-memory pipes on a runtime of their own.
#[derive(Clone)]
pub struct InProcess {
    pub app: Arc<App>,
    router: axum::Router,
}

impl InProcess {
    /// Opens the configured store and builds the server on it; it serves until `shutdown`
    /// fires. `None` when it cannot serve (the reason is logged).
    pub async fn start(config: Config, shutdown: Shutdown) -> Option<InProcess> {
        let (persist, metrics) = open(&config).await?;
        let (Built { app, .. }, router) = build(config, shutdown, persist, metrics, None).await?;
        Some(InProcess { app, router })
    }

    /// Admits `stream`, a connection from `peer`, as the listener admits an accepted one;
    /// the future serves it until it closes or upgrades to a WebSocket.
    ///
    /// # Errors
    /// [`Turned`]: the connection is over a budget (the listener answers such a connection
    /// at once and closes it).
    pub fn serve<S>(
        &self,
        stream: S,
        peer: SocketAddr,
    ) -> Result<impl std::future::Future<Output = ()> + Send + 'static, Turned>
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let admitted = admit(&self.app, peer)?;
        let (router, app) = (self.router.clone(), Arc::clone(&self.app));
        Ok(async move {
            let socket = Socket::new(stream, admitted.socket);
            http::serve(socket, admitted.http, router, &app, peer.ip()).await;
        })
    }
}

/// Folds the histograms' samples in every few seconds while the server runs.
fn upkeep(metrics: std::sync::Weak<Metrics>) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match metrics.upgrade() {
                Some(m) => m.upkeep(),
                None => return,
            }
        }
    });
}

async fn accept(
    stream: TcpStream,
    admitted: Admitted,
    peer: SocketAddr,
    router: axum::Router,
    app: Arc<App>,
) {
    // Game traffic is small frames that must leave at once.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, %peer, "TCP_NODELAY");
    }
    // The WebSocket budgets are counted at the upgrade (`http::upgrade`).
    let socket = Socket::new(stream, admitted.socket);
    http::serve(socket, admitted.http, router, &app, peer.ip()).await;
}

/// Answers a connection refused at its accept (`503`, or `429` when its address is at its
/// cap) and closes it after [`REFUSAL_LINGER`], reading what it sent meanwhile so that the
/// close does not reset the answer away. At most `most` linger at once (they hold
/// descriptors of the kept ones); past that a refused connection is closed at once.
fn turn_away(stream: TcpStream, turned: Turned, refusing: &Arc<AtomicUsize>, most: usize) {
    let (status, message) = match turned {
        Turned::Address => (
            "429 Too Many Requests",
            "too many connections from your address",
        ),
        Turned::Descriptors | Turned::Full => (
            "503 Service Unavailable",
            "the server is full: try again later",
        ),
    };
    let body = serde_json::json!({
        "error": { "code": ErrorCode::TooManyConnections.as_str(), "message": message }
    })
    .to_string();
    let answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    if refusing
        .fetch_update(Relaxed, Relaxed, |n| (n < most).then_some(n + 1))
        .is_err()
    {
        let _ = stream.try_write(answer.as_bytes());
        return;
    }
    let refusing = Arc::clone(refusing);
    tokio::spawn(async move {
        let mut stream = stream;
        let linger = async {
            stream.write_all(answer.as_bytes()).await?;
            stream.shutdown().await?;
            let mut sink = [0u8; 1024];
            while stream.read(&mut sink).await? > 0 {}
            Ok::<(), std::io::Error>(())
        };
        let _ = tokio::time::timeout(REFUSAL_LINGER, linger).await;
        refusing.fetch_sub(1, Relaxed);
    });
}
