//! The fold is enough (point 2): for random seeded Tuolaji tables driven through
//! the `Game` trait as the room drives them (random legal plays, random bids, time-outs,
//! seats left and taken again, a round time limit), every seat and a spectator that fold
//! the events from the first snapshot hold, after every step, exactly the snapshot the
//! server would send; and the legal bids a seat is sent (its view's `legal_bids`) are exactly
//! the ones the table accepts.
//!
//! CI plays a few tables of a few hands each; the documented longer run plays 1,000:
//! `QIPAI_FOLD_GAMES=1000 cargo test --release -p qipai-games --test tuolaji_fold`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use qipai_games::cards::Card;
use qipai_games::tuolaji::suggest::candidate_actions;
use qipai_games::tuolaji::view::fold;
use qipai_games::tuolaji::{Phase, TuolajiGame, TuolajiGameError, TuolajiRules, TuolajiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat, Viewer};
use qipai_protocol::tuolaji::{TuolajiAction, TuolajiEvent, TuolajiView};

/// How many random tables: `QIPAI_FOLD_GAMES`, or a few in CI.
fn games() -> u64 {
    std::env::var("QIPAI_FOLD_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

const VIEWERS: [Viewer; 5] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Seat(Seat(2)),
    Viewer::Seat(Seat(3)),
    Viewer::Spectator,
];

/// Five viewers following one table by folding.
struct Followers {
    views: Vec<TuolajiView>,
    events: usize,
    /// Hands finished and tricks won, to show that the run reached them.
    hands: usize,
    tricks: usize,
    bids: usize,
}

impl Followers {
    fn new(game: &TuolajiGame, now: Millis) -> Followers {
        Followers {
            views: VIEWERS.iter().map(|&v| game.view(v, now)).collect(),
            events: 0,
            hands: 0,
            tricks: 0,
            bids: 0,
        }
    }

    /// Folds what each viewer is sent, then checks each against the server's snapshot.
    fn step(
        &mut self,
        game: &TuolajiGame,
        emitted: &[Emit<TuolajiEvent>],
        now: Millis,
        what: &str,
    ) {
        for emit in emitted {
            self.events += 1;
            match emit {
                Emit::All(TuolajiEvent::HandOver { .. }) => self.hands += 1,
                Emit::All(TuolajiEvent::TrickWon { .. }) => self.tricks += 1,
                Emit::All(TuolajiEvent::Bid(_)) => self.bids += 1,
                _ => {}
            }
            for (view, &viewer) in self.views.iter_mut().zip(VIEWERS.iter()) {
                fold(view, viewer, emit.to(viewer));
            }
        }
        for (view, &viewer) in self.views.iter().zip(VIEWERS.iter()) {
            let snapshot = game.view(viewer, now);
            assert_eq!(
                view, &snapshot,
                "{viewer:?} after {what} at {now:?}: the fold differs from the snapshot"
            );
        }
    }
}

/// A random bid attempt by a random seat, read from what that seat sees: some of the level
/// cards of one suit in its view's hand (often not enough to be accepted).
fn random_bid(f: &Followers, rng: &mut ChaCha8Rng) -> (Seat, TuolajiAction) {
    let seat = rng.random_range(0..4u8);
    let view = &f.views[usize::from(seat)];
    let held: Vec<&Card> = view
        .hand
        .iter()
        .flatten()
        .filter(|c| c.rank().is_some() && c.rank() == view.level_rank)
        .collect();
    let cards = match held.get(rng.random_range(0..held.len().max(1))) {
        Some(pick) => {
            let same = held.iter().filter(|c| **c == *pick).count();
            vec![**pick; rng.random_range(1..=same)]
        }
        None => Vec::new(),
    };
    (Seat(seat), TuolajiAction::Bid { cards })
}

/// Plays one random table for up to `hands` hands, checking the fold at every step.
fn play_table(seed: u64, hands: u32) -> (usize, usize, usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let settings = TuolajiSettings {
        rules: TuolajiRules {
            deal_interval_ms: rng.random_range(0..3),
            bid_window_ms: 50,
            bottom_ms: 400,
            turn_ms: 300,
            // Some tables have a round limit, so that the last call and the round's end
            // come into play.
            round_minutes: rng.random_bool(0.3).then_some(1),
            last_call_minutes: 1,
            ..TuolajiRules::default()
        },
        between_hands_ms: rng.random_range(0..200),
        trick_pause_ms: rng.random_range(0..200),
    };
    let mut game = TuolajiGame::new(&settings, seed);
    let mut now = Millis(1_000);
    let mut f = Followers::new(&game, now);
    let started = game.start(now);
    f.step(&game, &started, now, "start");
    let mut steps = 0;
    while !game.is_over()
        && game
            .game()
            .is_some_and(|g| g.history().len() < hands as usize)
    {
        steps += 1;
        assert!(steps < 20_000, "seed {seed}: the table does not end");
        now = now + Millis(rng.random_range(0..40));
        // Whatever is due first, as the room's timer would.
        if let Some(at) = game.deadline().filter(|&at| at <= now) {
            let out = game.on_deadline(at.max(now));
            f.step(&game, &out, at.max(now), "a deadline");
            continue;
        }
        let roll = rng.random_range(0..100);
        let Some(hand) = game.game().map(|g| g.hand()) else {
            break;
        };
        let (what, out) = if roll < 1 {
            let seat = Seat(rng.random_range(0..4));
            ("a forfeit", game.forfeit(seat, now))
        } else if roll < 6 {
            let seat = Seat(rng.random_range(0..4));
            if game.can_reseat(seat) {
                ("a reseat", game.reseat(seat, now))
            } else {
                continue;
            }
        } else if roll < 10 {
            // Wait for the next deadline: a time-out or the next card.
            match game.deadline() {
                Some(at) => {
                    now = now.max(at);
                    ("a time-out", game.on_deadline(now))
                }
                None => continue,
            }
        } else if matches!(hand.phase(), Phase::Dealing | Phase::Bidding { .. }) {
            let (seat, bid) = random_bid(&f, &mut rng);
            // The legal bids the seat was sent (folded into its view) are exactly the ones
            // the table accepts.
            let legal = f.views[seat.index()].legal_bids.clone();
            let TuolajiAction::Bid { cards } = &bid else {
                unreachable!()
            };
            let listed = legal.contains(cards);
            match game.apply(seat, bid, Received::at(now)) {
                Ok(out) => {
                    assert!(listed, "seed {seed}: an accepted bid was not in {legal:?}");
                    ("a bid", out)
                }
                Err(e) => {
                    assert!(!listed, "seed {seed}: a listed bid was refused: {e}");
                    continue;
                }
            }
        } else {
            let candidates = candidate_actions(hand, 8);
            let Some(seat) = hand.phase().to_act() else {
                continue;
            };
            if candidates.is_empty() {
                continue;
            }
            let action = candidates[rng.random_range(0..candidates.len())].clone();
            match game.apply(seat, action, Received::at(now)) {
                Ok(out) => ("an action", out),
                // The finished trick is on show: nobody leads before its pause ends.
                Err(TuolajiGameError::TrickOnTable { leads_at }) => {
                    assert!(now.0 < leads_at, "seed {seed}: refused after the pause");
                    continue;
                }
                Err(e) => panic!("seed {seed}: a candidate action was refused: {e}"),
            }
        };
        f.step(&game, &out, now, what);
    }
    (f.events, f.hands, f.tricks, f.bids)
}

/// Every seat and a spectator folding the events hold the server's snapshot at every step.
#[test]
fn folding_events_gives_the_snapshot_at_every_step() {
    let (mut events, mut hands, mut tricks, mut bids) = (0, 0, 0, 0);
    let games = games();
    for seed in 0..games {
        let (e, h, t, b) = play_table(seed, 2);
        events += e;
        hands += h;
        tricks += t;
        bids += b;
    }
    println!("{games} tables: {hands} hands, {tricks} tricks, {bids} bids, {events} events folded");
    assert!(bids > 0, "no bid was accepted");
    // Most tables finish both hands (a table every seat left ends early).
    assert!(hands as u64 >= games, "{hands} hands in {games} tables");
    assert!(tricks >= hands * 30, "{tricks} tricks in {hands} hands");
}
