//! Golden tests for the defenders' points and 表2 (第二十条), the throw penalty (第十六条)
//! and the bottom bonus (第十二条3).

use qipai_games::tuolaji::scoring::{bottom_bonus, DefendersScore, LevelChange};

fn change(points: i32) -> LevelChange {
    LevelChange::from_points(points)
}

/// 第二十条 表2: each row's both ends, on the defenders' side.
#[test]
fn defenders_rows_of_table_2() {
    let rows = [
        (120, 145, 1),
        (150, 175, 2),
        (180, 205, 3),
        (210, 235, 4),
        (240, 265, 5),
        (270, 295, 6),
        (300, 325, 7),
    ];
    for (low, high, up) in rows {
        assert_eq!(change(low), LevelChange::Defenders(up), "P = {low}");
        assert_eq!(change(high), LevelChange::Defenders(up), "P = {high}");
    }
}

/// 第二十条 表2: each row's both ends, on the dealer's side, incl. the negative row.
#[test]
fn dealer_rows_of_table_2() {
    let rows = [
        (90, 115, 1),
        (60, 85, 2),
        (30, 55, 3),
        (0, 25, 4),
        (-25, -5, 5),
    ];
    for (low, high, up) in rows {
        assert_eq!(change(low), LevelChange::Dealer(up), "P = {low}");
        assert_eq!(change(high), LevelChange::Dealer(up), "P = {high}");
    }
}

/// 第二十条: 115 is the dealer's first level, 120 the defenders' first.
#[test]
fn the_line_is_between_115_and_120() {
    assert_eq!(change(115), LevelChange::Dealer(1));
    assert_eq!(change(120), LevelChange::Defenders(1));
    assert!(change(115).dealer_went_up());
    assert!(!change(120).dealer_went_up());
}

/// 第二十条: −25 → dealer up ceil(145 / 30) = 5.
#[test]
fn minus_25_gives_the_dealer_five() {
    assert_eq!(change(-25), LevelChange::Dealer(5));
}

/// 第二十条: 325 → defenders up 1 + floor(205 / 30) = 7.
#[test]
fn three_hundred_twenty_five_gives_the_defenders_seven() {
    assert_eq!(change(325), LevelChange::Defenders(7));
}

/// 第二十条: 0 → dealer up 4; 145 → defenders 1; 150 → 2; 295 → 6; 300 → 7.
#[test]
fn single_points_of_the_brief() {
    assert_eq!(change(0), LevelChange::Dealer(4));
    assert_eq!(change(145), LevelChange::Defenders(1));
    assert_eq!(change(150), LevelChange::Defenders(2));
    assert_eq!(change(295), LevelChange::Defenders(6));
    assert_eq!(change(300), LevelChange::Defenders(7));
}

/// 第二十条 "以后每多30分": the table goes on past its last rows in both directions.
#[test]
fn table_goes_on_past_its_rows() {
    assert_eq!(change(-30), LevelChange::Dealer(5));
    assert_eq!(change(-35), LevelChange::Dealer(6));
    assert_eq!(change(330), LevelChange::Defenders(8));
    assert_eq!(change(i32::MIN).steps(), u8::MAX);
}

/// 第十六条: a failed throw by the dealer's side gives the defenders 20; by a defender,
/// costs them 20 — and P may go negative.
#[test]
fn throw_penalties_go_to_the_other_side() {
    let mut score = DefendersScore::default();
    score.add_throw_penalty(20, false);
    assert_eq!(score.total(), 20);
    score.add_throw_penalty(20, true);
    score.add_throw_penalty(20, true);
    assert_eq!(score.total(), -20);
    assert_eq!(change(score.total()), LevelChange::Dealer(5));
}

/// 第十二条3 表1: the bottom's points times the multiplier count for the defenders.
#[test]
fn bottom_bonus_multiplies() {
    assert_eq!(bottom_bonus(25, 2), 50);
    let score = DefendersScore {
        trick_points: 100,
        penalty_points: -20,
        bottom_points: bottom_bonus(25, 3),
    };
    assert_eq!(score.total(), 155);
    assert_eq!(change(score.total()), LevelChange::Defenders(2));
}
