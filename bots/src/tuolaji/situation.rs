//! What a seat knows when it plays a card: its cards, the order, the cards still unseen,
//! who deals, and how much each card is worth keeping.

use qipai_games::cards::{Card, CardCounts, Points, Rank};
use qipai_games::tuolaji::{CardType, Order};
use qipai_protocol::tuolaji::TuolajiView;

use super::memory::Memory;
use super::read;

/// One decision's knowledge, from the seat's view and memory only.
pub struct Situation<'a> {
    pub seat: u8,
    pub view: &'a TuolajiView,
    pub memory: &'a Memory,
    pub order: Order,
    pub hand: CardCounts,
    /// Cards in no known place: the other three hands and (unless one dealt) the bottom.
    pub unseen: CardCounts,
    /// Whether the seat's team holds the deal (庄家方) this hand.
    pub dealing_side: bool,
}

impl<'a> Situation<'a> {
    /// The situation of `seat` in `view`, once the trump is known and the seat holds cards.
    pub fn new(seat: u8, view: &'a TuolajiView, memory: &'a Memory) -> Option<Situation<'a>> {
        let order = read::order(view)?;
        let hand = read::holding(view)?;
        let known = view.bottom.as_deref().map(read::counts).unwrap_or_default();
        let unseen = memory.unseen(&hand, &known);
        let dealing_side = view
            .dealer
            .is_some_and(|d| read::team(d) == read::team(seat));
        Some(Situation {
            seat,
            view,
            memory,
            order,
            hand,
            unseen,
            dealing_side,
        })
    }

    /// The seat's partner.
    pub fn partner(&self) -> u8 {
        (self.seat + 2) % 4
    }

    /// Whether `seat` is on the seat's own team.
    pub fn is_friend(&self, seat: u8) -> bool {
        read::team(seat) == read::team(self.seat)
    }

    /// Cards the seat holds now.
    pub fn cards_left(&self) -> usize {
        self.hand.len()
    }

    /// How much a card is worth keeping for later tricks: trumps more than plain cards,
    /// high slots more than low ones, and big trumps more as the hand nears its end (the
    /// last trick decides the bottom, 第十二条3).
    pub fn keep_value(&self, card: Card) -> i32 {
        let slot = i32::from(self.order.slot(card));
        let ty = self.order.card_type(card);
        let top = i32::from(Order::slot_count(ty));
        // Slots count from the lowest (0) up.
        let height = slot * 12 / top.max(1);
        match ty {
            CardType::Trump => {
                let late = if self.cards_left() <= 8 { 6 } else { 0 };
                10 + height + late
            }
            CardType::Suit(_) => {
                let ace = card.rank() == Some(Rank::Ace);
                height + if ace { 4 } else { 0 }
            }
        }
    }

    /// The cards' total keep value.
    pub fn cost(&self, cards: &[Card]) -> i32 {
        cards.iter().map(|&c| self.keep_value(c)).sum()
    }

    /// The unseen cards of type `ty`.
    pub fn unseen_of(&self, ty: CardType) -> usize {
        self.unseen
            .iter()
            .filter(|(c, _)| self.order.card_type(*c) == ty)
            .map(|(_, n)| usize::from(n))
            .sum()
    }

    /// The seat's cards of type `ty`.
    pub fn held_of(&self, ty: CardType) -> Vec<Card> {
        self.hand
            .to_vec()
            .into_iter()
            .filter(|&c| self.order.card_type(c) == ty)
            .collect()
    }
}

/// 第七条: the points in `cards`.
pub fn points(cards: &[Card]) -> i32 {
    cards.iter().map(|c| c.points() as i32).sum()
}
