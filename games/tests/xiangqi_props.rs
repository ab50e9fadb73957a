//! Properties over random legal playouts from the start position: FEN round-trips, every
//! legal move is accepted, any other move is refused with nothing changed, make/unmake
//! restores, and Chinese notation tells every legal move apart.

use std::collections::HashSet;

use proptest::prelude::*;
use qipai_games::xiangqi::notation::chinese;
use qipai_games::xiangqi::{EndReason, EndRules, History, Move, Position, Square, XiangqiError};

/// The positions of a playout choosing `choices[i] % len` among the legal moves.
fn playout(choices: &[u16]) -> Vec<Position> {
    let mut position = Position::start();
    let mut seen = vec![position.clone()];
    for &choice in choices {
        let moves = position.legal_moves();
        let Some(&mv) = moves.get(usize::from(choice) % moves.len().max(1)) else {
            break;
        };
        position.play(mv).unwrap();
        seen.push(position.clone());
    }
    seen
}

fn square() -> impl Strategy<Value = Square> {
    (0u8..90).prop_map(|i| Square::from_index(i).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every position reached reads back from its own FEN.
    #[test]
    fn fen_round_trips_along_playouts(choices in prop::collection::vec(any::<u16>(), 0..80)) {
        for position in playout(&choices) {
            let fen = position.to_fen();
            prop_assert_eq!(Position::from_fen(&fen).unwrap(), position);
        }
    }

    /// `play` accepts every generated move; make/unmake gives back the same position; the
    /// Chinese notations of the legal moves are all different.
    #[test]
    fn legal_moves_are_accepted(choices in prop::collection::vec(any::<u16>(), 0..60)) {
        for mut position in playout(&choices) {
            let before = position.clone();
            let mut names = HashSet::new();
            for mv in position.legal_moves() {
                prop_assert!(before.clone().play(mv).is_ok(), "{} refused in {}", mv, before);
                let undo = position.make(mv);
                position.unmake(mv, undo);
                prop_assert_eq!(&position, &before);
                let name = chinese(&before, mv);
                prop_assert!(names.insert(name.clone()), "{} named twice in {}", name, before);
            }
        }
    }

    /// Any move is accepted exactly when it is generated, and a refused move changes
    /// neither the position nor the game's history.
    #[test]
    fn refused_moves_change_nothing(
        choices in prop::collection::vec(any::<u16>(), 0..40),
        tries in prop::collection::vec((square(), square()), 1..40),
    ) {
        let positions = playout(&choices);
        let position = positions.last().unwrap().clone();
        let legal = position.legal_moves();
        let mut history = History::new(position.clone(), EndRules::default());
        for (from, to) in tries {
            let mv = Move::new(from, to);
            let mut copy = position.clone();
            let result = copy.play(mv);
            prop_assert_eq!(result.is_ok(), legal.contains(&mv), "{} in {}", mv, position);
            if result.is_err() {
                prop_assert_eq!(&copy, &position);
                prop_assert!(history.play(mv).is_err());
                prop_assert_eq!(history.position(), &position);
                prop_assert!(history.moves().is_empty());
            }
        }
    }

    /// Random games through `History`: every outcome matches the final position (mate is
    /// check with no move, 困毙 no check and no move, a dead position has no attacker, the
    /// natural limit has counted its plies), and a finished game takes no move.
    #[test]
    fn history_outcomes_match_the_board(
        choices in prop::collection::vec(any::<u16>(), 0..300),
        limit in 1u32..20,
        counts_checks in any::<bool>(),
    ) {
        let rules = EndRules { natural_limit_moves: limit, natural_limit_counts_checks: counts_checks };
        let mut game = History::new(Position::start(), rules);
        for choice in choices {
            let moves = game.position().legal_moves();
            let Some(&mv) = moves.get(usize::from(choice) % moves.len().max(1)) else { break };
            let outcome = game.play(mv).unwrap();
            let last = game.moves().last().unwrap();
            prop_assert_eq!(last.check, game.position().in_check());
            let Some(outcome) = outcome else { continue };
            let position = game.position();
            match outcome.reason {
                EndReason::Checkmate => prop_assert!(position.in_check() && !position.has_legal_move()),
                EndReason::NoLegalMove => prop_assert!(!position.in_check() && !position.has_legal_move()),
                EndReason::DeadPosition => prop_assert!(position.is_dead()),
                EndReason::NaturalLimit => prop_assert!(game.quiet_plies() >= 2 * limit),
                EndReason::Repetition | EndReason::PerpetualCheck => {}
                other => prop_assert!(false, "{:?} is not decided on the board", other),
            }
            prop_assert_eq!(game.play(mv), Err(XiangqiError::GameOver));
            break;
        }
    }
}
