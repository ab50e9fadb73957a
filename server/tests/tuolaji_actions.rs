//! Bids and refusals over real sockets: two counter-bids racing (the room's order decides
//! and everybody sees the same final bid), and every kind of rejected action getting an
//! error with a code while the table stays as it was.

mod common;

use common::tuolaji::{fast_options, tl_event, Player, SEED};
use common::{Client, TestServer};
use qipai_games::cards::{Card, Rank, Suit};
use qipai_games::tuolaji::deal::Deal;
use qipai_games::tuolaji::{hand_seed, CardType, Order};
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent, TuolajiOptions, TuolajiView};
use qipai_protocol::ErrorCode;

/// A long bid window and long turns: nothing moves unless a test acts.
fn patient() -> TuolajiOptions {
    TuolajiOptions {
        bid_window_ms: Some(1500),
        ..fast_options()
    }
}

/// A server whose first room deals from `seed`.
async fn server_with_seed(seed: u64) -> TestServer {
    TestServer::start(|c| {
        c.tuolaji.seed = Some(seed.wrapping_sub(1));
        c.server.outbound_queue = 1 << 16;
    })
    .await
}

/// Four players seated at a new table (room 1) and a spectator; returns once the deal is
/// done.
async fn seated(server: &TestServer) -> (Vec<Player>, Client) {
    let mut first = Client::hello(server, "S0").await;
    let room = first.create_tuolaji(patient(), Some(0)).await;
    let mut players = vec![Player::new(first, 0)];
    let mut watcher = Client::hello(server, "Watcher").await;
    watcher.spectate(room).await;
    for seat in 1..4u8 {
        let mut c = Client::hello(server, &format!("S{seat}")).await;
        c.join(room, Some(seat)).await;
        players.push(Player::new(c, seat));
    }
    for p in &mut players {
        p.client
            .until(|m| matches!(tl_event(m), Some((_, TuolajiEvent::DealDone { .. }))))
            .await;
    }
    (players, watcher)
}

/// The most identical level-2 cards each seat holds after the first hand's deal from `seed`.
fn most_identical_twos(seed: u64) -> [(u8, Suit); 4] {
    let hand_seed = hand_seed(seed, 1);
    let deal = Deal::new(hand_seed, Deal::random_first_drawer(hand_seed));
    deal.holdings().map(|h| {
        Suit::ALL
            .into_iter()
            .map(|s| (h.count(Card::new(Rank::Two, s)), s))
            .max()
            .expect("four suits")
    })
}

/// 第十条2: two seats counter-bid at the same moment; the room takes them in the order they
/// arrive: the first stands, the second is now too weak, and every seat sees the same bids.
#[tokio::test]
async fn racing_counter_bids_are_ordered_by_the_room() {
    // A seed where one seat can bid one card and two others can counter with two each.
    let (seed, bidder, racers) = (SEED..SEED + 500)
        .find_map(|seed| {
            let most = most_identical_twos(seed);
            let pairs: Vec<u8> = (0..4u8).filter(|s| most[usize::from(*s)].0 >= 2).collect();
            let (&a, &b) = (pairs.first()?, pairs.get(1)?);
            let x = (0..4u8).find(|s| *s != a && *s != b && most[usize::from(*s)].0 >= 1)?;
            Some((seed, x, [a, b]))
        })
        .expect("a seed with two possible counter-bids");
    let most = most_identical_twos(seed);
    let bid = |seat: u8, n: usize| TuolajiAction::Bid {
        cards: vec![Card::new(Rank::Two, most[usize::from(seat)].1); n],
    };
    let server = server_with_seed(seed).await;
    let (mut players, _watcher) = seated(&server).await;

    players[usize::from(bidder)]
        .act(bid(bidder, 1))
        .await
        .expect("the first bid stands");
    let [a, b] = racers;
    let (pa, pb) = {
        let (lo, hi) = players.split_at_mut(usize::from(b));
        (&mut lo[usize::from(a)], &mut hi[0])
    };
    let (ra, rb) = tokio::join!(pa.act(bid(a, 2)), pb.act(bid(b, 2)));
    let winner = match (&ra, &rb) {
        (Ok(()), Err((ErrorCode::BidTooWeak, _))) => a,
        (Err((ErrorCode::BidTooWeak, _)), Ok(())) => b,
        other => panic!("one counter-bid stands, the other is too weak: {other:?}"),
    };
    let va = pa.view().await;
    let vb = pb.view().await;
    assert_eq!(va.bids, vb.bids);
    assert_eq!(va.bids.len(), 2);
    assert_eq!(va.bids.last().map(|b| b.seat), Some(winner));
}

/// Every seat's view, for "nothing changed".
async fn views(players: &mut [Player]) -> Vec<TuolajiView> {
    let mut out = Vec::new();
    for p in players.iter_mut() {
        out.push(p.view().await);
    }
    out
}

/// `seat` tries `action`: refused with `code`, and no seat's view changes.
async fn refused(players: &mut [Player], seat: u8, action: TuolajiAction, code: ErrorCode) {
    let raw = serde_json::to_value(&action).expect("an action is JSON");
    refused_raw(players, seat, raw, code).await;
}

/// [`refused`] for an action as a client could write it, outside the protocol's types.
async fn refused_raw(players: &mut [Player], seat: u8, action: serde_json::Value, code: ErrorCode) {
    let before = views(players).await;
    let answer = players[usize::from(seat)].act_raw(action.clone()).await;
    match answer {
        Err((c, message)) => {
            assert_eq!(c, code, "{action:?}: {message}");
            assert!(!message.is_empty());
        }
        Ok(()) => panic!("{action:?} was accepted"),
    }
    assert_eq!(views(players).await, before, "{action:?} changed the table");
}

fn order_of(view: &TuolajiView) -> Order {
    let trump = view.trump.expect("a trump suit");
    let level = view.level_rank.expect("a level rank");
    Order::new(trump, level)
}

fn cards(view: &TuolajiView) -> Vec<Card> {
    view.hand.clone().unwrap_or_default()
}

/// Wrong turn, an illegal follow, an invalid throw declaration, a bottom of the wrong size,
/// a bid without the cards, a card that is not one, a spectator acting: each gets an error
/// with its code, and every seat's view stays as it was.
#[tokio::test]
async fn every_kind_of_refusal_has_a_code_and_changes_nothing() {
    let server = server_with_seed(SEED).await;
    let (mut players, mut watcher) = seated(&server).await;

    // 第十条: a bid shows cards one holds.
    let hand = cards(&players[0].view().await);
    let missing = Suit::ALL
        .into_iter()
        .map(|s| Card::new(Rank::Two, s))
        .min_by_key(|c| hand.iter().filter(|h| *h == c).count())
        .expect("a suit");
    let held = hand.iter().filter(|h| **h == missing).count();
    let bid = TuolajiAction::Bid {
        cards: vec![missing; held + 1],
    };
    refused(&mut players, 0, bid, ErrorCode::CardsNotHeld).await;
    // A card or suit outside the notation: refused by the codec as the rules refused it.
    let bad = serde_json::json!({"type": "bid", "cards": ["2x"]});
    refused_raw(&mut players, 0, bad, ErrorCode::BadCard).await;
    let bad = serde_json::json!({"type": "name_trump", "suit": "x"});
    refused_raw(&mut players, 0, bad, ErrorCode::BadCard).await;
    let seq = watcher
        .tl(TuolajiAction::Bid {
            cards: vec![Card::new(Rank::Two, Suit::Spades)],
        })
        .await;
    assert_eq!(watcher.error_for(Some(seq)).await.0, ErrorCode::NotSeated);

    // Nobody bids: when the window closes the dealer names the trump and takes the bottom.
    let dealer = loop {
        let v = players[0].view().await;
        match v.phase {
            Phase::NamingTrump { dealer, .. } => {
                let p = &mut players[usize::from(dealer)];
                let hint = p.view().await.hint.expect("a hint");
                p.act(hint).await.expect("the trump is named");
            }
            Phase::Bottom { dealer, .. } => break dealer,
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    };
    let other = (dealer + 1) % 4;

    // 第九条2: exactly six cards, by the dealer.
    let dealer_view = players[usize::from(dealer)].view().await;
    let Some(TuolajiAction::PutBack { cards: six }) = dealer_view.hint.clone() else {
        panic!("the dealer's hint puts back the bottom")
    };
    let five = TuolajiAction::PutBack {
        cards: six[..5].to_vec(),
    };
    refused(&mut players, dealer, five, ErrorCode::BadBottom).await;
    let by_other = TuolajiAction::PutBack { cards: six.clone() };
    refused(&mut players, other, by_other, ErrorCode::NotYourTurn).await;
    players[usize::from(dealer)]
        .act(TuolajiAction::PutBack { cards: six })
        .await
        .expect("the bottom is put back");

    // 第十一条1: the dealer leads; nobody else may.
    let view = players[usize::from(other)].view().await;
    let other_card = view.hand.clone().expect("a hand")[0];
    let lead = TuolajiAction::Lead {
        cards: vec![other_card],
        declared: None,
    };
    refused(&mut players, other, lead, ErrorCode::NotYourTurn).await;

    // 第十一条1 [D]: a declared throw structure must split exactly the cards led into units.
    let view = players[usize::from(dealer)].view().await;
    let order = order_of(&view);
    let mine = cards(&view);
    let (a, b) = mine
        .iter()
        .flat_map(|a| mine.iter().map(move |b| (*a, *b)))
        .find(|(a, b)| a != b && order.card_type(*a) == order.card_type(*b))
        .expect("two different cards of one type");
    let mismatch = TuolajiAction::Lead {
        cards: vec![a, b],
        declared: Some(vec![vec![a], vec![a]]),
    };
    refused(
        &mut players,
        dealer,
        mismatch,
        ErrorCode::DecompositionMismatch,
    )
    .await;
    let not_a_unit = TuolajiAction::Lead {
        cards: vec![a, b],
        declared: Some(vec![vec![a, b]]),
    };
    refused(&mut players, dealer, not_a_unit, ErrorCode::NotAUnit).await;

    // The dealer leads a single; the next seat must follow it (第十一条2).
    players[usize::from(dealer)]
        .act(TuolajiAction::Lead {
            cards: vec![a],
            declared: None,
        })
        .await
        .expect("a single lead");
    let view = players[usize::from(other)].view().await;
    let led = order.card_type(a);
    let theirs = cards(&view);
    assert!(
        theirs.iter().any(|c| order.card_type(*c) == led),
        "the seed gives the follower the led type"
    );
    let off = theirs
        .iter()
        .find(|c| order.card_type(**c) != led)
        .expect("and another type");
    let revoke = TuolajiAction::Follow { cards: vec![*off] };
    refused(&mut players, other, revoke, ErrorCode::MustFollowType).await;
    let two = TuolajiAction::Follow {
        cards: theirs.iter().take(2).copied().collect(),
    };
    refused(&mut players, other, two, ErrorCode::WrongCardCount).await;
    let third = (other + 1) % 4;
    let early = TuolajiAction::Follow {
        cards: vec![cards(&players[usize::from(third)].view().await)[0]],
    };
    refused(&mut players, third, early, ErrorCode::NotYourTurn).await;
    // Spectators never act, in any phase.
    let seq = watcher
        .tl(TuolajiAction::Follow {
            cards: vec![Card::new(Rank::Two, Suit::Spades)],
        })
        .await;
    assert_eq!(watcher.error_for(Some(seq)).await.0, ErrorCode::NotSeated);
}

/// 第十条1: bidding happens during the deal: with cards dealt every few milliseconds, a
/// seat bids with the first level-rank card it receives, before the last card is drawn.
#[tokio::test]
async fn a_bid_during_the_deal_stands() {
    let server = server_with_seed(SEED).await;
    let options = TuolajiOptions {
        deal_interval_ms: Some(5),
        ..patient()
    };
    let mut first = Client::hello(&server, "S0").await;
    let room = first.create_tuolaji(options, Some(0)).await;
    for seat in 1..4u8 {
        let mut c = Client::hello(&server, &format!("S{seat}")).await;
        c.join(room, Some(seat)).await;
    }
    // A late timer may deal several cards at once (`dealt_cards`).
    let card = loop {
        let msg = first.recv().await;
        let level_card = match tl_event(&msg) {
            Some((_, TuolajiEvent::Dealt { seat: 0, card })) => *card,
            Some((_, TuolajiEvent::DealtCards { seat: 0, cards, .. })) => {
                cards.iter().find(|c| c.rank() == Some(Rank::Two)).copied()
            }
            Some((_, TuolajiEvent::DealDone { .. })) => panic!("no level card for seat 0"),
            _ => None,
        };
        if let Some(c) = level_card.filter(|c| c.rank() == Some(Rank::Two)) {
            break c;
        }
    };
    let mut me = Player::new(first, 0);
    me.act(TuolajiAction::Bid { cards: vec![card] })
        .await
        .expect("a bid during the deal");
    me.client
        .until(|m| matches!(tl_event(m), Some((_, TuolajiEvent::DealDone { .. }))))
        .await;
    let events = common::tuolaji::tl_events(&me.client.log);
    let bid_at = events
        .iter()
        .position(|e| matches!(e, TuolajiEvent::Bid(b) if b.seat == 0 && b.cards == [card]))
        .expect("the bid was announced");
    let done_at = events
        .iter()
        .position(|e| matches!(e, TuolajiEvent::DealDone { .. }))
        .expect("the deal ended");
    assert!(bid_at < done_at);
}

/// 第六条5, 第十六条: a throw of the dealer's two lowest plain cards of one suit is beaten;
/// everybody is told the throw failed, which unit was forced and the penalty, and the
/// forced single is led instead.
#[tokio::test]
async fn a_failed_throw_is_announced_with_the_forced_unit_and_the_penalty() {
    let server = server_with_seed(SEED).await;
    let (mut players, mut watcher) = seated(&server).await;
    let dealer = loop {
        let v = players[0].view().await;
        match v.phase {
            Phase::NamingTrump { dealer, .. } | Phase::Bottom { dealer, .. } => {
                let p = &mut players[usize::from(dealer)];
                let hint = p.view().await.hint.expect("a hint");
                p.act(hint).await.expect("accepted");
            }
            Phase::Leading { seat, .. } => break seat,
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    };
    let view = players[usize::from(dealer)].view().await;
    let order = order_of(&view);
    let mut mine = cards(&view);
    mine.sort_by_key(|c| order.slot(*c));
    let (low, next) = Suit::ALL
        .into_iter()
        .find_map(|s| {
            let mut plain = mine
                .iter()
                .filter(|c| order.card_type(**c) == CardType::Suit(s));
            let low = *plain.next()?;
            let next = *plain.find(|c| **c != low)?;
            Some((low, next))
        })
        .expect("two different plain cards of one suit");
    let throw = vec![low, next];
    players[usize::from(dealer)]
        .act(TuolajiAction::Lead {
            cards: throw.clone(),
            declared: None,
        })
        .await
        .expect("a throw is a legal lead even when it fails");
    let failed = watcher
        .event(|e| {
            matches!(
                e,
                qipai_protocol::Event::Tuolaji(TuolajiEvent::ThrowFailed { .. })
            )
        })
        .await;
    let qipai_protocol::Event::Tuolaji(TuolajiEvent::ThrowFailed {
        seat,
        attempted,
        forced,
        penalty,
        defenders_points,
        ..
    }) = failed
    else {
        unreachable!()
    };
    assert_eq!(seat, dealer);
    assert_eq!(attempted.len(), 2);
    assert_eq!(forced, [low], "the lowest beatable unit is forced");
    assert_eq!((penalty, defenders_points), (20, 20));
    let led = watcher
        .event(|e| matches!(e, qipai_protocol::Event::Tuolaji(TuolajiEvent::Led { .. })))
        .await;
    assert!(
        matches!(led, qipai_protocol::Event::Tuolaji(TuolajiEvent::Led { cards, .. }) if cards == forced)
    );
    assert_eq!(players[0].view().await.defenders_points, 20);
}
