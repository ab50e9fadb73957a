//! The per-game part of the bot client: how a game's view and events are found in the
//! envelope, how events update the view, whose turn it is, how the game ended and how an
//! action goes on the wire. One implementation per game (`xiangqi::table`, `tuolaji::table`);
//! the connection loop in [`client`](crate::client) is the same for all.

use std::fmt;

use qipai_protocol::{ClientMsg, Event, RoomOptions, Seq, View};

/// How a finished game went for the bot's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
    /// Aborted: no result.
    NoResult,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            Verdict::Draw => "draw",
            Verdict::NoResult => "no result",
        })
    }
}

/// The end of a game as one seat's view tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub verdict: Verdict,
    /// The reason in the wire's words (`checkmate`, `repetition`, …).
    pub reason: String,
    /// Moves (plies) played.
    pub plies: usize,
}

/// One game's glue between the envelope and a [`Strategy`](crate::Strategy) with the same
/// view, event and action types.
pub trait Table: Send + 'static {
    /// The seat's view of the game.
    type View: Clone + Send + 'static;
    /// One game event.
    type Event: Clone + Send + 'static;
    /// One game action.
    type Action: Send + 'static;

    /// This game's view, if the envelope's view is of this game.
    fn view(view: View) -> Option<Self::View>;

    /// This game's event, if the envelope's event is one (room events are not).
    fn event(event: Event) -> Option<Self::Event>;

    /// Tells the view whose it is (the snapshot's `you`), for games whose events fold
    /// differently for one's own seat (Tuolaji: one's own plays leave one's hand). The
    /// default ignores it.
    fn seat(view: &mut Self::View, seat: Option<u8>) {
        let _ = (view, seat);
    }

    /// Folds `event` into `view`, so the view stays what a new snapshot would show.
    fn follow(view: &mut Self::View, event: &Self::Event);

    /// Whether the game has begun (every seat filled), or even ended.
    fn started(view: &Self::View) -> bool;

    /// Whether `seat` must act now.
    fn must_act(view: &Self::View, seat: u8) -> bool;

    /// Names the decision point (e.g. the number of moves played): a decision made for
    /// another turn is stale and must not be sent.
    fn turn(view: &Self::View) -> u64;

    /// How the game ended for `seat`, once it has.
    fn ending(view: &Self::View, seat: u8) -> Option<Ending>;

    /// The request carrying `action`.
    fn request(seq: Seq, action: Self::Action) -> ClientMsg;

    /// The request that resigns (sent after repeated refusals, so a confused bot does not
    /// hold a table forever).
    fn resignation(seq: Seq) -> Option<ClientMsg>;

    /// Whether `options` are for this game.
    fn accepts(options: &RoomOptions) -> bool;
}
