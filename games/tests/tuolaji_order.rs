//! Golden tests for 第四条 and 第五条: card types, the trump order and adjacency.

use qipai_games::cards::{parse_cards, Card, Rank, Suit};
use qipai_games::tuolaji::{CardType, Order};

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn slots(order: &Order, s: &str) -> Vec<u8> {
    parse_cards(s)
        .unwrap()
        .into_iter()
        .map(|c| order.slot(c))
        .collect()
}

/// Trump hearts, level 5.
fn h5() -> Order {
    Order::new(Suit::Hearts, Rank::Five)
}

/// 第四条: jokers and every level card are trumps (常主), whatever the trump suit.
#[test]
fn jokers_and_level_cards_are_always_trumps() {
    let order = h5();
    for c in ["BJ", "SJ", "5h", "5s", "5c", "5d"] {
        assert_eq!(order.card_type(card(c)), CardType::Trump, "{c}");
    }
}

/// 第四条: the trump suit's cards are trumps; the other suits are their own types.
#[test]
fn four_card_types() {
    let order = h5();
    assert_eq!(order.card_type(card("2h")), CardType::Trump);
    assert_eq!(order.card_type(card("As")), CardType::Suit(Suit::Spades));
    assert_eq!(order.card_type(card("Kc")), CardType::Suit(Suit::Clubs));
    assert_eq!(order.card_type(card("3d")), CardType::Suit(Suit::Diamonds));
    assert!(!order.is_trump(card("As")));
    assert_eq!(order.type_of(&parse_cards("As 5s").unwrap()), None);
}

/// 第五条: big joker > small joker > trump-suit level > off-suit level > trump ace > … .
#[test]
fn trump_order_from_big_joker_down() {
    assert_eq!(
        slots(&h5(), "BJ SJ 5h 5s Ah Kh Qh 6h 4h 2h"),
        [15, 14, 13, 12, 11, 10, 9, 3, 2, 0]
    );
}

/// 第五条, 第六条4: the three off-suit level cards are equal and share one slot.
#[test]
fn off_suit_level_cards_share_a_slot() {
    let order = h5();
    assert_eq!(slots(&order, "5s 5c 5d"), [12, 12, 12]);
    assert!(!order.adjacent(card("5s"), card("5c")));
    assert!(order.adjacent(card("5s"), card("5h")));
    assert!(order.adjacent(card("5d"), card("Ah")));
}

/// 第五条: a non-trump suit runs A down to 2 without the level rank, so 4 and 6 are
/// neighbours when 5 is the level.
#[test]
fn side_suit_order_skips_the_level_rank() {
    let order = h5();
    assert_eq!(slots(&order, "As Ks 6s 4s 2s"), [11, 10, 3, 2, 0]);
    assert!(order.adjacent(card("6s"), card("4s")));
    assert!(order.adjacent(card("6h"), card("4h")));
    assert!(!order.adjacent(card("6s"), card("6h")));
}

/// 第五条: with level A the list is [BJ, SJ, T-A, off-suit A, T-K, …].
#[test]
fn level_ace_trump_order() {
    let order = Order::new(Suit::Diamonds, Rank::Ace);
    assert_eq!(slots(&order, "BJ SJ Ad Ah Kd Qd"), [15, 14, 13, 12, 11, 10]);
    assert!(order.adjacent(card("Ac"), card("Kd")));
    assert_eq!(slots(&order, "Ks 2s"), [11, 0]);
}

/// 第五条 with level 2: the suits start at 3, and 2 of the trump suit sits above the ace.
#[test]
fn level_two_trump_order() {
    let order = Order::new(Suit::Spades, Rank::Two);
    assert_eq!(slots(&order, "2s 2h As 3s"), [13, 12, 11, 0]);
    assert_eq!(slots(&order, "Ah 3h"), [11, 0]);
}

/// 第五条: every trump slot from 0 to 15 is used, so tractors can run through all of them.
#[test]
fn trump_slots_are_contiguous() {
    let order = h5();
    let mut used: Vec<u8> = Card::all()
        .filter(|&c| order.is_trump(c))
        .map(|c| order.slot(c))
        .collect();
    used.sort();
    used.dedup();
    assert_eq!(used, (0..16).collect::<Vec<u8>>());
}
