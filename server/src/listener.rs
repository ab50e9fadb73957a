//! The listener: accepts connections, counts each against the connection budgets, and
//! hands it to [`crate::http`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

use crate::budget::Budget;
use crate::clock::ServerClock;
use crate::config::Config;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::session::Sessions;
use crate::shutdown::Shutdown;
use crate::{http, Shared};

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
    let config = Arc::new(config);
    upkeep(Arc::downgrade(&metrics));
    let cluster = match crate::cluster::Cluster::start(&config, listener.local_addr().ok()).await {
        Ok(c) => c,
        Err(error) => {
            tracing::error!(%error, "cannot join the cluster: not serving");
            return;
        }
    };
    // Several nodes share one time line, Unix time, so that a room moved between them
    // keeps its clocks (a room's own lag behind it is its `skew_ms`).
    let base = match (&cluster, &persist) {
        (Some(_), _) => qipai_games::Millis(qipai_store::unix_ms().max(0) as u64),
        (None, Some(p)) => p.clock_base,
        (None, None) => Default::default(),
    };
    let clock = ServerClock::start_at(base);
    let budget = Arc::new(Budget::new(&config));
    let shared = Arc::new(Shared {
        lobby: Lobby::new(
            Arc::clone(&config),
            clock,
            shutdown.clone(),
            Arc::clone(&budget),
        ),
        budget,
        sessions: Arc::new(Sessions::default()),
        metrics,
        config: Arc::clone(&config),
        clock,
        shutdown: shutdown.clone(),
        competitions: crate::competition::Competitions::new(&config),
        persist,
        cluster,
    });
    if let Some(cluster) = &shared.cluster {
        shared.lobby.set_cluster(Arc::clone(cluster));
    }
    shared
        .lobby
        .set_summon(crate::seat_bots::summoner(Arc::downgrade(&shared)));
    if let Some(persist) = &shared.persist {
        if let Err(error) = shared.competitions.load(persist.store.as_ref()).await {
            tracing::error!(%error, "cannot read the competitions: not serving");
            return;
        }
        crate::competition::tables::before_recovery(&shared).await;
        if let Err(error) = crate::persist::recover(&shared, persist).await {
            tracing::error!(%error, "cannot read the store: not serving");
            return;
        }
        crate::competition::tables::resume(&shared).await;
    }
    // Several nodes: SIGTERM drains the node; drained, it stops accepting.
    let drained = std::sync::Arc::new(tokio::sync::Notify::new());
    if let Some(cluster) = &shared.cluster {
        cluster.run(&shared);
        let (cluster, shared, mut asked) =
            (Arc::clone(cluster), Arc::clone(&shared), shutdown.clone());
        let drained = Arc::clone(&drained);
        tokio::spawn(async move {
            if asked.drain_asked().await {
                crate::cluster::drain::drain(&cluster, &shared).await;
                drained.notify_one();
            }
        });
    }
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
                let shared = Arc::clone(&shared);
                tokio::spawn(accept(stream, peer, shared));
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

async fn accept(stream: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    // Game traffic is small frames that must leave at once.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, %peer, "TCP_NODELAY");
    }
    // The budgets are counted at the WebSocket upgrade (`http::upgrade`): HTTP is always
    // answered (`/healthz` never locks out).
    http::serve(stream, shared, peer.ip()).await;
}
