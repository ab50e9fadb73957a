//! The fold property over random scripts of draughts games: folding the events from the
//! first view gives the game's view at every step; also a refusal changes nothing and the
//! same script replays to the same events.

use proptest::prelude::*;
use qipai_games::draughts::{
    fold, DraughtsAction, DraughtsEvent, DraughtsGame, DraughtsSettings, DraughtsView,
};
use qipai_games::{Coded, Emit, Game, Millis, Received, Seat, Viewer};

/// One step of a script: what a seat sends.
#[derive(Clone, Debug)]
enum Step {
    /// The side to move plays its `n % len`-th legal move from its view.
    Legal(u16),
    /// A seat sends a move text that is probably wrong.
    Text(u8, String),
    /// A seat sends a draw or resignation action.
    Other(u8, u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => any::<u16>().prop_map(Step::Legal),
        2 => (0u8..3, "[0-9]{1,2}[-x][0-9]{1,2}(x[0-9]{1,2}){0,2}").prop_map(|(s, t)| Step::Text(s, t)),
        1 => (0u8..3, 0u8..4).prop_map(|(s, k)| Step::Other(s, k)),
    ]
}

fn other(kind: u8) -> DraughtsAction {
    match kind {
        0 => DraughtsAction::OfferDraw,
        1 => DraughtsAction::AcceptDraw,
        2 => DraughtsAction::DeclineDraw,
        _ => DraughtsAction::Resign,
    }
}

/// Runs `script`, checking after every step that a refusal left the view unchanged and, after
/// every accepted one, that the folded view equals the game's (clocks as of the event);
/// returns every event.
fn run(script: &[Step]) -> Vec<Emit<DraughtsEvent>> {
    let settings = DraughtsSettings::default();
    let mut game = DraughtsGame::new(&settings, 0);
    let mut folded = game.view(Viewer::Spectator, Millis(0));
    let mut all = game.start(Millis(0));
    for event in &all {
        fold(&mut folded, event.public());
    }
    assert_eq!(folded, game.view(Viewer::Spectator, Millis(0)));
    for (i, step) in script.iter().enumerate() {
        let now = Millis(500 * (i as u64 + 1));
        let view: DraughtsView = game.view(Viewer::Spectator, now);
        let (seat, action) = match step {
            Step::Legal(n) => {
                // Only the side to move's seat gets its legal moves.
                let mover = Seat(view.side_to_move.index() as u8);
                let view = game.view(Viewer::Seat(mover), now);
                let moves = &view.to_move.legal_moves;
                if moves.is_empty() {
                    continue;
                }
                let notation = moves[usize::from(*n) % moves.len()].clone();
                (
                    view.side_to_move.index() as u8,
                    DraughtsAction::Move { notation },
                )
            }
            Step::Text(seat, text) => (
                *seat,
                DraughtsAction::Move {
                    notation: text.clone(),
                },
            ),
            Step::Other(seat, kind) => (*seat, other(*kind)),
        };
        let history = game.history().clone();
        match game.apply(Seat(seat), action.clone(), Received::at(now)) {
            Ok(events) => {
                for event in &events {
                    fold(&mut folded, event.public());
                }
                all.extend(events);
                assert_eq!(
                    folded,
                    game.view(Viewer::Spectator, now),
                    "after {action:?}"
                );
            }
            Err(error) => {
                let _ = error.code();
                assert_eq!(
                    game.view(Viewer::Spectator, now),
                    view,
                    "{action:?} changed the view"
                );
                assert_eq!(game.history(), &history, "{action:?} changed the history");
            }
        }
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A refusal changes nothing, and the fold follows the game (checked inside `run`); the
    /// same script gives the same events.
    #[test]
    fn scripts_replay_and_fold(script in prop::collection::vec(step(), 0..120)) {
        let first = run(&script);
        let second = run(&script);
        prop_assert_eq!(first, second);
    }
}
