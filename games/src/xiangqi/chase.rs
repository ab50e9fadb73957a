//! Perpetual chase (长捉, 4.1.7's 禁例 beyond check), as `rules/xiangqi.md` states it: which
//! opponent pieces one move *chases*, and whether a side chased the same piece with every
//! one of its moves in a repetition cycle.
//!
//! A move chases an opponent piece when, after it, one of the mover's pieces attacks that
//! piece with an attack the move created (the piece moved there, or uncovered the line), and
//! - the attacker is not the king or a pawn, crossed the river or not (their attacks are
//!   not chases);
//! - the victim is not the king (that is check) nor a pawn still on its own half;
//! - the attacker could legally capture it (a pinned piece chases only along its pin);
//! - either a lesser piece attacks a greater one — a horse or cannon a rook, an advisor or
//!   elephant a rook, horse or cannon — which is a chase whether the victim is protected or
//!   not, or the victim is unprotected: after the capture its side has no legal recapture;
//! - and the victim cannot take the attacker back by a legal move (two pieces of one kind
//!   attacking each other offer an exchange, 兑, and chase nobody).
//!
//! The source's 4.1.7 (应变着而不变) and 4.2.3 refer to the 棋例 without stating them; what
//! a chase is comes from the 棋例's definition of 捉 — a move that makes a capture possible on
//! the next move — and from the Asian rules as Fairy-Stockfish implements them. Where the
//! two engines differ, we decided **\[D\]** (`rules/xiangqi.md`, "Perpetual chase"):
//! - a pinned piece's attack (Fairy-Stockfish: a chase; we: none). A capture that would
//!   leave one's own king attacked is no legal move (4.1.2, 3.1), so it threatens nothing
//!   next move: it is not a 捉.
//! - an advisor or elephant attacking a protected rook, horse or cannon: a chase, as
//!   Fairy-Stockfish says. The exchange the protection offers would still win material, as
//!   a horse's or cannon's attack on a protected rook does, and we count both alike.
//! - two pieces of one kind attacking each other where the victim's take-back is illegal
//!   (its side is in check, say) (Fairy-Stockfish: no chase unless the victim is pinned;
//!   we: a chase). An exchange the other side may not accept is no exchange offer; the
//!   attack is a plain threat. Fairy-Stockfish makes the same exception for a pinned victim
//!   only; we apply its reason to every illegal take-back.
//!
//! The golden file `games/tests/data/xiangqi_chase.txt` (written by
//! `games/tests/data/gen_chase.py` with `pyffish`) holds random cycles and one hand-made
//! cycle for each of these classes and for pawns, with Fairy-Stockfish's verdict and ours
//! where it differs on purpose, with the reason.

use super::board::{Kind, Side, Square};
use super::moves::Move;
use super::position::Position;

/// `pos` with `side` to move (the board untouched), to ask what that side could do.
fn with_side(pos: &Position, side: Side) -> Position {
    let mut p = pos.clone();
    p.side = side;
    p
}

/// The legal captures `side` has in `pos`, as (from, to).
fn captures(pos: &Position, side: Side) -> Vec<(Square, Square)> {
    let p = with_side(pos, side);
    p.legal_move_list()
        .as_slice()
        .iter()
        .filter(|m| p.piece_at(m.to).is_some())
        .map(|m| (m.from, m.to))
        .collect()
}

/// Whether `side` can legally capture on `at` in `pos`.
fn can_capture(pos: &Position, side: Side, at: Square) -> bool {
    captures(pos, side).iter().any(|&(_, to)| to == at)
}

/// The attacks by `side` that may be chases: (attacker, victim) with the attacker neither
/// king nor pawn and the victim neither king nor a pawn on its own half.
fn chasing_attacks(pos: &Position, side: Side) -> Vec<(Square, Square)> {
    captures(pos, side)
        .into_iter()
        .filter(|&(from, to)| {
            let attacker = pos.piece_at(from).map(|p| p.kind);
            let victim = pos.piece_at(to);
            !matches!(attacker, Some(Kind::King | Kind::Pawn) | None)
                && victim.is_some_and(|v| match v.kind {
                    Kind::King => false,
                    Kind::Pawn => !to.on_own_half(v.side),
                    _ => true,
                })
        })
        .collect()
}

/// Whether `attacker` is a lesser piece than `victim`, so that attacking it is a chase even
/// when it is protected: a horse or cannon against a rook, an advisor or elephant against a
/// rook, horse or cannon.
fn lesser(attacker: Kind, victim: Kind) -> bool {
    match attacker {
        Kind::Horse | Kind::Cannon => victim == Kind::Rook,
        Kind::Advisor | Kind::Elephant => {
            matches!(victim, Kind::Rook | Kind::Horse | Kind::Cannon)
        }
        Kind::King | Kind::Rook | Kind::Pawn => false,
    }
}

/// Whether the attack of `from` on `to` (by the side not to move in `pos`) is a chase.
fn is_chase(pos: &Position, from: Square, to: Square) -> bool {
    let (Some(attacker), Some(victim)) = (pos.piece_at(from), pos.piece_at(to)) else {
        return false;
    };
    if lesser(attacker.kind, victim.kind) {
        return true;
    }
    // Mutual: the victim, of the same kind, can take the attacker back by a legal move (an
    // exchange offer, 兑); when the take-back is illegal the attack is a threat like any.
    if attacker.kind == victim.kind {
        let back = with_side(pos, victim.side);
        if back.is_legal(Move::new(to, from)) {
            return false;
        }
    }
    // Unprotected: after the capture, the victim's side cannot recapture.
    let mut taken = with_side(pos, attacker.side);
    taken.make(Move::new(from, to));
    !can_capture(&taken, victim.side, to)
}

/// The opponent pieces `mv` chases, by their points after the move. `before` is the
/// position the move is played in, and `mv` must be legal there and capture nothing.
pub fn chased_by(before: &Position, mv: Move) -> Vec<Square> {
    let mover = before.side_to_move();
    let Ok(after) = before.after(mv) else {
        return Vec::new();
    };
    let old = chasing_attacks(before, mover);
    let mut out: Vec<Square> = chasing_attacks(&after, mover)
        .into_iter()
        .filter(|&(from, to)| {
            let was_from = if from == mv.to { mv.from } else { from };
            !old.contains(&(was_from, to))
        })
        .filter(|&(from, to)| is_chase(&after, from, to))
        .map(|(_, to)| to)
        .collect();
    out.sort_by_key(|s| s.index());
    out.dedup();
    out
}

/// 4.1.7 (长捉): whether `side` chased one and the same opponent piece with every one of
/// its moves in `cycle` (played from `start`, no capture among them). The chased piece is
/// followed as it moves.
pub fn chases_always(start: &Position, cycle: &[Move], side: Side) -> bool {
    let mut pos = start.clone();
    // The pieces chased by every one of `side`'s moves so far, where they stand now.
    let mut common: Option<Vec<Square>> = None;
    for &mv in cycle {
        let mover = pos.side_to_move();
        if let Some(set) = common.as_mut() {
            for s in set.iter_mut() {
                if *s == mv.from {
                    *s = mv.to;
                }
            }
        }
        if mover == side {
            let now = chased_by(&pos, mv);
            common = Some(match common {
                None => now,
                Some(prev) => prev.into_iter().filter(|s| now.contains(s)).collect(),
            });
            if common.as_ref().is_some_and(Vec::is_empty) {
                return false;
            }
        }
        if pos.play(mv).is_err() {
            return false;
        }
    }
    common.is_some_and(|c| !c.is_empty())
}
