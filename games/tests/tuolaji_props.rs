//! Property tests: random seeded hands and games played to the end by random legal
//! players (choosing among the candidate actions and suggestions).
//!
//! - 第四条: no card is lost or created (162 at all times);
//! - 第七条: the tricks and the bottom hold 300 points;
//! - every suggested action is accepted; every refused action changes nothing;
//! - 第二十条, 第八条3: levels and dealers follow the tables;
//! - replaying (seed, steps) gives the same hand.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use qipai_games::cards::{three_decks, Card, CardCounts, Points, Rank};
use qipai_games::tuolaji::hand::{Hand, HandAction, HandEvent, Phase};
use qipai_games::tuolaji::level::{next_dealer, Team};
use qipai_games::tuolaji::matchplay::{Match, MatchEnd};
use qipai_games::tuolaji::scoring::LevelChange;
use qipai_games::tuolaji::suggest::{candidate_actions, suggest};
use qipai_games::tuolaji::TuolajiRules;
use qipai_games::{Millis, Seat};

/// One step the room takes.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Deal,
    Close,
    Act(Seat, HandAction),
}

/// All 162 cards, wherever they are, as one multiset.
fn every_card(hand: &Hand) -> CardCounts {
    let mut all = CardCounts::new();
    for s in 0..4 {
        for c in hand.holding(Seat(s)).to_vec() {
            all.add(c);
        }
        for &c in hand.played(Seat(s)) {
            all.add(c);
        }
    }
    // Once the dealer holds the bottom, it is counted in the holding until put back.
    if !matches!(hand.phase(), Phase::Bottom { .. }) {
        for &c in hand.bottom() {
            all.add(c);
        }
    }
    all
}

fn assert_conserved(hand: &Hand) {
    if hand.phase() == Phase::Dealing {
        let held: usize = hand.card_counts().iter().sum();
        assert_eq!(held, hand.dealt());
        return;
    }
    assert_eq!(
        every_card(hand),
        three_decks().into_iter().collect::<CardCounts>()
    );
}

/// A random bid attempt by a random seat: some of its level cards of one suit.
fn random_bid(hand: &Hand, rng: &mut ChaCha8Rng) -> (Seat, HandAction) {
    let seat = Seat(rng.random_range(0..4));
    let level: Vec<(Card, u8)> = hand
        .holding(seat)
        .iter()
        .filter(|(c, _)| c.rank() == Some(hand.level()))
        .collect();
    let cards = if level.is_empty() {
        Vec::new()
    } else {
        let (card, n) = level[rng.random_range(0..level.len())];
        vec![card; usize::from(rng.random_range(1..=n))]
    };
    (seat, HandAction::Bid { cards })
}

/// An action that is usually illegal: a random seat plays some of its own cards.
fn random_play(hand: &Hand, rng: &mut ChaCha8Rng) -> (Seat, HandAction) {
    let seat = Seat(rng.random_range(0..4));
    let held = hand.holding(seat).to_vec();
    let n = rng.random_range(0..=held.len().min(4));
    let cards: Vec<Card> = (0..n)
        .map(|_| held[rng.random_range(0..held.len())])
        .collect();
    let action = match rng.random_range(0..3) {
        0 => HandAction::Follow { cards },
        1 => HandAction::Lead {
            cards,
            declared: None,
        },
        _ => HandAction::PutBack { cards },
    };
    (seat, action)
}

/// Checks that a refused `action` leaves the hand exactly as it was.
fn refusal_changes_nothing(hand: &Hand, seat: Seat, action: HandAction, now: Millis) {
    let mut probe = hand.clone();
    if probe.apply(seat, action, now).is_err() {
        assert_eq!(&probe, hand, "a refused action changed the hand");
    }
}

/// Plays `hand` to the end with random legal players, checking the properties at every
/// step; returns the steps taken and every event.
fn play_hand(hand: &mut Hand, rng: &mut ChaCha8Rng, start: u64) -> (Vec<Step>, Vec<HandEvent>) {
    let mut steps = Vec::new();
    let mut events = Vec::new();
    let mut now = start;
    // Some hands see no bid at all, so the trump gets named (第八条2).
    let bid_odds = [0, 8, 32][rng.random_range(0..3)];
    while !hand.is_done() {
        now += 1;
        let at = Millis(now);
        assert_conserved(hand);
        let (p, a) = random_play(hand, rng);
        refusal_changes_nothing(hand, p, a, at);
        let step = match hand.phase() {
            Phase::Dealing if bid_odds > 0 && rng.random_range(0..bid_odds) == 0 => {
                let (seat, bid) = random_bid(hand, rng);
                let mut probe = hand.clone();
                match probe.apply(seat, bid.clone(), at) {
                    Ok(_) => Step::Act(seat, bid),
                    Err(_) => {
                        assert_eq!(&probe, hand);
                        Step::Deal
                    }
                }
            }
            Phase::Dealing => Step::Deal,
            Phase::Bidding { closes_at } => {
                now = now.max(closes_at.0);
                Step::Close
            }
            _ => {
                let (seat, suggested) = suggest(hand).expect("someone must act");
                let mut probe = hand.clone();
                if let Err(e) = probe.apply(seat, suggested.clone(), at) {
                    panic!("suggestion {suggested:?} refused: {e}");
                }
                let candidates = candidate_actions(hand, 8);
                let action = if candidates.is_empty() || rng.random_range(0..4) == 0 {
                    suggested
                } else {
                    candidates[rng.random_range(0..candidates.len())].clone()
                };
                Step::Act(seat, action)
            }
        };
        let at = Millis(now);
        let got = match &step {
            Step::Deal => hand.deal_next(at),
            Step::Close => hand.close_bidding(at),
            Step::Act(seat, action) => hand.apply(*seat, action.clone(), at),
        };
        events.extend(got.unwrap_or_else(|e| panic!("{step:?} refused: {e}")));
        steps.push(step);
    }
    assert_conserved(hand);
    (steps, events)
}

/// 第七条, 第二十条, 第八条3: the result adds up.
fn check_result(hand: &Hand, events: &[HandEvent]) {
    let result = hand.result().expect("done");
    let dealer = result.dealer;
    let mut trick_total = 0;
    let mut defenders = 0;
    for e in events {
        if let HandEvent::TrickWon { winner, points, .. } = e {
            trick_total += points;
            if Team::of(*winner) != Team::of(dealer) {
                defenders += points;
            }
        }
    }
    let bottom: u32 = result.bottom.iter().map(|c| c.points()).sum();
    assert_eq!(trick_total + bottom, 300, "第七条: 300 points in all");
    assert_eq!(result.score.trick_points, defenders);
    assert_eq!(result.defenders_points, result.score.total());
    assert_eq!(
        result.change,
        LevelChange::from_points(result.defenders_points)
    );
    assert_eq!(
        result.next_dealer,
        next_dealer(dealer, result.change.dealer_went_up())
    );
    let defender_took_last = Team::of(result.last_trick_winner) != Team::of(dealer);
    let expected_bottom = if defender_took_last {
        bottom * result.bottom_multiplier
    } else {
        0
    };
    assert_eq!(result.score.bottom_points, expected_bottom);
}

/// Replays `steps` on a fresh hand made by `fresh`.
fn replay(mut hand: Hand, steps: &[Step], start: u64) -> Hand {
    let mut now = start;
    for step in steps {
        now += 1;
        let got = match step {
            Step::Deal => hand.deal_next(Millis(now)),
            Step::Close => {
                if let Phase::Bidding { closes_at } = hand.phase() {
                    now = now.max(closes_at.0);
                }
                hand.close_bidding(Millis(now))
            }
            Step::Act(seat, action) => hand.apply(*seat, action.clone(), Millis(now)),
        };
        got.unwrap();
    }
    hand
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A first hand from any seed: cards conserved, 300 points, suggestions accepted,
    /// refusals change nothing, the result follows 表2, and the replay is identical.
    #[test]
    fn random_first_hands_add_up(seed in any::<u64>()) {
        let options = TuolajiRules::for_tests();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut hand = Hand::first(&options, seed, Millis(0)).unwrap();
        let (steps, events) = play_hand(&mut hand, &mut rng, 0);
        check_result(&hand, &events);
        let again = replay(Hand::first(&options, seed, Millis(0)).unwrap(), &steps, 0);
        prop_assert_eq!(again, hand);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A table where nobody acts: time-outs alone deal, close the bidding, name the trump,
    /// put back the bottom and play every trick, and the hand adds up.
    #[test]
    fn time_outs_alone_finish_a_hand(seed in any::<u64>(), dealer in 0..4u8) {
        let options = TuolajiRules::default();
        let mut hand = Hand::later(&options, seed, Seat(dealer), Rank::Nine, Millis(0)).unwrap();
        let mut events = Vec::new();
        let mut timed_out = 0;
        while let Some(at) = hand.deadline() {
            prop_assert!(hand.on_deadline(at.saturating_sub(Millis(1))).unwrap().is_empty());
            let got = hand.on_deadline(at).unwrap();
            prop_assert!(!got.is_empty());
            timed_out += got.iter().filter(|e| matches!(e, HandEvent::TimedOut { .. })).count();
            events.extend(got);
            assert_conserved(&hand);
        }
        prop_assert!(hand.is_done());
        // Nobody bid: the trump, the bottom, then 39 single-card tricks of four plays.
        prop_assert_eq!(timed_out, 2 + 39 * 4);
        check_result(&hand, &events);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// A game across hands: levels move by 表2, dealers by 第八条3, the game ends past A.
    #[test]
    fn random_games_follow_the_tables(seed in any::<u64>()) {
        let options = TuolajiRules::for_tests();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Match::new(&options, seed, Millis(0)).unwrap();
        let mut start = 0;
        for n in 0..40u64 {
            let mut hand = game.hand().clone();
            let (steps, _) = play_hand(&mut hand, &mut rng, start);
            let before = game.levels();
            let mut now = start;
            for step in &steps {
                now += 1;
                match step {
                    Step::Deal => { game.deal_next(Millis(now)).unwrap(); }
                    Step::Close => {
                        if let Phase::Bidding { closes_at } = game.hand().phase() {
                            now = now.max(closes_at.0);
                        }
                        game.close_bidding(Millis(now)).unwrap();
                    }
                    Step::Act(seat, a) => { game.apply(*seat, a.clone(), Millis(now)).unwrap(); }
                }
            }
            let result = game.history().last().unwrap().clone();
            let up = if result.change.dealer_went_up() {
                Team::of(result.dealer)
            } else {
                Team::of(result.dealer).other()
            };
            prop_assert_eq!(
                game.levels().get(up).number(),
                before.get(up).number() + result.change.steps()
            );
            prop_assert_eq!(game.levels().get(up.other()), before.get(up.other()));
            if let Some(outcome) = game.outcome() {
                prop_assert_eq!(outcome.end, MatchEnd::PastAce);
                prop_assert_eq!(outcome.winner, Some(up));
                prop_assert!(game.levels().get(up).is_past_ace());
                return Ok(());
            }
            start = now + 10;
            game.next_hand(seed.wrapping_add(n + 1), Millis(start)).unwrap();
            prop_assert_eq!(game.hand().dealer(), Some(result.next_dealer));
            prop_assert_eq!(
                Some(game.hand().level()),
                game.levels().level_rank(result.next_dealer)
            );
        }
    }
}
