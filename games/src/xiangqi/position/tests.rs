use super::*;

fn mv(text: &str) -> Move {
    Move::from_iccs(text).unwrap()
}

/// 第1条1.3: the start position has 44 legal moves and nobody is in check.
#[test]
fn start_position() {
    let start = Position::start();
    assert_eq!(start.to_fen(), START_FEN);
    assert_eq!(Position::from_fen(START_FEN).unwrap(), start);
    assert_eq!(start.legal_moves().len(), 44);
    assert!(!start.in_check());
    assert_eq!(start.king(Side::Red).to_string(), "e0");
    assert_eq!(start.king(Side::Black).to_string(), "e9");
}

/// make/unmake restore the position exactly, counters included.
#[test]
fn make_unmake_restores() {
    let mut pos = Position::start();
    let before = pos.clone();
    for m in pos.legal_moves() {
        let undo = pos.make(m);
        assert_ne!(pos, before);
        pos.unmake(m, undo);
        assert_eq!(pos, before);
    }
}

/// Counters: a capture resets the half-move clock, a Black move advances the move number.
#[test]
fn counters_follow_moves() {
    let mut pos = Position::start();
    pos.play(mv("h2e2")).unwrap();
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (1, 1));
    pos.play(mv("h7e7")).unwrap();
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (2, 2));
    assert_eq!(
        pos.play(mv("e2e6")).unwrap().map(|p| p.kind),
        Some(Kind::Pawn)
    );
    assert_eq!(pos.halfmoves(), 0);
}

/// Small perft from the start, against the published counts.
#[test]
fn perft_start_shallow() {
    let mut pos = Position::start();
    assert_eq!(pos.perft(1), 44);
    assert_eq!(pos.perft(2), 1_920);
}

/// Whether a position could arise is checked once, at construction.
#[test]
fn impossible_arrangements_are_refused() {
    let cases = [
        ("4k4/9/9/9/9/9/9/9/9/9 w", "FenKings"),
        ("4k4/9/9/9/9/9/9/9/9/3KK4 w", "FenKings"),
        ("4k4/9/9/9/9/9/9/9/RRR6/4K4 w", "FenTooMany"),
        ("4k4/9/9/9/9/9/9/9/9/K8 w", "FenUnreachable"),
        ("3k5/9/9/9/9/9/9/9/3A5/4K4 w", "FenUnreachable"),
        ("4k4/9/9/9/2B6/9/9/9/9/4K4 w", "FenUnreachable"),
        ("4k4/9/9/9/9/9/9/1P7/9/4K4 w", "FenUnreachable"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "FenOpponentInCheck"),
        ("4k4/9/9/9/9/9/9/9/4R4/3K5 w", "FenOpponentInCheck"),
    ];
    for (fen, expected) in cases {
        let err = Position::from_fen(fen).unwrap_err();
        assert!(format!("{err:?}").starts_with(expected), "{fen}: {err:?}");
    }
}
