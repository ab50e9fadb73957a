//! Leading (第十一条1, 第六条5): safe throws first (unbeatable by any combination of the
//! unseen cards, in a type no opponent is known to ruff), then sure winners, then a low
//! card for a partner who can ruff, then the cheapest low card of a short suit.
//!
//! A throw with several valid splits must be declared (第十一条1): the bot declares the
//! split that suits it, one that no unseen combination beats, the strongest such first.

use qipai_games::cards::Card;
use qipai_games::tuolaji::declare::valid_splits;
use qipai_games::tuolaji::suggest::candidate_leads;
use qipai_games::tuolaji::throw::can_beat;
use qipai_games::tuolaji::{check_throw, decompose, CardType, ThrowCheck, Unit};

use super::situation::{points, Situation};

/// How many single-unit leads are weighed at most.
const CANDIDATES: usize = 400;

/// Whether an opponent is known to be out of `ty` (so a plain lead may be ruffed).
fn opponent_void(s: &Situation, ty: CardType) -> bool {
    ty != CardType::Trump
        && [1u8, 3]
            .map(|d| (s.seat + d) % 4)
            .iter()
            .any(|&o| s.memory.is_void(o, ty))
}

/// Whether a plain suit is still safe from a ruff: no opponent is known void and enough of
/// it is out for everybody to follow `n` cards.
fn ruff_safe(s: &Situation, ty: CardType, n: usize) -> bool {
    ty == CardType::Trump || (!opponent_void(s, ty) && s.unseen_of(ty) >= 3 * n)
}

/// A lead: its cards, and the declared split when the throw has several (第十一条1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lead {
    pub cards: Vec<Card>,
    pub declared: Option<Vec<Vec<Card>>>,
}

/// 第十一条1: the split of `cards` to declare: `None` when it has one valid split (the
/// engine needs no declaration), else the first valid split (canonical first) that no
/// unseen combination beats, or failing that the canonical one.
fn declaration(s: &Situation, cards: &[Card]) -> Option<Vec<Vec<Card>>> {
    let splits = valid_splits(&s.order, cards).ok()?;
    if splits.len() < 2 {
        return None;
    }
    let safe = splits
        .iter()
        .find(|units| check_throw(&s.order, units, &[&s.unseen]) == ThrowCheck::Unbeatable)
        .or(splits.first())?;
    Some(safe.iter().map(|u| u.cards().to_vec()).collect())
}

/// 第六条5: the best safe throw: in one type, every unit the seat holds that no unseen
/// combination beats, checked with the engine's own `check_throw` against the unseen cards
/// (a superset of any opponent's hand, so the server's check cannot fail).
fn safe_throw(s: &Situation) -> Option<Vec<Card>> {
    let types = [CardType::Trump]
        .into_iter()
        .chain(qipai_games::cards::Suit::ALL.map(CardType::Suit));
    let mut best: Option<(i32, Vec<Card>)> = None;
    for ty in types {
        let held = s.held_of(ty);
        if held.len() < 2 {
            continue;
        }
        let Ok(units) = decompose(&s.order, &held) else {
            continue;
        };
        let cards: Vec<Card> = units
            .iter()
            .filter(|u| !can_beat(&s.order, &s.unseen, u))
            .flat_map(|u| u.cards().iter().copied())
            .collect();
        let Ok(throw) = decompose(&s.order, &cards) else {
            continue;
        };
        if throw.len() < 2 || !ruff_safe(s, ty, cards.len()) {
            continue;
        }
        if check_throw(&s.order, &throw, &[&s.unseen]) != ThrowCheck::Unbeatable {
            continue;
        }
        let value = cards.len() as i32 * 4 + points(&cards);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, cards));
        }
    }
    best.map(|(_, c)| c)
}

/// The lead to make, declared when it must be.
pub fn choose_lead(s: &Situation) -> Option<Lead> {
    if let Some(cards) = safe_throw(s) {
        let declared = declaration(s, &cards);
        return Some(Lead { cards, declared });
    }
    choose_unit(s).map(|cards| Lead {
        cards,
        declared: None,
    })
}

/// A one-unit lead (never ambiguous).
fn choose_unit(s: &Situation) -> Option<Vec<Card>> {
    let units: Vec<Unit> = candidate_leads(&s.order, &s.hand, CANDIDATES)
        .into_iter()
        .filter_map(|c| Unit::new(&s.order, &c).ok())
        .collect();
    // Sure winners: nothing unseen beats them and no ruff is expected; the largest first,
    // plain suits before trumps (trumps are kept for ruffing and the last trick).
    let sure = units
        .iter()
        .filter(|u| {
            !can_beat(&s.order, &s.unseen, u) && ruff_safe(s, u.card_type(), u.cards().len())
        })
        .max_by_key(|u| {
            (
                u.cards().len(),
                u.card_type() != CardType::Trump,
                points(u.cards()),
            )
        });
    if let Some(u) = sure {
        // A lone trump is only worth leading to draw trumps while holding many.
        let lone_trump = u.card_type() == CardType::Trump && u.cards().len() == 1;
        let many = s.held_of(CardType::Trump).len() * 3 > s.unseen_of(CardType::Trump);
        if !lone_trump || many {
            return Some(u.cards().to_vec());
        }
    }
    // A partner out of a suit the opponents still hold: a low card for the partner to ruff.
    let partner = s.partner();
    let for_partner = units.iter().filter(|u| {
        let ty = u.card_type();
        u.cards().len() == 1
            && ty != CardType::Trump
            && s.memory.is_void(partner, ty)
            && !opponent_void(s, ty)
            && points(u.cards()) == 0
    });
    if let Some(u) = for_partner.min_by_key(|u| s.cost(u.cards())) {
        return Some(u.cards().to_vec());
    }
    // The cheapest single: no points, short suits first (to ruff them later).
    let singles = units.iter().filter(|u| u.cards().len() == 1);
    singles
        .min_by_key(|u| {
            let ty = u.card_type();
            let trump = i32::from(ty == CardType::Trump) * 30;
            let length = s.held_of(ty).len() as i32;
            s.cost(u.cards()) + 3 * points(u.cards()) + trump + length
        })
        .map(|u| u.cards().to_vec())
}
