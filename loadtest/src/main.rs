//! `qipai-loadtest`: see [`qipai_loadtest::Options`] (`--help`).

use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use qipai_loadtest::attack::attack_until_stdin_closes;
use qipai_loadtest::spawn::{closed_loop_config, default_binary, SpawnedServer};
use qipai_loadtest::{run, run_attack, run_idle, Options};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error")),
        )
        .init();
    let mut opts = Options::parse();
    if let Some(kind) = opts.attack_only {
        let tally = attack_until_stdin_closes(kind, &opts.url).await;
        println!("{}", serde_json::to_string(&tally)?);
        return Ok(());
    }
    let server = if opts.spawn_server {
        let bin = opts.server_bin.clone().unwrap_or_else(default_binary);
        // A closed loop against the default rate limit measures only refusals: without a
        // file of its own, it gets the closed-loop configuration.
        if opts.server_config.is_none()
            && opts.think.is_zero()
            && opts.idle.is_none()
            && opts.attack.is_none()
        {
            opts.server_config =
                Some(closed_loop_config().context("writing the closed-loop configuration")?);
        }
        let server = SpawnedServer::start(&bin, opts.server_config.as_deref())
            .await
            .context("starting the server")?;
        opts.url.clone_from(&server.url);
        opts.server_pid = Some(server.pid);
        Some(server)
    } else {
        None
    };
    let outcome = match (opts.idle, opts.attack) {
        (None, Some(kind)) => run_attack(&opts, kind, opts.server_pid)
            .await
            .map(|r| (r.to_string(), r.json())),
        (idle, _) => match idle {
            Some(count) => run_idle(
                &opts.url,
                count,
                Duration::from_secs_f64(opts.settle),
                Duration::from_secs_f64(opts.duration),
                opts.server_pid,
            )
            .await
            .map(|r| (r.to_string(), r.json())),
            None => run(&opts, opts.server_pid)
                .await
                .map(|r| (r.to_string(), r.json())),
        },
    };
    if let Some(server) = server {
        server.stop().await;
    }
    let (human, json) = outcome.context("the load test")?;
    if !opts.json_only {
        print!("{human}");
    }
    println!("{json}");
    Ok(())
}
