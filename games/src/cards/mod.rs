//! Cards: one card and its notation ([`card`]), the three decks and a multiset ([`deck`]).

pub mod card;
pub mod deck;

pub use card::{format_cards, parse_cards, Card, ParseCardError, Rank, Suit, DISTINCT_CARDS};
pub use deck::{shuffled, three_decks, CardCounts, DECKS, TOTAL_CARDS};
