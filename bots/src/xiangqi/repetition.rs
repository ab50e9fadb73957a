//! Repetition as the search sees it (第4条4.1.7 长将, 4.2.3 不变作和): the positions since the
//! last capture, each with whether the move into it gave check, and the judgement of a
//! cycle the moment a position comes back.
//!
//! `History` judges at the third occurrence, over every move since the first one. The search
//! judges already at the second, over the moves since the previous occurrence: the line
//! would go on repeating, and the same side would be checking throughout. That is stricter
//! for the checker (a cycle of checks is a loss at once), which is the safe side.

use qipai_games::xiangqi::{History, Position};

use super::tt::Zobrist;

/// A position of the game or of the search path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trail {
    /// The position's Zobrist key (side to move included).
    pub key: u64,
    /// Whether the move that led here gave check.
    pub check: bool,
    /// Whether the move that led here captured (earlier positions can never come back).
    pub capture: bool,
}

/// The verdict on a cycle, for the side to move in the repeated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cycle {
    /// The opponent checked with every move of the cycle and the side to move did not.
    MoverWins,
    /// The side to move checked with every one of its moves and the opponent did not.
    MoverLoses,
    /// Both or neither checked throughout: 不变作和.
    Draw,
}

/// Judges the last position of `trail` if it stood before since the last capture (same
/// side to move): `None` when it is new.
pub fn judge(trail: &[Trail]) -> Option<Cycle> {
    let now = trail.last()?;
    let n = trail.len();
    let mut found = None;
    for i in (0..n.saturating_sub(1)).rev() {
        // A capture led to position i + 1: nothing before it can stand again.
        if trail.get(i + 1).is_none_or(|t| t.capture) {
            break;
        }
        if (n - 1 - i) & 1 == 0 && trail.get(i).is_some_and(|t| t.key == now.key) {
            found = Some(i);
            break;
        }
    }
    // The moves into positions first+1 ..= n-1; the last was made by the side not to move.
    let cycle = trail.get(found? + 1..)?;
    let always_checks = |parity: usize| {
        cycle
            .iter()
            .enumerate()
            .filter(|(k, _)| (cycle.len() - 1 - k) & 1 == parity)
            .all(|(_, t)| t.check)
    };
    Some(match (always_checks(0), always_checks(1)) {
        (true, false) => Cycle::MoverWins,
        (false, true) => Cycle::MoverLoses,
        _ => Cycle::Draw,
    })
}

/// The game's positions since its last capture (the last one is the current position).
pub fn trail(history: &History) -> Vec<Trail> {
    let mut position: Position = history.start().clone();
    let mut trail = vec![Trail {
        key: Zobrist::position(&position),
        check: position.in_check(),
        capture: true,
    }];
    for played in history.moves() {
        position.make(played.mv);
        if played.capture {
            trail.clear();
        }
        trail.push(Trail {
            key: Zobrist::position(&position),
            check: played.check,
            capture: played.capture,
        });
    }
    trail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(key: u64, check: bool) -> Trail {
        Trail {
            key,
            check,
            capture: false,
        }
    }

    /// A B C D A: the side that moved into A (and into C) checked every time, the other
    /// never: the side to move in A wins (4.1.7).
    #[test]
    fn perpetual_checker_loses() {
        let trail = [
            t(1, false),
            t(2, false),
            t(3, true),
            t(4, false),
            t(1, true),
        ];
        assert_eq!(judge(&trail), Some(Cycle::MoverWins));
        let trail = [
            t(1, false),
            t(2, true),
            t(3, false),
            t(4, true),
            t(1, false),
        ];
        assert_eq!(judge(&trail), Some(Cycle::MoverLoses));
    }

    /// Both checking, or nobody: a draw (4.2.3).
    #[test]
    fn mutual_or_no_checks_draw() {
        let trail = [t(1, false), t(2, true), t(3, true), t(4, true), t(1, true)];
        assert_eq!(judge(&trail), Some(Cycle::Draw));
        let trail = [
            t(1, false),
            t(2, false),
            t(3, false),
            t(4, false),
            t(1, false),
        ];
        assert_eq!(judge(&trail), Some(Cycle::Draw));
    }

    /// A capture in between, or the same board with the other side to move, is no repetition.
    #[test]
    fn captures_and_parity_break_cycles() {
        let mut trail = [
            t(1, false),
            t(2, false),
            t(3, false),
            t(4, false),
            t(1, false),
        ];
        trail[2].capture = true;
        assert_eq!(judge(&trail), None);
        // Three plies apart: the same board, but the other side to move.
        let odd = [t(1, false), t(2, false), t(3, false), t(1, false)];
        assert_eq!(judge(&odd), None);
        assert_eq!(judge(&[t(1, false)]), None);
    }
}
