//! Move generation (第2条2.2, 2.3) and the check test (第3条).
//!
//! Candidate moves come from the per-point [`tables`](super::tables); a candidate is legal
//! when it does not leave the mover's king attacked, the two kings facing on an open file
//! counting as an attack (the flying general). The check test probes outward from the
//! king's point — rook and cannon rays, the four horse legs, the pawn points — instead of
//! generating the opponent's moves. Most candidates cannot change the king's safety at all
//! (they neither leave nor enter a line through the king, nor free a horse leg next to
//! it); those skip the test, which is what makes perft fast.

use super::board::{Side, Square, POINTS};
use super::moves::{Move, MoveList};
use super::tables::TABLES;

/// Board codes of the kinds (see `Piece::code`); add 8 for Black.
pub(crate) const KING: u8 = 1;
pub(crate) const ADVISOR: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const HORSE: u8 = 4;
pub(crate) const ROOK: u8 = 5;
pub(crate) const CANNON: u8 = 6;
pub(crate) const PAWN: u8 = 7;

/// The board's cells, as move generation sees them.
pub(crate) type Cells = [u8; POINTS];

/// The code of `kind` for `side`.
#[inline]
const fn code(kind: u8, side: Side) -> u8 {
    kind | ((side as u8) << 3)
}

/// Whether `cell` holds a piece of `side`.
#[inline]
const fn is_side(cell: u8, side: Side) -> bool {
    cell != 0 && (cell >> 3) == side as u8
}

#[inline]
fn sq(index: u8) -> Square {
    Square::from_index_unchecked(index)
}

/// Appends every candidate move of `us` (right by piece movement, king safety not yet
/// checked) to `list`.
pub(crate) fn candidates(cells: &Cells, us: Side, list: &mut MoveList) {
    let t = &TABLES;
    let mut push_if_not_own = |from: usize, to: u8| {
        if !is_side(cells[to as usize], us) {
            list.push(Move::new(sq(from as u8), sq(to)));
        }
    };
    for (from, &cell) in cells.iter().enumerate() {
        if !is_side(cell, us) {
            continue;
        }
        match cell & 7 {
            KING => {
                for &to in &t.king[from][..t.king_len[from] as usize] {
                    push_if_not_own(from, to);
                }
            }
            ADVISOR => {
                for &to in &t.advisor[from][..t.advisor_len[from] as usize] {
                    push_if_not_own(from, to);
                }
            }
            ELEPHANT => {
                for &(to, eye) in &t.elephant[from][..t.elephant_len[from] as usize] {
                    if cells[eye as usize] == 0 {
                        push_if_not_own(from, to);
                    }
                }
            }
            HORSE => {
                for &(to, leg) in &t.horse[from][..t.horse_len[from] as usize] {
                    if cells[leg as usize] == 0 {
                        push_if_not_own(from, to);
                    }
                }
            }
            ROOK => {
                for d in 0..4 {
                    for &to in &t.ray[from][d][..t.ray_len[from][d] as usize] {
                        let target = cells[to as usize];
                        if target != 0 {
                            push_if_not_own(from, to);
                            break;
                        }
                        push_if_not_own(from, to);
                    }
                }
            }
            CANNON => {
                for d in 0..4 {
                    let mut screened = false;
                    for &to in &t.ray[from][d][..t.ray_len[from][d] as usize] {
                        let target = cells[to as usize];
                        if !screened {
                            if target == 0 {
                                push_if_not_own(from, to);
                            } else {
                                screened = true;
                            }
                        } else if target != 0 {
                            push_if_not_own(from, to);
                            break;
                        }
                    }
                }
            }
            PAWN => {
                let s = us.index();
                for &to in &t.pawn[s][from][..t.pawn_len[s][from] as usize] {
                    push_if_not_own(from, to);
                }
            }
            _ => {}
        }
    }
}

/// Whether a piece of `by` attacks point `target` (or, for a king's point, whether the
/// other king faces it on an open file).
pub(crate) fn attacked(cells: &Cells, target: usize, by: Side) -> bool {
    let t = &TABLES;
    if (0..4).any(|d| ray_attacks(cells, target, d, by)) || horse_attacks(cells, target, by) {
        return true;
    }
    let pawn = code(PAWN, by);
    let s = by.index();
    t.pawn_attack[s][target][..t.pawn_attack_len[s][target] as usize]
        .iter()
        .any(|&p| cells[p as usize] == pawn)
}

/// Whether a piece of `by` attacks point `target` along ray `d` (see the tables' `ray`): a
/// rook or king first, or a cannon second.
#[inline]
fn ray_attacks(cells: &Cells, target: usize, d: usize, by: Side) -> bool {
    let t = &TABLES;
    let ray = &t.ray[target][d][..t.ray_len[target][d] as usize];
    let mut points = ray.iter().map(|&p| cells[p as usize]).filter(|&c| c != 0);
    match points.next() {
        Some(first) if first == code(ROOK, by) || first == code(KING, by) => true,
        Some(_) => points.next() == Some(code(CANNON, by)),
        None => false,
    }
}

/// Whether a horse of `by` attacks point `target`, its leg free.
#[inline]
fn horse_attacks(cells: &Cells, target: usize, by: Side) -> bool {
    let t = &TABLES;
    let horse = code(HORSE, by);
    t.horse_attack[target][..t.horse_attack_len[target] as usize]
        .iter()
        .any(|&(h, leg)| cells[h as usize] == horse && cells[leg as usize] == 0)
}

/// The ray (see the tables' `ray`) from `king` through `point`, if they share a file or a
/// rank.
#[inline]
fn ray_through(king: usize, point: usize) -> Option<usize> {
    let (kf, kr) = (king % 9, king / 9);
    let (pf, pr) = (point % 9, point / 9);
    match (pf == kf, pr == kr) {
        (true, _) if pr > kr => Some(0),
        (true, _) => Some(1),
        (_, true) if pf > kf => Some(2),
        (_, true) => Some(3),
        _ => None,
    }
}

/// The points a move (not by the king) must leave or enter to change whether the king on
/// `king` is attacked, one bit per point, as (left, entered): it leaves or enters the king's
/// file or rank (a rook ray, a cannon screen, the kings' file), or leaves a horse-leg point
/// diagonally next to the king. Any other move skips the check test.
#[inline]
fn exposing(king: usize) -> (u128, u128) {
    /// File `a`: one bit on each rank.
    const FILE_A: u128 = {
        let mut mask = 0u128;
        let mut rank = 0;
        while rank < 10 {
            mask |= 1 << (rank * 9);
            rank += 1;
        }
        mask
    };
    let (kf, kr) = ((king % 9) as i32, (king / 9) as i32);
    let lines = (FILE_A << kf) | (0x1ff << (kr * 9));
    let mut legs = 0u128;
    for (df, dr) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (f, r) = (kf + df, kr + dr);
        if (0..9).contains(&f) && (0..10).contains(&r) {
            legs |= 1 << (r * 9 + f);
        }
    }
    (lines | legs, lines)
}

/// Removes from `list` (candidates of `us`, whose king is on `king`) every move that leaves
/// that king attacked. `cells` is restored before returning.
pub(crate) fn keep_legal(cells: &mut Cells, us: Side, king: usize, list: &mut MoveList) {
    let them = us.opponent();
    let in_check = attacked(cells, king, them);
    let (leaving, entering) = exposing(king);
    list.retain(|mv| {
        let from = mv.from.index();
        let to = mv.to.index();
        let moving_king = from == king;
        let may_expose = (leaving >> from) & 1 != 0 || (entering >> to) & 1 != 0;
        if !in_check && !moving_king && !may_expose {
            return true;
        }
        let captured = cells[to];
        cells[to] = cells[from];
        cells[from] = 0;
        let safe = if in_check || moving_king {
            !attacked(cells, if moving_king { to } else { king }, them)
        } else {
            // The king was safe and only `from` and `to` changed: only a ray through one of
            // them, or a horse whose leg `from` was, can attack it now.
            let cells = &*cells;
            let ray = |p| ray_through(king, p).is_some_and(|d| ray_attacks(cells, king, d, them));
            let leg = ((leaving & !entering) >> from) & 1 != 0;
            !(ray(from) || ray(to) || (leg && horse_attacks(cells, king, them)))
        };
        cells[from] = cells[to];
        cells[to] = captured;
        safe
    });
}

/// Whether the kings on `a` and `b` stand on one file with nothing between.
pub(crate) fn kings_face(cells: &Cells, a: usize, b: usize) -> bool {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    low % 9 == high % 9 && (low + 9..high).step_by(9).all(|p| cells[p] == 0)
}
