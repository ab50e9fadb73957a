//! The view's `hint` (what the server would play for the seat, `qipai_games`'
//! `suggest`), rebuilt from the seat's own view so that a view kept up to date by events
//! carries the same hint as a new snapshot; and [`HintStrategy`], which plays it.
//!
//! `suggest` reads the engine's `Hand`; every input it uses is in the acting seat's view
//! (its cards, the trump, the level rank, the lead's units), so the same choices are made
//! here from the view: the suit held most when naming the trump, the six cards of least
//! value for the bottom, the lowest single as a lead, and `suggest_follow` as a follow.
//! `bots/tests/tuolaji_table.rs` checks the rebuilt hint against real snapshots.

use qipai_games::cards::{Card, CardCounts, Suit};
use qipai_games::tuolaji::{suggest_follow, Order};
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent, TuolajiView};

use super::read;
use super::table::SeatView;
use crate::strategy::Strategy;

/// The hint a snapshot would carry for `seat`: one legal action when the seat must act.
pub fn hint_for(seat: u8, view: &TuolajiView) -> Option<TuolajiAction> {
    if view.outcome.is_some() || read::to_act(&view.phase) != Some(seat) {
        return None;
    }
    let holding = read::holding(view)?;
    match view.phase {
        Phase::NamingTrump { .. } => Some(TuolajiAction::NameTrump {
            suit: longest_suit(&holding).letter().to_string(),
        }),
        Phase::Bottom { .. } => Some(TuolajiAction::PutBack {
            cards: text(&lowest_value(&read::order(view)?, &holding, 6)),
        }),
        Phase::Leading { .. } => Some(TuolajiAction::Lead {
            cards: text(&lowest_value(&read::order(view)?, &holding, 1)),
            declared: None,
        }),
        Phase::Following { .. } => {
            let order = read::order(view)?;
            let lead = read::lead_units(&order, view)?;
            Some(TuolajiAction::Follow {
                cards: text(&suggest_follow(&order, &lead, &holding)),
            })
        }
        Phase::Waiting
        | Phase::Dealing
        | Phase::Bidding { .. }
        | Phase::BetweenHands { .. }
        | Phase::Over => None,
    }
}

fn text(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

/// 第八条2 (the dealer names the trump): the suit with the most cards held, level cards
/// included (ties: notation order), as `suggest` chooses it.
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
/// points before point cards, low slots before high ones (as `suggest` chooses them).
pub fn lowest_value(order: &Order, holding: &CardCounts, n: usize) -> Vec<Card> {
    let mut cards = holding.to_vec();
    cards.sort_by_key(|&c| (order.is_trump(c), c.points(), order.slot(c)));
    cards.truncate(n);
    cards
}

/// Plays the view's hint: exactly what the server would play for the seat. Never bids.
/// Cheap (no search), for load tests and as a benchmark's yardstick.
#[derive(Clone, Copy, Debug, Default)]
pub struct HintStrategy;

impl Strategy for HintStrategy {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn decide(&mut self, seat: u8, view: &SeatView) -> Option<TuolajiAction> {
        if read::to_act(&view.view.phase) != Some(seat) {
            return None;
        }
        view.view
            .hint
            .clone()
            .or_else(|| hint_for(seat, &view.view))
    }
}
