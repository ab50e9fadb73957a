//! A weak scripted player, the stand-in for a newcomer in the tests that show the lowest
//! level can be beaten by normal play: it mates when it can, takes free
//! material, and otherwise plays at random among the moves that leave none of its pieces
//! to a winning one-move capture. No search beyond that.

use qipai_games::xiangqi::{Move, Position};
use rand::seq::IndexedRandom;
use rand::Rng;

use super::eval::material;

/// What the mover can lose at once after having moved into `after` (the opponent to move):
/// the most any capture wins, counting a recapture on the same point.
fn exposed(after: &Position) -> i32 {
    let mut worst = 0;
    for &reply in after.legal_move_list().as_slice() {
        let (Some(victim), Some(taker)) = (after.piece_at(reply.to), after.piece_at(reply.from))
        else {
            continue;
        };
        let mut next = after.clone();
        next.make(reply);
        let recaptured = next
            .legal_move_list()
            .as_slice()
            .iter()
            .any(|m| m.to == reply.to);
        let loss = if recaptured {
            material(victim.kind) - material(taker.kind)
        } else {
            material(victim.kind)
        };
        worst = worst.max(loss);
    }
    worst
}

/// The scripted player's move in `position`; `None` when it has none.
pub fn weak_move(position: &Position, rng: &mut impl Rng) -> Option<Move> {
    let moves = position.legal_move_list().as_slice().to_vec();
    let mut safe = Vec::new();
    let mut best_take: Option<(i32, Move)> = None;
    for &mv in &moves {
        let mut after = position.clone();
        let taken = after.piece_at(mv.to).map_or(0, |p| material(p.kind));
        after.make(mv);
        if !after.has_legal_move() {
            return Some(mv); // mate (or 困毙)
        }
        let risk = exposed(&after);
        let gain = taken - risk;
        if taken > 0 && gain > 0 && best_take.is_none_or(|(g, _)| gain > g) {
            best_take = Some((gain, mv));
        }
        if risk == 0 {
            safe.push(mv);
        }
    }
    if let Some((_, mv)) = best_take {
        return Some(mv);
    }
    safe.choose(rng).or_else(|| moves.choose(rng)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// From the start every move is legal and safe-or-forced; the same seed, the same move.
    #[test]
    fn plays_a_legal_move_reproducibly() {
        let start = Position::start();
        let a = weak_move(&start, &mut ChaCha8Rng::seed_from_u64(3));
        let b = weak_move(&start, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(a, b);
        let mv = a.expect("a move");
        assert!(start.legal_move_list().as_slice().contains(&mv));
    }

    /// A free rook is taken: Black's rook on a5 stands unprotected on the file of Red's
    /// rook on a0.
    #[test]
    fn takes_free_material() {
        let p = Position::from_fen("3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 0 1").expect("fen");
        let mv = weak_move(&p, &mut ChaCha8Rng::seed_from_u64(0)).expect("a move");
        assert_eq!(mv.to_string(), "a0a5");
    }
}
