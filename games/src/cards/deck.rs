//! The three decks (第四条) and a multiset of cards.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::card::{Card, DISTINCT_CARDS};

/// How many decks are shuffled together.
pub const DECKS: usize = 3;

/// Cards in play: three decks with jokers, 162 cards.
pub const TOTAL_CARDS: usize = DECKS * DISTINCT_CARDS;

/// The 162 cards in a fixed order (each distinct card three times).
pub fn three_decks() -> Vec<Card> {
    Card::all().flat_map(|c| [c; DECKS]).collect()
}

/// The 162 cards shuffled by `seed`. The same seed gives the same order on every machine
/// (ChaCha8 is specified, unlike `StdRng`), so a deal can be replayed from its seed.
pub fn shuffled(seed: u64) -> Vec<Card> {
    let mut cards = three_decks();
    cards.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    cards
}

/// A multiset of cards: how many of each distinct card. Identical cards are
/// interchangeable (第四条), so a hand is this and not a list.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CardCounts([u8; DISTINCT_CARDS]);

impl CardCounts {
    /// No cards.
    pub const fn new() -> CardCounts {
        CardCounts([0; DISTINCT_CARDS])
    }

    /// How many copies of `card`.
    pub fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// Adds one copy.
    pub fn add(&mut self, card: Card) {
        self.0[card.index()] += 1;
    }

    /// Removes one copy; `false` (and nothing changes) when there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        let n = &mut self.0[card.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// Whether every card of `other` is here, with its multiplicity.
    pub fn contains(&self, other: &CardCounts) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Removes all of `other`; `false` (and nothing changes) unless all of it is here.
    pub fn remove_all(&mut self, other: &CardCounts) -> bool {
        if !self.contains(other) {
            return false;
        }
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a -= b;
        }
        true
    }

    /// Total number of cards.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Each distinct card with its count, in index order, zeros skipped.
    pub fn iter(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .filter_map(|(i, &n)| Some((Card::from_index(i)?, n)))
    }

    /// Every card, repeated by its count, in index order.
    pub fn to_vec(&self) -> Vec<Card> {
        self.iter()
            .flat_map(|(c, n)| std::iter::repeat_n(c, n as usize))
            .collect()
    }
}

impl Default for CardCounts {
    fn default() -> CardCounts {
        CardCounts::new()
    }
}

impl FromIterator<Card> for CardCounts {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardCounts {
        let mut counts = CardCounts::new();
        for card in iter {
            counts.add(card);
        }
        counts
    }
}

impl std::fmt::Debug for CardCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}]", super::card::format_cards(&self.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_decks_hold_162_cards_three_of_each() {
        let deck = three_decks();
        assert_eq!(deck.len(), TOTAL_CARDS);
        let counts: CardCounts = deck.into_iter().collect();
        assert!(Card::all().all(|c| counts.count(c) == 3));
    }

    #[test]
    fn shuffle_is_a_permutation_and_seeded() {
        let a = shuffled(7);
        assert_eq!(a, shuffled(7));
        assert_ne!(a, shuffled(8));
        let counts: CardCounts = a.into_iter().collect();
        assert_eq!(counts, three_decks().into_iter().collect());
    }

    #[test]
    fn remove_all_is_all_or_nothing() {
        let mut hand: CardCounts = super::super::card::parse_cards("As As Kh")
            .unwrap()
            .into_iter()
            .collect();
        let too_many: CardCounts = super::super::card::parse_cards("As As As")
            .unwrap()
            .into_iter()
            .collect();
        let before = hand.clone();
        assert!(!hand.remove_all(&too_many));
        assert_eq!(hand, before);
        assert_eq!(hand.len(), 3);
    }
}
