//! The deal (第九条): 162 shuffled cards drawn one at a time in play order, 39 to each seat,
//! the last 6 left as the bottom (底牌).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cards::{shuffled, Card, CardCounts, TOTAL_CARDS};
use crate::Seat;

/// 第九条2: every player draws 39 cards.
pub const HOLDING_SIZE: usize = 39;

/// 第九条2: six cards are left for the bottom.
pub const BOTTOM_SIZE: usize = 6;

/// Cards drawn by the players before the bottom is left: 4 × 39.
pub const DRAWN: usize = 4 * HOLDING_SIZE;

/// The cards of one hand in the order they are drawn, and who draws first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    cards: Vec<Card>,
    first_drawer: Seat,
}

impl Deal {
    /// The deck shuffled by `seed`, drawn from `first_drawer` on (第九条1: in later hands the
    /// dealer draws first).
    pub fn new(seed: u64, first_drawer: Seat) -> Deal {
        Deal {
            cards: shuffled(seed),
            first_drawer: Seat(first_drawer.0 % 4),
        }
    }

    /// 第九条1: in the first hand an elder cuts the deck to choose who draws first; here the
    /// seed chooses, from a random stream apart from the shuffle's.
    pub fn random_first_drawer(seed: u64) -> Seat {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(1);
        Seat(rng.random_range(0..4u8))
    }

    /// Who draws the first card.
    pub const fn first_drawer(&self) -> Seat {
        self.first_drawer
    }

    /// The `i`-th card drawn (0-based) and who receives it, or `None` past the 156th card:
    /// the rest is the bottom.
    pub fn draw(&self, i: usize) -> Option<(Seat, Card)> {
        if i >= DRAWN {
            return None;
        }
        let card = *self.cards.get(i)?;
        // i < 156, so i % 4 fits a u8.
        let seat = Seat((self.first_drawer.0 + (i % 4) as u8) % 4);
        Some((seat, card))
    }

    /// The six cards left after the draw.
    pub fn bottom(&self) -> &[Card] {
        self.cards.get(DRAWN..TOTAL_CARDS).unwrap_or(&[])
    }

    /// What each seat holds once every card is drawn (indexed by seat).
    pub fn holdings(&self) -> [CardCounts; 4] {
        let mut out: [CardCounts; 4] = Default::default();
        for (seat, card) in (0..DRAWN).filter_map(|i| self.draw(i)) {
            if let Some(h) = out.get_mut(seat.index()) {
                h.add(card);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 第九条2: 39 cards each and 6 in the bottom, 162 in all.
    #[test]
    fn everyone_gets_39_and_six_are_left() {
        let deal = Deal::new(11, Seat(2));
        let holdings = deal.holdings();
        assert!(holdings.iter().all(|h| h.len() == HOLDING_SIZE));
        assert_eq!(deal.bottom().len(), BOTTOM_SIZE);
        let mut all: CardCounts = deal.bottom().iter().copied().collect();
        for h in &holdings {
            for c in h.to_vec() {
                all.add(c);
            }
        }
        assert_eq!(all, crate::cards::three_decks().into_iter().collect());
    }

    /// 第九条1: the first drawer takes the first card, then play order, one card at a time.
    #[test]
    fn cards_go_round_in_play_order_from_the_first_drawer() {
        let deal = Deal::new(5, Seat(3));
        let seats: Vec<u8> = (0..6)
            .filter_map(|i| deal.draw(i))
            .map(|(s, _)| s.0)
            .collect();
        assert_eq!(seats, [3, 0, 1, 2, 3, 0]);
        assert_eq!(deal.draw(DRAWN), None);
    }

    /// The first drawer of a first hand is a function of the seed, and every seat can be it.
    #[test]
    fn first_drawer_is_seeded() {
        assert_eq!(Deal::random_first_drawer(9), Deal::random_first_drawer(9));
        let seen: std::collections::HashSet<u8> =
            (0..64).map(|s| Deal::random_first_drawer(s).0).collect();
        assert_eq!(seen.len(), 4);
    }
}
