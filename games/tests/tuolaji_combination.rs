//! Golden tests for 第六条 (combinations): units, tractors through the trump order, the
//! canonical decomposition and declared throw structures.

use qipai_games::cards::{parse_cards, Card, Rank, Suit};
use qipai_games::tuolaji::combination::{describe_kinds, split_into_kinds};
use qipai_games::tuolaji::{decompose, validate_decomposition, Order, TuolajiError, Unit};
use qipai_games::tuolaji::{CardType, UnitKind};

use UnitKind::{Pair, PairTractor, Single, Triple, TripleTractor};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn kind_of(order: &Order, s: &str) -> Result<UnitKind, TuolajiError> {
    Unit::new(order, &cards(s)).map(|u| u.kind())
}

fn kinds(order: &Order, s: &str) -> Vec<UnitKind> {
    decompose(order, &cards(s))
        .unwrap()
        .iter()
        .map(Unit::kind)
        .collect()
}

/// Trump hearts, level 5: the order most tests use.
fn h5() -> Order {
    Order::new(Suit::Hearts, Rank::Five)
}

/// 第六条2: two identical cards are a pair.
#[test]
fn two_identical_cards_are_a_pair() {
    assert_eq!(kind_of(&h5(), "9s 9s"), Ok(Pair));
    assert_eq!(kind_of(&h5(), "9s"), Ok(Single));
}

/// 第六条2: two off-suit level cards of different suits are not identical, so no pair.
#[test]
fn level_cards_of_two_suits_are_not_a_pair() {
    assert!(matches!(
        kind_of(&h5(), "5s 5c"),
        Err(TuolajiError::NotAUnit { .. })
    ));
}

/// 第六条3: three identical cards are a triple.
#[test]
fn three_identical_cards_are_a_triple() {
    assert_eq!(kind_of(&h5(), "Kd Kd Kd"), Ok(Triple));
}

/// 第六条4: pairs in consecutive slots of one suit are a pair-tractor.
#[test]
fn consecutive_pairs_are_a_pair_tractor() {
    assert_eq!(kind_of(&h5(), "9s 9s 8s 8s"), Ok(PairTractor(2)));
    assert_eq!(kind_of(&h5(), "9s 9s 8s 8s Ts Ts"), Ok(PairTractor(3)));
    assert!(kind_of(&h5(), "9s 9s 7s 7s").is_err());
}

/// 第五条, 第六条4: the level rank leaves its suit, so with level 5 the 4 and 6 are
/// adjacent.
#[test]
fn level_rank_missing_makes_four_and_six_adjacent() {
    assert_eq!(kind_of(&h5(), "4s 4s 6s 6s"), Ok(PairTractor(2)));
    assert_eq!(kind_of(&h5(), "4h 4h 6h 6h"), Ok(PairTractor(2)));
}

/// 第六条4: pairs of off-suit level cards share one slot and never form a tractor.
#[test]
fn off_suit_level_pairs_are_not_a_tractor() {
    assert!(kind_of(&h5(), "5s 5s 5c 5c").is_err());
    assert_eq!(kinds(&h5(), "5s 5s 5c 5c"), [Pair, Pair]);
}

/// 第五条, 第六条4: the trump-suit level pair neighbours an off-suit level pair.
#[test]
fn trump_level_and_off_suit_level_form_a_tractor() {
    assert_eq!(kind_of(&h5(), "5h 5h 5s 5s"), Ok(PairTractor(2)));
}

/// 第五条, 第六条4: off-suit level cards neighbour the trump ace.
#[test]
fn off_suit_level_and_trump_ace_form_a_tractor() {
    assert_eq!(kind_of(&h5(), "5d 5d Ah Ah"), Ok(PairTractor(2)));
    assert_eq!(kind_of(&h5(), "5h 5h 5c 5c Ah Ah"), Ok(PairTractor(3)));
    assert_eq!(
        kind_of(&h5(), "BJ BJ SJ SJ 5h 5h 5c 5c Ah Ah Kh Kh"),
        Ok(PairTractor(6))
    );
}

/// 第五条: jokers sit above the trump level card: small joker pair + trump level pair.
#[test]
fn jokers_and_trump_level_form_a_tractor() {
    assert_eq!(kind_of(&h5(), "SJ SJ 5h 5h"), Ok(PairTractor(2)));
    assert_eq!(kind_of(&h5(), "BJ BJ SJ SJ"), Ok(PairTractor(2)));
    assert!(kind_of(&h5(), "SJ SJ 5s 5s").is_err());
}

/// 第五条 with level A: [BJ, SJ, T-A, off-suit A, T-K, …]: off-suit A neighbours T-K.
#[test]
fn level_ace_off_suit_ace_neighbours_trump_king() {
    let order = Order::new(Suit::Hearts, Rank::Ace);
    assert_eq!(kind_of(&order, "As As Kh Kh"), Ok(PairTractor(2)));
    assert_eq!(kind_of(&order, "Ah Ah As As Kh Kh"), Ok(PairTractor(3)));
    assert!(kind_of(&order, "Ks Ks Qs Qs").is_ok());
    assert!(kind_of(&order, "As As Ks Ks").is_err());
}

/// 第六条4: consecutive triples form a triple-tractor.
#[test]
fn consecutive_triples_are_a_triple_tractor() {
    assert_eq!(kind_of(&h5(), "9c 9c 9c Tc Tc Tc"), Ok(TripleTractor(2)));
    assert_eq!(kind_of(&h5(), "5h 5h 5h 5d 5d 5d"), Ok(TripleTractor(2)));
}

/// 第四条: a trump-suit card and an off-suit card are different types.
#[test]
fn a_unit_is_of_one_type() {
    assert!(matches!(
        kind_of(&h5(), "9h 9s"),
        Err(TuolajiError::MixedTypes { .. })
    ));
    assert_eq!(
        Order::new(Suit::Hearts, Rank::Five).type_of(&cards("9h 5s BJ")),
        Some(CardType::Trump)
    );
}

/// 第十一条2(2): the priority order of unit kinds.
#[test]
fn unit_kinds_are_ordered_by_priority() {
    let order = [
        Single,
        Pair,
        Triple,
        PairTractor(2),
        PairTractor(3),
        TripleTractor(2),
        TripleTractor(3),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]));
}

/// 第六条: the canonical decomposition takes the greatest kinds: a triple-tractor and a pair
/// rather than a 3-pair-tractor and two singles.
#[test]
fn canonical_decomposition_prefers_triple_tractor() {
    assert_eq!(
        kinds(&h5(), "9s 9s 9s 8s 8s 8s 7s 7s"),
        [TripleTractor(2), Pair]
    );
}

/// 第六条: a longer pair-tractor beats splitting off a triple.
#[test]
fn canonical_decomposition_prefers_pair_tractor_over_triple() {
    assert_eq!(
        kinds(&h5(), "9s 9s 8s 8s 8s 7s 7s"),
        [PairTractor(3), Single]
    );
    assert_eq!(kinds(&h5(), "9s 9s 9s 8s 8s"), [PairTractor(2), Single]);
}

/// 第六条: four consecutive pairs are one 4-pair-tractor, not two 2-pair-tractors.
#[test]
fn canonical_decomposition_takes_the_longest_tractor() {
    assert_eq!(kinds(&h5(), "Js Js Ts Ts 9s 9s 8s 8s"), [PairTractor(4)]);
    assert_eq!(
        kinds(&h5(), "As Ks Ks Qs Qs 9s 9s 9s 2s"),
        [PairTractor(2), Triple, Single, Single]
    );
}

/// 第六条5: a throw's canonical units, highest priority first, keep their cards.
#[test]
fn decomposition_keeps_every_card() {
    let units = decompose(&h5(), &cards("BJ SJ SJ 5h 5h 5c 5d 5d Ah 2h 2h 2h")).unwrap();
    let got: Vec<UnitKind> = units.iter().map(Unit::kind).collect();
    assert_eq!(got, [PairTractor(3), Triple, Single, Single, Single]);
    let total: usize = units.iter().map(|u| u.cards().len()).sum();
    assert_eq!(total, 12);
}

/// 第十一条1: a declared structure (拐拖/俘虏) is accepted when it is a split into units.
#[test]
fn declared_decomposition_is_checked() {
    let played = cards("9s 9s 9s 8s 8s");
    let declared = vec![cards("9s 9s 9s"), cards("8s 8s")];
    let units = validate_decomposition(&h5(), &played, &declared).unwrap();
    let got: Vec<UnitKind> = units.iter().map(Unit::kind).collect();
    assert_eq!(got, [Triple, Pair]);

    let not_unit = vec![cards("9s 8s"), cards("9s 9s 8s")];
    assert!(matches!(
        validate_decomposition(&h5(), &played, &not_unit),
        Err(TuolajiError::NotAUnit { .. })
    ));
    let short = vec![cards("9s 9s 9s")];
    assert!(matches!(
        validate_decomposition(&h5(), &played, &short),
        Err(TuolajiError::DecompositionMismatch { .. })
    ));
}

/// 第十二条: a trump play "is the same combination" when it splits into the lead's kinds;
/// the split found puts the highest top slot on the highest-priority unit.
#[test]
fn split_into_lead_kinds() {
    let order = h5();
    let split = split_into_kinds(&order, &cards("Ah Ah Kh Kh 3h"), &[Pair, Pair, Single]);
    assert!(split.is_some());
    let split = split_into_kinds(&order, &cards("Ah Ah Ah 3h 3h"), &[Pair, Triple]).unwrap();
    assert_eq!(split[0].kind(), Triple);
    assert!(split_into_kinds(&order, &cards("Ah Kh Kh Qh"), &[Pair, Pair]).is_none());
    assert!(split_into_kinds(&order, &cards("Ah Ah"), &[Pair, Pair]).is_none());
}

/// Messages name kinds the way players say them.
#[test]
fn kinds_are_described_for_messages() {
    assert_eq!(describe_kinds(&[Pair]), "a pair");
    assert_eq!(
        describe_kinds(&[PairTractor(2), Pair, Pair]),
        "a 2-pair tractor and 2 pairs"
    );
}
