//! The static evaluation: material plus piece-square tables, from Red's point of view, kept
//! up to date move by move during the search ([`delta`]).
//!
//! Units are hundredths of a pawn that has not crossed the river. The usual relative values
//! (rook 9, cannon 4.5, horse 4, advisor and elephant 2, pawn 1, 2 once across the river)
//! are the material part; the tables add what a point is worth to each kind: a crossed pawn
//! near the palace, a horse in the centre, a rook on the ribs, a cannon on the central file.

use qipai_games::xiangqi::{Kind, Piece, Position, Side, Square};

/// What a piece is worth wherever it stands. The king has no price: losing it is mate.
pub const fn material(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Advisor | Kind::Elephant => 200,
        Kind::Horse => 400,
        Kind::Cannon => 450,
        Kind::Rook => 900,
        Kind::Pawn => 100,
    }
}

/// A table for one kind, as Red sees the board: the first row is rank 9 (Black's back
/// rank), the last rank 0 (Red's), files `a` to `i` left to right.
type Table = [i16; 90];

#[rustfmt::skip]
const KING: Table = [
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0, -20, -20, -20,   0,   0,   0,
    0,   0,   0, -10,  -5, -10,   0,   0,   0,
    0,   0,   0,   0,   5,   0,   0,   0,   0,
];

#[rustfmt::skip]
const ADVISOR: Table = [
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,  -5,   0,  -5,   0,   0,   0,
    0,   0,   0,   0,  10,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const ELEPHANT: Table = [
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,  -5,   0,   0,   0,  -5,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
   -5,   0,   0,   0,  10,   0,   0,   0,  -5,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const HORSE: Table = [
  -20, -10,   0,   0, -10,   0,   0, -10, -20,
  -10,  20,  30,  40,  10,  40,  30,  20, -10,
    0,  20,  40,  40,  30,  40,  40,  20,   0,
    0,  30,  40,  50,  40,  50,  40,  30,   0,
    0,  20,  30,  40,  40,  40,  30,  20,   0,
    0,  10,  20,  30,  30,  30,  20,  10,   0,
  -10,   5,  10,  15,  20,  15,  10,   5, -10,
  -10,   0,  10,  10,   0,  10,  10,   0, -10,
  -20, -10,   0,   0, -30,   0,   0, -10, -20,
  -30, -20, -10, -10, -20, -10, -10, -20, -30,
];

#[rustfmt::skip]
const ROOK: Table = [
   10,  15,  10,  20,  20,  20,  10,  15,  10,
   15,  20,  15,  30,  40,  30,  15,  20,  15,
   10,  15,  10,  20,  20,  20,  10,  15,  10,
   10,  20,  15,  25,  25,  25,  15,  20,  10,
   10,  20,  15,  20,  20,  20,  15,  20,  10,
   10,  15,  10,  15,  15,  15,  10,  15,  10,
    0,  15,   5,  15,  10,  15,   5,  15,   0,
    0,  10,   5,  10,   5,  10,   5,  10,   0,
    0,  10,   5,  10,   0,  10,   5,  10,   0,
  -10,  10,   5,  10,   0,  10,   5,  10, -10,
];

#[rustfmt::skip]
const CANNON: Table = [
   10,  10,   0, -10, -10, -10,   0,  10,  10,
    5,   5,   0, -10, -10, -10,   0,   5,   5,
    5,   5,   0,   0, -10,   0,   0,   5,   5,
    0,   5,   5,   5,  10,   5,   5,   5,   0,
    0,   0,   0,   5,  10,   5,   0,   0,   0,
    0,   0,   5,   5,  10,   5,   5,   0,   0,
    0,   0,   0,   0,  10,   0,   0,   0,   0,
    0,   5,  10,  10,  20,  10,  10,   5,   0,
    0,   0,   5,   5,   5,   5,   5,   0,   0,
    0,   0,   5,  10,  10,  10,   5,   0,   0,
];

/// 第2条2.3: a pawn gains sideways moves across the river; near the palace it is worth as
/// much as a minor piece, on the last rank (where it can only go sideways) much less.
#[rustfmt::skip]
const PAWN: Table = [
    5,  10,  15,  20,  20,  20,  15,  10,   5,
   40,  60,  80, 100, 110, 100,  80,  60,  40,
   40,  60,  80, 100, 110, 100,  80,  60,  40,
   40,  50,  60,  80,  90,  80,  60,  50,  40,
   30,  40,  50,  60,  60,  60,  50,  40,  30,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,  -5,   0,  10,   0,  -5,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,
];

const fn table(kind: Kind) -> &'static Table {
    match kind {
        Kind::King => &KING,
        Kind::Advisor => &ADVISOR,
        Kind::Elephant => &ELEPHANT,
        Kind::Horse => &HORSE,
        Kind::Rook => &ROOK,
        Kind::Cannon => &CANNON,
        Kind::Pawn => &PAWN,
    }
}

/// What `piece` on `square` is worth to its side (material and placement).
pub fn piece_value(piece: Piece, square: Square) -> i32 {
    let (file, rank) = (usize::from(square.file()), usize::from(square.rank()));
    // Row 0 of a table is the far rank from the piece's own side.
    let row = match piece.side {
        Side::Red => 9 - rank,
        Side::Black => rank,
    };
    let placed = table(piece.kind)
        .get(row * 9 + file)
        .copied()
        .map_or(0, i32::from);
    material(piece.kind) + placed
}

/// `piece`'s worth counted for Red: positive for Red's pieces, negative for Black's.
pub fn signed_value(piece: Piece, square: Square) -> i32 {
    match piece.side {
        Side::Red => piece_value(piece, square),
        Side::Black => -piece_value(piece, square),
    }
}

/// The whole board's evaluation for Red, computed from scratch.
pub fn evaluate(position: &Position) -> i32 {
    position
        .board()
        .pieces()
        .map(|(sq, piece)| signed_value(piece, sq))
        .sum()
}

/// How the evaluation for Red changes when `moving` goes from `from` to `to` capturing
/// `captured`.
pub fn delta(moving: Piece, from: Square, to: Square, captured: Option<Piece>) -> i32 {
    let moved = signed_value(moving, to) - signed_value(moving, from);
    moved - captured.map_or(0, |c| signed_value(c, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipai_games::xiangqi::{Move, START_FEN};

    /// The start position is symmetric: worth nothing to either side.
    #[test]
    fn start_is_level() {
        let start = Position::from_fen(START_FEN).unwrap();
        assert_eq!(evaluate(&start), 0);
    }

    /// The incremental delta agrees with a fresh evaluation after a capture.
    #[test]
    fn delta_matches_full_evaluation() {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        for text in ["h2e2", "h9g7", "e2e6"] {
            let mv = Move::from_iccs(text).unwrap();
            let before = evaluate(&pos);
            let moving = pos.piece_at(mv.from).unwrap();
            let captured = pos.piece_at(mv.to);
            pos.play(mv).unwrap();
            assert_eq!(
                evaluate(&pos),
                before + delta(moving, mv.from, mv.to, captured)
            );
        }
        // The cannon took a pawn: Red is ahead.
        assert!(evaluate(&pos) > 0);
    }
}
