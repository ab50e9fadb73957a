//! Throw declarations over real sockets (第十一条1; `rules/tuolaji.md`, "A declaration may
//! not split a unit", "The leader must declare when it matters"): a declaration that splits
//! a unit is refused with `declaration_splits_unit`, an undeclared ambiguous throw with
//! `declare_structure`, and neither changes any seat's view; the same throw declared stands.

mod common;

use common::tuolaji::{fast_options, Player, SEED};
use common::{Client, TestServer};
use qipai_games::cards::{Card, Suit};
use qipai_games::tuolaji::declare::valid_splits;
use qipai_games::tuolaji::{CardType, Order};
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiView};
use qipai_protocol::ErrorCode;

/// The card order and the hand a seat's view shows.
fn order_and_hand(view: &TuolajiView) -> (Order, Vec<Card>) {
    let trump = view.trump.expect("trump");
    let level = view.level_rank.expect("level");
    let hand = view.hand.clone().unwrap_or_default();
    (Order::new(trump, level), hand)
}

/// Four players at a table dealt from `seed`, played by their hints up to the first lead;
/// returns them and the leader.
async fn at_first_lead(server: &TestServer) -> (Vec<Player>, u8) {
    let mut first = Client::hello(server, "S0").await;
    let room = first.create_tuolaji(fast_options(), Some(0)).await;
    let mut players = vec![Player::new(first, 0)];
    for seat in 1..4u8 {
        let mut c = Client::hello(server, &format!("S{seat}")).await;
        c.join(room, Some(seat)).await;
        players.push(Player::new(c, seat));
    }
    loop {
        let phase = players[0].view().await.phase;
        match phase {
            Phase::NamingTrump { dealer, .. } | Phase::Bottom { dealer, .. } => {
                let p = &mut players[usize::from(dealer)];
                let hint = p.view().await.hint.expect("a hint");
                p.act(hint).await.expect("the hint is accepted");
            }
            Phase::Leading { seat, .. } => return (players, seat),
            _ => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
        }
    }
}

/// Every seat's view.
async fn all_views(players: &mut [Player]) -> Vec<TuolajiView> {
    let mut out = Vec::new();
    for p in players.iter_mut() {
        out.push(p.view().await);
    }
    out
}

#[tokio::test]
async fn declarations_are_checked_over_the_socket() {
    // A deal whose first leader holds a type with more than one valid split.
    for seed in SEED..SEED + 20 {
        let server = TestServer::start(|c| {
            c.tuolaji.seed = Some(seed);
            c.server.outbound_queue = 1 << 16;
        })
        .await;
        let (mut players, leader) = at_first_lead(&server).await;
        let view = players[usize::from(leader)].view().await;
        let (order, hand) = order_and_hand(&view);
        let types = [CardType::Trump]
            .into_iter()
            .chain(Suit::ALL.map(CardType::Suit));
        let ambiguous = types.into_iter().find_map(|ty| {
            let cards: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|c| order.card_type(*c) == ty)
                .collect();
            let splits = valid_splits(&order, &cards).ok()?;
            (splits.len() > 1).then_some((cards, splits))
        });
        let Some((throw, splits)) = ambiguous else {
            server.stop();
            continue;
        };
        let pair = hand
            .iter()
            .find(|c| hand.iter().filter(|d| d == c).count() >= 2)
            .copied()
            .expect("a pair in 39 cards");
        let before = all_views(&mut players).await;

        // "A declaration may not split a unit": a pair declared as two singles.
        let split_pair = TuolajiAction::Lead {
            cards: vec![pair, pair],
            declared: Some(vec![vec![pair], vec![pair]]),
        };
        let (code, message) = players[usize::from(leader)]
            .act(split_pair)
            .await
            .expect_err("a pair declared as two singles is refused");
        assert_eq!(code, ErrorCode::DeclarationSplitsUnit, "{message}");

        // 第十一条1: the ambiguous throw undeclared.
        let undeclared = TuolajiAction::Lead {
            cards: throw.clone(),
            declared: None,
        };
        let (code, message) = players[usize::from(leader)]
            .act(undeclared)
            .await
            .expect_err("an undeclared ambiguous throw is refused");
        assert_eq!(code, ErrorCode::DeclareStructure, "{message}");
        assert!(message.contains(" or "), "the splits are listed: {message}");
        assert_eq!(all_views(&mut players).await, before, "nothing changed");

        // Declared as one of its valid splits, the throw is a lead (it may still fail).
        let declared = splits
            .first()
            .map(|s| s.iter().map(|u| u.cards().to_vec()).collect());
        let lead = TuolajiAction::Lead {
            cards: throw.clone(),
            declared,
        };
        players[usize::from(leader)]
            .act(lead)
            .await
            .expect("a declared throw is accepted");
        let after = players[0].view().await;
        assert!(!matches!(after.phase, Phase::Leading { .. }));
        return;
    }
    panic!("no seed gave the first leader an ambiguous throw");
}
