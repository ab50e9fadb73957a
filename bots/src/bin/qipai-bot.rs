//! `qipai-bot`: plays games on a qipai server as ordinary WebSocket clients and prints
//! one line per finished game and a summary.
//!
//! ```text
//! qipai-bot --url ws://127.0.0.1:7878/ws --game xiangqi --games 3 --think-ms 100 --time-control 5+3
//! qipai-bot --clients 2 --games 5        # two bots in this process, playing each other
//! qipai-bot --create --seat 1            # open a table, play Black against whoever comes
//! qipai-bot --game tuolaji --clients 4   # four Tuolaji bots at one table
//! qipai-bot --entry-code ABCD-EFGH-JKLM   # a competition entrant's seat, when paired
//! ```

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::{Parser, ValueEnum};
use qipai_bots::client::{ClientConfig, Entry, GameReport};
use qipai_bots::entry_code;
use qipai_bots::games::{self, Ask};
use qipai_bots::Verdict;
use qipai_games::catalogue::{listing, CATALOGUE};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::GameKind;

/// A game by its wire name, from the one catalogue of games (`qipai_games::catalogue`).
fn game_kind(name: &str) -> Result<GameKind, String> {
    CATALOGUE
        .iter()
        .map(|l| l.game)
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            let names: Vec<String> = CATALOGUE
                .iter()
                .map(|l| format!("{} ({} seats)", l.game.name(), l.seats))
                .collect();
            format!("the games are {}", names.join(", "))
        })
}

/// How the bot chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StrategyArg {
    /// The alpha-beta search.
    Search,
    /// A uniformly random legal move (cheap: for load).
    Random,
}

/// Plays qipai games as a bot over WebSockets.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// The server's WebSocket URL.
    #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
    url: String,
    /// The game to play.
    #[arg(long, value_parser = game_kind, default_value = "xiangqi")]
    game: GameKind,
    /// Games each client plays, one after another.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// The name at the table (clients after the first get a number appended).
    #[arg(long, default_value = "qipai-bot")]
    name: String,
    /// How moves are chosen.
    #[arg(long, value_enum, default_value = "search")]
    strategy: StrategyArg,
    /// The search's transposition table per client, in MiB.
    #[arg(long, default_value_t = 8)]
    tt_mb: usize,
    /// The most thinking time per move, in milliseconds (the clock may lower it).
    #[arg(long, default_value_t = 100)]
    think_ms: u64,
    /// The table's time control (`5+3`, `sd:5`, `40/90,10/15`); the server's default if
    /// not given.
    #[arg(long)]
    time_control: Option<String>,
    /// Start from this FEN instead of the usual position.
    #[arg(long)]
    start_fen: Option<String>,
    /// Bots to run in this process at once (two pair up with each other by quick play).
    #[arg(long, default_value_t = 1)]
    clients: u32,
    /// Give up when the server sends nothing for this many seconds.
    #[arg(long, default_value_t = 120)]
    idle_secs: u64,
    /// Open a new table for each game and wait there for an opponent (instead of quick play).
    #[arg(long, conflicts_with = "join")]
    create: bool,
    /// Sit at this room for the first game (later games quick-play).
    #[arg(long)]
    join: Option<u64>,
    /// The seat to take when opening or joining a table (xiangqi: 0 Red, 1 Black).
    #[arg(long)]
    seat: Option<u8>,
    /// Quick-play again when no opponent sat down within this many seconds.
    #[arg(long, default_value_t = 3)]
    regroup_secs: u64,
    /// Sit in a competition entrant's place with their entry code: the server says the
    /// table and seat of the latest round (`POST /api/entry`, asked until the round is
    /// published) and the game is the competition's. One game, one client.
    #[arg(long, conflicts_with_all = ["create", "join", "clients"])]
    entry_code: Option<String>,
}

/// Where `--entry-code`'s holder sits (asked every second until `--idle-secs` pass), and
/// the game there.
async fn competition_seat(args: &Args, code: &str) -> anyhow::Result<(GameKind, Entry)> {
    let every = Duration::from_secs(1);
    let give_up = Duration::from_secs(args.idle_secs);
    let seat = entry_code::wait_for_seat(&args.url, code, every, give_up).await?;
    eprintln!(
        "{}: round {}, table {}, seat {} (room {})",
        args.name, seat.round, seat.table, seat.seat, seat.room_id
    );
    Ok((seat.game, seat.entry(code)))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let args = Args::parse();
    if args.clients == 0 {
        bail!("--clients must be at least 1");
    }
    let seats = listing(args.game).map_or(0, |l| l.seats);
    if let Some(seat) = args.seat.filter(|&s| s >= seats) {
        bail!(
            "--seat {seat}: {} has seats 0 to {}",
            args.game.name(),
            seats.saturating_sub(1)
        );
    }
    let competition = match &args.entry_code {
        Some(code) => Some(competition_seat(&args, code).await?),
        None => None,
    };
    let mut tasks = Vec::new();
    for i in 0..args.clients {
        if i > 0 {
            // Staggered, so quick play seats the next bot at the table the last one opened.
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let name = if i == 0 {
            args.name.clone()
        } else {
            format!("{}-{}", args.name, i + 1)
        };
        let entry = match (&competition, args.create, args.join) {
            (Some((_, entry)), _, _) => entry.clone(),
            (None, true, _) => Entry::Create { seat: args.seat },
            (None, false, Some(room_id)) => Entry::Join {
                room_id,
                seat: args.seat,
                entry_code: None,
            },
            (None, false, None) => Entry::QuickPlay,
        };
        let config = ClientConfig {
            url: args.url.clone(),
            name: name.clone(),
            // Set by `games::play` for the game.
            options: XiangqiOptions::default().into(),
            entry,
            games: if competition.is_some() { 1 } else { args.games },
            idle_timeout: Duration::from_secs(args.idle_secs),
            regroup_after: Duration::from_secs(args.regroup_secs),
            source: None,
        };
        let ask = Ask {
            search: args.strategy == StrategyArg::Search,
            think_ms: args.think_ms,
            tt_mb: args.tt_mb,
            seed: u64::from(i),
            time_control: args.time_control.clone(),
            start_fen: args.start_fen.clone(),
        };
        let game = competition.as_ref().map_or(args.game, |(g, _)| *g);
        tasks.push(tokio::spawn(async move {
            let print = |r: &GameReport| {
                let acked = r.acks.len().max(1) as f64;
                let mean_ms = r.acks.iter().map(Duration::as_secs_f64).sum::<f64>() * 1e3 / acked;
                println!(
                    "{name}: room {} seat {} {} ({}, {} plies, {} refused, mean ack {mean_ms:.1} ms)",
                    r.room_id, r.seat, r.ending.verdict, r.ending.reason, r.ending.plies, r.refused
                );
            };
            games::play(game, config, &ask, print).await
        }));
    }
    let mut tally: BTreeMap<String, u32> = BTreeMap::new();
    let mut failures = 0;
    for task in tasks {
        match task.await.context("a bot task panicked")? {
            Ok(reports) => {
                for r in reports {
                    *tally.entry(r.ending.verdict.to_string()).or_default() += 1;
                }
            }
            Err(e) => {
                eprintln!("a bot stopped: {e}");
                failures += 1;
            }
        }
    }
    let summary: Vec<String> = [
        Verdict::Win,
        Verdict::Loss,
        Verdict::Draw,
        Verdict::NoResult,
    ]
    .iter()
    .map(|v| format!("{} {}", tally.get(&v.to_string()).copied().unwrap_or(0), v))
    .collect();
    println!("summary: {}", summary.join(", "));
    if failures > 0 {
        bail!("{failures} bot(s) stopped early");
    }
    Ok(())
}
