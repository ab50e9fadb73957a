//! Golden tests for throw declarations (第十一条1, 第六条; `rules/tuolaji.md`, "A
//! declaration may not split a unit" and "The leader must declare when it matters"),
//! through the engine: the split checks, and whole leads on a [`Hand`].

use qipai_games::cards::{parse_cards, shuffled, Card, Rank, Suit};
use qipai_games::tuolaji::declare::{merged_unit, undeclared_units, valid_splits};
use qipai_games::tuolaji::hand::{Hand, HandAction, HandEvent, Position};
use qipai_games::tuolaji::{validate_decomposition, Order, TuolajiError, TuolajiRules, Unit};
use qipai_games::{Coded, Millis, Seat};

const T0: Millis = Millis(0);

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn units(order: &Order, groups: &[&str]) -> Vec<Unit> {
    groups
        .iter()
        .map(|g| Unit::new(order, &cards(g)).unwrap())
        .collect()
}

fn declared(groups: &[&str]) -> Vec<Vec<Card>> {
    groups.iter().map(|g| cards(g)).collect()
}

/// Trump hearts, level 2.
fn h2() -> Order {
    Order::new(Suit::Hearts, Rank::Two)
}

/// The splits as sorted card lists, for comparing regardless of order.
fn split_set(splits: &[Vec<Vec<Card>>]) -> Vec<Vec<Vec<Card>>> {
    let mut out: Vec<Vec<Vec<Card>>> = splits
        .iter()
        .map(|s| {
            let mut s: Vec<Vec<Card>> = s
                .iter()
                .map(|u| {
                    let mut u = u.clone();
                    u.sort();
                    u
                })
                .collect();
            s.sort();
            s
        })
        .collect();
    out.sort();
    out
}

fn refusal(order: &Order, played: &str, groups: &[&str]) -> TuolajiError {
    validate_decomposition(order, &cards(played), &declared(groups)).unwrap_err()
}

/// "A declaration may not split a unit": a pair declared as two singles is refused.
#[test]
fn pair_may_not_be_declared_as_two_singles() {
    let e = refusal(&h2(), "BJ BJ", &["BJ", "BJ"]);
    assert_eq!(
        e,
        TuolajiError::DeclarationSplitsUnit {
            unit: cards("BJ BJ")
        }
    );
    assert_eq!(e.code().as_str(), "declaration_splits_unit");
    let e = refusal(&h2(), "As As Ks", &["As", "As", "Ks"]);
    assert_eq!(
        e,
        TuolajiError::DeclarationSplitsUnit {
            unit: cards("As As")
        }
    );
}

/// "A declaration may not split a unit": a triple as a pair and a single.
#[test]
fn triple_may_not_be_declared_as_pair_and_single() {
    let e = refusal(&h2(), "BJ BJ BJ", &["BJ BJ", "BJ"]);
    assert_eq!(
        e,
        TuolajiError::DeclarationSplitsUnit {
            unit: cards("BJ BJ BJ")
        }
    );
}

/// "A declaration may not split a unit": a 3-triple tractor as a 2-triple tractor and a
/// triple (the issue's ×10 instead of ×8), and a pair-tractor as its pairs.
#[test]
fn tractors_may_not_be_declared_as_shorter_pieces() {
    let e = refusal(
        &h2(),
        "As As As Ks Ks Ks Qs Qs Qs",
        &["As As As Ks Ks Ks", "Qs Qs Qs"],
    );
    assert!(matches!(e, TuolajiError::DeclarationSplitsUnit { .. }));
    let e = refusal(&h2(), "Ac Ac Kc Kc", &["Ac Ac", "Kc Kc"]);
    assert_eq!(
        e,
        TuolajiError::DeclarationSplitsUnit {
            unit: cards("Ac Ac Kc Kc")
        }
    );
}

/// "Two or more" units: a pair-tractor and one single at each of its slots together make a
/// triple-tractor, though no two of them form a unit.
#[test]
fn three_units_that_together_form_a_tractor_are_refused() {
    let order = h2();
    assert_eq!(
        merged_unit(&order, &units(&order, &["Qs Qs Ks Ks", "Qs", "Ks"])),
        Some(cards("Ks Ks Ks Qs Qs Qs"))
    );
    assert_eq!(
        merged_unit(&order, &units(&order, &["Qs Qs Ks Ks", "Qs"])),
        None
    );
}

/// 第六条 (slots): off-suit level cards share a slot but are different cards, so two of
/// them are not a pair: `2s` and `2c` may be two singles.
#[test]
fn different_off_suit_level_cards_do_not_merge() {
    let order = h2();
    assert_eq!(merged_unit(&order, &units(&order, &["2s", "2c"])), None);
    let splits = valid_splits(&order, &cards("2s 2c")).unwrap();
    assert_eq!(splits.len(), 1);
}

/// "A declaration may not split a unit": `QsQsQs KsKs` may be declared as a triple and a
/// pair, or as a pair-tractor and a single.
#[test]
fn both_real_structures_may_be_declared() {
    let order = h2();
    let a = validate_decomposition(
        &order,
        &cards("Qs Qs Qs Ks Ks"),
        &declared(&["Qs Qs Qs", "Ks Ks"]),
    );
    assert_eq!(a.unwrap().len(), 2);
    let b = validate_decomposition(
        &order,
        &cards("Qs Qs Qs Ks Ks"),
        &declared(&["Ks Ks Qs Qs", "Qs"]),
    );
    assert_eq!(b.unwrap().len(), 2);
}

/// 第十一条1: an undeclared throw with two valid splits is refused with
/// `declare_structure`, and both splits are listed.
#[test]
fn undeclared_ambiguous_throw_lists_its_splits() {
    let e = undeclared_units(&h2(), &cards("Qs Qs Qs Ks Ks")).unwrap_err();
    assert_eq!(e.code().as_str(), "declare_structure");
    let TuolajiError::DeclareStructure { splits } = e else {
        panic!("expected declare_structure");
    };
    assert_eq!(
        split_set(&splits),
        split_set(&[
            declared(&["Qs Qs Qs", "Ks Ks"]),
            declared(&["Ks Ks Qs Qs", "Qs"]),
        ])
    );
}

/// 第十一条1: a throw with one valid split needs no declaration (`Ah Ah Kh`: the aces are a
/// pair, never two singles), nor does a single unit.
#[test]
fn unambiguous_throws_need_no_declaration() {
    let order = h2();
    assert_eq!(
        undeclared_units(&order, &cards("As As Ks")).unwrap().len(),
        2
    );
    assert_eq!(
        undeclared_units(&order, &cards("As As As Ks Ks Ks"))
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        undeclared_units(&order, &cards("As Js 9s 5s"))
            .unwrap()
            .len(),
        4
    );
}

/// Every split `valid_splits` lists is accepted as a declaration, and the canonical
/// decomposition is listed first whenever there are several: over many random throws.
#[test]
fn every_listed_split_is_a_valid_declaration() {
    let order = h2();
    let mut ambiguous = 0;
    for seed in 0..300u64 {
        let deck = shuffled(seed);
        let spades: Vec<Card> = deck
            .into_iter()
            .filter(|c| c.suit() == Some(Suit::Spades) && c.rank() != Some(Rank::Two))
            .take(8 + (seed % 6) as usize)
            .collect();
        let splits = valid_splits(&order, &spades).unwrap();
        assert!(!splits.is_empty(), "{spades:?}");
        if splits.len() > 1 {
            ambiguous += 1;
        }
        for split in &splits {
            let groups: Vec<Vec<Card>> = split.iter().map(|u| u.cards().to_vec()).collect();
            let back = validate_decomposition(&order, &spades, &groups);
            assert!(back.is_ok(), "{groups:?}: {back:?}");
        }
    }
    assert!(ambiguous > 0, "some random throws should be ambiguous");
}

/// The last trick of a hand: trump hearts, level 2, dealer seat 0, `leader` holds `lead`
/// and the others hold `others` (in play order after the leader).
fn hand(leader: u8, lead: &str, others: [&str; 3]) -> Hand {
    let mut holdings: [Vec<Card>; 4] = Default::default();
    holdings[usize::from(leader)] = cards(lead);
    for (d, o) in (1..4u8).zip(others) {
        holdings[usize::from((leader + d) % 4)] = cards(o);
    }
    let position = Position {
        holdings,
        bottom: cards("5c Tc Kc 3d 4d 6d"),
        dealer: Seat(0),
        trump: Suit::Hearts,
        level: Rank::Two,
        leader: Seat(leader),
    };
    Hand::from_position(&TuolajiRules::for_tests(), &position, T0).unwrap()
}

fn lead(c: &str, groups: Option<&[&str]>) -> HandAction {
    HandAction::Lead {
        cards: cards(c),
        declared: groups.map(declared),
    }
}

/// "A declaration may not split a unit", 表1: a defender leading `BJ BJ` in the last
/// trick cannot declare two singles (×4); the refusal changes nothing, and the pair
/// counts ×3.
#[test]
fn last_trick_pair_declared_as_singles_is_refused_and_counts_as_a_pair() {
    let mut h = hand(1, "BJ BJ", ["3c 4c", "6c 7c", "8c 9c"]);
    let before = format!("{h:?}");
    let e = h
        .apply(Seat(1), lead("BJ BJ", Some(&["BJ", "BJ"])), T0)
        .unwrap_err();
    assert!(matches!(e, TuolajiError::DeclarationSplitsUnit { .. }));
    assert_eq!(format!("{h:?}"), before);
    h.apply(Seat(1), lead("BJ BJ", None), T0).unwrap();
    let mut last = Vec::new();
    for s in [2u8, 3, 0] {
        let held = h.holding(Seat(s)).to_vec();
        last = h
            .apply(Seat(s), HandAction::Follow { cards: held }, T0)
            .unwrap();
    }
    let Some(HandEvent::HandOver { result }) = last.last() else {
        panic!("the hand should be over: {last:?}");
    };
    assert_eq!(result.bottom_multiplier, 3);
    assert_eq!(result.score.bottom_points, 25 * 3);
}

/// 第十一条1, 第十六条: `QsQsQs KsKs` led undeclared is refused with `declare_structure`
/// (nothing changes); declared as triple + pair it stands although an opponent holds the
/// third `Ks`; declared as pair-tractor + single it fails on that `Ks` and costs 20.
#[test]
fn the_declared_split_decides_whether_a_throw_stands() {
    let others = ["Ks 3c 4c 6c 7c", "8c 9c Jc Qc Ac", "3d 4d 6d 7d 8d"];
    let mut h = hand(0, "Qs Qs Qs Ks Ks", others);
    let before = format!("{h:?}");
    let e = h
        .apply(Seat(0), lead("Qs Qs Qs Ks Ks", None), T0)
        .unwrap_err();
    assert_eq!(e.code().as_str(), "declare_structure");
    assert_eq!(format!("{h:?}"), before);

    let events = h
        .apply(
            Seat(0),
            lead("Qs Qs Qs Ks Ks", Some(&["Qs Qs Qs", "Ks Ks"])),
            T0,
        )
        .unwrap();
    assert!(matches!(&events[0], HandEvent::Led { units, .. } if units.len() == 2));

    let mut h = hand(0, "Qs Qs Qs Ks Ks", others);
    let events = h
        .apply(
            Seat(0),
            lead("Qs Qs Qs Ks Ks", Some(&["Ks Ks Qs Qs", "Qs"])),
            T0,
        )
        .unwrap();
    assert!(matches!(
        &events[0],
        HandEvent::ThrowFailed { forced, beaten_by: Seat(1), .. } if *forced == cards("Qs")
    ));
}

/// "A declaration may not split a unit" (the follow side): `Ah Ah` cannot be declared as
/// two singles, so a follower holding `3h 3h 9h` must still play the pair.
#[test]
fn pair_lead_cannot_be_weakened_into_singles() {
    let mut h = hand(0, "Ah Ah 8c", ["3h 3h 9h", "3c 4c 9c", "6c 7c Jc"]);
    let e = h
        .apply(Seat(0), lead("Ah Ah", Some(&["Ah", "Ah"])), T0)
        .unwrap_err();
    assert!(matches!(e, TuolajiError::DeclarationSplitsUnit { .. }));
    h.apply(Seat(0), lead("Ah Ah", None), T0).unwrap();
    let e = h
        .apply(
            Seat(1),
            HandAction::Follow {
                cards: cards("3h 9h"),
            },
            T0,
        )
        .unwrap_err();
    assert_eq!(e.code().as_str(), "must_match_structure");
}
