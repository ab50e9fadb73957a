//! The bottom exchange (留底, 第九条2): the dealer takes the six bottom cards and puts back
//! any six of the cards they then hold, face down.

use crate::cards::{Card, CardCounts, Points};

use super::deal::BOTTOM_SIZE;
use super::error::TuolajiError;

/// 第九条2: checks that `put_back` is exactly six cards the dealer holds once the bottom is
/// in their hand (`holding`), and returns them as a multiset.
///
/// # Errors
/// - [`TuolajiError::BottomWrongSize`] unless exactly six cards are put back;
/// - [`TuolajiError::NotHeld`] when the dealer does not hold them all.
pub fn check_put_back(holding: &CardCounts, put_back: &[Card]) -> Result<CardCounts, TuolajiError> {
    if put_back.len() != BOTTOM_SIZE {
        return Err(TuolajiError::BottomWrongSize {
            given: put_back.len(),
        });
    }
    let cards: CardCounts = put_back.iter().copied().collect();
    if !holding.contains(&cards) {
        return Err(TuolajiError::NotHeld {
            cards: put_back.to_vec(),
        });
    }
    Ok(cards)
}

/// 第七条: the points in a set of cards (the bottom's, a trick's).
pub fn points_in(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.points()).sum()
}
