//! [`fold`]: a view and the next event give the next view, exactly as the game's own view
//! would show it at the event's time (`games/tests/draughts_fold.rs` checks this at every
//! step of random games). Bots use it to follow a game from one snapshot; the page ports it
//! line for line. Every viewer sees the same view, so it takes no viewer. Same shape as
//! xiangqi's fold on the `events` branch.

use super::wire::{DraughtsEvent, DraughtsView, Status, ToMove};

/// Applies `event` to `view`.
pub fn fold(view: &mut DraughtsView, event: &DraughtsEvent) {
    match event {
        DraughtsEvent::Started {
            fen,
            side_to_move,
            to_move,
            clocks,
            first_move_deadline,
        } => {
            view.status = Status::Playing;
            view.fen.clone_from(fen);
            view.side_to_move = *side_to_move;
            view.to_move.clone_from(to_move);
            view.clocks = *clocks;
            view.first_move_deadline = *first_move_deadline;
        }
        DraughtsEvent::Moved {
            side,
            notation,
            fen,
            to_move,
            clocks,
            first_move_deadline,
            draw_offer,
        } => {
            view.fen.clone_from(fen);
            view.side_to_move = side.opponent();
            view.to_move.clone_from(to_move);
            view.last_move = Some(notation.clone());
            view.moves.push(notation.clone());
            view.clocks = *clocks;
            view.first_move_deadline = *first_move_deadline;
            view.draw_offer = *draw_offer;
        }
        DraughtsEvent::DrawOffered { by, clocks } => {
            view.draw_offer = Some(*by);
            view.clocks = *clocks;
        }
        DraughtsEvent::DrawDeclined { clocks, .. } => {
            view.draw_offer = None;
            view.clocks = *clocks;
        }
        DraughtsEvent::Over { result, clocks } => {
            view.status = Status::Over;
            view.result = Some(*result);
            view.clocks = *clocks;
            view.to_move = ToMove::default();
            view.first_move_deadline = None;
            view.draw_offer = None;
        }
    }
}
