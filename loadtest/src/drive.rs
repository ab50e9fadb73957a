//! A play run: start the tables at the ramp rate (each seat a bot client that quick-plays
//! games one after another), let them warm up, measure a window, report.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use qipai_bots::client::{play_observed, ClientConfig, ClientError, Entry, GameReport};
use qipai_bots::random::{RandomDraughts, RandomXiangqi};
use qipai_bots::{DraughtsTable, HintStrategy, TuolajiTable, XiangqiTable};
use qipai_games::catalogue;
use qipai_protocol::draughts::DraughtsOptions;
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::{GameKind, RoomOptions};
use tokio::task::JoinSet;

use crate::options::{GameMix, Options};
use crate::probe::{ClientProbe, Rooms};
use crate::procfs::{self, ProcSample};
use crate::report::{Report, ServerUsage};
use crate::server_metrics;
use crate::stats::{Counters, Stats};
use crate::LoadtestError;

/// A client that hears nothing this long gives up (and counts as an error).
const IDLE_TIMEOUT: Duration = Duration::from_secs(120);
/// A client alone at a table this long quick-plays again.
const REGROUP_AFTER: Duration = Duration::from_secs(3);

/// The game of table number `table`: `mix` takes the three games in turn (Tuolaji,
/// xiangqi, draughts).
fn game_of(mix: GameMix, table: usize) -> GameKind {
    match (mix, table % 3) {
        (GameMix::Tuolaji, _) | (GameMix::Mix, 0) => GameKind::Tuolaji,
        (GameMix::Xiangqi, _) | (GameMix::Mix, 1) => GameKind::Xiangqi,
        (GameMix::Draughts, _) | (GameMix::Mix, _) => GameKind::Draughts,
    }
}

/// A table's seats, as the catalogue of games lists them.
fn seats(game: GameKind) -> u8 {
    catalogue::listing(game).map_or(2, |l| l.seats)
}

/// Refuses any target but this machine's loopback.
///
/// # Errors
/// [`LoadtestError::NotLoopback`].
pub fn check_loopback(url: &str) -> Result<(), LoadtestError> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| LoadtestError::NotLoopback(url.to_owned()))?;
    let host = rest.split(['/', ':']).next().unwrap_or_default();
    if host == "127.0.0.1" || host == "localhost" {
        Ok(())
    } else {
        Err(LoadtestError::NotLoopback(url.to_owned()))
    }
}

/// What every seat task shares.
struct Run {
    stats: Arc<Stats>,
    rooms: Arc<Rooms>,
    /// The nodes' WebSockets (one for a single server): seat `i` connects to `i % len`.
    urls: Vec<String>,
    opts: Options,
}

/// Plays `opts.tables` tables against `opts.url` and measures them; `server_pid` is the
/// process whose RSS and CPU are read.
///
/// # Errors
/// [`LoadtestError::NotLoopback`] for a remote target; [`LoadtestError::Histogram`] never.
pub async fn run(opts: &Options, server_pid: Option<u32>) -> Result<Report, LoadtestError> {
    let urls: Vec<String> = opts
        .url
        .split(',')
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(str::to_owned)
        .collect();
    if urls.is_empty() {
        return Err(LoadtestError::NotLoopback(opts.url.clone()));
    }
    for url in &urls {
        check_loopback(url)?;
    }
    let stats = Arc::new(Stats::new()?);
    let run = Arc::new(Run {
        rooms: Arc::new(Rooms::new(Arc::clone(&stats))),
        stats: Arc::clone(&stats),
        urls,
        opts: opts.clone(),
    });
    let server_start = server_pid.and_then(|p| procfs::sample(Some(p)));
    let started = Instant::now();
    let mut progress = Progress::new(opts.quiet, server_pid);

    let mut ramp = tokio::spawn(ramp(Arc::clone(&run)));
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    let mut seats = loop {
        tokio::select! {
            done = &mut ramp => break done.unwrap_or_default(),
            _ = tick.tick() => progress.line(&stats, started, "ramp"),
        }
    };
    let connections = seats.len();
    let warm_until = tokio::time::Instant::now() + Duration::from_secs_f64(opts.warmup);
    while tokio::time::Instant::now() < warm_until {
        tokio::select! {
            () = tokio::time::sleep_until(warm_until) => {}
            _ = tick.tick() => progress.line(&stats, started, "warm-up"),
        }
    }

    stats.open_window();
    let metrics_from = server_metrics::scrape(&run.urls[0]).await;
    let (from, server_from, self_from) = (
        stats.counters(),
        server_pid.and_then(|p| procfs::sample(Some(p))),
        procfs::sample(None),
    );
    let (threads_from, machine_from) = (server_pid.map(procfs::threads), procfs::machine());
    let window_start = Instant::now();
    let until = tokio::time::Instant::now() + Duration::from_secs_f64(opts.duration);
    while tokio::time::Instant::now() < until {
        tokio::select! {
            () = tokio::time::sleep_until(until) => {}
            _ = tick.tick() => progress.line(&stats, started, "measure"),
        }
    }
    let (to, server_to, self_to) = (
        stats.counters(),
        server_pid.and_then(|p| procfs::sample(Some(p))),
        procfs::sample(None),
    );
    let (threads_to, machine_to) = (server_pid.map(procfs::threads), procfs::machine());
    let window = window_start.elapsed().as_secs_f64();
    let server_histograms = match (metrics_from, server_metrics::scrape(&run.urls[0]).await) {
        (Some(from), Some(to)) => server_metrics::window(&from, &to),
        _ => BTreeMap::new(),
    };
    let (ack_us, all_seats_us) = stats.latencies()?;
    seats.shutdown().await;

    let per_sec = |f: fn(&Counters) -> u64| (f(&to) - f(&from)) as f64 / window;
    let threads = threads_from
        .zip(threads_to)
        .map(|(a, b)| procfs::threads_used(&a, &b))
        .unwrap_or_default();
    let server = server_pid.map(|pid| {
        usage(
            pid,
            opts.tables,
            server_start.as_ref(),
            (server_from.as_ref(), server_to.as_ref()),
            threads,
        )
    });
    Ok(Report {
        game: opts.game,
        tables: opts.tables,
        connections,
        think: opts.think,
        window_secs: window,
        actions: to.actions - from.actions,
        actions_per_sec: per_sec(|c| c.actions),
        ack_us,
        all_seats_us,
        msgs_out_per_sec: per_sec(|c| c.msgs_out),
        msgs_in_per_sec: per_sec(|c| c.msgs_in),
        frames_in_per_sec: per_sec(|c| c.frames_in),
        bytes_out_per_sec: per_sec(|c| c.bytes_out),
        bytes_in_per_sec: per_sec(|c| c.bytes_in),
        conn_errors: to.conn_errors,
        protocol_errors: to.protocol_errors,
        errors: stats.errors(),
        games_completed: to.games,
        welcomed: to.welcomed,
        server,
        server_histograms,
        loadtest_cores: self_from
            .zip(self_to)
            .map_or(0.0, |(a, b)| procfs::cores(&a, &b)),
        machine_idle: machine_from
            .zip(machine_to)
            .map_or(0.0, |(a, b)| procfs::idle_share(&a, &b)),
        machine_cores: machine_to.map_or(0, |m| m.cores),
    })
}

/// The server's figures over the window `from` → `to` (memory since `start`), with its
/// threads' CPU seconds in the window.
fn usage(
    pid: u32,
    tables: usize,
    start: Option<&ProcSample>,
    (from, to): (Option<&ProcSample>, Option<&ProcSample>),
    threads_cpu_secs: BTreeMap<String, f64>,
) -> ServerUsage {
    let kib = |s: Option<&ProcSample>| s.map_or(0, |s| s.rss_bytes / 1024);
    let (rss_start_kib, rss_window_kib) = (kib(start), kib(from));
    ServerUsage {
        pid,
        rss_start_kib,
        rss_window_kib,
        rss_end_kib: kib(to),
        cpu_secs: from.zip(to).map_or(0.0, |(a, b)| b.cpu_secs - a.cpu_secs),
        cpu_cores: from.zip(to).map_or(0.0, |(a, b)| procfs::cores(a, b)),
        rss_per_table_kib: rss_window_kib.saturating_sub(rss_start_kib) as f64
            / tables.max(1) as f64,
        threads_cpu_secs,
    }
}

/// Starts every table's seats at `opts.ramp` tables per second; returns the seat tasks.
async fn ramp(run: Arc<Run>) -> JoinSet<()> {
    let mut set = JoinSet::new();
    let start = tokio::time::Instant::now();
    let rate = run.opts.ramp.max(0.001);
    let mut index = 0;
    for table in 0..run.opts.tables {
        tokio::time::sleep_until(start + Duration::from_secs_f64(table as f64 / rate)).await;
        let game = game_of(run.opts.game, table);
        for seat in 0..seats(game) {
            let run = Arc::clone(&run);
            let name = format!("lt{table}s{seat}");
            let source = table_address(table);
            set.spawn(async move { seat_task(run, game, name, source, index).await });
            index += 1;
        }
    }
    set
}

/// The loopback address table `table`'s players connect from: one per table, in
/// 127.1.0.0/16, as distinct people would come from distinct addresses, so that the server's
/// per-address budgets (PROTOCOL.md §13) meet the load as they meet people, and an attacker
/// on its own address meets them alone.
pub(crate) fn table_address(table: usize) -> IpAddr {
    let [_, _, hi, lo] = u32::try_from(table % 65_000 + 1).unwrap_or(1).to_be_bytes();
    IpAddr::from([127, 1, hi, lo])
}

/// One bot client: quick-plays games until the run stops it. Tuolaji seats play the
/// server's own hint ([`HintStrategy`]), xiangqi and draughts seats a uniformly random legal
/// move: all
/// take microseconds, so the load test measures the server, not a search.
async fn seat_task(run: Arc<Run>, game: GameKind, name: String, source: IpAddr, index: usize) {
    let stats = Arc::clone(&run.stats);
    let probe = ClientProbe::new(
        Arc::clone(&run.stats),
        Arc::clone(&run.rooms),
        seats(game),
        index,
        run.opts.think,
        run.opts.seed,
    );
    let on_game = |r: &GameReport| {
        if r.seat == 0 {
            stats.games.fetch_add(1, Ordering::Relaxed);
        }
    };
    let seed = run.opts.seed.wrapping_mul(1_000_003) ^ index as u64;
    let url = &run.urls[index % run.urls.len()];
    let outcome = match game {
        GameKind::Tuolaji => {
            let config = config(
                url,
                name,
                source,
                RoomOptions::Tuolaji(TuolajiOptions::default()),
            );
            play_observed::<TuolajiTable, _>(&config, HintStrategy, Box::new(probe), on_game).await
        }
        GameKind::Xiangqi => {
            let config = config(
                url,
                name,
                source,
                RoomOptions::Xiangqi(XiangqiOptions::default()),
            );
            play_observed::<XiangqiTable, _>(
                &config,
                RandomXiangqi::new(seed),
                Box::new(probe),
                on_game,
            )
            .await
        }
        GameKind::Draughts => {
            let config = config(
                url,
                name,
                source,
                RoomOptions::Draughts(DraughtsOptions::default()),
            );
            play_observed::<DraughtsTable, _>(
                &config,
                RandomDraughts::new(seed),
                Box::new(probe),
                on_game,
            )
            .await
        }
    };
    if let Err(error) = outcome {
        fail(&run.stats, &error);
    }
}

fn config(url: &str, name: String, source: IpAddr, options: RoomOptions) -> ClientConfig {
    ClientConfig {
        url: url.to_owned(),
        name,
        options,
        entry: Entry::QuickPlay,
        games: u32::MAX,
        idle_timeout: IDLE_TIMEOUT,
        regroup_after: REGROUP_AFTER,
        source: Some(source),
    }
}

fn fail(stats: &Stats, error: &ClientError) {
    stats.conn_errors.fetch_add(1, Ordering::Relaxed);
    let kind = match error {
        ClientError::Connect { .. } => "client: connect",
        ClientError::Socket(_) => "client: socket",
        ClientError::Closed => "client: closed",
        ClientError::Refused { .. } => "client: refused",
        ClientError::Idle(_) => "client: idle",
        ClientError::Encode(_) => "client: encode",
        ClientError::Shutdown(_) => "client: shutdown",
        ClientError::WrongGame => "client: wrong game",
        ClientError::Strategy => "client: strategy",
    };
    stats.count_error(kind);
    tracing::warn!(%error, "a client stopped");
}

/// The progress line, once a second, on stderr.
struct Progress {
    quiet: bool,
    server_pid: Option<u32>,
    last: Counters,
    last_at: Instant,
    last_server: Option<ProcSample>,
}

impl Progress {
    fn new(quiet: bool, server_pid: Option<u32>) -> Progress {
        Progress {
            quiet,
            server_pid,
            last: Counters::default(),
            last_at: Instant::now(),
            last_server: server_pid.and_then(|p| procfs::sample(Some(p))),
        }
    }

    fn line(&mut self, stats: &Stats, started: Instant, phase: &str) {
        let now = stats.counters();
        let at = Instant::now();
        let secs = at.duration_since(self.last_at).as_secs_f64().max(1e-3);
        let server = self.server_pid.and_then(|p| procfs::sample(Some(p)));
        if !self.quiet {
            let rate = |f: fn(&Counters) -> u64| (f(&now) - f(&self.last)) as f64 / secs;
            let srv = match (&self.last_server, &server) {
                (Some(a), Some(b)) => format!(
                    " server {} MiB {:.2} cores",
                    b.rss_bytes >> 20,
                    procfs::cores(a, b)
                ),
                _ => String::new(),
            };
            eprintln!(
                "[{:>5.0} s {phase}] welcomed {} | msgs/s out {:.0} in {:.0} (frames {:.0}) | actions/s {:.0} | games {} | errors conn {} proto {}{srv}",
                started.elapsed().as_secs_f64(),
                now.welcomed,
                rate(|c| c.msgs_out),
                rate(|c| c.msgs_in),
                rate(|c| c.frames_in),
                rate(|c| c.actions),
                now.games,
                now.conn_errors,
                now.protocol_errors,
            );
        }
        self.last = now;
        self.last_at = at;
        self.last_server = server;
    }
}
