//! A playing card and its text notation.
//!
//! The card, its suit and rank are the protocol's ([`qipai_protocol::card`]): the rules use
//! the very values that travel, so nothing is converted or parsed between a message and a
//! move. Notation (used on the wire, in tests, tools and docs): rank then suit, ranks
//! `2`–`9`, `T`, `J`, `Q`, `K`, `A`, suits `s h c d`, so `Ts` is the ten of spades and `Kh`
//! the king of hearts; the jokers are `SJ` (small, 小王) and `BJ` (big, 大王).

pub use qipai_protocol::card::{Card, NotationError, Rank, Suit, DISTINCT_CARDS};

/// 第七条: what a card counts for in the points the defenders take.
pub trait Points {
    /// Every 5 is worth 5 points, every 10 and every K 10; the rest nothing.
    fn points(self) -> u32;
}

impl Points for Card {
    fn points(self) -> u32 {
        match self.rank() {
            Some(Rank::Five) => 5,
            Some(Rank::Ten) | Some(Rank::King) => 10,
            _ => 0,
        }
    }
}

/// Reads a space-separated list of cards (`"As Ks Ks"`).
///
/// # Errors
/// [`NotationError`] naming the first word that is not a card.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, NotationError> {
    s.split_whitespace().map(str::parse).collect()
}

/// Writes cards space-separated, the inverse of [`parse_cards`].
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_five_ten_king() {
        let total: u32 = Card::all().map(Card::points).sum();
        assert_eq!(total * 3, 300, "第七条: 300 points in three decks");
    }

    #[test]
    fn a_list_reads_and_writes_back() {
        let cards = parse_cards("As Ks SJ").unwrap();
        assert_eq!(format_cards(&cards), "As Ks SJ");
        assert!(parse_cards("As 1s").is_err());
    }
}
