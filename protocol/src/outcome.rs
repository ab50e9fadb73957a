//! How a finished game ended, in the one shape every game tells it: the winning seats and
//! the reason. Records, competitions, bots and the page read this instead of reading each
//! game's own result type (a duel's `result`, Tuolaji's `outcome`).
//!
//! # Format
//! ```text
//! {"winners": [0], "reason": "checkmate"}
//! {"winners": [1, 3], "reason": "past_ace"}
//! {"winners": [], "reason": "repetition"}
//! {"winners": [], "reason": "aborted", "no_result": true}
//! ```

use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seats, lowest first: a duel's one seat, a Tuolaji team's two (0+2 or
    /// 1+3); empty for a draw or a game without result.
    pub winners: Vec<u8>,
    /// Why it ended: the game's own end reason as its wire name (`"checkmate"`,
    /// `"time_forfeit"`, `"past_ace"`, …).
    pub reason: String,
    /// The game ended without a result (aborted before it counted, a table everybody
    /// left): neither a win nor a draw. Left out when `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_result: bool,
}

impl Outcome {
    /// A two-seat game's outcome: `winner` the winning seat (0 or 1), `None` for a draw or
    /// no result.
    pub fn duel(winner: Option<u8>, reason: &str, no_result: bool) -> Outcome {
        Outcome {
            winners: winner.into_iter().collect(),
            reason: reason.to_owned(),
            no_result,
        }
    }

    /// Whether `seat` is among the winners.
    pub fn won(&self, seat: u8) -> bool {
        self.winners.contains(&seat)
    }
}

/// A game's view that tells how the game ended; [`crate::View::outcome`] asks any game's.
pub trait HasOutcome {
    /// How the game ended; `None` while it is not over.
    fn outcome(&self) -> Option<Outcome>;
}

/// A boxed view (Tuolaji's, large) tells what the view tells.
impl<V: HasOutcome> HasOutcome for Box<V> {
    fn outcome(&self) -> Option<Outcome> {
        V::outcome(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{draughts, tuolaji, xiangqi};

    /// What serde writes for `value`, as a string.
    fn wire_name<T: Serialize>(value: &T) -> String {
        let bytes = rmp_serde::to_vec(value).unwrap();
        rmp_serde::from_slice(&bytes).unwrap()
    }

    /// An outcome's reason is the end reason's wire name, for every reason of every game.
    #[test]
    fn reasons_are_wire_names() {
        for r in xiangqi::EndReason::ALL {
            assert_eq!(r.name(), wire_name(&r));
        }
        for r in draughts::EndReason::ALL {
            assert_eq!(r.name(), wire_name(&r));
        }
        use tuolaji::EndReason as T;
        for r in [T::PastAce, T::RoundTime, T::Forfeit, T::Abandoned] {
            assert_eq!(r.name(), wire_name(&r));
        }
    }

    /// Each game's own result reads as winning seats: Black is seat 1, a Tuolaji team its
    /// two seats, an aborted or abandoned table no result.
    #[test]
    fn each_game_tells_winning_seats() {
        let xq = xiangqi::GameResult {
            winner: Some(xiangqi::Side::Black),
            reason: xiangqi::EndReason::Checkmate,
        };
        assert_eq!(xq.outcome(), Outcome::duel(Some(1), "checkmate", false));
        let aborted = draughts::GameResult {
            winner: None,
            reason: draughts::EndReason::Aborted,
        };
        assert_eq!(aborted.outcome(), Outcome::duel(None, "aborted", true));
        let tl = tuolaji::Outcome {
            winner: Some(1),
            reason: tuolaji::EndReason::PastAce,
            round_points: [0, 2],
            levels: [5, 15],
        };
        let told = tl.told();
        assert_eq!(told.winners, [1, 3]);
        assert!(told.won(3) && !told.won(0) && !told.no_result);
    }

    /// `no_result` is left out of the encoding unless set, so a decided outcome keeps the
    /// two fields records have always stored.
    #[test]
    fn no_result_is_left_out_when_false() {
        let decided = rmp_serde::to_vec_named(&Outcome::duel(Some(0), "resignation", false));
        let void = rmp_serde::to_vec_named(&Outcome::duel(None, "aborted", true));
        let (decided, void) = (decided.unwrap(), void.unwrap());
        assert!(!decided.windows(9).any(|w| w == b"no_result"));
        assert!(void.windows(9).any(|w| w == b"no_result"));
    }
}
