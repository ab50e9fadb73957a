//! The game's history and how it ends (第4条): checkmate and 困毙, perpetual check,
//! repetition, the natural move limit, dead positions, plus the reasons the room's glue
//! decides (resignation, time, agreement, abandonment, abort).

use qipai_protocol::xiangqi::Iccs;
use serde::{Deserialize, Serialize};

use super::board::Side;
use super::chase;
use super::error::XiangqiError;
use super::moves::{Move, MoveList};
use super::notation;
use super::position::Position;

/// Why a game ended: the protocol's enum, with its stable ids, used here as it is.
pub use qipai_protocol::xiangqi::EndReason;

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

/// The end rules a table may change (第4条; the competition notice 五(二)2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EndRules {
    /// 4.2.4: full moves (回合, two plies) without a capture before the game is drawn;
    /// default 60 (the notice uses 40). 0 turns the limit off. **\[D\]**
    pub natural_limit_moves: u32,
    /// Whether checking moves count toward the limit (default true; the notice's 将军不计
    /// is `false`). When false, a checking move that captures nothing neither counts nor
    /// resets the count. **\[D\]**
    pub natural_limit_counts_checks: bool,
}

impl Default for EndRules {
    fn default() -> EndRules {
        EndRules {
            natural_limit_moves: 60,
            natural_limit_counts_checks: true,
        }
    }
}

impl EndRules {
    /// 五(二)2: the competition's natural limit, 40 moves with checks not counted (将军不计).
    pub const fn competition() -> EndRules {
        EndRules {
            natural_limit_moves: 40,
            natural_limit_counts_checks: false,
        }
    }
}

/// One move of the record (第7条), as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// ICCS, `h2e2`.
    pub iccs: Iccs,
    /// Chinese notation, `炮二平五`.
    pub chinese: String,
    /// Whether the move gave check.
    pub check: bool,
    /// Whether the move captured a piece.
    pub capture: bool,
}

/// A game from its start position: every move played, and the outcome once there is one.
#[derive(Clone, Debug)]
pub struct History {
    rules: EndRules,
    start: Position,
    /// The position after each move.
    after: Vec<Position>,
    moves: Vec<PlayedMove>,
    /// Plies counted toward the natural limit (see [`EndRules`]).
    quiet_plies: u32,
    outcome: Option<Outcome>,
    /// The legal moves of the side to move in the current position: generated once per
    /// move, since both the end checks (困毙, mate) and the move's event need them.
    legal: MoveList,
}

impl History {
    /// A game starting at `start`. A start with no legal move or no attacking piece left
    /// is over at once. When checks count toward the natural limit, the start's half-move
    /// clock (plies since a capture) is already counted; otherwise the count starts at 0,
    /// since the clock cannot tell which of those plies were checks.
    pub fn new(start: Position, rules: EndRules) -> History {
        let legal = start.legal_move_list();
        let quiet_plies = if rules.natural_limit_counts_checks {
            start.halfmoves()
        } else {
            0
        };
        let mut history = History {
            rules,
            start,
            after: Vec::new(),
            moves: Vec::new(),
            quiet_plies,
            outcome: None,
            legal,
        };
        history.outcome = history.no_move_outcome().or_else(|| history.dead_outcome());
        history
    }

    /// Plays `mv` and returns the outcome if the game ended with it. When one move meets
    /// several endings, the first of these decides: checkmate or 困毙 (the move's own
    /// result), the repetition judgement, a dead position, the natural limit.
    ///
    /// # Errors
    /// [`XiangqiError::GameOver`] once there is an outcome, or why the move is illegal
    /// (see [`Position::play`]). Nothing changes then.
    pub fn play(&mut self, mv: Move) -> Result<Option<Outcome>, XiangqiError> {
        if self.outcome.is_some() {
            return Err(XiangqiError::GameOver);
        }
        let before = self.position();
        // A move of the legal list needs no second check; any other is checked, for the
        // reason it is refused.
        let after = if self.legal.contains(mv) {
            let mut after = before.clone();
            after.make(mv);
            after
        } else {
            before.after(mv)?
        };
        let chinese = notation::chinese(before, mv);
        let capture = before.piece_at(mv.to).is_some();
        let check = after.in_check();
        self.moves.push(PlayedMove {
            mv,
            iccs: mv.iccs(),
            chinese,
            check,
            capture,
        });
        self.legal = after.legal_move_list();
        self.after.push(after);
        self.quiet_plies = match (capture, check && !self.rules.natural_limit_counts_checks) {
            (true, _) => 0,
            (false, true) => self.quiet_plies,
            (false, false) => self.quiet_plies.saturating_add(1),
        };
        self.outcome = self
            .no_move_outcome()
            .or_else(|| self.repetition_outcome())
            .or_else(|| self.dead_outcome())
            .or_else(|| self.natural_limit_outcome());
        Ok(self.outcome)
    }

    /// Ends the game for a reason decided outside the board (resignation, time, agreement,
    /// abandonment, abort).
    ///
    /// # Errors
    /// [`XiangqiError::GameOver`] if it has already ended.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), XiangqiError> {
        if self.outcome.is_some() {
            return Err(XiangqiError::GameOver);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Checks `mv` against the rules in the current position without playing it: a move of
    /// the legal list at once, any other for the reason it is refused.
    ///
    /// # Errors
    /// As [`Position::check_move`].
    pub fn check_move(&self, mv: Move) -> Result<(), XiangqiError> {
        if self.legal.contains(mv) {
            return Ok(());
        }
        self.position().check_move(mv)
    }

    /// The legal moves of the side to move in the current position.
    pub fn legal_moves(&self) -> &[Move] {
        self.legal.as_slice()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.after.last().unwrap_or(&self.start)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The rules this game is played under.
    pub fn rules(&self) -> EndRules {
        self.rules
    }

    /// Plies counted so far toward the natural move limit.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// 4.1.1, 4.1.3: the side to move has no legal move: mated if in check, else 困毙;
    /// either way it loses.
    fn no_move_outcome(&self) -> Option<Outcome> {
        if !self.legal.is_empty() {
            return None;
        }
        let position = self.position();
        let reason = if position.in_check() {
            EndReason::Checkmate
        } else {
            EndReason::NoLegalMove
        };
        Some(Outcome::win(position.side_to_move().opponent(), reason))
    }

    /// 4.2.3, 4.1.7: the current position (same board, same side to move) stands for the
    /// third time since the last capture. The cycle judged is every move from its first
    /// occurrence to now: a side that checked with each of its moves there while the other
    /// did not loses (长将); with no perpetual checker, a side that chased one and the same
    /// piece with each of its moves while the other did not loses (长捉, [`chase`]);
    /// otherwise the game is drawn.
    fn repetition_outcome(&self) -> Option<Outcome> {
        let now = self.position();
        let last_capture = self
            .moves
            .iter()
            .rposition(|m| m.capture)
            .map_or(0, |i| i + 1);
        let same: Vec<usize> = std::iter::once(&self.start)
            .chain(&self.after)
            .enumerate()
            .skip(last_capture)
            .filter(|(_, p)| p.board == now.board && p.side == now.side)
            .map(|(i, _)| i)
            .collect();
        if same.len() < 3 {
            return None;
        }
        let first = same.first().copied()?;
        // Move k (0-based) leads from position k (the start is 0) to position k + 1.
        let cycle = self.moves.get(first..)?;
        let mover_of = |k: usize| {
            let parity = (first + k) % 2;
            let starter = self.start().side_to_move();
            if parity == 0 {
                starter
            } else {
                starter.opponent()
            }
        };
        let checks_always = |side: Side| {
            cycle
                .iter()
                .enumerate()
                .filter(|&(k, _)| mover_of(k) == side)
                .all(|(_, m)| m.check)
        };
        let checks = (checks_always(Side::Red), checks_always(Side::Black));
        if checks.0 || checks.1 {
            return Some(match checks {
                (true, false) => Outcome::win(Side::Black, EndReason::PerpetualCheck),
                (false, true) => Outcome::win(Side::Red, EndReason::PerpetualCheck),
                _ => Outcome::draw(EndReason::Repetition),
            });
        }
        // Check outranks chase: only with no perpetual checker is 长捉 judged.
        let from = if first == 0 {
            &self.start
        } else {
            self.after.get(first - 1)?
        };
        let moves: Vec<Move> = cycle.iter().map(|m| m.mv).collect();
        let chases = |side| chase::chases_always(from, &moves, side);
        Some(match (chases(Side::Red), chases(Side::Black)) {
            (true, false) => Outcome::win(Side::Black, EndReason::PerpetualChase),
            (false, true) => Outcome::win(Side::Red, EndReason::PerpetualChase),
            _ => Outcome::draw(EndReason::Repetition),
        })
    }

    /// 4.2.1 as the rules page reads it: no rook, horse, cannon or pawn on the board.
    fn dead_outcome(&self) -> Option<Outcome> {
        self.position()
            .is_dead()
            .then_some(Outcome::draw(EndReason::DeadPosition))
    }

    /// 4.2.4: `natural_limit_moves` full moves, i.e. twice as many counted plies.
    fn natural_limit_outcome(&self) -> Option<Outcome> {
        let limit = self.rules.natural_limit_moves.saturating_mul(2);
        (limit > 0 && self.quiet_plies >= limit).then_some(Outcome::draw(EndReason::NaturalLimit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids and names are pinned: they are stored and sent.
    #[test]
    fn end_reasons_are_pinned() {
        let pinned: Vec<(u16, &str)> = EndReason::ALL.iter().map(|r| (r.id(), r.name())).collect();
        assert_eq!(
            pinned,
            [
                (30, "checkmate"),
                (32, "no_legal_move"),
                (40, "perpetual_check"),
                (44, "perpetual_chase"),
                (41, "repetition"),
                (42, "natural_limit"),
                (43, "dead_position"),
                (31, "resignation"),
                (35, "time_forfeit"),
                (34, "agreement"),
                (36, "abandoned"),
                (25, "aborted"),
            ]
        );
        for reason in EndReason::ALL {
            assert_eq!(EndReason::from_id(reason.id()), Some(reason));
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.name()));
        }
    }

    /// Defaults: 60 full moves, checks count (4.2.4).
    #[test]
    fn default_rules() {
        let rules = EndRules::default();
        assert_eq!(rules.natural_limit_moves, 60);
        assert!(rules.natural_limit_counts_checks);
    }

    /// 五(二)2: the competition's limit is 40 moves, checks not counted.
    #[test]
    fn competition_rules() {
        let rules = EndRules::competition();
        assert_eq!(rules.natural_limit_moves, 40);
        assert!(!rules.natural_limit_counts_checks);
    }

    /// A finished game refuses moves and a second ending.
    #[test]
    fn finished_game_refuses_moves() {
        let mut game = History::new(Position::start(), EndRules::default());
        game.finish(Outcome::win(Side::Red, EndReason::Resignation))
            .unwrap();
        let mv = Move::from_iccs("h2e2").unwrap();
        assert_eq!(game.play(mv), Err(XiangqiError::GameOver));
        assert_eq!(
            game.finish(Outcome::draw(EndReason::Agreement)),
            Err(XiangqiError::GameOver)
        );
        assert!(game.moves().is_empty());
    }
}
