//! The xiangqi bot's levels: from a beginner's opponent to the strongest the bot can be,
//! each with a target on Fairy-Stockfish's `UCI_Elo` scale (measured with the
//! `xiangqi_match` example; README "Bot levels").
//!
//! The weaker levels are made the way engines make them: a node and depth limit (so a
//! level's strength does not depend on the machine or its load) and a controlled chance of
//! a worse move: every root move gets its exact score from a full-window search and the move
//! is drawn with probability `exp((score - best) / temperature)` (a softmax), so a move a
//! little worse is often played and a blunder rarely, more often the lower the level. The
//! draw comes from a generator seeded by the table, so a table's games can be replayed.
//! The top level searches the whole time budget and always plays its best move.

use rand::Rng;

use super::search::MATE;

/// A level's name on the wire (`bot_level` in the xiangqi options), lowest first.
pub use qipai_games::xiangqi::BOT_LEVELS as NAMES;

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The name on the wire.
    pub name: &'static str,
    /// The target on Fairy-Stockfish's `UCI_Elo` scale (`None`: as strong as it gets).
    pub target_elo: Option<u32>,
    /// The most nodes per move (`None`: only time limits the search).
    pub nodes: Option<u64>,
    /// The deepest iteration (`None`: no cap).
    pub depth: Option<i32>,
    /// The softmax temperature over the root moves' scores, in centipawns (a pawn is
    /// 100); 0 always plays the best move.
    pub temperature: u32,
}

/// Every level, lowest first; the names are [`NAMES`].
pub const LEVELS: [Level; 5] = [
    Level {
        name: "beginner",
        target_elo: Some(900),
        nodes: Some(3_000),
        depth: Some(2),
        temperature: 300,
    },
    Level {
        name: "casual",
        target_elo: Some(1350),
        nodes: Some(20_000),
        depth: Some(4),
        temperature: 50,
    },
    Level {
        name: "club",
        target_elo: Some(1800),
        nodes: Some(50_000),
        depth: None,
        temperature: 10,
    },
    Level {
        name: "expert",
        target_elo: Some(2200),
        nodes: Some(400_000),
        depth: None,
        temperature: 0,
    },
    Level {
        name: "master",
        target_elo: None,
        nodes: None,
        depth: None,
        temperature: 0,
    },
];

impl Level {
    /// The level called `name`, if there is one.
    pub fn named(name: &str) -> Option<Level> {
        LEVELS.iter().copied().find(|l| l.name == name)
    }

    /// The lowest level.
    pub const fn lowest() -> Level {
        LEVELS[0]
    }

    /// Whether this level may play a move other than its best (it then needs every root
    /// move's exact score).
    pub fn randomized(&self) -> bool {
        self.temperature > 0
    }
}

/// Mates weigh as this much material in the draw: enough that a level never prefers being
/// mated, without overflowing the exponential.
const MATE_AS: i32 = 3_000;

/// Draws one of `scored` (moves with their scores for the mover, any order) with
/// probability proportional to `exp((score - best) / temperature)`; the best one when
/// `temperature` is 0. `None` when `scored` is empty.
pub fn draw<M: Copy>(scored: &[(M, i32)], temperature: u32, rng: &mut impl Rng) -> Option<M> {
    let clamp = |s: i32| {
        if s.abs() >= MATE - 1_000 {
            s.signum() * MATE_AS
        } else {
            s.clamp(-MATE_AS, MATE_AS)
        }
    };
    let best = scored.iter().map(|&(_, s)| clamp(s)).max()?;
    if temperature == 0 {
        return scored
            .iter()
            .find(|&&(_, s)| clamp(s) == best)
            .map(|&(m, _)| m);
    }
    let t = f64::from(temperature);
    let weights: Vec<f64> = scored
        .iter()
        .map(|&(_, s)| (f64::from(clamp(s) - best) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (&(m, _), w) in scored.iter().zip(&weights) {
        if x < *w {
            return Some(m);
        }
        x -= w;
    }
    scored.first().map(|&(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The names the games crate settles are exactly the levels here, lowest first.
    #[test]
    fn names_match_the_levels() {
        let names: Vec<&str> = LEVELS.iter().map(|l| l.name).collect();
        assert_eq!(names, NAMES);
        for name in NAMES {
            assert_eq!(Level::named(name).map(|l| l.name), Some(*name));
        }
        assert_eq!(Level::named("grandmaster"), None);
    }

    /// Lower levels search less and choose more loosely.
    #[test]
    fn levels_grow_stronger() {
        for pair in LEVELS.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(a.temperature >= b.temperature, "{a:?} {b:?}");
            assert!(a.nodes.unwrap_or(u64::MAX) < b.nodes.unwrap_or(u64::MAX));
        }
        assert!(!Level::named("master").unwrap().randomized());
    }

    /// At temperature 0 the best; warm, a move 1 temperature worse comes about e⁻¹ as often
    /// as the best, a mated one never in practice.
    #[test]
    fn the_draw_follows_the_softmax() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let scored = [("a", 50), ("b", 150), ("c", -(MATE - 3))];
        assert_eq!(draw(&scored, 0, &mut rng), Some("b"));
        let mut counts = [0u32; 3];
        for _ in 0..20_000 {
            match draw(&scored, 100, &mut rng) {
                Some("a") => counts[0] += 1,
                Some("b") => counts[1] += 1,
                _ => counts[2] += 1,
            }
        }
        let ratio = f64::from(counts[0]) / f64::from(counts[1]);
        assert!((ratio - (-1f64).exp()).abs() < 0.03, "{counts:?}");
        assert_eq!(counts[2], 0);
        assert_eq!(draw::<&str>(&[], 100, &mut rng), None);
    }
}
