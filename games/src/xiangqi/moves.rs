//! A move (一着, 第2条2.1) and a fixed-capacity list of moves.

use std::fmt;
use std::str::FromStr;

use qipai_protocol::xiangqi::Iccs;

use super::board::Square;
use super::error::XiangqiError;

/// One move: a piece goes from one point to another (capturing whatever stands there).
/// Xiangqi has no promotion, castling or drop, so two points say everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Parses ICCS coordinates (`h2e2`: from, then to; files `a`–`i` from Red's left, ranks
    /// `0`–`9` from Red's side). Upper-case file letters and a `-` between the points
    /// (`H2-E2`, as ICCS was first written) are accepted too. Takes any text: a `&str`, a
    /// `String`, an [`Iccs`] from the wire.
    ///
    /// # Errors
    /// [`XiangqiError::BadIccs`] when the text is not two points.
    pub fn from_iccs(text: impl AsRef<str>) -> Result<Move, XiangqiError> {
        let text = text.as_ref();
        let point = |file: u8, rank: u8| {
            Square::new(
                file.to_ascii_lowercase().wrapping_sub(b'a'),
                rank.wrapping_sub(b'0'),
            )
        };
        let points = match *text.trim().as_bytes() {
            [f0, r0, f1, r1] | [f0, r0, b'-', f1, r1] => point(f0, r0).zip(point(f1, r1)),
            _ => None,
        };
        points
            .map(|(from, to)| Move { from, to })
            .ok_or_else(|| XiangqiError::BadIccs {
                text: text.chars().take(16).collect(),
            })
    }
}

impl FromStr for Move {
    type Err = XiangqiError;

    fn from_str(text: &str) -> Result<Move, XiangqiError> {
        Move::from_iccs(text)
    }
}

/// ICCS: `h2e2`.
impl Move {
    /// The move in ICCS (`h2e2`), as [`Display`](fmt::Display) writes it, built directly
    /// and held inline: every move event lists the legal moves by name.
    pub const fn iccs(&self) -> Iccs {
        Iccs::new(
            (self.from.file(), self.from.rank()),
            (self.to.file(), self.to.rank()),
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Room for more moves than any position allowed by [`Position`](super::Position) has
/// (at most 16 pieces a side give fewer than 130 candidate moves).
const CAPACITY: usize = 160;

/// The moves of one position, on the stack (move generation allocates nothing).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        let none = Square::from_index_unchecked(0);
        MoveList {
            moves: [Move::new(none, none); CAPACITY],
            len: 0,
        }
    }

    /// Appends `mv`; the capacity bounds every valid position, so nothing is ever dropped.
    #[inline]
    pub(crate) fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Keeps only the moves for which `keep` is true.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// How many moves.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// The moves as a vector.
    pub fn to_vec(&self) -> Vec<Move> {
        self.as_slice().to_vec()
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `h2e2` is 炮二平五's ICCS; it prints back the same.
    #[test]
    fn iccs_round_trips() {
        let mv = Move::from_iccs("h2e2").unwrap();
        assert_eq!(mv.from, Square::parse("h2").unwrap());
        assert_eq!(mv.to, Square::parse("e2").unwrap());
        assert_eq!(mv.to_string(), "h2e2");
        assert_eq!(Move::from_iccs("H2-E2").unwrap(), mv);
    }

    /// The direct ICCS name of every pair of points is the formatted one, and reads back.
    #[test]
    fn iccs_is_the_display() {
        for from in Square::all() {
            for to in Square::all() {
                let mv = Move { from, to };
                assert_eq!(mv.iccs(), mv.to_string().as_str());
                assert_eq!(Move::from_iccs(mv.iccs().as_str()).unwrap(), mv);
            }
        }
    }

    /// Anything but two points is `BadIccs`.
    #[test]
    fn bad_iccs_is_rejected() {
        for bad in [
            "",
            "h2",
            "h2e",
            "h2e22",
            "j2e2",
            "h2e-",
            "h2-e2x",
            "炮二平五",
        ] {
            assert!(
                matches!(Move::from_iccs(bad), Err(XiangqiError::BadIccs { .. })),
                "{bad}"
            );
        }
    }
}
