//! Reading a Tuolaji view into the engine's types: cards from their notation, the card
//! order from the trump and the level rank, the lead's units. Every rule stays in
//! `qipai_games`; this only translates.

use qipai_games::cards::{Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::{Order, Unit};
use qipai_protocol::tuolaji::{Phase, TuolajiView};

/// Cards from their notation; `None` if one is not a card.
pub fn cards(text: &[String]) -> Option<Vec<Card>> {
    text.iter().map(|c| c.parse().ok()).collect()
}

/// A multiset of cards from their notation; `None` if one is not a card.
pub fn counts(text: &[String]) -> Option<CardCounts> {
    cards(text).map(|c| c.into_iter().collect())
}

/// Cards in the notation, sorted as a view lists a hand (the multiset's order).
pub fn sorted_text(counts: &CardCounts) -> Vec<String> {
    counts.to_vec().iter().map(Card::to_string).collect()
}

/// A suit from its notation letter.
pub fn suit(text: &str) -> Option<Suit> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Suit::from_letter(c),
        _ => None,
    }
}

/// A rank from its notation letter.
pub fn rank(text: &str) -> Option<Rank> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Rank::from_letter(c),
        _ => None,
    }
}

/// 第四条, 第五条: the hand's card order, once the trump suit is known.
pub fn order(view: &TuolajiView) -> Option<Order> {
    let trump = suit(view.trump.as_deref()?)?;
    let level = rank(view.level_rank.as_deref()?)?;
    Some(Order::new(trump, level))
}

/// The seat's own cards, when the view shows them.
pub fn holding(view: &TuolajiView) -> Option<CardCounts> {
    counts(view.hand.as_deref()?)
}

/// The units of the trick being played (what a follower must answer), as the engine's.
pub fn lead_units(order: &Order, view: &TuolajiView) -> Option<Vec<Unit>> {
    let trick = view.current_trick.as_ref()?;
    trick
        .units
        .iter()
        .map(|u| Unit::new(order, &cards(u)?).ok())
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
