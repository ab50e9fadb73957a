//! Draughts as a client sees it: actions, the per-viewer view and events. They live here
//! until the game registry moves every game's wire types to `protocol`; all are serde maps
//! tagged with `type` like the protocol's xiangqi types.

use serde::{Deserialize, Serialize};

use super::board::Side;
use super::end::EndReason;

/// What a seated draughts player may do.
///
/// # Format
/// ```text
/// {"type": "move", "notation": "32-28"}      {"type": "move", "notation": "28x19x8"}
/// {"type": "resign"}
/// {"type": "offer_draw"}   {"type": "accept_draw"}   {"type": "decline_draw"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DraughtsAction {
    /// A move in numeric notation; a capture lists every landing square.
    Move {
        notation: String,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

/// Both clocks, as of `server_time`. The running side's time keeps falling from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub white_ms: u64,
    pub black_ms: u64,
    /// The side whose time is running, if any.
    pub running: Option<Side>,
    pub server_time: u64,
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Waiting for both seats.
    Waiting,
    /// On; the side to move must move.
    Playing,
    /// Ended with a result.
    Over,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// `None` for a draw or an aborted game.
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// What the side to move may do: its legal moves and the pieces that must capture.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToMove {
    /// The legal moves in notation (empty unless playing). A flying king's capture reached
    /// by several routes is listed once; any route is accepted.
    pub legal_moves: Vec<String>,
    /// 6.1: the squares of the pieces that must capture (empty when no capture is due), so a
    /// page can mark them.
    pub must_capture: Vec<u8>,
}

/// Everything one viewer sees of a draughts game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DraughtsView {
    pub status: Status,
    /// The position in PDN FEN (`W:W31,…:B1,…`).
    pub fen: String,
    pub side_to_move: Side,
    #[serde(flatten)]
    pub to_move: ToMove,
    pub last_move: Option<String>,
    /// Every move so far, in notation.
    pub moves: Vec<String>,
    pub clocks: Clocks,
    /// The time control in its text form (`"30+10"`).
    pub time_control: String,
    /// When the side to move must make its first move or the game is aborted.
    pub first_move_deadline: Option<u64>,
    /// The side whose draw offer is standing.
    pub draw_offer: Option<Side>,
    pub result: Option<GameResult>,
}

/// What happened in a draughts game. Each carries what changed, so [`fold`](super::fold)
/// turns a view and an event into the next view without a snapshot.
///
/// # Format
/// ```text
/// {"type": "moved", "side": "white", "notation": "32-28", "fen": "B:W28,…", "legal_moves": [...], ...}
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DraughtsEvent {
    /// Both seats are filled: the game is on.
    Started {
        fen: String,
        side_to_move: Side,
        #[serde(flatten)]
        to_move: ToMove,
        clocks: Clocks,
        first_move_deadline: Option<u64>,
    },
    /// A move was played.
    Moved {
        side: Side,
        notation: String,
        fen: String,
        /// What the next side may do.
        #[serde(flatten)]
        to_move: ToMove,
        clocks: Clocks,
        first_move_deadline: Option<u64>,
        /// The draw offer standing after the move (moving declines the opponent's).
        draw_offer: Option<Side>,
    },
    DrawOffered {
        by: Side,
        clocks: Clocks,
    },
    DrawDeclined {
        by: Side,
        clocks: Clocks,
    },
    /// The game ended.
    Over {
        result: GameResult,
        clocks: Clocks,
    },
}
