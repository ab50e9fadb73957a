//! The timed draughts game the room drives: bad input refused with stable codes and nothing
//! changed, the clock's flag, resignation, and whole games to a result.

use qipai_games::clock::TimeControl;
use qipai_games::draughts::{
    DraughtsAction, DraughtsGame, DraughtsSettings, EndReason, Position, Side, Status,
};
use qipai_games::{Coded, Game, Millis, Received, Seat, Viewer};

fn game_from(fen: &str) -> DraughtsGame {
    let settings = DraughtsSettings {
        start: Position::from_fen(fen).unwrap(),
        ..DraughtsSettings::default()
    };
    let mut game = DraughtsGame::new(&settings, 0);
    game.start(Millis(0));
    game
}

fn play(notation: &str) -> DraughtsAction {
    DraughtsAction::Move {
        notation: notation.to_string(),
    }
}

/// The four refusals the issue names, through the game, each with its code and no change.
#[test]
fn bad_moves_are_refused_with_stable_codes() {
    let cases = [
        ("W:W32,34:B27,17,29", "34x23", "majority_capture"),
        ("W:W32,34:B27,17,29", "32-28", "capture_required"),
        ("W:W32,34:B27,17,29", "32x21", "capture_incomplete"),
        ("W:W28:B1", "28-33", "man_backward"),
        ("W:W28:B1", "28-22x", "bad_notation"),
        ("W:W28:B1", "1-7", "illegal_move"),
    ];
    for (fen, notation, code) in cases {
        let mut game = game_from(fen);
        let before = game.view(Viewer::Seat(Seat(0)), Millis(100));
        let error = game
            .apply(Seat(0), play(notation), Received::at(Millis(100)))
            .unwrap_err();
        assert_eq!(error.code().as_str(), code, "{fen} {notation}");
        assert_eq!(game.view(Viewer::Seat(Seat(0)), Millis(100)), before);
    }
    let mut game = game_from("W:W28:B1");
    let error = game
        .apply(Seat(1), play("1-7"), Received::at(Millis(1)))
        .unwrap_err();
    assert_eq!(error.code().as_str(), "not_your_turn");
}

/// The view marks the pieces that must capture (6.1; a page highlights them) for everybody;
/// the legal moves go to the side to move's seat only.
#[test]
fn view_marks_the_capturing_pieces() {
    let game = game_from("W:W32,34:B27,17,29");
    let view = game.view(Viewer::Seat(Seat(0)), Millis(0));
    assert_eq!(view.to_move.legal_moves, ["32x21x12"]);
    assert_eq!(view.to_move.must_capture, [32]);
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        let view = game.view(viewer, Millis(0));
        assert!(view.to_move.legal_moves.is_empty(), "{viewer:?}");
        assert_eq!(view.to_move.must_capture, [32], "{viewer:?}");
    }
}

/// The flag falls on the server's deadline: the side whose time ran out loses.
#[test]
fn flag_falls_on_the_deadline() {
    let settings = DraughtsSettings {
        time_control: TimeControl::SuddenDeath { base_ms: 1_000 },
        ..DraughtsSettings::default()
    };
    let mut game = DraughtsGame::new(&settings, 0);
    game.start(Millis(0));
    game.apply(Seat(0), play("32-28"), Received::at(Millis(10)))
        .unwrap();
    game.apply(Seat(1), play("19-23"), Received::at(Millis(20)))
        .unwrap();
    game.apply(Seat(0), play("28x19"), Received::at(Millis(30)))
        .unwrap();
    // Black's clock runs from 30 ms; it has 1 s, and the flag waits out the lag cap.
    let deadline = game.deadline().unwrap();
    assert_eq!(deadline, Millis(30 + 1_000 + settings.max_lag_ms));
    game.on_deadline(deadline);
    let view = game.view(Viewer::Spectator, deadline);
    assert_eq!(view.status, Status::Over);
    let result = view.result.unwrap();
    assert_eq!(result.winner, Some(Side::White));
    assert_eq!(result.reason, EndReason::TimeForfeit);
}

/// Resigning ends the game; nothing is accepted afterwards.
#[test]
fn resignation_ends_the_game() {
    let mut game = game_from("W:W28:B1");
    game.apply(Seat(1), DraughtsAction::Resign, Received::at(Millis(5)))
        .unwrap();
    assert!(game.is_over());
    let error = game
        .apply(Seat(0), play("28-22"), Received::at(Millis(6)))
        .unwrap_err();
    assert_eq!(error.code().as_str(), "game_over");
}

/// Whole games between two players taking the first listed move end with a result.
#[test]
fn whole_games_end() {
    let mut game = DraughtsGame::new(&DraughtsSettings::default(), 0);
    game.start(Millis(0));
    for ply in 0..1_000u64 {
        let view = game.view(Viewer::Spectator, Millis(ply * 10));
        if view.status == Status::Over {
            let result = view.result.unwrap();
            assert_ne!(result.reason, EndReason::TimeForfeit);
            return;
        }
        let seat = Seat(view.side_to_move.index() as u8);
        let view = game.view(Viewer::Seat(seat), Millis(ply * 10));
        let pick = (ply as usize * 7) % view.to_move.legal_moves.len();
        let notation = view.to_move.legal_moves[pick].clone();
        game.apply(seat, play(&notation), Received::at(Millis(ply * 10 + 5)))
            .unwrap();
    }
    panic!("no result in 1,000 plies");
}
