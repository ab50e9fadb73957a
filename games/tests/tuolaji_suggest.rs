//! Golden tests for suggestions (the time-out action) and candidate leads for bots.

use qipai_games::cards::{parse_cards, Card, CardCounts, Points, Rank, Suit};
use qipai_games::tuolaji::hand::{Hand, HandAction, Phase, Position};
use qipai_games::tuolaji::suggest::{candidate_actions, candidate_leads, suggest};
use qipai_games::tuolaji::{Order, TuolajiRules};
use qipai_games::{Millis, Seat};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

/// Nobody must bid: during the deal and the bid window there is no suggestion.
#[test]
fn no_bid_is_suggested() {
    let mut hand = Hand::first(&TuolajiRules::for_tests(), 1, Millis(0)).unwrap();
    assert_eq!(suggest(&hand), None);
    hand.deal_all(Millis(0)).unwrap();
    assert_eq!(suggest(&hand), None);
}

/// 第八条2: with no bid, the dealer names the suit it holds most of; then puts back six
/// plain, pointless, low cards (第九条2), and both are accepted.
#[test]
fn trump_and_bottom_suggestions_are_accepted() {
    let mut hand = Hand::later(
        &TuolajiRules::for_tests(),
        2,
        Seat(1),
        Rank::Four,
        Millis(0),
    )
    .unwrap();
    hand.deal_all(Millis(0)).unwrap();
    hand.close_bidding(Millis(5000)).unwrap();
    let (seat, action) = suggest(&hand).unwrap();
    assert_eq!(seat, Seat(1));
    let HandAction::NameTrump { suit } = action else {
        panic!("{action:?}")
    };
    let count = |s: Suit| {
        hand.holding(Seat(1))
            .to_vec()
            .iter()
            .filter(|c| c.suit() == Some(s))
            .count()
    };
    assert!(Suit::ALL.iter().all(|&s| count(s) <= count(suit)));
    hand.apply(seat, action, Millis(5000)).unwrap();
    let (seat, action) = suggest(&hand).unwrap();
    let HandAction::PutBack { cards } = &action else {
        panic!("{action:?}")
    };
    let order = *hand.order().unwrap();
    assert_eq!(cards.len(), 6);
    assert!(cards.iter().all(|&c| !order.is_trump(c) && c.points() == 0));
    hand.apply(seat, action, Millis(5000)).unwrap();
    assert_eq!(hand.phase(), Phase::Leading { seat: Seat(1) });
}

/// 第十一条1: the suggested lead is the lowest plain single; the suggested follow is legal.
#[test]
fn lead_and_follow_suggestions() {
    let position = Position {
        holdings: [
            cards("As 3c 9h"),
            cards("Ks Kc 4h"),
            cards("Qs 6d 5h"),
            cards("Js 7d 6h"),
        ],
        bottom: cards("6c 7c 8c 9c Jc Qc"),
        dealer: Seat(0),
        trump: Suit::Hearts,
        level: Rank::Two,
        leader: Seat(0),
    };
    let mut hand = Hand::from_position(&TuolajiRules::for_tests(), &position, Millis(0)).unwrap();
    let (seat, action) = suggest(&hand).unwrap();
    assert_eq!(
        action,
        HandAction::Lead {
            cards: cards("3c"),
            declared: None
        }
    );
    hand.apply(seat, action, Millis(0)).unwrap();
    let (seat, action) = suggest(&hand).unwrap();
    assert_eq!(
        (seat, action.clone()),
        (Seat(1), HandAction::Follow { cards: cards("Kc") })
    );
    assert_eq!(candidate_actions(&hand, 10), vec![action]);
}

/// 第六条: candidate leads list every unit, tractors first, strongest first in a kind.
#[test]
fn candidate_leads_list_units_strongest_first() {
    let order = Order::new(Suit::Hearts, Rank::Two);
    let holding: CardCounts = cards("As As Ks Ks 3c").into_iter().collect();
    let leads = candidate_leads(&order, &holding, 100);
    assert_eq!(leads[0], cards("As As Ks Ks"));
    assert!(leads.contains(&cards("As As")));
    assert!(leads.contains(&cards("Ks")));
    assert!(leads.contains(&cards("3c")));
    assert_eq!(leads.len(), 6, "{leads:?}");
    assert_eq!(candidate_leads(&order, &holding, 2).len(), 2);
}
