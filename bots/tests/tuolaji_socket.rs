//! Four bot clients (a `TuolajiBot` and three `HintStrategy`s) play a short Tuolaji game on a real server over real WebSockets: quick
//! play seats them at one table, they follow the events, and the game ends with a result
//! and no refused action. The round has a one-minute limit called at once, so its first
//! hand is its last (五(一)3).

use std::time::Duration;

use qipai_bots::client::{self, ClientConfig, Entry, GameReport};
use qipai_bots::{HintStrategy, TuolajiBot, TuolajiTable, Verdict};
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::RoomOptions;
use qipai_server::shutdown;
use qipai_server::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_bots_play_a_hand_over_sockets() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter("qipai_bots=debug,tuolaji_socket=debug")
        .try_init();
    let _ = tracing_subscriber::fmt()
        .with_env_filter("qipai_bots=warn")
        .try_init();
    let mut config = Config::defaults().expect("default config");
    config.server.addr = "127.0.0.1:0".parse().expect("addr");
    // No store: a test server keeps nothing, and never reopens an earlier run's rooms.
    config.store.url = String::new();
    config.server.rate_per_sec = 10_000;
    config.server.rate_burst = 10_000;
    config.server.outbound_queue = 1 << 16;
    let listener = qipai_server::bind(&config).await.expect("bind");
    let url = format!("ws://{}/ws", listener.local_addr().expect("addr"));
    let (trigger, signal) = shutdown::channel();
    tokio::spawn(qipai_server::run(listener, config, signal));

    let options = RoomOptions::Tuolaji(TuolajiOptions {
        deal_interval_ms: Some(0),
        bid_window_ms: Some(300),
        bottom_ms: Some(10_000),
        turn_ms: Some(10_000),
        between_hands_ms: Some(0),
        trick_pause_ms: Some(0),
        round_minutes: Some(1),
        last_call_minutes: Some(1),
        ..TuolajiOptions::default()
    });
    let mut tasks = Vec::new();
    for i in 0..4u32 {
        let config = ClientConfig {
            url: url.clone(),
            name: format!("bot-{i}"),
            options: options.clone(),
            entry: Entry::QuickPlay,
            games: 1,
            idle_timeout: Duration::from_secs(20),
            regroup_after: Duration::from_secs(10),
            source: None,
        };
        // The first to sit plays the bot, the others the hint. (Two bidding bots may bid at
        // the same moment, and the later bid is then refused as too weak: 第十条2 takes
        // bids in the order they arrive, so such a race is no fault.)
        tasks.push(tokio::spawn(async move {
            if i == 0 {
                client::play::<TuolajiTable, _>(&config, TuolajiBot::new(), |_| {}).await
            } else {
                client::play::<TuolajiTable, _>(&config, HintStrategy, |_| {}).await
            }
        }));
        // Let the first bot open the table, so quick play seats the others there.
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut reports: Vec<GameReport> = Vec::new();
    for task in tasks {
        let mut r = task.await.expect("task").expect("the bot plays to the end");
        reports.append(&mut r);
    }
    trigger.fire();
    assert_eq!(reports.len(), 4);
    let room = reports[0].room_id;
    let mut seats: Vec<u8> = reports.iter().map(|r| r.seat).collect();
    seats.sort_unstable();
    assert_eq!(seats, [0, 1, 2, 3], "{reports:?}");
    for r in &reports {
        assert_eq!(r.room_id, room, "one table: {reports:?}");
        assert_eq!(r.refused, 0, "{r:?}");
        assert_eq!(r.ending.reason, "round_time", "{r:?}");
        assert_eq!(r.ending.plies, 1, "one hand: {r:?}");
        assert!(!r.acks.is_empty(), "every seat acted: {r:?}");
    }
    // Partners share the verdict; the teams' verdicts are opposite or both a draw.
    let verdict = |seat: u8| {
        reports
            .iter()
            .find(|r| r.seat == seat)
            .map(|r| r.ending.verdict)
    };
    assert_eq!(verdict(0), verdict(2));
    assert_eq!(verdict(1), verdict(3));
    match verdict(0) {
        Some(Verdict::Win) => assert_eq!(verdict(1), Some(Verdict::Loss)),
        Some(Verdict::Loss) => assert_eq!(verdict(1), Some(Verdict::Win)),
        other => assert_eq!(other, verdict(1)),
    }
}
