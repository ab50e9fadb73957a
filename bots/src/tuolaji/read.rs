//! Reading a Tuolaji view into the engine's types: the card order from the trump and the
//! level rank, a seat's cards as a multiset, the lead's units. The view's cards, suits and
//! ranks are the engine's own values. Every rule stays in `qipai_games`; this only
//! translates.

use qipai_games::cards::{Card, CardCounts};
use qipai_games::tuolaji::{Order, Unit};
use qipai_protocol::tuolaji::{Phase, TuolajiView};

/// A multiset of cards.
pub fn counts(cards: &[Card]) -> CardCounts {
    cards.iter().copied().collect()
}

/// 第四条, 第五条: the hand's card order, once the trump suit is known.
pub fn order(view: &TuolajiView) -> Option<Order> {
    Some(Order::new(view.trump?, view.level_rank?))
}

/// The seat's own cards, when the view shows them.
pub fn holding(view: &TuolajiView) -> Option<CardCounts> {
    view.hand.as_deref().map(counts)
}

/// The units of the trick being played (what a follower must answer), as the engine's.
pub fn lead_units(order: &Order, view: &TuolajiView) -> Option<Vec<Unit>> {
    let trick = view.current_trick.as_ref()?;
    trick
        .units
        .iter()
        .map(|u| Unit::new(order, u).ok())
        .collect()
}

/// The seat that must act in `phase`, if one must.
pub fn to_act(phase: &Phase) -> Option<u8> {
    match *phase {
        Phase::NamingTrump { dealer, .. } | Phase::Bottom { dealer, .. } => Some(dealer),
        Phase::Leading { seat, .. } | Phase::Following { seat, .. } => Some(seat),
        Phase::Waiting
        | Phase::Dealing
        | Phase::Bidding { .. }
        | Phase::TrickPause { .. }
        | Phase::BetweenHands { .. }
        | Phase::Over => None,
    }
}

/// The team of `seat`: 0 for seats 0+2, 1 for seats 1+3.
pub const fn team(seat: u8) -> u8 {
    seat % 2
}

/// The seat after `seat` in play order.
pub const fn next_seat(seat: u8) -> u8 {
    (seat + 1) % 4
}
