//! Times the Swiss pairing of 1,000 entries (README's figure):
//! `cargo run --release -p qipai-games --example pair_thousand`.
//!
//! Rounds 1–3 are paired and given seeded random results; round 4 is then paired and timed.

use std::time::Instant;

use qipai_games::competition::pairing::pair_next_round;
use qipai_games::competition::{Competition, Event, GameResult, Player, Settings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let entries = 1000;
    let mut c = Competition::new(Settings::new(Event::XiangqiSingles, 2026));
    for i in 0..entries {
        let player = Player {
            name: format!("player {i}"),
            contact: None,
        };
        c.add_entry(&format!("department {}", i % 40), None, vec![player], &[])
            .expect("entry");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..3 {
        let start = Instant::now();
        let round = pair_next_round(&c).expect("round");
        println!("round {}: paired in {:?}", round.number, start.elapsed());
        let number = round.number;
        let tables: Vec<u32> = round.pairings.iter().map(|p| p.table).collect();
        c.rounds.push(round);
        for t in tables {
            let r = [
                GameResult::FirstWins,
                GameResult::SecondWins,
                GameResult::Draw,
            ][rng.random_range(0..3)];
            c.record(number, t, r).expect("record");
        }
    }
    let start = Instant::now();
    let round = pair_next_round(&c).expect("round");
    let took = start.elapsed();
    println!(
        "round 4 of {entries} entries: {} tables paired in {took:?}",
        round.pairings.len()
    );
}
