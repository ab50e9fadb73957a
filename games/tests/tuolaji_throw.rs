//! Golden tests for throws (第六条5) and failed throws (第十六条): every unit must be
//! unbeatable by each other player's cards of its type; otherwise the smallest beatable unit
//! is forced.

use qipai_games::cards::{parse_cards, Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::throw::can_beat;
use qipai_games::tuolaji::{check_throw, decompose, Order, ThrowCheck, Unit};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn holding(s: &str) -> CardCounts {
    cards(s).into_iter().collect()
}

/// Checks the throw `thrown` against the others' holdings, in play order from the leader
/// (the second is the leader's partner).
fn check(order: &Order, thrown: &str, others: [&str; 3]) -> ThrowCheck {
    let units = decompose(order, &cards(thrown)).unwrap();
    let others = others.map(holding);
    let refs: Vec<&CardCounts> = others.iter().collect();
    check_throw(order, &units, &refs)
}

/// The forced unit's cards and the index of the holding that beats it.
fn failed(check: ThrowCheck) -> (Vec<Card>, usize) {
    match check {
        ThrowCheck::Fails { forced, beaten_by } => (forced.cards().to_vec(), beaten_by),
        ThrowCheck::Unbeatable => panic!("expected the throw to fail"),
    }
}

/// Trump spades, level 2.
fn s2() -> Order {
    Order::new(Suit::Spades, Rank::Two)
}

/// 第六条5: a throw whose every unit is the highest of its kind stands.
#[test]
fn throw_of_top_units_stands() {
    let verdict = check(&s2(), "Ah Ah Kh", ["Qh Qh 3c", "Jh 9h", "4h 4h As"]);
    assert_eq!(verdict, ThrowCheck::Unbeatable);
}

/// 第十六条: a throw fails on an opponent's higher single; the single is forced.
#[test]
fn throw_fails_on_an_opponents_single() {
    let verdict = check(&s2(), "Ah Ah Kh", ["Qh Qh", "Jh", "Ah 3h"]);
    assert_eq!(failed(verdict), (cards("Kh"), 2));
}

/// 第十六条: a throw fails on the partner's cards too.
#[test]
fn throw_fails_on_the_partners_cards() {
    let verdict = check(&s2(), "Ah Ah Kh", ["Qh Qh", "Ah 3h", "Jh"]);
    assert_eq!(failed(verdict), (cards("Kh"), 1));
}

/// 第十六条: of several beatable units, the one with the fewest cards is forced.
#[test]
fn forced_unit_has_the_fewest_cards() {
    let verdict = check(&s2(), "Kh Kh Qh", ["Ah Ah", "3h", "4h"]);
    assert_eq!(failed(verdict), (cards("Qh"), 0));
}

/// 第十六条: among beatable units of equal size, the lowest is forced.
#[test]
fn forced_unit_is_the_lowest() {
    let verdict = check(&s2(), "Kh Qh 9h", ["3h", "Ah", "4h"]);
    assert_eq!(failed(verdict), (cards("9h"), 1));
}

/// 第六条5: a triple yields a pair, so it beats a thrown pair.
#[test]
fn a_triple_beats_a_thrown_pair() {
    let verdict = check(&s2(), "9h 9h Ah", ["Th Th Th", "3h", "4h"]);
    assert_eq!(failed(verdict), (cards("9h 9h"), 0));
}

/// 第六条5: a triple-tractor yields a pair-tractor.
#[test]
fn a_triple_tractor_beats_a_thrown_pair_tractor() {
    let verdict = check(&s2(), "9h 9h 8h 8h Ah", ["3h", "4h", "Jh Jh Jh Th Th Th"]);
    assert_eq!(failed(verdict), (cards("9h 9h 8h 8h"), 2));
}

/// 第六条5: loose pairs do not beat a thrown pair-tractor.
#[test]
fn loose_pairs_do_not_beat_a_tractor() {
    let verdict = check(&s2(), "9h 9h 8h 8h Ah", ["Kh Kh Jh Jh", "3h", "4h"]);
    assert_eq!(verdict, ThrowCheck::Unbeatable);
}

/// 第六条5: an equal unit does not beat (off-suit level pairs share a slot).
#[test]
fn equal_units_do_not_beat_a_throw() {
    let order = Order::new(Suit::Hearts, Rank::Five);
    let verdict = check(&order, "5s 5s BJ", ["5c 5c BJ", "3h", "4h"]);
    assert_eq!(verdict, ThrowCheck::Unbeatable);
    let verdict = check(&order, "5s 5s BJ", ["5c 5c", "5h 5h", "4h"]);
    assert_eq!(failed(verdict), (cards("5s 5s"), 1));
}

/// 第六条5: only cards of the thrown type count: trumps do not make a side-suit throw fail.
#[test]
fn other_types_do_not_beat_a_throw() {
    let verdict = check(&s2(), "Kh Kh Qh", ["As As BJ", "3c 3c", "Ad"]);
    assert_eq!(verdict, ThrowCheck::Unbeatable);
}

/// 第十一条1: one unit is not a throw and is never refused.
#[test]
fn a_single_unit_lead_is_not_a_throw() {
    let verdict = check(&s2(), "9h 9h", ["Ah Ah", "3h", "4h"]);
    assert_eq!(verdict, ThrowCheck::Unbeatable);
}

/// 第六条5: `can_beat` compares by slot inside the type: level A's off-suit ace pair
/// beats a trump king pair.
#[test]
fn can_beat_follows_the_trump_order() {
    let order = Order::new(Suit::Hearts, Rank::Ace);
    let pair = Unit::new(&order, &cards("Kh Kh")).unwrap();
    assert!(can_beat(&order, &holding("As As"), &pair));
    assert!(!can_beat(&order, &holding("Qh Qh As"), &pair));
}
