//! Golden tests of how a game ends (第4条): checkmate and 困毙 (4.1), perpetual check
//! against plain repetition (4.1.7, 4.2.3), the natural move limit (4.2.4) and dead
//! positions (4.2.1).

use qipai_games::xiangqi::{
    EndReason, EndRules, History, Move, Outcome, Position, Side, XiangqiError,
};

fn game(fen: &str, rules: EndRules) -> History {
    History::new(Position::from_fen(fen).unwrap(), rules)
}

/// Plays `moves`; every move but the last must leave the game running.
fn play(history: &mut History, moves: &[&str]) -> Option<Outcome> {
    let mut last = None;
    for (i, text) in moves.iter().enumerate() {
        assert_eq!(last, None, "the game ended before move {i} ({text})");
        last = history.play(Move::from_iccs(text).unwrap()).unwrap();
    }
    last
}

/// 4.1.1 将死: the rook on i9 checks along the back rank, the rook on a8 guards d8, and e9
/// faces Red's king.
#[test]
fn checkmate_wins() {
    let mut g = game("3k5/R8/9/9/9/9/9/9/9/4K3R w", EndRules::default());
    let outcome = play(&mut g, &["i0i9"]);
    assert_eq!(outcome, Some(Outcome::win(Side::Red, EndReason::Checkmate)));
    let last = g.moves().last().unwrap();
    assert!(last.check && !last.capture);
    assert_eq!(
        (last.iccs.as_str(), last.chinese.as_str()),
        ("i0i9", "车一进九")
    );
    assert_eq!(g.outcome(), outcome);
}

/// 4.1.3 困毙: Black is not in check but has no legal move — a loss, not a draw.
#[test]
fn no_legal_move_loses() {
    let mut g = game("3k5/9/R8/9/9/9/9/9/9/4K4 w", EndRules::default());
    let outcome = play(&mut g, &["a7a8"]);
    assert!(!g.position().in_check());
    assert_eq!(
        outcome,
        Some(Outcome::win(Side::Red, EndReason::NoLegalMove))
    );
}

/// A finished game takes no more moves, and a refused move changes nothing.
#[test]
fn game_over_and_refusals_change_nothing() {
    let mut g = game("3k5/R8/9/9/9/9/9/9/9/4K3R w", EndRules::default());
    let before = g.position().clone();
    let bad = Move::from_iccs("i0h1").unwrap();
    assert!(matches!(
        g.play(bad),
        Err(XiangqiError::CannotMoveThere { .. })
    ));
    assert_eq!(g.position(), &before);
    assert!(g.moves().is_empty());
    play(&mut g, &["i0i9"]);
    assert_eq!(
        g.play(Move::from_iccs("d9d8").unwrap()),
        Err(XiangqiError::GameOver)
    );
    assert_eq!(g.moves().len(), 1);
}

/// 4.1.7, 4.2.3 长将: Red checks with every move of the cycle, Black never does; at the
/// third occurrence Red loses.
#[test]
fn perpetual_check_loses() {
    let mut g = game("3k5/9/9/9/4R4/9/9/9/9/5K3 w", EndRules::default());
    let cycle = ["e5d5", "d9e9", "d5e5", "e9d9"];
    assert_eq!(play(&mut g, &cycle), None);
    let outcome = play(&mut g, &cycle);
    assert_eq!(
        outcome,
        Some(Outcome::win(Side::Black, EndReason::PerpetualCheck))
    );
    assert!(g.moves().iter().step_by(2).all(|m| m.check));
}

/// 4.2.3: mutual perpetual check (双方长将) is a draw. Red's rook and Black's cannon shuttle
/// between the d- and f-files; every move answers a check and gives one.
#[test]
fn mutual_perpetual_check_draws() {
    let mut g = game("5r1R1/9/3k5/3c5/c8/3R5/9/9/3C5/5K3 w", EndRules::default());
    assert!(g.position().in_check());
    let cycle = ["d4f4", "d6f6", "f4d4", "f6d6"];
    assert_eq!(play(&mut g, &cycle), None);
    assert_eq!(
        play(&mut g, &cycle),
        Some(Outcome::draw(EndReason::Repetition))
    );
    assert!(g.moves().iter().all(|m| m.check));
}

/// 4.2.3 不变作和: a repetition without checks is a draw.
#[test]
fn plain_repetition_draws() {
    let mut g = game("3k5/9/9/9/9/9/9/9/9/R4K3 w", EndRules::default());
    let cycle = ["a0a1", "d9e9", "a1a0", "e9d9"];
    assert_eq!(play(&mut g, &cycle), None);
    assert_eq!(
        play(&mut g, &cycle),
        Some(Outcome::draw(EndReason::Repetition))
    );
}

/// 4.2.3: a side that checks with only some of its moves in the cycle is not giving
/// perpetual check: a draw.
#[test]
fn intermittent_checks_draw() {
    let mut g = game("3k5/9/9/9/R8/9/9/9/9/5K3 w", EndRules::default());
    let cycle = ["a5d5", "d9e9", "d5a5", "e9d9"];
    assert_eq!(play(&mut g, &cycle), None);
    assert_eq!(
        play(&mut g, &cycle),
        Some(Outcome::draw(EndReason::Repetition))
    );
    let checks: Vec<bool> = g.moves().iter().map(|m| m.check).collect();
    assert_eq!(checks[..4], [true, false, false, false]);
}

/// 4.2.4 自然限着, checks counted: two full moves (four plies) without a capture draw.
#[test]
fn natural_limit_counting_checks() {
    let rules = EndRules {
        natural_limit_moves: 2,
        natural_limit_counts_checks: true,
    };
    let mut g = game("3k5/9/9/9/9/9/9/9/9/R4K3 w", rules);
    let outcome = play(&mut g, &["a0a1", "d9e9", "a1e1", "e9d9"]);
    assert_eq!(outcome, Some(Outcome::draw(EndReason::NaturalLimit)));
}

/// 五(二)2 将军不计: with checks not counted, the check a1e1 neither counts nor resets, so
/// the same game needs one ply more.
#[test]
fn natural_limit_not_counting_checks() {
    let rules = EndRules {
        natural_limit_moves: 2,
        natural_limit_counts_checks: false,
    };
    let mut g = game("3k5/9/9/9/9/9/9/9/9/R4K3 w", rules);
    assert_eq!(play(&mut g, &["a0a1", "d9e9", "a1e1", "e9d9"]), None);
    assert_eq!(g.quiet_plies(), 3);
    assert_eq!(
        play(&mut g, &["e1e2"]),
        Some(Outcome::draw(EndReason::NaturalLimit))
    );
}

/// 4.2.4: a capture starts the count again.
#[test]
fn capture_resets_natural_limit() {
    let rules = EndRules {
        natural_limit_moves: 2,
        natural_limit_counts_checks: true,
    };
    let mut g = game("3k5/9/9/9/9/9/p8/9/9/R4K3 w", rules);
    assert_eq!(play(&mut g, &["a0a1", "d9e9", "a1a3"]), None);
    assert_eq!(g.quiet_plies(), 0);
    assert!(g.moves().last().unwrap().capture);
}

/// 4.2.1: taking the last rook, horse, cannon or pawn leaves a dead position: a draw.
#[test]
fn dead_position_draws() {
    let mut g = game("3k5/9/9/9/9/9/9/9/4r4/3AK4 w", EndRules::default());
    let outcome = play(&mut g, &["e0e1"]);
    assert_eq!(outcome, Some(Outcome::draw(EndReason::DeadPosition)));
    let dead_from_start = game("3k5/9/9/9/9/9/9/9/9/3AK4 w", EndRules::default());
    assert_eq!(
        dead_from_start.outcome(),
        Some(Outcome::draw(EndReason::DeadPosition))
    );
}

/// The record keeps ICCS and Chinese for every move.
#[test]
fn record_keeps_both_notations() {
    let mut g = History::new(Position::start(), EndRules::default());
    play(&mut g, &["h2e2", "h9g7"]);
    let record: Vec<(&str, &str)> = g
        .moves()
        .iter()
        .map(|m| (m.iccs.as_str(), m.chinese.as_str()))
        .collect();
    assert_eq!(record, [("h2e2", "炮二平五"), ("h9g7", "马８进７")]);
    assert_eq!(g.start(), &Position::start());
}
