//! The xiangqi record other software reads: a few finished games' PGN, fetched from the
//! server's HTTP API, replayed by pyffish (Fairy-Stockfish) in `scripts/check_pgn.py`. The
//! games are seeded, so they are the same every run; `data/pyffish_pgn.txt` holds what pyffish
//! reached for each (plies, final board and side to move), and this test compares the
//! server's records with it — CI needs no Python. `QIPAI_PGN_DIR=DIR` also writes each
//! game's `.pgn` and `.json` there for the script (README "Data" says how to run it).

mod common;

use common::records::{record_files, server_with_store, Rng};
use common::{Client, TestServer};
use qipai_protocol::xiangqi::{Side, Status, XiangqiAction, XiangqiOptions, XiangqiView};
use qipai_protocol::View;

async fn view(client: &mut Client) -> XiangqiView {
    match client.snapshot().await.1 {
        View::Xiangqi(v) => v,
        other => panic!("not xiangqi: {other:?}"),
    }
}

/// The client of the side to move.
fn to_move<'a>(side: Side, red: &'a mut Client, black: &'a mut Client) -> &'a mut Client {
    match side {
        Side::Red => red,
        Side::Black => black,
    }
}

/// Plays `plies` seeded random legal moves (or the `script`ed ones), then resigns if the game
/// is still on; returns the room.
async fn play(
    server: &TestServer,
    options: XiangqiOptions,
    seed: u64,
    plies: usize,
    script: &[&str],
) -> u64 {
    let mut red = Client::hello(server, "Red").await;
    let mut black = Client::hello(server, "Black").await;
    let room = red.create_xiangqi(options, Some(0)).await;
    black.join(room, Some(1)).await;
    let mut rng = Rng(seed);
    for ply in 0..plies.max(script.len()) {
        let v = view(&mut red).await;
        if v.status != Status::Playing {
            break;
        }
        // Only the side to move's seat gets its legal moves.
        let mover = to_move(v.side_to_move, &mut red, &mut black);
        let v = view(mover).await;
        if v.legal_moves.is_empty() {
            break;
        }
        let mv = match script.get(ply) {
            Some(m) => (*m).to_owned(),
            None => rng.pick(&v.legal_moves).to_string(),
        };
        mover.play(&mv).await;
    }
    let v = view(&mut red).await;
    if v.status == Status::Playing {
        to_move(v.side_to_move, &mut red, &mut black)
            .xq(XiangqiAction::Resign)
            .await;
    }
    room
}

#[tokio::test]
async fn finished_games_pgn_replays_in_pyffish() {
    // Red asks for a snapshot before every ply and plays as fast as the server answers:
    // more than a person's rate limit (a dropped move would never be answered).
    let server = server_with_store("pgn").await;
    let endgame = XiangqiOptions {
        // Black to move, a rook and horse against advisors: the FEN tag carries it.
        start_fen: Some("3ak4/4a4/9/9/9/9/9/4B4/3N5/3RK4 b - - 0 1".into()),
        ..XiangqiOptions::default()
    };
    let games = [
        // 4.1.1: the short mate of tests/store.rs.
        (
            "game1",
            play(
                &server,
                XiangqiOptions::default(),
                1,
                0,
                &["b2b4", "a6a5", "b4c4", "f9e8", "c4c9"],
            )
            .await,
        ),
        (
            "game2",
            play(&server, XiangqiOptions::default(), 7, 80, &[]).await,
        ),
        (
            "game3",
            play(&server, XiangqiOptions::default(), 12345, 160, &[]).await,
        ),
        ("game4", play(&server, endgame, 99, 30, &[]).await),
    ];
    let golden = include_str!("data/pyffish_pgn.txt");
    let mut wrong = Vec::new();
    for (name, room) in games {
        let (pgn, json) = record_files(&server, room, "pgn", name, "QIPAI_PGN_DIR").await;
        let record: serde_json::Value = serde_json::from_str(&json).expect("JSON record");
        let fen = record["final"]["fen"].as_str().expect("final fen");
        let board_side = fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
        let plies = pgn
            .split_whitespace()
            .filter(|t| t.len() == 5 && t.as_bytes()[2] == b'-')
            .count();
        let want = format!("{name}\t{plies}\t{board_side}");
        if !golden.lines().any(|l| l == want) {
            wrong.push(format!("{want}\n{pgn}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "records that are not what pyffish replayed (data/pyffish_pgn.txt):\n{golden}\n{}",
        wrong.join("\n")
    );
}
