//! Perft: leaf counts of the legal move tree against `data/xiangqi.perft`, whose numbers
//! come from an independent engine (Fairy-Stockfish) and published tables, not from qipai.

use qipai_games::xiangqi::Position;

/// Counts above this are run only with `--ignored` (use `--release`).
const QUICK_LIMIT: u64 = 5_000_000;

/// (FEN, depth, nodes) from the data file.
fn cases() -> Vec<(String, u32, u64)> {
    let text = include_str!("data/xiangqi.perft");
    let mut fen = String::new();
    let mut cases = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("fen ") {
            fen = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut numbers = rest.split_whitespace().map(|n| n.parse::<u64>().unwrap());
            let depth = numbers.next().unwrap() as u32;
            let nodes = numbers.next().unwrap();
            cases.push((fen.clone(), depth, nodes));
        }
    }
    cases
}

fn check(filter: impl Fn(u64) -> bool) {
    let mut checked = 0;
    for (fen, depth, nodes) in cases().into_iter().filter(|c| filter(c.2)) {
        let mut position = Position::from_fen(&fen).unwrap();
        assert_eq!(position.perft(depth), nodes, "{fen} depth {depth}");
        assert_eq!(
            position.to_fen(),
            Position::from_fen(&fen).unwrap().to_fen()
        );
        checked += 1;
    }
    assert!(checked > 0);
}

/// Every count up to five million nodes: 14 positions, checks, cannon screens, flying general.
#[test]
fn perft_quick() {
    check(|nodes| nodes <= QUICK_LIMIT);
}

/// The larger counts (up to the start position at depth 5, 133,312,995 nodes): seconds in
/// release.
#[test]
#[ignore = "slow in debug; run with --release -- --ignored"]
fn perft_deep() {
    check(|nodes| nodes > QUICK_LIMIT);
}
