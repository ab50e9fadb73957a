//! The competition's Fischer clock (五(二)2: 30 minutes each, 10 s per move, flag fall loses)
//! and the online behaviour the rules page asks for (lag, free first moves, server timer).

use qipai_games::clock::{Clock, Press, TimeControl, TurnError};

use super::{min, sec};

/// A 30+10 clock with a 500 ms lag cap, red's time running from `t0`.
fn competition(t0: u64) -> Clock {
    let mut clock = Clock::new(&TimeControl::default(), 500);
    clock.start(0, t0).unwrap();
    clock
}

/// 五(二)2: the increment is added after the move, to the time left.
#[test]
fn increment_is_added_after_the_move() {
    let mut clock = competition(1_000);
    let press = clock.press(0, 1_000 + sec(25), 0).unwrap();
    assert_eq!(
        press,
        Press::Ok {
            charged_ms: sec(25),
            remaining_ms: min(30) - sec(25) + sec(10),
        }
    );
    assert_eq!(clock.running(), None);
    assert_eq!(clock.moves(0), 1);
    assert_eq!(
        clock.remaining(1, 99_999_999),
        min(30),
        "black's time did not run"
    );
}

/// 五(二)2 超时判负: using exactly all of one's time is a flag fall, and no increment saves it.
#[test]
fn flag_falls_exactly_at_zero() {
    let mut clock = competition(0);
    assert_eq!(clock.press(0, min(30), 0), Ok(Press::Flagged));
    assert!(clock.is_flagged(0));
    assert_eq!(clock.remaining(0, min(60)), 0);
    assert_eq!(clock.moves(0), 0, "the late move does not count");
    assert_eq!(clock.running(), None);
    assert_eq!(clock.start(0, min(31)), Err(TurnError::Flagged { side: 0 }));
    assert_eq!(clock.free_move(0), Err(TurnError::Flagged { side: 0 }));
}

/// 五(二)2: one millisecond before zero the move is in time and earns its increment.
#[test]
fn one_millisecond_left_is_in_time() {
    let mut clock = competition(0);
    assert_eq!(
        clock.press(0, min(30) - 1, 0),
        Ok(Press::Ok {
            charged_ms: min(30) - 1,
            remaining_ms: 1 + sec(10),
        })
    );
    assert!(!clock.is_flagged(0));
}

/// Clocks **[D]**: the lag allowance is subtracted, but never more than the cap per move.
#[test]
fn lag_allowance_is_capped() {
    let mut clock = competition(0);
    let press = clock.press(0, sec(10), 300).unwrap();
    assert_eq!(
        press,
        Press::Ok {
            charged_ms: sec(10) - 300,
            remaining_ms: min(30) - sec(10) + 300 + sec(10),
        }
    );
    clock.start(1, sec(20)).unwrap();
    let press = clock.press(1, sec(30), sec(4)).unwrap();
    assert_eq!(
        press,
        Press::Ok {
            charged_ms: sec(10) - 500,
            remaining_ms: min(30) + 500,
        },
        "a 4 s lag claim is cut to the 500 ms cap"
    );
}

/// Clocks **[D]**: a lag larger than the thinking time, or a move stamped before the start,
/// charges nothing rather than giving time back.
#[test]
fn charged_time_is_never_negative() {
    let mut clock = competition(10_000);
    assert_eq!(
        clock.press(0, 10_200, 400),
        Ok(Press::Ok {
            charged_ms: 0,
            remaining_ms: min(30) + sec(10),
        })
    );
    clock.start(1, 20_000).unwrap();
    assert_eq!(
        clock.press(1, 19_000, 0),
        Ok(Press::Ok {
            charged_ms: 0,
            remaining_ms: min(30) + sec(10),
        })
    );
}

/// Clocks **[D]**: the clock does not run before each side's first move; those moves count
/// and, 五(二)2 (每步加10秒: every move adds 10 s), earn their increment.
#[test]
fn first_moves_are_free() {
    let mut clock = Clock::new(&TimeControl::default(), 500);
    clock.free_move(0).unwrap();
    clock.free_move(1).unwrap();
    assert_eq!((clock.moves(0), clock.moves(1)), (1, 1));
    assert_eq!(clock.remaining(0, min(5)), min(30) + sec(10));
    assert_eq!(clock.remaining(1, min(5)), min(30) + sec(10));
    assert_eq!(clock.running(), None);
    clock.start(0, min(5)).unwrap();
    assert_eq!(
        clock.press(0, min(5) + sec(3), 0),
        Ok(Press::Ok {
            charged_ms: sec(3),
            remaining_ms: min(30) + sec(10) + sec(7),
        })
    );
    assert_eq!(clock.moves(0), 2);
}

/// Clocks **[D]**: the server's own timer makes the flag fall at the deadline, with no message
/// from the player.
#[test]
fn timer_flags_at_the_deadline() {
    let mut clock = competition(7_000);
    let deadline = clock.flag_deadline().unwrap();
    assert_eq!(deadline, 7_000 + min(30));
    assert_eq!(clock.remaining(0, deadline - 1), 1);
    assert_eq!(clock.check_flag(deadline - 1), None);
    assert_eq!(clock.running(), Some(0));
    assert_eq!(clock.check_flag(deadline), Some(0));
    assert!(clock.is_flagged(0));
    assert_eq!(clock.flag_deadline(), None);
    assert_eq!(
        clock.press(0, deadline, 0),
        Err(TurnError::NotRunning { side: 0 })
    );
}

/// Clocks **[D]**: a room that waits out the lag cap before its timer fires lets a move
/// already on its way arrive in time.
#[test]
fn a_move_in_flight_beats_a_patient_timer() {
    let mut clock = competition(0);
    let deadline = clock.flag_deadline().unwrap();
    let press = clock.press(0, deadline + 200, 400).unwrap();
    assert_eq!(
        press,
        Press::Ok {
            charged_ms: min(30) - 200,
            remaining_ms: 200 + sec(10),
        }
    );
    assert_eq!(clock.check_flag(deadline + 500), None, "nothing is running");
}

/// A game that ends otherwise charges the side on move what it used and stops the clock.
#[test]
fn stop_charges_the_running_side() {
    let mut clock = competition(0);
    clock.stop(sec(12));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(0, min(99)), min(30) - sec(12));
    assert!(!clock.is_flagged(0));
    assert_eq!(clock.moves(0), 0);
    clock.stop(min(99));
    assert_eq!(
        clock.remaining(0, min(99)),
        min(30) - sec(12),
        "stopping twice changes nothing"
    );
}

/// A game stopped after the running side's time ran out records its flag fall.
#[test]
fn stop_after_the_deadline_is_a_flag_fall() {
    let mut clock = competition(0);
    clock.stop(min(31));
    assert_eq!(clock.remaining(0, min(31)), 0);
    assert!(clock.is_flagged(0));
}

/// Driving the clock out of turn is refused, and changes nothing.
#[test]
fn misuse_is_an_error_not_a_panic() {
    let mut clock = competition(0);
    let before = clock.clone();
    assert_eq!(
        clock.press(1, sec(1), 0),
        Err(TurnError::NotRunning { side: 1 })
    );
    assert_eq!(
        clock.press(2, sec(1), 0),
        Err(TurnError::NotRunning { side: 2 })
    );
    assert_eq!(
        clock.start(1, sec(1)),
        Err(TurnError::AlreadyRunning { side: 0 })
    );
    assert_eq!(
        clock.start(0, sec(1)),
        Err(TurnError::AlreadyRunning { side: 0 })
    );
    assert_eq!(
        clock.start(2, sec(1)),
        Err(TurnError::NoSuchSide { side: 2 })
    );
    assert_eq!(
        clock.free_move(0),
        Err(TurnError::AlreadyRunning { side: 0 })
    );
    assert_eq!(clock.free_move(5), Err(TurnError::NoSuchSide { side: 5 }));
    assert_eq!(clock, before);
    assert_eq!(clock.remaining(2, 0), 0);
    assert!(!clock.is_flagged(2));
    assert_eq!(clock.moves(2), 0);
    assert_eq!(clock.period_moves_left(0), None, "Fischer has no periods");
}

/// Rules page, "Clocks" **[D]**: time runs from the moment the position leaves the server.
/// A move made at 1 000 and stored by 1 060 starts the next side's time at 1 060: the
/// commit is charged to nobody, and a later send does not move the start again.
#[test]
fn time_runs_from_the_send_not_the_move() {
    let mut clock = competition(1_000);
    assert_eq!(clock.flag_deadline(), Some(1_000 + min(30)));
    assert!(clock.sent(1_060));
    assert_eq!(
        clock.remaining(0, 1_060),
        min(30),
        "nothing charged before the send"
    );
    assert_eq!(clock.flag_deadline(), Some(1_060 + min(30)));
    assert!(!clock.sent(5_000));
    assert_eq!(
        clock.remaining(0, 5_000),
        min(30) - 3_940,
        "only the first send after the start counts"
    );
    let press = clock.press(0, 1_060 + sec(25), 0).unwrap();
    assert_eq!(
        press,
        Press::Ok {
            charged_ms: sec(25),
            remaining_ms: min(30) - sec(25) + sec(10),
        }
    );
    clock.start(1, 2_000).unwrap();
    assert!(!clock.sent(1_500));
    assert_eq!(
        clock.flag_deadline(),
        Some(2_000 + min(30)),
        "never earlier"
    );
}
