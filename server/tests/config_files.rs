//! Every configuration file README's commands use starts a real server that plays: a file
//! that stops loading (a missing or renamed key) fails here, not in a measurement.

mod common;

use std::path::Path;

use common::{Client, TestServer};
use qipai_protocol::xiangqi::XiangqiOptions;
use qipai_protocol::View;
use qipai_server::Config;

/// The files README names: what `cargo run` uses, and the closed-loop load test's.
const FILES: [&str; 2] = ["config/default.toml", "loadtest/closed-loop.toml"];

/// Each file loads through the same layers as `qipai-server --config FILE`, and the server
/// it configures answers `hello`, opens a room against a bot and sends its snapshot.
#[tokio::test]
async fn every_readme_config_file_starts_a_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for file in FILES {
        let config = Config::load(Some(&root.join(file)))
            .unwrap_or_else(|e| panic!("{file} does not load: {e}"));
        let server = TestServer::with(config, |_| {}).await;
        let mut client = Client::hello(&server, "cfg").await;
        client
            .create_xiangqi(XiangqiOptions::default(), Some(0))
            .await;
        let (_, view) = client.snapshot().await;
        assert!(matches!(view, View::Xiangqi(_)), "{file}: {view:?}");
        server.stop();
    }
}

/// The closed-loop file changes only what it names; the rest are the defaults.
#[test]
fn the_closed_loop_file_keeps_the_defaults() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let closed = Config::load(Some(&root.join("loadtest/closed-loop.toml"))).unwrap();
    let defaults = Config::defaults().unwrap();
    assert_eq!(closed.server.rate_per_sec, 100_000);
    assert_eq!(closed.tuolaji.table.between_hands_ms, Some(0));
    assert_eq!(closed.xiangqi.bot_fill_ms, defaults.xiangqi.bot_fill_ms);
    assert_eq!(closed.tuolaji.bot_fill_ms, defaults.tuolaji.bot_fill_ms);
}
