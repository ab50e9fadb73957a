//! The listener: accepts connections, counts each against the connection budgets, and
//! hands it to [`crate::gateway::http`].

use std::net::SocketAddr;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

use crate::app::{App, Built};
use crate::base::config::Config;
use crate::base::metrics::Metrics;
use crate::base::shutdown::Shutdown;
use crate::gateway::http;

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
    loop {
        // Accepting never stops at the cap: a connection over its budget is answered and
        // closed at once, so the cap cannot keep `/healthz` or other addresses out.
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.wait() => break,
            () = drained.notified() => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                tokio::spawn(accept(stream, peer, router.clone(), Arc::clone(&app)));
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

async fn accept(stream: TcpStream, peer: SocketAddr, router: axum::Router, app: Arc<App>) {
    // Game traffic is small frames that must leave at once.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, %peer, "TCP_NODELAY");
    }
    // The budgets are counted at the WebSocket upgrade (`http::upgrade`): HTTP is always
    // answered (`/healthz` never locks out).
    http::serve(stream, router, &app, peer.ip()).await;
}
