//! Xiangqi perft: counts the leaves of the legal move tree of a position.
//!
//! ```text
//! cargo run --release -p qipai-games --example perft -- "<FEN>" <depth> [--divide]
//! ```
//!
//! With `--divide`, one line per legal move (`h2e2 1234`) first. The last line on stdout is
//! `nodes N`; the time and nodes per second go to stderr. The FEN may be `startpos`.

use std::process::ExitCode;
use std::time::Instant;

use qipai_games::xiangqi::{Position, START_FEN};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    let (fen, depth) = match rest.as_slice() {
        [fen, depth] => (fen.as_str(), depth.parse::<u32>().ok()),
        _ => ("", None),
    };
    let Some(depth) = depth else {
        eprintln!("usage: perft \"<FEN>\"|startpos <depth> [--divide]");
        return ExitCode::FAILURE;
    };
    let fen = if fen == "startpos" { START_FEN } else { fen };
    let mut position = match Position::from_fen(fen) {
        Ok(position) => position,
        Err(error) => {
            eprintln!("bad FEN: {error}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for &mv in &position.legal_move_list() {
            let undo = position.make(mv);
            let count = position.perft(depth - 1);
            position.unmake(mv, undo);
            println!("{mv} {count}");
            total += count;
        }
        total
    } else {
        position.perft(depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} nodes in {seconds:.3} s: {:.1} million nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    println!("nodes {nodes}");
    ExitCode::SUCCESS
}
