//! Players that pick uniformly among the legal moves, from a seeded generator: the foil
//! the xiangqi bot's strength is measured against, a source of odd positions for tests, and
//! the load generator's xiangqi and draughts seats.

use qipai_games::xiangqi::{History, Move};
use qipai_protocol::draughts::{DraughtsAction, DraughtsEvent, DraughtsView};
use qipai_protocol::xiangqi::{Side, Status, XiangqiAction, XiangqiEvent, XiangqiView};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::strategy::Strategy;

/// Uniformly random legal moves.
pub struct RandomXiangqi {
    rng: ChaCha8Rng,
}

impl RandomXiangqi {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomXiangqi {
        RandomXiangqi {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A legal move in `history`'s position, `None` when there is none or the game is over.
    pub fn choose(&mut self, history: &History) -> Option<Move> {
        if history.outcome().is_some() {
            return None;
        }
        let moves = history.position().legal_move_list();
        let slice = moves.as_slice();
        if slice.is_empty() {
            return None;
        }
        slice.get(self.rng.random_range(0..slice.len())).copied()
    }
}

impl Strategy for RandomXiangqi {
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Action = XiangqiAction;

    /// Picks among the view's own list of legal moves.
    fn decide(&mut self, seat: u8, view: &XiangqiView) -> Option<XiangqiAction> {
        let side = if seat == 0 { Side::Red } else { Side::Black };
        if view.status != Status::Playing || view.side_to_move != side || seat > 1 {
            return None;
        }
        if view.legal_moves.is_empty() {
            return None;
        }
        let i = self.rng.random_range(0..view.legal_moves.len());
        let iccs = view.legal_moves.get(i)?.to_string();
        Some(XiangqiAction::Move { iccs })
    }
}

/// Uniformly random draughts moves from the view's own list of legal moves (the server's
/// list, so every choice is legal): the load generator's draughts seats, which must cost
/// microseconds so the load test measures the server, not a search.
pub struct RandomDraughts {
    rng: ChaCha8Rng,
}

impl RandomDraughts {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomDraughts {
        RandomDraughts {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy for RandomDraughts {
    type View = DraughtsView;
    type Event = DraughtsEvent;
    type Action = DraughtsAction;

    fn decide(&mut self, seat: u8, view: &DraughtsView) -> Option<DraughtsAction> {
        crate::draughts::side_to_act(seat, view)?;
        let legal = &view.to_move.legal_moves;
        if legal.is_empty() {
            return None;
        }
        let notation = legal.get(self.rng.random_range(0..legal.len()))?.clone();
        Some(DraughtsAction::Move { notation })
    }
}
