//! Period controls (第6条 6.1–6.4) and sudden death (6.5, 包干).

use qipai_games::clock::{Clock, Press, TimeControl};

use super::{min, sec};

/// A clock for `preset` with no lag cap, and the time now on the room's line.
fn clock(preset: &str) -> (Clock, u64) {
    (Clock::new(&TimeControl::preset(preset).unwrap(), 0), 0)
}

/// Makes `n` moves for red, each taking `think` ms, and returns the last press.
fn moves(clock: &mut Clock, now: &mut u64, n: u32, think: u64) -> Press {
    let mut last = Press::Flagged;
    for _ in 0..n {
        clock.start(0, *now).unwrap();
        *now += think;
        last = clock.press(0, *now, 0).unwrap();
    }
    last
}

/// 6.1: 40 moves in 90 minutes; the 15 minutes for the next 10 moves are added to what is
/// left, and that period repeats until the game ends.
#[test]
fn p6_1_unused_time_carries_over_and_the_last_period_repeats() {
    let (mut clock, mut now) = clock("6.1");
    assert_eq!(clock.period_moves_left(0), Some(40));
    moves(&mut clock, &mut now, 39, min(1));
    assert_eq!(clock.remaining(0, now), min(51));
    assert_eq!(clock.period_moves_left(0), Some(1));
    let press = moves(&mut clock, &mut now, 1, min(1));
    assert_eq!(
        press,
        Press::Ok {
            charged_ms: min(1),
            remaining_ms: min(50 + 15),
        }
    );
    assert_eq!(clock.period_moves_left(0), Some(10));
    moves(&mut clock, &mut now, 10, min(1));
    assert_eq!(clock.remaining(0, now), min(55 + 15));
    assert_eq!(
        clock.period_moves_left(0),
        Some(10),
        "10 moves in 15 minutes again"
    );
    moves(&mut clock, &mut now, 10, min(2));
    assert_eq!(clock.remaining(0, now), min(50 + 15));
    assert_eq!(clock.moves(0), 60);
}

/// 6.1: the flag falls when the 90 minutes run out before the 40th move, even on that move.
#[test]
fn p6_1_flag_falls_if_the_period_is_not_completed_in_time() {
    let (mut clock, mut now) = clock("6.1");
    moves(&mut clock, &mut now, 39, min(2));
    assert_eq!(clock.remaining(0, now), min(12));
    assert_eq!(moves(&mut clock, &mut now, 1, min(12)), Press::Flagged);
    assert!(clock.is_flagged(0));
    assert_eq!(clock.remaining(0, now), 0);
    assert_eq!(clock.moves(0), 39);
}

/// 6.2: 30 moves in 60 minutes, then 10 moves in every 10 minutes.
#[test]
fn p6_2_thirty_moves_in_sixty_minutes_then_ten_in_ten() {
    let (mut clock, mut now) = clock("6.2");
    assert_eq!(clock.period_moves_left(0), Some(30));
    moves(&mut clock, &mut now, 30, min(1));
    assert_eq!(clock.remaining(0, now), min(30 + 10));
    assert_eq!(clock.period_moves_left(0), Some(10));
    moves(&mut clock, &mut now, 10, min(1));
    assert_eq!(clock.remaining(0, now), min(30 + 10));
}

/// 6.3 (rapid): 40 moves in 10 minutes, then 30 moves in every 5 minutes.
#[test]
fn p6_3_rapid_forty_in_ten_then_thirty_in_five() {
    let (mut clock, mut now) = clock("6.3");
    moves(&mut clock, &mut now, 40, sec(10));
    assert_eq!(clock.remaining(0, now), sec(200) + min(5));
    assert_eq!(clock.period_moves_left(0), Some(30));
    moves(&mut clock, &mut now, 30, sec(10));
    assert_eq!(clock.remaining(0, now), sec(200) + min(5));
    assert_eq!(clock.period_moves_left(0), Some(30));
}

/// 6.4 (rapid): 30 moves in every 5 minutes; the seconds saved are kept.
#[test]
fn p6_4_thirty_in_five_repeated_with_carry_over() {
    let (mut clock, mut now) = clock("6.4");
    moves(&mut clock, &mut now, 30, sec(9));
    assert_eq!(clock.remaining(0, now), sec(30) + min(5));
    moves(&mut clock, &mut now, 30, sec(10));
    assert_eq!(clock.remaining(0, now), sec(30) + min(5));
    moves(&mut clock, &mut now, 29, sec(11));
    assert_eq!(clock.remaining(0, now), sec(11));
    assert_eq!(
        moves(&mut clock, &mut now, 1, sec(11)),
        Press::Flagged,
        "exactly zero"
    );
}

/// 6.4 with Clocks **[D]**: the untimed first move counts toward the period.
#[test]
fn p6_4_free_first_move_counts_toward_the_period() {
    let (mut clock, mut now) = clock("6.4");
    clock.free_move(0).unwrap();
    assert_eq!(clock.period_moves_left(0), Some(29));
    moves(&mut clock, &mut now, 29, sec(10));
    assert_eq!(clock.remaining(0, now), sec(10) + min(5));
    assert_eq!(clock.period_moves_left(0), Some(30));
}

/// 6.5 (包干): one budget, no move count and no increment; the first to run out loses.
#[test]
fn p6_5_sudden_death_has_one_budget() {
    let (mut clock, mut now) = clock("6.5");
    assert_eq!(clock.period_moves_left(0), None);
    moves(&mut clock, &mut now, 100, sec(17));
    assert_eq!(clock.remaining(0, now), min(30) - sec(1_700));
    clock.start(0, now).unwrap();
    assert_eq!(clock.flag_deadline(), Some(now + sec(100)));
    assert_eq!(clock.check_flag(now + sec(100)), Some(0));
    assert!(clock.is_flagged(0));
    assert!(!clock.is_flagged(1));
}
