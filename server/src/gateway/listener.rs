//! The listener: accepts connections, counts each against the descriptors' and plain HTTP's
//! budgets ([`crate::base::sockets`]), and hands it to [`crate::gateway::http`]; a connection
//! over them is answered at once and closed.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Weak};
use std::time::Duration;

use qipai_protocol::ErrorCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
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
    let metrics = Arc::new(Metrics::default());
    let persist = match crate::persist::open(&config, &metrics).await {
        Ok(p) => p,
        Err(error) => {
            tracing::error!(%error, "cannot open the store: not serving");
            return;
        }
    };
    serve(listener, config, shutdown, persist, metrics).await;
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
    upkeep(Arc::downgrade(&metrics));
    let serve_bots = |app: Weak<App>| -> crate::seat_bots::Serve {
        Arc::new(move |socket| {
            if let Some(app) = app.upgrade() {
                tokio::spawn(crate::gateway::connection::serve_in_memory(socket, app));
            }
        })
    };
    let listening = listener.local_addr().ok();
    let Some(Built { app, drained }) = App::build(
        config,
        shutdown.clone(),
        persist,
        metrics,
        listening,
        serve_bots,
    )
    .await
    else {
        return;
    };
    let router = http::router(Arc::clone(&app));
    let local = listener.local_addr().ok();
    tracing::info!(addr = ?local, "listening");
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
            Ok((stream, peer)) => {
                let proxy = app.config.server.trusted_proxies.iter();
                let trusted = proxy.clone().any(|net| net.contains(peer.ip()));
                match app.budget.sockets.admit(peer.ip(), trusted) {
                    Ok(admitted) => {
                        let app = Arc::clone(&app);
                        tokio::spawn(accept(stream, admitted, peer, router.clone(), app));
                    }
                    Err(turned) => {
                        let most = app.config.limits.descriptors_kept / 2;
                        turn_away(stream, turned, &refusing, most);
                    }
                }
            }
            Err(error) => {
                // Out of file descriptors and the like: back off instead of spinning.
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
    tracing::info!("stopped accepting");
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
