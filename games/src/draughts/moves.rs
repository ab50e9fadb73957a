//! A move ([`Move`]) and the numeric notation: `32-28` for a move, `28x19x8` for a capture
//! listing every landing square (rules page, "Board and notation").

use std::fmt;

use super::board::{squares, Square};
use super::error::DraughtsError;

/// The most pieces one capture can take: the opponent has at most 20.
pub const MAX_CAPTURES: usize = 20;

/// A move: the piece on `from` goes through the landing squares of `path` and ends on the
/// last; `captured` holds the bits of the pieces it jumps (removed only at the end, 6.11).
///
/// A plain move has one landing square and nothing captured. Two captures with the same
/// `from`, `to` and captured set are the same move even when a flying king took them by
/// different routes (rules page, "Verification").
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    len: u8,
    path: [u8; MAX_CAPTURES],
    captured: u64,
}

impl Move {
    /// A move from `from` to `to` capturing nothing.
    pub fn quiet(from: Square, to: Square) -> Move {
        let mut path = [0; MAX_CAPTURES];
        path[0] = to.number();
        Move {
            from,
            len: 1,
            path,
            captured: 0,
        }
    }

    /// A capture from `from` through the landing squares `landings` (at least one, at most
    /// [`MAX_CAPTURES`]), taking the pieces in `captured`.
    pub(crate) fn capture(from: Square, landings: &[u8], captured: u64) -> Move {
        let mut path = [0; MAX_CAPTURES];
        let len = landings.len().min(MAX_CAPTURES);
        path[..len].copy_from_slice(&landings[..len]);
        Move {
            from,
            len: len as u8,
            path,
            captured,
        }
    }

    /// Where the piece starts.
    pub const fn from(&self) -> Square {
        self.from
    }

    /// Where the piece ends.
    pub fn to(&self) -> Square {
        self.path
            .get((self.len as usize).wrapping_sub(1))
            .and_then(|&n| Square::new(n))
            .unwrap_or(self.from)
    }

    /// Every square the piece lands on, the last one included.
    pub fn landings(&self) -> impl DoubleEndedIterator<Item = Square> + '_ {
        self.path[..self.len as usize]
            .iter()
            .filter_map(|&n| Square::new(n))
    }

    /// The bits of the captured pieces.
    pub const fn captured_bits(&self) -> u64 {
        self.captured
    }

    /// The captured squares, lowest first.
    pub fn captured(&self) -> impl Iterator<Item = Square> {
        squares(self.captured)
    }

    /// How many pieces the move captures.
    pub const fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// Whether the move captures.
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The same move for the rules: same start, end and captured pieces.
    pub fn same_as(&self, other: &Move) -> bool {
        self.from == other.from && self.to() == other.to() && self.captured == other.captured
    }
}

impl fmt::Display for Move {
    /// `32-28`, or `28x19x8` with every landing square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        let sep = if self.is_capture() { 'x' } else { '-' };
        for square in self.landings() {
            write!(f, "{sep}{square}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move as written, before it is matched against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub from: Square,
    /// The landing squares written after `from` (one for `32-28`, one or more for captures).
    pub landings: Vec<Square>,
    /// Written with `x`.
    pub capture: bool,
}

impl MoveText {
    /// Reads `32-28` or `28x19x8` (squares 1–50; at most 21 squares).
    ///
    /// # Errors
    /// [`DraughtsError::BadNotation`] for anything else.
    pub fn parse(text: &str) -> Result<MoveText, DraughtsError> {
        let bad = || DraughtsError::BadNotation {
            text: text.chars().take(64).collect(),
        };
        let capture = text.contains('x') || text.contains('X');
        let quiet = text.contains('-');
        if capture == quiet || text.len() > 3 * (MAX_CAPTURES + 1) + MAX_CAPTURES {
            return Err(bad());
        }
        let mut numbers = text.split(['x', 'X', '-']).map(|part| {
            part.parse::<u8>()
                .ok()
                .filter(|_| {
                    (1..=2).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit())
                })
                .and_then(Square::new)
        });
        let from = numbers.next().flatten().ok_or_else(bad)?;
        let landings = numbers.collect::<Option<Vec<Square>>>().ok_or_else(bad)?;
        if landings.is_empty() || (!capture && landings.len() != 1) || landings.len() > MAX_CAPTURES
        {
            return Err(bad());
        }
        Ok(MoveText {
            from,
            landings,
            capture,
        })
    }

    /// Whether `mv` is written exactly this way.
    pub fn spells(&self, mv: &Move) -> bool {
        mv.from() == self.from
            && mv.is_capture() == self.capture
            && mv.landings().eq(self.landings.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn notation_round_trips() {
        let mv = Move::quiet(sq(32), sq(28));
        assert_eq!(mv.to_string(), "32-28");
        let cap = Move::capture(sq(28), &[19, 8], sq(23).bit() | sq(13).bit());
        assert_eq!(cap.to_string(), "28x19x8");
        let text = MoveText::parse("28x19x8").unwrap();
        assert!(text.spells(&cap));
        assert!(!text.spells(&mv));
    }

    #[test]
    fn bad_notation_is_refused() {
        for text in [
            "", "32", "32-", "-28", "32-28-23", "0-5", "32-51", "32x", "3x2-1", "a-b", "+1-2",
            "32–28", "0032-28",
        ] {
            assert!(MoveText::parse(text).is_err(), "{text}");
        }
    }
}
