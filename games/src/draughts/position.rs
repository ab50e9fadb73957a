//! [`Position`]: the board and the side to move; legal moves, playing a move, perft.

use super::board::{forward, promotion_row, Board, Kind, Side, Square};
use super::error::DraughtsError;
use super::movegen::{self, Keep};
use super::moves::{Move, MoveText};

/// The start position in PDN FEN.
pub const START_FEN: &str = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20";

/// A board and the side to move. Small and `Copy`: searches copy it instead of undoing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    side: Side,
}

impl Position {
    /// The usual start, White to move.
    pub fn start() -> Position {
        Position {
            board: Board::start(),
            side: Side::White,
        }
    }

    /// `board` with `side` to move.
    pub const fn new(board: Board, side: Side) -> Position {
        Position { board, side }
    }

    /// The pieces.
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Whose move it is.
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The legal moves into `out` (cleared first): the captures that take the most pieces
    /// when there is a capture (6.1, 6.12), else the plain moves. A flying king's capture
    /// reached by several routes appears once.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        movegen::captures(&self.board, self.side, Keep::Majority, out);
        if out.is_empty() {
            movegen::quiet_moves(&self.board, self.side, out);
        } else {
            movegen::dedup_routes(out);
        }
    }

    /// The legal moves (see [`Position::legal_moves_into`]).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(32);
        self.legal_moves_into(&mut out);
        out
    }

    /// Why this position cannot arise in a game from the usual start, if it cannot
    /// (checked for a table's `start_fen`, which must be a position one could reach):
    /// - a man on its own promotion row: a man that ends a move there is crowned (6.14), and
    ///   a man only moves forward, so none can stand there otherwise;
    /// - a side with no pieces: the game ended when its last piece was taken (or, to move,
    ///   it has no move and has lost).
    ///
    /// A side of more than 20 pieces is refused by [`Position::from_fen`] already.
    pub fn cannot_arise(&self) -> Option<&'static str> {
        let board = &self.board;
        let men = |side: Side| board.side(side) & !board.kings;
        if men(Side::White) & promotion_row(Side::White) != 0 {
            return Some("a white man stands on its promotion row (1–5): it would be a king");
        }
        if men(Side::Black) & promotion_row(Side::Black) != 0 {
            return Some("a black man stands on its promotion row (46–50): it would be a king");
        }
        if board.white == 0 {
            return Some("White has no pieces: the game would be over");
        }
        if board.black == 0 {
            return Some("Black has no pieces: the game would be over");
        }
        None
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        let mut out = Vec::new();
        movegen::captures(&self.board, self.side, Keep::Majority, &mut out);
        !out.is_empty()
    }

    /// Plays `mv`, assumed legal: captured pieces come off at the end (6.11) and a man ending
    /// on the far row becomes a king (6.14).
    pub fn make(&mut self, mv: &Move) {
        let from = mv.from().bit();
        let to = mv.to().bit();
        let is_king = self.board.kings & from != 0;
        let captured = mv.captured_bits();
        let (own, enemy) = match self.side {
            Side::White => (&mut self.board.white, &mut self.board.black),
            Side::Black => (&mut self.board.black, &mut self.board.white),
        };
        *own = (*own & !from) | to;
        *enemy &= !captured;
        self.board.kings &= !(captured | from);
        if is_king || to & promotion_row(self.side) != 0 {
            self.board.kings |= to;
        }
        self.side = self.side.opponent();
    }

    /// The position after `mv`, assumed legal.
    pub fn after(&self, mv: &Move) -> Position {
        let mut next = *self;
        next.make(mv);
        next
    }

    /// The legal move written as `text` (`32-28`, `28x19x8`): every landing square must be
    /// given, though any of a flying king's routes to the same capture is accepted.
    ///
    /// # Errors
    /// [`DraughtsError::BadNotation`] for text that is not notation, and otherwise the rule
    /// the move breaks (see [`DraughtsError`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, DraughtsError> {
        let written = MoveText::parse(text)?;
        self.find_move(&written)
    }

    /// The legal move `written` names, or why there is none.
    ///
    /// # Errors
    /// See [`Position::parse_move`].
    pub fn find_move(&self, written: &MoveText) -> Result<Move, DraughtsError> {
        let from = written.from;
        match self.board.piece(from) {
            Some((side, _)) if side == self.side => {}
            _ => return Err(DraughtsError::NoOwnPiece { square: from }),
        }
        let mut legal = Vec::new();
        movegen::captures(&self.board, self.side, Keep::Majority, &mut legal);
        if let Some(best) = legal.first().map(Move::capture_count) {
            if !written.capture {
                return Err(DraughtsError::CaptureRequired { pieces: best });
            }
            if let Some(mv) = legal.iter().find(|m| written.spells(m)) {
                return Ok(*mv);
            }
            return Err(self.explain_capture(written, best));
        }
        if written.capture {
            return Err(DraughtsError::NothingToCapture);
        }
        movegen::quiet_moves(&self.board, self.side, &mut legal);
        if let Some(mv) = legal.iter().find(|m| written.spells(m)) {
            return Ok(*mv);
        }
        let to = written.landings.first().copied().unwrap_or(from);
        let man = self.board.kings & from.bit() == 0;
        let backward = forward(self.side.opponent())
            .iter()
            .any(|&step| super::board::shift(from.bit(), step) == to.bit());
        if man && backward && self.board.piece(to).is_none() {
            return Err(DraughtsError::ManBackward { from, to });
        }
        Err(DraughtsError::NotAMove {
            from,
            to,
            kind: if man { Kind::Man } else { Kind::King },
        })
    }

    /// Why the capture `written` is not one of the legal ones, which take `best` pieces.
    fn explain_capture(&self, written: &MoveText, best: u32) -> DraughtsError {
        let mut all = Vec::new();
        movegen::captures(&self.board, self.side, Keep::All, &mut all);
        if let Some(short) = all.iter().find(|m| written.spells(m)) {
            return DraughtsError::MajorityCapture {
                taken: short.capture_count(),
                required: best,
            };
        }
        let stopped = all.iter().any(|m| {
            m.from() == written.from
                && m.landings().count() > written.landings.len()
                && m.landings().zip(&written.landings).all(|(a, b)| a == *b)
        });
        if stopped {
            let at = written.landings.last().copied().unwrap_or(written.from);
            return DraughtsError::CaptureIncomplete { at };
        }
        DraughtsError::NotACapture {
            text: written_text(written),
        }
    }

    /// Counts the leaves of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|mv| self.after(mv).perft(depth - 1)).sum()
    }

    /// How many men and kings each side has: `[white men, white kings, black men, black kings]`.
    pub fn material(&self) -> [u32; 4] {
        let b = &self.board;
        [
            (b.white & !b.kings).count_ones(),
            (b.white & b.kings).count_ones(),
            (b.black & !b.kings).count_ones(),
            (b.black & b.kings).count_ones(),
        ]
    }

    /// The piece on `square`.
    pub fn piece(&self, square: Square) -> Option<(Side, Kind)> {
        self.board.piece(square)
    }
}

fn written_text(written: &MoveText) -> String {
    let sep = if written.capture { "x" } else { "-" };
    let mut text = written.from.to_string();
    for square in &written.landings {
        text.push_str(sep);
        text.push_str(&square.to_string());
    }
    text
}
