//! The lowest xiangqi level is beatable by normal play ("Done when"): a weak
//! scripted player — it mates when it can, takes free material, and otherwise plays at
//! random among the moves that leave none of its pieces to a winning one-move capture —
//! scores clearly above 0 against `beginner` over a fixed set of seeded games, colours
//! alternating. Deterministic: the bot's node limit and its seeded draw. The player is
//! `qipai_bots::xiangqi::weak`; `server/tests/bot_levels.rs` plays it through the server.

use std::time::Duration;

use qipai_bots::xiangqi::level::Level;
use qipai_bots::xiangqi::weak::weak_move;
use qipai_bots::{Strength, XiangqiBot};
use qipai_games::xiangqi::{EndRules, History, Position, Side};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The games played; the limit on a game's length (then a draw).
const GAMES: u64 = 20;
const MAX_PLIES: usize = 300;

/// The scripted player's points (1 a win, ½ a draw) in game `seed`, playing Red when
/// `red`.
fn game(seed: u64, red: bool) -> f64 {
    let level = Level::lowest();
    let mut bot = XiangqiBot::new(Strength::nodes(level.nodes.unwrap_or(3_000))).at_level(
        level,
        Duration::from_secs(60),
        seed,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let me = if red { Side::Red } else { Side::Black };
    let mut history = History::new(Position::start(), EndRules::default());
    while history.outcome().is_none() && history.moves().len() < MAX_PLIES {
        let mv = if history.position().side_to_move() == me {
            weak_move(history.position(), &mut rng)
        } else {
            bot.choose(&history, None)
        };
        let Some(mv) = mv else { break };
        history.play(mv).expect("a legal move");
    }
    match history.outcome().map(|o| o.winner) {
        Some(Some(w)) if w == me => 1.0,
        Some(Some(_)) => 0.0,
        _ => 0.5,
    }
}

#[test]
fn a_weak_scripted_player_beats_the_beginner_level_sometimes() {
    let points: Vec<f64> = (0..GAMES).map(|seed| game(seed, seed % 2 == 0)).collect();
    let total: f64 = points.iter().sum();
    let wins = points.iter().filter(|&&p| p == 1.0).count();
    eprintln!("scripted player v beginner: {total} / {GAMES} ({wins} wins): {points:?}");
    assert!(wins >= 3, "{points:?}");
    assert!(total / GAMES as f64 >= 0.2, "{points:?}");
}
