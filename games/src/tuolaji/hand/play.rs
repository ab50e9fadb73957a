//! The playing phase of a hand: leads (units and throws, 第十一条1, 第六条5, 第十六条),
//! follows (第十一条2), trick winners and points (第十二条), the last trick and the bottom
//! (第十二条3), and the hand's result (第二十条).

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardCounts, Points};
use crate::{Millis, Seat};

use super::super::bottom::points_in;
use super::super::combination::{validate_decomposition, Unit};
use super::super::declare::undeclared_units;
use super::super::error::TuolajiError;
use super::super::follow::check_follow;
use super::super::level::{next_dealer, next_seat, Team};
use super::super::scoring::{bottom_bonus, DefendersScore, LevelChange};
use super::super::throw::{check_throw, ThrowCheck};
use super::super::trick::{bottom_multiplier, Trick};
use super::{expect_seat, Hand, HandEvent, HandResult, Phase};

/// One trick as the table sees it: who led, the lead's units, and every play in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrickRecord {
    /// Who led.
    pub leader: Seat,
    /// The lead's units (its decomposition), each a list of cards.
    pub units: Vec<Vec<Card>>,
    /// Every play in order, the lead first.
    pub plays: Vec<(Seat, Vec<Card>)>,
    /// Who won it, once all four have played.
    pub winner: Option<Seat>,
}

/// What the playing phase keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Play {
    /// The trick being played: the [`Trick`] (for the winner) and its record (for views).
    current: Option<(Trick, TrickRecord)>,
    /// 第十一条4: the previous trick stays visible until the next lead.
    previous: Option<TrickRecord>,
    /// Each seat's played cards, in order (a seat may look at its own, 第十一条4).
    played: [Vec<Card>; 4],
    /// 第十一条3: the point cards the defenders won, shown to all.
    defenders_point_cards: Vec<Card>,
    score: DefendersScore,
    tricks: u32,
}

impl Hand {
    /// The trick being played, if one is.
    pub fn current_trick(&self) -> Option<&TrickRecord> {
        self.play.current.as_ref().map(|(_, r)| r)
    }

    /// 第十一条4: the last finished trick, until the next lead.
    pub fn previous_trick(&self) -> Option<&TrickRecord> {
        self.play.previous.as_ref()
    }

    /// The lead units of the trick being played (what a follower must answer).
    pub fn lead_units(&self) -> Option<&[Unit]> {
        self.play.current.as_ref().map(|(t, _)| t.lead())
    }

    /// The cards `seat` has played so far, in order.
    pub fn played(&self, seat: Seat) -> &[Card] {
        self.play
            .played
            .get(seat.index())
            .map_or(&[], Vec::as_slice)
    }

    /// 第十一条3: the point cards won by the defenders so far.
    pub fn defenders_point_cards(&self) -> &[Card] {
        &self.play.defenders_point_cards
    }

    /// The defenders' score so far (tricks, penalties, then the bottom).
    pub const fn score(&self) -> DefendersScore {
        self.play.score
    }

    /// How many tricks are finished.
    pub const fn tricks_played(&self) -> u32 {
        self.play.tricks
    }

    /// Whether `seat` defends (is not on the dealer's team) in this hand.
    pub fn is_defender(&self, seat: Seat) -> bool {
        self.dealer
            .is_some_and(|dealer| Team::of(dealer) != Team::of(seat))
    }

    /// 第十一条1: a lead: one unit, or a throw checked unbeatable against the others'
    /// cards (第六条5); a failed throw costs `throw_penalty` and its forced unit is led
    /// instead (第十六条). A declaration may not split a unit, and a throw with several
    /// valid splits must be declared ([`undeclared_units`]).
    pub(super) fn lead(
        &mut self,
        seat: Seat,
        cards: Vec<Card>,
        declared: Option<Vec<Vec<Card>>>,
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        let Phase::Leading { seat: leader } = self.phase else {
            return Err(self.wrong_phase("lead"));
        };
        expect_seat(seat, leader, "lead")?;
        let order = self.order_now("lead")?;
        if cards.is_empty() {
            return Err(TuolajiError::EmptyPlay);
        }
        self.check_held(seat, &cards)?;
        let units = match &declared {
            Some(declared) => validate_decomposition(&order, &cards, declared)?,
            None => undeclared_units(&order, &cards)?,
        };
        let mut events = Vec::new();
        let units = if units.len() > 1 {
            let others: Vec<(Seat, &CardCounts)> = [1, 2, 3]
                .map(|d| Seat((seat.0 + d) % 4))
                .into_iter()
                .map(|s| (s, self.holding(s)))
                .collect();
            let holdings: Vec<&CardCounts> = others.iter().map(|(_, h)| *h).collect();
            match check_throw(&order, &units, &holdings) {
                ThrowCheck::Unbeatable => units,
                ThrowCheck::Fails { forced, beaten_by } => {
                    let beaten_by = others.get(beaten_by).map_or(seat, |(s, _)| *s);
                    let defender = self.is_defender(seat);
                    let penalty = i32::try_from(self.options.throw_penalty).unwrap_or(i32::MAX);
                    self.play
                        .score
                        .add_throw_penalty(self.options.throw_penalty, defender);
                    events.push(HandEvent::ThrowFailed {
                        seat,
                        attempted: cards.clone(),
                        forced: forced.cards().to_vec(),
                        beaten_by,
                        penalty: if defender { -penalty } else { penalty },
                        defenders_points: self.play.score.total(),
                    });
                    vec![forced]
                }
            }
        } else {
            units
        };
        let led: Vec<Card> = units
            .iter()
            .flat_map(|u| u.cards().iter().copied())
            .collect();
        self.take_from(seat, &led);
        let record = TrickRecord {
            leader: seat,
            units: units.iter().map(|u| u.cards().to_vec()).collect(),
            plays: vec![(seat, led.clone())],
            winner: None,
        };
        events.push(HandEvent::Led {
            seat,
            cards: led.clone(),
            units: record.units.clone(),
        });
        self.play.previous = None;
        let mut trick = Trick::new(seat, units);
        trick.play(seat, led);
        self.play.current = Some((trick, record));
        self.phase = Phase::Following {
            seat: next_seat(seat),
        };
        self.since = now;
        Ok(events)
    }

    /// 第十一条2: a follow, checked against the lead; the fourth play ends the trick.
    pub(super) fn follow(
        &mut self,
        seat: Seat,
        cards: Vec<Card>,
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        let Phase::Following { seat: follower } = self.phase else {
            return Err(self.wrong_phase("follow"));
        };
        expect_seat(seat, follower, "follow")?;
        let order = self.order_now("follow")?;
        let Some((trick, _)) = &self.play.current else {
            return Err(self.wrong_phase("follow"));
        };
        self.check_held(seat, &cards)?;
        check_follow(&order, trick.lead(), self.holding(seat), &cards)?;
        self.take_from(seat, &cards);
        let mut events = vec![HandEvent::Followed {
            seat,
            cards: cards.clone(),
        }];
        let next = next_seat(seat);
        if let Some((trick, record)) = &mut self.play.current {
            trick.play(seat, cards.clone());
            record.plays.push((seat, cards));
            if record.leader == next {
                events.extend(self.finish_trick());
            } else {
                self.phase = Phase::Following { seat: next };
            }
        }
        self.since = now;
        Ok(events)
    }

    /// 第十二条: the trick's winner takes its points (for the defenders only, 第七条) and
    /// leads next; after the last trick the bottom is scored (第十二条3) and the hand ends.
    fn finish_trick(&mut self) -> Vec<HandEvent> {
        let Some(order) = self.order else {
            return Vec::new();
        };
        let Some((trick, mut record)) = self.play.current.take() else {
            return Vec::new();
        };
        let winner = trick.winner(&order);
        record.winner = Some(winner);
        let points = trick.points();
        let mut captured = Vec::new();
        if self.is_defender(winner) {
            self.play.score.trick_points += points;
            captured.extend(
                record
                    .plays
                    .iter()
                    .flat_map(|(_, cards)| cards.iter().copied())
                    .filter(|c| c.points() > 0),
            );
            self.play.defenders_point_cards.extend_from_slice(&captured);
        }
        self.play.tricks += 1;
        let mut events = vec![HandEvent::TrickWon {
            winner,
            points,
            defenders_points: self.play.score.total(),
            captured,
        }];
        let last = self.holdings.iter().all(CardCounts::is_empty);
        if last {
            let multiplier = bottom_multiplier(trick.lead());
            if self.is_defender(winner) {
                self.play.score.bottom_points = bottom_bonus(points_in(&self.bottom), multiplier);
            }
            let result = self.result_of(winner, multiplier);
            events.push(HandEvent::HandOver {
                result: result.clone(),
            });
            self.result = Some(result);
            self.phase = Phase::Done;
        } else {
            self.phase = Phase::Leading { seat: winner };
        }
        self.play.previous = Some(record);
        events
    }

    /// 第二十条, 第八条3: the level change and the next dealer.
    fn result_of(&self, last_trick_winner: Seat, bottom_multiplier: u32) -> HandResult {
        let dealer = self.dealer.unwrap_or(self.deal.first_drawer());
        // 第十三条: lateness penalties, against the late team's side.
        let mut score = self.play.score;
        for team in Team::ALL {
            let points = self.late_penalty.get(team.index()).copied().unwrap_or(0);
            if points > 0 {
                score.add_penalty(points, team != Team::of(dealer));
            }
        }
        let points = score.total();
        let change = LevelChange::from_points(points);
        HandResult {
            dealer,
            score,
            defenders_points: points,
            bottom: self.bottom.clone(),
            bottom_multiplier,
            last_trick_winner,
            change,
            next_dealer: next_dealer(dealer, change.dealer_went_up()),
        }
    }

    fn order_now(&self, action: &'static str) -> Result<super::super::order::Order, TuolajiError> {
        self.order.ok_or_else(|| self.wrong_phase(action))
    }

    fn check_held(&self, seat: Seat, cards: &[Card]) -> Result<(), TuolajiError> {
        let wanted: CardCounts = cards.iter().copied().collect();
        if self.holding(seat).contains(&wanted) {
            Ok(())
        } else {
            Err(TuolajiError::NotHeld {
                cards: cards.to_vec(),
            })
        }
    }

    /// Removes checked cards from `seat`'s holding and records them as played.
    fn take_from(&mut self, seat: Seat, cards: &[Card]) {
        let counts: CardCounts = cards.iter().copied().collect();
        if let Some(holding) = self.holdings.get_mut(seat.index()) {
            holding.remove_all(&counts);
        }
        if let Some(played) = self.play.played.get_mut(seat.index()) {
            played.extend_from_slice(cards);
        }
    }
}
