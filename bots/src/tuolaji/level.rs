//! The Tuolaji bots' levels (`bot_level` in the Tuolaji options, names from
//! `qipai_games::tuolaji::BOT_LEVELS`), lowest first:
//!
//! - `beginner`: bids, names the trump and buries like the expert, but plays its cards
//!   without counting anything: the view's hint (the server's own suggestion, which keeps
//!   no memory of the cards played, never throws and never feeds its partner on purpose).
//! - `casual`: the expert, but about one card in four a legal play drawn at random instead
//!   (a slip: a point card given away, a trump spent for nothing).
//! - `expert`: [`TuolajiBot`], which remembers the cards and voids, throws, feeds points to
//!   its partner and keeps big trumps for the end; the default.
//!
//! (A first try made the beginner the hint with random slips and the casual the hint
//! alone: the slips won more than they lost against the hint's plain play, so the order
//! came out backwards; see README "Bot levels".)
//!
//! Measured against each other and against the hint player with the `tuolaji_strength`
//! example (README "Bot levels").

use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bot::TuolajiBot;
use super::random::RandomTuolaji;
use super::read;
use super::table::SeatView;
use crate::strategy::Strategy;

/// A level's name on the wire, lowest first.
pub use qipai_games::tuolaji::BOT_LEVELS as NAMES;

/// How often the casual level plays a random legal card instead of the expert's, in
/// percent.
pub const CASUAL_SLIP_PERCENT: u32 = 25;

/// A Tuolaji level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Beginner,
    Casual,
    Expert,
}

impl Level {
    /// The level called `name`, if there is one.
    pub fn named(name: &str) -> Option<Level> {
        match name {
            "beginner" => Some(Level::Beginner),
            "casual" => Some(Level::Casual),
            "expert" => Some(Level::Expert),
            _ => None,
        }
    }

    /// The name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Expert => "expert",
        }
    }
}

/// A Tuolaji player at a [`Level`].
pub struct LevelBot {
    level: Level,
    /// Bids, trump naming and the bottom (every level), and the cards above `beginner`.
    bot: TuolajiBot,
    /// The casual level's slips.
    random: RandomTuolaji,
    rng: ChaCha8Rng,
}

impl LevelBot {
    /// A player at `level` whose chance plays follow from `seed`.
    pub fn new(level: Level, seed: u64) -> LevelBot {
        LevelBot {
            level,
            bot: TuolajiBot::new(),
            random: RandomTuolaji::new(seed ^ 0x5EED),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }
}

impl Strategy for LevelBot {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn observe(&mut self, event: &TuolajiEvent) {
        self.bot.observe(event);
    }

    fn decide(&mut self, seat: u8, view: &SeatView) -> Option<TuolajiAction> {
        let cards = matches!(
            view.view.phase,
            Phase::Leading { .. } | Phase::Following { .. }
        );
        if self.level == Level::Expert || !cards {
            return self.bot.decide(seat, view);
        }
        if read::to_act(&view.view.phase) != Some(seat) {
            return None;
        }
        if self.level == Level::Beginner {
            return view.view.hint.clone();
        }
        if self.rng.random_range(0..100) < CASUAL_SLIP_PERCENT {
            if let Some(action) = self.random.decide(seat, view) {
                return Some(action);
            }
        }
        self.bot.decide(seat, view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuolaji::arena::{fast_settings, play_game, Player};

    /// Every name the games crate settles is a level here, and back.
    #[test]
    fn names_match_the_levels() {
        for name in NAMES {
            assert_eq!(Level::named(name).map(Level::name), Some(*name));
        }
        assert_eq!(Level::named("master"), None);
    }

    /// Every level plays whole hands without a refused action.
    #[test]
    fn every_level_plays_legally() {
        let settings = fast_settings();
        let mut players: [Player; 4] = [
            Box::new(LevelBot::new(Level::Beginner, 1)),
            Box::new(LevelBot::new(Level::Casual, 2)),
            Box::new(LevelBot::new(Level::Beginner, 3)),
            Box::new(LevelBot::new(Level::Expert, 4)),
        ];
        let record = play_game(&settings, 11, &mut players, 2);
        assert!(!record.hands.is_empty());
        assert!(record.rejected.is_empty(), "{:?}", record.rejected);
    }
}
