//! One trick (圈, 第二十一条1): the lead and the follows, its winner with ruffs (枪毙),
//! over-ruffs and ruffed throws (第十二条), its points (第七条), and the bottom multiplier
//! of a last trick's lead (第十二条3, 表1).

use super::combination::{split_into_kinds, Unit, UnitKind};
use super::order::{CardType, Order};
use crate::cards::{Card, Points};
use crate::Seat;

/// A trick in play. The caller checks each play (`check_follow`) before recording it;
/// the trick only judges who wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trick {
    leader: Seat,
    lead: Vec<Unit>,
    plays: Vec<(Seat, Vec<Card>)>,
}

/// What the current winner of a trick has shown, for comparing the next play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Strength {
    /// A trump play beating a non-trump lead (枪毙).
    ruff: bool,
    /// The top slot of its highest-priority unit.
    top: u8,
}

impl Trick {
    /// A trick led by `leader` with the units `lead` (canonical, declared, or the unit
    /// forced by a failed throw). Record every play with [`Trick::play`], the leader's
    /// first.
    pub fn new(leader: Seat, lead: Vec<Unit>) -> Trick {
        Trick {
            leader,
            lead,
            plays: Vec::with_capacity(4),
        }
    }

    /// Records that `seat` played `cards`.
    pub fn play(&mut self, seat: Seat, cards: Vec<Card>) {
        self.plays.push((seat, cards));
    }

    /// Who led.
    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// The lead's units, highest priority first.
    pub fn lead(&self) -> &[Unit] {
        &self.lead
    }

    /// The type led, `None` for an empty lead.
    pub fn lead_type(&self) -> Option<CardType> {
        self.lead.first().map(Unit::card_type)
    }

    /// The plays recorded so far, in order.
    pub fn plays(&self) -> &[(Seat, Vec<Card>)] {
        &self.plays
    }

    /// Whether all four seats have played.
    pub fn is_complete(&self) -> bool {
        self.plays.len() >= 4
    }

    /// 第十二条: who wins the trick so far.
    ///
    /// - A play can beat only if it is the *same combination*: its cards split into exactly
    ///   the lead's unit kinds, all of the led type or, against a non-trump lead, all trumps.
    /// - Same type: a one-unit lead is beaten by a higher top slot; a throw cannot be beaten
    ///   in its own type (it was checked unbeatable).
    /// - Trumps beat a non-trump lead; between two ruffs only the highest-priority units
    ///   compare, by top slot (两家以上同时枪毙).
    /// - Ties go to the play made first; discards (垫牌) never win.
    pub fn winner(&self, order: &Order) -> Seat {
        let Some(ty) = self.lead_type() else {
            return self.leader;
        };
        let mut kinds: Vec<UnitKind> = self.lead.iter().map(Unit::kind).collect();
        kinds.sort_by_key(|&k| std::cmp::Reverse(k));
        let lead_top = self
            .lead
            .iter()
            .max_by_key(|u| (u.kind(), u.top_slot()))
            .map_or(0, Unit::top_slot);
        let mut best = (
            self.leader,
            Strength {
                ruff: false,
                top: lead_top,
            },
        );
        for (seat, cards) in self.plays.iter().filter(|(s, _)| *s != self.leader) {
            let Some(play_ty) = order.type_of(cards) else {
                continue;
            };
            let ruff = play_ty == CardType::Trump && ty != CardType::Trump;
            if play_ty != ty && !ruff {
                continue;
            }
            let Some(units) = split_into_kinds(order, cards, &kinds) else {
                continue;
            };
            let top = units.first().map_or(0, Unit::top_slot);
            let beats = match (ruff, best.1.ruff) {
                (false, true) => false,
                (false, false) => self.lead.len() == 1 && top > best.1.top,
                (true, false) => true,
                (true, true) => top > best.1.top,
            };
            if beats {
                best = (*seat, Strength { ruff, top });
            }
        }
        best.0
    }

    /// 第七条: the points in the trick's cards (5s, 10s and Ks).
    pub fn points(&self) -> u32 {
        let played: u32 = self
            .plays
            .iter()
            .flat_map(|(_, cards)| cards)
            .map(|c| c.points())
            .sum();
        if self.plays.iter().any(|(s, _)| *s == self.leader) {
            played
        } else {
            let led: u32 = self
                .lead
                .iter()
                .flat_map(Unit::cards)
                .map(|c| c.points())
                .sum();
            played + led
        }
    }
}

/// 表1: the bottom multiplier of a last trick led with `lead`: one unit's own multiplier,
/// or for a throw the sum of the multipliers of its two highest-priority units.
pub fn bottom_multiplier(lead: &[Unit]) -> u32 {
    let mut kinds: Vec<UnitKind> = lead.iter().map(Unit::kind).collect();
    kinds.sort_by_key(|&k| std::cmp::Reverse(k));
    kinds.iter().take(2).map(|k| k.bottom_multiplier()).sum()
}
