//! A playing card and its text notation.
//!
//! Notation (used in tests, tools and docs): rank then suit, ranks `2`–`9`, `T`, `J`, `Q`,
//! `K`, `A`, suits `s h c d`, so `Ts` is the ten of spades and `Kh` the king of hearts; the
//! jokers are `SJ` (small, 小王) and `BJ` (big, 大王).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the four suits (花色).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    Spades,
    Hearts,
    Clubs,
    Diamonds,
}

impl Suit {
    /// All suits, in notation order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    /// The suit's letter in the card notation.
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
            Suit::Clubs => 'c',
            Suit::Diamonds => 'd',
        }
    }

    /// The suit named by a notation letter.
    pub fn from_letter(c: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == c)
    }

    /// A plural English name for messages ("hearts").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// A rank from two to ace. Its number is its natural order (`Two` = 2, `Ace` = 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks, from two up to ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank's character in the card notation.
    pub const fn letter(self) -> char {
        match self {
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    /// The rank named by a notation character (`T` for ten; `0` is not accepted).
    pub fn from_letter(c: char) -> Option<Rank> {
        Rank::ALL.into_iter().find(|r| r.letter() == c)
    }

    /// The rank one above, or `None` above the ace.
    pub fn next(self) -> Option<Rank> {
        Rank::ALL.get(self as usize - 1).copied()
    }

    /// The rank one below, or `None` below the two.
    pub fn prev(self) -> Option<Rank> {
        (self as usize)
            .checked_sub(3)
            .and_then(|i| Rank::ALL.get(i).copied())
    }
}

/// One card. The three decks hold three of each; identical cards are interchangeable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// A card of a suit.
    Suited { rank: Rank, suit: Suit },
    /// 小王, the small joker.
    SmallJoker,
    /// 大王, the big joker.
    BigJoker,
}

/// How many distinct cards there are (52 suited + 2 jokers); [`Card::index`] is below this.
pub const DISTINCT_CARDS: usize = 54;

impl Card {
    /// Shorthand for a suited card.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited { rank, suit }
    }

    /// A dense index in `0..DISTINCT_CARDS`, for count arrays.
    pub const fn index(self) -> usize {
        match self {
            Card::Suited { rank, suit } => suit.index() * 13 + (rank as usize - 2),
            Card::SmallJoker => 52,
            Card::BigJoker => 53,
        }
    }

    /// The card with the given dense index.
    pub fn from_index(i: usize) -> Option<Card> {
        match i {
            52 => Some(Card::SmallJoker),
            53 => Some(Card::BigJoker),
            _ => {
                let suit = *Suit::ALL.get(i / 13)?;
                let rank = *Rank::ALL.get(i % 13)?;
                Some(Card::new(rank, suit))
            }
        }
    }

    /// Every distinct card, in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DISTINCT_CARDS).filter_map(Card::from_index)
    }

    /// The card's suit, `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited { suit, .. } => Some(suit),
            _ => None,
        }
    }

    /// The card's rank, `None` for a joker.
    pub const fn rank(self) -> Option<Rank> {
        match self {
            Card::Suited { rank, .. } => Some(rank),
            _ => None,
        }
    }

    /// 第七条: every 5 is worth 5 points, every 10 and every K 10; the rest nothing.
    pub const fn points(self) -> u32 {
        match self.rank() {
            Some(Rank::Five) => 5,
            Some(Rank::Ten) | Some(Rank::King) => 10,
            _ => 0,
        }
    }
}

/// A card's notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card: write rank then suit (`Ts`, `Kh`), or `SJ` / `BJ`")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let bad = || ParseCardError(s.to_owned());
        match s {
            "SJ" => return Ok(Card::SmallJoker),
            "BJ" => return Ok(Card::BigJoker),
            _ => {}
        }
        let mut chars = s.chars();
        let (Some(r), Some(u), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let rank = Rank::from_letter(r).ok_or_else(bad)?;
        let suit = Suit::from_letter(u).ok_or_else(bad)?;
        Ok(Card::new(rank, suit))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Suited { rank, suit } => write!(f, "{}{}", rank.letter(), suit.letter()),
            Card::SmallJoker => f.write_str("SJ"),
            Card::BigJoker => f.write_str("BJ"),
        }
    }
}

/// Cards travel as their notation (`"Ts"`), which reads the same in every client.
impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Reads a space-separated list of cards (`"As Ks Ks"`).
///
/// # Errors
/// [`ParseCardError`] naming the first word that is not a card.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, ParseCardError> {
    s.split_whitespace().map(str::parse).collect()
}

/// Writes cards space-separated, the inverse of [`parse_cards`].
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(Card::from_index(card.index()), Some(card));
        }
        assert_eq!(Card::all().count(), DISTINCT_CARDS);
    }

    #[test]
    fn bad_notation_is_rejected() {
        for s in ["", "1s", "10s", "Tx", "Ts ", "sj", "T", "Tss"] {
            assert!(s.parse::<Card>().is_err(), "{s:?}");
        }
    }

    #[test]
    fn points_are_five_ten_king() {
        let total: u32 = Card::all().map(Card::points).sum();
        assert_eq!(total * 3, 300, "第七条: 300 points in three decks");
    }

    #[test]
    fn rank_neighbours() {
        assert_eq!(Rank::Two.prev(), None);
        assert_eq!(Rank::Two.next(), Some(Rank::Three));
        assert_eq!(Rank::Ace.next(), None);
        assert_eq!(Rank::Ace.prev(), Some(Rank::King));
    }
}
