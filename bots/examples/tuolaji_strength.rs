//! How strong the Tuolaji bot is: a team of two [`TuolajiBot`]s against a team of two
//! random legal players, then against two hint players (the server's own suggestion), over
//! seeded whole games played in memory (each seat sees only its own view and events).
//! The teams swap seats every other game. Last, the bot against itself (a fifth as many
//! games), which should come out near even.
//!
//! With `levels` as a third argument, the levels instead (`qipai_bots::tuolaji::level`):
//! each against the hint team, then each against the ones below it.
//!
//! ```text
//! cargo run --release -p qipai-bots --example tuolaji_strength -- [GAMES] [MAX_HANDS] [levels]
//! ```
//! GAMES defaults to 1000 per match-up, MAX_HANDS (a cap per game) to 60.

use std::time::Instant;

use qipai_bots::tuolaji::arena::{fast_settings, play_game, Player};
use qipai_bots::tuolaji::level::{Level, LevelBot};
use qipai_bots::tuolaji::{HintStrategy, RandomTuolaji, TuolajiBot};

/// A player for a seat, from the game's seed for that seat.
type Make<'a> = &'a dyn Fn(u64) -> Player;

struct Tally {
    games: u32,
    won: u32,
    lost: u32,
    unfinished: u32,
    margin: i64,
    hands: u64,
    rejected: usize,
}

fn matchup(name: &str, games: u32, max_hands: u32, us: Make, foe: Make) {
    let start = Instant::now();
    let settings = fast_settings();
    let mut t = Tally {
        games: 0,
        won: 0,
        lost: 0,
        unfinished: 0,
        margin: 0,
        hands: 0,
        rejected: 0,
    };
    for g in 0..games {
        let seed = u64::from(g) + 1;
        // The bots' team: seats 0+2 (team 0) in even games, 1+3 (team 1) in odd ones.
        let team = (g % 2) as usize;
        let mut players: [Player; 4] = std::array::from_fn(|s| -> Player {
            if s % 2 == team {
                us(seed * 4 + s as u64)
            } else {
                foe(seed * 4 + s as u64)
            }
        });
        let record = play_game(&settings, seed, &mut players, max_hands);
        t.games += 1;
        t.hands += record.hands.len() as u64;
        t.rejected += record.rejected.len();
        let mine = i64::from(record.levels[team]);
        let theirs = i64::from(record.levels[1 - team]);
        t.margin += mine - theirs;
        match record.outcome.and_then(|o| o.winner) {
            Some(w) if usize::from(w) == team => t.won += 1,
            Some(_) => t.lost += 1,
            None => t.unfinished += 1,
        }
    }
    let n = f64::from(t.games.max(1));
    println!(
        "{name}: {} games, first team won {} ({:.1} %), lost {}, unfinished {}; \
         mean level margin at the end {:+.2}; {:.1} hands per game; {} refused actions; {:.1} s",
        t.games,
        t.won,
        100.0 * f64::from(t.won) / n,
        t.lost,
        t.unfinished,
        t.margin as f64 / n,
        t.hands as f64 / n,
        t.rejected,
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let max_hands: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(60);
    let bot: Make = &|_| Box::new(TuolajiBot::new());
    if args.next().as_deref() == Some("levels") {
        let levels = [Level::Beginner, Level::Casual, Level::Expert];
        let make =
            |level: Level| move |seed: u64| -> Player { Box::new(LevelBot::new(level, seed)) };
        for (i, &a) in levels.iter().enumerate() {
            let name = format!("{} vs hint", a.name());
            matchup(&name, games, max_hands, &make(a), &|_| {
                Box::new(HintStrategy)
            });
            for &b in levels.iter().take(i) {
                let name = format!("{} vs {}", a.name(), b.name());
                matchup(&name, games, max_hands, &make(a), &make(b));
            }
        }
        return;
    }
    matchup("bot vs random", games, max_hands, bot, &|seed| {
        Box::new(RandomTuolaji::new(seed))
    });
    matchup("bot vs hint", games, max_hands, bot, &|_| {
        Box::new(HintStrategy)
    });
    // A sanity check of the yardstick: the same bot on both sides wins about half.
    matchup("bot vs bot", games / 5, max_hands, bot, bot);
}
