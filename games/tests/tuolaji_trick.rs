//! Golden tests for 第十二条 (who wins a trick: ruffs, over-ruffs, ruffed throws, ties,
//! discards), 第七条 (points) and 表1 (the bottom multiplier).

use qipai_games::cards::{parse_cards, Card, Rank, Suit};
use qipai_games::tuolaji::{bottom_multiplier, decompose, Order, Trick};
use qipai_games::Seat;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

/// A trick led by seat 0 with `plays[0]` (canonically decomposed), followed by seats
/// 1, 2, 3 with the rest.
fn trick(order: &Order, plays: [&str; 4]) -> Trick {
    let lead = decompose(order, &cards(plays[0])).unwrap();
    let mut trick = Trick::new(Seat(0), lead);
    for (seat, play) in (0u8..).zip(plays) {
        trick.play(Seat(seat), cards(play));
    }
    trick
}

fn winner(order: &Order, plays: [&str; 4]) -> u8 {
    trick(order, plays).winner(order).0
}

/// Trump spades, level 2.
fn s2() -> Order {
    Order::new(Suit::Spades, Rank::Two)
}

/// Trump hearts, level 5.
fn h5() -> Order {
    Order::new(Suit::Hearts, Rank::Five)
}

/// 第七条: the highest pair of the led suit wins.
#[test]
fn higher_pair_of_the_led_suit_wins() {
    assert_eq!(winner(&s2(), ["9h 9h", "Kh Kh", "Qh Qh", "3h 4h"]), 1);
}

/// 第十二条: two high singles are not a pair and do not beat one.
#[test]
fn non_pair_does_not_beat_a_pair() {
    assert_eq!(winner(&s2(), ["9h 9h", "Ah Kh", "3h 4h", "5h 6h"]), 0);
}

/// 第十二条: equal plays go to the one played first (off-suit level singles are equal).
#[test]
fn equal_plays_go_to_the_first() {
    assert_eq!(winner(&h5(), ["5s", "5c", "5d", "3h"]), 0);
    assert_eq!(winner(&h5(), ["5s", "5c", "5h", "5d"]), 2);
}

/// 第十二条1: a trump pair ruffs (枪毙) a side-suit pair.
#[test]
fn trump_pair_ruffs_a_pair() {
    assert_eq!(winner(&s2(), ["9h 9h", "3s 3s", "Ah Ah", "4h 5h"]), 1);
}

/// 第十二条1: trumps that are not the same combination do not ruff.
#[test]
fn trump_non_pair_does_not_ruff_a_pair() {
    assert_eq!(winner(&s2(), ["9h 9h", "3s 4s", "3h 4h", "5h 6h"]), 0);
}

/// 第十二条1: a higher ruff over-ruffs.
#[test]
fn higher_ruff_over_ruffs() {
    assert_eq!(winner(&s2(), ["9h 9h", "3s 3s", "As As", "Qs Qs"]), 2);
}

/// 第十二条1: two equal ruffs: the first played wins.
#[test]
fn equal_ruffs_go_to_the_first() {
    assert_eq!(winner(&h5(), ["9s 9s", "5c 5c", "5d 5d", "3s 4s"]), 1);
}

/// 第十二条1: trumps ruff a throw when they split into the throw's unit kinds.
#[test]
fn ruffing_a_throw() {
    assert_eq!(
        winner(&s2(), ["Ah Ah Kh", "3s 3s 4s", "3h 4h 5h", "6h 7h 8h"]),
        1
    );
    assert_eq!(
        winner(&s2(), ["Ah Ah Kh", "3s 4s 5s", "3h 4h 5h", "6h 7h 8h"]),
        0
    );
}

/// 第十二条1: a trump pair-tractor splits into two pairs and ruffs a throw of two pairs.
#[test]
fn trump_tractor_ruffs_a_throw_of_two_pairs() {
    assert_eq!(
        winner(
            &s2(),
            ["Ah Ah Qh Qh", "4s 4s 3s 3s", "3h 4h 6h 7h", "8h 9h Th Jh"]
        ),
        1
    );
}

/// 第十二条1 (两家以上同时枪毙): two ruffs of a throw compare only their highest-priority
/// units: the higher pair wins although the other has the higher single.
#[test]
fn two_ruffers_compare_their_top_units() {
    assert_eq!(
        winner(&s2(), ["Ah Ah Kh", "9s 9s As", "Ts Ts 3s", "3h 4h 5h"]),
        2
    );
}

/// 第十二条: a throw cannot be beaten in its own suit.
#[test]
fn a_throw_is_not_beaten_in_its_own_suit() {
    assert_eq!(
        winner(&s2(), ["Ah Ah Kh", "Kh Kh Ah", "3h 4h 5h", "6h 7h 8h"]),
        0
    );
}

/// 第十二条2: discards (垫牌) never win, even aces of another suit or mixed trumps.
#[test]
fn discards_never_win() {
    assert_eq!(winner(&s2(), ["9h 9h", "Ac Ac", "3s Ad", "3h 4h"]), 0);
}

/// 第十二条: on a trump lead the higher trump pair wins.
#[test]
fn higher_trump_pair_wins_a_trump_lead() {
    assert_eq!(winner(&s2(), ["3s 3s", "BJ BJ", "2s 2s", "4h 4h"]), 1);
}

/// 第十二条: a tractor is beaten only by a higher tractor of the same length.
#[test]
fn tractor_beaten_by_higher_tractor() {
    assert_eq!(
        winner(
            &s2(),
            ["9h 9h 8h 8h", "Kh Kh Qh Qh", "Ah Ah 3h 3h", "4h 5h 6h 7h"]
        ),
        1
    );
    assert_eq!(
        winner(
            &s2(),
            ["9h 9h 8h 8h", "Kh Kh Jh Jh", "Ah Ah 3h 3h", "4h 5h 6h 7h"]
        ),
        0
    );
}

/// 第七条: a trick's points are its 5s, 10s and Ks.
#[test]
fn trick_points() {
    let t = trick(&s2(), ["Kh Kh", "5h Th", "3h 4h", "5s 6h"]);
    assert_eq!(t.points(), 40);
    assert!(t.is_complete());
}

/// 表1: the bottom multiplier of every lead structure.
#[test]
fn bottom_multipliers() {
    let order = s2();
    let m = |s: &str| bottom_multiplier(&decompose(&order, &cards(s)).unwrap());
    assert_eq!(m("9h"), 2, "single");
    assert_eq!(m("9h 9h"), 3, "pair");
    assert_eq!(m("9h 9h 9h"), 4, "triple");
    assert_eq!(m("9h 9h 8h 8h"), 5, "2-pair tractor");
    assert_eq!(m("9h 9h 8h 8h 7h 7h"), 6, "3-pair tractor");
    assert_eq!(m("Th Th 9h 9h 8h 8h 7h 7h"), 7, "4-pair tractor");
    assert_eq!(m("9h 9h 9h 8h 8h 8h"), 6, "2-triple tractor");
    assert_eq!(m("9h 9h 9h 8h 8h 8h 7h 7h 7h"), 8, "3-triple tractor");
    assert_eq!(m("Ah Ah Kh"), 5, "throw: pair + single");
    assert_eq!(
        m("Ah Ah Kh Kh 9h 9h 3h"),
        8,
        "throw: 2-pair tractor + pair + single"
    );
    assert_eq!(m("Ah Ah Ah Qh Qh Qh 9h"), 8, "throw: two triples + single");
}
