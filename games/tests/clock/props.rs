//! Properties of the clock over random controls and random games.

use proptest::prelude::*;
use qipai_games::clock::{Clock, Period, Press, TimeControl, TurnError, MAX_TIME_MS};

/// Any valid control: amounts in whole minutes, seconds or odd milliseconds, up to the limits.
pub fn valid_control() -> impl Strategy<Value = TimeControl> {
    let time = prop_oneof![
        (1..=1440u64).prop_map(super::min),
        (1..=86_400u64).prop_map(super::sec),
        1..=MAX_TIME_MS,
    ];
    let increment = prop_oneof![
        Just(0u64),
        (0..=60u64).prop_map(super::sec),
        0..=MAX_TIME_MS
    ];
    let period = (1..=1000u32, time.clone()).prop_map(|(moves, time_ms)| Period { moves, time_ms });
    prop_oneof![
        (time.clone(), increment).prop_map(|(base_ms, increment_ms)| TimeControl::Fischer {
            base_ms,
            increment_ms,
        }),
        prop::collection::vec(period, 1..=10).prop_map(|periods| TimeControl::Periods { periods }),
        time.prop_map(|base_ms| TimeControl::SuddenDeath { base_ms }),
    ]
}

/// A control small enough for a short random game to run out of time now and then.
fn playable_control() -> impl Strategy<Value = TimeControl> {
    let period = (1..=4u32, 1..=60_000u64).prop_map(|(moves, time_ms)| Period { moves, time_ms });
    prop_oneof![
        (1..=120_000u64, 0..=5_000u64).prop_map(|(base_ms, increment_ms)| TimeControl::Fischer {
            base_ms,
            increment_ms,
        }),
        prop::collection::vec(period, 1..=3).prop_map(|periods| TimeControl::Periods { periods }),
        (1..=120_000u64).prop_map(|base_ms| TimeControl::SuddenDeath { base_ms }),
    ]
}

/// One turn of a random game.
#[derive(Clone, Debug)]
struct Turn {
    /// The move is an untimed first move.
    free: bool,
    /// Time from start to the move's arrival.
    think_ms: u64,
    /// The lag the connection claims.
    lag_ms: u64,
    /// The room's timer fires at the arrival instant before the move is pressed.
    timer_first: bool,
    /// Instead of `think_ms`, the move arrives when its charge is exactly the time left.
    to_the_ms: bool,
}

fn turn() -> impl Strategy<Value = Turn> {
    (
        prop::bool::weighted(0.1),
        0..=30_000u64,
        0..=3_000u64,
        any::<bool>(),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(free, think_ms, lag_ms, timer_first, to_the_ms)| Turn {
            free,
            think_ms,
            lag_ms,
            timer_first,
            to_the_ms,
        })
}

/// The time a side has earned after `moves` moves, `timed` of them earning an increment (in time, or free first moves): the start,
/// one increment per timed move (Fischer), and one period's time per completed period (the
/// period boundaries are the running sums of the periods' moves, the last one repeating).
fn earned(control: &TimeControl, moves: u32, timed: u64) -> u64 {
    match control {
        TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => base_ms + increment_ms * timed,
        TimeControl::SuddenDeath { base_ms } => *base_ms,
        TimeControl::Periods { periods } => {
            let mut total = periods[0].time_ms;
            let mut boundary = 0u32;
            for k in 0.. {
                boundary += periods[k.min(periods.len() - 1)].moves;
                if boundary > moves {
                    break;
                }
                total += periods[(k + 1).min(periods.len() - 1)].time_ms;
            }
            total
        }
    }
}

/// What the test knows of one side.
#[derive(Clone, Copy, Debug, Default)]
struct Ledger {
    charged: u64,
    moves: u32,
    timed: u64,
    flagged: bool,
}

const MAX_LAG_MS: u64 = 1_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Over any game: time never goes negative or appears from nowhere (charged + remaining =
    /// start + increments + period times), a fallen flag stays fallen, the lag allowance is
    /// capped, and `flag_deadline` is exactly when `remaining` reaches zero.
    #[test]
    fn clock_keeps_its_books(control in playable_control(), turns in prop::collection::vec(turn(), 0..60)) {
        let mut clock = Clock::new(&control, MAX_LAG_MS);
        let mut ledger = [Ledger::default(); 2];
        let mut now = 1_000u64;
        let mut side = 0;
        for t in turns {
            if ledger[side].flagged {
                side = 1 - side;
            }
            if ledger[side].flagged {
                break;
            }
            if t.free {
                clock.free_move(side).unwrap();
                ledger[side].moves += 1;
                ledger[side].timed += 1;
            } else {
                clock.start(side, now).unwrap();
                let before = clock.remaining(side, now);
                let deadline = clock.flag_deadline().unwrap();
                prop_assert_eq!(deadline, now + before);
                prop_assert_eq!(clock.remaining(side, deadline), 0);
                prop_assert_eq!(clock.remaining(side, deadline - 1), 1);
                let allowance = t.lag_ms.min(MAX_LAG_MS);
                let think_ms = if t.to_the_ms { before + allowance } else { t.think_ms };
                let arrival = now + think_ms;
                let timer = if t.timer_first { clock.check_flag(arrival) } else { None };
                prop_assert_eq!(timer.is_some(), t.timer_first && arrival >= deadline);
                let charged = think_ms.saturating_sub(allowance);
                match clock.press(side, arrival, t.lag_ms) {
                    Err(TurnError::NotRunning { side: s }) => {
                        prop_assert!(timer.is_some() && s == side);
                        ledger[side].charged += before;
                        ledger[side].flagged = true;
                    }
                    Ok(Press::Flagged) => {
                        prop_assert!(charged >= before);
                        ledger[side].charged += before;
                        ledger[side].flagged = true;
                    }
                    Ok(Press::Ok { charged_ms, remaining_ms }) => {
                        prop_assert_eq!(charged_ms, charged);
                        prop_assert!(charged_ms < before);
                        ledger[side].charged += charged_ms;
                        ledger[side].moves += 1;
                        ledger[side].timed += 1;
                        prop_assert_eq!(remaining_ms, clock.remaining(side, u64::MAX));
                    }
                    Err(e) => prop_assert!(false, "unexpected {e}"),
                }
                now = arrival + 1;
            }
            prop_assert_eq!(clock.running(), None);
            for (s, l) in ledger.iter().enumerate() {
                let remaining = clock.remaining(s, now);
                prop_assert_eq!(clock.is_flagged(s), l.flagged);
                prop_assert_eq!(clock.moves(s), l.moves);
                prop_assert_eq!(l.charged + remaining, earned(&control, l.moves, l.timed));
                if l.flagged {
                    prop_assert_eq!(remaining, 0);
                    prop_assert_eq!(clock.start(s, now), Err(TurnError::Flagged { side: s }));
                    prop_assert_eq!(clock.free_move(s), Err(TurnError::Flagged { side: s }));
                } else {
                    prop_assert!(remaining > 0);
                }
            }
            side = 1 - side;
        }
    }

    /// The period count shown to players agrees with the boundaries of `earned`.
    #[test]
    fn period_moves_left_counts_down_to_the_next_period(
        control in playable_control(),
        n in 0..40u32,
    ) {
        let mut clock = Clock::new(&control, 0);
        for _ in 0..n {
            clock.free_move(0).unwrap();
        }
        match &control {
            TimeControl::Periods { .. } => {
                let left = clock.period_moves_left(0).unwrap();
                prop_assert!(left > 0);
                prop_assert_eq!(earned(&control, n + left - 1, 0), earned(&control, n, 0));
                prop_assert!(earned(&control, n + left, 0) > earned(&control, n, 0));
            }
            _ => prop_assert_eq!(clock.period_moves_left(0), None),
        }
    }
}
