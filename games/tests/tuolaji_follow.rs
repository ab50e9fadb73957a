//! Golden tests for 第十一条2 (following): the count rule, `match()` structure, and the
//! explanations given for an illegal follow.

use qipai_games::cards::{parse_cards, Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::follow::match_record;
use qipai_games::tuolaji::{
    candidate_follows, check_follow, decompose, suggest_follow, Order, TuolajiError, Unit, UnitKind,
};

use UnitKind::{Pair, PairTractor, Triple};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn holding(s: &str) -> CardCounts {
    cards(s).into_iter().collect()
}

fn lead(order: &Order, s: &str) -> Vec<Unit> {
    decompose(order, &cards(s)).unwrap()
}

/// `check_follow` of `play` from `hold` to the lead `led`.
fn follow(order: &Order, led: &str, hold: &str, play: &str) -> Result<(), TuolajiError> {
    check_follow(order, &lead(order, led), &holding(hold), &cards(play))
}

/// The structure an illegal follow was told to play.
fn required(result: Result<(), TuolajiError>) -> Vec<UnitKind> {
    match result {
        Err(TuolajiError::MustMatchStructure { required, .. }) => required,
        other => panic!("expected a structure error, got {other:?}"),
    }
}

/// Trump spades, level 2: hearts are a plain suit 3…A.
fn s2() -> Order {
    Order::new(Suit::Spades, Rank::Two)
}

/// Trump hearts, level 5.
fn h5() -> Order {
    Order::new(Suit::Hearts, Rank::Five)
}

/// 第十一条2(2): a pair lead forces a pair even out of a triple.
#[test]
fn pair_lead_takes_pair_from_triple() {
    let hold = "Kh Kh Kh 3h 4h 5c";
    assert_eq!(required(follow(&s2(), "9h 9h", hold, "3h 4h")), [Pair]);
    assert_eq!(follow(&s2(), "9h 9h", hold, "Kh Kh"), Ok(()));
}

/// 第十一条2(2): a pair lead forces a pair even out of a tractor.
#[test]
fn pair_lead_takes_pair_from_tractor() {
    let hold = "Kh Kh Qh Qh 3h";
    assert!(follow(&s2(), "9h 9h", hold, "Kh 3h").is_err());
    assert_eq!(follow(&s2(), "9h 9h", hold, "Qh Qh"), Ok(()));
    assert_eq!(follow(&s2(), "9h 9h", hold, "Kh Kh"), Ok(()));
}

/// 第十一条2: without a pair, any two cards of the led suit follow a pair.
#[test]
fn pair_lead_without_pair_takes_any_two() {
    assert_eq!(follow(&s2(), "9h 9h", "Kh Qh 3h 5c", "Kh 3h"), Ok(()));
}

/// 第十一条2: the explanation names the structure, the suit and the cards that make it.
#[test]
fn illegal_follow_says_what_was_required() {
    let err = follow(&s2(), "Kh Kh", "9h 9h 3h 4h", "3h 4h").unwrap_err();
    assert_eq!(
        err.to_string(),
        "第十一条2: a pair of hearts is required: you hold 9h 9h"
    );
}

/// 第十一条2(1): holding at least n cards of the led suit, play n of them.
#[test]
fn must_play_n_cards_of_the_led_suit() {
    let err = follow(&s2(), "9h 9h", "Kh 3h 5c 6c", "Kh 5c").unwrap_err();
    assert_eq!(
        err,
        TuolajiError::MustFollowType {
            ty: qipai_games::tuolaji::CardType::Suit(Suit::Hearts),
            required: 2,
            held: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "第十一条2: you must play 2 hearts: you hold 2"
    );
}

/// 第十一条2(1): holding fewer, play all of them and anything else (trumps too).
#[test]
fn short_of_the_led_suit_play_all_of_it() {
    let led = "9h 9h 8h 8h";
    let hold = "Kh 3h 5c 6c 7c 4s";
    assert!(matches!(
        follow(&s2(), led, hold, "Kh 5c 6c 7c"),
        Err(TuolajiError::MustPlayAllOfType { .. })
    ));
    assert_eq!(follow(&s2(), led, hold, "Kh 3h 5c 7c"), Ok(()));
    assert_eq!(follow(&s2(), led, hold, "Kh 3h 4s 7c"), Ok(()));
}

/// 第十一条2: void in the led suit, any cards: a trump pair or a discard.
#[test]
fn void_follower_plays_anything() {
    assert_eq!(follow(&s2(), "9h 9h", "3s 3s 4c", "3s 4c"), Ok(()));
    assert_eq!(follow(&s2(), "9h 9h", "3s 3s 4c", "3s 3s"), Ok(()));
}

/// 第十一条2(2): a triple lead takes a triple when there is one.
#[test]
fn triple_lead_takes_triple() {
    let hold = "Kh Kh Kh Qh Qh 3h";
    assert_eq!(
        required(follow(&s2(), "9h 9h 9h", hold, "Qh Qh 3h")),
        [Triple]
    );
    assert_eq!(follow(&s2(), "9h 9h 9h", hold, "Kh Kh Kh"), Ok(()));
}

/// 第十一条2(2): a triple lead with no triple: a pair, then anything.
#[test]
fn triple_lead_with_no_triple_takes_a_pair() {
    let hold = "Kh Kh Qh 3h 4c";
    assert_eq!(
        required(follow(&s2(), "9h 9h 9h", hold, "Kh Qh 3h")),
        [Pair]
    );
    assert_eq!(follow(&s2(), "9h 9h 9h", hold, "Kh Kh 3h"), Ok(()));
}

/// 第十一条2(2): a triple lead with no pair either: any three.
#[test]
fn triple_lead_with_no_pair_takes_singles() {
    assert_eq!(follow(&s2(), "9h 9h 9h", "Kh Qh 3h 4h", "Qh 3h 4h"), Ok(()));
}

/// 第十一条2(2): a 2-pair tractor lead takes a tractor when there is one.
#[test]
fn pair_tractor_lead_takes_tractor() {
    let hold = "Kh Kh Qh Qh 6h 6h 3h";
    let led = "9h 9h 8h 8h";
    assert_eq!(
        required(follow(&s2(), led, hold, "Kh Kh 6h 6h")),
        [PairTractor(2)]
    );
    assert_eq!(follow(&s2(), led, hold, "Kh Kh Qh Qh"), Ok(()));
}

/// 第十一条2(2): a 2-pair tractor lead with fewer pairs in a row: two loose pairs.
#[test]
fn pair_tractor_lead_with_loose_pairs() {
    let hold = "Kh Kh 6h 6h 3h 4h";
    let led = "9h 9h 8h 8h";
    assert_eq!(
        required(follow(&s2(), led, hold, "Kh Kh 3h 4h")),
        [Pair, Pair]
    );
    assert_eq!(follow(&s2(), led, hold, "Kh Kh 6h 6h"), Ok(()));
}

/// 第十一条2(2): a 3-pair tractor lead with a 2-pair tractor and a pair: both.
#[test]
fn three_pair_tractor_lead_with_shorter_tractor_and_pair() {
    let hold = "Kh Kh Qh Qh 6h 6h 3h 4h";
    let led = "9h 9h 8h 8h 7h 7h";
    assert_eq!(
        required(follow(&s2(), led, hold, "Kh Kh Qh Qh 3h 4h")),
        [PairTractor(2), Pair]
    );
    assert!(follow(&s2(), led, hold, "Kh Kh 6h 6h Qh 3h").is_err());
    assert_eq!(follow(&s2(), led, hold, "Kh Kh Qh Qh 6h 6h"), Ok(()));
}

/// 第十一条2(2): a 3-pair tractor lead with pairs only: up to three pairs.
#[test]
fn three_pair_tractor_lead_with_pairs_only() {
    let hold = "Kh Kh Jh Jh 6h 6h 3h 4h";
    let led = "9h 9h 8h 8h 7h 7h";
    assert_eq!(
        required(follow(&s2(), led, hold, "Kh Kh Jh Jh 3h 4h")),
        [Pair, Pair, Pair]
    );
    assert_eq!(follow(&s2(), led, hold, "Kh Kh Jh Jh 6h 6h"), Ok(()));
}

/// 第十一条2(2): the longest shorter tractor comes first: a 3-pair tractor and a pair for
/// a 4-pair lead, not two 2-pair tractors.
#[test]
fn longest_shorter_tractor_first() {
    let hold = "Kh Kh Qh Qh Jh Jh 6h 6h 4h 4h";
    let led = "Th Th 9h 9h 8h 8h 7h 7h";
    assert_eq!(
        required(follow(&s2(), led, hold, "6h 6h 4h 4h Kh Kh Qh Qh")),
        [PairTractor(3), Pair]
    );
    assert_eq!(follow(&s2(), led, hold, "Kh Kh Qh Qh Jh Jh 6h 6h"), Ok(()));
}

/// 第十一条2(2): a triple-tractor lead with no triple-tractor takes a pair-tractor before
/// triples.
#[test]
fn triple_tractor_lead_answered_by_pair_tractor_first() {
    let hold = "Kh Kh Kh Qh Qh 6h 6h 6h 3h";
    let led = "9h 9h 9h 8h 8h 8h";
    assert_eq!(
        required(follow(&s2(), led, hold, "Kh Kh Kh 6h 6h 6h")),
        [PairTractor(2), Pair]
    );
    assert_eq!(follow(&s2(), led, hold, "Kh Kh Qh Qh 6h 6h"), Ok(()));
}

/// 第十一条2: a 3-pair tractor does not fit a 2-triple tractor lead: it counts as a
/// 2-pair tractor and a pair.
#[test]
fn longer_tractor_does_not_fit_a_shorter_lead_unit() {
    let hold = "Kh Kh Qh Qh Jh Jh 3h 4h";
    let led = "9h 9h 9h 8h 8h 8h";
    assert_eq!(
        required(follow(&s2(), led, hold, "Kh Kh Qh Qh 3h 4h")),
        [PairTractor(2), Pair]
    );
    assert_eq!(follow(&s2(), led, hold, "Kh Kh Qh Qh Jh Jh"), Ok(()));
}

/// 第六条4, 第十一条2: two pairs of off-suit level cards are not a tractor, so two pairs
/// answer a trump tractor lead.
#[test]
fn off_suit_level_pairs_follow_as_two_pairs() {
    let hold = "5s 5s 5c 5c 3h 4h 9d";
    let led = "Kh Kh Qh Qh";
    assert_eq!(
        required(follow(&h5(), led, hold, "5s 5s 3h 4h")),
        [Pair, Pair]
    );
    assert_eq!(follow(&h5(), led, hold, "5s 5s 5c 5c"), Ok(()));
}

/// 第六条4, 第十一条2: a trump level pair and an off-suit level pair are a tractor the
/// follower must play.
#[test]
fn trump_level_with_off_suit_level_tractor_is_required() {
    let hold = "5h 5h 5s 5s 9h 9h 3c";
    let err = follow(&h5(), "Kh Kh Qh Qh", hold, "9h 9h 5h 5h").unwrap_err();
    assert_eq!(
        err.to_string(),
        "第十一条2: a 2-pair tractor of trumps is required: you hold 5h 5h 5s 5s"
    );
    assert_eq!(follow(&h5(), "Kh Kh Qh Qh", hold, "5s 5s 5h 5h"), Ok(()));
}

/// 第五条, 第十一条2: with level 5 the 6 and 4 of a side suit are a tractor.
#[test]
fn level_rank_missing_inside_a_suit_makes_a_tractor() {
    let order = Order::new(Suit::Spades, Rank::Five);
    let hold = "6h 6h 4h 4h Kh Kh";
    assert_eq!(
        required(follow(&order, "Th Th 9h 9h", hold, "Kh Kh 6h 6h")),
        [PairTractor(2)]
    );
    assert_eq!(follow(&order, "Th Th 9h 9h", hold, "6h 6h 4h 4h"), Ok(()));
}

/// 第十一条2(2): a throw of a pair and a single takes a pair first.
#[test]
fn throw_lead_takes_pair_for_its_pair() {
    let hold = "Jh Jh 9h 8h 7h";
    assert_eq!(
        required(follow(&s2(), "Ah Ah Qh", hold, "Jh 9h 8h")),
        [Pair]
    );
    assert_eq!(follow(&s2(), "Ah Ah Qh", hold, "Jh Jh 7h"), Ok(()));
}

/// 第十一条2(2): a throw of a tractor and a pair: a tractor, then a pair, from anywhere.
#[test]
fn throw_lead_of_tractor_and_pair() {
    let hold = "Qh Qh Jh Jh Th Th 6h 6h 3h";
    let led = "Ah Ah Kh Kh 9h 9h";
    assert_eq!(follow(&s2(), led, hold, "Qh Qh Jh Jh Th Th"), Ok(()));
    assert_eq!(follow(&s2(), led, hold, "Qh Qh Jh Jh 6h 6h"), Ok(()));
    assert_eq!(
        required(follow(&s2(), led, hold, "Qh Qh Th Th 6h 6h")),
        [PairTractor(2), Pair]
    );
}

/// 第十一条2: a follow has as many cards as the lead.
#[test]
fn follow_needs_as_many_cards_as_the_lead() {
    assert_eq!(
        follow(&s2(), "9h 9h", "Kh Kh 3h", "Kh"),
        Err(TuolajiError::WrongCount {
            required: 2,
            played: 1
        })
    );
}

/// A follow can only use cards the follower holds.
#[test]
fn follow_with_cards_not_held_is_refused() {
    assert_eq!(
        follow(&s2(), "9h 9h", "Kh Kh 3h", "Ah Kh"),
        Err(TuolajiError::NotHeld { cards: cards("Ah") })
    );
}

/// 第十一条2: `match()` keeps the greatest record over every choice of cards: the tractor
/// J-T leaves the Q triple whole for the lead's triple, where Q-J would break it.
#[test]
fn match_takes_the_best_choice_of_cards() {
    let order = s2();
    let led = lead(&order, "Ah Ah Kh Kh 9h 9h 9h");
    let record = match_record(&order, &led, &cards("Qh Qh Qh Jh Jh Th Th 6h"));
    assert_eq!(record, [PairTractor(2), Triple]);
    let record = match_record(&order, &led, &cards("Qh Qh Qh Jh Jh 6h 6h 3h"));
    assert_eq!(record, [PairTractor(2), Pair]);
    let hold = "Qh Qh Qh Jh Jh Th Th 6h";
    assert!(follow(&order, "Ah Ah Kh Kh 9h 9h 9h", hold, "Qh Qh Jh Jh Th Th 6h").is_err());
    assert_eq!(
        follow(&order, "Ah Ah Kh Kh 9h 9h 9h", hold, "Qh Qh Qh Jh Jh Th Th"),
        Ok(())
    );
}

/// Suggested and candidate follows are legal and distinct.
#[test]
fn suggestions_are_legal() {
    let order = h5();
    let hold = holding("5h 5h 5s 5s 9h 9h 3h 4h Kc Kc 7d");
    let led = lead(&order, "Ah Ah Kh Kh");
    let suggested = suggest_follow(&order, &led, &hold);
    assert_eq!(check_follow(&order, &led, &hold, &suggested), Ok(()));
    let candidates = candidate_follows(&order, &led, &hold, 10);
    assert!(!candidates.is_empty());
    for c in &candidates {
        assert_eq!(check_follow(&order, &led, &hold, c), Ok(()), "{c:?}");
    }
    let mut unique = candidates.clone();
    unique.dedup();
    assert_eq!(unique.len(), candidates.len());
}
