//! International draughts on the wire: room options, actions, the per-viewer view and events.
//!
//! Squares are numbered 1–50 (White's men start on 31–50); moves are numeric notation
//! (`32-28`, a capture `28x19x8` listing every landing square); positions are PDN FEN
//! (`W:W31,…,50:B1,…,20`, a king `K` before its square).

use serde::{Deserialize, Serialize};

/// A side: White moves first and sits at seat 0, Black at seat 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black (clock and seat index).
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

/// A draughts room's options. Every field may be left out for the server's default
/// (`config/default.toml`, section `[draughts]`).
///
/// # Format
/// ```text
/// {"game": "draughts", "time_control": "30+10", "king_moves": 25}
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DraughtsOptions {
    /// `"30+10"` (minutes + seconds increment), `"40/90,10/15"` (moves/minutes periods,
    /// the last repeating) or `"sd:5"` (sudden death, minutes).
    #[serde(default)]
    pub time_control: Option<String>,
    /// Draw after this many moves by each side in which only kings moved and nothing was
    /// captured (FMJD: 25; 0 turns the rule off).
    #[serde(default)]
    pub king_moves: Option<u32>,
    /// Whether the 16-move and 5-move endgame rules apply (FMJD: yes).
    #[serde(default)]
    pub endgame_rules: Option<bool>,
    /// How long the server's bots think per move at this table, in ms (their strength).
    #[serde(default)]
    pub bot_think_ms: Option<u64>,
    /// A rated table: only signed-in accounts sit here (and the server's bots, at a level
    /// with a fixed rating), and its result moves their ratings (docs/ratings.md).
    #[serde(default)]
    pub rated: bool,
    /// Start from this position (PDN FEN) instead of the usual one: for endgame practice
    /// and problems. White or Black may be to move.
    #[serde(default)]
    pub start_fen: Option<String>,
}

/// Why a game ended. Each reason has a stable numeric [`id`](EndReason::id) and a snake_case
/// wire name; neither depends on declaration order and neither is ever reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The side to move has no legal move (all pieces taken or blocked); it loses.
    NoLegalMove,
    /// The same position, same side to move, for the third time; a draw.
    Repetition,
    /// 25 moves by each side in which only kings moved and nothing was captured; a draw.
    KingMoves,
    /// Three pieces with a king (3 kings, 2 kings + man, king + 2 men) against a lone king:
    /// drawn after 16 moves by each side.
    SixteenMoves,
    /// Two pieces or fewer with a king (2 kings, king + man, king) against a lone king:
    /// drawn after 5 moves by each side.
    FiveMoves,
    /// A player resigned.
    Resignation,
    /// A player's time ran out.
    TimeForfeit,
    /// Both players agreed to a draw.
    Agreement,
    /// A player left after their first move; a loss. **\[D\]**
    Abandoned,
    /// A side did not make its first move in time, or left before it; no result. **\[D\]**
    Aborted,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 10] = [
        EndReason::NoLegalMove,
        EndReason::Repetition,
        EndReason::KingMoves,
        EndReason::SixteenMoves,
        EndReason::FiveMoves,
        EndReason::Resignation,
        EndReason::TimeForfeit,
        EndReason::Agreement,
        EndReason::Abandoned,
        EndReason::Aborted,
    ];

    /// The stable number stored with finished games (the shared ones have xiangqi's numbers).
    pub const fn id(self) -> u16 {
        match self {
            EndReason::Aborted => 25,
            EndReason::Resignation => 31,
            EndReason::NoLegalMove => 32,
            EndReason::Agreement => 34,
            EndReason::TimeForfeit => 35,
            EndReason::Abandoned => 36,
            EndReason::Repetition => 41,
            EndReason::KingMoves => 50,
            EndReason::SixteenMoves => 51,
            EndReason::FiveMoves => 52,
        }
    }

    /// The reason with this [`id`](EndReason::id).
    pub fn from_id(id: u16) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.id() == id)
    }

    /// The wire name (what serde writes).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::NoLegalMove => "no_legal_move",
            EndReason::Repetition => "repetition",
            EndReason::KingMoves => "king_moves",
            EndReason::SixteenMoves => "sixteen_moves",
            EndReason::FiveMoves => "five_moves",
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time_forfeit",
            EndReason::Agreement => "agreement",
            EndReason::Abandoned => "abandoned",
            EndReason::Aborted => "aborted",
        }
    }
}

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
    /// The legal moves in notation, to the side to move's seat only (empty unless playing,
    /// and for the other seat and spectators). A flying king's capture reached by several
    /// routes is listed once; any route is accepted.
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

impl GameResult {
    /// The result in the shape every game tells ([`crate::Outcome`]): White is seat 0,
    /// Black seat 1; an aborted game has no result.
    pub fn outcome(&self) -> crate::Outcome {
        let winner = self.winner.map(|side| side.index() as u8);
        crate::Outcome::duel(
            winner,
            self.reason.name(),
            self.reason == EndReason::Aborted,
        )
    }
}

impl crate::HasOutcome for DraughtsView {
    fn outcome(&self) -> Option<crate::Outcome> {
        self.result.as_ref().map(GameResult::outcome)
    }
}

/// What happened in a draughts game. Each carries what changed, so `qipai_games::draughts::fold`
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
