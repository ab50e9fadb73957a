//! The one fold of a xiangqi game: a viewer's [`XiangqiView`] and the next event give the
//! next view, exactly as the server's snapshot would show it at the event's time (a property
//! test, `games/tests/xiangqi_fold.rs`, checks this at every step of random games). Clocks
//! are stated as of their `server_time`; a client counts the running side down from there.
//! The bots follow a game with it; `web/xiangqi.js` `applyEvent` is a port of it. Every
//! viewer sees the same view, so it takes no viewer.

use qipai_protocol::xiangqi::{MoveRecord, Side, Status, XiangqiEvent, XiangqiView};

/// Applies `event` to `view`.
pub fn fold(view: &mut XiangqiView, event: &XiangqiEvent) {
    match event {
        XiangqiEvent::Started {
            fen,
            side_to_move,
            in_check,
            legal_moves,
            clocks,
            first_move_deadline,
        } => {
            view.status = Status::Playing;
            view.fen = fen.clone();
            view.side_to_move = *side_to_move;
            view.in_check = *in_check;
            view.legal_moves = legal_moves.clone();
            view.clocks = *clocks;
            view.first_move_deadline = *first_move_deadline;
        }
        XiangqiEvent::Moved {
            side,
            iccs,
            chinese,
            fen,
            in_check,
            legal_moves,
            clocks,
            first_move_deadline,
            draw_offer,
        } => {
            view.fen = fen.clone();
            view.side_to_move = match side {
                Side::Red => Side::Black,
                Side::Black => Side::Red,
            };
            view.in_check = *in_check;
            view.legal_moves = legal_moves.clone();
            view.last_move = Some(*iccs);
            view.moves.push(MoveRecord {
                iccs: *iccs,
                chinese: chinese.clone(),
            });
            view.clocks = *clocks;
            view.first_move_deadline = *first_move_deadline;
            view.draw_offer = *draw_offer;
        }
        XiangqiEvent::DrawOffered { by } => view.draw_offer = Some(*by),
        XiangqiEvent::DrawDeclined { .. } => view.draw_offer = None,
        XiangqiEvent::Over { result, clocks } => {
            view.status = Status::Over;
            view.result = Some(*result);
            view.clocks = *clocks;
            view.legal_moves.clear();
            view.first_move_deadline = None;
            view.draw_offer = None;
        }
    }
}
