//! Strength and speed of the xiangqi bot (a benchmark, not a test; run it with `--release`):
//!
//! 1. the bot against a uniformly random player (it should win every game);
//! 2. the bot at a short think time against itself at a long one, from a few openings with
//!    colours swapped;
//! 3. search speed in nodes per second from the start and from a middlegame position.
//!
//! ```text
//! cargo run --release -p qipai-bots --example xiangqi_strength -- \
//!     --random-games 100 --random-nodes 20000 --duel-games 4 --fast-ms 100 --slow-ms 1000 --speed-ms 3000
//! ```

use std::time::{Duration, Instant};

use qipai_bots::random::RandomXiangqi;
use qipai_bots::{Strength, XiangqiBot};
use qipai_games::xiangqi::{EndRules, History, Move, Outcome, Position, Side};

/// Reads `--name value` from the command line, or `default`.
fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Something that picks moves in a game record.
trait Player {
    fn pick(&mut self, history: &History) -> Option<Move>;
}

impl Player for XiangqiBot {
    fn pick(&mut self, history: &History) -> Option<Move> {
        self.choose(history, None)
    }
}

impl Player for RandomXiangqi {
    fn pick(&mut self, history: &History) -> Option<Move> {
        self.choose(history)
    }
}

/// Plays from `start` after `opening` to the end (or 400 plies, a draw).
fn play(
    start: &Position,
    opening: &[&str],
    red: &mut dyn Player,
    black: &mut dyn Player,
) -> (Option<Outcome>, usize) {
    let mut history = History::new(start.clone(), EndRules::default());
    for text in opening {
        if let Ok(mv) = Move::from_iccs(text) {
            let _ = history.play(mv);
        }
    }
    while history.outcome().is_none() && history.moves().len() < 400 {
        let player: &mut dyn Player = match history.position().side_to_move() {
            Side::Red => &mut *red,
            Side::Black => &mut *black,
        };
        let Some(mv) = player.pick(&history) else {
            break;
        };
        if let Err(e) = history.play(mv) {
            panic!("the bot chose an illegal move {mv}: {e}");
        }
    }
    (history.outcome(), history.moves().len())
}

fn against_random(games: u64, nodes: u64) {
    let start = Position::start();
    let (mut wins, mut plies) = (0, 0);
    let began = Instant::now();
    for seed in 0..games {
        let mut bot = XiangqiBot::new(Strength::nodes(nodes));
        let mut random = RandomXiangqi::new(seed);
        let bot_side = if seed % 2 == 0 {
            Side::Red
        } else {
            Side::Black
        };
        let (outcome, n) = if bot_side == Side::Red {
            play(&start, &[], &mut bot, &mut random)
        } else {
            play(&start, &[], &mut random, &mut bot)
        };
        plies += n;
        if outcome.and_then(|o| o.winner) == Some(bot_side) {
            wins += 1;
        } else {
            println!("  game {seed}: not won: {outcome:?}");
        }
    }
    println!(
        "bot ({nodes} nodes/move) vs random: {wins}/{games} won ({:.1} %), {:.0} plies/game, {:.1} s",
        100.0 * wins as f64 / games.max(1) as f64,
        plies as f64 / games.max(1) as f64,
        began.elapsed().as_secs_f64()
    );
}

fn duel(games: u64, fast_ms: u64, slow_ms: u64) {
    let openings: [&[&str]; 4] = [
        &["h2e2", "h9g7"],
        &["b2e2", "b9c7"],
        &["c3c4", "g6g5"],
        &["h0g2", "h9g7"],
    ];
    let strength = |ms| Strength {
        think: Some(Duration::from_millis(ms)),
        max_nodes: None,
        use_clock: false,
    };
    let start = Position::start();
    let (mut fast_points, mut slow_points) = (0.0, 0.0);
    for g in 0..games {
        let opening = openings[(g as usize / 2) % openings.len()];
        let mut fast = XiangqiBot::new(strength(fast_ms));
        let mut slow = XiangqiBot::new(strength(slow_ms));
        let slow_side = if g % 2 == 0 { Side::Red } else { Side::Black };
        let (outcome, n) = if slow_side == Side::Red {
            play(&start, opening, &mut slow, &mut fast)
        } else {
            play(&start, opening, &mut fast, &mut slow)
        };
        let result = match outcome.and_then(|o| o.winner) {
            Some(w) if w == slow_side => {
                slow_points += 1.0;
                format!("{slow_ms} ms won")
            }
            Some(_) => {
                fast_points += 1.0;
                format!("{fast_ms} ms won")
            }
            None => {
                slow_points += 0.5;
                fast_points += 0.5;
                "draw".to_owned()
            }
        };
        println!(
            "  game {g} ({} ms plays {slow_side:?}, opening {}): {result} ({:?}, {n} plies)",
            slow_ms,
            opening.join(" "),
            outcome.map(|o| o.reason)
        );
    }
    println!(
        "{slow_ms} ms vs {fast_ms} ms per move: {slow_points} - {fast_points} over {games} games"
    );
}

fn speed(ms: u64) {
    let positions = [
        ("start", Position::start().to_fen()),
        (
            "middlegame",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 5".to_owned(),
        ),
    ];
    for (name, fen) in positions {
        let Ok(position) = Position::from_fen(&fen) else {
            println!("{name}: bad FEN");
            continue;
        };
        let history = History::new(position, EndRules::default());
        let mut bot = XiangqiBot::new(Strength {
            think: Some(Duration::from_millis(ms)),
            max_nodes: None,
            use_clock: false,
        });
        let mv = bot.choose(&history, None);
        if let Some(r) = bot.last_report() {
            println!(
                "speed, {name}: {} nodes in {:.2} s = {:.0} nodes/s, depth {}, best {}, score {}",
                r.nodes,
                r.elapsed.as_secs_f64(),
                r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9),
                r.depth,
                mv.map_or("-".to_owned(), |m| m.to_string()),
                r.score
            );
        }
    }
}

fn main() {
    let random_games = arg("--random-games", 100);
    if random_games > 0 {
        against_random(random_games, arg("--random-nodes", 20_000));
    }
    let duel_games = arg("--duel-games", 4);
    if duel_games > 0 {
        duel(duel_games, arg("--fast-ms", 100), arg("--slow-ms", 1000));
    }
    let speed_ms = arg("--speed-ms", 3000);
    if speed_ms > 0 {
        speed(speed_ms);
    }
}
