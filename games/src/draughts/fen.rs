//! Positions as FEN in the PDN dialect: `W:W31,32,K33:B1-20` (side to move, then each
//! side's squares, kings prefixed `K`, ranges `a-b` accepted on input).

use super::board::{squares, Board, Kind, Side, Square};
use super::error::DraughtsError;
use super::position::Position;

/// The most pieces a side can have.
const MAX_PIECES: u32 = 20;

impl Position {
    /// Reads a PDN FEN. Each side's field may be missing or empty (no pieces); a trailing
    /// `.` is ignored.
    ///
    /// # Errors
    /// [`DraughtsError::BadFen`] naming what is wrong.
    pub fn from_fen(text: &str) -> Result<Position, DraughtsError> {
        let bad = |why: &'static str| DraughtsError::BadFen { why };
        let text = text.trim().trim_end_matches('.');
        let mut fields = text.split(':');
        let side = match fields.next().map(str::trim) {
            Some("W") | Some("w") => Side::White,
            Some("B") | Some("b") => Side::Black,
            _ => return Err(bad("the first field must be W or B (the side to move)")),
        };
        let mut board = Board::default();
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let (owner, list) = match field.split_at_checked(1) {
                Some(("W", rest)) | Some(("w", rest)) => (Side::White, rest),
                Some(("B", rest)) | Some(("b", rest)) => (Side::Black, rest),
                _ => return Err(bad("each piece field must start with W or B")),
            };
            if std::mem::replace(&mut seen[owner.index()], true) {
                return Err(bad("a side's pieces are listed twice"));
            }
            for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (kind, item) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (Kind::King, rest),
                    None => (Kind::Man, item),
                };
                let (first, last) = match item.split_once('-') {
                    Some((a, b)) => (number(a)?, number(b)?),
                    None => (number(item)?, number(item)?),
                };
                if first > last {
                    return Err(bad("a range runs backwards"));
                }
                for n in first.number()..=last.number() {
                    let square = Square::new(n).ok_or(bad("a square is not 1–50"))?;
                    if board.piece(square).is_some() {
                        return Err(bad("a square holds two pieces"));
                    }
                    board.put(square, owner, kind);
                }
            }
        }
        if board.white.count_ones() > MAX_PIECES || board.black.count_ones() > MAX_PIECES {
            return Err(bad("a side has more than 20 pieces"));
        }
        Ok(Position::new(board, side))
    }

    /// The position as PDN FEN, squares in ascending order, kings prefixed `K`.
    pub fn to_fen(&self) -> String {
        let board = self.board();
        let list = |bits: u64| {
            squares(bits)
                .map(|s| {
                    if board.kings & s.bit() != 0 {
                        format!("K{s}")
                    } else {
                        s.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = match self.side_to_move() {
            Side::White => 'W',
            Side::Black => 'B',
        };
        format!("{side}:W{}:B{}", list(board.white), list(board.black))
    }
}

fn number(text: &str) -> Result<Square, DraughtsError> {
    let bad = DraughtsError::BadFen {
        why: "a square is not a number 1–50",
    };
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad);
    }
    text.parse::<u8>().ok().and_then(Square::new).ok_or(bad)
}

#[cfg(test)]
mod tests {
    use super::super::position::START_FEN;
    use super::*;

    #[test]
    fn start_round_trips() {
        let start = Position::from_fen(START_FEN).unwrap();
        assert_eq!(start, Position::start());
        assert_eq!(start.to_fen(), START_FEN);
        assert_eq!(Position::from_fen("W:W31-50:B1-20").unwrap(), start);
    }

    #[test]
    fn kings_and_empty_sides() {
        let p = Position::from_fen("B:WK5,28:B").unwrap();
        assert_eq!(p.to_fen(), "B:WK5,28:B");
        for bad in [
            "", "X:W1", "W:W51", "W:W1,1", "W:W1:B1", "W:W5-1", "W:Q1", "W:W1:W2",
        ] {
            assert!(Position::from_fen(bad).is_err(), "{bad}");
        }
    }
}
