//! The Tuolaji bot: whole seeded games in memory with every seat given only its own view
//! and events (no action ever refused, no throw ever failed), and golden situations.

use qipai_bots::tuolaji::arena::{fast_settings, play_game, Player};
use qipai_bots::tuolaji::burying::choose_bottom;
use qipai_bots::tuolaji::{HintStrategy, RandomTuolaji, TuolajiBot};
use qipai_bots::{SeatView, Strategy};
use qipai_games::cards::{format_cards, parse_cards};
use qipai_games::cards::{Points, Rank, Suit};
use qipai_games::tuolaji::{CardType, Order};
use qipai_protocol::tuolaji::{Phase, Play, TrickView, TuolajiAction, TuolajiEvent, TuolajiView};

/// Games to play (`QIPAI_BOT_GAMES` raises it: thousands of hands for a long run).
fn games() -> u64 {
    std::env::var("QIPAI_BOT_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60)
}

/// Bots at every seat, or bots against random or hint players: the table refuses nothing
/// the bots do, and none of their throws fails (they are checked against the unseen
/// cards, 第六条5, 第十六条).
#[test]
fn seeded_games_without_a_refusal() {
    let settings = fast_settings();
    let mut hands = 0;
    let mut throws = 0;
    for seed in 0..games() {
        let foe = seed % 3;
        let bot_team = (seed / 3 % 2) as usize;
        let mut players: [Player; 4] = std::array::from_fn(|s| -> Player {
            if s % 2 == bot_team || foe == 0 {
                Box::new(TuolajiBot::new())
            } else if foe == 1 {
                Box::new(RandomTuolaji::new(seed * 4 + s as u64))
            } else {
                Box::new(HintStrategy)
            }
        });
        let record = play_game(&settings, seed, &mut players, 4);
        assert!(
            record.rejected.is_empty(),
            "seed {seed}: {:?}",
            record.rejected
        );
        for s in 0..4 {
            if s % 2 == bot_team || foe == 0 {
                assert_eq!(record.failed_throws[s], 0, "seed {seed}, seat {s}");
                throws += record.throws[s];
            }
        }
        hands += record.hands.len();
    }
    assert!(hands as u64 >= games(), "every game plays hands: {hands}");
    assert!(throws > 0, "the bots throw when it is safe");
}

/// Trump spades, level 2; `seat` holds `hand`; the trick so far; `dealer` deals.
fn view(seat: u8, dealer: u8, hand: &str, leader: u8, plays: &[(u8, &str)]) -> SeatView {
    let text = |s: &str| parse_cards(s).unwrap();
    let hand = text(hand);
    let n = hand.len() as u32;
    let lead = text(plays[0].1);
    let order = Order::new(Suit::Spades, Rank::Two);
    let units = qipai_games::tuolaji::decompose(&order, &parse_cards(plays[0].1).unwrap())
        .unwrap()
        .iter()
        .map(|u| u.cards().to_vec())
        .collect();
    let mut counts = [n; 4];
    for (s, _) in plays {
        counts[usize::from(*s)] = n - lead.len() as u32;
    }
    let v = TuolajiView {
        phase: Phase::Following { seat, deadline: 0 },
        hand_number: 1,
        hand: Some(hand),
        card_counts: counts,
        dealt: 156,
        first_drawer: Some(dealer),
        dealer: Some(dealer),
        level_rank: Some(Rank::Two),
        trump: Some(Suit::Spades),
        bids: Vec::new(),
        current_trick: Some(TrickView {
            leader,
            units,
            plays: plays
                .iter()
                .map(|(s, c)| Play {
                    seat: *s,
                    cards: text(c),
                })
                .collect(),
            winner: None,
        }),
        previous_trick: None,
        played: Vec::new(),
        defenders_point_cards: Vec::new(),
        defenders_points: 0,
        levels: [2, 2],
        bottom: None,
        auto: [None; 4],
        last_result: None,
        round_ends_at: None,
        last_hand: false,
        outcome: None,
        hint: None,
        legal_bids: Vec::new(),
    };
    SeatView::new(Some(seat), v)
}

/// A bot that saw the hand start with spades trump at level 2, dealt by `dealer`.
fn bot(dealer: u8) -> TuolajiBot {
    let mut bot = TuolajiBot::new();
    bot.observe(&TuolajiEvent::HandStarted {
        hand_number: 1,
        first_drawer: dealer,
        dealer: Some(dealer),
        level_rank: Rank::Two,
        levels: [2, 2],
        round_ends_at: None,
    });
    bot.observe(&TuolajiEvent::BiddingClosed {
        dealer,
        trump: Some(Suit::Spades),
    });
    bot
}

/// The cards of a follow, in the notation.
fn follow(action: Option<TuolajiAction>) -> String {
    match action {
        Some(TuolajiAction::Follow { cards }) => format_cards(&cards),
        other => panic!("expected a follow, got {other:?}"),
    }
}

/// 第七条, 第十二条: the partner's ace wins the trick and the bot plays last: it feeds a
/// ten (points for its side) rather than a small heart.
#[test]
fn feeds_points_to_the_partners_trick() {
    let v = view(2, 1, "Th 4h 6c 8d", 3, &[(3, "9h"), (0, "Ah"), (1, "3h")]);
    let cards = follow(bot(1).decide(2, &v));
    assert_eq!(cards, "Th");
}

/// 第十二条 (枪毙): out of clubs, last to play to a trick of twenty points the opponents
/// lead: the bot ruffs with its smallest trump rather than discard.
#[test]
fn ruffs_a_point_rich_trick_when_void() {
    let v = view(
        2,
        1,
        "4s 6s 5h 7h 8d",
        3,
        &[(3, "Kc"), (0, "3c"), (1, "Tc")],
    );
    let cards = follow(bot(1).decide(2, &v));
    assert_eq!(cards, "4s");
}

/// 第十二条 (枪毙): nothing to gain in a pointless trick: the bot discards a small card
/// rather than spend a trump.
#[test]
fn does_not_ruff_a_trick_without_points() {
    let v = view(
        2,
        1,
        "4s 6s 3h 7h 8d",
        3,
        &[(3, "9c"), (0, "3c"), (1, "4c")],
    );
    let cards = follow(bot(1).decide(2, &v));
    assert!(!cards.ends_with('s'), "{cards}");
}

/// 第十二条3: the dealer, two cards before the end, holds the big joker and an ace: it
/// leads the ace and keeps the joker for the last trick, which carries the bottom.
#[test]
fn keeps_the_bottom_safe_at_the_end() {
    let mut v = view(0, 0, "BJ Ah", 0, &[(0, "3h")]);
    v.view.current_trick = None;
    v.view.card_counts = [2, 2, 2, 2];
    v.view.phase = Phase::Leading {
        seat: 0,
        deadline: 0,
    };
    v.view.bottom = Some(parse_cards("Kd Kd Td Tc 5c 5s").unwrap());
    match bot(0).decide(0, &v) {
        Some(TuolajiAction::Lead { cards, .. }) => assert_eq!(format_cards(&cards), "Ah"),
        other => panic!("expected a lead, got {other:?}"),
    }
}

/// 第九条2: the dealer empties its short diamonds (burying their king and ten: twenty
/// points out of the defenders' reach), and puts back no trump and no ace.
#[test]
fn buries_points_in_the_bottom() {
    let order = Order::new(Suit::Spades, Rank::Two);
    let held = parse_cards(
        "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s As Ks Qs \
         Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h \
         Ac Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c 3c \
         BJ SJ 2h Kd Td 4d",
    )
    .unwrap();
    assert_eq!(held.len(), 45);
    let bottom = choose_bottom(&order, &held.into_iter().collect());
    assert_eq!(bottom.len(), 6);
    for card in parse_cards("Kd Td 4d").unwrap() {
        assert!(bottom.contains(&card), "{bottom:?}");
    }
    assert!(bottom
        .iter()
        .all(|&c| order.card_type(c) != CardType::Trump));
    assert!(bottom.iter().all(|&c| c.rank() != Some(Rank::Ace)));
    let points: u32 = bottom.iter().map(|c| c.points()).sum();
    assert!(points >= 20, "{bottom:?}");
}

/// 第十二条 (两家以上同时枪毙): an opponent ruffed a trick with points; the bot, out of
/// clubs and last to play, over-ruffs with the smallest trump that beats the ruff.
#[test]
fn over_ruffs_when_it_pays() {
    let v = view(
        2,
        1,
        "3s 6s 9s 5h 7h 8d",
        3,
        &[(3, "Kc"), (0, "3c"), (1, "4s")],
    );
    let cards = follow(bot(1).decide(2, &v));
    assert_eq!(cards, "6s");
}

/// 第十条1: a bot long in hearts bids its two level hearts once the deal is done; asked
/// again before its bid comes back, it does not send the same bid again (it would be
/// refused as no stronger than itself).
#[test]
fn bids_a_strong_suit_once() {
    let mut v = view(
        1,
        0,
        "2h 2h BJ SJ Ah Ah Kh Kh Qh Jh Th 9h 8h 3c 4c 5d",
        0,
        &[(0, "3h")],
    );
    v.view.current_trick = None;
    v.view.trump = None;
    v.view.dealer = None;
    v.view.card_counts = [16; 4];
    v.view.phase = Phase::Bidding { closes_at: 100 };
    // What the server sends this seat while bidding (games' `Hand::legal_bids`): one or
    // both of its level hearts.
    v.view.legal_bids = vec![parse_cards("2h").unwrap(), parse_cards("2h 2h").unwrap()];
    let mut bot = bot(0);
    let bid = bot.decide(1, &v);
    assert_eq!(
        bid,
        Some(TuolajiAction::Bid {
            cards: parse_cards("2h 2h").unwrap()
        })
    );
    assert_eq!(bot.decide(1, &v), None);
}
