//! The timed xiangqi game through the `Game` trait, in memory: the clock and the flag's
//! edges that a room's timer can race.

use qipai_games::clock::TimeControl;
use qipai_games::xiangqi::{XiangqiGame, XiangqiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat};
use qipai_protocol::xiangqi::{EndReason, GameResult, Side, XiangqiAction, XiangqiEvent};

fn game(control: &str, first_move_ms: u64) -> XiangqiGame {
    let settings = XiangqiSettings {
        time_control: TimeControl::parse(control).unwrap(),
        first_move_ms,
        max_lag_ms: 500,
        ..XiangqiSettings::default()
    };
    let mut g = XiangqiGame::new(&settings, 0);
    g.start(Millis(0));
    g
}

fn act(g: &mut XiangqiGame, seat: u8, action: XiangqiAction, at: u64) -> Vec<Emit<XiangqiEvent>> {
    g.apply(Seat(seat), action, Received::at(Millis(at)))
        .unwrap()
}

fn mv(iccs: &str) -> XiangqiAction {
    XiangqiAction::Move { iccs: iccs.into() }
}

fn result(events: &[Emit<XiangqiEvent>]) -> Option<GameResult> {
    events.iter().find_map(|e| match e {
        Emit::All(XiangqiEvent::Over { result, .. }) => Some(*result),
        _ => None,
    })
}

/// A side whose time ran out cannot accept a standing draw offer while the flag timer waits
/// out the lag cap: the flag falls first (4.1.4).
#[test]
fn an_out_of_time_side_cannot_escape_into_a_draw() {
    let mut g = game("sd:1s", 30_000);
    act(&mut g, 0, mv("h2e2"), 10);
    act(&mut g, 1, mv("h9g7"), 20);
    act(&mut g, 1, XiangqiAction::OfferDraw, 30);
    assert_eq!(
        g.deadline(),
        Some(Millis(20 + 1000 + 500)),
        "flag checked after the lag cap"
    );
    let events = act(&mut g, 0, XiangqiAction::AcceptDraw, 1100);
    assert_eq!(
        result(&events),
        Some(GameResult {
            winner: Some(Side::Black),
            reason: EndReason::TimeForfeit
        })
    );
}

/// Within its time, the same acceptance draws.
#[test]
fn in_time_the_draw_stands() {
    let mut g = game("sd:1s", 30_000);
    act(&mut g, 0, mv("h2e2"), 10);
    act(&mut g, 1, mv("h9g7"), 20);
    act(&mut g, 1, XiangqiAction::OfferDraw, 30);
    let events = act(&mut g, 0, XiangqiAction::AcceptDraw, 900);
    assert_eq!(
        result(&events).map(|r| r.reason),
        Some(EndReason::Agreement)
    );
}

/// A first move that arrives after `first_move_ms` aborts the game even if the room's timer
/// has not fired yet.
#[test]
fn a_late_first_move_aborts() {
    let mut g = game("30+10", 100);
    let events = act(&mut g, 0, mv("h2e2"), 150);
    assert_eq!(
        result(&events),
        Some(GameResult {
            winner: None,
            reason: EndReason::Aborted
        })
    );
    assert!(g.is_over());
}

/// A move received after the clock reached zero, but within its own lag allowance, counts.
#[test]
fn a_move_in_flight_beats_the_flag() {
    let mut g = game("sd:1s", 30_000);
    act(&mut g, 0, mv("h2e2"), 10);
    act(&mut g, 1, mv("h9g7"), 20);
    let late = g
        .apply(
            Seat(0),
            mv("h0g2"),
            Received {
                at: Millis(1100),
                lag: Millis(200),
            },
        )
        .unwrap();
    assert_eq!(result(&late), None, "charged 1080 − 200 = 880 ms of 1000");
    assert!(!g.is_over());
}

/// The side to move's legal moves go to that side's seat only, in the events and in the
/// view; the other seat and spectators get an empty list (nothing they could use), and once
/// the game is over nobody gets any.
#[test]
fn only_the_side_to_move_gets_its_legal_moves() {
    use qipai_games::Viewer;
    let legal = |e: &XiangqiEvent| match e {
        XiangqiEvent::Started { legal_moves, .. } | XiangqiEvent::Moved { legal_moves, .. } => {
            legal_moves.len()
        }
        _ => usize::MAX,
    };
    let settings = XiangqiSettings::default();
    let mut g = XiangqiGame::new(&settings, 0);
    match g.start(Millis(0)).as_slice() {
        [Emit::Split { seat, own, others }] => {
            assert_eq!((*seat, legal(own), legal(others)), (Seat(0), 44, 0));
        }
        other => panic!("started should be split for Red: {other:?}"),
    }
    match act(&mut g, 0, mv("h2e2"), 10).as_slice() {
        [Emit::Split { seat, own, others }] => {
            assert_eq!((*seat, legal(own), legal(others)), (Seat(1), 45, 0));
        }
        other => panic!("moved should be split for Black: {other:?}"),
    }
    let now = Millis(20);
    assert_eq!(g.view(Viewer::Seat(Seat(1)), now).legal_moves.len(), 45);
    assert!(g.view(Viewer::Seat(Seat(0)), now).legal_moves.is_empty());
    assert!(g.view(Viewer::Spectator, now).legal_moves.is_empty());
    act(&mut g, 1, XiangqiAction::Resign, 30);
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert!(g.view(viewer, Millis(40)).legal_moves.is_empty());
    }
}
