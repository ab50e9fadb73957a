//! Presets, validation and the serde shapes of a time control.

use qipai_games::clock::{ClockError, Part, Period, TimeControl, PRESET_NAMES};
use qipai_games::Coded;
use qipai_protocol::ErrorCode;

use super::{min, sec};

fn periods(list: &[(u32, u64)]) -> TimeControl {
    TimeControl::Periods {
        periods: list
            .iter()
            .map(|&(moves, time_ms)| Period { moves, time_ms })
            .collect(),
    }
}

/// 第6条 6.1–6.5 and 五(二)2, as the Chinese source states them. 6.2 is 30 moves in 60
/// minutes (第一时限，每方在60分钟内必须走满30着), then 10 moves in 10 minutes.
#[test]
fn presets_are_the_rules_controls() {
    let want = [
        ("6.1", periods(&[(40, min(90)), (10, min(15))])),
        ("6.2", periods(&[(30, min(60)), (10, min(10))])),
        ("6.3", periods(&[(40, min(10)), (30, min(5))])),
        ("6.4", periods(&[(30, min(5))])),
        ("6.5", TimeControl::SuddenDeath { base_ms: min(30) }),
        (
            "competition",
            TimeControl::Fischer {
                base_ms: min(30),
                increment_ms: sec(10),
            },
        ),
    ];
    for (name, control) in want {
        assert_eq!(TimeControl::preset(name), Ok(control.clone()), "{name}");
        assert_eq!(control.validate(), Ok(()), "{name}");
    }
    assert_eq!(PRESET_NAMES.len(), 6);
    assert_eq!(
        TimeControl::default(),
        TimeControl::preset("competition").unwrap()
    );
    assert_eq!(
        TimeControl::preset("6.6"),
        Err(ClockError::UnknownPreset { name: "6.6".into() })
    );
}

/// Controls that cannot be played are refused with the reason, as `bad_options`.
#[test]
fn validation_refuses_unplayable_controls() {
    let day = min(24 * 60);
    let fischer = |base_ms, increment_ms| TimeControl::Fischer {
        base_ms,
        increment_ms,
    };
    let cases = [
        (
            fischer(0, sec(10)),
            ClockError::ZeroTime { part: Part::Base },
        ),
        (
            fischer(day + 1, 0),
            ClockError::TooLong { part: Part::Base },
        ),
        (
            fischer(min(5), day + 1),
            ClockError::TooLong {
                part: Part::Increment,
            },
        ),
        (
            TimeControl::SuddenDeath { base_ms: 0 },
            ClockError::ZeroTime { part: Part::Base },
        ),
        (periods(&[]), ClockError::NoPeriods),
        (
            periods(&[(40, min(90)), (0, min(15))]),
            ClockError::ZeroMoves { period: 2 },
        ),
        (
            periods(&[(40, min(90)), (10, 0)]),
            ClockError::ZeroTime {
                part: Part::Period(2),
            },
        ),
        (
            periods(&[(1001, min(90))]),
            ClockError::TooManyMoves { period: 1 },
        ),
        (
            periods(&[(1, min(1)); 11]),
            ClockError::TooManyPeriods { count: 11 },
        ),
    ];
    for (control, error) in cases {
        assert_eq!(control.validate(), Err(error.clone()), "{control:?}");
        assert_eq!(error.code(), ErrorCode::BadOptions);
    }
    assert_eq!(fischer(min(5), 0).validate(), Ok(()), "5+0 is allowed");
    assert_eq!(
        fischer(day, day).validate(),
        Ok(()),
        "24 hours is the limit"
    );
}

/// Error messages are sentences a player can act on.
#[test]
fn errors_read_as_sentences() {
    let error = ClockError::ZeroTime {
        part: Part::Period(2),
    };
    assert_eq!(
        error.to_string(),
        "The time control gives zero for the time of period 2; it must be more than zero."
    );
}

/// The wire and config shapes: a map tagged with `kind`, in JSON, MessagePack and TOML.
#[test]
fn serde_shapes() {
    let json = serde_json::to_value(TimeControl::preset("6.1").unwrap()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "kind": "periods",
            "periods": [
                {"moves": 40, "time_ms": 5_400_000},
                {"moves": 10, "time_ms": 900_000},
            ],
        })
    );
    let json = serde_json::to_value(TimeControl::default()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"kind": "fischer", "base_ms": 1_800_000, "increment_ms": 10_000})
    );
    let json = serde_json::to_value(TimeControl::SuddenDeath { base_ms: 60_000 }).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"kind": "sudden_death", "base_ms": 60_000})
    );

    for name in PRESET_NAMES {
        let control = TimeControl::preset(name).unwrap();
        let bytes = rmp_serde::to_vec_named(&control).unwrap();
        let back: TimeControl = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, control, "{name} through MessagePack");
    }

    #[derive(serde::Deserialize)]
    struct Config {
        time_control: TimeControl,
    }
    let config: Config = toml::from_str(
        "[time_control]\nkind = \"periods\"\nperiods = [{ moves = 30, time_ms = 300000 }]\n",
    )
    .unwrap();
    assert_eq!(config.time_control, TimeControl::preset("6.4").unwrap());
}
