//! The fold is enough (point 2): for random xiangqi games driven through the
//! `Game` trait as the room drives them (random legal moves, draw offers and answers,
//! resignations, time-outs, abandonment), both seats and a spectator that fold the events
//! from the first snapshot hold, after every step, exactly the snapshot the server would
//! send at that moment (clocks counted down from their `server_time`, as a client does).
//!
//! CI plays a few dozen games; the documented longer run plays 1,000:
//! `QIPAI_FOLD_GAMES=1000 cargo test --release -p qipai-games --test xiangqi_fold`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use qipai_games::clock::TimeControl;
use qipai_games::xiangqi::view::fold;
use qipai_games::xiangqi::{XiangqiGame, XiangqiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat, Viewer};
use qipai_protocol::xiangqi::{Clocks, Side, XiangqiAction, XiangqiEvent, XiangqiView};

fn games() -> u64 {
    std::env::var("QIPAI_FOLD_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Spectator,
];

/// `clocks` as a client shows them at `now`: the running side counted down.
fn clocks_at(clocks: Clocks, now: Millis) -> Clocks {
    let spent = now.0.saturating_sub(clocks.server_time);
    let mut c = clocks;
    match c.running {
        Some(Side::Red) => c.red_ms = c.red_ms.saturating_sub(spent),
        Some(Side::Black) => c.black_ms = c.black_ms.saturating_sub(spent),
        None => {}
    }
    c.server_time = now.0;
    c
}

fn check(views: &mut [XiangqiView], game: &XiangqiGame, out: &[Emit<XiangqiEvent>], now: Millis) {
    for emit in out {
        for (view, &viewer) in views.iter_mut().zip(VIEWERS.iter()) {
            fold(view, emit.to(viewer));
        }
    }
    for (view, &viewer) in views.iter().zip(VIEWERS.iter()) {
        let mut shown = view.clone();
        shown.clocks = clocks_at(view.clocks, now);
        assert_eq!(shown, game.view(viewer, now), "{viewer:?} at {now:?}");
    }
}

/// Plays one random game to its end; returns how many moves it had.
fn play_game(seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let control = ["1+1", "sd:1", "30+10"][rng.random_range(0..3)];
    let settings = XiangqiSettings {
        time_control: TimeControl::parse(control).unwrap(),
        first_move_ms: 3_000,
        draw_offer_every_moves: 2,
        ..XiangqiSettings::default()
    };
    let mut game = XiangqiGame::new(&settings, seed);
    let mut now = Millis(500);
    let mut views: Vec<XiangqiView> = VIEWERS.iter().map(|&v| game.view(v, now)).collect();
    let out = game.start(now);
    check(&mut views, &game, &out, now);
    let mut moves = 0;
    while !game.is_over() {
        now = now + Millis(rng.random_range(0..2_000));
        if let Some(at) = game.deadline().filter(|&at| at <= now) {
            let out = game.on_deadline(at);
            check(&mut views, &game, &out, at);
            now = at;
            continue;
        }
        let mover = match game.view(Viewer::Spectator, now).side_to_move {
            Side::Red => Seat(0),
            Side::Black => Seat(1),
        };
        let view = game.view(Viewer::Seat(mover), now);
        let other = Seat(1 - mover.0);
        let roll = rng.random_range(0..1000);
        let (seat, action) = match roll {
            0..3 => (mover, XiangqiAction::Resign),
            3..5 => {
                let out = game.forfeit(other, now);
                check(&mut views, &game, &out, now);
                continue;
            }
            5..40 => (mover, XiangqiAction::OfferDraw),
            40..60 => (other, XiangqiAction::DeclineDraw),
            60..62 => (other, XiangqiAction::AcceptDraw),
            _ => {
                let legal = &view.legal_moves;
                let iccs = legal[rng.random_range(0..legal.len())].to_string();
                moves += 1;
                (mover, XiangqiAction::Move { iccs })
            }
        };
        if let Ok(out) = game.apply(seat, action, Received::at(now)) {
            check(&mut views, &game, &out, now);
        }
    }
    moves
}

/// Both seats and a spectator folding the events hold the snapshot at every step.
#[test]
fn folding_events_gives_the_snapshot_at_every_step() {
    let games = games();
    let moves: usize = (0..games).map(play_game).sum();
    println!("{games} games, {moves} moves folded");
    assert!(moves as u64 > games * 5, "{moves} moves in {games} games");
}
