//! A game (局) across hands: team levels, hand after hand until a team goes past A
//! (第二条, 第二十一条3), and the round's result with its optional time limit (五(一)3–4).

use serde::{Deserialize, Serialize};

use crate::{Millis, Seat};

use super::error::TuolajiError;
use super::hand::{Hand, HandAction, HandEvent, HandResult};
use super::level::{Levels, Team};
use super::options::TuolajiRules;
use crate::competition::lateness::TuolajiLateness;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// 第二条: a team went past A.
    PastAce,
    /// 五(一)3: the round's time ran out and its last hand was played.
    RoundTime,
    /// 五(一)4: a team gave up (left for good).
    Forfeit,
}

/// How a game ended, with the round points of 五(一)4 (win 2, draw 1, loss 0, forfeit 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOutcome {
    /// The winning team; `None` for a draw (equal levels at the round's end, **\[D\]**).
    pub winner: Option<Team>,
    pub end: MatchEnd,
    /// Round points indexed by [`Team::index`].
    pub round_points: [u8; 2],
    /// Both levels at the end.
    pub levels: Levels,
}

impl MatchOutcome {
    fn won(winner: Team, end: MatchEnd, levels: Levels) -> MatchOutcome {
        let mut round_points = [0; 2];
        if let Some(p) = round_points.get_mut(winner.index()) {
            *p = 2;
        }
        MatchOutcome {
            winner: Some(winner),
            end,
            round_points,
            levels,
        }
    }

    /// 五(一)3 **\[D\]**: when time ends the round, the higher level wins; equal levels draw.
    fn by_levels(levels: Levels) -> MatchOutcome {
        let (a, b) = (levels.get(Team::NorthSouth), levels.get(Team::EastWest));
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => {
                MatchOutcome::won(Team::NorthSouth, MatchEnd::RoundTime, levels)
            }
            std::cmp::Ordering::Less => {
                MatchOutcome::won(Team::EastWest, MatchEnd::RoundTime, levels)
            }
            std::cmp::Ordering::Equal => MatchOutcome {
                winner: None,
                end: MatchEnd::RoundTime,
                round_points: [1, 1],
                levels,
            },
        }
    }
}

/// A game of Tuolaji: the hand in play, the levels, and the results so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    options: TuolajiRules,
    levels: Levels,
    started_at: Millis,
    hand: Hand,
    /// Whether the current hand's result has been applied to the levels.
    hand_scored: bool,
    history: Vec<HandResult>,
    outcome: Option<MatchOutcome>,
}

impl Match {
    /// A new game at `now`: both teams at 2 (第八条1), the first hand dealt from `seed`.
    ///
    /// # Errors
    /// [`TuolajiError::UnsupportedOption`] for options this server does not play.
    pub fn new(options: &TuolajiRules, seed: u64, now: Millis) -> Result<Match, TuolajiError> {
        Ok(Match {
            options: options.clone(),
            levels: Levels::default(),
            started_at: now,
            hand: Hand::first(options, seed, now)?,
            hand_scored: false,
            history: Vec::new(),
            outcome: None,
        })
    }

    /// A game resumed at `levels`, with `dealer` dealing the next hand from `seed` (a game
    /// carried over or rebuilt, a test that starts near A).
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] when a team is already past A;
    /// [`TuolajiError::UnsupportedOption`] as for [`Match::new`].
    pub fn resume(
        options: &TuolajiRules,
        levels: Levels,
        dealer: Seat,
        seed: u64,
        now: Millis,
    ) -> Result<Match, TuolajiError> {
        let level = levels.level_rank(dealer).ok_or(TuolajiError::MatchOver)?;
        if levels.winner().is_some() {
            return Err(TuolajiError::MatchOver);
        }
        Ok(Match {
            options: options.clone(),
            levels,
            started_at: now,
            hand: Hand::later(options, seed, dealer, level, now)?,
            hand_scored: false,
            history: Vec::new(),
            outcome: None,
        })
    }

    /// The hand being played (or just finished).
    pub const fn hand(&self) -> &Hand {
        &self.hand
    }

    /// Both teams' levels.
    pub const fn levels(&self) -> Levels {
        self.levels
    }

    /// Every finished hand's result, oldest first.
    pub fn history(&self) -> &[HandResult] {
        &self.history
    }

    /// How the game ended, once it has.
    pub const fn outcome(&self) -> Option<&MatchOutcome> {
        self.outcome.as_ref()
    }

    /// 五(一)3: when the round's time runs out, if it has a limit.
    pub fn round_ends_at(&self) -> Option<Millis> {
        self.options
            .round_ms()
            .map(|ms| self.started_at + Millis(ms))
    }

    /// 五(一)3 with 第十三条: a competition's round clock runs from the round's start, `at`,
    /// when that was before the game started (a pair came late).
    pub fn count_round_from(&mut self, at: Millis) {
        self.started_at = self.started_at.min(at);
    }

    /// 五(一)3: from this moment the hand in progress is the last one.
    pub fn last_call_at(&self) -> Option<Millis> {
        self.round_ends_at()
            .map(|end| end - Millis(self.options.last_call_ms()))
    }

    /// 五(一)3: the last hand is called. The hand in progress is the last; when none is (the
    /// call lands in the pause between hands, the last hand already scored), no next hand
    /// starts and the round ends now, by the levels. Returns the outcome if it ended.
    pub fn call_last_hand(&mut self) -> Option<&MatchOutcome> {
        if self.outcome.is_none() && self.hand.is_done() && self.hand_scored {
            self.outcome = Some(MatchOutcome::by_levels(self.levels));
            return self.outcome.as_ref();
        }
        None
    }

    /// Whether the hand in progress at `now` is the round's last one.
    pub fn is_last_hand(&self, now: Millis) -> bool {
        self.last_call_at().is_some_and(|at| now >= at)
    }

    /// 第九条1: the next card of the current hand's deal.
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] after the game; else as [`Hand::deal_next`].
    pub fn deal_next(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        self.ensure_going()?;
        self.hand.deal_next(now)
    }

    /// 第十条2: the bid window of the current hand is over.
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] after the game; else as [`Hand::close_bidding`].
    pub fn close_bidding(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        self.ensure_going()?;
        self.hand.close_bidding(now)
    }

    /// The table keeps the trick just won on show until `at`: [`Hand::hold_lead_until`].
    pub fn hold_lead_until(&mut self, at: Millis) {
        self.hand.hold_lead_until(at);
    }

    /// `seat` acts in the current hand. When the action ends the hand, its result moves
    /// the levels, and the game may end (a team past A, or the round's last hand).
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] after the game; else as [`Hand::apply`].
    pub fn apply(
        &mut self,
        seat: Seat,
        action: HandAction,
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        self.ensure_going()?;
        let events = self.hand.apply(seat, action, now)?;
        if self.hand.is_done() && !self.hand_scored {
            self.score_hand(now);
        }
        Ok(events)
    }

    /// When the server must act by itself in the current hand ([`Hand::deadline`]); none
    /// once the game is over.
    pub fn deadline(&self) -> Option<Millis> {
        self.outcome
            .is_none()
            .then(|| self.hand.deadline())
            .flatten()
    }

    /// Time has reached [`Match::deadline`]: the hand's own step ([`Hand::on_deadline`]);
    /// a time-out that ends the hand moves the levels as [`Match::apply`] does.
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] after the game; else as [`Hand::on_deadline`].
    pub fn on_deadline(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        self.ensure_going()?;
        let events = self.hand.on_deadline(now)?;
        if self.hand.is_done() && !self.hand_scored {
            self.score_hand(now);
        }
        Ok(events)
    }

    /// Deals the next hand from `seed`: the dealer named by the last result deals and
    /// draws first (第八条3, 第九条1) at their team's level.
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] after the game; [`TuolajiError::WrongPhase`] while the
    /// current hand is still being played.
    pub fn next_hand(&mut self, seed: u64, now: Millis) -> Result<(), TuolajiError> {
        self.ensure_going()?;
        let Some(result) = self.hand.result().filter(|_| self.hand_scored) else {
            return Err(TuolajiError::WrongPhase {
                action: "deal the next hand",
                wanted: self.hand.phase().wanted(),
            });
        };
        let dealer = result.next_dealer;
        let level = self
            .levels
            .level_rank(dealer)
            .ok_or(TuolajiError::MatchOver)?;
        self.hand = Hand::later(&self.options, seed, dealer, level, now)?;
        self.hand_scored = false;
        Ok(())
    }

    /// 五(一)4: the team of `seat` forfeits; the other team wins the round.
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] when the game has already ended.
    pub fn forfeit(&mut self, seat: Seat) -> Result<MatchOutcome, TuolajiError> {
        self.ensure_going()?;
        let outcome = MatchOutcome::won(Team::of(seat).other(), MatchEnd::Forfeit, self.levels);
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// 第十三条: the pair `team` came late to the table, in `band` (the server measures the
    /// minutes from the round's start; [`tuolaji_lateness`](crate::competition::lateness::tuolaji_lateness)
    /// gives the band):
    /// - up to 5 minutes: a warning, nothing changes at the table;
    /// - 6–10 or 11–15 minutes: 20 or 30 points taken from its side in the first hand
    ///   ([`Hand::penalise_late`]);
    /// - 16–20 minutes: the first hand is forfeited: the opponents go up one level and the
    ///   first hand (whatever was dealt of it) is replaced by a hand dealt from `seed` by the
    ///   opponents' lower seat at their new level **\[D\]**;
    /// - from 21 minutes: the round is forfeited ([`Match::forfeit`]).
    ///
    /// Returns whether a new hand was dealt.
    ///
    /// # Errors
    /// [`TuolajiError::MatchOver`] after the game; [`TuolajiError::WrongPhase`] when the
    /// first hand is already over (the ruling came too late to apply).
    pub fn lateness(
        &mut self,
        team: Team,
        band: TuolajiLateness,
        seed: u64,
        now: Millis,
    ) -> Result<bool, TuolajiError> {
        self.ensure_going()?;
        let first_hand = self.history.is_empty() && !self.hand_scored;
        let too_late = || TuolajiError::WrongPhase {
            action: "apply lateness to the first hand",
            wanted: "the first hand",
        };
        match band {
            TuolajiLateness::OnTime | TuolajiLateness::Warning => Ok(false),
            TuolajiLateness::FirstHandPenalty { points } => {
                if !first_hand {
                    return Err(too_late());
                }
                self.hand.penalise_late(team, points)?;
                Ok(false)
            }
            TuolajiLateness::FirstHandForfeited => {
                if !first_hand {
                    return Err(too_late());
                }
                let winners = team.other();
                self.levels.raise(winners, 1);
                let dealer = Seat(u8::try_from(winners.index()).unwrap_or(0));
                let level = self
                    .levels
                    .level_rank(dealer)
                    .ok_or(TuolajiError::MatchOver)?;
                self.hand = Hand::later(&self.options, seed, dealer, level, now)?;
                Ok(true)
            }
            TuolajiLateness::RoundForfeited => {
                let seat = Seat(u8::try_from(team.index()).unwrap_or(0));
                self.forfeit(seat)?;
                Ok(false)
            }
        }
    }

    /// 第二十条: the finished hand's change goes to the levels; then 第二条 (past A) and
    /// 五(一)3 (the last hand after the call) may end the game.
    fn score_hand(&mut self, now: Millis) {
        let Some(result) = self.hand.result().cloned() else {
            return;
        };
        let dealer_team = Team::of(result.dealer);
        let team = if result.change.dealer_went_up() {
            dealer_team
        } else {
            dealer_team.other()
        };
        self.levels.raise(team, result.change.steps());
        self.history.push(result);
        self.hand_scored = true;
        if let Some(winner) = self.levels.winner() {
            self.outcome = Some(MatchOutcome::won(winner, MatchEnd::PastAce, self.levels));
        } else if self.is_last_hand(now) {
            self.outcome = Some(MatchOutcome::by_levels(self.levels));
        }
    }

    fn ensure_going(&self) -> Result<(), TuolajiError> {
        if self.outcome.is_some() {
            Err(TuolajiError::MatchOver)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Rank;
    use crate::tuolaji::level::Level;

    /// 五(一)3–4 **\[D\]**: at the round's end the higher level wins 2–0; equal levels draw 1–1.
    #[test]
    fn round_end_by_levels() {
        let even = Levels::new(Level::of(Rank::Nine), Level::of(Rank::Nine));
        let draw = MatchOutcome::by_levels(even);
        assert_eq!((draw.winner, draw.round_points), (None, [1, 1]));
        let ahead = Levels::new(Level::of(Rank::Nine), Level::of(Rank::Ten));
        let won = MatchOutcome::by_levels(ahead);
        assert_eq!(won.winner, Some(Team::EastWest));
        assert_eq!(won.round_points, [0, 2]);
        assert_eq!(won.end, MatchEnd::RoundTime);
    }
}
