//! The one catalogue of games: for each game its seats, named presets, the time controls
//! a lobby offers and the bots' levels. The page (over `GET /api/games`), the bots'
//! command line and the load test read it instead of restating the list; each entry is
//! built from the game's own constants (`Game::SEATS`, its options' `PRESETS` and
//! `BOT_LEVELS`), so a game's facts are written once, in the game's modules.
//!
//! # Format (JSON, as `GET /api/games` serves it)
//! ```text
//! {"games": [{"game": "xiangqi", "seats": 2, "presets": ["competition"],
//!             "time_controls": ["30+10", …], "bot_levels": ["beginner", …]}, …]}
//! ```

use qipai_protocol::GameKind;
use serde::Serialize;

use crate::draughts::DraughtsGame;
use crate::tuolaji::{TuolajiGame, TuolajiRules};
use crate::xiangqi::{XiangqiGame, XiangqiSettings};
use crate::Game;

/// One game as the catalogue lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// The game's kind (its wire name).
    pub game: GameKind,
    /// How many seats a table has.
    pub seats: u8,
    /// The named presets a table's `preset` may give, empty when the game has none.
    pub presets: &'static [&'static str],
    /// The time controls a lobby offers (any other valid one is accepted too), empty when
    /// the game has no clock.
    pub time_controls: &'static [&'static str],
    /// The server bots' levels (`bot_level`), lowest first, empty when the bots have none
    /// (their strength is then their think time).
    pub bot_levels: &'static [&'static str],
}

/// Every game, in [`GameKind::ALL`]'s order: one line per game.
pub const CATALOGUE: &[Listing] = &[
    Listing {
        game: GameKind::Xiangqi,
        seats: XiangqiGame::SEATS,
        presets: XiangqiSettings::PRESETS,
        time_controls: crate::xiangqi::options::TIME_CONTROLS,
        bot_levels: crate::xiangqi::BOT_LEVELS,
    },
    Listing {
        game: GameKind::Tuolaji,
        seats: TuolajiGame::SEATS,
        presets: TuolajiRules::PRESETS,
        time_controls: &[],
        bot_levels: crate::tuolaji::BOT_LEVELS,
    },
    Listing {
        game: GameKind::Draughts,
        seats: DraughtsGame::SEATS,
        presets: &[],
        time_controls: crate::draughts::options::TIME_CONTROLS,
        bot_levels: &[],
    },
];

/// The catalogue's entry for `game`.
pub fn listing(game: GameKind) -> Option<&'static Listing> {
    CATALOGUE.iter().find(|l| l.game == game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::time_control;

    /// Every game on the wire is listed once, in the wire's order.
    #[test]
    fn lists_every_game_in_order() {
        let games: Vec<GameKind> = CATALOGUE.iter().map(|l| l.game).collect();
        assert_eq!(games, GameKind::ALL);
    }

    /// Every time control a lobby offers is one the server accepts.
    #[test]
    fn offered_time_controls_are_valid() {
        for l in CATALOGUE {
            for tc in l.time_controls {
                assert!(time_control(tc).is_ok(), "{:?}: {tc}", l.game);
            }
        }
    }
}
