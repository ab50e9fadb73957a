//! Xiangqi's glue for the bot client: the view follows the events through the one fold in
//! `games` ([`qipai_games::xiangqi::view::fold`]), exactly as a snapshot would show it.

use qipai_games::xiangqi::view::fold;
use qipai_protocol::xiangqi::{Side, Status, XiangqiAction, XiangqiEvent, XiangqiView};
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

impl Table for XiangqiTable {
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Action = XiangqiAction;

    fn view(view: View) -> Option<XiangqiView> {
        match view {
            View::Xiangqi(v) => Some(v),
            _ => None,
        }
    }

    fn event(event: Event) -> Option<XiangqiEvent> {
        match event {
            Event::Xiangqi(e) => Some(e),
            _ => None,
        }
    }

    fn follow(view: &mut XiangqiView, event: &XiangqiEvent) {
        fold(view, event);
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
