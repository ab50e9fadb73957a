//! A xiangqi table of a competition (`XiangqiRuling::CompetitionTable`; 4.1.5 and
//! tournaments.md "The day itself"): nothing is aborted. A side that leaves before its
//! first move may sit down again, and the table waits for it until the lateness limit; a
//! side that has not made its first move once the limit (and its first-move time) has
//! passed is absent and loses. A casual table still aborts.

use qipai_games::xiangqi::{XiangqiGame, XiangqiRuling, XiangqiSettings};
use qipai_games::{Game, Millis, Seat};

const RED: Seat = Seat(0);
const BLACK: Seat = Seat(1);

/// A table whose first move is due 50 ms after the turn comes; a competition's when
/// `limit_in` is given (ruled at 0, started at 10).
fn table(limit_in: Option<u64>) -> XiangqiGame {
    let settings = XiangqiSettings {
        first_move_ms: 50,
        ..XiangqiSettings::competition()
    };
    let mut g = XiangqiGame::new(&settings, 0);
    if let Some(ms) = limit_in {
        let ruling = XiangqiRuling::CompetitionTable {
            limit_in: Millis(ms),
        };
        assert!(g.rule(ruling, Millis(0)).is_empty());
    }
    g.start(Millis(10));
    g
}

#[test]
fn a_casual_table_aborts_when_a_side_leaves_before_its_first_move() {
    let mut g = table(None);
    g.forfeit(RED, Millis(20));
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.reason, "aborted");
    assert!(!g.can_reseat(RED));
}

#[test]
fn a_competition_table_waits_for_a_side_that_left_before_its_first_move() {
    let mut g = table(Some(1_000));
    assert!(g.forfeit(RED, Millis(20)).is_empty());
    assert!(!g.is_over(), "nothing is aborted");
    assert!(g.can_reseat(RED), "the side may come back");
    // Its first move is due at the limit, not 50 ms after the start.
    assert_eq!(g.deadline(), Some(Millis(1_000)));
    assert!(g.on_deadline(Millis(999)).is_empty());
    assert!(!g.is_over());
    // The limit passes with Red absent: Red loses, Black wins.
    g.on_deadline(Millis(1_000));
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(outcome.reason, "abandoned");
}

#[test]
fn after_the_limit_a_first_move_is_due_in_the_first_move_time() {
    let mut g = table(Some(100));
    let mv = qipai_protocol::xiangqi::XiangqiAction::Move {
        iccs: "h2e2".into(),
    };
    g.apply(RED, mv, qipai_games::Received::at(Millis(90)))
        .expect("a legal move");
    // Black's turn came at 90: due at the limit (100) or 50 ms later, whichever is later.
    assert_eq!(g.deadline(), Some(Millis(140)));
    assert!(!g.can_reseat(RED), "Red has moved: leaving now loses");
    g.forfeit(BLACK, Millis(100));
    assert!(
        !g.is_over(),
        "Black left before its first move: the table waits"
    );
    g.on_deadline(Millis(140));
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, vec![0], "Black, absent, loses");
}

#[test]
fn the_ruling_is_logged_by_name() {
    let ruling = XiangqiRuling::CompetitionTable {
        limit_in: Millis(5),
    };
    let json = serde_json::to_value(ruling).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"ruling":"competition_table","limit_in":5})
    );
}
