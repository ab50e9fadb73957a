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
//! A point is `LEVEL:OPPONENT`, the server's bot at LEVEL against:
//! - `ELO`: Fairy-Stockfish with `UCI_LimitStrength` at `UCI_Elo` ELO, searching
//!   `--fsf-nodes` nodes a move; `ELO/NODES`: the same at NODES a move (a node-starved
//!   engine, a weaker reference below its 1,350 floor);
//! - `full`: Fairy-Stockfish at full strength, `go movetime` the bot's think time (equal
//!   time);
//! - `bot-LEVEL2`: the same bot at LEVEL2, run by the tool (a chain between levels);
//!   `bot-LEVEL2~FEATURE` with a search refinement (`aspiration`, `deep_reductions`)
//!   switched the other way from the bots' (`search::Features::PLAYED`), and
//!   `bot-LEVEL2+ttMIB` with a MIB-mebibyte table, for A/B games of one search against
//!   another at the same time (`master:bot-master~deep_reductions`: the server's master
//!   against the same master with the deeper reductions switched). The tool's bot
//!   otherwise has the server's per-bot table (`bot_memory_mib / max_bots`).
//!   `bot-LEVEL2@dDEPTH@nNODES@tT` is LEVEL2 with its depth cap, node limit or temperature
//!   replaced (`d0`, `n0`: none), a candidate level measured before it is built in
//!   (`casual:bot-beginner@d2@t300`).
//!
//! The tool exits with an error when a game ends without a result (after printing the
//! table), or at once when a point completes no game: the CI smoke relies on it.

use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::stream::{self, StreamExt};
use qipai_bots::client::{play, ClientConfig, Entry};
use qipai_bots::xiangqi::level::Level;
use qipai_bots::xiangqi::matchup::{opening_fen, Engine, EngineStrategy, Go, Tally, OPENINGS};
use qipai_bots::xiangqi::search::Features;
use qipai_bots::{Strategy, Strength, Verdict, XiangqiBot, XiangqiTable};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiOptions, XiangqiView};
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

/// Who plays the tool's seat.
#[derive(Clone, Debug)]
enum Opponent {
    /// Fairy-Stockfish at `UCI_Elo` `elo`, `nodes` a move.
    Limited { elo: u32, nodes: u64 },
    /// Fairy-Stockfish at full strength, the bot's think time a move.
    Full,
    /// The bot at `level`, with `features` and a table of `table_mib` MiB (`None`: the
    /// server's share).
    Bot {
        level: Level,
        features: Features,
        /// The refinements switched from the bots' way, and whether each is now on.
        toggled: Vec<(String, bool)>,
        table_mib: Option<usize>,
    },
}

/// One point of the calibration: a level and its opponent.
#[derive(Clone, Debug)]
struct Point {
    level: String,
    opponent: Opponent,
}

impl Point {
    fn opponent_label(&self, args: &Args) -> String {
        match &self.opponent {
            Opponent::Limited { elo, nodes } => format!("UCI_Elo {elo}, {nodes} nodes"),
            Opponent::Full => format!("full, {} ms", args.think_ms),
            Opponent::Bot {
                level,
                toggled,
                table_mib,
                ..
            } => {
                let mut label = format!("bot `{}`", level.name);
                if Level::named(level.name) != Some(*level) {
                    let limit = |v: Option<String>| v.unwrap_or_else(|| "none".into());
                    label.push_str(&format!(
                        " (depth {}, nodes {}, T {})",
                        limit(level.depth.map(|d| d.to_string())),
                        limit(level.nodes.map(|n| n.to_string())),
                        level.temperature
                    ));
                }
                for (name, on) in toggled {
                    let with = if *on { "with" } else { "without" };
                    label.push_str(&format!(" {with} {name}"));
                }
                if let Some(mib) = table_mib {
                    label.push_str(&format!(", {mib} MiB table"));
                }
                label
            }
        }
    }
}

fn opponent(text: &str, fsf_nodes: u64) -> anyhow::Result<Opponent> {
    if text == "full" {
        return Ok(Opponent::Full);
    }
    if let Some(spec) = text.strip_prefix("bot-") {
        let (spec, table_mib) = match spec.split_once("+tt") {
            Some((spec, mib)) => (spec, Some(mib.parse()?)),
            None => (spec, None),
        };
        let (spec, changes) = spec.split_once('@').unwrap_or((spec, ""));
        let mut parts = spec.split('~');
        let name = parts.next().unwrap_or_default();
        let level =
            Level::named(name).ok_or_else(|| anyhow::anyhow!("no level `{name}` in {text}"))?;
        let level = changed(level, changes)?;
        let mut features = Features::default();
        let mut toggled = Vec::new();
        for name in parts {
            let on;
            (features, on) = features
                .toggled(name)
                .ok_or_else(|| anyhow::anyhow!("no search refinement `{name}` in {text}"))?;
            toggled.push((name.to_string(), on));
        }
        return Ok(Opponent::Bot {
            level,
            features,
            toggled,
            table_mib,
        });
    }
    let (elo, nodes) = match text.split_once('/') {
        Some((elo, nodes)) => (elo.parse()?, nodes.parse()?),
        None => (text.parse()?, fsf_nodes),
    };
    Ok(Opponent::Limited { elo, nodes })
}

/// `level` with the changes `dDEPTH@nNODES@tT` (any of them, `@`-separated; 0 for depth or
/// nodes: no limit).
fn changed(mut level: Level, changes: &str) -> anyhow::Result<Level> {
    for change in changes.split('@').filter(|c| !c.is_empty()) {
        let wrong = || anyhow::anyhow!("a level change is dN, nN or tN: {change}");
        let (key, value) = change.split_at_checked(1).ok_or_else(wrong)?;
        let value: u64 = value.parse().map_err(|_| wrong())?;
        match key {
            "d" => level.depth = (value > 0).then(|| i32::try_from(value)).transpose()?,
            "n" => level.nodes = (value > 0).then_some(value),
            "t" => level.temperature = u32::try_from(value)?,
            _ => return Err(wrong()),
        }
    }
    Ok(level)
}

fn points(text: &str, fsf_nodes: u64) -> anyhow::Result<Vec<Point>> {
    text.split(',')
        .map(|p| {
            let (level, opponent_text) = p
                .split_once(':')
                .ok_or_else(|| anyhow::anyhow!("a point is LEVEL:OPPONENT: {p}"))?;
            Level::named(level).ok_or_else(|| anyhow::anyhow!("no level `{level}`"))?;
            Ok(Point {
                level: level.to_string(),
                opponent: opponent(opponent_text, fsf_nodes)?,
            })
        })
        .collect()
}

/// The tool's seat: the engine or a bot.
enum Player {
    Engine(EngineStrategy),
    Bot(Box<XiangqiBot>),
}

impl Strategy for Player {
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Action = XiangqiAction;

    fn decide(&mut self, seat: u8, view: &XiangqiView) -> Option<XiangqiAction> {
        match self {
            Player::Engine(e) => e.decide(seat, view),
            Player::Bot(b) => b.decide(seat, view),
        }
    }
}

/// Plays one game: the tool at `seat` with the engine, the server's bot at `level` in the
/// other. The verdict is the bot's.
async fn game(
    args: &Args,
    url: &str,
    table_bytes: usize,
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
    let (fsf, think_ms) = (args.fsf.clone(), args.think_ms);
    let strategy = match point.opponent.clone() {
        Opponent::Bot {
            level,
            features,
            table_mib,
            ..
        } => {
            let table_bytes = table_mib.map_or(table_bytes, |mib| mib << 20);
            let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let seed = (opening as u64) << 1 | u64::from(seat);
            let bot = XiangqiBot::with_budget(Strength::think_ms(think_ms), table_bytes, cancel)
                .at_level(level, Duration::from_millis(think_ms), seed)
                .with_features(features);
            Player::Bot(Box::new(bot))
        }
        engine => {
            let (elo, go) = match engine {
                Opponent::Limited { elo, nodes } => (Some(elo), Go::Nodes(nodes)),
                _ => (None, Go::Movetime(think_ms)),
            };
            tokio::task::spawn_blocking(move || -> std::io::Result<Player> {
                Ok(Player::Engine(EngineStrategy {
                    engine: Engine::start(&fsf, elo)?,
                    start_fen: fen,
                    go,
                }))
            })
            .await??
        }
    };
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
    let reports = play::<XiangqiTable, Player>(&config, strategy, |_| {}).await?;
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
    let points = points(&args.points, args.fsf_nodes)?;
    let mut config = Config::defaults()?;
    config.server.addr = "127.0.0.1:0".parse()?;
    config.store.url = String::new();
    // The server's share of the bots' memory for one table (as `budget` sizes it).
    let table_bytes = (config.limits.bot_memory_mib << 20) / config.limits.max_bots.max(1);
    let listener = qipai_server::bind(&config).await?;
    let url = format!("ws://{}/ws", listener.local_addr()?);
    let (trigger, stop) = shutdown::channel();
    tokio::spawn(qipai_server::run(listener, config, stop));

    let pairs = args.games.div_ceil(2);
    let mut rows = Vec::new();
    let mut failures = 0;
    for point in &points {
        let started = Instant::now();
        let schedule: Vec<(usize, u8)> = (0..pairs as usize)
            .flat_map(|i| [(i % OPENINGS.len(), 0u8), (i % OPENINGS.len(), 1u8)])
            .collect();
        let label = point.opponent_label(&args);
        let results: Vec<_> = stream::iter(schedule)
            .map(|(opening, seat)| {
                let (args, url, point, label) = (&args, &url, point, &label);
                async move {
                    let result = game(args, url, table_bytes, point, opening, seat).await;
                    let bot_side = if seat == 0 { "Black" } else { "Red" };
                    match &result {
                        Ok((verdict, reason, plies)) => eprintln!(
                            "{} vs {label}: opening {opening}, bot {bot_side}: bot {verdict} ({reason}, {plies} plies)",
                            point.level
                        ),
                        Err(e) => eprintln!(
                            "{} vs {label}: opening {opening}, bot {bot_side}: no result: {e}",
                            point.level
                        ),
                    }
                    result
                }
            })
            .buffer_unordered(args.jobs.max(1))
            .collect()
            .await;
        let mut tally = Tally::default();
        let mut failed = 0;
        for result in results {
            match result {
                Ok((Verdict::Win, ..)) => tally.wins += 1,
                Ok((Verdict::Draw | Verdict::NoResult, ..)) => tally.draws += 1,
                Ok((Verdict::Loss, ..)) => tally.losses += 1,
                Err(_) => failed += 1,
            }
        }
        if tally.games() == 0 {
            anyhow::bail!("{} vs {label}: no game completed", point.level);
        }
        let (lo, hi) = tally.interval();
        let (d, dlo, dhi) = tally.elo();
        let estimate = match point.opponent {
            Opponent::Limited { elo, .. } => format!(
                "{:.0} ({:.0} to {:.0})",
                f64::from(elo) + d,
                f64::from(elo) + dlo,
                f64::from(elo) + dhi
            ),
            _ => "-".to_string(),
        };
        let row = format!(
            "| {} | {label} | {} | {}-{}-{} | {:.0} % ({:.0}-{:.0} %) | {:+.0} ({:+.0} to {:+.0}) | {estimate} |",
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
        eprintln!(
            "{row}  [{:.0} s, {failed} games without a result]",
            started.elapsed().as_secs_f64()
        );
        failures += failed;
        rows.push(row);
    }
    println!("| level | opponent | games | W-D-L (bot) | score (95 % CI) | Elo difference | Elo estimate |");
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    trigger.fire();
    if failures > 0 {
        anyhow::bail!("{failures} games ended without a result");
    }
    Ok(())
}
