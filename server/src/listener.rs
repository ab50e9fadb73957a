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
    let persist = match crate::persist::open(&config).await {
        Ok(p) => p,
        Err(error) => {
            tracing::error!(%error, "cannot open the store: not serving");
            return;
        }
    };
    serve(listener, config, shutdown, persist).await;
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
    match crate::persist::with_store(&config, store, retry).await {
        Ok(p) => serve(listener, config, shutdown, Some(p)).await,
        Err(error) => tracing::error!(%error, "cannot read the store: not serving"),
    }
}

async fn serve(
    listener: TcpListener,
    config: Config,
    mut shutdown: Shutdown,
    persist: Option<crate::persist::Persist>,
) {
    let config = Arc::new(config);
    let topology = match crate::topology::start(&config, listener.local_addr().ok()).await {
        Ok(t) => t,
        Err(error) => {
            tracing::error!(%error, "cannot join the cluster: not serving");
            return;
        }
    };
    // Several nodes share one time line, Unix time, so that a room moved between them
    // keeps its clocks (a room's own lag behind it is its `skew_ms`).
    let base = match &persist {
        _ if topology.rooms_move() => qipai_games::Millis(qipai_store::unix_ms().max(0) as u64),
        Some(p) => p.clock_base,
        None => Default::default(),
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
        metrics: Arc::default(),
        config: Arc::clone(&config),
        clock,
        shutdown: shutdown.clone(),
        competitions: crate::competition::Competitions::new(&config),
        persist,
        topology,
    });
    shared
        .lobby
        .set_directory(Arc::clone(&shared.topology) as _);
    let weak = Arc::downgrade(&shared);
    let serve: crate::seat_bots::Serve = Arc::new(move |socket| {
        if let Some(shared) = weak.upgrade() {
            tokio::spawn(crate::connection::serve_in_memory(socket, shared));
        }
    });
    shared.lobby.set_summon(crate::seat_bots::summoner(
        Arc::clone(&shared.budget),
        serve,
    ));
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
    let drained = Arc::new(tokio::sync::Notify::new());
    shared.topology.run(&shared, Arc::clone(&drained));
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

async fn accept(stream: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    // Game traffic is small frames that must leave at once.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, %peer, "TCP_NODELAY");
    }
    // The budgets are counted at the WebSocket upgrade (`http::upgrade`): HTTP is always
    // answered (`/healthz` never locks out).
    http::serve(stream, shared, peer.ip()).await;
}
