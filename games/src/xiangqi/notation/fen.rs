//! FEN in the de-facto xiangqi dialect (Fairy-Stockfish, pychess, xqbase):
//!
//! ```text
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
//! ```
//!
//! Ten ranks from Black's back rank (9) down to Red's (0), files `a`–`i` left to right,
//! uppercase Red, lowercase Black, letters `k a b n r c p` (`h`/`e` read as horse/elephant);
//! then the side to move (`w` or `r` Red, `b` Black), two unused fields (`-`), the plies since
//! the last capture and the move number. Only board and side are required; missing counters
//! read as `0 1`. Output always has all six fields with `w`/`b`.

use super::super::board::{Board, Kind, Piece, Side, Square, FILES, RANKS};
use super::super::error::XiangqiError;
use super::super::position::Position;

/// Each board code's FEN letter ([`Piece::fen_letter`]), 0 for an empty point.
const LETTERS: [u8; 16] = {
    let mut letters = [0u8; 16];
    let mut code = 0;
    while code < letters.len() {
        if let Some(piece) = Piece::from_code(code as u8) {
            letters[code] = piece.fen_letter() as u8;
        }
        code += 1;
    }
    letters
};

/// Parses a FEN into a position checked by [`Position::new`].
///
/// # Errors
/// One `Fen…` variant of [`XiangqiError`] per problem: field count, rank count, rank width,
/// unknown letter, side, unused fields, counters, then [`Position::new`]'s checks.
pub fn parse(text: &str) -> Result<Position, XiangqiError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(2..=6).contains(&fields.len()) {
        return Err(XiangqiError::FenFields {
            found: fields.len(),
        });
    }
    let board = parse_board(fields.first().copied().unwrap_or_default())?;
    let side = match fields.get(1).copied().unwrap_or_default() {
        "w" | "r" | "W" | "R" => Side::Red,
        "b" | "B" => Side::Black,
        other => {
            return Err(XiangqiError::FenSide {
                found: other.chars().take(8).collect(),
            })
        }
    };
    for (index, field) in fields.iter().enumerate().take(4).skip(2) {
        if *field != "-" {
            return Err(XiangqiError::FenUnusedField {
                field: index + 1,
                found: field.chars().take(8).collect(),
            });
        }
    }
    let counter = |index: usize, default: u32, min: u32| match fields.get(index) {
        None => Ok(default),
        Some(field) => field
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= min)
            .ok_or_else(|| XiangqiError::FenCounter {
                field: index + 1,
                found: field.chars().take(8).collect(),
            }),
    };
    let halfmoves = counter(4, 0, 0)?;
    let fullmoves = counter(5, 1, 1)?;
    Position::new(board, side, halfmoves, fullmoves)
}

/// Parses the board field.
fn parse_board(field: &str) -> Result<Board, XiangqiError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != usize::from(RANKS) {
        return Err(XiangqiError::FenRanks { found: ranks.len() });
    }
    let mut board = Board::empty();
    for (row, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - row as u8;
        let mut cells: Vec<Option<Piece>> = Vec::with_capacity(usize::from(FILES));
        for ch in text.chars() {
            match ch {
                '1'..='9' => {
                    let run = ch as usize - '0' as usize;
                    cells.extend(std::iter::repeat_n(None, run));
                }
                _ => {
                    let kind = Kind::from_letter(ch).ok_or(XiangqiError::FenPiece { found: ch })?;
                    let side = if ch.is_ascii_uppercase() {
                        Side::Red
                    } else {
                        Side::Black
                    };
                    cells.push(Some(Piece::new(side, kind)));
                }
            }
            if cells.len() > usize::from(FILES) {
                break;
            }
        }
        if cells.len() != usize::from(FILES) {
            let width = text
                .chars()
                .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
                .sum();
            return Err(XiangqiError::FenRankWidth { rank, width });
        }
        for (file, piece) in (0..FILES).zip(cells) {
            if let Some(square) = Square::new(file, rank) {
                board.set(square, piece);
            }
        }
    }
    Ok(board)
}

/// Writes a position as FEN (all six fields).
pub fn write(position: &Position) -> String {
    let mut out = Vec::with_capacity(96);
    // The cells rank by rank, Red's back rank first: FEN starts from Black's.
    for (i, rank) in position
        .board
        .cells
        .chunks_exact(usize::from(FILES))
        .rev()
        .enumerate()
    {
        if i > 0 {
            out.push(b'/');
        }
        let mut empty = 0;
        for &cell in rank {
            match LETTERS[usize::from(cell & 15)] {
                0 => empty += 1,
                letter => {
                    if empty > 0 {
                        out.push(b'0' + empty);
                        empty = 0;
                    }
                    out.push(letter);
                }
            }
        }
        if empty > 0 {
            out.push(b'0' + empty);
        }
    }
    out.extend_from_slice(match position.side_to_move() {
        Side::Red => b" w - - ",
        Side::Black => b" b - - ",
    });
    out.extend_from_slice(itoa::Buffer::new().format(position.halfmoves()).as_bytes());
    out.push(b' ');
    out.extend_from_slice(itoa::Buffer::new().format(position.fullmoves()).as_bytes());
    // Only ASCII was written.
    String::from_utf8(out).unwrap_or_default()
}
