//! Xiangqi's glue for the bot client: the view follows `started`, `moved`, draw-offer and
//! `over` events exactly as the server's `XiangqiGame` would show them in a snapshot.

use qipai_protocol::xiangqi::{MoveRecord, Side, Status, XiangqiAction, XiangqiEvent, XiangqiView};
use qipai_protocol::{ClientMsg, Event, RoomOptions, Seq, View};

use crate::table::{Ending, Table, Verdict};

/// The xiangqi [`Table`].
pub struct XiangqiTable;

/// Seat 0 plays Red, seat 1 Black.
fn side_of(seat: u8) -> Option<Side> {
    match seat {
        0 => Some(Side::Red),
        1 => Some(Side::Black),
        _ => None,
    }
}

fn opponent(side: Side) -> Side {
    match side {
        Side::Red => Side::Black,
        Side::Black => Side::Red,
    }
}

impl Table for XiangqiTable {
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Action = XiangqiAction;

    fn view(view: View) -> Option<XiangqiView> {
        match view {
            View::Xiangqi(v) => Some(v),
            View::Tuolaji(_) => None,
        }
    }

    fn event(event: Event) -> Option<XiangqiEvent> {
        match event {
            Event::Xiangqi(e) => Some(e),
            Event::Room(_) | Event::Tuolaji(_) => None,
        }
    }

    fn follow(view: &mut XiangqiView, event: &XiangqiEvent) {
        match event {
            XiangqiEvent::Started {
                fen,
                legal_moves,
                clocks,
                first_move_deadline,
            } => {
                view.status = Status::Playing;
                view.fen.clone_from(fen);
                view.legal_moves.clone_from(legal_moves);
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
            } => {
                view.moves.push(MoveRecord {
                    iccs: iccs.clone(),
                    chinese: chinese.clone(),
                });
                view.last_move = Some(iccs.clone());
                view.fen.clone_from(fen);
                view.side_to_move = opponent(*side);
                view.in_check = *in_check;
                view.legal_moves.clone_from(legal_moves);
                view.clocks = *clocks;
                view.first_move_deadline = *first_move_deadline;
                // A standing offer lapses when its receiver moves.
                if view.draw_offer == Some(opponent(*side)) {
                    view.draw_offer = None;
                }
            }
            XiangqiEvent::DrawOffered { by } => view.draw_offer = Some(*by),
            XiangqiEvent::DrawDeclined { .. } => view.draw_offer = None,
            XiangqiEvent::Over { result, clocks } => {
                view.status = Status::Over;
                view.result = Some(*result);
                view.clocks = *clocks;
                view.legal_moves.clear();
                view.draw_offer = None;
                view.first_move_deadline = None;
            }
        }
    }

    fn started(view: &XiangqiView) -> bool {
        view.status != Status::Waiting
    }

    fn must_act(view: &XiangqiView, seat: u8) -> bool {
        view.status == Status::Playing && side_of(seat) == Some(view.side_to_move)
    }

    fn turn(view: &XiangqiView) -> u64 {
        u64::try_from(view.moves.len()).unwrap_or(u64::MAX)
    }

    fn ending(view: &XiangqiView, seat: u8) -> Option<Ending> {
        if view.status != Status::Over {
            return None;
        }
        let result = view.result?;
        let verdict = match (result.winner, side_of(seat)) {
            (Some(w), Some(me)) if w == me => Verdict::Win,
            (Some(_), _) => Verdict::Loss,
            (None, _) if result.reason == qipai_protocol::xiangqi::EndReason::Aborted => {
                Verdict::NoResult
            }
            (None, _) => Verdict::Draw,
        };
        Some(Ending {
            verdict,
            reason: format!("{:?}", result.reason),
            plies: view.moves.len(),
        })
    }

    fn request(seq: Seq, action: XiangqiAction) -> ClientMsg {
        ClientMsg::Xiangqi { seq, action }
    }

    fn resignation(seq: Seq) -> Option<ClientMsg> {
        Some(ClientMsg::Xiangqi {
            seq,
            action: XiangqiAction::Resign,
        })
    }

    fn accepts(options: &RoomOptions) -> bool {
        matches!(options, RoomOptions::Xiangqi(_))
    }
}
