//! Golden tests of the movement rules (第2条2.2, 2.3) and check (第3条): each names the
//! article it checks and reads like the rule.

use qipai_games::xiangqi::{Kind, Move, Position, Square, XiangqiError};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn mv(text: &str) -> Move {
    Move::from_iccs(text).unwrap()
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

/// The legal moves starting on `from`, as sorted ICCS strings.
fn moves_from(position: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut moves: Vec<String> = position
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to_string())
        .collect();
    moves.sort();
    moves
}

/// Plays `text` and expects it refused with `error`, the position unchanged.
fn refused(position: &Position, text: &str, error: XiangqiError) {
    let mut after = position.clone();
    assert_eq!(after.play(mv(text)), Err(error), "{text}");
    assert_eq!(&after, position);
}

/// 第2条2.2: 帅（将）每一着只许走一步…不能走出“九宫”.
#[test]
fn king_steps_once_inside_the_palace() {
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
    // c0 is outside the palace and e0 would face Black's king.
    assert_eq!(moves_from(&p, "d0"), ["d0d1"]);
    refused(&p, "d0c0", XiangqiError::LeavesPalace { kind: Kind::King });
    refused(
        &p,
        "d0d2",
        XiangqiError::CannotMoveThere {
            kind: Kind::King,
            from: sq("d0"),
            to: sq("d2"),
        },
    );
}

/// 第2条2.2: 士每一着只许沿“九宫”斜线走一步.
#[test]
fn advisor_steps_diagonally_inside_the_palace() {
    let p = pos("3k5/9/9/9/9/9/9/3A5/9/5K3 w");
    assert_eq!(moves_from(&p, "d2"), ["d2e1"]);
    refused(
        &p,
        "d2c3",
        XiangqiError::LeavesPalace {
            kind: Kind::Advisor,
        },
    );
    refused(
        &p,
        "d2d1",
        XiangqiError::CannotMoveThere {
            kind: Kind::Advisor,
            from: sq("d2"),
            to: sq("d1"),
        },
    );
}

/// 第2条2.2: 相（象）…斜走两步…不能越过“河界”…塞象眼.
#[test]
fn elephant_moves_two_diagonally_not_over_the_river_nor_through_its_eye() {
    let p = pos("3k5/9/9/9/9/2B6/3N5/9/9/5K3 w");
    assert_eq!(moves_from(&p, "c4"), ["c4a2"]);
    refused(&p, "c4e6", XiangqiError::ElephantCrossesRiver);
    refused(
        &p,
        "c4e2",
        XiangqiError::ElephantEyeBlocked { eye: sq("d3") },
    );
}

/// 第2条2.2: 马走日字…蹩马腿.
#[test]
fn horse_is_blocked_by_its_leg() {
    let p = Position::start();
    assert_eq!(moves_from(&p, "b0"), ["b0a2", "b0c2"]);
    refused(&p, "b0d1", XiangqiError::HorseLegBlocked { leg: sq("c0") });
    // The leg is the orthogonal neighbour in the long direction, not the diagonal one.
    let open = pos("3k5/9/9/9/9/9/9/9/2R6/1N3K3 w");
    assert!(moves_from(&open, "b0").contains(&"b0d1".to_string()));
}

/// 第2条2.2: 车每一着可以直进、直退、横走，不限步数 (but not through pieces).
#[test]
fn rook_slides_until_blocked() {
    let p = Position::start();
    assert_eq!(moves_from(&p, "a0"), ["a0a1", "a0a2"]);
    refused(&p, "a0a4", XiangqiError::PathBlocked { at: sq("a3") });
    refused(&p, "a0b0", XiangqiError::OwnPiece { to: sq("b0") });
}

/// 第2条2.2, 2.3: 炮在不吃子的时候，走法同车一样; 炮打隔子.
#[test]
fn cannon_captures_only_over_one_screen() {
    let p = Position::start();
    // 炮二进七 takes the horse over Black's cannon on h7.
    assert!(p.is_legal(mv("h2h9")));
    refused(&p, "h2h7", XiangqiError::CannonScreen { screens: 0 });
    let two = pos("3k5/9/9/4r4/4p4/4P4/9/4C4/9/5K3 w");
    refused(&two, "e2e6", XiangqiError::CannonScreen { screens: 2 });
    assert!(two.is_legal(mv("e2e5")), "over Red's own pawn on e4");
    refused(&p, "h2h8", XiangqiError::PathBlocked { at: sq("h7") });
}

/// 第2条2.2: 兵（卒）在没有过“河界”前…只许向前直走一步；过“河界”后…可向前直走或横走…不能后退.
#[test]
fn pawn_goes_forward_then_also_sideways_never_back() {
    let p = Position::start();
    assert_eq!(moves_from(&p, "e3"), ["e3e4"]);
    refused(&p, "e3d3", XiangqiError::PawnSidewaysBeforeRiver);
    let crossed = pos("3k5/9/9/9/4P4/9/9/9/9/5K3 w");
    assert_eq!(moves_from(&crossed, "e5"), ["e5d5", "e5e6", "e5f5"]);
    refused(&crossed, "e5e4", XiangqiError::PawnBackward);
    let black = pos("3k5/9/9/9/9/4p4/9/9/9/5K3 b");
    assert_eq!(moves_from(&black, "e4"), ["e4d4", "e4e3", "e4f4"]);
    refused(&black, "e4e5", XiangqiError::PawnBackward);
}

/// Basic refusals: nothing there, not yours, not a move.
#[test]
fn no_piece_not_yours_null_move() {
    let p = Position::start();
    refused(&p, "e4e5", XiangqiError::NoPiece { from: sq("e4") });
    refused(&p, "e6e5", XiangqiError::NotYourPiece { from: sq("e6") });
    refused(&p, "e3e3", XiangqiError::NullMove { square: sq("e3") });
}

/// 第2条2.2, 4.1.2: 将和帅不准在同一直线上直接对面 — the horse between the kings is pinned,
/// and the king may not step onto the open file.
#[test]
fn flying_general_pins_and_forbids() {
    let p = pos("4k4/9/9/9/9/4N4/9/9/9/3AK4 w");
    assert!(moves_from(&p, "e4").is_empty());
    refused(&p, "e4d6", XiangqiError::KingsFace);
    let q = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
    refused(&q, "d0e0", XiangqiError::KingsFace);
    let rook_guards_d1 = pos("4k4/9/9/9/9/9/9/9/4r4/3K5 w");
    refused(&rook_guards_d1, "d0d1", XiangqiError::LeavesKingInCheck);
}

/// 第3条3.1: a piece pinned against its king by a rook may not leave the line.
#[test]
fn pinned_rook_stays_on_the_file() {
    let p = pos("4k4/9/9/9/4r4/9/9/4R4/9/3AK4 w");
    assert_eq!(
        moves_from(&p, "e2"),
        ["e2e1", "e2e3", "e2e4", "e2e5"],
        "the rook may move along the file and take the pinning rook"
    );
    refused(&p, "e2d2", XiangqiError::LeavesKingInCheck);
}

/// 第2条2.3, 第3条3.1: the cannon checks through Red's own rook; moving that screen away
/// answers the check, unlike a rook pin.
#[test]
fn cannon_check_through_own_piece_is_answered_by_moving_it() {
    let p = pos("4k4/9/9/9/4c4/9/4R4/9/9/4K4 w");
    assert!(p.in_check());
    assert!(p.is_legal(mv("e3d3")));
    assert!(p.is_legal(mv("e3e5")), "or take the cannon");
    refused(&p, "e0e1", XiangqiError::LeavesKingInCheck);
}

/// 第3条3.1: 被“照将”的一方必须立即“应将”: only check-answering moves are legal.
#[test]
fn check_must_be_answered() {
    let p = pos("3k5/9/9/9/9/9/9/9/9/R4K1r1 w");
    assert!(p.in_check());
    let legal: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    // The rook on a0 cannot reach h0 past its own king; e0 stays on the rook's rank.
    assert_eq!(legal, ["f0f1"]);
}
