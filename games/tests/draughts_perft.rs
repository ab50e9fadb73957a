//! Perft of international draughts from the start position (rules page, "Verification":
//! 9, 81, 658, 4 265, 27 117, 167 140, 1 049 442, 6 483 961; a capture reached by several
//! routes is counted once). Depths 1–7 here; 8 runs in the `draughts_perft` example.

use qipai_games::draughts::Position;

#[test]
fn start_position_to_depth_seven() {
    let start = Position::start();
    let expected = [9u64, 81, 658, 4_265, 27_117, 167_140, 1_049_442];
    for (depth, &nodes) in (1..).zip(expected.iter()) {
        assert_eq!(start.perft(depth), nodes, "depth {depth}");
    }
}
