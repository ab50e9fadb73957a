//! [`HintStrategy`] plays the view's `hint`: what the server would play for the seat
//! (`qipai_games`' `suggest`). The server sends it to the seat that must act in the `turn`
//! event (and in snapshots), so the bot never rebuilds it.

use qipai_protocol::tuolaji::{TuolajiAction, TuolajiEvent};

use super::read;
use super::table::SeatView;
use crate::strategy::Strategy;

/// Plays the view's hint: exactly what the server would play for the seat. Never bids.
/// Cheap (no search), for load tests and as a benchmark's yardstick.
#[derive(Clone, Copy, Debug, Default)]
pub struct HintStrategy;

impl Strategy for HintStrategy {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn decide(&mut self, seat: u8, view: &SeatView) -> Option<TuolajiAction> {
        if read::to_act(&view.view.phase) != Some(seat) {
            return None;
        }
        view.view.hint.clone()
    }
}
