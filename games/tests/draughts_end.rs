//! How a draughts game ends (FMJD; rules page, "End of the game").

use std::collections::HashSet;

use qipai_games::draughts::{EndReason, EndRules, Endgame, History, Outcome, Position, Side};

fn history(fen: &str, rules: EndRules) -> History {
    History::new(Position::from_fen(fen).unwrap(), rules)
}

/// Plays quiet moves that lead to unseen positions and leave the opponent nothing to
/// capture, until the game ends; returns the outcome and the plies played.
fn wander(history: &mut History) -> (Outcome, usize) {
    let mut seen = HashSet::new();
    seen.insert(*history.position());
    for ply in 1..=200 {
        let position = *history.position();
        let mv = position
            .legal_moves()
            .into_iter()
            .find(|m| {
                let next = position.after(m);
                !m.is_capture() && !next.must_capture() && !seen.contains(&next)
            })
            .expect("a quiet, safe, new move");
        seen.insert(position.after(&mv));
        if let Some(outcome) = history.play(&mv).unwrap() {
            return (outcome, ply);
        }
    }
    panic!("no end in 200 plies");
}

/// No legal move loses: taking the last piece wins.
#[test]
fn taking_the_last_piece_wins() {
    let mut h = history("W:W28:B23", EndRules::default());
    let outcome = h.play_text("28x19").unwrap();
    assert_eq!(
        outcome,
        Some(Outcome::win(Side::White, EndReason::NoLegalMove))
    );
    assert!(h.play_text("19-14").is_err());
}

/// No legal move loses: a side whose pieces are all blocked loses.
#[test]
fn a_blocked_side_loses() {
    // Black's man on 36 is blocked by 41 (and 47 behind it guards the capture).
    let h = history("B:W41,47:B36", EndRules::default());
    assert_eq!(
        h.outcome(),
        Some(Outcome::win(Side::White, EndReason::NoLegalMove))
    );
}

/// The same position with the same side to move for the third time is a draw.
#[test]
fn threefold_repetition_draws() {
    let mut h = history("W:WK47,K50:BK3,K4", EndRules::default());
    let cycle = ["47-42", "4-9", "42-47", "9-4"];
    for (i, text) in cycle.iter().chain(&cycle).enumerate() {
        let outcome = h.play_text(text).unwrap();
        if i < 7 {
            assert_eq!(outcome, None, "after {text}");
        } else {
            assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
        }
    }
}

/// Wandering from `fen` under `rules` (never capturing, never repeating) ends in a draw for
/// `reason` after exactly `plies`.
fn draws_after(fen: &str, rules: EndRules, reason: EndReason, plies: usize) {
    let mut h = history(fen, rules);
    assert_eq!(wander(&mut h), (Outcome::draw(reason), plies), "{fen}");
}

/// 25 moves by each side with only kings moving and no capture draw (50 plies).
#[test]
fn twenty_five_king_moves_draw() {
    let fen = "W:WK46,K50,K35:BK1,K5,K16";
    draws_after(fen, EndRules::default(), EndReason::KingMoves, 50);
}

/// A man move resets the king-move count.
#[test]
fn a_man_move_resets_the_king_count() {
    let mut h = history("W:WK47,40:BK3,11", EndRules::default());
    h.play_text("47-42").unwrap();
    h.play_text("3-9").unwrap();
    assert_eq!(h.king_plies(), 2);
    h.play_text("40-34").unwrap();
    assert_eq!(h.king_plies(), 0);
}

/// Three pieces with a king against a lone king: drawn after 16 moves each.
#[test]
fn sixteen_move_endgame_draws() {
    let h = history("W:WK46,K50,K45:BK3", EndRules::default());
    assert_eq!(h.endgame(), Some((Endgame::Sixteen, 0)));
    draws_after(
        "W:WK46,K50,K45:BK3",
        EndRules::default(),
        EndReason::SixteenMoves,
        32,
    );
}

/// Two kings (or fewer pieces with a king) against a lone king: drawn after 5 moves each;
/// with the endgame rules off for the table, only the 25 king moves end it.
#[test]
fn five_move_endgame_draws_unless_off() {
    draws_after(
        "W:WK46,K50:BK3",
        EndRules::default(),
        EndReason::FiveMoves,
        10,
    );
    let off = EndRules {
        endgame_rules: false,
        king_moves: 25,
    };
    draws_after("W:WK46,K50:BK3", off, EndReason::KingMoves, 50);
}

/// A lone man is not a lone king: no endgame count.
#[test]
fn lone_man_is_no_endgame() {
    let h = history("W:WK46,K50:B3", EndRules::default());
    assert_eq!(h.endgame(), None);
}

/// End reasons keep their numbers.
#[test]
fn end_reason_ids_are_stable() {
    let ids: Vec<u16> = EndReason::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(ids, [32, 41, 50, 51, 52, 31, 35, 34, 36, 25]);
    for reason in EndReason::ALL {
        assert_eq!(EndReason::from_id(reason.id()), Some(reason));
    }
}
