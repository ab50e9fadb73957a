//! The defenders' points of a hand and what they mean for the levels (第七条, 第十二条3,
//! 第十六条, 第二十条 表2).

use serde::{Deserialize, Serialize};

/// 第二十条: 120 points is the line between the dealer's team and the defenders going up.
pub const GOING_UP_LINE: i32 = 120;

/// 第二十条: every 30 points more (or less) is one more level.
pub const POINTS_PER_LEVEL: i32 = 30;

/// What the defenders scored in one hand: point cards in the tricks they won, throw
/// penalties, and the bottom when they won the last trick (抠底). May end negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefendersScore {
    /// 第七条: point cards in tricks won by the defenders.
    pub trick_points: u32,
    /// 第十六条: failed-throw penalties, + when the dealer's side threw, − when a defender did.
    pub penalty_points: i32,
    /// 第十二条3: the bottom's points × the last trick's multiplier, when the defenders won
    /// the last trick; 0 otherwise.
    pub bottom_points: u32,
}

impl DefendersScore {
    /// P of 表2: everything together.
    pub fn total(&self) -> i32 {
        let tricks = i32::try_from(self.trick_points).unwrap_or(i32::MAX);
        let bottom = i32::try_from(self.bottom_points).unwrap_or(i32::MAX);
        tricks
            .saturating_add(bottom)
            .saturating_add(self.penalty_points)
    }

    /// 第十六条: a failed throw by a dealer-side player is `penalty` in the defenders'
    /// favour; by a defender, `penalty` against them.
    pub fn add_throw_penalty(&mut self, penalty: u32, thrower_is_defender: bool) {
        self.add_penalty(penalty, thrower_is_defender);
    }

    /// `penalty` points taken from a side (第十六条, 第十三条): from the defenders' score
    /// when `against_defenders`, else added to it (taken from the dealer's side).
    pub fn add_penalty(&mut self, penalty: u32, against_defenders: bool) {
        let p = i32::try_from(penalty).unwrap_or(i32::MAX);
        self.penalty_points = if against_defenders {
            self.penalty_points.saturating_sub(p)
        } else {
            self.penalty_points.saturating_add(p)
        };
    }
}

/// 第十二条3 表1: the bottom's points counted for the defenders when they win the last
/// trick with a lead whose multiplier is `multiplier`.
pub const fn bottom_bonus(bottom_points: u32, multiplier: u32) -> u32 {
    bottom_points.saturating_mul(multiplier)
}

/// Who goes up after a hand, and by how many levels (表2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "team", content = "levels", rename_all = "snake_case")]
pub enum LevelChange {
    /// Defenders under 120: the dealer's team goes up this many levels.
    Dealer(u8),
    /// Defenders at 120 or more: they go up this many levels.
    Defenders(u8),
}

impl LevelChange {
    /// 第二十条 表2 as a function of the defenders' points P (which may be negative):
    /// P ≥ 120: defenders up `1 + floor((P − 120) / 30)`; P < 120: dealer up
    /// `ceil((120 − P) / 30)`.
    pub fn from_points(points: i32) -> LevelChange {
        let p = i64::from(points);
        let line = i64::from(GOING_UP_LINE);
        let per = i64::from(POINTS_PER_LEVEL);
        let steps = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
        if p >= line {
            LevelChange::Defenders(steps(1 + (p - line) / per))
        } else {
            LevelChange::Dealer(steps((line - p + per - 1) / per))
        }
    }

    /// Whether the dealer's team went up (第八条3 uses this to choose the next dealer).
    pub const fn dealer_went_up(self) -> bool {
        matches!(self, LevelChange::Dealer(_))
    }

    /// How many levels the team goes up.
    pub const fn steps(self) -> u8 {
        match self {
            LevelChange::Dealer(n) | LevelChange::Defenders(n) => n,
        }
    }
}
