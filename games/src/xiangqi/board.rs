//! The board (棋盘): 90 points, the two sides and their seven kinds of pieces.
//!
//! 第1条1.1: nine files (直线) and ten ranks (横线) meet in 90 points. Points are numbered
//! `rank * 9 + file`, with files `a`–`i` (0–8) from Red's left and ranks 0–9 from Red's side,
//! the ICCS coordinates the wire uses (`e0` is Red's king's point at the start).

use std::fmt;

use serde::{Deserialize, Serialize};

/// Number of files (直线).
pub const FILES: u8 = 9;
/// Number of ranks (横线).
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const POINTS: usize = 90;

/// One of the two sides, defined once with its wire shape in the protocol. 第2条2.1: Red
/// (红) moves first.
pub use qipai_protocol::xiangqi::Side;

/// The seven kinds of pieces (第1条1.2), named by their FEN letters `k a b n r c p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// 帅 / 将 (`k`), the general.
    King,
    /// 仕 / 士 (`a`).
    Advisor,
    /// 相 / 象 (`b`).
    Elephant,
    /// 马 (`n`).
    Horse,
    /// 车 (`r`), the chariot.
    Rook,
    /// 炮 (`c`).
    Cannon,
    /// 兵 / 卒 (`p`).
    Pawn,
}

impl Kind {
    /// All kinds, in the order of their internal codes.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The FEN letter (lowercase).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'k',
            Kind::Advisor => 'a',
            Kind::Elephant => 'b',
            Kind::Horse => 'n',
            Kind::Rook => 'r',
            Kind::Cannon => 'c',
            Kind::Pawn => 'p',
        }
    }

    /// The kind a FEN letter (either case) names; `h` and `e` are accepted for horse and
    /// elephant as some tools write them.
    pub const fn from_letter(letter: char) -> Option<Kind> {
        match letter.to_ascii_lowercase() {
            'k' => Some(Kind::King),
            'a' => Some(Kind::Advisor),
            'b' | 'e' => Some(Kind::Elephant),
            'n' | 'h' => Some(Kind::Horse),
            'r' => Some(Kind::Rook),
            'c' => Some(Kind::Cannon),
            'p' => Some(Kind::Pawn),
            _ => None,
        }
    }

    /// How many of this kind each side has at the start (第1条1.2), and so at most.
    pub const fn start_count(self) -> u8 {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }

    /// The English name used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Rook => "rook",
            Kind::Cannon => "cannon",
            Kind::Pawn => "pawn",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a side and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    /// A piece of `side` and `kind`.
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// The FEN letter: uppercase for Red, lowercase for Black.
    pub const fn fen_letter(self) -> char {
        match self.side {
            Side::Red => self.kind.letter().to_ascii_uppercase(),
            Side::Black => self.kind.letter(),
        }
    }

    /// The compact code the board stores: 1–7 Red, 9–15 Black, never 0 (empty).
    pub(crate) const fn code(self) -> u8 {
        1 + self.kind as u8 + 8 * self.side as u8
    }

    /// The piece a non-zero board code stands for.
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        let side = if code & 8 == 0 {
            Side::Red
        } else {
            Side::Black
        };
        let kind = match code & 7 {
            1 => Kind::King,
            2 => Kind::Advisor,
            3 => Kind::Elephant,
            4 => Kind::Horse,
            5 => Kind::Rook,
            6 => Kind::Cannon,
            7 => Kind::Pawn,
            _ => return None,
        };
        Some(Piece { side, kind })
    }
}

/// A point of the board, `0..90`; always valid once built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The point on `file` (0 = `a`, Red's left) and `rank` (0 = Red's back rank).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The point with this index, if below 90.
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < POINTS {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Internal: an index the caller knows is below 90 (move tables).
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// `rank * 9 + file`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (`a`) to 8 (`i`), from Red's left.
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// 0 (Red's back rank) to 9 (Black's).
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Every point, `a0`, `b0`, … `i9`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..POINTS as u8).map(Square)
    }

    /// Whether the point is on `side`'s half, before the river (河界) as seen from `side`.
    pub const fn on_own_half(self, side: Side) -> bool {
        match side {
            Side::Red => self.rank() <= 4,
            Side::Black => self.rank() >= 5,
        }
    }

    /// Whether the point is inside `side`'s palace (九宫): files d–f, the three back ranks.
    pub const fn in_palace(self, side: Side) -> bool {
        let file = self.file();
        let rank = self.rank();
        file >= 3
            && file <= 5
            && match side {
                Side::Red => rank <= 2,
                Side::Black => rank >= 7,
            }
    }

    /// Parses ICCS coordinates like `e0`.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = chars.next()?;
        let rank = chars.next()?;
        if chars.next().is_some() || !('a'..='i').contains(&file) {
            return None;
        }
        let rank = rank.to_digit(10)?;
        Square::new(file as u8 - b'a', rank as u8)
    }
}

/// ICCS coordinates: file letter then rank digit, `e0`.
impl Square {
    /// The ICCS name's two characters (`a0` … `i9`).
    pub(crate) const fn iccs_chars(self) -> [char; 2] {
        [(b'a' + self.file()) as char, (b'0' + self.rank()) as char]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [file, rank] = self.iccs_chars();
        fmt::Write::write_char(f, file)?;
        fmt::Write::write_char(f, rank)
    }
}

/// The 90 points and what stands on each. Any arrangement can be stored; a
/// [`Position`](super::Position) is built only from one that passes its checks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Piece codes (see [`Piece::code`]), 0 for an empty point.
    pub(crate) cells: [u8; POINTS],
}

impl Board {
    /// An empty board.
    pub const fn empty() -> Board {
        Board { cells: [0; POINTS] }
    }

    /// What stands on `square`.
    pub fn get(&self, square: Square) -> Option<Piece> {
        Piece::from_code(self.cells[square.index()])
    }

    /// Puts `piece` (or nothing) on `square`.
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        self.cells[square.index()] = piece.map_or(0, Piece::code);
    }

    /// Every occupied point and its piece, `a0` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// How many pieces of `side` and `kind` stand on the board.
    pub fn count(&self, piece: Piece) -> usize {
        let code = piece.code();
        self.cells.iter().filter(|&&c| c == code).count()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            for file in 0..FILES {
                let piece = Square::new(file, rank).and_then(|sq| self.get(sq));
                write!(f, "{}", piece.map_or('.', Piece::fen_letter))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes round-trip for all fourteen pieces, and 0 is no piece.
    #[test]
    fn piece_codes_round_trip() {
        assert_eq!(Piece::from_code(0), None);
        for side in [Side::Red, Side::Black] {
            for kind in Kind::ALL {
                let piece = Piece::new(side, kind);
                assert_ne!(piece.code(), 0);
                assert_eq!(Piece::from_code(piece.code()), Some(piece));
            }
        }
    }

    /// ICCS coordinates: `a0` is Red's left corner, `i9` Black's.
    #[test]
    fn squares_print_and_parse_as_iccs() {
        let e0 = Square::new(4, 0).unwrap();
        assert_eq!(e0.to_string(), "e0");
        assert_eq!(Square::parse("e0"), Some(e0));
        assert_eq!(Square::parse("i9"), Square::new(8, 9));
        for bad in ["", "j0", "a", "a10", "E0", "a-"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    /// 第1条1.1: the palaces and the river.
    #[test]
    fn palace_and_river() {
        let sq = |s| Square::parse(s).unwrap();
        assert!(sq("d0").in_palace(Side::Red) && sq("f2").in_palace(Side::Red));
        assert!(!sq("c0").in_palace(Side::Red) && !sq("e3").in_palace(Side::Red));
        assert!(sq("e9").in_palace(Side::Black) && !sq("e6").in_palace(Side::Black));
        assert!(sq("a4").on_own_half(Side::Red) && !sq("a5").on_own_half(Side::Red));
        assert!(sq("a5").on_own_half(Side::Black));
    }
}
