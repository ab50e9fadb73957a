//! Golden tests for team levels and dealer rotation (第二条, 第八条).

use qipai_games::cards::Rank;
use qipai_games::tuolaji::level::{next_dealer, Level, Levels, Team};
use qipai_games::Seat;

/// 第八条3: the dealer's team went up → the dealer's partner deals next.
#[test]
fn dealer_team_up_partner_deals() {
    for s in 0..4 {
        assert_eq!(next_dealer(Seat(s), true), Seat((s + 2) % 4));
    }
}

/// 第八条3: the defenders went up → the seat after the dealer deals next.
#[test]
fn defenders_up_next_seat_deals() {
    for s in 0..4 {
        assert_eq!(next_dealer(Seat(s), false), Seat((s + 1) % 4));
    }
}

/// 第八条1, 第二条: both teams start at 2; the level rank is the dealer's team's level.
#[test]
fn level_rank_is_the_dealers_team_level() {
    let mut levels = Levels::default();
    assert_eq!(levels.level_rank(Seat(1)), Some(Rank::Two));
    levels.raise(Team::EastWest, 3);
    assert_eq!(levels.level_rank(Seat(3)), Some(Rank::Five));
    assert_eq!(levels.level_rank(Seat(0)), Some(Rank::Two));
}

/// 第二条: going past A wins; reaching A does not.
#[test]
fn past_ace_wins() {
    let mut levels = Levels::new(Level::of(Rank::Queen), Level::of(Rank::Two));
    levels.raise(Team::NorthSouth, 2);
    assert_eq!(levels.get(Team::NorthSouth).rank(), Some(Rank::Ace));
    assert_eq!(levels.winner(), None);
    levels.raise(Team::NorthSouth, 1);
    assert_eq!(levels.winner(), Some(Team::NorthSouth));
    assert_eq!(levels.level_rank(Seat(2)), None);
}

/// 第二条: a jump of several levels past A also wins (表2 may give up to 7 and more).
#[test]
fn a_big_jump_past_ace_wins() {
    let mut levels = Levels::new(Level::of(Rank::Two), Level::of(Rank::Ten));
    levels.raise(Team::EastWest, 7);
    assert!(levels.get(Team::EastWest).is_past_ace());
    assert_eq!(levels.winner(), Some(Team::EastWest));
}
