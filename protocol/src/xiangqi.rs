//! Xiangqi on the wire: room options, actions, the per-viewer view and events.
//!
//! Moves are ICCS coordinates (`h2e2`: files `a`–`i` from Red's left, ranks `0`–`9` from
//! Red's side); positions are FEN in the xiangqi dialect; the move list also carries Chinese
//! notation (炮二平五).

use serde::{Deserialize, Serialize};

/// A side: Red moves first and sits at seat 0, Black at seat 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Red,
    Black,
}

/// A xiangqi room's options. Every field may be left out for the server's default
/// (`config/default.toml`, section `[xiangqi]`).
///
/// # Format
/// ```text
/// {"game": "xiangqi", "time_control": "30+10", "natural_limit_moves": 60}
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct XiangqiOptions {
    /// `"30+10"` (minutes + seconds increment), `"40/90,10/15"` (moves/minutes periods,
    /// the last repeating) or `"sd:5"` (sudden death, minutes).
    #[serde(default)]
    pub time_control: Option<String>,
    /// Draw after this many full moves with no capture (4.2.4).
    #[serde(default)]
    pub natural_limit_moves: Option<u32>,
    /// Whether checking moves count toward the natural limit.
    #[serde(default)]
    pub natural_limit_counts_checks: Option<bool>,
    /// Start from this position (FEN) instead of the usual one: for teaching, endgame
    /// practice and problems. Red or Black may be to move.
    #[serde(default)]
    pub start_fen: Option<String>,
}

/// What a seated xiangqi player may do.
///
/// # Format
/// ```text
/// {"type": "move", "iccs": "h2e2"}
/// {"type": "resign"}
/// {"type": "offer_draw"}   {"type": "accept_draw"}   {"type": "decline_draw"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum XiangqiAction {
    Move { iccs: String },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

/// Both clocks, as of `server_time`. The running side's time keeps falling from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub red_ms: u64,
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
    /// `checkmate`, `no_legal_move`, `perpetual_check`, `repetition`, `natural_limit`,
    /// `dead_position`, `resignation`, `time_forfeit`, `agreement`, `abandoned`, `aborted`.
    pub reason: EndReason,
}

/// Why a game ended; see `PROTOCOL.md` for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Checkmate,
    NoLegalMove,
    PerpetualCheck,
    Repetition,
    NaturalLimit,
    DeadPosition,
    Resignation,
    TimeForfeit,
    Agreement,
    Abandoned,
    Aborted,
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub iccs: String,
    pub chinese: String,
}

/// Everything one viewer sees of a xiangqi game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct XiangqiView {
    pub status: Status,
    pub fen: String,
    pub side_to_move: Side,
    /// The side to move's legal moves in ICCS (empty unless playing).
    pub legal_moves: Vec<String>,
    pub in_check: bool,
    pub last_move: Option<String>,
    pub moves: Vec<MoveRecord>,
    pub clocks: Clocks,
    /// The time control in its text form (`"30+10"`).
    pub time_control: String,
    /// When the side to move must make its first move or the game is aborted.
    pub first_move_deadline: Option<u64>,
    /// The side whose draw offer is standing.
    pub draw_offer: Option<Side>,
    pub result: Option<GameResult>,
}

/// What happened in a xiangqi game.
///
/// # Format
/// ```text
/// {"game": "xiangqi", "type": "moved", "side": "red", "iccs": "h2e2", "chinese": "炮二平五", ...}
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum XiangqiEvent {
    /// Both seats are filled: Red to move.
    Started {
        fen: String,
        legal_moves: Vec<String>,
        clocks: Clocks,
        first_move_deadline: Option<u64>,
    },
    /// A move was played.
    Moved {
        side: Side,
        iccs: String,
        chinese: String,
        fen: String,
        in_check: bool,
        /// The next side's legal moves.
        legal_moves: Vec<String>,
        clocks: Clocks,
        first_move_deadline: Option<u64>,
    },
    DrawOffered {
        by: Side,
    },
    DrawDeclined {
        by: Side,
    },
    /// The game ended.
    Over {
        result: GameResult,
        clocks: Clocks,
    },
}
