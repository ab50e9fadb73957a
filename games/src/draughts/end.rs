//! The game's history and how it ends (FMJD; rules page, "End of the game"): no legal move
//! loses; threefold repetition, 25 king moves, and the 16-move and 5-move endgame rules
//! draw; plus the reasons the room decides (resignation, time, agreement, abandonment, abort).

use serde::{Deserialize, Serialize};

use super::board::{Kind, Side};
use super::error::DraughtsError;
use super::moves::Move;
use super::position::Position;

pub use qipai_protocol::draughts::EndReason;

/// How a game ended: the winner (`None` for a draw or an abort) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Outcome {
    /// `winner` won for `reason`.
    pub const fn win(winner: Side, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw (or an abort) for `reason`.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

/// The draw rules a table may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EndRules {
    /// Moves by each side with only kings moving and no capture before a draw (FMJD: 25);
    /// 0 turns the rule off.
    pub king_moves: u32,
    /// Whether the 16-move and 5-move endgame rules apply (FMJD: yes).
    pub endgame_rules: bool,
}

impl Default for EndRules {
    fn default() -> EndRules {
        EndRules {
            king_moves: 25,
            endgame_rules: true,
        }
    }
}

/// An endgame against a lone king that is drawn after a number of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endgame {
    /// Three pieces, a king among them, against a lone king: 16 moves each.
    Sixteen,
    /// One or two pieces, a king among them, against a lone king: 5 moves each.
    Five,
}

impl Endgame {
    /// The endgame `position` is in, if any.
    pub fn of(position: &Position) -> Option<Endgame> {
        let [wm, wk, bm, bk] = position.material();
        let lone = |men: u32, kings: u32| men == 0 && kings == 1;
        let (men, kings) = if lone(bm, bk) {
            (wm, wk)
        } else if lone(wm, wk) {
            (bm, bk)
        } else {
            return None;
        };
        match (kings, men + kings) {
            (0, _) => None,
            (_, 3) => Some(Endgame::Sixteen),
            (_, 1..=2) => Some(Endgame::Five),
            _ => None,
        }
    }

    /// Plies (moves by either side) before the draw.
    pub const fn plies(self) -> u32 {
        match self {
            Endgame::Sixteen => 32,
            Endgame::Five => 10,
        }
    }

    fn reason(self) -> EndReason {
        match self {
            Endgame::Sixteen => EndReason::SixteenMoves,
            Endgame::Five => EndReason::FiveMoves,
        }
    }
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    pub side: Side,
    /// `32-28` or `28x19x8`.
    pub notation: String,
}

/// A game from its start: the moves played, the counters of the draw rules, the outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    rules: EndRules,
    start: Position,
    position: Position,
    moves: Vec<PlayedMove>,
    /// Positions since the last man move or capture (neither can be undone), the current
    /// one included: the only ones a repetition can be made of.
    reversible: Vec<Position>,
    /// Successive plies in which a king moved without capturing.
    king_plies: u32,
    /// The current endgame against a lone king and the plies played in it.
    endgame: Option<(Endgame, u32)>,
    outcome: Option<Outcome>,
}

impl History {
    /// A game starting at `start`. A side to move with no legal move has lost at once.
    pub fn new(start: Position, rules: EndRules) -> History {
        let mut history = History {
            rules,
            start,
            position: start,
            moves: Vec::new(),
            reversible: vec![start],
            king_plies: 0,
            endgame: Endgame::of(&start).map(|e| (e, 0)),
            outcome: None,
        };
        if start.legal_moves().is_empty() {
            let winner = start.side_to_move().opponent();
            history.outcome = Some(Outcome::win(winner, EndReason::NoLegalMove));
        }
        history
    }

    /// Plays the move written as `text` (see [`Position::parse_move`]).
    ///
    /// # Errors
    /// [`DraughtsError::GameOver`] after the end, or why the move is refused; nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, DraughtsError> {
        if self.outcome.is_some() {
            return Err(DraughtsError::GameOver);
        }
        let mv = self.position.parse_move(text)?;
        Ok(self.play_legal(&mv))
    }

    /// Plays `mv`, which must be one of the legal moves.
    ///
    /// # Errors
    /// [`DraughtsError::GameOver`], or [`DraughtsError::NotACapture`]/`NotAMove` for a move
    /// that is not legal here; nothing changes.
    pub fn play(&mut self, mv: &Move) -> Result<Option<Outcome>, DraughtsError> {
        if self.outcome.is_some() {
            return Err(DraughtsError::GameOver);
        }
        // Checked through the notation, so a refusal says why.
        let legal = self.position.parse_move(&mv.to_string())?;
        Ok(self.play_legal(&legal))
    }

    fn play_legal(&mut self, mv: &Move) -> Option<Outcome> {
        let side = self.position.side_to_move();
        let kind = match self.position.piece(mv.from()) {
            Some((_, kind)) => kind,
            None => Kind::Man,
        };
        let pieces_before = self.position.board().occupied().count_ones();
        self.position.make(mv);
        self.moves.push(PlayedMove {
            side,
            notation: mv.to_string(),
        });
        if mv.is_capture() || kind == Kind::Man {
            self.reversible.clear();
        }
        self.reversible.push(self.position);
        self.king_plies = if !mv.is_capture() && kind == Kind::King {
            self.king_plies + 1
        } else {
            0
        };
        let pieces_after = self.position.board().occupied().count_ones();
        self.endgame = match (Endgame::of(&self.position), self.endgame) {
            (Some(now), Some((before, plies)))
                if now == before && pieces_before == pieces_after =>
            {
                Some((now, plies + 1))
            }
            (now, _) => now.map(|e| (e, 0)),
        };
        self.outcome = self.judge(side);
        self.outcome
    }

    /// The outcome after `mover` moved, if the game ended.
    fn judge(&self, mover: Side) -> Option<Outcome> {
        if self.position.legal_moves().is_empty() {
            return Some(Outcome::win(mover, EndReason::NoLegalMove));
        }
        let seen = self
            .reversible
            .iter()
            .filter(|p| **p == self.position)
            .count();
        if seen >= 3 {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        if self.rules.endgame_rules {
            if let Some((endgame, plies)) = self.endgame {
                if plies >= endgame.plies() {
                    return Some(Outcome::draw(endgame.reason()));
                }
            }
        }
        let limit = self.rules.king_moves.saturating_mul(2);
        if limit > 0 && self.king_plies >= limit {
            return Some(Outcome::draw(EndReason::KingMoves));
        }
        None
    }

    /// Ends the game for a reason from outside the board (resignation, time, agreement, …).
    ///
    /// # Errors
    /// [`DraughtsError::GameOver`] if it had already ended.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), DraughtsError> {
        if self.outcome.is_some() {
            return Err(DraughtsError::GameOver);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Where the game started.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The draw rules in force.
    pub fn rules(&self) -> EndRules {
        self.rules
    }

    /// Successive plies in which only a king moved, without capture.
    pub fn king_plies(&self) -> u32 {
        self.king_plies
    }

    /// The endgame against a lone king, and plies played in it.
    pub fn endgame(&self) -> Option<(Endgame, u32)> {
        self.endgame
    }
}
