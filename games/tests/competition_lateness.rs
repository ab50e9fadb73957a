//! Lateness: Tuolaji 第十三条 and xiangqi 4.1.5, in started minutes.

use qipai_games::competition::lateness::{
    started_minutes, tuolaji_lateness, xiangqi_late_loses, TuolajiLateness,
};
use qipai_games::Millis;

/// 第十三条: "迟到：5分钟之内警告，记违例一次" — up to 5 minutes a warning and a violation.
#[test]
fn up_to_five_minutes_is_a_warning() {
    assert_eq!(tuolaji_lateness(0), TuolajiLateness::OnTime);
    for m in 1..=5 {
        assert_eq!(tuolaji_lateness(m), TuolajiLateness::Warning, "{m}");
    }
}

/// 第十三条: "6~10分钟，首盘扣20分；11~15分钟，首盘扣30分".
#[test]
fn six_to_fifteen_minutes_cost_first_hand_points() {
    for m in 6..=10 {
        assert_eq!(
            tuolaji_lateness(m),
            TuolajiLateness::FirstHandPenalty { points: 20 },
            "{m}"
        );
    }
    for m in 11..=15 {
        assert_eq!(
            tuolaji_lateness(m),
            TuolajiLateness::FirstHandPenalty { points: 30 },
            "{m}"
        );
    }
}

/// 第十三条: "16~20分钟，首盘自动放弃，对手自动升级；21分钟以上判全队该轮弃权".
#[test]
fn sixteen_minutes_on_forfeit_the_first_hand_then_the_round() {
    for m in 16..=20 {
        assert_eq!(
            tuolaji_lateness(m),
            TuolajiLateness::FirstHandForfeited,
            "{m}"
        );
    }
    for m in [21, 22, 60, 90, u64::MAX] {
        assert_eq!(tuolaji_lateness(m), TuolajiLateness::RoundForfeited, "{m}");
    }
}

/// Minutes are started minutes: 5 min 0 s is 5, 5 min 1 s is 6 (the band edges of 第十三条).
#[test]
fn minutes_are_started_minutes() {
    assert_eq!(started_minutes(Millis(0)), 0);
    assert_eq!(started_minutes(Millis(1)), 1);
    assert_eq!(started_minutes(Millis(300_000)), 5);
    assert_eq!(started_minutes(Millis(300_001)), 6);
    assert_eq!(
        tuolaji_lateness(started_minutes(Millis(300_001))),
        TuolajiLateness::FirstHandPenalty { points: 20 }
    );
}

/// 4.1.5: past the competition's limit (default 15 minutes) the absent player loses.
#[test]
fn xiangqi_limit_is_a_setting() {
    assert!(!xiangqi_late_loses(15, 15));
    assert!(xiangqi_late_loses(16, 15));
    assert!(!xiangqi_late_loses(25, 30));
    assert!(xiangqi_late_loses(1, 0));
}

/// 2.6: best of three, decided as soon as the rest cannot change it; a tie goes to an extra
/// game or lots.
#[test]
fn best_of_three_matches() {
    use qipai_games::competition::{best_of_three, GameResult::*, MatchState};
    assert_eq!(best_of_three(&[]), MatchState::Undecided);
    assert_eq!(best_of_three(&[FirstWins]), MatchState::Undecided);
    assert_eq!(
        best_of_three(&[FirstWins, FirstWins]),
        MatchState::Decided(FirstWins)
    );
    assert_eq!(
        best_of_three(&[FirstWins, SecondWins]),
        MatchState::Undecided
    );
    assert_eq!(
        best_of_three(&[Draw, SecondForfeits, Draw]),
        MatchState::Decided(FirstWins)
    );
    assert_eq!(
        best_of_three(&[FirstWins, Draw, SecondWins]),
        MatchState::Tied
    );
    assert_eq!(best_of_three(&[Draw, Draw, Draw]), MatchState::Tied);
}

/// Every refusal carries a stable protocol code of its own.
#[test]
fn refusals_have_distinct_codes() {
    use qipai_games::competition::CompetitionError as E;
    use qipai_games::Coded;
    let all = [
        E::AlreadyEntered {
            name: String::new(),
            team: String::new(),
        },
        E::WrongEntrySize {
            event: "",
            expected: 2,
            got: 1,
        },
        E::DuplicatePlayer {
            name: String::new(),
            team: String::new(),
        },
        E::NoRoundLeft { rounds: 4 },
        E::RoundUnfinished { round: 1, table: 1 },
        E::TooFewEntries,
        E::UnknownTable { round: 1, table: 1 },
        E::MissingReason,
    ];
    let codes: std::collections::HashSet<&str> = all.iter().map(|e| e.code().as_str()).collect();
    assert_eq!(codes.len(), all.len());
}
