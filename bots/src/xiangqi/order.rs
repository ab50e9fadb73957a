//! Move ordering: the transposition table's move first, then captures by most valuable
//! victim / least valuable attacker, then the killer moves of this ply, then quiet moves by
//! their history score. Good ordering is what makes alpha-beta cut.

use qipai_games::xiangqi::{Move, MoveList, Position};

use super::eval::material;

/// The deepest ply the search tracks killers for.
pub const MAX_PLY: usize = 96;

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;

/// What the search learns about quiet moves as it goes.
pub struct Heuristics {
    /// Two quiet moves per ply that caused a beta cut-off at that ply.
    killers: Vec<[Option<Move>; 2]>,
    /// Per (from, to): how often and how deep the move caused a cut-off.
    history: Vec<i32>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 90 * 90],
        }
    }
}

impl Heuristics {
    /// A quiet `mv` refuted the opponent's last move at `ply`, `depth` plies deep.
    pub fn reward(&mut self, mv: Move, ply: usize, depth: i32) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if let Some(h) = self.history.get_mut(history_index(mv)) {
            *h = (*h + depth * depth).min(KILLER - 1);
        }
    }

    /// Ages the history between searches so old lessons weigh less than new ones.
    pub fn age(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    fn killer_rank(&self, mv: Move, ply: usize) -> Option<i32> {
        let k = self.killers.get(ply)?;
        if k[0] == Some(mv) {
            Some(1)
        } else if k[1] == Some(mv) {
            Some(0)
        } else {
            None
        }
    }
}

fn history_index(mv: Move) -> usize {
    mv.from.index() * 90 + mv.to.index()
}

/// The ordering score of `mv` in `position`.
fn score(
    position: &Position,
    mv: Move,
    tt_move: Option<Move>,
    heuristics: &Heuristics,
    ply: usize,
) -> i32 {
    if tt_move == Some(mv) {
        return TT_MOVE;
    }
    if let Some(victim) = position.piece_at(mv.to) {
        let attacker = position.piece_at(mv.from).map_or(0, |p| material(p.kind));
        return CAPTURE + material(victim.kind) * 16 - attacker / 10;
    }
    if let Some(rank) = heuristics.killer_rank(mv, ply) {
        return KILLER + rank;
    }
    heuristics
        .history
        .get(history_index(mv))
        .copied()
        .unwrap_or(0)
}

/// The moves of one node with their ordering scores; [`Ordered::next`] hands out the best
/// remaining one (a lazy selection sort: a cut-off after the first move sorts nothing).
pub struct Ordered {
    moves: MoveList,
    /// `(score, index into moves)`; those before `taken` have been handed out.
    slots: [(i32, u8); SLOTS],
    len: usize,
    taken: usize,
}

/// More than any position's number of moves (see `MoveList`'s capacity).
const SLOTS: usize = 160;

impl Ordered {
    /// Scores `moves` for `position`.
    pub fn new(
        position: &Position,
        moves: MoveList,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
    ) -> Ordered {
        let mut slots = [(0, 0); SLOTS];
        let mut len = 0;
        for (i, (slot, &mv)) in slots.iter_mut().zip(moves.as_slice()).enumerate() {
            *slot = (score(position, mv, tt_move, heuristics, ply), i as u8);
            len += 1;
        }
        Ordered {
            moves,
            slots,
            len,
            taken: 0,
        }
    }
}

impl Iterator for Ordered {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let rest = self
            .slots
            .get(self.taken..self.len)
            .filter(|r| !r.is_empty())?;
        // The first of the best, so equal scores keep generation order (determinism).
        let mut best = 0;
        let mut best_score = i32::MIN;
        for (i, &(s, _)) in rest.iter().enumerate() {
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        let pick = self.taken + best;
        self.slots.swap(self.taken, pick);
        let index = self.slots.get(self.taken).map(|&(_, i)| usize::from(i))?;
        self.taken += 1;
        self.moves.as_slice().get(index).copied()
    }
}
