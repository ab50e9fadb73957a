//! The composition root: builds every part of the server once, chooses the topology (one
//! node or several) once, and hands each part what it needs (docs/server-layout.md). The
//! gateway serves connections with the [`App`] it builds; no lower layer sees it whole.

use std::net::SocketAddr;
use std::sync::{Arc, Weak};

use tokio::sync::Notify;

use crate::base::budget::Budget;
use crate::base::clock::ServerClock;
use crate::base::config::Config;
use crate::base::metrics::Metrics;
use crate::base::shutdown::Shutdown;
use crate::lobby::session::Sessions;
use crate::lobby::Lobby;
use crate::persist::Persist;
use crate::topology::{Node, Topology};

/// Every part of the server, as the gateway's connections share it.
pub struct App {
    pub config: Arc<Config>,
    pub clock: ServerClock,
    pub lobby: Lobby,
    pub sessions: Arc<Sessions>,
    pub metrics: Arc<Metrics>,
    pub budget: Arc<Budget>,
    pub shutdown: Shutdown,
    /// The durable store, when one is configured.
    pub persist: Option<Persist>,
    /// Competitions and their directors.
    pub competitions: crate::competition::Competitions,
    /// The one bounded pool every password check and hash goes through.
    pub hashing: crate::base::hashing::Hashing,
    /// Registered players.
    pub accounts: crate::accounts::Accounts,
    /// One node or several, chosen when the app is built: asked wherever it matters.
    pub topology: Arc<dyn Topology>,
}

/// A built server: its parts, and the signal that a drain (several nodes, SIGTERM) has
/// handed every room over, after which it stops accepting.
pub struct Built {
    pub app: Arc<App>,
    pub drained: Arc<Notify>,
}

impl App {
    /// Builds the server listening on `listening`, on `persist` when there is a store:
    /// joins the topology, reads the competitions, reopens the unfinished rooms and their
    /// sessions, and starts the topology's own work. `serve_bots` makes the function that
    /// serves a server bot's in-memory connection (the gateway's connection loop, given
    /// the app weakly so that the lobby it seats bots for does not keep the app alive).
    /// `None` when the server must not serve (the reason is logged).
    pub async fn build(
        config: Config,
        shutdown: Shutdown,
        persist: Option<Persist>,
        metrics: Arc<Metrics>,
        listening: Option<SocketAddr>,
        serve_bots: impl FnOnce(Weak<App>) -> crate::seat_bots::Serve,
    ) -> Option<Built> {
        let config = Arc::new(config);
        let first_number = persist.as_ref().map_or(1, Persist::next_number);
        let topology = match crate::topology::start(&config, listening, first_number).await {
            Ok(t) => t,
            Err(error) => {
                tracing::error!(%error, "cannot join the cluster: not serving");
                return None;
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
        let app = Arc::new(App {
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
            shutdown,
            competitions: crate::competition::Competitions::new(&config),
            hashing: crate::base::hashing::Hashing::new(&config.passwords),
            accounts: crate::accounts::Accounts::new(&config.accounts),
            persist,
            topology,
        });
        app.lobby.set_directory(Arc::clone(&app.topology) as _);
        let serve = serve_bots(Arc::downgrade(&app));
        app.lobby
            .set_summon(crate::seat_bots::summoner(Arc::clone(&app.budget), serve));
        if let Some(persist) = &app.persist {
            if let Err(error) = app.competitions.load(Arc::clone(&persist.store)).await {
                tracing::error!(%error, "cannot read the competitions: not serving");
                return None;
            }
            crate::competition::tables::before_recovery(&app).await;
            let recovered = crate::persist::recover(
                &app.lobby,
                &app.sessions,
                &app.config,
                persist,
                app.topology.recovers_stored_rooms(),
            );
            if let Err(error) = recovered.await {
                tracing::error!(%error, "cannot read the store: not serving");
                return None;
            }
            crate::competition::tables::resume(&app).await;
        }
        let drained = Arc::new(Notify::new());
        let node: Arc<dyn Node> = Arc::clone(&app) as _;
        app.topology.run(&node, Arc::clone(&drained));
        Some(Built { app, drained })
    }
}

/// What the topology works with on this node.
impl Node for App {
    fn config(&self) -> &Config {
        &self.config
    }

    fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    fn sessions(&self) -> &Sessions {
        &self.sessions
    }

    fn persist(&self) -> Option<&Persist> {
        self.persist.as_ref()
    }

    fn shutdown(&self) -> &Shutdown {
        &self.shutdown
    }

    fn connections(&self) -> i64 {
        self.metrics
            .connections
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl crate::competition::tables::Host for App {
    fn competitions(&self) -> &crate::competition::Competitions {
        &self.competitions
    }

    fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }
}
