//! `qipai-server`: reads the configuration, serves until SIGINT or SIGTERM. With
//! `[cluster]` on, SIGTERM drains the node first (docs/architecture.md, "Several nodes"): it
//! hands its rooms over to the other nodes, then stops; SIGINT (or a second SIGTERM) stops
//! at once.

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use qipai_protocol::GameKind;
use qipai_server::{shutdown, Config};

// The description names every game of the protocol's registry, so a new game is named too.
#[derive(Parser)]
#[command(version, about = about())]
struct Args {
    /// A configuration file (the compiled-in `config/default.toml` when absent). Every key
    /// can also be set with QIPAI_<SECTION>__<KEY>.
    #[arg(long)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Copies the SQLite store, online, into FILE (which must not exist), and exits.
    Backup { file: PathBuf },
    /// Reads a password on standard input and prints its Argon2 hash for `[director]
    /// password_hash` (QIPAI_DIRECTOR__PASSWORD_HASH), and exits. Also `--hash-password`,
    /// as `config/default.toml` names it.
    #[command(long_flag = "hash-password")]
    HashPassword,
}

/// "qipai's game server over WebSockets: xiangqi, tuolaji and draughts."
fn about() -> String {
    let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
    let list = match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("qipai's game server over WebSockets: {list}.")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let args = Args::parse();
    if let Some(Cmd::HashPassword) = &args.command {
        let mut password = String::new();
        std::io::stdin()
            .read_line(&mut password)
            .context("reading the password")?;
        let hash =
            qipai_server::competition::auth::hash_password(password.trim_end_matches(['\r', '\n']))
                .map_err(anyhow::Error::msg)?;
        println!("{hash}");
        return Ok(());
    }
    let config = Config::load(args.config.as_deref()).context("loading the configuration")?;
    if let Some(Cmd::Backup { file }) = &args.command {
        qipai_server::persist::backup(&config, file)
            .await
            .with_context(|| format!("backing up the store into {}", file.display()))?;
        tracing::info!(file = %file.display(), "backup written");
        return Ok(());
    }
    let listener = qipai_server::bind(&config)
        .await
        .with_context(|| format!("binding {}", config.server.addr))?;
    let drains = config.cluster.enabled;
    let (trigger, shutdown) = shutdown::channel();
    let mut server = tokio::spawn(qipai_server::run(listener, config, shutdown));
    let stop = tokio::select! {
        stop = signal() => stop,
        _ = &mut server => anyhow::bail!("the server stopped (see the log above)"),
    };
    let mut stopped = false;
    if stop == Stop::Term && drains {
        tracing::info!("SIGTERM: draining (SIGINT or SIGTERM again: stop at once)");
        trigger.drain();
        tokio::select! {
            done = &mut server => {
                done.context("the server task failed")?;
                stopped = true;
            }
            _ = signal() => {}
        }
    }
    tracing::info!("shutting down");
    trigger.fire();
    if !stopped {
        server.await.context("the server task failed")?;
    }
    // Let connections send their goodbyes.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    Ok(())
}

/// Which signal came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Int,
    Term,
}

/// Resolves on SIGINT or SIGTERM.
async fn signal() -> Stop {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => Stop::Int,
                    _ = term.recv() => Stop::Term,
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                Stop::Int
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        Stop::Int
    }
}
