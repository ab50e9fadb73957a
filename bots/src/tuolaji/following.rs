//! Following (第十一条2): among the legal follows the engine lists, the one worth most to
//! the seat's team: feed points to a trick the partner is sure to win, ruff or over-ruff a
//! trick with points when the ruff should hold, and otherwise throw the cheapest cards.

use qipai_games::cards::Card;
use qipai_games::tuolaji::throw::can_beat;
use qipai_games::tuolaji::{candidate_follows, CardType, Trick, Unit};
use qipai_games::Seat;

use super::read;
use super::situation::{points, Situation};

/// How many legal follows are weighed at most.
const CANDIDATES: usize = 64;

/// The value of winning the lead for the next trick, in points.
const LEAD_BONUS: i32 = 3;

/// 第十二条3 (表1): what the last trick's winner adds from the bottom, as the seat
/// expects it: the bottom's points (known to the dealer, else a guess) × the multiplier.
fn bottom_stake(s: &Situation, lead: &[Unit]) -> i32 {
    let n: usize = lead.iter().map(|u| u.cards().len()).sum();
    if s.cards_left() != n {
        return 0;
    }
    let bottom = s.view.bottom.as_deref().map_or(15, points);
    let multiplier = qipai_games::tuolaji::bottom_multiplier(lead) as i32;
    bottom * multiplier
}

/// The chance that `winner`'s play (winning so far) still wins once the seats in `after`
/// have played, judged from the unseen cards and the voids seen.
fn holds(s: &Situation, trick: &Trick, winner: u8, lead: &[Unit], after: &[u8]) -> f32 {
    let opponents: Vec<u8> = after.iter().copied().filter(|&o| !s.is_friend(o)).collect();
    if opponents.is_empty() {
        return 1.0;
    }
    let Some(lead_ty) = lead.first().map(Unit::card_type) else {
        return 0.5;
    };
    let Some((_, cards)) = trick.plays().iter().find(|(seat, _)| seat.0 == winner) else {
        return 0.5;
    };
    let win_ty = s.order.type_of(cards);
    let single = lead.len() == 1;
    let top_unit = if single {
        Unit::new(&s.order, cards).ok()
    } else {
        None
    };
    let beatable = top_unit
        .as_ref()
        .is_some_and(|u| can_beat(&s.order, &s.unseen, u));
    let trumps_out = s.unseen_of(CardType::Trump) > 0;
    let mut p: f32 = 1.0;
    for &o in &opponents {
        let void = lead_ty != CardType::Trump && s.memory.is_void(o, lead_ty);
        if win_ty == Some(lead_ty) {
            if single && beatable {
                p *= 0.5;
            }
            if lead_ty != CardType::Trump {
                if void && trumps_out {
                    p *= 0.25;
                } else if s.unseen_of(lead_ty) < 2 * cards.len() + 2 {
                    // Few cards of the suit are out: somebody may be short of it.
                    p *= 0.7;
                }
            }
        } else if void && (beatable || !single) {
            // A ruff that another void seat may top.
            p *= 0.5;
        }
    }
    p
}

/// The follow to play, or `None` when nothing is to follow.
pub fn choose_follow(s: &Situation, lead: &[Unit]) -> Option<Vec<Card>> {
    let trick = s.view.current_trick.as_ref()?;
    let leader = trick.leader;
    let plays: Vec<(u8, Vec<Card>)> = trick
        .plays
        .iter()
        .map(|p| (p.seat, p.cards.clone()))
        .collect();
    let existing: i32 = plays.iter().map(|(_, c)| points(c)).sum();
    let mut after = Vec::new();
    let mut next = read::next_seat(s.seat);
    while next != leader {
        after.push(next);
        next = read::next_seat(next);
    }
    let stake = bottom_stake(s, lead);
    let candidates = candidate_follows(&s.order, lead, &s.hand, CANDIDATES);
    let mut best: Option<(i32, Vec<Card>)> = None;
    for cards in candidates {
        // Every play in order, the lead first, as the hand records them.
        let mut t = Trick::new(Seat(leader), lead.to_vec());
        for (seat, c) in &plays {
            t.play(Seat(*seat), c.clone());
        }
        t.play(Seat(s.seat), cards.clone());
        let winner = t.winner(&s.order).0;
        let p = if s.is_friend(winner) {
            holds(s, &t, winner, lead, &after)
        } else {
            0.0
        };
        let at_stake = (existing + points(&cards) + LEAD_BONUS + stake) as f32;
        let value = ((2.0 * p - 1.0) * at_stake) as i32 - s.cost(&cards);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, cards));
        }
    }
    best.map(|(_, cards)| cards)
}
