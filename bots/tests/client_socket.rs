//! Two bot clients play a whole game against each other on a real server over real
//! WebSockets: quick play pairs them, they follow the events, and the game ends with a
//! result and no refused move.

use std::time::Duration;

use qipai_bots::client::{self, ClientConfig, Entry};
use qipai_bots::random::RandomXiangqi;
use qipai_bots::{Strength, Verdict, XiangqiBot, XiangqiTable};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::RoomOptions;
use qipai_server::shutdown;
use qipai_server::Config;

/// 4.1.1: Red mates in two from here (the rook on b6 shuts rank 8, the other mates on
/// rank 9); Black has only a pawn to move.
const SHORT_GAME: &str = "3k5/9/9/1R7/9/9/9/8p/4A4/R3K4 w - - 0 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_play_a_game_over_sockets() {
    let mut config = Config::defaults().expect("default config");
    config.server.addr = "127.0.0.1:0".parse().expect("addr");
    // No store: a test server keeps nothing, and never reopens an earlier run's rooms.
    config.store.url = String::new();
    let listener = qipai_server::bind(&config).await.expect("bind");
    let url = format!("ws://{}/ws", listener.local_addr().expect("addr"));
    let (trigger, signal) = shutdown::channel();
    tokio::spawn(qipai_server::run(listener, config, signal));

    let client_config = |name: &str| ClientConfig {
        url: url.clone(),
        name: name.into(),
        options: RoomOptions::Xiangqi(XiangqiOptions {
            time_control: Some("1+1".into()),
            start_fen: Some(SHORT_GAME.into()),
            ..XiangqiOptions::default()
        }),
        entry: Entry::QuickPlay,
        games: 1,
        idle_timeout: Duration::from_secs(5),
        regroup_after: Duration::from_secs(2),
        source: None,
    };
    let first = client_config("Searcher");
    let red = tokio::spawn(async move {
        let bot = XiangqiBot::with_table(Strength::nodes(3_000), 1);
        client::play::<XiangqiTable, _>(&first, bot, |_| {}).await
    });
    // Let the first bot open the table, so quick play seats the second one there.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let second = client_config("Random");
    let black = tokio::spawn(async move {
        client::play::<XiangqiTable, _>(&second, RandomXiangqi::new(7), |_| {}).await
    });

    let red = red
        .await
        .expect("task")
        .expect("the searcher plays to the end");
    let black = black
        .await
        .expect("task")
        .expect("the random bot plays to the end");
    trigger.fire();
    let (r, b) = (&red[0], &black[0]);
    assert_eq!(r.room_id, b.room_id);
    assert_eq!((r.seat, b.seat), (0, 1), "the first to sit plays Red");
    assert_eq!(r.ending.verdict, Verdict::Win, "{r:?}");
    assert_eq!(b.ending.verdict, Verdict::Loss, "{b:?}");
    assert!(r.ending.plies <= 3, "mate in two: {r:?}");
    assert_eq!((r.refused, b.refused), (0, 0));
    assert!(!r.acks.is_empty(), "the first move's ok is timed");
}
