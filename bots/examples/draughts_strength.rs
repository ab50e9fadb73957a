//! Strength of the draughts bot (a benchmark, not a test; run it with `--release`):
//!
//! 1. the bot (a node budget per move) against a uniformly random player, colours swapped;
//! 2. the bot at a short think time against itself at a long one, colours swapped, each
//!    game opened with two random plies so the games differ;
//! 3. search speed: nodes per second and depth reached in `speed_ms` from the start.
//!
//! Every game goes through [`DraughtsGame`] and each player decides from its seat's view, as
//! over the wire.
//!
//! ```text
//! cargo run --release -p qipai-bots --example draughts_strength -- \
//!     random_games=20 random_nodes=20000 duel_games=10 fast_ms=20 slow_ms=200 speed_ms=2000
//! ```

use std::collections::HashMap;
use std::time::Duration;

use qipai_bots::{DraughtsBot, Strategy, Strength};
use qipai_games::draughts::{
    DraughtsAction, DraughtsGame, DraughtsSettings, DraughtsView, Position, Status,
};
use qipai_games::{Game, Millis, Received, Seat, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A player deciding from its seat's view.
enum Player {
    Bot(Box<DraughtsBot>),
    Random(Box<ChaCha8Rng>),
}

impl Player {
    fn decide(&mut self, seat: u8, view: &DraughtsView) -> Option<DraughtsAction> {
        match self {
            Player::Bot(bot) => bot.decide(seat, view),
            Player::Random(rng) => {
                let moves = &view.to_move.legal_moves;
                let pick = rng.random_range(0..moves.len().max(1));
                moves.get(pick).map(|m| DraughtsAction::Move {
                    notation: m.clone(),
                })
            }
        }
    }
}

/// Plays one game (the clock never matters: one simulated second per move); the winner's
/// seat, or `None` for a draw.
fn play(players: &mut [Player; 2], opening_seed: Option<u64>) -> Option<u8> {
    let settings = DraughtsSettings::default();
    let mut game = DraughtsGame::new(&settings, 0);
    game.start(Millis(0));
    let mut opener = opening_seed.map(ChaCha8Rng::seed_from_u64);
    for ply in 0..600u64 {
        let now = Millis(ply * 1_000);
        let view = game.view(Viewer::Spectator, now);
        if view.status == Status::Over {
            return view.result.and_then(|r| r.winner).map(|w| w.index() as u8);
        }
        let seat = view.side_to_move.index() as u8;
        let action = match opener.as_mut().filter(|_| ply < 2) {
            Some(rng) => {
                let moves = &view.to_move.legal_moves;
                let pick = rng.random_range(0..moves.len());
                DraughtsAction::Move {
                    notation: moves[pick].clone(),
                }
            }
            None => {
                let seat_view = game.view(Viewer::Seat(Seat(seat)), now);
                players[usize::from(seat)].decide(seat, &seat_view)?
            }
        };
        game.apply(Seat(seat), action, Received::at(now)).ok()?;
    }
    None
}

/// Plays `games` games between `a` and `b`, colours alternating; (a wins, draws, b wins).
fn matchup(
    games: u64,
    mut a: impl FnMut() -> Player,
    mut b: impl FnMut(u64) -> Player,
    openings: bool,
) -> (u32, u32, u32) {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for g in 0..games {
        let a_seat = (g % 2) as u8;
        let mut players = if a_seat == 0 {
            [a(), b(g)]
        } else {
            [b(g), a()]
        };
        let opening = openings.then_some(g / 2);
        match play(&mut players, opening) {
            Some(seat) if seat == a_seat => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    (wins, draws, losses)
}

fn main() {
    let args: HashMap<String, u64> = std::env::args()
        .skip(1)
        .filter_map(|a| {
            let (k, v) = a.split_once('=')?;
            Some((k.to_string(), v.parse().ok()?))
        })
        .collect();
    let get = |k: &str, d: u64| args.get(k).copied().unwrap_or(d);
    let random_games = get("random_games", 20);
    let random_nodes = get("random_nodes", 20_000);
    let duel_games = get("duel_games", 10);
    let fast_ms = get("fast_ms", 20);
    let slow_ms = get("slow_ms", 200);

    let (w, d, l) = matchup(
        random_games,
        || Player::Bot(Box::new(DraughtsBot::new(Strength::nodes(random_nodes)))),
        |g| Player::Random(Box::new(ChaCha8Rng::seed_from_u64(g))),
        false,
    );
    println!(
        "bot ({random_nodes} nodes/move) vs random: {w} won, {d} drawn, {l} lost of {random_games}"
    );

    let think = |ms| Strength {
        think: Some(Duration::from_millis(ms)),
        max_nodes: None,
        use_clock: false,
    };
    let (w, d, l) = matchup(
        duel_games,
        || Player::Bot(Box::new(DraughtsBot::new(think(slow_ms)))),
        |_| Player::Bot(Box::new(DraughtsBot::new(think(fast_ms)))),
        true,
    );
    println!("bot {slow_ms} ms vs bot {fast_ms} ms: {w} won, {d} drawn, {l} lost of {duel_games}");

    let speed_ms = get("speed_ms", 2_000);
    let mut bot = DraughtsBot::new(think(speed_ms));
    let started = std::time::Instant::now();
    let _ = bot.choose(&Position::start(), None);
    let secs = started.elapsed().as_secs_f64();
    if let Some(report) = bot.last_report() {
        println!(
            "search from the start: {} nodes in {secs:.2} s ({:.2} M nodes/s), depth {}",
            report.nodes,
            report.nodes as f64 / secs / 1e6,
            report.depth
        );
    }
}
