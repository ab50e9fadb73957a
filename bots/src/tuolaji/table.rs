//! Tuolaji's glue for the bot client: the seat's view follows every [`TuolajiEvent`]
//! through the one fold in `games` ([`qipai_games::tuolaji::view::fold`]), so that it
//! equals what a new snapshot would show, deadlines and hint included (the events carry
//! them: `turn` ends every step that changes what the table waits for).
//!
//! Events that concern one's own cards need the seat: the client gives it with
//! [`Table::seat`] (the snapshot's `you`); until then the view folds as a spectator's.

use qipai_games::tuolaji::view::fold;
use qipai_games::{Seat, Viewer};
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent, TuolajiView};
use qipai_protocol::{ClientMsg, Event, HasOutcome, Outcome, RoomOptions, Seq, View};

use super::read;
use crate::table::Table;

/// One seat's view of a Tuolaji table, and which seat that is (when known).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    /// The seat the view belongs to; `None` for a spectator, or until it is known.
    pub seat: Option<u8>,
    /// What the server shows that seat.
    pub view: TuolajiView,
    /// The step's `turn` is still due (a card was played, a trick won, the bottom taken…):
    /// nobody acts on such an in-between view.
    pub settling: bool,
}

impl SeatView {
    /// The view of `seat` (or of an unknown seat, or a spectator, with `None`).
    pub fn new(seat: Option<u8>, view: TuolajiView) -> SeatView {
        let seat = seat.or_else(|| view.hint.as_ref().and(read::to_act(&view.phase)));
        SeatView {
            seat,
            view,
            settling: false,
        }
    }

    /// Folds `event` into the view: afterwards it shows what a snapshot would.
    pub fn follow(&mut self, event: &TuolajiEvent) {
        let viewer = self
            .seat
            .map_or(Viewer::Spectator, |s| Viewer::Seat(Seat(s)));
        fold(&mut self.view, viewer, event);
        // A seat's `legal_bids` comes just before the step's `turn`, if there is one: it
        // settles nothing by itself.
        if !matches!(event, TuolajiEvent::LegalBids { .. }) {
            self.settling = awaits_turn(event);
        }
    }
}

/// The Tuolaji [`Table`].
pub struct TuolajiTable;

/// Whether the server always ends the step of `event` with a `turn` (the event changes
/// what the table waits for).
fn awaits_turn(event: &TuolajiEvent) -> bool {
    !matches!(
        event,
        TuolajiEvent::Turn { .. }
            | TuolajiEvent::Dealt { .. }
            | TuolajiEvent::DealtCards { .. }
            | TuolajiEvent::Bid(_)
            | TuolajiEvent::Auto { .. }
            | TuolajiEvent::LastHand { .. }
    )
}

/// Whether the seat could show level cards now (第十条): the server sent it some legal bids.
fn may_bid(view: &TuolajiView) -> bool {
    !view.legal_bids.is_empty()
}

/// The most identical level cards of one suit in the seat's hand.
fn most_level_cards(view: &TuolajiView) -> usize {
    let (Some(level), Some(held)) = (view.level_rank, read::holding(view)) else {
        return 0;
    };
    held.iter()
        .filter(|(c, _)| c.rank() == Some(level))
        .map(|(_, n)| usize::from(n))
        .max()
        .unwrap_or(0)
}

fn phase_code(phase: &Phase) -> u64 {
    match phase {
        Phase::Waiting => 0,
        Phase::Dealing => 1,
        Phase::Bidding { .. } => 2,
        Phase::NamingTrump { .. } => 3,
        Phase::Bottom { .. } => 4,
        Phase::Leading { .. } => 5,
        Phase::Following { .. } => 6,
        Phase::BetweenHands { .. } => 7,
        Phase::Over => 8,
        Phase::TrickPause { .. } => 9,
    }
}

impl Table for TuolajiTable {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn view(view: View) -> Option<SeatView> {
        match view {
            View::Tuolaji(v) => Some(SeatView::new(None, *v)),
            _ => None,
        }
    }

    fn seat(view: &mut SeatView, seat: Option<u8>) {
        if seat.is_some() {
            view.seat = seat;
        }
    }

    fn event(event: Event) -> Option<TuolajiEvent> {
        match event {
            Event::Tuolaji(e) => Some(e),
            _ => None,
        }
    }

    fn follow(view: &mut SeatView, event: &TuolajiEvent) {
        view.follow(event);
    }

    fn started(view: &SeatView) -> bool {
        view.view.phase != Phase::Waiting
    }

    /// The seat must name the trump, put back the bottom, lead or follow; or it may bid
    /// (the strategy then answers `None` when it does not want to).
    fn must_act(view: &SeatView, seat: u8) -> bool {
        !view.settling
            && view.view.outcome.is_none()
            && (read::to_act(&view.view.phase) == Some(seat) || may_bid(&view.view))
    }

    /// Changes with every card played, bid, phase and hand, and with the level cards the
    /// seat gets during the deal (a new chance to bid).
    fn turn(view: &SeatView) -> u64 {
        let v = &view.view;
        // During the deal only bids and one's level cards matter: a card dealt to
        // somebody else is no new decision.
        let cards_out: u64 = match v.phase {
            Phase::Dealing | Phase::Bidding { .. } => 0,
            _ => v.card_counts.iter().map(|&n| u64::from(n)).sum(),
        };
        let bids = u64::try_from(v.bids.len()).unwrap_or(0) & 0xff;
        let level_cards = u64::try_from(most_level_cards(v)).unwrap_or(0) & 0xf;
        (u64::from(v.hand_number) << 32)
            | (phase_code(&v.phase) << 24)
            | (bids << 16)
            | (level_cards << 12)
            | (cards_out & 0xfff)
    }

    fn outcome(view: &SeatView) -> Option<Outcome> {
        view.view.outcome()
    }

    /// The hands dealt.
    fn plies(view: &SeatView) -> usize {
        usize::try_from(view.view.hand_number).unwrap_or(usize::MAX)
    }

    fn request(seq: Seq, action: TuolajiAction) -> ClientMsg {
        ClientMsg::Tuolaji { seq, action }
    }

    /// Tuolaji has no resignation: a seat left alone is played by the server.
    fn resignation(_seq: Seq) -> Option<ClientMsg> {
        None
    }

    fn accepts(options: &RoomOptions) -> bool {
        matches!(options, RoomOptions::Tuolaji(_))
    }
}
