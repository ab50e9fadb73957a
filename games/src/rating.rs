//! Ratings: how strong a player is at one game, moved by each rated game's outcome.
//!
//! - The two-seat games (xiangqi, draughts) use Glicko-2, as lichess does: a rating, its
//!   deviation (how sure we are: 350 for a newcomer, shrinking as games are played) and a
//!   volatility. Each game is its own rating period, so a rating moves after every game.
//! - Tuolaji is played by pairs, so it uses Weng-Lin (a Bradley-Terry model in the
//!   TrueSkill family): each partner is rated against the opposing pair, with the two
//!   partners' ratings summed as their team's. Its own scale (mu 25, sigma 25/3) is
//!   multiplied by [`WENG_LIN_SCALE`] so that a Tuolaji rating reads like a chess one
//!   (1500 ± 500 for a newcomer); the model is unchanged by the scale.
//! - A result is the [`Outcome`] every game tells: its winning seats, or none for a draw.
//!   A game without result (`no_result`: aborted, or everybody left) is never rated, nor is
//!   a Tuolaji match the winners of which are not one whole pair.
//! - A server bot of a measured level plays at a fixed rating ([`bot_rating`], its measured
//!   strength, docs/bots.md) that its games never change; a bot level that was never
//!   measured makes its table unrated.
//!
//! Pure arithmetic, no clock: the caller stores the ratings and decides which tables count.

use qipai_protocol::{GameKind, Outcome};
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

/// Weng-Lin's scale (mu 25) times this reads like Glicko's (1500).
pub const WENG_LIN_SCALE: f64 = 60.0;

/// A rating is provisional while its deviation is above this (lichess's mark: the rating
/// is still a guess, shown with a "?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// One player's rating at one game, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating itself (1500 for a newcomer).
    pub rating: f64,
    /// How uncertain it is, on the rating's own scale: Glicko-2's deviation, or Weng-Lin's
    /// sigma times [`WENG_LIN_SCALE`].
    pub deviation: f64,
    /// Glicko-2's volatility (how erratic the player's results are); unused by Weng-Lin.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
}

impl Rating {
    /// A newcomer's rating at `game`.
    pub fn newcomer(game: GameKind) -> Rating {
        match System::of(game) {
            System::Glicko2 => Rating::from_glicko(Glicko2Rating::new(), 0),
            System::WengLin => Rating::from_weng_lin(WengLinRating::new(), 0),
        }
    }

    /// Whether the rating is still a guess (few games, or none for a long time).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(r: Glicko2Rating, games: u32) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games,
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.rating / WENG_LIN_SCALE,
            uncertainty: self.deviation / WENG_LIN_SCALE,
        }
    }

    fn from_weng_lin(r: WengLinRating, games: u32) -> Rating {
        Rating {
            rating: r.rating * WENG_LIN_SCALE,
            deviation: r.uncertainty * WENG_LIN_SCALE,
            volatility: 0.0,
            games,
        }
    }
}

/// The rating model a game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// One player against one: xiangqi, draughts.
    Glicko2,
    /// Two pairs: Tuolaji.
    WengLin,
}

impl System {
    /// The model `game` is rated by.
    pub fn of(game: GameKind) -> System {
        match game {
            GameKind::Tuolaji => System::WengLin,
            _ => System::Glicko2,
        }
    }
}

/// Who sits in a seat of a rated table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rated {
    /// A signed-in player, with their rating at this game before it.
    Player(Rating),
    /// A server bot of a measured level: rated at its fixed rating, never changed.
    Bot(Rating),
}

impl Rated {
    fn rating(&self) -> Rating {
        match self {
            Rated::Player(r) | Rated::Bot(r) => *r,
        }
    }
}

/// Why a finished table changes no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// The game ended without result (aborted, everybody left).
    NoResult,
    /// The seats do not fit the game (two for a duel, four for Tuolaji).
    Seats,
    /// A Tuolaji outcome whose winners are not one whole pair (seats 0+2 or 1+3).
    NotAPair,
}

/// The ratings after a finished table, seat by seat: `Some` for a player's new rating,
/// `None` for a bot's seat (unchanged).
///
/// # Errors
/// [`Unrated`] when the table does not count.
pub fn rate(
    game: GameKind,
    seats: &[Rated],
    outcome: &Outcome,
) -> Result<Vec<Option<Rating>>, Unrated> {
    if outcome.no_result {
        return Err(Unrated::NoResult);
    }
    let new = match (System::of(game), seats) {
        (System::Glicko2, [a, b]) => {
            let result = match outcome.winners.as_slice() {
                [] => Outcomes::DRAW,
                [0] => Outcomes::WIN,
                [1] => Outcomes::LOSS,
                _ => return Err(Unrated::Seats),
            };
            let (ra, rb) = glicko2(
                &a.rating().glicko(),
                &b.rating().glicko(),
                &result,
                &Glicko2Config::new(),
            );
            vec![
                Rating::from_glicko(ra, a.rating().games + 1),
                Rating::from_glicko(rb, b.rating().games + 1),
            ]
        }
        (System::WengLin, [s0, s1, s2, s3]) => {
            let result = match outcome.winners.as_slice() {
                [] => Outcomes::DRAW,
                [0, 2] => Outcomes::WIN,
                [1, 3] => Outcomes::LOSS,
                _ => return Err(Unrated::NotAPair),
            };
            let even = [s0.rating().weng_lin(), s2.rating().weng_lin()];
            let odd = [s1.rating().weng_lin(), s3.rating().weng_lin()];
            let (even, odd) = weng_lin_two_teams(&even, &odd, &result, &weng_lin_config());
            let (&[e0, e2], &[o1, o3]) = (even.as_slice(), odd.as_slice()) else {
                return Err(Unrated::Seats);
            };
            vec![
                Rating::from_weng_lin(e0, s0.rating().games + 1),
                Rating::from_weng_lin(o1, s1.rating().games + 1),
                Rating::from_weng_lin(e2, s2.rating().games + 1),
                Rating::from_weng_lin(o3, s3.rating().games + 1),
            ]
        }
        _ => return Err(Unrated::Seats),
    };
    Ok(seats
        .iter()
        .zip(new)
        .map(|(seat, rating)| match seat {
            Rated::Player(_) => Some(rating),
            Rated::Bot(_) => None,
        })
        .collect())
}

/// Weng-Lin's defaults: the scale does not change the model, only the numbers.
fn weng_lin_config() -> WengLinConfig {
    WengLinConfig::new()
}

/// The fixed rating of a server bot of `level` at `game` (docs/ratings.md, "Bots"): xiangqi's
/// from the level's measured `UCI_Elo` equivalent (docs/bots.md, "Bot levels"); Tuolaji's
/// from the levels' measured team win rates against each other, read through this model
/// with the beginner put at 1000. `None` for a level never measured (xiangqi's `master`,
/// whose strength is "the whole think time"; draughts' bots, which have no levels): such
/// bots may not sit at a rated table.
pub fn bot_rating(game: GameKind, level: &str) -> Option<Rating> {
    let measured = match (game, level) {
        (GameKind::Xiangqi, "beginner") => 860.0,
        (GameKind::Xiangqi, "casual") => 1297.0,
        (GameKind::Xiangqi, "club") => 1783.0,
        (GameKind::Xiangqi, "expert") => 2235.0,
        (GameKind::Tuolaji, "beginner") => 1000.0,
        (GameKind::Tuolaji, "casual") => 2300.0,
        (GameKind::Tuolaji, "expert") => 2750.0,
        _ => return None,
    };
    Some(Rating {
        rating: measured,
        // The calibration's 95 % intervals are about ±150: two deviations.
        deviation: 75.0,
        volatility: Glicko2Rating::new().volatility,
        games: 0,
    })
}

/// The fixed rating of the server's bots at a table of `game` naming `level` (or none:
/// Tuolaji's bots then play `expert`, xiangqi's at full strength, which was never measured).
pub fn table_bot_rating(game: GameKind, level: Option<&str>) -> Option<Rating> {
    match (game, level) {
        (_, Some(level)) => bot_rating(game, level),
        (GameKind::Tuolaji, None) => bot_rating(game, "expert"),
        (_, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn player(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
            games: 0,
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system", glicko2.pdf): a 1500
    /// (RD 200) player who beats a 1400 (30), loses to a 1550 (100) and to a 1700 (300) in
    /// one period ends at 1464.06, RD 151.52, volatility 0.05999. The crate this module
    /// rates with must give the paper's figures.
    #[test]
    fn glicko2_matches_glickmans_example() {
        let me = player(1500.0, 200.0).glicko();
        let results = [
            (player(1400.0, 30.0).glicko(), Outcomes::WIN),
            (player(1550.0, 100.0).glicko(), Outcomes::LOSS),
            (player(1700.0, 300.0).glicko(), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&me, &results, &Glicko2Config::new());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    fn won_by(winners: &[u8]) -> Outcome {
        Outcome {
            winners: winners.to_vec(),
            reason: "checkmate".into(),
            no_result: false,
        }
    }

    /// One game is one period: the winner of two newcomers gains what the loser loses, and
    /// both become surer.
    #[test]
    fn a_duel_moves_both_ratings() {
        let new = Rating::newcomer(GameKind::Xiangqi);
        let after = rate(
            GameKind::Xiangqi,
            &[Rated::Player(new), Rated::Player(new)],
            &won_by(&[1]),
        )
        .unwrap();
        let (red, black) = (after[0].unwrap(), after[1].unwrap());
        assert!(black.rating > 1500.0 && red.rating < 1500.0);
        assert!((black.rating - 1500.0 - (1500.0 - red.rating)).abs() < 1e-9);
        assert!(black.deviation < 350.0 && black.games == 1);
        assert!(black.provisional());
    }

    /// A bot's seat keeps its rating; beating a stronger bot gains more than a weaker one.
    #[test]
    fn bots_are_fixed_and_weigh_by_level() {
        let new = Rating::newcomer(GameKind::Xiangqi);
        let gain = |level| {
            let bot = bot_rating(GameKind::Xiangqi, level).unwrap();
            let after = rate(
                GameKind::Xiangqi,
                &[Rated::Player(new), Rated::Bot(bot)],
                &won_by(&[0]),
            )
            .unwrap();
            assert_eq!(after[1], None);
            after[0].unwrap().rating - new.rating
        };
        assert!(gain("expert") > gain("casual"));
        assert_eq!(bot_rating(GameKind::Xiangqi, "master"), None);
        assert_eq!(bot_rating(GameKind::Draughts, "expert"), None);
        assert_eq!(table_bot_rating(GameKind::Xiangqi, None), None);
        assert!(table_bot_rating(GameKind::Tuolaji, None).is_some());
    }

    /// Tuolaji: the winning pair both gain, the losing pair both lose; a draw between equal
    /// pairs changes no rating; winners that are not a pair, and aborted games, do not count.
    #[test]
    fn pairs_are_rated_as_teams() {
        let new = Rated::Player(Rating::newcomer(GameKind::Tuolaji));
        let after = rate(GameKind::Tuolaji, &[new; 4], &won_by(&[1, 3])).unwrap();
        let r: Vec<f64> = after.iter().map(|r| r.unwrap().rating).collect();
        assert!(r[1] > 1500.0 && r[3] > 1500.0 && r[0] < 1500.0 && r[2] < 1500.0);
        assert!((r[1] - r[3]).abs() < 1e-9);
        let draw = rate(GameKind::Tuolaji, &[new; 4], &won_by(&[])).unwrap();
        assert!(draw
            .iter()
            .all(|r| (r.unwrap().rating - 1500.0).abs() < 1e-9));
        assert_eq!(
            rate(GameKind::Tuolaji, &[new; 4], &won_by(&[0, 1])),
            Err(Unrated::NotAPair)
        );
        let aborted = Outcome::duel(None, "aborted", true);
        assert_eq!(
            rate(GameKind::Xiangqi, &[new; 2], &aborted),
            Err(Unrated::NoResult)
        );
        assert_eq!(
            rate(GameKind::Xiangqi, &[new; 4], &won_by(&[0])),
            Err(Unrated::Seats)
        );
    }
}
