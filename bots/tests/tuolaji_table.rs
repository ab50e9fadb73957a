//! The client keeps its Tuolaji view by folding events into the last snapshot: after every
//! step of whole seeded games, each seat's followed view (and a spectator's) must equal the
//! snapshot the server's game would send at that moment, hint included. Deadlines are the
//! documented gap (`bots::tuolaji::table`): events carry no time, so they are not compared.

use qipai_bots::tuolaji::read;
use qipai_bots::{SeatView, Table, TuolajiTable};
use qipai_games::cards::{Card, Suit};
use qipai_games::tuolaji::{TuolajiGame, TuolajiRules, TuolajiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat, Viewer};
use qipai_protocol::tuolaji::{AutoReason, Phase, TuolajiAction, TuolajiEvent, TuolajiView};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Games to play (`QIPAI_BOT_GAMES` raises it for a longer run).
fn games() -> u64 {
    std::env::var("QIPAI_BOT_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

/// Five viewers: the four seats and a spectator (index 4).
fn viewer(i: usize) -> Viewer {
    match i {
        4 => Viewer::Spectator,
        s => Viewer::Seat(Seat(s as u8)),
    }
}

/// Folds a step's events into every view. In the middle of a step nobody may be asked to
/// act on a new decision point (the client acts between events): a seat that must act
/// there is still at the turn it had (so it has answered it already) or is vacant.
fn deliver(views: &mut [SeatView], emits: &[Emit<TuolajiEvent>]) {
    let before: Vec<u64> = views.iter().map(TuolajiTable::turn).collect();
    for (k, emit) in emits.iter().enumerate() {
        for (i, view) in views.iter_mut().enumerate() {
            let event = match emit {
                Emit::All(e) => e,
                Emit::Split { seat, own, others } => {
                    if seat.index() == i {
                        own
                    } else {
                        others
                    }
                }
            };
            TuolajiTable::follow(view, event);
            // A seat's legal bids come just before the step's `turn`, which brings the new
            // phase: the client waits for that turn before it acts on them.
            let bidding = matches!(view.view.phase, Phase::Dealing | Phase::Bidding { .. })
                || matches!(event, TuolajiEvent::LegalBids { .. });
            if k + 1 < emits.len() && i < 4 && !bidding && TuolajiTable::must_act(view, i as u8) {
                let vacant = view.view.auto[i] == Some(AutoReason::Vacant);
                assert!(
                    vacant || TuolajiTable::turn(view) == before[i],
                    "seat {i} asked to act in the middle of a step, after {event:?}"
                );
            }
        }
    }
    assert!(views.iter().all(|v| !v.settling), "a step ended half-way");
}

/// The snapshot's deadline put into the followed phase (the one thing events cannot tell).
fn with_deadline(phase: Phase, snapshot: Phase) -> Phase {
    match (phase, snapshot) {
        (Phase::NamingTrump { dealer, .. }, Phase::NamingTrump { deadline, .. }) => {
            Phase::NamingTrump { dealer, deadline }
        }
        (Phase::Bottom { dealer, .. }, Phase::Bottom { deadline, .. }) => {
            Phase::Bottom { dealer, deadline }
        }
        (Phase::Leading { seat, .. }, Phase::Leading { deadline, .. }) => {
            Phase::Leading { seat, deadline }
        }
        (Phase::Following { seat, .. }, Phase::Following { deadline, .. }) => {
            Phase::Following { seat, deadline }
        }
        (phase, _) => phase,
    }
}

fn check(game: &TuolajiGame, views: &[SeatView], now: Millis, at: &str) {
    for (i, followed) in views.iter().enumerate() {
        let snapshot = game.view(viewer(i), now);
        let view = TuolajiView {
            phase: with_deadline(followed.view.phase, snapshot.phase),
            round_ends_at: followed.view.round_ends_at.or(snapshot.round_ends_at),
            ..followed.view.clone()
        };
        assert_eq!(view, snapshot, "{at}, viewer {i}");
    }
}

/// Level cards the seat could show: all its copies of its most held level card.
fn some_bid(view: &TuolajiView) -> Option<TuolajiAction> {
    let level = view.level_rank?;
    let hand = view.hand.as_ref()?;
    let card = Suit::ALL
        .into_iter()
        .map(|suit| Card::new(level, suit))
        .max_by_key(|card| hand.iter().filter(|c| *c == card).count())?;
    let n = hand.iter().filter(|c| **c == card).count();
    (n > 0).then(|| TuolajiAction::Bid {
        cards: vec![card; n],
    })
}

/// Every card of the leader's longest plain suit at once: a throw that often fails.
fn some_throw(view: &TuolajiView) -> Option<TuolajiAction> {
    let order = read::order(view)?;
    let hand = view.hand.as_ref()?;
    let suit = Suit::ALL.into_iter().max_by_key(|&s| {
        hand.iter()
            .filter(|&&c| !order.is_trump(c) && c.suit() == Some(s))
            .count()
    })?;
    let cards: Vec<_> = hand
        .iter()
        .copied()
        .filter(|&c| !order.is_trump(c) && c.suit() == Some(suit))
        .collect();
    // 第十一条1: an ambiguous throw is declared (here as its first valid split).
    let splits = qipai_games::tuolaji::declare::valid_splits(&order, &cards).ok()?;
    let declared = (splits.len() > 1)
        .then(|| {
            splits
                .first()
                .map(|s| s.iter().map(|u| u.cards().to_vec()).collect())
        })
        .flatten();
    (cards.len() > 1).then_some(TuolajiAction::Lead { cards, declared })
}

/// One seeded game: hints, bids, failed throws, time-outs and a seat left and taken
/// again; odd seeds have a round limit so the last hand is called and the game ends.
fn play(seed: u64, max_hands: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let timed = seed % 2 == 1;
    let settings = TuolajiSettings {
        rules: TuolajiRules {
            deal_interval_ms: 0,
            bid_window_ms: 100,
            round_minutes: timed.then_some(20),
            last_call_minutes: 18,
            ..TuolajiRules::default()
        },
        between_hands_ms: 500,
        trick_pause_ms: 0,
    };
    let mut game = TuolajiGame::new(&settings, seed);
    let mut now = Millis(10);
    let mut views: Vec<SeatView> = (0..5)
        .map(|i| {
            let seat = (i < 4).then_some(i as u8);
            let mut v = SeatView::new(None, game.view(viewer(i), now));
            TuolajiTable::seat(&mut v, seat);
            v
        })
        .collect();
    let events = game.start(now);
    deliver(&mut views, &events);
    check(&game, &views, now, &format!("seed {seed}, start"));
    let mut left: Option<(u8, u32)> = None;
    for step in 0..20_000u32 {
        if game.is_over() || views[0].view.hand_number > max_hands {
            break;
        }
        now = now + Millis(rng.random_range(1..40));
        let phase = views[0].view.phase;
        let acting = read::to_act(&phase);
        let roll = rng.random_range(0..100);
        let events = match (phase, acting) {
            (Phase::Dealing | Phase::Bidding { .. }, _) if roll < 20 => {
                let s = rng.random_range(0..4u8);
                match some_bid(&views[usize::from(s)].view) {
                    Some(bid) => game
                        .apply(Seat(s), bid, Received::at(now))
                        .unwrap_or_default(),
                    None => Vec::new(),
                }
            }
            (_, Some(s)) if roll >= 4 => {
                let view = &views[usize::from(s)];
                assert!(TuolajiTable::must_act(view, s));
                let throw = match phase {
                    Phase::Leading { .. } if roll < 15 => some_throw(&view.view),
                    _ => None,
                };
                let action = throw
                    .or_else(|| view.view.hint.clone())
                    .expect("the acting seat's followed view has a hint");
                game.apply(Seat(s), action, Received::at(now))
                    .expect("the hint is legal")
            }
            _ => {
                // Nobody acts: time runs to the next deadline (deals, bid window,
                // time-outs, vacant seats, the next hand).
                if let Some(at) = game.deadline() {
                    now = Millis(now.0.max(at.0));
                }
                game.on_deadline(now)
            }
        };
        deliver(&mut views, &events);
        let mut extra = Vec::new();
        match left {
            None if step == 100 => {
                let s = rng.random_range(0..4u8);
                extra = game.forfeit(Seat(s), now);
                left = Some((s, step));
            }
            Some((s, at)) if step == at + 40 => extra = game.reseat(Seat(s), now),
            _ => {}
        }
        deliver(&mut views, &extra);
        check(&game, &views, now, &format!("seed {seed}, step {step}"));
    }
}

#[test]
fn followed_view_equals_snapshot() {
    for seed in 0..games() {
        play(seed, 4);
    }
}

/// Only the seat to act must act; the turn key moves with each play.
#[test]
fn turns_and_seats() {
    let settings = TuolajiSettings {
        rules: TuolajiRules {
            deal_interval_ms: 0,
            bid_window_ms: 0,
            ..TuolajiRules::default()
        },
        between_hands_ms: 0,
        trick_pause_ms: 0,
    };
    let mut game = TuolajiGame::new(&settings, 3);
    let mut views: Vec<SeatView> = (0..4u8)
        .map(|s| SeatView::new(Some(s), game.view(Viewer::Seat(Seat(s)), Millis(0))))
        .collect();
    assert!(!TuolajiTable::started(&views[0]));
    let events = game.start(Millis(0));
    deliver(&mut views, &events);
    assert!(TuolajiTable::started(&views[0]));
    let mut now = Millis(0);
    while read::to_act(&views[0].view.phase).is_none() {
        now = game.deadline().expect("a deadline");
        let events = game.on_deadline(now);
        deliver(&mut views, &events);
    }
    let s = read::to_act(&views[0].view.phase).expect("a seat acts");
    for (i, v) in views.iter().enumerate() {
        assert_eq!(TuolajiTable::must_act(v, i as u8), i == usize::from(s));
    }
    let before = TuolajiTable::turn(&views[0]);
    let action = views[usize::from(s)].view.hint.clone().expect("a hint");
    let events = game.apply(Seat(s), action, Received::at(now)).unwrap();
    deliver(&mut views, &events);
    assert_ne!(TuolajiTable::turn(&views[0]), before);
}
