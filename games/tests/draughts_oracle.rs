//! Legal moves checked against pydraughts (`data/draughts_moves.txt`, written by
//! `data/gen_draughts.py` from pydraughts' "standard" variant = international draughts).
//! Each move is compared as (from, to, captured squares): pydraughts lists a flying king's
//! capture once per route, qipai once (rules page, "Verification").
//!
//! What the file covers is asserted too: 第六条3 and 6 (kings), 第六条5–6 (captures of five
//! or more pieces), 第六条12 (a choice among several majority captures).

use std::collections::BTreeSet;

use qipai_games::draughts::{Position, Square};

const DATA: &str = include_str!("data/draughts_moves.txt");

fn ours(position: &Position) -> BTreeSet<String> {
    position
        .legal_moves()
        .iter()
        .map(|m| {
            let caps: Vec<String> = m.captured().map(|s: Square| s.to_string()).collect();
            format!("{}-{}:{}", m.from(), m.to(), caps.join(","))
        })
        .collect()
}

fn theirs(list: &str) -> BTreeSet<String> {
    list.split(';')
        .filter(|m| !m.is_empty())
        .map(|m| {
            // Sort the captured squares numerically, as `captured()` yields them.
            let (route, caps) = m.split_once(':').unwrap();
            let mut caps: Vec<u8> = caps.split(',').filter_map(|c| c.parse().ok()).collect();
            caps.sort_unstable();
            let caps: Vec<String> = caps.iter().map(u8::to_string).collect();
            format!("{route}:{}", caps.join(","))
        })
        .collect()
}

#[test]
fn legal_moves_agree_with_pydraughts() {
    let mut positions = 0;
    let mut with_kings = 0;
    let mut five_or_more = 0;
    let mut majority_choices = 0;
    for line in DATA.lines().filter(|l| !l.starts_with('#')) {
        let (fen, list) = line.split_once('\t').unwrap();
        let position = Position::from_fen(fen).unwrap();
        assert_eq!(ours(&position), theirs(list), "{fen}");
        positions += 1;
        let board = position.board();
        with_kings += usize::from(board.kings != 0);
        let moves = position.legal_moves();
        let most = moves.iter().map(|m| m.capture_count()).max().unwrap_or(0);
        five_or_more += usize::from(most >= 5);
        majority_choices += usize::from(most >= 2 && moves.len() >= 2);
    }
    assert!(positions >= 500, "{positions} positions");
    assert!(with_kings >= 100, "{with_kings} with kings");
    assert!(
        five_or_more >= 10,
        "{five_or_more} with a capture of five or more"
    );
    assert!(
        majority_choices >= 20,
        "{majority_choices} majority choices"
    );
}
