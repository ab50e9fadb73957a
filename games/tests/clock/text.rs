//! The short text form: `30+10`, `5+0`, `sd:30`, `40/90,10/15`.

use proptest::prelude::*;
use qipai_games::clock::{ClockError, Part, Period, TimeControl, PRESET_NAMES};

use super::props::valid_control;
use super::{min, sec};

/// 五(二)2's `30+10` is minutes plus seconds; `5+0` is Fischer without increment; `sd:5` is
/// sudden death (6.5); `40/90,10/15` is 6.1's periods.
#[test]
fn reads_each_form() {
    let cases = [
        (
            "30+10",
            TimeControl::Fischer {
                base_ms: min(30),
                increment_ms: sec(10),
            },
        ),
        (
            "5+0",
            TimeControl::Fischer {
                base_ms: min(5),
                increment_ms: 0,
            },
        ),
        ("sd:5", TimeControl::SuddenDeath { base_ms: min(5) }),
        ("40/90,10/15", TimeControl::preset("6.1").unwrap()),
        (" 40/90, 10/15 ", TimeControl::preset("6.1").unwrap()),
        ("30/5", TimeControl::preset("6.4").unwrap()),
        ("sd:90s", TimeControl::SuddenDeath { base_ms: sec(90) }),
        (
            "1h+500ms",
            TimeControl::Fischer {
                base_ms: min(60),
                increment_ms: 500,
            },
        ),
        (
            "3m+1m",
            TimeControl::Fischer {
                base_ms: min(3),
                increment_ms: min(1),
            },
        ),
        (
            "20/1500ms",
            TimeControl::Periods {
                periods: vec![Period {
                    moves: 20,
                    time_ms: 1_500,
                }],
            },
        ),
    ];
    for (text, control) in cases {
        assert_eq!(TimeControl::parse(text), Ok(control.clone()), "{text}");
        assert_eq!(
            text.parse::<TimeControl>(),
            Ok(control),
            "{text} via FromStr"
        );
    }
}

/// `Display` writes the presets the way the rules page does.
#[test]
fn writes_the_presets() {
    let texts: Vec<String> = PRESET_NAMES
        .iter()
        .map(|name| TimeControl::preset(name).unwrap().to_string())
        .collect();
    assert_eq!(
        texts,
        [
            "40/90,10/15",
            "30/60,10/10",
            "40/10,30/5",
            "30/5",
            "sd:30",
            "30+10"
        ]
    );
    let odd = TimeControl::Fischer {
        base_ms: sec(90),
        increment_ms: 1_500,
    };
    assert_eq!(odd.to_string(), "90s+1500ms");
}

/// Text that is not a control, or a control that cannot be played, is refused.
#[test]
fn refuses_malformed_text() {
    let bad_amount = |text: &str| ClockError::BadAmount { text: text.into() };
    let malformed = |text: &str| ClockError::Malformed { text: text.into() };
    let cases = [
        ("", ClockError::Empty),
        ("   ", ClockError::Empty),
        ("30", malformed("30")),
        ("fast", malformed("fast")),
        ("30+", malformed("30+")),
        ("+10", malformed("+10")),
        ("30+10+5", bad_amount("10+5")),
        ("-5+0", bad_amount("-5")),
        ("3 0+10", bad_amount("3 0")),
        ("30x+10", bad_amount("30x")),
        ("1.5+0", bad_amount("1.5")),
        ("sd:", malformed("sd:")),
        ("99999999999999999999+0", bad_amount("99999999999999999999")),
        ("999999999999999h+0", bad_amount("999999999999999h")),
        ("40/90,", malformed("40/90,")),
        ("40/", malformed("40/")),
        ("/90", malformed("/90")),
        ("x/90", ClockError::BadMoves { text: "x".into() }),
        ("40/90/3", bad_amount("90/3")),
        ("0+10", ClockError::ZeroTime { part: Part::Base }),
        ("1441+0", ClockError::TooLong { part: Part::Base }),
        ("sd:0", ClockError::ZeroTime { part: Part::Base }),
        ("0/5", ClockError::ZeroMoves { period: 1 }),
        (
            "40/90,10/0",
            ClockError::ZeroTime {
                part: Part::Period(2),
            },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(TimeControl::parse(text), Err(error), "{text:?}");
    }
}

proptest! {
    /// Every valid control reads back as itself.
    #[test]
    fn display_then_parse_round_trips(control in valid_control()) {
        prop_assert_eq!(TimeControl::parse(&control.to_string()), Ok(control));
    }

    /// Any text gives a control or an error, never a panic; a control it gives is valid.
    #[test]
    fn parse_never_panics(text in "\\PC{0,24}|[0-9sdmh:+/, ]{0,16}") {
        if let Ok(control) = TimeControl::parse(&text) {
            prop_assert_eq!(control.validate(), Ok(()));
        }
    }
}
