//! Golden tests for one hand as a state machine: the deal, bidding in the hand, the dealer
//! and trump, the bottom exchange, turns, failed throws and the bottom multiplier of the
//! last trick (第八条–第十二条, 第十六条, 表1).

use qipai_games::cards::{parse_cards, Card, Points, Rank, Suit};
use qipai_games::tuolaji::hand::{Hand, HandAction, HandEvent, Phase, Position};
use qipai_games::tuolaji::scoring::LevelChange;
use qipai_games::tuolaji::{TuolajiError, TuolajiRules};
use qipai_games::{Millis, Seat};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn opts() -> TuolajiRules {
    TuolajiRules::for_tests()
}

const T0: Millis = Millis(0);

/// Deals until `seat` receives a level card, returning that card.
fn deal_until_level_card(hand: &mut Hand, seat: Seat) -> Card {
    loop {
        for e in hand.deal_next(T0).unwrap() {
            if let HandEvent::Dealt {
                seat: s,
                card: Some(c),
            } = e
            {
                if s == seat && c.rank() == Some(hand.level()) {
                    return c;
                }
            }
        }
    }
}

/// Applies `action` and checks that a refusal left the hand exactly as it was.
fn refused(hand: &mut Hand, seat: Seat, action: HandAction, now: Millis) -> TuolajiError {
    let before = hand.clone();
    let err = hand.apply(seat, action, now).unwrap_err();
    assert_eq!(*hand, before, "a refused action changed the hand");
    err
}

/// 第九条: 156 cards are drawn one at a time, 39 each, from the first drawer on; then
/// bidding stays open for `bid_window_ms` (第十条2).
#[test]
fn the_deal_streams_39_each_then_opens_the_window() {
    let mut hand = Hand::first(&opts(), 3, Millis(100)).unwrap();
    let first = hand.first_drawer();
    let events = hand.deal_next(Millis(100)).unwrap();
    assert!(matches!(events[0], HandEvent::Dealt { seat, card: Some(_) } if seat == first));
    let events = hand.deal_all(Millis(200)).unwrap();
    assert_eq!(hand.card_counts(), [39; 4]);
    assert_eq!(hand.bottom().len(), 6);
    assert_eq!(
        events.last(),
        Some(&HandEvent::DealDone {
            closes_at: Millis(5200)
        })
    );
    assert_eq!(
        hand.phase(),
        Phase::Bidding {
            closes_at: Millis(5200)
        }
    );
}

/// 第八条2: in the first hand the player holding the final bid becomes dealer, and its
/// suit is trump; the dealer takes the bottom (45 cards).
#[test]
fn first_hand_final_bidder_deals() {
    let mut hand = Hand::first(&opts(), 7, T0).unwrap();
    let card = deal_until_level_card(&mut hand, Seat(2));
    hand.apply(Seat(2), HandAction::Bid { cards: vec![card] }, T0)
        .unwrap();
    hand.deal_all(T0).unwrap();
    let events = hand.close_bidding(Millis(5000)).unwrap();
    assert_eq!(
        events[0],
        HandEvent::BiddingClosed {
            dealer: Seat(2),
            trump: card.suit()
        }
    );
    assert_eq!(hand.dealer(), Some(Seat(2)));
    assert_eq!(hand.phase(), Phase::Bottom { dealer: Seat(2) });
    assert_eq!(hand.holding(Seat(2)).len(), 45);
}

/// 第十条1: a bid shows only cards held at that moment of the deal.
#[test]
fn bid_with_a_card_not_yet_drawn_is_refused() {
    let mut hand = Hand::first(&opts(), 7, T0).unwrap();
    let level_two = cards("2s");
    let err = refused(
        &mut hand,
        Seat(0),
        HandAction::Bid {
            cards: level_two.clone(),
        },
        T0,
    );
    assert_eq!(err, TuolajiError::NotHeld { cards: level_two });
}

/// 第十条2: bids are accepted until the window closes, and not at or after its end;
/// closing early is refused.
#[test]
fn bid_after_the_window_is_refused() {
    let mut hand = Hand::first(&opts(), 11, T0).unwrap();
    hand.deal_all(T0).unwrap();
    let seat = (0..4)
        .map(Seat)
        .find(|&s| {
            hand.holding(s)
                .to_vec()
                .iter()
                .any(|c| c.rank() == Some(Rank::Two))
        })
        .unwrap();
    let card = *hand
        .holding(seat)
        .to_vec()
        .iter()
        .find(|c| c.rank() == Some(Rank::Two))
        .unwrap();
    let late = HandAction::Bid { cards: vec![card] };
    assert_eq!(
        refused(&mut hand, seat, late.clone(), Millis(5000)),
        TuolajiError::BiddingClosed
    );
    assert_eq!(
        hand.close_bidding(Millis(4999)).unwrap_err(),
        TuolajiError::BiddingOpen { closes_at: 5000 }
    );
    hand.apply(seat, late, Millis(4999)).unwrap();
}

/// 第八条2: nobody bid in the first hand: the first drawer deals and names the trump.
#[test]
fn no_bid_first_drawer_names_trump() {
    let mut hand = Hand::first(&opts(), 5, T0).unwrap();
    hand.deal_all(T0).unwrap();
    let first = hand.first_drawer();
    hand.close_bidding(Millis(5000)).unwrap();
    assert_eq!(hand.phase(), Phase::NamingTrump { dealer: first });
    let other = Seat((first.0 + 1) % 4);
    let err = refused(
        &mut hand,
        other,
        HandAction::NameTrump { suit: Suit::Clubs },
        Millis(5000),
    );
    assert!(matches!(err, TuolajiError::NotYourTurn { .. }));
    let events = hand
        .apply(
            first,
            HandAction::NameTrump { suit: Suit::Clubs },
            Millis(5001),
        )
        .unwrap();
    assert_eq!(
        events[0],
        HandEvent::TrumpNamed {
            dealer: first,
            suit: Suit::Clubs
        }
    );
    assert_eq!(hand.trump(), Some(Suit::Clubs));
    assert_eq!(hand.holding(first).len(), 45);
}

/// 第八条 **[D]**: in a later hand a bid chooses only the trump; the dealer stays.
#[test]
fn later_hand_bid_chooses_only_trump() {
    let mut hand = Hand::later(&opts(), 9, Seat(3), Rank::Seven, T0).unwrap();
    assert_eq!(
        hand.first_drawer(),
        Seat(3),
        "第九条1: the dealer draws first"
    );
    let card = deal_until_level_card(&mut hand, Seat(1));
    hand.apply(Seat(1), HandAction::Bid { cards: vec![card] }, T0)
        .unwrap();
    hand.deal_all(T0).unwrap();
    hand.close_bidding(Millis(5000)).unwrap();
    assert_eq!(hand.dealer(), Some(Seat(3)));
    assert_eq!(hand.trump(), card.suit());
    assert_eq!(hand.phase(), Phase::Bottom { dealer: Seat(3) });
}

/// 第八条 **[D]**: in a later hand with no bid the dealer names the trump.
#[test]
fn later_hand_no_bid_dealer_names_trump() {
    let mut hand = Hand::later(&opts(), 9, Seat(1), Rank::Seven, T0).unwrap();
    hand.deal_all(T0).unwrap();
    hand.close_bidding(Millis(5000)).unwrap();
    assert_eq!(hand.phase(), Phase::NamingTrump { dealer: Seat(1) });
}

/// A hand at the bottom exchange: seat 0 deals, trump named.
fn at_bottom() -> Hand {
    let mut hand = Hand::later(&opts(), 21, Seat(0), Rank::Two, T0).unwrap();
    hand.deal_all(T0).unwrap();
    hand.close_bidding(Millis(5000)).unwrap();
    hand.apply(Seat(0), HandAction::NameTrump { suit: Suit::Hearts }, T0)
        .unwrap();
    hand
}

/// 第九条2: the dealer puts back exactly six held cards, then leads (第十一条1).
#[test]
fn bottom_put_back_rules() {
    let mut hand = at_bottom();
    let held = hand.holding(Seat(0)).to_vec();
    let five = held[..5].to_vec();
    assert_eq!(
        refused(&mut hand, Seat(0), HandAction::PutBack { cards: five }, T0),
        TuolajiError::BottomWrongSize { given: 5 }
    );
    let not_held: Vec<Card> = Card::all()
        .filter(|c| hand.holding(Seat(0)).count(*c) == 0)
        .take(1)
        .chain(held[..5].iter().copied())
        .collect();
    assert!(matches!(
        refused(
            &mut hand,
            Seat(0),
            HandAction::PutBack { cards: not_held },
            T0
        ),
        TuolajiError::NotHeld { .. }
    ));
    let six = held[..6].to_vec();
    assert!(matches!(
        refused(
            &mut hand,
            Seat(1),
            HandAction::PutBack { cards: six.clone() },
            T0
        ),
        TuolajiError::NotYourTurn { expected: 0, .. }
    ));
    hand.apply(Seat(0), HandAction::PutBack { cards: six.clone() }, T0)
        .unwrap();
    assert_eq!(hand.bottom(), six.as_slice());
    assert_eq!(hand.card_counts(), [39; 4]);
    assert_eq!(hand.phase(), Phase::Leading { seat: Seat(0) });
}

/// 第十一条: actions out of turn or of the wrong kind are refused and change nothing.
#[test]
fn out_of_turn_and_wrong_kind_are_refused() {
    let mut hand = at_bottom();
    let six = hand.holding(Seat(0)).to_vec()[..6].to_vec();
    hand.apply(Seat(0), HandAction::PutBack { cards: six }, T0)
        .unwrap();
    let c = hand.holding(Seat(1)).to_vec()[0];
    assert!(matches!(
        refused(
            &mut hand,
            Seat(1),
            HandAction::Lead {
                cards: vec![c],
                declared: None
            },
            T0
        ),
        TuolajiError::NotYourTurn { expected: 0, .. }
    ));
    assert!(matches!(
        refused(
            &mut hand,
            Seat(0),
            HandAction::Follow { cards: vec![c] },
            T0
        ),
        TuolajiError::WrongPhase { .. }
    ));
    assert!(matches!(
        refused(&mut hand, Seat(0), HandAction::Bid { cards: vec![c] }, T0),
        TuolajiError::BiddingClosed
    ));
    assert!(matches!(
        refused(&mut hand, Seat(9), HandAction::Bid { cards: vec![c] }, T0),
        TuolajiError::NoSuchSeat { seat: 9 }
    ));
}

/// The last trick, from a position: dealer seat 0, trump hearts, level 2, `leader` leads
/// `lead`; the others hold only plain clubs and diamonds without points, so they discard.
fn last_trick(leader: u8, lead: &str) -> Hand {
    let lead = cards(lead);
    let n = lead.len();
    let filler = cards("3c 4c 6c 7c 8c 9c Jc Qc Ac 3d 4d 6d 7d 8d 9d Jd Qd Ad");
    let mut holdings: [Vec<Card>; 4] = Default::default();
    for d in 1..4usize {
        let s = (usize::from(leader) + d) % 4;
        holdings[s] = (0..n).map(|i| filler[((d - 1) * 6 + i) % 18]).collect();
    }
    holdings[usize::from(leader)] = lead;
    let position = Position {
        holdings,
        bottom: cards("5c Tc Kc 3s 4s 6s"),
        dealer: Seat(0),
        trump: Suit::Hearts,
        level: Rank::Two,
        leader: Seat(leader),
    };
    Hand::from_position(&opts(), &position, T0).unwrap()
}

/// Plays the trick out with every follower discarding its whole holding.
fn play_out(hand: &mut Hand, leader: u8, lead: &str) -> Vec<HandEvent> {
    let mut events = hand
        .apply(
            Seat(leader),
            HandAction::Lead {
                cards: cards(lead),
                declared: None,
            },
            T0,
        )
        .unwrap();
    for d in 1..4u8 {
        let s = Seat((leader + d) % 4);
        let all = hand.holding(s).to_vec();
        events.extend(
            hand.apply(s, HandAction::Follow { cards: all }, T0)
                .unwrap(),
        );
    }
    events
}

/// 第十二条3 表1: a defender wins the last trick with `lead`: the bottom (25 points)
/// counts × `multiplier`.
fn bottom_counts(lead: &str, multiplier: u32) {
    let mut hand = last_trick(1, lead);
    play_out(&mut hand, 1, lead);
    let result = hand.result().expect("the hand is over");
    assert_eq!(result.bottom_multiplier, multiplier, "{lead}");
    assert_eq!(result.last_trick_winner, Seat(1));
    let trick_points: u32 = cards(lead).iter().map(|c| c.points()).sum();
    assert_eq!(result.score.bottom_points, 25 * multiplier, "{lead}");
    assert_eq!(
        result.defenders_points,
        i32::try_from(trick_points + 25 * multiplier).unwrap()
    );
    assert_eq!(hand.phase(), Phase::Done);
}

/// 表1: single ×2.
#[test]
fn bottom_single_times_two() {
    bottom_counts("As", 2);
}

/// 表1: pair ×3.
#[test]
fn bottom_pair_times_three() {
    bottom_counts("As As", 3);
}

/// 表1: triple ×4.
#[test]
fn bottom_triple_times_four() {
    bottom_counts("As As As", 4);
}

/// 表1: two-pair-tractor ×5.
#[test]
fn bottom_two_pair_tractor_times_five() {
    bottom_counts("As As Ks Ks", 5);
}

/// 表1: three-pair-tractor ×6 (one more per pair).
#[test]
fn bottom_three_pair_tractor_times_six() {
    bottom_counts("As As Ks Ks Qs Qs", 6);
}

/// 表1: two-triple-tractor ×6.
#[test]
fn bottom_two_triple_tractor_times_six() {
    bottom_counts("As As As Ks Ks Ks", 6);
}

/// 表1: three-triple-tractor ×8 (two more per triple).
#[test]
fn bottom_three_triple_tractor_times_eight() {
    bottom_counts("As As As Ks Ks Ks Qs Qs Qs", 8);
}

/// 表1: a throw counts the sum of its two highest-priority units: triple ×4 + pair ×3.
#[test]
fn bottom_throw_sums_its_two_top_units() {
    bottom_counts("As As As Qs Qs 9s", 7);
}

/// 第十二条3: when the dealer's side wins the last trick the bottom does not count.
#[test]
fn dealer_winning_the_last_trick_keeps_the_bottom() {
    let mut hand = last_trick(0, "As As");
    play_out(&mut hand, 0, "As As");
    let result = hand.result().unwrap();
    assert_eq!(result.last_trick_winner, Seat(0));
    assert_eq!(result.bottom_multiplier, 3);
    assert_eq!(result.score.bottom_points, 0);
    assert_eq!(result.defenders_points, 0);
    assert_eq!(result.change, LevelChange::Dealer(4));
    assert_eq!(result.next_dealer, Seat(2), "第八条3: the dealer's partner");
    assert_eq!(result.bottom, cards("5c Tc Kc 3s 4s 6s"));
}

/// A two-card position where `thrower` throws As Qs and `holder` has Ks (beats the Qs).
fn failed_throw(thrower: u8, holder: u8) -> (Hand, Vec<HandEvent>) {
    let mut holdings: [Vec<Card>; 4] = [
        cards("3c 4c"),
        cards("6c 7c"),
        cards("8c 9c"),
        cards("3d 4d"),
    ];
    holdings[usize::from(thrower)] = cards("As Qs");
    holdings[usize::from(holder)] = cards("Ks 3d");
    let position = Position {
        holdings,
        bottom: cards("6d 7d 8d 9d Jd Qd"),
        dealer: Seat(0),
        trump: Suit::Hearts,
        level: Rank::Two,
        leader: Seat(thrower),
    };
    let mut hand = Hand::from_position(&opts(), &position, T0).unwrap();
    let events = hand
        .apply(
            Seat(thrower),
            HandAction::Lead {
                cards: cards("As Qs"),
                declared: None,
            },
            T0,
        )
        .unwrap();
    (hand, events)
}

/// 第十六条: a defender's failed throw costs the defenders 20; the lowest beatable unit
/// is led instead, and the events say both.
#[test]
fn defender_failed_throw_costs_twenty_and_forces_the_unit() {
    let (hand, events) = failed_throw(1, 2);
    assert_eq!(
        events[0],
        HandEvent::ThrowFailed {
            seat: Seat(1),
            attempted: cards("As Qs"),
            forced: cards("Qs"),
            beaten_by: Seat(2),
            penalty: -20,
            defenders_points: -20,
        }
    );
    assert!(matches!(&events[1], HandEvent::Led { cards: c, .. } if *c == cards("Qs")));
    assert_eq!(hand.holding(Seat(1)).to_vec(), cards("As"));
    assert_eq!(hand.score().total(), -20);
}

/// 第十六条: a dealer-side failed throw gives the defenders 20.
#[test]
fn dealer_side_failed_throw_gives_the_defenders_twenty() {
    let (hand, events) = failed_throw(2, 3);
    assert!(matches!(
        events[0],
        HandEvent::ThrowFailed {
            penalty: 20,
            defenders_points: 20,
            beaten_by: Seat(3),
            ..
        }
    ));
    assert_eq!(hand.score().penalty_points, 20);
}

/// 第十一条1, 第七条: the winner leads the next trick; points go to the defenders only.
#[test]
fn winner_leads_next_and_only_defenders_score() {
    let position = Position {
        holdings: [
            cards("Ks 3c"),
            cards("As 4c"),
            cards("Ts 6c"),
            cards("5s 7c"),
        ],
        bottom: cards("6d 7d 8d 9d Jd Qd"),
        dealer: Seat(0),
        trump: Suit::Hearts,
        level: Rank::Two,
        leader: Seat(0),
    };
    let mut hand = Hand::from_position(&opts(), &position, T0).unwrap();
    let lead = |c: &str| HandAction::Lead {
        cards: cards(c),
        declared: None,
    };
    let follow = |c: &str| HandAction::Follow { cards: cards(c) };
    hand.apply(Seat(0), lead("Ks"), T0).unwrap();
    hand.apply(Seat(1), follow("As"), T0).unwrap();
    hand.apply(Seat(2), follow("Ts"), T0).unwrap();
    let events = hand.apply(Seat(3), follow("5s"), T0).unwrap();
    assert_eq!(
        events.last(),
        Some(&HandEvent::TrickWon {
            winner: Seat(1),
            points: 25,
            defenders_points: 25,
            captured: cards("Ks Ts 5s"),
        })
    );
    assert_eq!(hand.phase(), Phase::Leading { seat: Seat(1) });
    assert_eq!(hand.defenders_point_cards().len(), 3);
    assert_eq!(hand.previous_trick().unwrap().winner, Some(Seat(1)));
}
