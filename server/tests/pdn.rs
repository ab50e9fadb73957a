//! The draughts record other software reads: a few finished games' PDN (FMJD PDN 3.0,
//! `[GameType "20"]`, captures with every landing square), fetched from the server's HTTP
//! API, replayed by pydraughts in `scripts/check_pdn.py`. The games are seeded, so they are
//! the same every run; `data/pydraughts_pdn.txt` holds what pydraughts reached for each
//! (plies, final position) and this test compares the server's records with it — CI needs
//! no Python. `QIPAI_PDN_DIR=DIR` also writes each game's `.pdn` and `.json` there for the
//! script (README "Data" says how to run it).

mod common;

use common::records::{record_files, server_with_store, Rng};
use common::{http_get, Client, TestServer};
use qipai_protocol::draughts::{
    DraughtsAction, DraughtsEvent, DraughtsOptions, DraughtsView, Side, Status,
};
use qipai_protocol::{ClientMsg, Event, RoomOptions, ServerMsg, View};

async fn view(client: &mut Client) -> DraughtsView {
    match client.snapshot().await.1 {
        View::Draughts(v) => v,
        other => panic!("not draughts: {other:?}"),
    }
}

/// Sends a draughts action and waits for its `ok`.
async fn act(client: &mut Client, action: DraughtsAction) {
    let seq = client.seq();
    client.send(&ClientMsg::Draughts { seq, action }).await;
    let answer = client
        .until(|m| {
            matches!(m, ServerMsg::Ok { seq: s } if *s == seq)
                || matches!(m, ServerMsg::Error { seq: Some(s), .. } if *s == seq)
        })
        .await;
    assert!(matches!(answer, ServerMsg::Ok { .. }), "{answer:?}");
}

/// Plays `plies` seeded random legal moves (or the `script`ed ones) from `start_fen`, then
/// resigns if the game is still on; returns the room.
async fn play(
    server: &TestServer,
    start_fen: Option<&str>,
    seed: u64,
    plies: usize,
    script: &[&str],
) -> u64 {
    let mut white = Client::hello(server, "White").await;
    let mut black = Client::hello(server, "Black").await;
    let seq = white.seq();
    white
        .send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Draughts(DraughtsOptions {
                start_fen: start_fen.map(str::to_owned),
                ..DraughtsOptions::default()
            }),
            seat: Some(0),
            bots: false,
        })
        .await;
    let room = match white.until(|m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { room_id, .. } => room_id,
        _ => unreachable!(),
    };
    black.join(room, Some(1)).await;
    white
        .event(|e| matches!(e, Event::Draughts(DraughtsEvent::Started { .. })))
        .await;
    let mut rng = Rng(seed);
    for ply in 0..plies.max(script.len()) {
        let v = view(&mut white).await;
        if v.status != Status::Playing {
            break;
        }
        // Only the side to move's seat gets its legal moves.
        let client = match v.side_to_move {
            Side::White => &mut white,
            Side::Black => &mut black,
        };
        let v = view(client).await;
        if v.to_move.legal_moves.is_empty() {
            break;
        }
        let notation = match script.get(ply) {
            Some(m) => (*m).to_owned(),
            None => rng.pick(&v.to_move.legal_moves).clone(),
        };
        act(client, DraughtsAction::Move { notation }).await;
    }
    let v = view(&mut white).await;
    if v.status == Status::Playing {
        let client = match v.side_to_move {
            Side::White => &mut white,
            Side::Black => &mut black,
        };
        act(client, DraughtsAction::Resign).await;
    }
    room
}

/// A PDN with its `Date` tag taken out (the day the test runs).
fn without_date(pdn: &str) -> String {
    pdn.lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn finished_games_pdn_replays_in_pydraughts() {
    let server = server_with_store("pdn").await;
    let games = [
        // The short win of tests/draughts_game.rs: the side with no piece left loses.
        (
            "game1",
            play(
                &server,
                Some("W:W32:B19"),
                1,
                0,
                &["32-28", "19-23", "28x19"],
            )
            .await,
        ),
        ("game2", play(&server, None, 7, 80, &[]).await),
        ("game3", play(&server, None, 12345, 240, &[]).await),
        // Black to move first, captures at once: numbered `1... `.
        (
            "game4",
            play(&server, Some("B:W28,32,37,38:B14,19,23,24"), 99, 30, &[]).await,
        ),
    ];
    let golden = include_str!("data/pydraughts_pdn.txt");
    let mut wrong = Vec::new();
    for (name, room) in games {
        let (pdn, json) = record_files(&server, room, "pdn", name, "QIPAI_PDN_DIR").await;
        let record: serde_json::Value = serde_json::from_str(&json).expect("JSON record");
        let fen = record["final"]["fen"].as_str().expect("final fen");
        let plies = record["final"]["moves"].as_array().map_or(0, Vec::len);
        // Every event is in the record, those of the action that ended the game too (the
        // replay folds them): each move, and the result last.
        let events: Vec<&serde_json::Value> = record["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| &e["event"])
            .filter(|e| e["game"] == "draughts")
            .collect();
        let moved = events.iter().filter(|e| e["type"] == "moved").count();
        assert_eq!(moved, plies, "{name}: a moved event per move");
        assert_eq!(
            events.last().map(|e| &e["type"]),
            Some(&"over".into()),
            "{name}"
        );
        if name == "game1" {
            // The whole text, as the standard writes it (the date aside).
            assert_eq!(
                without_date(&pdn),
                format!(
                    "[Event \"qipai room {room}\"]\n[Site \"qipai\"]\n[Round \"-\"]\n[White \"White\"]\n[Black \"Black\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n[FEN \"W:W32:B19\"]\n\n1. 32-28 19-23 2. 28x19 2-0"
                )
            );
        }
        let want = format!("{name}\t{plies}\t{fen}");
        if !golden.lines().any(|l| l == want) {
            wrong.push(format!("{want}\n{pdn}"));
        }
    }
    // A xiangqi game has no PDN, a draughts game no PGN.
    let pgn = http_get(&server, &format!("/api/games/{}.pgn", games[0].1)).await;
    assert!(pgn.starts_with("HTTP/1.1 404"), "{pgn}");
    assert!(
        wrong.is_empty(),
        "records that are not what pydraughts replayed (data/pydraughts_pdn.txt):\n{golden}\n{}",
        wrong.join("\n")
    );
}
