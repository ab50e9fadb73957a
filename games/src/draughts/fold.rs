//! [`fold`]: a view and the next event give the next view. Bots use it to follow a game from
//! one snapshot; the page ports it line for line.

use super::wire::{DraughtsEvent, DraughtsView, Status, ToMove};

/// The view after `event`, given the view before it.
pub fn fold(mut view: DraughtsView, event: &DraughtsEvent) -> DraughtsView {
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
        } => {
            view.fen.clone_from(fen);
            view.side_to_move = side.opponent();
            view.to_move.clone_from(to_move);
            view.last_move = Some(notation.clone());
            view.moves.push(notation.clone());
            view.clocks = *clocks;
            view.first_move_deadline = *first_move_deadline;
            // Moving declines the opponent's standing offer.
            if view.draw_offer == Some(side.opponent()) {
                view.draw_offer = None;
            }
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
    view
}
