//! Xiangqi on the wire: room options, actions, the per-viewer view and events.
//!
//! Moves are ICCS coordinates (`h2e2`: files `a`–`i` from Red's left, ranks `0`–`9` from
//! Red's side); positions are FEN in the xiangqi dialect; the move list also carries Chinese
//! notation (炮二平五).

use serde::{Deserialize, Serialize};

mod iccs;

pub use iccs::{Iccs, NotIccs};

/// One of the two sides (the one definition: the rules in `qipai_games::xiangqi` use this
/// type). 第2条2.1: Red (红) moves first and sits at seat 0, Black at seat 1.
///
/// # Format
/// ```text
/// "red" | "black"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// 红方: starts on ranks 0–4, moves first.
    Red,
    /// 黑方: starts on ranks 5–9.
    Black,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// 0 for Red, 1 for Black: an index into per-side arrays, and the side's seat.
    pub const fn index(self) -> usize {
        self as usize
    }
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
    /// How long the server's bots think per move at this table, in ms: the level's time
    /// budget, or the whole strength when no level is named.
    #[serde(default)]
    pub bot_think_ms: Option<u64>,
    /// The server's bots' level at this table, lowest first: `"beginner"`, `"casual"`,
    /// `"club"`, `"expert"`, `"master"` (README "Bot levels"). Left out, the bots play at
    /// full strength within `bot_think_ms`, as before levels existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    /// A rated table: only signed-in accounts sit here (and the server's bots, at a level
    /// with a fixed rating), and its result moves their ratings (docs/ratings.md).
    #[serde(default)]
    pub rated: bool,
    /// Start from this position (FEN) instead of the usual one: for teaching, endgame
    /// practice and problems. Red or Black may be to move.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// A named preset whose values fill every option not given: `"competition"` (五(二)2:
    /// 30+10, natural limit 40 moves with checks not counted, flag fall loses). Echoed in
    /// the lobby.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
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
    /// `checkmate`, `no_legal_move`, `perpetual_check`, `perpetual_chase`, `repetition`, `natural_limit`,
    /// `dead_position`, `resignation`, `time_forfeit`, `agreement`, `abandoned`, `aborted`.
    pub reason: EndReason,
}

impl GameResult {
    /// The result in the shape every game tells ([`crate::Outcome`]): Red is seat 0, Black
    /// seat 1; an aborted game has no result.
    pub fn outcome(&self) -> crate::Outcome {
        let winner = self.winner.map(|side| side.index() as u8);
        crate::Outcome::duel(
            winner,
            self.reason.name(),
            self.reason == EndReason::Aborted,
        )
    }
}

impl crate::HasOutcome for XiangqiView {
    fn outcome(&self) -> Option<crate::Outcome> {
        self.result.as_ref().map(GameResult::outcome)
    }
}

/// Why a game ended. Each reason has a stable numeric [`id`](EndReason::id) and a snake_case
/// wire name; neither depends on declaration order and neither is ever reused (like
/// scalachess's `Status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// 4.1.1 将死: in check with no legal move; the side that gave mate wins.
    Checkmate,
    /// 4.1.3 困毙: not in check but no legal move; a loss for the side to move.
    NoLegalMove,
    /// 4.1.7, 4.2.3: a third repetition in which one side checked with every move (长将);
    /// that side loses.
    PerpetualCheck,
    /// 4.1.7 (长捉): a third repetition in which one side, checking never, chased one and the
    /// same piece with every move while the other did not; that side loses.
    PerpetualChase,
    /// 4.2.3: a third repetition with no perpetual checker (不变作和); a draw.
    Repetition,
    /// 4.2.4 自然限着: the configured number of full moves without a capture; a draw.
    NaturalLimit,
    /// 4.2.1: neither side has a rook, horse, cannon or pawn; a draw.
    DeadPosition,
    /// 4.1.9: a player resigned.
    Resignation,
    /// 4.1.4: a player's time ran out.
    TimeForfeit,
    /// 4.2.2: both players agreed to a draw.
    Agreement,
    /// A player left, or did not come back within the grace period, after their first
    /// move; a loss. **\[D\]**
    Abandoned,
    /// A side did not make its first move in time, or left before it; no result. **\[D\]**
    Aborted,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 12] = [
        EndReason::Checkmate,
        EndReason::NoLegalMove,
        EndReason::PerpetualCheck,
        EndReason::PerpetualChase,
        EndReason::Repetition,
        EndReason::NaturalLimit,
        EndReason::DeadPosition,
        EndReason::Resignation,
        EndReason::TimeForfeit,
        EndReason::Agreement,
        EndReason::Abandoned,
        EndReason::Aborted,
    ];

    /// The stable number stored with finished games.
    pub const fn id(self) -> u16 {
        match self {
            EndReason::Aborted => 25,
            EndReason::Checkmate => 30,
            EndReason::Resignation => 31,
            EndReason::NoLegalMove => 32,
            EndReason::Agreement => 34,
            EndReason::TimeForfeit => 35,
            EndReason::Abandoned => 36,
            EndReason::PerpetualCheck => 40,
            EndReason::Repetition => 41,
            EndReason::NaturalLimit => 42,
            EndReason::DeadPosition => 43,
            EndReason::PerpetualChase => 44,
        }
    }

    /// The reason with this [`id`](EndReason::id).
    pub fn from_id(id: u16) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.id() == id)
    }

    /// The wire name (what serde writes).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMove => "no_legal_move",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::PerpetualChase => "perpetual_chase",
            EndReason::Repetition => "repetition",
            EndReason::NaturalLimit => "natural_limit",
            EndReason::DeadPosition => "dead_position",
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time_forfeit",
            EndReason::Agreement => "agreement",
            EndReason::Abandoned => "abandoned",
            EndReason::Aborted => "aborted",
        }
    }
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub iccs: Iccs,
    pub chinese: String,
}

/// Everything one viewer sees of a xiangqi game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct XiangqiView {
    pub status: Status,
    pub fen: String,
    pub side_to_move: Side,
    /// The side to move's legal moves in ICCS, to that side's seat only (empty unless
    /// playing, and for the other seat and spectators: nothing they could use).
    pub legal_moves: Vec<Iccs>,
    pub in_check: bool,
    pub last_move: Option<Iccs>,
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
    /// Both seats are filled: the game is on (usually Red to move; `start_fen` may say Black).
    Started {
        fen: String,
        side_to_move: Side,
        in_check: bool,
        legal_moves: Vec<Iccs>,
        clocks: Clocks,
        first_move_deadline: Option<u64>,
    },
    /// A move was played.
    Moved {
        side: Side,
        iccs: Iccs,
        chinese: String,
        fen: String,
        in_check: bool,
        /// The next side's legal moves, to that side's seat only (`[]` to the others).
        legal_moves: Vec<Iccs>,
        clocks: Clocks,
        first_move_deadline: Option<u64>,
        /// The draw offer still standing after the move (a move answers the opponent's).
        #[serde(default)]
        draw_offer: Option<Side>,
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
