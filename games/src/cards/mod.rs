//! Cards: one card, its notation and its points ([`card`]; the card itself is the protocol's),
//! the three decks and a multiset ([`deck`]).

pub mod card;
pub mod deck;

pub use card::{
    format_cards, parse_cards, Card, NotationError, Points, Rank, Suit, DISTINCT_CARDS,
};
pub use deck::{shuffled, three_decks, CardCounts, DECKS, TOTAL_CARDS};
