//! The Tuolaji table driven in memory through the `Game` trait: replays are deterministic,
//! no event shows a hidden card to the wrong seat, views show each seat exactly what
//! "What each seat may see" allows, time-outs auto-play, vacant seats play at once, and
//! refused actions change nothing.

use qipai_games::cards::{Card, Rank, Suit};
use qipai_games::tuolaji::{TuolajiGame, TuolajiRules, TuolajiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat, Viewer};
use qipai_protocol::tuolaji::{
    AutoReason, EndReason, Phase, TuolajiAction, TuolajiEvent, TuolajiView,
};
use qipai_protocol::ErrorCode;

/// Zero pauses, a short bid window (bids happen after the burst deal), long turns.
fn settings() -> TuolajiSettings {
    TuolajiSettings {
        rules: TuolajiRules {
            deal_interval_ms: 0,
            bid_window_ms: 10,
            bottom_ms: 1000,
            turn_ms: 1000,
            ..TuolajiRules::default()
        },
        between_hands_ms: 0,
        trick_pause_ms: 0,
    }
}

fn view(game: &TuolajiGame, seat: u8, now: u64) -> TuolajiView {
    game.view(Viewer::Seat(Seat(seat)), Millis(now))
}

/// A bid from `view`'s own level cards when it would stand: a first bid, a strengthening
/// or a counter-bid with strictly more identical cards (第十条).
fn bid_for(view: &TuolajiView, seat: u8) -> Option<TuolajiAction> {
    if !matches!(view.phase, Phase::Dealing | Phase::Bidding { .. }) {
        return None;
    }
    let level = view.level_rank?;
    let hand = view.hand.as_ref()?;
    let best = Suit::ALL
        .into_iter()
        .map(|suit| {
            let card = Card::new(level, suit);
            (hand.iter().filter(|c| **c == card).count(), suit, card)
        })
        .max_by_key(|(n, _, _)| *n)?;
    let (count, suit, card) = best;
    let standing = view.bids.last();
    let stands = match standing {
        None => count > 0,
        Some(b) if b.seat == seat => b.suit == suit && count > b.cards.len(),
        Some(b) => count > b.cards.len(),
    };
    stands.then(|| TuolajiAction::Bid {
        cards: vec![card; count],
    })
}

/// Drives `game` from `now` until it is over or `hands` hands have been dealt: seats in
/// `acting` bid when they can and play the view's hint; the others never act, so the
/// server plays for them when their time runs out. Returns every emitted event.
fn drive(
    game: &mut TuolajiGame,
    now: &mut u64,
    acting: [bool; 4],
    hands: u32,
) -> Vec<Emit<TuolajiEvent>> {
    let mut log = game.start(Millis(*now));
    while !game.is_over() {
        if game.deadline().is_some_and(|d| d <= Millis(*now)) {
            log.extend(game.on_deadline(Millis(*now)));
            continue;
        }
        if view(game, 0, *now).hand_number > hands {
            break;
        }
        let mut acted = false;
        for seat in (0..4u8).filter(|s| acting[usize::from(*s)]) {
            let v = view(game, seat, *now);
            let Some(action) = v.hint.clone().or_else(|| bid_for(&v, seat)) else {
                continue;
            };
            let emits = game
                .apply(Seat(seat), action, Received::at(Millis(*now)))
                .expect("a hint or a standing bid is accepted");
            log.extend(emits);
            acted = true;
            break;
        }
        if !acted {
            *now = game.deadline().expect("the table waits for a deadline").0;
        }
    }
    log
}

fn events_for(log: &[Emit<TuolajiEvent>], seat: Option<u8>) -> Vec<TuolajiEvent> {
    log.iter()
        .map(|e| match e {
            Emit::All(e) => e.clone(),
            Emit::Split {
                seat: s,
                own,
                others,
            } => {
                if Some(s.0) == seat {
                    own.clone()
                } else {
                    others.clone()
                }
            }
        })
        .collect()
}

/// Replay: the same settings, seed and timed actions give the same events, and a whole
/// game played by hints ends past A with the levels the last hand announced.
#[test]
fn a_whole_game_replays_exactly() {
    let run = || {
        let mut game = TuolajiGame::new(&settings(), 7);
        let mut now = 0;
        let log = drive(&mut game, &mut now, [true; 4], 200);
        (game, log)
    };
    let (game, log) = run();
    let (_, again) = run();
    assert_eq!(log, again);
    assert!(game.is_over());
    let outcome = game.table_outcome().expect("an outcome");
    assert_eq!(outcome.reason, EndReason::PastAce);
    assert!(outcome.levels.iter().any(|l| *l > 14));
    let last = log.iter().rev().find_map(|e| match e {
        Emit::All(TuolajiEvent::HandOver { result, .. }) => Some(result.clone()),
        _ => None,
    });
    assert_eq!(last.map(|r| r.levels), Some(outcome.levels));
}

/// 第十一条4, 第十五条: a dealt card goes only to its receiver and the bottom only to the
/// dealer; every public event is free of hidden cards; over ten hands.
#[test]
fn no_event_shows_a_hidden_card_to_another_seat() {
    let mut game = TuolajiGame::new(&settings(), 11);
    let mut now = 0;
    let log = drive(&mut game, &mut now, [true; 4], 10);
    let (mut dealt, mut legal_bids) = (0, 0);
    for emit in &log {
        match emit {
            Emit::All(e) => match e {
                TuolajiEvent::Dealt { card, .. } => assert_eq!(card, &None),
                TuolajiEvent::DealtCards { cards, .. } => assert!(cards.is_empty()),
                TuolajiEvent::BottomTaken { cards, .. }
                | TuolajiEvent::BottomPutBack { cards, .. } => assert!(cards.is_empty()),
                _ => {}
            },
            Emit::Split { seat, own, others } => match (own, others) {
                (
                    TuolajiEvent::Dealt {
                        seat: s,
                        card: Some(_),
                    },
                    TuolajiEvent::Dealt { card: None, .. },
                ) => {
                    assert_eq!(s, &seat.0);
                    dealt += 1;
                }
                // 第九条1 without pauses: a seat's cards at once, to that seat only.
                (
                    TuolajiEvent::DealtCards {
                        seat: s,
                        cards,
                        count,
                    },
                    TuolajiEvent::DealtCards {
                        seat: public,
                        cards: hidden,
                        count: public_count,
                    },
                ) => {
                    assert_eq!((s, public), (&seat.0, &seat.0));
                    assert_eq!((cards.len(), public_count), (*count as usize, count));
                    assert!(hidden.is_empty());
                    dealt += *count as usize;
                }
                (
                    TuolajiEvent::BottomTaken {
                        dealer, cards: own, ..
                    }
                    | TuolajiEvent::BottomPutBack {
                        dealer, cards: own, ..
                    },
                    TuolajiEvent::BottomTaken { cards: hidden, .. }
                    | TuolajiEvent::BottomPutBack { cards: hidden, .. },
                ) => {
                    assert_eq!(dealer, &seat.0);
                    assert_eq!(own.len(), 6);
                    assert!(hidden.is_empty());
                }
                // The hint goes to the seat that must act only; the phase to all.
                (
                    TuolajiEvent::Turn {
                        phase,
                        hint: Some(_),
                    },
                    TuolajiEvent::Turn {
                        phase: public,
                        hint: None,
                    },
                ) => assert_eq!(phase, public),
                // 第十条: a seat's legal bids go to that seat only.
                (
                    TuolajiEvent::LegalBids { seat: s, .. },
                    TuolajiEvent::LegalBids { seat: public, bids },
                ) => {
                    assert_eq!((s, public), (&seat.0, &seat.0));
                    assert!(bids.is_empty());
                    legal_bids += 1;
                }
                other => panic!("unexpected private event {other:?}"),
            },
        }
    }
    assert!(dealt >= 10 * 156, "{dealt} cards dealt");
    assert!(legal_bids > 0, "no legal bids sent");
}

/// 第十一条4: a seat's view shows its own hand only; a spectator's no hand, no played
/// cards and no hint; the bottom only to the dealer while it exchanges it; and the seat's
/// view equals the spectator's but for those.
#[test]
fn views_show_each_seat_what_it_may_see() {
    let mut game = TuolajiGame::new(&settings(), 3);
    let mut now = 0;
    game.start(Millis(now));
    // Deal and close bidding with nobody bidding: the dealer must name trump, then put back.
    while !matches!(view(&game, 0, now).phase, Phase::Bottom { .. }) {
        let v = view(&game, 0, now);
        if let Phase::NamingTrump { dealer, .. } = v.phase {
            let hint = view(&game, dealer, now)
                .hint
                .expect("a hint for the dealer");
            game.apply(Seat(dealer), hint, Received::at(Millis(now)))
                .unwrap();
            continue;
        }
        now = game.deadline().unwrap().0;
        game.on_deadline(Millis(now));
    }
    let Phase::Bottom { dealer, .. } = view(&game, 0, now).phase else {
        unreachable!()
    };
    let spectator = game.view(Viewer::Spectator, Millis(now));
    assert_eq!(spectator.hand, None);
    assert_eq!(spectator.bottom, None);
    assert_eq!(spectator.hint, None);
    for seat in 0..4u8 {
        let mut v = view(&game, seat, now);
        assert_eq!(
            v.hand.as_ref().map(Vec::len),
            Some(v.card_counts[usize::from(seat)] as usize)
        );
        if seat == dealer {
            assert_eq!(v.bottom.as_ref().map(Vec::len), Some(6));
            assert!(matches!(v.hint, Some(TuolajiAction::PutBack { .. })));
        } else {
            assert_eq!(v.bottom, None);
            assert_eq!(v.hint, None);
        }
        v.hand = None;
        v.bottom = None;
        v.hint = None;
        assert_eq!(v, spectator, "seat {seat} sees more than its own cards");
    }
}

/// Time online **[D]**: a seat that never acts is played by the server through a whole
/// hand, marked auto-played at its first time-out; when it acts again the mark goes.
#[test]
fn a_silent_seat_is_auto_played_until_it_acts() {
    let mut game = TuolajiGame::new(&settings(), 5);
    let mut now = 0;
    let log = drive(&mut game, &mut now, [true, true, false, true], 1);
    let events = events_for(&log, Some(2));
    assert!(events
        .iter()
        .any(|e| matches!(e, TuolajiEvent::HandOver { .. })));
    let marks: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            TuolajiEvent::Auto { seat: 2, reason } => Some(*reason),
            _ => None,
        })
        .collect();
    assert_eq!(marks, [Some(AutoReason::TimedOut)]);
    let plays = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                TuolajiEvent::Led { seat: 2, .. } | TuolajiEvent::Followed { seat: 2, .. }
            )
        })
        .count();
    assert!(plays >= 39, "seat 2 played {plays} times");

    // Seat 2 acts in the next hand: the mark is lifted with that action.
    let log = drive(&mut game, &mut now, [true; 4], 2);
    let lifted = events_for(&log, None).into_iter().any(|e| {
        e == TuolajiEvent::Auto {
            seat: 2,
            reason: None,
        }
    });
    assert!(lifted);
}

/// A vacant seat is played at once (no waiting for `turn_ms`); every seat vacant ends
/// the game with no result.
#[test]
fn vacant_seats_play_at_once_and_an_empty_table_closes() {
    let patient = TuolajiSettings {
        between_hands_ms: 60_000,
        trick_pause_ms: 0,
        ..settings()
    };
    let mut game = TuolajiGame::new(&patient, 9);
    let t0 = 0;
    game.start(Millis(t0));
    for seat in 0..3 {
        let out = game.forfeit(Seat(seat), Millis(t0));
        assert_eq!(
            out,
            [Emit::All(TuolajiEvent::Auto {
                seat,
                reason: Some(AutoReason::Vacant)
            })]
        );
    }
    // Drive by deadlines only: the three vacant seats never wait, seat 3 always does.
    let mut now = t0;
    while !matches!(view(&game, 3, now).phase, Phase::BetweenHands { .. }) {
        let d = game.deadline().unwrap();
        if let Phase::Leading { seat, deadline } | Phase::Following { seat, deadline } =
            view(&game, 3, now).phase
        {
            if seat != 3 {
                assert_eq!(Millis(deadline), d);
                assert!(d.0 <= now, "a vacant seat waits");
            }
        }
        now = d.0.max(now);
        game.on_deadline(Millis(now));
    }
    assert!(game.can_reseat(Seat(0)));
    assert_eq!(
        game.reseat(Seat(0), Millis(now)),
        [Emit::All(TuolajiEvent::Auto {
            seat: 0,
            reason: None
        })]
    );
    game.forfeit(Seat(0), Millis(now));
    let out = game.forfeit(Seat(3), Millis(now));
    assert!(game.is_over());
    assert!(out.iter().any(|e| matches!(
        e,
        Emit::All(TuolajiEvent::GameOver { outcome }) if outcome.reason == EndReason::Abandoned
    )));
    assert_eq!(
        out.last(),
        Some(&Emit::All(TuolajiEvent::Turn {
            phase: Phase::Over,
            hint: None
        }))
    );
}

/// Refused actions get a code and change nothing: acting out of turn, the wrong kind of
/// action, an empty play. (A card or suit outside the notation never reaches the game: the
/// codec refuses it with `bad_card`.)
#[test]
fn refused_actions_change_nothing() {
    let mut game = TuolajiGame::new(&settings(), 13);
    let mut now = 0;
    game.start(Millis(now));
    while !matches!(
        view(&game, 0, now).phase,
        Phase::Leading { .. } | Phase::Following { .. }
    ) {
        let v = view(&game, 0, now);
        let acting = (0..4u8).find_map(|s| view(&game, s, now).hint.map(|h| (s, h)));
        match acting {
            Some((s, h)) => {
                game.apply(Seat(s), h, Received::at(Millis(now))).unwrap();
            }
            None => {
                assert!(!matches!(v.phase, Phase::Over));
                now = game.deadline().unwrap().0;
                game.on_deadline(Millis(now));
            }
        }
    }
    let Phase::Leading { seat, .. } = view(&game, 0, now).phase else {
        panic!("the dealer leads first")
    };
    let other = (seat + 1) % 4;
    let before: Vec<_> = (0..4).map(|s| view(&game, s, now)).collect();
    let cases = [
        (
            other,
            TuolajiAction::Lead {
                cards: vec![Card::new(Rank::Two, Suit::Spades)],
                declared: None,
            },
            ErrorCode::NotYourTurn,
        ),
        (
            seat,
            TuolajiAction::Follow {
                cards: vec![Card::new(Rank::Two, Suit::Spades)],
            },
            ErrorCode::WrongPhase,
        ),
        (
            seat,
            TuolajiAction::PutBack {
                cards: vec![Card::new(Rank::Two, Suit::Spades)],
            },
            ErrorCode::WrongPhase,
        ),
        (
            seat,
            TuolajiAction::Bid {
                cards: vec![Card::new(Rank::Two, Suit::Spades)],
            },
            ErrorCode::BiddingClosed,
        ),
        (
            seat,
            TuolajiAction::Lead {
                cards: Vec::new(),
                declared: None,
            },
            ErrorCode::EmptyPlay,
        ),
    ];
    for (s, action, code) in cases {
        use qipai_games::Coded;
        let err = game
            .apply(Seat(s), action.clone(), Received::at(Millis(now)))
            .expect_err("refused");
        assert_eq!(err.code(), code, "{action:?}: {err}");
        let after: Vec<_> = (0..4).map(|s| view(&game, s, now)).collect();
        assert_eq!(before, after, "{action:?} changed the table");
    }
}

/// 五(一)3 ("正在竞赛的当盘牌为最后一盘牌"): a last-hand call that lands in the pause between
/// hands finds no hand in progress, so the next hand does not start: the round ends at the
/// call, by the levels.
#[test]
fn a_last_call_between_hands_starts_no_next_hand() {
    let mut s = settings();
    s.rules.round_minutes = Some(20); // the call comes at 5 minutes
    s.between_hands_ms = 10 * 60_000; // the first hand's result stays up 10 minutes
    let mut game = TuolajiGame::new(&s, 3);
    let mut now = 0;
    let log = events_for(&drive(&mut game, &mut now, [true; 4], 5), None);
    assert!(game.is_over());
    let started = log
        .iter()
        .filter(|e| matches!(e, TuolajiEvent::HandStarted { .. }))
        .count();
    assert_eq!(started, 1, "no second hand started");
    // The step ends with its `turn` (the phase `over`); the two events before it.
    assert!(matches!(
        log.last(),
        Some(TuolajiEvent::Turn {
            phase: Phase::Over,
            ..
        })
    ));
    let tail: Vec<&TuolajiEvent> = log.iter().rev().skip(1).take(2).collect();
    assert!(matches!(
        tail[0],
        TuolajiEvent::GameOver { outcome } if outcome.reason == EndReason::RoundTime
    ));
    assert!(matches!(tail[1], TuolajiEvent::LastHand { .. }));
    assert_eq!(now, 5 * 60_000, "the round ended at the call");
}

/// A finished trick stays on the table for `trick_pause_ms`: the `turn` after `trick_won`
/// says `trick_pause` with no hint, a lead before its end is refused and changes nothing,
/// and the winner's turn (with its full time) begins when the pause is over.
#[test]
fn a_finished_trick_stays_on_the_table_before_the_next_lead() {
    let paced = TuolajiSettings {
        trick_pause_ms: 500,
        ..settings()
    };
    let mut game = TuolajiGame::new(&paced, 4);
    let mut now = 0;
    game.start(Millis(now));
    let mut log;
    // Everybody plays the hint (bidding left to the window) until a trick is won.
    let winner = loop {
        if let Some(d) = game.deadline().filter(|d| d.0 <= now) {
            log = game.on_deadline(d);
        } else if let Some((seat, action)) =
            (0..4u8).find_map(|s| view(&game, s, now).hint.map(|a| (s, a)))
        {
            log = game
                .apply(Seat(seat), action, Received::at(Millis(now)))
                .expect("the hint is accepted");
        } else {
            now = game.deadline().expect("a deadline").0;
            continue;
        }
        let won = events_for(&log, None).iter().find_map(|e| match e {
            TuolajiEvent::TrickWon { winner, .. } => Some(*winner),
            _ => None,
        });
        if let Some(winner) = won {
            break winner;
        }
    };
    let leads_at = now + 500;
    assert_eq!(
        log.last(),
        Some(&Emit::All(TuolajiEvent::Turn {
            phase: Phase::TrickPause { winner, leads_at },
            hint: None
        }))
    );
    assert_eq!(game.deadline(), Some(Millis(leads_at)));
    for seat in 0..4 {
        assert_eq!(
            view(&game, seat, now).hint,
            None,
            "nobody acts in the pause"
        );
    }
    // The winner's lead, as the engine would suggest it, is refused until `leads_at`.
    let hand = game.game().expect("started").hand();
    let (_, lead) = qipai_games::tuolaji::suggest::suggest(hand).expect("a lead is due");
    let before = view(&game, winner, leads_at - 1);
    let err = game
        .apply(
            Seat(winner),
            lead.clone(),
            Received::at(Millis(leads_at - 1)),
        )
        .unwrap_err();
    assert_eq!(qipai_games::Coded::code(&err), ErrorCode::TrickOnTable);
    assert_eq!(view(&game, winner, leads_at - 1), before);
    // At `leads_at` the winner's turn begins, with the whole `turn_ms` from then.
    let out = game.on_deadline(Millis(leads_at));
    let turn_ms = paced.rules.turn_ms;
    assert!(matches!(
        events_for(&out, Some(winner)).last(),
        Some(TuolajiEvent::Turn {
            phase: Phase::Leading { seat, deadline },
            hint: Some(_)
        }) if *seat == winner && *deadline == leads_at + turn_ms
    ));
    assert_eq!(game.deadline(), Some(Millis(leads_at + turn_ms)));
    game.apply(Seat(winner), lead, Received::at(Millis(leads_at)))
        .expect("the lead is accepted after the pause");
}

/// A vacant seat (played by the server) that wins a trick leads when the pause ends, not
/// at once: the server's own plays keep the table's pace.
#[test]
fn a_vacant_winner_leads_when_the_pause_ends() {
    let paced = TuolajiSettings {
        trick_pause_ms: 300,
        between_hands_ms: 60_000,
        ..settings()
    };
    // Three seats vacant (all four would end the table); seat 3 is played when its time
    // runs out.
    let mut game = TuolajiGame::new(&paced, 9);
    game.start(Millis(0));
    for seat in 0..3 {
        game.forfeit(Seat(seat), Millis(0));
    }
    let mut now = 0;
    let mut won_at: Option<(u64, u8)> = None;
    let mut checked = 0;
    while checked < 5 && !game.is_over() {
        now = game.deadline().expect("a deadline").0.max(now);
        for event in events_for(&game.on_deadline(Millis(now)), None) {
            match event {
                TuolajiEvent::TrickWon { winner, .. } => won_at = Some((now, winner)),
                TuolajiEvent::Led { seat, .. } => {
                    if let Some((at, winner)) = won_at.take() {
                        assert_eq!(seat, winner);
                        assert!(now >= at + 300, "led at {now}, trick won at {at}");
                        checked += 1;
                    }
                }
                _ => {}
            }
        }
    }
    assert_eq!(checked, 5, "five leads after a won trick were seen");
}
