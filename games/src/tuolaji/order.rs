//! Which cards are trumps, and the order and adjacency of the cards of one type
//! (第四条, 第五条).
//!
//! With trump suit T and level rank L, every card has a *type* (trump, or its suit) and a
//! *slot* inside that type. Slots count from 0 (the weakest) upwards, and two slots are
//! neighbours exactly when their numbers differ by one, so tractors (第六条4) are runs of
//! consecutive slot numbers:
//!
//! ```text
//! a non-trump suit:  2 3 4 … K A without L                 slots 0 ..= 11
//! trumps:            T-2 … T-A without L, off-suit L, T-L, SJ, BJ
//!                                                         slots 0 ..= 15
//! ```
//!
//! The three off-suit level cards share slot 12 of trumps (第六条4: they are of equal rank
//! and never form a tractor with each other), which is why a slot can hold more than one
//! distinct card.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Rank, Suit};

/// How many slots the trump type has: twelve plain ranks, off-suit L, T-L, two jokers.
pub const TRUMP_SLOTS: u8 = 16;

/// How many slots a non-trump suit has: the thirteen ranks without the level rank.
pub const SUIT_SLOTS: u8 = 12;

/// The slot shared by the three off-suit level cards.
const OFF_SUIT_LEVEL_SLOT: u8 = 12;
/// The slot of the trump suit's level card.
const TRUMP_LEVEL_SLOT: u8 = 13;
/// The slot of the small joker.
const SMALL_JOKER_SLOT: u8 = 14;
/// The slot of the big joker.
const BIG_JOKER_SLOT: u8 = 15;

/// 第四条: a card's type (牌种类型): trump (主牌), or one of the non-trump suits (副牌).
/// Cards of different types never form a unit together, and a non-trump suit never beats
/// another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardType {
    /// 主牌: the jokers, every level-rank card and the trump suit.
    Trump,
    /// 副牌: a suit that is not trump, without its level-rank card.
    Suit(Suit),
}

impl CardType {
    /// A plural English name for messages: "trumps", "hearts".
    pub const fn name(self) -> &'static str {
        match self {
            CardType::Trump => "trumps",
            CardType::Suit(suit) => suit.name(),
        }
    }
}

impl fmt::Display for CardType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The order of a hand (第五条): its trump suit and level rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Order {
    trump: Suit,
    level: Rank,
}

impl Order {
    /// The order of a hand whose trump suit is `trump` and level rank `level`.
    pub const fn new(trump: Suit, level: Rank) -> Order {
        Order { trump, level }
    }

    /// The trump suit (主牌花色).
    pub const fn trump(&self) -> Suit {
        self.trump
    }

    /// The level rank (级牌).
    pub const fn level(&self) -> Rank {
        self.level
    }

    /// 第四条: the jokers and every level-rank card are always trumps; the trump suit too.
    pub fn card_type(&self, card: Card) -> CardType {
        match card {
            Card::Suited { rank, suit } if rank != self.level && suit != self.trump => {
                CardType::Suit(suit)
            }
            _ => CardType::Trump,
        }
    }

    /// Whether `card` is a trump.
    pub fn is_trump(&self, card: Card) -> bool {
        self.card_type(card) == CardType::Trump
    }

    /// The one type all of `cards` share, or `None` when they mix types or are empty.
    pub fn type_of(&self, cards: &[Card]) -> Option<CardType> {
        let (first, rest) = cards.split_first()?;
        let ty = self.card_type(*first);
        rest.iter().all(|&c| self.card_type(c) == ty).then_some(ty)
    }

    /// 第五条: the card's slot inside its type; higher is stronger, and neighbouring slots
    /// differ by exactly one (see the module doc for the table).
    pub fn slot(&self, card: Card) -> u8 {
        match card {
            Card::BigJoker => BIG_JOKER_SLOT,
            Card::SmallJoker => SMALL_JOKER_SLOT,
            Card::Suited { rank, suit } if rank == self.level => {
                if suit == self.trump {
                    TRUMP_LEVEL_SLOT
                } else {
                    OFF_SUIT_LEVEL_SLOT
                }
            }
            Card::Suited { rank, .. } => self.plain_slot(rank),
        }
    }

    /// How many slots the type has.
    pub const fn slot_count(ty: CardType) -> u8 {
        match ty {
            CardType::Trump => TRUMP_SLOTS,
            CardType::Suit(_) => SUIT_SLOTS,
        }
    }

    /// Whether two cards are in neighbouring slots of the same type (第六条4).
    pub fn adjacent(&self, a: Card, b: Card) -> bool {
        self.card_type(a) == self.card_type(b) && self.slot(a).abs_diff(self.slot(b)) == 1
    }

    /// The distinct cards in `slot` of type `ty`: one card, except the off-suit level slot
    /// of trumps, which holds the level card of each of the three other suits. Empty when
    /// the slot does not exist.
    pub fn cards_in_slot(&self, ty: CardType, slot: u8) -> impl Iterator<Item = Card> {
        let mut out = [None; 3];
        match ty {
            CardType::Suit(suit) => out[0] = self.plain_rank(slot).map(|r| Card::new(r, suit)),
            CardType::Trump => match slot {
                BIG_JOKER_SLOT => out[0] = Some(Card::BigJoker),
                SMALL_JOKER_SLOT => out[0] = Some(Card::SmallJoker),
                TRUMP_LEVEL_SLOT => out[0] = Some(Card::new(self.level, self.trump)),
                OFF_SUIT_LEVEL_SLOT => {
                    let others = Suit::ALL.into_iter().filter(|&s| s != self.trump);
                    for (o, suit) in out.iter_mut().zip(others) {
                        *o = Some(Card::new(self.level, suit));
                    }
                }
                _ => out[0] = self.plain_rank(slot).map(|r| Card::new(r, self.trump)),
            },
        }
        out.into_iter().flatten()
    }

    /// The slot of a non-level rank: its place among 2 … A with the level rank left out.
    fn plain_slot(&self, rank: Rank) -> u8 {
        let natural = rank as u8 - 2;
        if rank > self.level {
            natural - 1
        } else {
            natural
        }
    }

    /// The non-level rank in a plain slot (`0..12`), the inverse of `plain_slot`.
    fn plain_rank(&self, slot: u8) -> Option<Rank> {
        if slot >= SUIT_SLOTS {
            return None;
        }
        let skip = u8::from(slot + 2 >= self.level as u8);
        Rank::ALL.get(usize::from(slot + skip)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn every_card_round_trips_through_its_slot() {
        for suit in Suit::ALL {
            for level in Rank::ALL {
                let order = Order::new(suit, level);
                for c in Card::all() {
                    let ty = order.card_type(c);
                    let slot = order.slot(c);
                    assert!(slot < Order::slot_count(ty));
                    assert!(
                        order.cards_in_slot(ty, slot).any(|x| x == c),
                        "{c} {level:?}"
                    );
                }
                let trumps: usize = (0..TRUMP_SLOTS)
                    .map(|s| order.cards_in_slot(CardType::Trump, s).count())
                    .sum();
                assert_eq!(trumps, 18, "4 level cards, 12 trump-suit cards, 2 jokers");
            }
        }
    }

    #[test]
    fn level_ace_puts_off_suit_ace_next_to_trump_king() {
        let order = Order::new(Suit::Hearts, Rank::Ace);
        assert!(order.adjacent(card("As"), card("Kh")));
        assert!(order.adjacent(card("As"), card("Ah")));
        assert!(!order.adjacent(card("As"), card("Ad")));
        let slots: Vec<u8> = parse_cards("Kh As Ah SJ BJ")
            .unwrap()
            .into_iter()
            .map(|c| order.slot(c))
            .collect();
        assert_eq!(slots, [11, 12, 13, 14, 15]);
    }
}
