//! A playing card, a suit and a rank, as every Tuolaji message carries them and as the
//! rules in `qipai_games` use them: small `Copy` values, written on the wire in their notation.
//!
//! Notation: rank then suit, ranks `2`–`9`, `T`, `J`, `Q`, `K`, `A`, suits `s h c d`, so
//! `Ts` is the ten of spades and `Kh` the king of hearts; the jokers are `SJ` (small, 小王)
//! and `BJ` (big, 大王). A suit alone is its letter (`h`), a rank alone its character (`T`).
//!
//! Every card's notation is two ASCII characters and every suit's and rank's one, all kept
//! in static text: serialising one writes that text (no `String` is made), and reading one
//! parses the borrowed string the decoder hands over. Text that is not in the notation is
//! refused with a [`NotationError`], which the codec answers with `bad_card` (PROTOCOL §13).
//!
//! # Format
//! ```text
//! "Ts"   "SJ"   "BJ"     (cards)
//! "h"                    (a suit)
//! "T"                    (a rank: the level rank of a hand)
//! ```

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the four suits (花色), in notation order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Spades,
    Hearts,
    Clubs,
    Diamonds,
}

impl Suit {
    /// All suits, in notation order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    /// The suit's notation: its letter as text.
    pub const fn as_str(self) -> &'static str {
        match self {
            Suit::Spades => "s",
            Suit::Hearts => "h",
            Suit::Clubs => "c",
            Suit::Diamonds => "d",
        }
    }

    /// The suit's letter in the card notation.
    pub const fn letter(self) -> char {
        self.as_str().as_bytes()[0] as char
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
}

/// A rank from two to ace. Its number is its natural order (`Two` = 2, `Ace` = 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

    /// The rank's notation: its character as text (`T` for ten).
    pub const fn as_str(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "T",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// The rank's character in the card notation.
    pub const fn letter(self) -> char {
        self.as_str().as_bytes()[0] as char
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

/// One card: two bytes. The three decks hold three of each; identical cards are
/// interchangeable. Ordered by rank, then suit, the jokers last (small, then big).
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

/// Every card's notation, in [`Card::index`] order, two characters each.
const NOTATION: &str = concat!(
    "2s3s4s5s6s7s8s9sTsJsQsKsAs",
    "2h3h4h5h6h7h8h9hThJhQhKhAh",
    "2c3c4c5c6c7c8c9cTcJcQcKcAc",
    "2d3d4d5d6d7d8d9dTdJdQdKdAd",
    "SJBJ",
);

impl Card {
    /// Shorthand for a suited card.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited { rank, suit }
    }

    /// A dense index in `0..DISTINCT_CARDS`, for count arrays: by suit, then rank.
    pub const fn index(self) -> usize {
        match self {
            Card::Suited { rank, suit } => suit as usize * 13 + (rank as usize - 2),
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

    /// The card's notation (`"Ts"`, `"SJ"`), static text.
    pub fn as_str(self) -> &'static str {
        let at = self.index() * 2;
        NOTATION.get(at..at + 2).unwrap_or_default()
    }
}

/// Why text is not a card, a suit or a rank: it names the text (cut short) and says how to
/// write one. Its message is what a client reads beside `bad_card`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("`{0}` is not a card: write rank then suit (`Ts`, `Kh`), or `SJ` / `BJ`")]
    Card(String),
    #[error("`{0}` is not a suit: write s, h, c or d")]
    Suit(String),
    #[error("`{0}` is not a rank: write 2–9, T, J, Q, K or A")]
    Rank(String),
}

/// How much of refused text an error echoes: a card is two characters, so this is plenty.
const ECHOED_CHARS: usize = 12;

/// The start of refused text, for a message.
fn echoed(text: &str) -> String {
    match text.char_indices().nth(ECHOED_CHARS) {
        Some((i, _)) => text.get(..i).unwrap_or_default().to_owned(),
        None => text.to_owned(),
    }
}

impl NotationError {
    /// Whether a decoder's message is one of these: how the codec tells a card that is not
    /// in the notation (`bad_card`) from a message of the wrong shape (`bad_shape`). Only
    /// these messages start with the echoed text in backticks; serde's own start with words.
    pub fn is_its_message(message: &str) -> bool {
        const ENDINGS: [&str; 3] = [
            "` is not a card: write rank then suit (`Ts`, `Kh`), or `SJ` / `BJ`",
            "` is not a suit: write s, h, c or d",
            "` is not a rank: write 2–9, T, J, Q, K or A",
        ];
        message.starts_with('`') && ENDINGS.iter().any(|end| message.ends_with(end))
    }
}

/// The one character of `text`, if it is exactly one.
fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

impl FromStr for Card {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Card, NotationError> {
        let card = match s.as_bytes() {
            b"SJ" => Some(Card::SmallJoker),
            b"BJ" => Some(Card::BigJoker),
            [r, u] => Rank::from_letter(char::from(*r))
                .zip(Suit::from_letter(char::from(*u)))
                .map(|(rank, suit)| Card::new(rank, suit)),
            _ => None,
        };
        card.ok_or_else(|| NotationError::Card(echoed(s)))
    }
}

impl FromStr for Suit {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Suit, NotationError> {
        single_char(s)
            .and_then(Suit::from_letter)
            .ok_or_else(|| NotationError::Suit(echoed(s)))
    }
}

impl FromStr for Rank {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Rank, NotationError> {
        single_char(s)
            .and_then(Rank::from_letter)
            .ok_or_else(|| NotationError::Rank(echoed(s)))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serde for a value written as its notation: the static text out, the borrowed (or
/// buffered) string in, parsed where it lies. Raw bytes are read as text too, as a `String`
/// field read them before cards had a type of their own.
macro_rules! notation_serde {
    ($($Type:ident: $expecting:literal),+ $(,)?) => {$(
        impl Serialize for $Type {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $Type {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$Type, D::Error> {
                struct Text;

                impl Visitor<'_> for Text {
                    type Value = $Type;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }

                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$Type, E> {
                        v.parse().map_err(E::custom)
                    }

                    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<$Type, E> {
                        match std::str::from_utf8(v) {
                            Ok(text) => self.visit_str(text),
                            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
                        }
                    }
                }

                d.deserialize_str(Text)
            }
        }
    )+};
}

notation_serde! {
    Card: "a card in the notation (`Ts`, `SJ`)",
    Suit: "a suit letter (s, h, c or d)",
    Rank: "a rank character (2–9, T, J, Q, K or A)",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(Card::from_index(card.index()), Some(card));
            if let Card::Suited { rank, suit } = card {
                assert_eq!(card.as_str(), format!("{rank}{suit}"));
            }
        }
        assert_eq!(Card::all().count(), DISTINCT_CARDS);
        assert_eq!(
            (Card::SmallJoker.as_str(), Card::BigJoker.as_str()),
            ("SJ", "BJ")
        );
    }

    #[test]
    fn bad_notation_is_rejected() {
        for s in ["", "1s", "10s", "Tx", "Ts ", "sj", "T", "Tss", "é", "Sé"] {
            let err = s.parse::<Card>().unwrap_err();
            assert!(NotationError::is_its_message(&err.to_string()), "{s:?}");
        }
        for s in ["", "x", "S", "sh"] {
            let err = s.parse::<Suit>().unwrap_err();
            assert!(NotationError::is_its_message(&err.to_string()), "{s:?}");
        }
        for s in ["", "1", "10", "t"] {
            let err = s.parse::<Rank>().unwrap_err();
            assert!(NotationError::is_its_message(&err.to_string()), "{s:?}");
        }
        let long = "Z".repeat(10_000);
        assert!(long.parse::<Card>().unwrap_err().to_string().len() < 100);
    }

    /// The wire keeps the notation: `"Ts"`, `"SJ"`, `"h"`, `"T"`, as strings did.
    #[test]
    fn the_wire_is_the_notation() {
        let ten = Card::new(Rank::Ten, Suit::Spades);
        assert_eq!(serde_json::to_string(&ten).unwrap(), r#""Ts""#);
        assert_eq!(serde_json::to_string(&Card::SmallJoker).unwrap(), r#""SJ""#);
        assert_eq!(serde_json::to_string(&Suit::Hearts).unwrap(), r#""h""#);
        assert_eq!(serde_json::to_string(&Rank::Ten).unwrap(), r#""T""#);
        for card in Card::all() {
            let bytes = rmp_serde::to_vec(&card).unwrap();
            assert_eq!(bytes, rmp_serde::to_vec(card.as_str()).unwrap());
            assert_eq!(rmp_serde::from_slice::<Card>(&bytes).unwrap(), card);
        }
        let bin = rmp_serde::to_vec(&Bin(b"Kh")).unwrap();
        assert_eq!(
            rmp_serde::from_slice::<Card>(&bin).unwrap(),
            Card::new(Rank::King, Suit::Hearts)
        );
        let err = rmp_serde::from_slice::<Card>(&rmp_serde::to_vec("Zz").unwrap()).unwrap_err();
        assert!(NotationError::is_its_message(&err.to_string()), "{err}");
        assert!(serde_json::from_str::<Card>("5").is_err());
    }

    /// Raw bytes, which MessagePack writes as a `bin` value.
    struct Bin(&'static [u8]);

    impl Serialize for Bin {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }

    /// Small values: a card is two bytes, a suit and a rank one.
    #[test]
    fn cards_are_small() {
        assert_eq!(std::mem::size_of::<Card>(), 2);
        assert_eq!(std::mem::size_of::<Option<Card>>(), 2);
        assert_eq!(std::mem::size_of::<Suit>(), 1);
        assert_eq!(std::mem::size_of::<Rank>(), 1);
    }

    #[test]
    fn rank_neighbours() {
        assert_eq!(Rank::Two.prev(), None);
        assert_eq!(Rank::Two.next(), Some(Rank::Three));
        assert_eq!(Rank::Ace.next(), None);
        assert_eq!(Rank::Ace.prev(), Some(Rank::King));
    }
}
