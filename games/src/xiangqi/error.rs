//! Why a move, a FEN or a game action was refused: [`XiangqiError`].
//!
//! Messages are sentences a player can read; each variant maps to a stable wire code through
//! [`Coded`]. Whatever returns one of these has changed nothing.

use qipai_protocol::{ErrorCode, ErrorDetails};
use thiserror::Error;

use super::board::{Kind, Side, Square};
use crate::Coded;

/// A refused move, notation or position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum XiangqiError {
    // --- notation ---
    /// The move text is not four ICCS characters like `h2e2`.
    #[error("`{text}` is not a move in ICCS notation (like h2e2: file a–i, rank 0–9, twice).")]
    BadIccs { text: String },

    // --- FEN (one variant per problem) ---
    /// Fewer fields than board and side to move, or more than six.
    #[error("A FEN needs the board and the side to move (and at most six fields); found {found} field(s).")]
    FenFields { found: usize },
    /// The board field does not have ten ranks.
    #[error("The FEN board must have 10 ranks separated by `/`; found {found}.")]
    FenRanks { found: usize },
    /// A rank of the board field does not describe nine points.
    #[error("FEN rank {rank} describes {width} points instead of 9.")]
    FenRankWidth { rank: u8, width: usize },
    /// A character in the board field that is neither a piece letter nor a digit 1–9.
    #[error(
        "`{found}` in the FEN board is neither a piece letter (k a b n r c p) nor a digit 1–9."
    )]
    FenPiece { found: char },
    /// The side-to-move field is not `w`/`r` (Red) or `b` (Black).
    #[error("The FEN side to move must be `w` (Red) or `b` (Black), not `{found}`.")]
    FenSide { found: String },
    /// The castling or en-passant field is not `-` (xiangqi has neither).
    #[error("FEN field {field} must be `-` in xiangqi, not `{found}`.")]
    FenUnusedField { field: usize, found: String },
    /// The half-move clock or move number is not a number (or the move number is 0).
    #[error("FEN field {field} must be a number (the move number at least 1), not `{found}`.")]
    FenCounter { field: usize, found: String },
    /// A side has no king, or more than one.
    #[error("{side:?} must have exactly one king; the FEN has {count}.")]
    FenKings { side: Side, count: usize },
    /// A side has more pieces of one kind than the game starts with.
    #[error("{side:?} has {count} {kind}(s); a side has at most {max}.")]
    FenTooMany {
        side: Side,
        kind: Kind,
        count: usize,
        max: u8,
    },
    /// A piece stands where it could never get to (a king outside its palace, an elephant
    /// over the river, a pawn behind its starting rank…).
    #[error("No {side:?} {kind} can ever stand on {square}.")]
    FenUnreachable {
        side: Side,
        kind: Kind,
        square: Square,
    },
    /// The side that just moved is in check (or the kings face each other): no game can
    /// reach this position.
    #[error("The side that is not to move is in check (or the kings face each other); this position cannot arise.")]
    FenOpponentInCheck,

    // --- moves ---
    /// A move from a point to itself.
    #[error("A move must go to a different point than it starts from ({square}).")]
    NullMove { square: Square },
    /// No piece stands on the starting point.
    #[error("There is no piece on {from}.")]
    NoPiece { from: Square },
    /// The piece on the starting point is the opponent's.
    #[error("The piece on {from} is not yours.")]
    NotYourPiece { from: Square },
    /// The destination holds one of the mover's own pieces.
    #[error("You cannot capture your own piece on {to}.")]
    OwnPiece { to: Square },
    /// The destination is not where this kind of piece moves (第2条2.2).
    #[error("The {kind} on {from} cannot move to {to}.")]
    CannotMoveThere {
        kind: Kind,
        from: Square,
        to: Square,
    },
    /// 第2条2.2 蹩马腿: the point next to the horse in the direction it moves is taken.
    #[error("The horse's leg is blocked at {leg} (蹩马腿).")]
    HorseLegBlocked { leg: Square },
    /// 第2条2.2 塞象眼: the middle point of the elephant's move is taken.
    #[error("The elephant's eye is blocked at {eye} (塞象眼).")]
    ElephantEyeBlocked { eye: Square },
    /// 第2条2.2: an elephant never crosses the river.
    #[error("An elephant cannot cross the river.")]
    ElephantCrossesRiver,
    /// 第2条2.2: the king and the advisors never leave the palace.
    #[error("The {kind} cannot leave the palace.")]
    LeavesPalace { kind: Kind },
    /// 第2条2.2: a pawn moves sideways only after crossing the river.
    #[error("A pawn can move sideways only after crossing the river.")]
    PawnSidewaysBeforeRiver,
    /// 第2条2.2: a pawn never moves backward.
    #[error("A pawn never moves backward.")]
    PawnBackward,
    /// A rook or a cannon moving (not capturing) along a line with a piece in the way.
    #[error("The way is blocked at {at}.")]
    PathBlocked { at: Square },
    /// 第2条2.3 炮打隔子: a cannon captures only by jumping exactly one piece.
    #[error(
        "A cannon captures only by jumping over exactly one piece; there are {screens} between."
    )]
    CannonScreen { screens: u8 },
    /// 第3条3.1: the move leaves (or puts) the mover's king attacked.
    #[error("That move leaves your king in check.")]
    LeavesKingInCheck,
    /// 第2条2.2, 4.1.2: the two kings would face each other on an open file.
    #[error("The two kings would face each other on an open file.")]
    KingsFace,
    /// The game has ended; no more moves.
    #[error("The game is over.")]
    GameOver,
}

impl Coded for XiangqiError {
    fn code(&self) -> ErrorCode {
        match self {
            XiangqiError::BadIccs { .. }
            | XiangqiError::FenFields { .. }
            | XiangqiError::FenRanks { .. }
            | XiangqiError::FenRankWidth { .. }
            | XiangqiError::FenPiece { .. }
            | XiangqiError::FenSide { .. }
            | XiangqiError::FenUnusedField { .. }
            | XiangqiError::FenCounter { .. }
            | XiangqiError::FenKings { .. }
            | XiangqiError::FenTooMany { .. }
            | XiangqiError::FenUnreachable { .. }
            | XiangqiError::FenOpponentInCheck => ErrorCode::BadNotation,
            XiangqiError::GameOver => ErrorCode::GameOver,
            XiangqiError::NullMove { .. }
            | XiangqiError::NoPiece { .. }
            | XiangqiError::NotYourPiece { .. }
            | XiangqiError::OwnPiece { .. }
            | XiangqiError::CannotMoveThere { .. }
            | XiangqiError::HorseLegBlocked { .. }
            | XiangqiError::ElephantEyeBlocked { .. }
            | XiangqiError::ElephantCrossesRiver
            | XiangqiError::LeavesPalace { .. }
            | XiangqiError::PawnSidewaysBeforeRiver
            | XiangqiError::PawnBackward
            | XiangqiError::PathBlocked { .. }
            | XiangqiError::CannonScreen { .. }
            | XiangqiError::LeavesKingInCheck
            | XiangqiError::KingsFace => ErrorCode::IllegalMove,
        }
    }
}

impl XiangqiError {
    /// A refused move's details for a client: which rule (a stable key), its
    /// article in the rules page and the points concerned. `None` for notation and FEN
    /// problems, which the message names well enough for the developer who sent them.
    pub fn details(&self) -> Option<ErrorDetails> {
        use XiangqiError as E;
        let squares = |list: &[Square]| Some(list.iter().map(ToString::to_string).collect());
        let (reason, article, points) = match self {
            E::NullMove { square } => ("null_move", "", squares(&[*square])),
            E::NoPiece { from } => ("no_piece", "", squares(&[*from])),
            E::NotYourPiece { from } => ("not_your_piece", "", squares(&[*from])),
            E::OwnPiece { to } => ("own_piece", "2.2", squares(&[*to])),
            E::CannotMoveThere { from, to, .. } => {
                ("cannot_move_there", "2.2", squares(&[*from, *to]))
            }
            E::HorseLegBlocked { leg } => ("horse_leg_blocked", "2.2", squares(&[*leg])),
            E::ElephantEyeBlocked { eye } => ("elephant_eye_blocked", "2.2", squares(&[*eye])),
            E::ElephantCrossesRiver => ("elephant_crosses_river", "2.2", None),
            E::LeavesPalace { .. } => ("leaves_palace", "2.2", None),
            E::PawnSidewaysBeforeRiver => ("pawn_sideways_before_river", "2.2", None),
            E::PawnBackward => ("pawn_backward", "2.2", None),
            E::PathBlocked { at } => ("path_blocked", "2.2", squares(&[*at])),
            E::CannonScreen { .. } => ("cannon_screen", "2.3", None),
            E::LeavesKingInCheck => ("leaves_king_in_check", "3.1", None),
            E::KingsFace => ("kings_face", "4.1.2", None),
            E::GameOver => ("game_over", "", None),
            _ => return None,
        };
        Some(ErrorDetails {
            squares: points,
            ..ErrorDetails::rule(reason, article)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Notation problems are `bad_notation`, rule breaks `illegal_move`.
    #[test]
    fn errors_map_to_stable_codes() {
        let text = "z9".to_string();
        assert_eq!(
            XiangqiError::BadIccs { text }.code(),
            ErrorCode::BadNotation
        );
        assert_eq!(
            XiangqiError::FenOpponentInCheck.code(),
            ErrorCode::BadNotation
        );
        assert_eq!(XiangqiError::KingsFace.code(), ErrorCode::IllegalMove);
        assert_eq!(XiangqiError::GameOver.code(), ErrorCode::GameOver);
    }

    /// Illegal moves carry a reason key and the rules' article for the page.
    #[test]
    fn illegal_moves_carry_reason_and_article() {
        let d = XiangqiError::KingsFace.details().unwrap();
        assert_eq!(d.reason.as_deref(), Some("kings_face"));
        assert_eq!(d.article.as_deref(), Some("4.1.2"));
        let d = XiangqiError::LeavesKingInCheck.details().unwrap();
        assert_eq!(d.reason.as_deref(), Some("leaves_king_in_check"));
        let leg = XiangqiError::HorseLegBlocked {
            leg: Square::parse("c0").unwrap(),
        };
        assert_eq!(leg.details().unwrap().squares, Some(vec!["c0".to_owned()]));
        assert!(XiangqiError::FenOpponentInCheck.details().is_none());
    }

    /// Messages are sentences a player reads.
    #[test]
    fn messages_read_as_sentences() {
        let sq = |s| Square::parse(s).unwrap();
        let cannot = XiangqiError::CannotMoveThere {
            kind: Kind::Rook,
            from: sq("a0"),
            to: sq("b1"),
        };
        assert_eq!(cannot.to_string(), "The rook on a0 cannot move to b1.");
        let too_many = XiangqiError::FenTooMany {
            side: Side::Red,
            kind: Kind::Cannon,
            count: 3,
            max: 2,
        };
        assert_eq!(
            too_many.to_string(),
            "Red has 3 cannon(s); a side has at most 2."
        );
        let leg = XiangqiError::HorseLegBlocked { leg: sq("c0") };
        assert_eq!(
            leg.to_string(),
            "The horse's leg is blocked at c0 (蹩马腿)."
        );
    }
}
