//! International draughts perft: counts the leaves of the legal move tree (a capture reached
//! by several routes counted once).
//!
//! ```text
//! cargo run --release -p qipai-games --example draughts_perft -- [<FEN>|startpos] <depth>
//! ```
//!
//! Prints `depth D nodes N` for every depth up to the one asked, with the time and nodes
//! per second.

use std::process::ExitCode;
use std::time::Instant;

use qipai_games::draughts::Position;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fen, depth) = match args.as_slice() {
        [depth] => ("startpos", depth.parse::<u32>().ok()),
        [fen, depth] => (fen.as_str(), depth.parse::<u32>().ok()),
        _ => ("", None),
    };
    let Some(depth) = depth else {
        eprintln!("usage: draughts_perft [\"<FEN>\"|startpos] <depth>");
        return ExitCode::FAILURE;
    };
    let position = if fen == "startpos" {
        Position::start()
    } else {
        match Position::from_fen(fen) {
            Ok(position) => position,
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::FAILURE;
            }
        }
    };
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = position.perft(d);
        let secs = started.elapsed().as_secs_f64();
        println!(
            "depth {d} nodes {nodes} in {:.3} s, {:.1} M nodes/s",
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    ExitCode::SUCCESS
}
