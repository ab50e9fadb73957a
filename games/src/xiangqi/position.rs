//! A position: the board, the side to move and the two FEN counters; legal moves, check,
//! playing a move (checked, or unchecked with undo for search and perft).

use std::fmt;

use super::board::{Board, Kind, Piece, Side, Square};
use super::error::XiangqiError;
use super::illegal;
use super::movegen::{self, KING};
use super::moves::{Move, MoveList};
use super::notation::fen;

/// The start position (第1条1.3) in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A legal arrangement with a side to move. Only positions that could arise in a game
/// (checked by [`Position::new`]) exist, so move generation never meets, say, a third rook.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) side: Side,
    /// Each side's king point (Red's first), kept so the check test starts there at once.
    pub(crate) kings: [u8; 2],
    /// Plies since the last capture (FEN field 5).
    pub(crate) halfmoves: u32,
    /// The move number, 1 at the start, +1 after each Black move (FEN field 6).
    pub(crate) fullmoves: u32,
}

/// What [`Position::make`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmoves: u32,
}

impl Undo {
    /// The piece the move captured.
    pub fn captured(self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

impl Position {
    /// The start position (第1条1.3), Red to move.
    pub fn start() -> Position {
        let mut board = Board::empty();
        let back = [
            Kind::Rook,
            Kind::Horse,
            Kind::Elephant,
            Kind::Advisor,
            Kind::King,
            Kind::Advisor,
            Kind::Elephant,
            Kind::Horse,
            Kind::Rook,
        ];
        let mut put = |file: u8, rank: u8, side, kind| {
            if let Some(sq) = Square::new(file, rank) {
                board.set(sq, Some(Piece::new(side, kind)));
            }
        };
        for (file, kind) in (0..9).zip(back) {
            put(file, 0, Side::Red, kind);
            put(file, 9, Side::Black, kind);
        }
        for file in [1, 7] {
            put(file, 2, Side::Red, Kind::Cannon);
            put(file, 7, Side::Black, Kind::Cannon);
        }
        for file in [0, 2, 4, 6, 8] {
            put(file, 3, Side::Red, Kind::Pawn);
            put(file, 6, Side::Black, Kind::Pawn);
        }
        Position {
            board,
            side: Side::Red,
            kings: [4, 85],
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// A position from an arrangement, after checking it could arise in a game: one king a
    /// side, no more pieces of a kind than a side starts with, every piece on a point it can
    /// reach (第2条2.2: kings and advisors in the palace, elephants on their seven points,
    /// pawns never behind their start), and the side not to move not in check.
    ///
    /// # Errors
    /// [`XiangqiError::FenKings`], [`XiangqiError::FenTooMany`],
    /// [`XiangqiError::FenUnreachable`], [`XiangqiError::FenOpponentInCheck`].
    pub fn new(
        board: Board,
        side: Side,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Result<Position, XiangqiError> {
        let mut kings = [0u8; 2];
        for s in [Side::Red, Side::Black] {
            for kind in Kind::ALL {
                let count = board.count(Piece::new(s, kind));
                if kind == Kind::King && count != 1 {
                    return Err(XiangqiError::FenKings { side: s, count });
                }
                let max = kind.start_count();
                if count > usize::from(max) {
                    return Err(XiangqiError::FenTooMany {
                        side: s,
                        kind,
                        count,
                        max,
                    });
                }
            }
        }
        for (square, piece) in board.pieces() {
            if !reachable(piece, square) {
                return Err(XiangqiError::FenUnreachable {
                    side: piece.side,
                    kind: piece.kind,
                    square,
                });
            }
            if piece.kind == Kind::King {
                kings[piece.side.index()] = square.index() as u8;
            }
        }
        let position = Position {
            board,
            side,
            kings,
            halfmoves,
            fullmoves: fullmoves.max(1),
        };
        if position.attacked_king(side.opponent()) {
            return Err(XiangqiError::FenOpponentInCheck);
        }
        Ok(position)
    }

    /// Parses a FEN (see [`notation::fen`](super::notation::fen)).
    ///
    /// # Errors
    /// One `Fen…` variant of [`XiangqiError`] per problem.
    pub fn from_fen(text: &str) -> Result<Position, XiangqiError> {
        fen::parse(text)
    }

    /// The FEN of this position.
    pub fn to_fen(&self) -> String {
        fen::write(self)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// What stands on `square`.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board.get(square)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// `side`'s king point.
    pub fn king(&self, side: Side) -> Square {
        Square::from_index_unchecked(self.kings[side.index()])
    }

    /// Plies since the last capture (FEN's half-move clock).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (FEN's last field).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether `side`'s king is attacked (kings facing counts).
    fn attacked_king(&self, side: Side) -> bool {
        let king = self.kings[side.index()] as usize;
        movegen::attacked(&self.board.cells, king, side.opponent())
    }

    /// 第3条3.1: whether the side to move is in check (将军).
    pub fn in_check(&self) -> bool {
        self.attacked_king(self.side)
    }

    /// Every legal move of the side to move, in a stack list.
    pub fn legal_move_list(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::candidates(&self.board.cells, self.side, &mut list);
        let mut cells = self.board.cells;
        let king = self.kings[self.side.index()] as usize;
        movegen::keep_legal(&mut cells, self.side, king, &mut list);
        list
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.legal_move_list().to_vec()
    }

    /// Whether the side to move has any legal move (第3条3.2: none is 困毙).
    pub fn has_legal_move(&self) -> bool {
        !self.legal_move_list().is_empty()
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Checks `mv` against the rules without playing it.
    ///
    /// # Errors
    /// The reason the move is illegal, as [`Position::play`] gives it.
    pub fn check_move(&self, mv: Move) -> Result<(), XiangqiError> {
        illegal::check_movement(&self.board, self.side, mv)?;
        let mut cells = self.board.cells;
        let (from, to) = (mv.from.index(), mv.to.index());
        cells[to] = cells[from];
        cells[from] = 0;
        let mut kings = self.kings;
        if cells[to] & 7 == KING {
            kings[self.side.index()] = to as u8;
        }
        let own = kings[self.side.index()] as usize;
        if movegen::attacked(&cells, own, self.side.opponent()) {
            let other = kings[self.side.opponent().index()] as usize;
            return Err(if movegen::kings_face(&cells, own, other) {
                XiangqiError::KingsFace
            } else {
                XiangqiError::LeavesKingInCheck
            });
        }
        Ok(())
    }

    /// Plays `mv` if it is legal and returns the captured piece.
    ///
    /// # Errors
    /// Why the move is illegal (no piece there, not your piece, that piece cannot move
    /// there, a blocked horse leg or elephant eye, over the river, out of the palace, leaves
    /// the king in check, the kings would face). The position is unchanged then.
    pub fn play(&mut self, mv: Move) -> Result<Option<Piece>, XiangqiError> {
        self.check_move(mv)?;
        Ok(self.make(mv).captured())
    }

    /// The position after `mv`, this one untouched.
    ///
    /// # Errors
    /// As [`Position::play`].
    pub fn after(&self, mv: Move) -> Result<Position, XiangqiError> {
        let mut next = self.clone();
        next.play(mv)?;
        Ok(next)
    }

    /// Plays `mv` without checking it: the fast path for search and perft. `mv` must be one
    /// of [`Position::legal_move_list`]; anything else leaves a position the rules do not
    /// allow (but nothing panics). Take it back with [`Position::unmake`].
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from.index(), mv.to.index());
        let cells = &mut self.board.cells;
        let undo = Undo {
            captured: cells[to],
            halfmoves: self.halfmoves,
        };
        let moving = cells[from];
        cells[to] = moving;
        cells[from] = 0;
        if moving & 7 == KING {
            self.kings[self.side.index()] = to as u8;
        }
        self.halfmoves = if undo.captured != 0 {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if self.side == Side::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.side = self.side.opponent();
        undo
    }

    /// Takes back `mv`, which [`Position::make`] played and returned `undo` for.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.side = self.side.opponent();
        if self.side == Side::Black {
            self.fullmoves = self.fullmoves.saturating_sub(1);
        }
        self.halfmoves = undo.halfmoves;
        let (from, to) = (mv.from.index(), mv.to.index());
        let cells = &mut self.board.cells;
        let moving = cells[to];
        cells[from] = moving;
        cells[to] = undo.captured;
        if moving & 7 == KING {
            self.kings[self.side.index()] = from as u8;
        }
    }

    /// Counts the leaf nodes of the legal move tree `depth` plies deep (perft), counting the
    /// last ply's moves without playing them.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_move_list();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut nodes = 0;
        for &mv in &moves {
            let undo = self.make(mv);
            nodes += self.perft(depth - 1);
            self.unmake(mv, undo);
        }
        nodes
    }

    /// Whether neither side has a rook, horse, cannon or pawn left (4.2.1 as the rules page
    /// reads it: nobody can win with kings, advisors and elephants only).
    pub fn is_dead(&self) -> bool {
        self.board.cells.iter().all(|&c| {
            let kind = c & 7;
            c == 0 || kind == KING || kind == movegen::ADVISOR || kind == movegen::ELEPHANT
        })
    }
}

/// Whether `piece` can ever stand on `square` (第2条2.2).
fn reachable(piece: Piece, square: Square) -> bool {
    let side = piece.side;
    let (file, rank) = (square.file(), square.rank());
    // Ranks counted from the piece's own back rank.
    let own_rank = match side {
        Side::Red => rank,
        Side::Black => 9 - rank,
    };
    match piece.kind {
        Kind::King => square.in_palace(side),
        Kind::Advisor => square.in_palace(side) && (file + own_rank) % 2 == 1,
        Kind::Elephant => {
            square.on_own_half(side) && matches!((file, own_rank), (2 | 6, 0 | 4) | (0 | 4 | 8, 2))
        }
        Kind::Pawn => own_rank >= 5 || (own_rank >= 3 && file % 2 == 0),
        Kind::Horse | Kind::Rook | Kind::Cannon => true,
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

/// The FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests;
