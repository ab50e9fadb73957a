//! Team levels (级) and who deals next (第二条, 第八条).

use serde::{Deserialize, Serialize};

use crate::cards::Rank;
use crate::Seat;

/// One of the two partnerships: seats 0+2 and seats 1+3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Team {
    /// Seats 0 and 2.
    NorthSouth,
    /// Seats 1 and 3.
    EastWest,
}

impl Team {
    /// Both teams.
    pub const ALL: [Team; 2] = [Team::NorthSouth, Team::EastWest];

    /// The team `seat` plays for.
    pub const fn of(seat: Seat) -> Team {
        if seat.0 & 1 == 0 {
            Team::NorthSouth
        } else {
            Team::EastWest
        }
    }

    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::NorthSouth => Team::EastWest,
            Team::EastWest => Team::NorthSouth,
        }
    }

    /// The team as an index into per-team arrays.
    pub const fn index(self) -> usize {
        match self {
            Team::NorthSouth => 0,
            Team::EastWest => 1,
        }
    }
}

/// The seat after `seat` in play order (第九条1: counter-clockwise in the source).
pub const fn next_seat(seat: Seat) -> Seat {
    Seat((seat.0 + 1) % 4)
}

/// The partner sitting opposite `seat`.
pub const fn partner(seat: Seat) -> Seat {
    Seat((seat.0 + 2) % 4)
}

/// A team's level (级, 第二条): 2 up to A, and past A once the game is won. Stored as the
/// rank's number (2..=14), so 15 and above mean "past A".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Level(u8);

impl Level {
    /// 第八条1: every team starts at 2.
    pub const START: Level = Level(2);

    /// The level of a rank.
    pub const fn of(rank: Rank) -> Level {
        Level(rank as u8)
    }

    /// The level's rank (the 级牌 when this team deals), `None` once past A.
    pub fn rank(self) -> Option<Rank> {
        Rank::ALL.into_iter().find(|r| *r as u8 == self.0)
    }

    /// 第二条: the goal is to go past A.
    pub const fn is_past_ace(self) -> bool {
        self.0 > Rank::Ace as u8
    }

    /// The level `steps` higher (第二十条: each step is one level).
    pub const fn up(self, steps: u8) -> Level {
        Level(self.0.saturating_add(steps))
    }

    /// The level as a number, 2 for the start, 14 for A, above 14 past A.
    pub const fn number(self) -> u8 {
        self.0
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::START
    }
}

/// Both teams' levels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Levels([Level; 2]);

impl Levels {
    /// Levels set explicitly (e.g. to replay a position in tests).
    pub const fn new(north_south: Level, east_west: Level) -> Levels {
        Levels([north_south, east_west])
    }

    /// `team`'s level.
    pub const fn get(&self, team: Team) -> Level {
        self.0[team.index()]
    }

    /// `team` goes up `steps` levels.
    pub fn raise(&mut self, team: Team, steps: u8) {
        self.0[team.index()] = self.get(team).up(steps);
    }

    /// 第二条: the team that went past A, if any.
    pub fn winner(&self) -> Option<Team> {
        Team::ALL.into_iter().find(|t| self.get(*t).is_past_ace())
    }

    /// The level rank (级牌) of a hand dealt by `dealer`: the dealer's team's level. `None`
    /// once that team is past A (the game is over and no hand is dealt).
    pub fn level_rank(&self, dealer: Seat) -> Option<Rank> {
        self.get(Team::of(dealer)).rank()
    }
}

/// 第八条3: when the dealer's team went up, the dealer's partner deals next; when the
/// defenders went up, the seat after the dealer deals next.
pub const fn next_dealer(dealer: Seat, dealer_team_went_up: bool) -> Seat {
    if dealer_team_went_up {
        partner(dealer)
    } else {
        next_seat(dealer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 第二条: 2 up to A, then past A.
    #[test]
    fn levels_run_from_two_past_ace() {
        assert_eq!(Level::START.rank(), Some(Rank::Two));
        assert_eq!(Level::of(Rank::King).up(1).rank(), Some(Rank::Ace));
        assert!(!Level::of(Rank::Ace).is_past_ace());
        assert!(Level::of(Rank::Ace).up(1).is_past_ace());
        assert_eq!(Level::of(Rank::Ace).up(1).rank(), None);
    }

    #[test]
    fn teams_and_neighbours() {
        assert_eq!(Team::of(Seat(0)), Team::of(Seat(2)));
        assert_eq!(Team::of(Seat(1)), Team::of(Seat(3)));
        assert_eq!(Team::of(Seat(1)), Team::NorthSouth.other());
        assert_eq!(next_seat(Seat(3)), Seat(0));
        assert_eq!(partner(Seat(3)), Seat(1));
    }
}
