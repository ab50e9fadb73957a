//! Why a Tuolaji action was refused: one enum for the whole game, each variant a sentence
//! for the player naming the rule and what was required, and a stable wire code.

use qipai_protocol::{ErrorCode, ErrorDetails};

use super::combination::{describe_kinds, UnitKind};
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

    /// 第十一条1, 第六条: declared units that together form one unit (a pair declared as two
    /// singles, a tractor as its pairs).
    #[error("第六条: a declaration may not split a unit: {} is one unit", format_cards(.unit))]
    DeclarationSplitsUnit { unit: Vec<Card> },

    /// 第十一条1: the throw can be split into units in more than one valid way; the leader
    /// must declare which (`splits` lists them, each a list of units).
    #[error("第十一条1: say how this throw is made up: {}", describe_splits(.splits))]
    DeclareStructure { splits: Vec<Vec<Vec<Card>>> },

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

    /// 第十一条2(2): the follow does not match the lead's structure as closely as the
    /// follower's cards of the led type allow; `held` is one way to do it.
    #[error("第十一条2: {} of {ty} is required: you hold {}", describe_kinds(.required), format_cards(.held))]
    MustMatchStructure {
        ty: CardType,
        required: Vec<UnitKind>,
        held: Vec<Card>,
    },

    // --- the hand and the match (deal, bids, bottom, turns) ---
    /// 第十条1: a bid shows at least one card.
    #[error("第十条1: a bid shows one or more level-rank cards")]
    BidNoCards,

    /// 第十条1: a bid shows identical level-rank cards of one suit; jokers cannot bid.
    #[error("第十条1: a bid shows identical level-rank cards ({}) of one suit, not {}", .level.letter(), format_cards(.cards))]
    BidNotLevelCards {
        level: crate::cards::Rank,
        cards: Vec<Card>,
    },

    /// 第十条1: the current bidder may only strengthen, in the same suit.
    #[error("第十条1: you hold the bid in {}: you may only strengthen it with more cards of that suit", .suit.name())]
    StrengthenOtherSuit { suit: crate::cards::Suit },

    /// 第十条1: strengthening shows more cards than the standing bid.
    #[error(
        "第十条1: to strengthen your bid, show more than the {standing} card(s) already shown"
    )]
    StrengthenTooFew { standing: u8 },

    /// 第十条2: a counter-bid shows strictly more identical level cards.
    #[error("第十条2: a counter-bid must show more identical level-rank cards than the {standing} shown: {needed} are required")]
    CounterBidTooFew { standing: u8, needed: u8 },

    /// 第十条2: three identical level cards are the most there are.
    #[error("第十条2: a bid of three identical level-rank cards cannot be countered")]
    BidCannotBeCountered,

    /// 第十条2: no bid once the window after the last card has closed.
    #[error("第十条2: bidding has closed; no bid is accepted any more")]
    BiddingClosed,

    /// 第十条2: bidding stays open for the window after the last card.
    #[error("第十条2: bidding stays open until {closes_at} ms")]
    BiddingOpen { closes_at: u64 },

    /// 第九条2: the dealer puts back exactly six cards.
    #[error("第九条2: put back exactly 6 cards, not {given}")]
    BottomWrongSize { given: usize },

    /// Another seat must act now.
    #[error("it is seat {expected}'s turn to {action}, not yours")]
    NotYourTurn { expected: u8, action: &'static str },

    /// Tuolaji has seats 0 to 3 only.
    #[error("there is no seat {seat}: Tuolaji seats are 0 to 3")]
    NoSuchSeat { seat: u8 },

    /// A hand set up from a position that cannot happen.
    #[error("this position cannot happen: {why}")]
    BadPosition { why: &'static str },

    /// The action does not fit this moment of the hand.
    #[error("you cannot {action} now: {wanted}")]
    WrongPhase {
        action: &'static str,
        wanted: &'static str,
    },

    /// 第二条: the game is over once a team has passed A (or the round has ended).
    #[error("第二条: the game is over; no more hands are dealt")]
    MatchOver,

    /// An option this server does not support.
    #[error("the option {name} is not supported: {why}")]
    UnsupportedOption {
        name: &'static str,
        why: &'static str,
    },
}

impl Coded for TuolajiError {
    fn code(&self) -> ErrorCode {
        match self {
            TuolajiError::BidNoCards
            | TuolajiError::BidNotLevelCards { .. }
            | TuolajiError::StrengthenOtherSuit { .. } => ErrorCode::BadBid,
            TuolajiError::StrengthenTooFew { .. }
            | TuolajiError::CounterBidTooFew { .. }
            | TuolajiError::BidCannotBeCountered => ErrorCode::BidTooWeak,
            TuolajiError::BiddingClosed => ErrorCode::BiddingClosed,
            TuolajiError::BiddingOpen { .. } => ErrorCode::BiddingOpen,
            TuolajiError::BottomWrongSize { .. } => ErrorCode::BadBottom,
            TuolajiError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            TuolajiError::NoSuchSeat { .. } => ErrorCode::NotSeated,
            TuolajiError::BadPosition { .. } => ErrorCode::BadOptions,
            TuolajiError::WrongPhase { .. } => ErrorCode::WrongPhase,
            TuolajiError::MatchOver => ErrorCode::GameOver,
            TuolajiError::UnsupportedOption { .. } => ErrorCode::BadOptions,
            TuolajiError::EmptyPlay => ErrorCode::EmptyPlay,
            TuolajiError::NotHeld { .. } => ErrorCode::CardsNotHeld,
            TuolajiError::MixedTypes { .. } => ErrorCode::MixedTypes,
            TuolajiError::NotAUnit { .. } => ErrorCode::NotAUnit,
            TuolajiError::DecompositionMismatch { .. } => ErrorCode::DecompositionMismatch,
            TuolajiError::DeclarationSplitsUnit { .. } => ErrorCode::DeclarationSplitsUnit,
            TuolajiError::DeclareStructure { .. } => ErrorCode::DeclareStructure,
            TuolajiError::WrongCount { .. } => ErrorCode::WrongCardCount,
            TuolajiError::MustFollowType { .. } | TuolajiError::MustPlayAllOfType { .. } => {
                ErrorCode::MustFollowType
            }
            TuolajiError::MustMatchStructure { .. } => ErrorCode::MustMatchStructure,
        }
    }
}

impl TuolajiError {
    /// The refusal's details for a client: the article, the card type, the unit
    /// kinds and the cards that matter, in the wire's notation.
    pub fn details(&self) -> Option<ErrorDetails> {
        use TuolajiError as E;
        let d = match self {
            E::EmptyPlay => ErrorDetails::rule("empty_play", "第十一条"),
            E::NotHeld { cards } => with_cards(ErrorDetails::rule("not_held", ""), cards),
            E::MixedTypes { cards } => {
                with_cards(ErrorDetails::rule("mixed_types", "第十一条1"), cards)
            }
            E::NotAUnit { cards } => with_cards(ErrorDetails::rule("not_a_unit", "第六条"), cards),
            E::DecompositionMismatch { played, .. } => with_cards(
                ErrorDetails::rule("decomposition_mismatch", "第十一条1"),
                played,
            ),
            E::DeclarationSplitsUnit { unit } => with_cards(
                ErrorDetails::rule("declaration_splits_unit", "第六条"),
                unit,
            ),
            E::DeclareStructure { .. } => ErrorDetails::rule("declare_structure", "第十一条1"),
            E::WrongCount { required, played } => ErrorDetails {
                required: Some(count(*required)),
                count: Some(count(*played)),
                ..ErrorDetails::rule("wrong_count", "第十一条2")
            },
            E::MustFollowType { ty, required, held } => ErrorDetails {
                card_type: Some(type_key(*ty)),
                required: Some(count(*required)),
                count: Some(count(*held)),
                ..ErrorDetails::rule("must_follow_type", "第十一条2")
            },
            E::MustPlayAllOfType { ty, held } => ErrorDetails {
                card_type: Some(type_key(*ty)),
                ..with_cards(ErrorDetails::rule("must_play_all", "第十一条2"), held)
            },
            E::MustMatchStructure { ty, required, held } => ErrorDetails {
                card_type: Some(type_key(*ty)),
                units: Some(required.iter().map(|k| unit_key(*k)).collect()),
                ..with_cards(
                    ErrorDetails::rule("must_match_structure", "第十一条2"),
                    held,
                )
            },
            E::BidNoCards => ErrorDetails::rule("bid_no_cards", "第十条1"),
            E::BidNotLevelCards { cards, .. } => {
                with_cards(ErrorDetails::rule("bid_not_level_cards", "第十条1"), cards)
            }
            E::StrengthenOtherSuit { suit } => ErrorDetails {
                card_type: Some(suit.letter().to_string()),
                ..ErrorDetails::rule("strengthen_other_suit", "第十条1")
            },
            E::StrengthenTooFew { standing } => ErrorDetails {
                count: Some(u32::from(*standing)),
                ..ErrorDetails::rule("strengthen_too_few", "第十条1")
            },
            E::CounterBidTooFew { standing, needed } => ErrorDetails {
                count: Some(u32::from(*standing)),
                required: Some(u32::from(*needed)),
                ..ErrorDetails::rule("counter_bid_too_few", "第十条2")
            },
            E::BidCannotBeCountered => ErrorDetails::rule("cannot_be_countered", "第十条2"),
            E::BiddingClosed => ErrorDetails::rule("bidding_closed", "第十条2"),
            E::BiddingOpen { .. } => ErrorDetails::rule("bidding_open", "第十条2"),
            E::BottomWrongSize { given } => ErrorDetails {
                required: Some(6),
                count: Some(count(*given)),
                ..ErrorDetails::rule("bottom_wrong_size", "第九条2")
            },
            E::NotYourTurn { expected, .. } => ErrorDetails {
                seat: Some(*expected),
                ..ErrorDetails::rule("not_your_turn", "")
            },
            E::MatchOver => ErrorDetails::rule("match_over", "第二条"),
            E::NoSuchSeat { .. }
            | E::BadPosition { .. }
            | E::WrongPhase { .. }
            | E::UnsupportedOption { .. } => return None,
        };
        Some(d)
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn with_cards(details: ErrorDetails, cards: &[Card]) -> ErrorDetails {
    ErrorDetails {
        cards: Some(cards.to_vec()),
        ..details
    }
}

/// `trump`, or the suit's letter.
fn type_key(ty: CardType) -> String {
    match ty {
        CardType::Trump => "trump".to_owned(),
        CardType::Suit(suit) => suit.letter().to_string(),
    }
}

/// A unit kind on the wire: `single`, `pair`, `triple`, `pair_tractor:K`, `triple_tractor:K`.
fn unit_key(kind: UnitKind) -> String {
    match kind {
        UnitKind::Single => "single".to_owned(),
        UnitKind::Pair => "pair".to_owned(),
        UnitKind::Triple => "triple".to_owned(),
        UnitKind::PairTractor(k) => format!("pair_tractor:{k}"),
        UnitKind::TripleTractor(k) => format!("triple_tractor:{k}"),
    }
}

/// The splits of a throw for a message: `[QsQsQs][KsKs] or [QsQsKsKs][Qs]`.
fn describe_splits(splits: &[Vec<Vec<Card>>]) -> String {
    splits
        .iter()
        .map(|units| {
            units
                .iter()
                .map(|u| format!("[{}]", format_cards(u)))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, Suit};

    /// 第十一条2: a refused follow carries the article, the led type, the unit kinds and the
    /// cards the player holds that matter, for the page's "需要跟一对红桃，你有 9♥9♥".
    #[test]
    fn a_refused_follow_carries_its_article_units_and_cards() {
        let e = TuolajiError::MustMatchStructure {
            ty: CardType::Suit(Suit::Hearts),
            required: vec![UnitKind::PairTractor(2), UnitKind::Pair],
            held: parse_cards("9h 9h").unwrap(),
        };
        let d = e.details().unwrap();
        assert_eq!(d.article.as_deref(), Some("第十一条2"));
        assert_eq!(d.reason.as_deref(), Some("must_match_structure"));
        assert_eq!(d.card_type.as_deref(), Some("h"));
        assert_eq!(
            d.units,
            Some(vec!["pair_tractor:2".to_owned(), "pair".to_owned()])
        );
        assert_eq!(d.cards, Some(parse_cards("9h 9h").unwrap()));
        let all = TuolajiError::MustPlayAllOfType {
            ty: CardType::Trump,
            held: parse_cards("SJ").unwrap(),
        };
        let d = all.details().unwrap();
        assert_eq!(d.card_type.as_deref(), Some("trump"));
        assert_eq!(d.reason.as_deref(), Some("must_play_all"));
        assert_eq!(all.code(), ErrorCode::MustFollowType);
    }
}
