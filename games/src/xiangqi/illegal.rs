//! Why a move breaks the movement rules (第2条2.2, 2.3), in words a player understands.
//!
//! Move generation only says yes or no; when a player's move is refused, this module finds
//! the reason. It checks exactly what [`movegen::candidates`](super::movegen::candidates)
//! generates (a property test holds the two together); king safety is checked after it.

use super::board::{Board, Kind, Side, Square};
use super::error::XiangqiError;
use super::moves::Move;

/// Checks that `side` may move a piece as `mv` says, ignoring king safety.
///
/// # Errors
/// [`XiangqiError::NullMove`], [`XiangqiError::NoPiece`], [`XiangqiError::NotYourPiece`],
/// [`XiangqiError::OwnPiece`], [`XiangqiError::CannotMoveThere`],
/// [`XiangqiError::LeavesPalace`], [`XiangqiError::ElephantCrossesRiver`],
/// [`XiangqiError::ElephantEyeBlocked`], [`XiangqiError::HorseLegBlocked`],
/// [`XiangqiError::PathBlocked`], [`XiangqiError::CannonScreen`],
/// [`XiangqiError::PawnBackward`], [`XiangqiError::PawnSidewaysBeforeRiver`].
pub(crate) fn check_movement(board: &Board, side: Side, mv: Move) -> Result<(), XiangqiError> {
    let Move { from, to } = mv;
    if from == to {
        return Err(XiangqiError::NullMove { square: from });
    }
    let piece = board.get(from).ok_or(XiangqiError::NoPiece { from })?;
    if piece.side != side {
        return Err(XiangqiError::NotYourPiece { from });
    }
    let target = board.get(to);
    if target.is_some_and(|p| p.side == side) {
        return Err(XiangqiError::OwnPiece { to });
    }
    let df = i16::from(to.file()) - i16::from(from.file());
    let dr = i16::from(to.rank()) - i16::from(from.rank());
    let cannot = XiangqiError::CannotMoveThere {
        kind: piece.kind,
        from,
        to,
    };
    match piece.kind {
        // 帅（将）每一着只许走一步…不能走出“九宫”.
        Kind::King => {
            if df.abs() + dr.abs() != 1 {
                return Err(cannot);
            }
            if !to.in_palace(side) {
                return Err(XiangqiError::LeavesPalace { kind: piece.kind });
            }
        }
        // 士每一着只许沿“九宫”斜线走一步.
        Kind::Advisor => {
            if df.abs() != 1 || dr.abs() != 1 {
                return Err(cannot);
            }
            if !to.in_palace(side) {
                return Err(XiangqiError::LeavesPalace { kind: piece.kind });
            }
        }
        // 相（象）不能越过“河界”…斜走两步…塞象眼.
        Kind::Elephant => {
            if df.abs() != 2 || dr.abs() != 2 {
                return Err(cannot);
            }
            if to.on_own_half(side) != from.on_own_half(side) {
                return Err(XiangqiError::ElephantCrossesRiver);
            }
            let eye = step(from, df / 2, dr / 2);
            if board.get(eye).is_some() {
                return Err(XiangqiError::ElephantEyeBlocked { eye });
            }
        }
        // 马走日字…蹩马腿.
        Kind::Horse => {
            let leg = match (df.abs(), dr.abs()) {
                (1, 2) => step(from, 0, dr / 2),
                (2, 1) => step(from, df / 2, 0),
                _ => return Err(cannot),
            };
            if board.get(leg).is_some() {
                return Err(XiangqiError::HorseLegBlocked { leg });
            }
        }
        // 车…不限步数; 炮在不吃子的时候，走法同车一样; 炮打隔子 (2.3).
        Kind::Rook | Kind::Cannon => {
            if df != 0 && dr != 0 {
                return Err(cannot);
            }
            let between = between(board, from, to);
            let first = between.first().copied();
            match (piece.kind, target, first) {
                (Kind::Cannon, Some(_), _) if between.len() != 1 => {
                    return Err(XiangqiError::CannonScreen {
                        screens: between.len().min(usize::from(u8::MAX)) as u8,
                    });
                }
                (Kind::Cannon, Some(_), _) => {}
                (_, _, Some(at)) => return Err(XiangqiError::PathBlocked { at }),
                (_, _, None) => {}
            }
        }
        // 兵（卒）在没有过“河界”前，每着只许向前直走一步；过“河界”后…横走…不能后退.
        Kind::Pawn => {
            let forward: i16 = match side {
                Side::Red => 1,
                Side::Black => -1,
            };
            if dr * forward < 0 {
                return Err(XiangqiError::PawnBackward);
            }
            match (df.abs(), dr) {
                (0, d) if d == forward => {}
                (1, 0) if from.on_own_half(side) => {
                    return Err(XiangqiError::PawnSidewaysBeforeRiver)
                }
                (1, 0) => {}
                _ => return Err(cannot),
            }
        }
    }
    Ok(())
}

/// The point `(df, dr)` away from `from`; only called with steps that stay on the board
/// (the midpoint of a move whose ends are both on it).
fn step(from: Square, df: i16, dr: i16) -> Square {
    let file = (i16::from(from.file()) + df).clamp(0, 8) as u8;
    let rank = (i16::from(from.rank()) + dr).clamp(0, 9) as u8;
    Square::new(file, rank).unwrap_or(from)
}

/// The occupied points strictly between `from` and `to` on one line, nearest `from` first.
fn between(board: &Board, from: Square, to: Square) -> Vec<Square> {
    let df = (i16::from(to.file()) - i16::from(from.file())).signum();
    let dr = (i16::from(to.rank()) - i16::from(from.rank())).signum();
    let mut found = Vec::new();
    let mut cur = step(from, df, dr);
    while cur != to {
        if board.get(cur).is_some() {
            found.push(cur);
        }
        let next = step(cur, df, dr);
        if next == cur {
            break;
        }
        cur = next;
    }
    found
}
