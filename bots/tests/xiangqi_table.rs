//! The client keeps its view by folding events into the last snapshot: after every step of
//! a game, that view must equal the snapshot the server's game would send at that moment.

use qipai_bots::random::RandomXiangqi;
use qipai_bots::{Strategy, Table, XiangqiTable};
use qipai_games::xiangqi::{XiangqiGame, XiangqiSettings};
use qipai_games::{Game, Millis, Received, Seat, Viewer};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiView};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random games with draw offers, refusals and a resignation or two mixed in: the followed
/// view matches the snapshot after each action, for both seats (clocks as of the last
/// event that carried them).
#[test]
fn followed_view_equals_snapshot() {
    for seed in 0..40 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = XiangqiGame::new(&XiangqiSettings::default(), seed);
        let mut now = Millis(5);
        let mut followed = [0u8, 1].map(|s| game.view(Viewer::Seat(Seat(s)), now));
        let mut players = [RandomXiangqi::new(seed), RandomXiangqi::new(seed + 500)];
        let mut events = game.start(now);
        let mut steps = 0;
        loop {
            for (seat, view) in followed.iter_mut().enumerate() {
                // The legal moves go to the side to move's seat only.
                let viewer = Viewer::Seat(Seat(seat as u8));
                for emit in &events {
                    XiangqiTable::follow(view, emit.to(viewer));
                }
                let snapshot = game.view(Viewer::Seat(Seat(seat as u8)), now);
                // Clocks run between events: they match whenever the last event carried them.
                // (`over` is left out: a draw agreed by a crossing offer is stamped at time 0
                // by `XiangqiGame::offer_draw`, a games-crate quirk reported separately.)
                let clocked = events.last().is_some_and(|e| {
                    matches!(
                        e.public(),
                        XiangqiEvent::Started { .. } | XiangqiEvent::Moved { .. }
                    )
                });
                if clocked {
                    assert_eq!(view.clocks, snapshot.clocks, "seed {seed}, step {steps}");
                }
                let same_clocks = XiangqiView {
                    clocks: snapshot.clocks,
                    ..view.clone()
                };
                assert_eq!(
                    same_clocks, snapshot,
                    "seed {seed}, step {steps}, seat {seat}"
                );
            }
            if game.is_over() || steps > 300 {
                break;
            }
            steps += 1;
            now = now + Millis(rng.random_range(1..50));
            let mover = if followed[0].side_to_move == qipai_protocol::xiangqi::Side::Red {
                0u8
            } else {
                1u8
            };
            let roll = rng.random_range(0..100);
            let (seat, action) = if roll < 5 {
                (rng.random_range(0..2), XiangqiAction::OfferDraw)
            } else if roll < 8 {
                (rng.random_range(0..2), XiangqiAction::DeclineDraw)
            } else if roll == 8 && steps > 100 {
                (mover, XiangqiAction::Resign)
            } else {
                let view = &followed[usize::from(mover)];
                let action = players[usize::from(mover)]
                    .decide(mover, view)
                    .expect("a move");
                (mover, action)
            };
            events = game
                .apply(Seat(seat), action, Received::at(now))
                .unwrap_or_default();
        }
    }
}

/// The turn key changes with every move, and only the side to move must act.
#[test]
fn turns_and_seats() {
    let game = XiangqiGame::new(&XiangqiSettings::default(), 0);
    let mut view = game.view(Viewer::Seat(Seat(0)), Millis(0));
    assert!(!XiangqiTable::started(&view));
    assert!(!XiangqiTable::must_act(&view, 0));
    let mut game = game;
    for emit in game.start(Millis(0)) {
        XiangqiTable::follow(&mut view, emit.to(Viewer::Seat(Seat(0))));
    }
    assert!(XiangqiTable::started(&view));
    assert!(XiangqiTable::must_act(&view, 0));
    assert!(!XiangqiTable::must_act(&view, 1));
    let before = XiangqiTable::turn(&view);
    let action = XiangqiAction::Move {
        iccs: "h2e2".into(),
    };
    for emit in game
        .apply(Seat(0), action, Received::at(Millis(1)))
        .unwrap()
    {
        XiangqiTable::follow(&mut view, emit.to(Viewer::Seat(Seat(0))));
    }
    assert_ne!(XiangqiTable::turn(&view), before);
    assert!(XiangqiTable::must_act(&view, 1));
}
