//! Answering a draw offer: a bot that ignored offers let them lapse only when it moved, and
//! a person waiting on an answer never got one. Every duel bot now answers at once, from a
//! short search of the position (its own evaluation, not the level's randomness).
//!
//! It accepts when it stands clearly worse (it would rather draw than lose), or when the
//! position is level and the game already long (neither side is making progress); it
//! declines otherwise. The scores are the searches' own units: a xiangqi pawn and a
//! draughts man are both 100.

/// Search nodes spent on an answer: a few milliseconds, whatever the bot's level.
pub const ANSWER_NODES: u64 = 20_000;

/// Clearly worse: a pawn and a half (a man and a half) down, or more.
const WORSE: i32 = -150;

/// Level: within a third of a pawn either way.
const LEVEL: i32 = 30;

/// Long: forty moves by each side.
const LONG_GAME_PLIES: usize = 80;

/// Whether the bot accepts a draw, given its evaluation of the position from its own side
/// and the plies played so far.
pub fn accepts(own_score: i32, plies: usize) -> bool {
    own_score <= WORSE || (own_score.abs() <= LEVEL && plies >= LONG_GAME_PLIES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worse_accepts_better_declines() {
        assert!(accepts(-400, 10));
        assert!(accepts(-150, 10));
        assert!(!accepts(-149, 10));
        assert!(!accepts(250, 200));
    }

    #[test]
    fn level_accepts_only_in_a_long_game() {
        assert!(!accepts(0, 20));
        assert!(accepts(0, 80));
        assert!(accepts(-30, 120));
        assert!(!accepts(31, 120));
    }
}
