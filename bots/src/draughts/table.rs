//! Draughts' glue for the bot client: the view follows the events through the one fold in
//! `games` ([`qipai_games::draughts::view::fold`]), exactly as a snapshot would show it.

use qipai_games::draughts::view::fold;
use qipai_protocol::draughts::{DraughtsAction, DraughtsEvent, DraughtsView, Side, Status};
use qipai_protocol::{ClientMsg, Event, RoomOptions, Seq, View};

use crate::table::{Ending, Table, Verdict};

/// The draughts [`Table`].
pub struct DraughtsTable;

/// Seat 0 plays White, seat 1 Black.
fn side_of(seat: u8) -> Option<Side> {
    match seat {
        0 => Some(Side::White),
        1 => Some(Side::Black),
        _ => None,
    }
}

impl Table for DraughtsTable {
    type View = DraughtsView;
    type Event = DraughtsEvent;
    type Action = DraughtsAction;

    fn view(view: View) -> Option<DraughtsView> {
        match view {
            View::Draughts(v) => Some(v),
            _ => None,
        }
    }

    fn event(event: Event) -> Option<DraughtsEvent> {
        match event {
            Event::Draughts(e) => Some(e),
            _ => None,
        }
    }

    fn follow(view: &mut DraughtsView, event: &DraughtsEvent) {
        fold(view, event);
    }

    fn started(view: &DraughtsView) -> bool {
        view.status != Status::Waiting
    }

    fn must_act(view: &DraughtsView, seat: u8) -> bool {
        view.status == Status::Playing && side_of(seat) == Some(view.side_to_move)
    }

    fn turn(view: &DraughtsView) -> u64 {
        u64::try_from(view.moves.len()).unwrap_or(u64::MAX)
    }

    fn ending(view: &DraughtsView, seat: u8) -> Option<Ending> {
        if view.status != Status::Over {
            return None;
        }
        let result = view.result?;
        let verdict = match (result.winner, side_of(seat)) {
            (Some(w), Some(me)) if w == me => Verdict::Win,
            (Some(_), _) => Verdict::Loss,
            (None, _) if result.reason == qipai_protocol::draughts::EndReason::Aborted => {
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

    fn request(seq: Seq, action: DraughtsAction) -> ClientMsg {
        ClientMsg::Draughts { seq, action }
    }

    fn resignation(seq: Seq) -> Option<ClientMsg> {
        Some(ClientMsg::Draughts {
            seq,
            action: DraughtsAction::Resign,
        })
    }

    fn accepts(options: &RoomOptions) -> bool {
        matches!(options, RoomOptions::Draughts(_))
    }
}
