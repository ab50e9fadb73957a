//! The listener: accepts connections, caps how many are open, routes each request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use crate::clock::ServerClock;
use crate::config::Config;
use crate::http::{route, Route};
use crate::lobby::Lobby;
use crate::session::Sessions;
use crate::shutdown::Shutdown;
use crate::{connection, Shared};

/// Binds the configured address (port 0 picks a free one, as tests do).
///
/// # Errors
/// The bind failure.
pub async fn bind(config: &Config) -> std::io::Result<TcpListener> {
    TcpListener::bind(config.server.addr).await
}

/// Serves `listener` until `shutdown` fires; then every connection says goodbye.
pub async fn run(listener: TcpListener, config: Config, mut shutdown: Shutdown) {
    let config = Arc::new(config);
    let persist = match crate::persist::open(&config).await {
        Ok(p) => p,
        Err(error) => {
            tracing::error!(%error, "cannot open the store: not serving");
            return;
        }
    };
    let clock = ServerClock::start_at(
        persist
            .as_ref()
            .map_or(Default::default(), |p| p.clock_base),
    );
    let shared = Arc::new(Shared {
        lobby: Lobby::new(Arc::clone(&config), clock, shutdown.clone()),
        sessions: Arc::new(Sessions::default()),
        metrics: Arc::default(),
        config: Arc::clone(&config),
        clock,
        shutdown: shutdown.clone(),
        persist,
    });
    shared
        .lobby
        .set_summon(crate::seat_bots::summoner(Arc::downgrade(&shared)));
    if let Some(persist) = &shared.persist {
        if let Err(error) = crate::persist::recover(&shared, persist).await {
            tracing::error!(%error, "cannot read the store: not serving");
            return;
        }
    }
    let limit = Arc::new(Semaphore::new(config.server.max_connections));
    let local = listener.local_addr().ok();
    tracing::info!(addr = ?local, "listening");
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&limit).acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
            () = shutdown.wait() => break,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.wait() => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                let shared = Arc::clone(&shared);
                tokio::spawn(async move {
                    accept(stream, peer, shared).await;
                    drop(permit);
                });
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

async fn accept(mut stream: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    // Game traffic is small frames that must leave at once.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, %peer, "TCP_NODELAY");
    }
    let timeout = Duration::from_millis(shared.config.server.hello_timeout_ms);
    match tokio::time::timeout(timeout, route(&mut stream, &shared)).await {
        Ok(Route::WebSocket) => connection::serve(stream, shared).await,
        Ok(Route::Done) | Err(_) => {}
    }
}
