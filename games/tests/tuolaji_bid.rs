//! Golden tests for bidding (第十条): bids, strengthening, counter-bids.

use qipai_games::cards::{parse_cards, Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::bid::{Bid, BidKind, Bidding};
use qipai_games::tuolaji::TuolajiError;
use qipai_games::Seat;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn held(s: &str) -> CardCounts {
    cards(s).into_iter().collect()
}

/// 第十条1: the first player to show a level card makes the first bid.
#[test]
fn a_single_level_card_bids() {
    let mut b = Bidding::new(Rank::Five);
    let got = b.bid(Seat(1), &cards("5h"), &held("5h 9c")).unwrap();
    assert_eq!(
        got,
        (
            Bid {
                seat: Seat(1),
                suit: Suit::Hearts,
                count: 1
            },
            BidKind::Bid
        )
    );
    assert_eq!(b.current().map(|b| b.suit), Some(Suit::Hearts));
}

/// 第十条1 加固: the bidder strengthens with more cards of the same suit.
#[test]
fn the_bidder_strengthens_in_the_same_suit() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(1), &cards("5h"), &held("5h 5h")).unwrap();
    let (bid, kind) = b.bid(Seat(1), &cards("5h 5h"), &held("5h 5h")).unwrap();
    assert_eq!(kind, BidKind::Strengthen);
    assert_eq!(bid.count, 2);
}

/// 第十条2: the current bidder cannot counter itself in another suit.
#[test]
fn the_bidder_cannot_counter_itself() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(1), &cards("5h"), &held("5h 5s 5s")).unwrap();
    let before = b.clone();
    let err = b
        .bid(Seat(1), &cards("5s 5s"), &held("5h 5s 5s"))
        .unwrap_err();
    assert_eq!(
        err,
        TuolajiError::StrengthenOtherSuit { suit: Suit::Hearts }
    );
    assert_eq!(b, before);
}

/// 第十条1: strengthening must add cards.
#[test]
fn strengthening_with_no_more_cards_is_refused() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(1), &cards("5h 5h"), &held("5h 5h")).unwrap();
    let err = b.bid(Seat(1), &cards("5h 5h"), &held("5h 5h")).unwrap_err();
    assert_eq!(err, TuolajiError::StrengthenTooFew { standing: 2 });
}

/// 第十条2 反揭: another player counters with strictly more identical level cards of any
/// suit, and becomes the bidder.
#[test]
fn a_counter_bid_shows_more_cards() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(1), &cards("5h"), &held("5h")).unwrap();
    let (bid, kind) = b.bid(Seat(2), &cards("5c 5c"), &held("5c 5c")).unwrap();
    assert_eq!(kind, BidKind::CounterBid);
    assert_eq!(b.current(), Some(bid));
    assert_eq!(b.history().len(), 2);
}

/// 第十条2: a counter-bid with as many cards as the standing bid is refused.
#[test]
fn a_counter_with_the_same_count_is_refused() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(1), &cards("5h 5h"), &held("5h 5h")).unwrap();
    let err = b.bid(Seat(3), &cards("5s 5s"), &held("5s 5s")).unwrap_err();
    assert_eq!(
        err,
        TuolajiError::CounterBidTooFew {
            standing: 2,
            needed: 3
        }
    );
    assert_eq!(b.current().map(|b| b.seat), Some(Seat(1)));
}

/// 第十条2: earlier bidders may counter again with still more cards.
#[test]
fn an_earlier_bidder_counters_again() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(0), &cards("5h"), &held("5h 5d 5d 5d")).unwrap();
    b.bid(Seat(1), &cards("5s 5s"), &held("5s 5s")).unwrap();
    let (bid, kind) = b
        .bid(Seat(0), &cards("5d 5d 5d"), &held("5h 5d 5d 5d"))
        .unwrap();
    assert_eq!(kind, BidKind::CounterBid);
    assert_eq!(
        (bid.seat, bid.suit, bid.count),
        (Seat(0), Suit::Diamonds, 3)
    );
}

/// 第十条2: three identical level cards are the most; they cannot be countered.
#[test]
fn three_cannot_be_countered() {
    let mut b = Bidding::new(Rank::Five);
    b.bid(Seat(0), &cards("5h 5h 5h"), &held("5h 5h 5h"))
        .unwrap();
    let err = b
        .bid(Seat(1), &cards("5s 5s 5s"), &held("5s 5s 5s"))
        .unwrap_err();
    assert_eq!(err, TuolajiError::BidCannotBeCountered);
}

/// 第十条1: a bid shows only cards the seat holds at that moment.
#[test]
fn bid_with_cards_not_held_is_refused() {
    let b = Bidding::new(Rank::Five);
    let err = b
        .check(Seat(0), &cards("5h 5h"), &held("5h 9c"))
        .unwrap_err();
    assert_eq!(
        err,
        TuolajiError::NotHeld {
            cards: cards("5h 5h")
        }
    );
}

/// 第十条1: only identical level-rank cards bid; jokers cannot bid.
#[test]
fn jokers_and_other_ranks_cannot_bid() {
    let b = Bidding::new(Rank::Five);
    for shown in ["BJ", "SJ SJ", "6h", "5h 5s", "5h 6h"] {
        let err = b
            .check(Seat(0), &cards(shown), &held("BJ SJ SJ 6h 5h 5s 6h"))
            .unwrap_err();
        assert!(
            matches!(err, TuolajiError::BidNotLevelCards { .. }),
            "{shown}: {err}"
        );
    }
    assert_eq!(
        b.check(Seat(0), &[], &held("5h")).unwrap_err(),
        TuolajiError::BidNoCards
    );
}

/// 第八条2, 第十条2: in a hand, a counter-bid with a pair beats a single; the
/// counter-bidder becomes the first hand's dealer and its suit is trump; the first bidder
/// cannot win it back with one card.
#[test]
fn in_a_hand_the_counter_bidder_deals() {
    use qipai_games::tuolaji::hand::{Hand, HandAction, Phase};
    use qipai_games::tuolaji::TuolajiRules;
    use qipai_games::Millis;

    let level_cards = |hand: &Hand, s: u8| -> Vec<(Card, u8)> {
        hand.holding(Seat(s))
            .iter()
            .filter(|(c, _)| c.rank() == Some(Rank::Two))
            .collect()
    };
    for seed in 0..100 {
        let mut hand = Hand::first(&TuolajiRules::for_tests(), seed, Millis(0)).unwrap();
        hand.deal_all(Millis(0)).unwrap();
        let single = (0..4).find(|&s| !level_cards(&hand, s).is_empty());
        let pair = (0..4)
            .find(|&s| Some(s) != single && level_cards(&hand, s).iter().any(|(_, n)| *n >= 2));
        let (Some(a), Some(b)) = (single, pair) else {
            continue;
        };
        let one = level_cards(&hand, a)[0].0;
        let two = level_cards(&hand, b)
            .into_iter()
            .find(|(_, n)| *n >= 2)
            .unwrap()
            .0;
        hand.apply(Seat(a), HandAction::Bid { cards: vec![one] }, Millis(1))
            .unwrap();
        hand.apply(
            Seat(b),
            HandAction::Bid {
                cards: vec![two; 2],
            },
            Millis(2),
        )
        .unwrap();
        let again = hand
            .apply(Seat(a), HandAction::Bid { cards: vec![one] }, Millis(3))
            .unwrap_err();
        assert_eq!(
            again,
            TuolajiError::CounterBidTooFew {
                standing: 2,
                needed: 3
            }
        );
        hand.close_bidding(Millis(5000)).unwrap();
        assert_eq!(hand.dealer(), Some(Seat(b)));
        assert_eq!(hand.trump(), two.suit());
        assert_eq!(hand.phase(), Phase::Bottom { dealer: Seat(b) });
        assert_eq!(hand.bids().len(), 2);
        return;
    }
    panic!("no seed in 0..100 gives a single and a pair of level cards");
}
