//! Fast legal actions: what the server plays for a seat whose time ran out, and what bots
//! choose from. Every suggestion is accepted by [`Hand::apply`] (a property test checks it).

use crate::cards::{Card, CardCounts, Points, Suit};
use crate::Seat;

use super::combination::UnitKind;
use super::follow::{candidate_follows, suggest_follow};
use super::hand::{Hand, HandAction, Phase};
use super::order::{CardType, Order};
use super::shape::Shape;

/// The action the server takes for whoever must act now, or `None` when no seat must
/// (during the deal and the bid window nobody has to bid: the suggestion is no bid).
///
/// - naming the trump: the suit the dealer holds most of;
/// - the bottom: the six cards of least value (plain before trump, no points, lowest);
/// - a lead: the lowest single, plain suits before trumps (never a throw, which can fail);
/// - a follow: [`suggest_follow`].
pub fn suggest(hand: &Hand) -> Option<(Seat, HandAction)> {
    match hand.phase() {
        Phase::Dealing | Phase::Bidding { .. } | Phase::Done => None,
        Phase::NamingTrump { dealer } => {
            let suit = longest_suit(hand.holding(dealer));
            Some((dealer, HandAction::NameTrump { suit }))
        }
        Phase::Bottom { dealer } => {
            let order = hand.order()?;
            let cards = lowest_value(order, hand.holding(dealer), 6);
            Some((dealer, HandAction::PutBack { cards }))
        }
        Phase::Leading { seat } => {
            let order = hand.order()?;
            let card = lowest_value(order, hand.holding(seat), 1);
            Some((
                seat,
                HandAction::Lead {
                    cards: card,
                    declared: None,
                },
            ))
        }
        Phase::Following { seat } => {
            let order = hand.order()?;
            let cards = suggest_follow(order, hand.lead_units()?, hand.holding(seat));
            Some((seat, HandAction::Follow { cards }))
        }
    }
}

/// Legal actions for the seat that must act, for bots to choose from: every single unit
/// it could lead (strongest kinds first), or up to `limit` distinct legal follows. Bids
/// are never required, so none is listed; the bottom and the trump get the suggestion.
pub fn candidate_actions(hand: &Hand, limit: usize) -> Vec<HandAction> {
    match hand.phase() {
        Phase::Leading { seat } => hand.order().map_or_else(Vec::new, |order| {
            candidate_leads(order, hand.holding(seat), limit)
                .into_iter()
                .map(|cards| HandAction::Lead {
                    cards,
                    declared: None,
                })
                .collect()
        }),
        Phase::Following { seat } => match (hand.order(), hand.lead_units()) {
            (Some(order), Some(lead)) => candidate_follows(order, lead, hand.holding(seat), limit)
                .into_iter()
                .map(|cards| HandAction::Follow { cards })
                .collect(),
            _ => Vec::new(),
        },
        _ => suggest(hand).map(|(_, a)| vec![a]).unwrap_or_default(),
    }
}

/// 第六条: every unit `holding` can lead on its own (no throws), up to `limit`: per type,
/// triple-tractors (longest first), pair-tractors, triples, pairs, singles, strongest
/// first within a kind.
pub fn candidate_leads(order: &Order, holding: &CardCounts, limit: usize) -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    let types = [CardType::Trump]
        .into_iter()
        .chain(Suit::ALL.map(CardType::Suit));
    for ty in types {
        let shape = Shape::from_counts(order, ty, holding);
        if shape.total() == 0 {
            continue;
        }
        let triples = (2..=shape.longest_run(3))
            .rev()
            .map(UnitKind::TripleTractor);
        let pairs = (2..=shape.longest_run(2)).rev().map(UnitKind::PairTractor);
        let plain = [UnitKind::Triple, UnitKind::Pair, UnitKind::Single];
        for kind in triples.chain(pairs).chain(plain) {
            for inst in shape.instances(kind) {
                if out.len() >= limit {
                    return out;
                }
                out.push(shape.cards_of(&inst));
            }
        }
    }
    out
}

/// 第八条2 (the dealer names the trump): the suit with the most cards held, level cards
/// included (ties: notation order). Public so a client rebuilding the hint from its view
/// chooses the same.
pub fn longest_suit(holding: &CardCounts) -> Suit {
    let mut counts = [0usize; 4];
    for (card, n) in holding.iter() {
        if let Some(i) = card
            .suit()
            .and_then(|s| Suit::ALL.iter().position(|&x| x == s))
        {
            if let Some(c) = counts.get_mut(i) {
                *c += usize::from(n);
            }
        }
    }
    Suit::ALL
        .into_iter()
        .zip(counts)
        .max_by_key(|&(suit, n)| (n, std::cmp::Reverse(suit)))
        .map_or(Suit::Spades, |(suit, _)| suit)
}

/// The `n` cards of least value in `holding`: plain suits before trumps, cards without
/// points before point cards, low slots before high ones.
pub fn lowest_value(order: &Order, holding: &CardCounts, n: usize) -> Vec<Card> {
    let mut cards = holding.to_vec();
    cards.sort_by_cached_key(|&c| (order.is_trump(c), c.points(), order.slot(c)));
    cards.truncate(n);
    cards
}
