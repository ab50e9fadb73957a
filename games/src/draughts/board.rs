//! The 10×10 board as bitboards: [`Square`] (1–50), [`Side`], [`Board`] and the diagonal steps.
//!
//! Rules page, "Board and notation": play is on the 50 dark squares numbered 1–50, square 1
//! at Black's top left; White starts on 31–50 and moves toward square 1.
//!
//! # Layout
//! Square `n` (0-based `s = n - 1`) is bit `s + s / 10`: every pair of rows takes 11 bits,
//! the 11th (bits 10, 21, 32, 43) a "ghost" square that is never on the board. With the
//! ghosts every diagonal step is the same shift everywhere: −6 and −5 toward White's
//! promotion row (square 1 side), +5 and +6 toward Black's. A step off the edge lands on a
//! ghost or outside bits 0–53, both outside [`ON_BOARD`].

use std::fmt;

use serde::{Deserialize, Serialize};

/// Bits of the 50 playable squares.
pub const ON_BOARD: u64 = {
    let mut mask = 0u64;
    let mut s = 0;
    while s < 50 {
        mask |= 1 << (s + s / 10);
        s += 1;
    }
    mask
};

/// The four diagonal steps as bit shifts: the first two go toward square 1 (White's
/// forward), the last two toward square 50 (Black's forward).
pub const STEPS: [i32; 4] = [-6, -5, 5, 6];

/// Squares 1–5: where White's men become kings.
pub const WHITE_PROMOTION: u64 = 0b11111;
/// Squares 46–50: where Black's men become kings.
pub const BLACK_PROMOTION: u64 = 0b11111 << 49;

/// One bit moved one diagonal step (`step` from [`STEPS`]); `0` off the board.
#[inline]
pub const fn shift(bits: u64, step: i32) -> u64 {
    let moved = if step > 0 {
        bits << step
    } else {
        bits >> -step
    };
    moved & ON_BOARD
}

/// A dark square, numbered 1–50 as in the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square(u8);

impl Square {
    /// Square 1.
    pub const FIRST: Square = Square(1);

    /// Square `n`, if it is on the board (1–50).
    pub const fn new(n: u8) -> Option<Square> {
        if n >= 1 && n <= 50 {
            Some(Square(n))
        } else {
            None
        }
    }

    /// The number of the square, 1–50.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The square's bit in a bitboard.
    #[inline]
    pub const fn bit(self) -> u64 {
        let s = (self.0 - 1) as u32;
        1 << (s + s / 10)
    }

    /// The square of a single set bit (the lowest, if several); `None` for a ghost or empty.
    #[inline]
    pub fn from_bit(bits: u64) -> Option<Square> {
        if bits & ON_BOARD == 0 {
            return None;
        }
        let index = (bits & ON_BOARD).trailing_zeros();
        let s = index - index / 11;
        Square::new(s as u8 + 1)
    }

    /// The row, 0 (squares 1–5, Black's back row) to 9 (46–50, White's back row).
    pub const fn row(self) -> u8 {
        (self.0 - 1) / 5
    }

    /// The column, 0–9 from White's left (the left of the diagram with square 1 on top).
    pub const fn column(self) -> u8 {
        let row = self.row();
        let within = (self.0 - 1) % 5;
        within * 2 + if row.is_multiple_of(2) { 1 } else { 0 }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The squares of a bitboard, lowest number first.
pub fn squares(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        let lowest = bits & bits.wrapping_neg();
        bits &= bits.wrapping_sub(1);
        if lowest == 0 {
            None
        } else {
            Square::from_bit(lowest)
        }
    })
}

pub use qipai_protocol::draughts::Side;

/// The steps a man of `side` moves along without capturing.
pub const fn forward(side: Side) -> [i32; 2] {
    match side {
        Side::White => [STEPS[0], STEPS[1]],
        Side::Black => [STEPS[2], STEPS[3]],
    }
}

/// The row on which `side`'s men become kings (6.14: only at the end of a move).
pub const fn promotion_row(side: Side) -> u64 {
    match side {
        Side::White => WHITE_PROMOTION,
        Side::Black => BLACK_PROMOTION,
    }
}

/// A man or a king (王棋).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Man,
    King,
}

/// The pieces on the board: one bitboard per side and one of kings (of either side).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pub white: u64,
    pub black: u64,
    pub kings: u64,
}

impl Board {
    /// The usual start: Black's men on 1–20, White's on 31–50.
    pub fn start() -> Board {
        let mut board = Board::default();
        for n in 1..=20 {
            board.black |= Square(n).bit();
        }
        for n in 31..=50 {
            board.white |= Square(n).bit();
        }
        board
    }

    /// `side`'s pieces.
    #[inline]
    pub const fn side(&self, side: Side) -> u64 {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// Every occupied square.
    #[inline]
    pub const fn occupied(&self) -> u64 {
        self.white | self.black
    }

    /// Every empty playable square.
    #[inline]
    pub const fn empty(&self) -> u64 {
        ON_BOARD & !(self.white | self.black)
    }

    /// The piece on `square`, if any.
    pub fn piece(&self, square: Square) -> Option<(Side, Kind)> {
        let bit = square.bit();
        let side = if self.white & bit != 0 {
            Side::White
        } else if self.black & bit != 0 {
            Side::Black
        } else {
            return None;
        };
        let kind = if self.kings & bit != 0 {
            Kind::King
        } else {
            Kind::Man
        };
        Some((side, kind))
    }

    /// Puts a piece on `square` (replacing whatever stood there).
    pub fn put(&mut self, square: Square, side: Side, kind: Kind) {
        let bit = square.bit();
        self.white &= !bit;
        self.black &= !bit;
        self.kings &= !bit;
        match side {
            Side::White => self.white |= bit,
            Side::Black => self.black |= bit,
        }
        if kind == Kind::King {
            self.kings |= bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_bits() {
        for n in 1..=50 {
            let square = Square::new(n).unwrap();
            assert_eq!(Square::from_bit(square.bit()), Some(square));
        }
        assert_eq!(ON_BOARD.count_ones(), 50);
    }

    #[test]
    fn steps_follow_the_diagonals() {
        let s = |n| Square::new(n).unwrap().bit();
        // 32-28 and 32-27 are White's two forward steps from 32.
        assert_eq!(shift(s(32), -6), s(27));
        assert_eq!(shift(s(32), -5), s(28));
        // Off the edge: 6 has no step toward its left, 45 none toward its right.
        assert_eq!(shift(s(6), 5), 0);
        assert_eq!(shift(s(45), 6), 0);
        assert_eq!(shift(s(46), 6), 0);
        assert_eq!(shift(s(5), -5), 0);
    }
}
