//! Why a Tuolaji action was refused: one enum for the whole game, each variant a sentence
//! for the player naming the rule and what was required, and a stable wire code.

use qipai_protocol::ErrorCode;

use super::order::CardType;
use crate::cards::{format_cards, Card};
use crate::Coded;

/// A refused Tuolaji action. The state is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuolajiError {
    /// No card was played.
    #[error("第十一条: a play needs at least one card")]
    EmptyPlay,

    /// Cards played or shown that the seat does not hold.
    #[error("you do not hold {}", format_cards(.cards))]
    NotHeld { cards: Vec<Card> },

    /// 第十一条1: a lead (and every unit) is all of one type.
    #[error("第十一条1: a lead must be all trumps or all of one suit: {} mixes types", format_cards(.cards))]
    MixedTypes { cards: Vec<Card> },

    /// 第六条: a declared unit is not a single, pair, triple or tractor.
    #[error("第六条: {} is not a single, a pair, a triple or a tractor", format_cards(.cards))]
    NotAUnit { cards: Vec<Card> },

    /// 第十一条1: the declared throw structure does not hold exactly the cards played.
    #[error("第十一条1: the declared units hold {}, but the cards played are {}", format_cards(.declared), format_cards(.played))]
    DecompositionMismatch {
        declared: Vec<Card>,
        played: Vec<Card>,
    },

    /// 第十一条2: a follow has as many cards as the lead.
    #[error("第十一条2: you must play {required} cards, not {played}")]
    WrongCount { required: usize, played: usize },

    /// 第十一条2(1): holding at least n cards of the led type, play exactly n of them.
    #[error("第十一条2: you must play {required} {ty}: you hold {held}")]
    MustFollowType {
        ty: CardType,
        required: usize,
        held: usize,
    },

    /// 第十一条2(1): holding fewer than n cards of the led type, play all of them.
    #[error("第十一条2: you must play all your {ty}: you hold {}", format_cards(.held))]
    MustPlayAllOfType { ty: CardType, held: Vec<Card> },
}

impl Coded for TuolajiError {
    fn code(&self) -> ErrorCode {
        match self {
            TuolajiError::EmptyPlay => ErrorCode::EmptyPlay,
            TuolajiError::NotHeld { .. } => ErrorCode::CardsNotHeld,
            TuolajiError::MixedTypes { .. } => ErrorCode::MixedTypes,
            TuolajiError::NotAUnit { .. } => ErrorCode::NotAUnit,
            TuolajiError::DecompositionMismatch { .. } => ErrorCode::DecompositionMismatch,
            TuolajiError::WrongCount { .. } => ErrorCode::WrongCardCount,
            TuolajiError::MustFollowType { .. } | TuolajiError::MustPlayAllOfType { .. } => {
                ErrorCode::MustFollowType
            }
        }
    }
}
