//! The xiangqi bot's levels against Fairy-Stockfish, through the real protocol (a benchmark,
//! not a test; `scripts/xiangqi_match.sh` installs the engine and runs it in release):
//!
//! a real server starts on 127.0.0.1 with the default configuration; for every game the
//! tool connects as a player over a WebSocket, opens a table with `bots: true` at the
//! level asked (the page's "play the bot" path), starting from one of the fixed openings
//! (`start_fen`), and relays Fairy-Stockfish's moves for its seat. Each opening is played
//! from both sides. Per (level, engine setting) point it prints W/D/L, the bot's score
//! with a 95 % interval, and the Elo difference and estimate with theirs.
//!
//! ```text
//! cargo run --release -p qipai-bots --example xiangqi_match -- \
//!     --points beginner:1350,casual:1350,club:1800,expert:2200,master:full \
//!     --games 12 --fsf-nodes 20000 --think-ms 1000 --jobs 2
//! ```
//!
//! A point is `LEVEL:ELO` (Fairy-Stockfish with `UCI_LimitStrength` at `UCI_Elo` ELO,
//! searching `--fsf-nodes` nodes a move) or `LEVEL:full` (full strength, `go movetime` the
//! bot's think time: equal time).

use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::stream::{self, StreamExt};
use qipai_bots::client::{play, ClientConfig, Entry};
use qipai_bots::xiangqi::matchup::{opening_fen, Engine, EngineStrategy, Go, Tally, OPENINGS};
use qipai_bots::{Verdict, XiangqiTable};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_server::shutdown;
use qipai_server::Config;

#[derive(Parser, Debug)]
struct Args {
    /// Comma-separated `LEVEL:ELO` or `LEVEL:full` points.
    #[arg(long, default_value = "beginner:1350")]
    points: String,
    /// Games per point (rounded up to an even number: each opening from both sides).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Nodes per move for the Elo-limited engine.
    #[arg(long, default_value_t = 20_000)]
    fsf_nodes: u64,
    /// The bots' think time per move (`bot_think_ms`: the levels' upper bound, the
    /// master's budget) and the full-strength engine's `movetime`.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The engine.
    #[arg(long, default_value = "fairy-stockfish")]
    fsf: String,
    /// The table's time control (long enough that only the think times matter).
    #[arg(long, default_value = "60+10")]
    time_control: String,
}

/// One point of the calibration: a level and an engine setting.
#[derive(Clone, Debug)]
struct Point {
    level: String,
    /// `None`: full strength at equal time.
    elo: Option<u32>,
}

fn points(text: &str) -> anyhow::Result<Vec<Point>> {
    text.split(',')
        .map(|p| {
            let (level, elo) = p
                .split_once(':')
                .ok_or_else(|| anyhow::anyhow!("a point is LEVEL:ELO or LEVEL:full: {p}"))?;
            let elo = match elo {
                "full" => None,
                n => Some(n.parse()?),
            };
            Ok(Point {
                level: level.to_string(),
                elo,
            })
        })
        .collect()
}

/// Plays one game: the tool at `seat` with the engine, the server's bot at `level` in the
/// other. The verdict is the bot's.
async fn game(
    args: &Args,
    url: &str,
    point: &Point,
    opening: usize,
    seat: u8,
) -> anyhow::Result<(Verdict, String, usize)> {
    let (_, line) = OPENINGS
        .get(opening)
        .ok_or_else(|| anyhow::anyhow!("no opening {opening}"))?;
    let fen = opening_fen(line).ok_or_else(|| anyhow::anyhow!("opening {opening} illegal"))?;
    let options = XiangqiOptions {
        time_control: Some(args.time_control.clone()),
        bot_think_ms: Some(args.think_ms),
        bot_level: Some(point.level.clone()),
        start_fen: Some(fen.clone()),
        ..XiangqiOptions::default()
    };
    let (fsf, elo, think_ms, nodes) = (args.fsf.clone(), point.elo, args.think_ms, args.fsf_nodes);
    let strategy = tokio::task::spawn_blocking(move || -> std::io::Result<EngineStrategy> {
        Ok(EngineStrategy {
            engine: Engine::start(&fsf, elo)?,
            start_fen: fen,
            go: match elo {
                Some(_) => Go::Nodes(nodes),
                None => Go::Movetime(think_ms),
            },
        })
    })
    .await??;
    let config = ClientConfig {
        url: url.to_string(),
        name: "fairy-stockfish".into(),
        options: options.into(),
        entry: Entry::AgainstBots { seat: Some(seat) },
        games: 1,
        idle_timeout: Duration::from_secs(120),
        regroup_after: Duration::from_secs(120),
        source: None,
    };
    let reports = play::<XiangqiTable, _>(&config, strategy, |_| {}).await?;
    let ending = reports
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("no game"))?
        .ending;
    let bot = match ending.verdict {
        Verdict::Win => Verdict::Loss,
        Verdict::Loss => Verdict::Win,
        v => v,
    };
    Ok((bot, ending.reason, ending.plies))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let points = points(&args.points)?;
    let mut config = Config::defaults()?;
    config.server.addr = "127.0.0.1:0".parse()?;
    config.store.url = String::new();
    let listener = qipai_server::bind(&config).await?;
    let url = format!("ws://{}/ws", listener.local_addr()?);
    let (trigger, stop) = shutdown::channel();
    tokio::spawn(qipai_server::run(listener, config, stop));

    let pairs = args.games.div_ceil(2);
    let mut rows = Vec::new();
    for point in &points {
        let started = Instant::now();
        let schedule: Vec<(usize, u8)> = (0..pairs as usize)
            .flat_map(|i| [(i % OPENINGS.len(), 0u8), (i % OPENINGS.len(), 1u8)])
            .collect();
        let results: Vec<_> = stream::iter(schedule)
            .map(|(opening, seat)| {
                let (args, url, point) = (&args, &url, point);
                async move { (opening, seat, game(args, url, point, opening, seat).await) }
            })
            .buffer_unordered(args.jobs.max(1))
            .collect()
            .await;
        let mut tally = Tally::default();
        for (opening, seat, result) in results {
            let (verdict, reason, plies) = result?;
            match verdict {
                Verdict::Win => tally.wins += 1,
                Verdict::Draw | Verdict::NoResult => tally.draws += 1,
                Verdict::Loss => tally.losses += 1,
            }
            let bot_side = if seat == 0 { "Black" } else { "Red" };
            eprintln!(
                "{} vs {}: opening {opening}, bot {bot_side}: bot {verdict} ({reason}, {plies} plies)",
                point.level,
                point.elo.map_or("full".to_string(), |e| e.to_string()),
            );
        }
        let (lo, hi) = tally.interval();
        let (d, dlo, dhi) = tally.elo();
        let (opponent, estimate) = match point.elo {
            Some(e) => (
                format!("UCI_Elo {e}, {} nodes", args.fsf_nodes),
                format!(
                    "{:.0} ({:.0} to {:.0})",
                    f64::from(e) + d,
                    f64::from(e) + dlo,
                    f64::from(e) + dhi
                ),
            ),
            None => (format!("full, {} ms", args.think_ms), "-".to_string()),
        };
        let row = format!(
            "| {} | {opponent} | {} | {}-{}-{} | {:.0} % ({:.0}-{:.0} %) | {:+.0} ({:+.0} to {:+.0}) | {estimate} |",
            point.level,
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            100.0 * lo,
            100.0 * hi,
            d,
            dlo,
            dhi,
        );
        eprintln!("{row}  [{:.0} s]", started.elapsed().as_secs_f64());
        rows.push(row);
    }
    println!("| level | Fairy-Stockfish | games | W-D-L (bot) | score (95 % CI) | Elo difference | Elo estimate |");
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    trigger.fire();
    Ok(())
}
