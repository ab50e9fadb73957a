//! Move generation: plain moves, and captures with the majority rule (第六条).
//!
//! Captures are found square by square with the captured pieces left on the board until
//! the end (6.11, the Turkish strike): a jumped piece blocks the way and cannot be jumped
//! again (6.8), while empty squares may be crossed any number of times. The moving piece's
//! own start square counts as empty.

use super::board::{forward, shift, Board, Side, Square, ON_BOARD, STEPS};
use super::moves::{Move, MAX_CAPTURES};

/// Which complete capture sequences a search keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Only those that take the most pieces (6.12): the legal ones.
    Majority,
    /// Every complete sequence, whatever it takes (to explain a refusal).
    All,
}

/// Collects capture sequences while they are found.
struct Captures<'a> {
    keep: Keep,
    /// The most pieces taken by a sequence kept so far.
    best: u32,
    out: &'a mut Vec<Move>,
    from: Square,
    /// The landing squares of the sequence being built.
    path: [u8; MAX_CAPTURES],
    /// Squares a piece may land on or pass (the mover's start square included).
    empty: u64,
    /// The opponent's pieces (captured ones included: they stay until the end).
    enemy: u64,
}

impl Captures<'_> {
    fn emit(&mut self, depth: usize, captured: u64) {
        let count = captured.count_ones();
        if self.keep == Keep::Majority {
            if count < self.best {
                return;
            }
            if count > self.best {
                self.best = count;
                self.out.clear();
            }
        }
        self.out.push(Move::capture(
            self.from,
            &self.path[..depth.min(MAX_CAPTURES)],
            captured,
        ));
    }

    /// 6.2, 6.5: a man jumps an adjacent enemy piece onto the empty square right behind it,
    /// forwards or backwards, and goes on while it can.
    fn man(&mut self, at: u64, depth: usize, captured: u64) {
        let mut extended = false;
        for step in STEPS {
            let over = shift(at, step);
            if over & self.enemy & !captured == 0 {
                continue;
            }
            let land = shift(over, step);
            if land & self.empty == 0 {
                continue;
            }
            extended = true;
            self.land(land, depth);
            self.man(land, depth + 1, captured | over);
        }
        if !extended && depth > 0 {
            self.emit(depth, captured);
        }
    }

    /// 6.3, 6.6: a king jumps an enemy piece at any distance along a free diagonal onto any
    /// empty square behind it, and may turn onto another diagonal to go on.
    fn king(&mut self, at: u64, depth: usize, captured: u64) {
        let mut extended = false;
        for step in STEPS {
            let mut over = shift(at, step);
            while over & self.empty != 0 {
                over = shift(over, step);
            }
            if over & self.enemy & !captured == 0 {
                continue;
            }
            let mut land = shift(over, step);
            while land & self.empty != 0 {
                extended = true;
                self.land(land, depth);
                self.king(land, depth + 1, captured | over);
                land = shift(land, step);
            }
        }
        if !extended && depth > 0 {
            self.emit(depth, captured);
        }
    }

    fn land(&mut self, land: u64, depth: usize) {
        if let (Some(square), Some(slot)) = (Square::from_bit(land), self.path.get_mut(depth)) {
            *slot = square.number();
        }
    }
}

/// Every capture `side` can make on `board`, all routes (a flying king's equal captures by
/// different routes each appear), kept as `keep` says. Empty when there is none.
pub(crate) fn captures(board: &Board, side: Side, keep: Keep, out: &mut Vec<Move>) {
    out.clear();
    let own = board.side(side);
    let enemy = board.side(side.opponent());
    let empty = board.empty();
    let mut collector = Captures {
        keep,
        best: 1,
        out,
        from: Square::FIRST,
        path: [0; MAX_CAPTURES],
        empty,
        enemy,
    };
    // Men: only those with an enemy neighbour and an empty square behind it can start.
    let men = own & !board.kings;
    let mut starters = 0;
    for step in STEPS {
        starters |= shift(shift(empty, -step) & enemy, -step) & men;
    }
    for bit in bits(starters) {
        if let Some(from) = Square::from_bit(bit) {
            collector.from = from;
            collector.empty = empty | bit;
            collector.man(bit, 0, 0);
        }
    }
    for bit in bits(own & board.kings) {
        if let Some(from) = Square::from_bit(bit) {
            collector.from = from;
            collector.empty = empty | bit;
            collector.king(bit, 0, 0);
        }
    }
}

/// `side`'s moves that capture nothing (only legal when no capture exists).
pub(crate) fn quiet_moves(board: &Board, side: Side, out: &mut Vec<Move>) {
    out.clear();
    let own = board.side(side);
    let empty = board.empty();
    let men = own & !board.kings;
    for step in forward(side) {
        for to in bits(shift(men, step) & empty) {
            push_quiet(out, shift(to, -step), to);
        }
    }
    for from in bits(own & board.kings) {
        for step in STEPS {
            let mut to = shift(from, step);
            while to & empty != 0 {
                push_quiet(out, from, to);
                to = shift(to, step);
            }
        }
    }
}

fn push_quiet(out: &mut Vec<Move>, from: u64, to: u64) {
    if let (Some(from), Some(to)) = (Square::from_bit(from), Square::from_bit(to)) {
        out.push(Move::quiet(from, to));
    }
}

/// Drops repeated routes: keeps the first of moves with the same start, end and captures.
pub(crate) fn dedup_routes(moves: &mut Vec<Move>) {
    let mut i = 0;
    while i < moves.len() {
        if moves[..i].iter().any(|m| m.same_as(&moves[i])) {
            moves.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The single bits of `bits`, lowest first.
pub(crate) fn bits(mut bits: u64) -> impl Iterator<Item = u64> {
    bits &= ON_BOARD;
    std::iter::from_fn(move || {
        let lowest = bits & bits.wrapping_neg();
        bits ^= lowest;
        (lowest != 0).then_some(lowest)
    })
}
