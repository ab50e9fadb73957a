//! Golden cases of international draughts' capture rules (第六条), the online handling of
//! irregularities (第七条) and the touch rules (第五条 11–14), each position checked against
//! pydraughts by hand.

use qipai_games::draughts::{DraughtsError, Kind, Position, Side, Square};
use qipai_games::Coded;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn legal(fen: &str) -> Vec<String> {
    let mut moves: Vec<String> = position(fen)
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    moves
}

fn refusal(fen: &str, text: &str) -> DraughtsError {
    position(fen).parse_move(text).unwrap_err()
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// 第六条1: a man captures backwards too, and capturing is compulsory.
#[test]
fn man_captures_backwards_and_must() {
    assert_eq!(legal("W:W28:B33"), ["28x39"]);
    let error = refusal("W:W28:B33", "28-22");
    assert_eq!(error, DraughtsError::CaptureRequired { pieces: 1 });
    assert_eq!(error.code().as_str(), "capture_required");
}

/// 第六条2, 5: a man jumps an adjacent piece and goes on jumping while it can.
#[test]
fn man_multi_capture_lists_every_landing() {
    assert_eq!(legal("W:W32,34:B27,17,29"), ["32x21x12"]);
    let mv = position("W:W32,34:B27,17,29")
        .parse_move("32x21x12")
        .unwrap();
    assert_eq!(mv.captured().collect::<Vec<_>>(), [sq(17), sq(27)]);
}

/// 第六条12: the capture taking the most pieces is compulsory (7.4.8: taking too few).
#[test]
fn short_capture_is_refused_when_a_longer_exists() {
    let error = refusal("W:W32,34:B27,17,29", "34x23");
    assert_eq!(
        error,
        DraughtsError::MajorityCapture {
            taken: 1,
            required: 2
        }
    );
    assert_eq!(error.code().as_str(), "majority_capture");
}

/// 第六条5, 第七条4.9: a capture may not stop while the piece can still take more.
#[test]
fn stopping_a_capture_early_is_refused() {
    let error = refusal("W:W32,34:B27,17,29", "32x21");
    assert_eq!(error, DraughtsError::CaptureIncomplete { at: sq(21) });
    assert_eq!(error.code().as_str(), "capture_incomplete");
}

/// A man moves forward only unless it captures (第六条1 lets only a capture go backwards).
#[test]
fn man_moving_backward_is_refused() {
    assert_eq!(legal("W:W28:B1"), ["28-22", "28-23"]);
    let error = refusal("W:W28:B1", "28-33");
    assert_eq!(
        error,
        DraughtsError::ManBackward {
            from: sq(28),
            to: sq(33)
        }
    );
    assert_eq!(error.code().as_str(), "man_backward");
}

/// 第六条3, 6: a king captures at a distance, lands on any empty square behind, and may turn
/// onto another diagonal to go on.
#[test]
fn flying_king_turns_and_chooses_its_landing() {
    assert_eq!(legal("W:WK46:B37,22"), ["46x28x11", "46x28x17", "46x28x6"]);
}

/// 第六条8, 11 (Turkish strike): a captured piece stays on the board until the capture ends,
/// so it blocks the king's way back. Removing pieces at once would allow 4 captures here;
/// the rules allow only 3 (pydraughts agrees).
#[test]
fn captured_pieces_block_until_the_end() {
    assert_eq!(legal("W:WK28:B33,43,13,20,19,38,32"), ["28x14x25x48"]);
    assert_eq!(
        legal("W:WK39:B34,27,20,11,29,44,13"),
        ["39x30x2x16x38x24x15"]
    );
}

/// 第六条11: the captured pieces come off after the move, and nothing else does.
#[test]
fn captured_pieces_are_removed_at_the_end() {
    let start = position("W:WK39:B34,27,20,11,29,44,13");
    let mv = start.parse_move("39x30x2x16x38x24x15").unwrap();
    assert_eq!(mv.capture_count(), 6);
    assert_eq!(start.after(&mv).to_fen(), "B:WK15:B44");
}

/// 第六条13: among captures of the same number of pieces the player chooses freely, man or
/// king alike.
#[test]
fn equal_captures_are_a_free_choice() {
    // The man on 32 and the king on 46 can each take one piece.
    assert_eq!(legal("W:W32,K46:B27,41"), ["32x21", "46x37"]);
}

/// 第六条14: a man that passes the promotion row during a capture and leaves it stays a man.
#[test]
fn no_promotion_in_passing() {
    let start = position("W:W14:B9,8");
    assert_eq!(legal("W:W14:B9,8"), ["14x3x12"]);
    let after = start.after(&start.parse_move("14x3x12").unwrap());
    assert_eq!(after.piece(sq(12)), Some((Side::White, Kind::Man)));
}

/// A man ending its move on the far row becomes a king (rules page, "Captures" 6).
#[test]
fn promotion_at_the_end_of_a_move() {
    let start = position("W:W6:B40");
    let after = start.after(&start.parse_move("6-1").unwrap());
    assert_eq!(after.piece(sq(1)), Some((Side::White, Kind::King)));
    let black = position("B:W1:B44");
    let after = black.after(&black.parse_move("44-50").unwrap());
    assert_eq!(after.piece(sq(50)), Some((Side::Black, Kind::King)));
}

/// 第五条11–14 (touch-move, adjusting, the opponent's pieces) and 第七条4.2–4.5 cannot happen
/// online: a move names its piece and is checked whole; a square without one of the mover's
/// pieces is refused.
#[test]
fn only_own_pieces_move() {
    assert_eq!(
        refusal("W:W28:B1", "1-7"),
        DraughtsError::NoOwnPiece { square: sq(1) }
    );
    assert_eq!(
        refusal("W:W28:B1", "30-25"),
        DraughtsError::NoOwnPiece { square: sq(30) }
    );
    assert_eq!(refusal("W:W28:B1", "28-17").code().as_str(), "illegal_move");
    assert_eq!(refusal("W:W28:B1", "28x17").code().as_str(), "illegal_move");
    assert_eq!(refusal("W:W28:B1", "28 22").code().as_str(), "bad_notation");
}

/// A flying king's capture may be written by any of its routes (rules page, "Board and
/// notation"); the list shows one.
#[test]
fn any_route_of_a_king_capture_is_accepted() {
    let start = position("W:WK46:B37,22");
    let a = start.parse_move("46x28x17").unwrap();
    assert_eq!(a.to(), sq(17));
    // Landing on 32 or 23 first does not reach 22 (no turn there), so 28 is the only way.
    assert!(start.parse_move("46x32x17").is_err());
}
