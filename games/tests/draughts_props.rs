//! Properties of draughts positions over random playouts: FEN and notation read back what
//! they wrote. (Game scripts, refusals and the fold: `draughts_fold.rs`.)

use proptest::prelude::*;
use qipai_games::draughts::Position;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every position of a playout reads back from its FEN, and every legal move from its
    /// notation.
    #[test]
    fn fen_and_notation_round_trip(choices in prop::collection::vec(any::<u16>(), 0..150)) {
        let mut position = Position::start();
        for choice in choices {
            prop_assert_eq!(Position::from_fen(&position.to_fen()).unwrap(), position);
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            for mv in &moves {
                let back = position.parse_move(&mv.to_string()).unwrap();
                prop_assert!(back.same_as(mv));
            }
            position = position.after(&moves[usize::from(choice) % moves.len()]);
        }
    }
}
