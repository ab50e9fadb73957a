//! A short load test against the real server, started in this process on 127.0.0.1:0: the
//! tool keeps working (clients play whole games with no error, both latencies are measured).

use clap::Parser;
use qipai_loadtest::{run, run_idle, Options};
use qipai_server::{shutdown, Config};

async fn server() -> (String, shutdown::ShutdownTrigger) {
    let mut config = Config::defaults().unwrap();
    config.server.addr = "127.0.0.1:0".parse().unwrap();
    // No store: a test server keeps nothing, and never reopens an earlier run's rooms.
    config.store.url = String::new();
    // A closed loop at a few tables sends far more per connection than a person.
    config.server.rate_per_sec = 10_000;
    config.server.rate_burst = 10_000;
    // Every client comes from 127.0.0.1: lift the per-address budgets.
    config.limits.max_connections_per_addr = 20_000;
    config.limits.rooms_per_addr = 20_000;
    // Tuolaji without the pauses made for people: the deal at once, a short bid window.
    config.tuolaji.table.deal_interval_ms = Some(0);
    config.tuolaji.table.bid_window_ms = Some(50);
    config.tuolaji.table.between_hands_ms = Some(0);
    config.tuolaji.table.trick_pause_ms = Some(0);
    let listener = qipai_server::bind(&config).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (trigger, shutdown) = shutdown::channel();
    tokio::spawn(qipai_server::run(listener, config, shutdown));
    (format!("ws://{addr}/ws"), trigger)
}

/// A closed-loop run of `game` at `tables` tables on a fresh in-process server (measuring
/// `pid` when given): the report, printed, after checking it has no error of any kind and
/// `welcomed` connections played over 100 actions seen by the other seats.
async fn closed_loop(
    game: &str,
    tables: &str,
    warmup: &str,
    duration: &str,
    pid: Option<u32>,
    welcomed: u64,
) -> qipai_loadtest::Report {
    let (url, _server) = server().await;
    let opts = Options::parse_from([
        "qipai-loadtest",
        "--url",
        &url,
        "--game",
        game,
        "--tables",
        tables,
        "--warmup",
        warmup,
        "--duration",
        duration,
        "--quiet",
    ]);
    let report = run(&opts, pid).await.unwrap();
    println!("{report}");
    assert_eq!(report.conn_errors, 0, "{:?}", report.errors);
    assert_eq!(report.protocol_errors, 0, "{:?}", report.errors);
    assert_eq!(report.welcomed, welcomed);
    assert!(report.actions > 100, "{}", report.actions);
    assert!(report.all_seats_us.count > 100);
    report
}

/// Four xiangqi games as fast as possible for three seconds: actions acknowledged and seen
/// by the other seat, games completed, no error of any kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_closed_loop_plays_games_without_errors() {
    let report = closed_loop("xiangqi", "4", "0.2", "3", Some(std::process::id()), 8).await;
    assert!(report.ack_us.p50 <= report.ack_us.max);
    assert!(report.games_completed > 0);
    assert!(report.server.is_some_and(|s| s.rss_window_kib > 0));
}

/// Four draughts games as fast as possible for three seconds (the draughts arm): moves
/// acknowledged and seen by the other seat, games completed, no error of any kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draughts_closed_loop_plays_games_without_errors() {
    let report = closed_loop("draughts", "4", "0.2", "3", None, 8).await;
    assert!(report.ack_us.p50 <= report.ack_us.max);
    assert!(report.games_completed > 0);
}

/// `mix`: the three games in turn (Tuolaji, xiangqi, draughts) at once, no error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mix_plays_all_three_games_without_errors() {
    // 4 Tuolaji seats, 2 xiangqi, 2 draughts.
    closed_loop("mix", "3", "0.5", "2", None, 8).await;
}

/// Tuolaji tables as fast as possible for three seconds: cards played, acknowledged and
/// seen by all three other seats, no error of any kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tuolaji_closed_loop_plays_without_errors() {
    closed_loop("tuolaji", "3", "0.5", "3", None, 12).await;
}

/// Idle connections are welcomed and held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_welcomed() {
    let (url, _server) = server().await;
    let report = run_idle(
        &url,
        20,
        std::time::Duration::from_millis(100),
        std::time::Duration::from_millis(100),
        Some(std::process::id()),
    )
    .await
    .unwrap();
    assert_eq!(report.welcomed, 20);
    assert_eq!(report.conn_errors, 0);
    assert!(report.rss_after_kib > 0);
}

/// A remote target is refused.
#[tokio::test]
async fn only_loopback() {
    let opts = Options::parse_from(["qipai-loadtest", "--url", "ws://10.0.0.1:7878/ws"]);
    assert!(run(&opts, None).await.is_err());
}
