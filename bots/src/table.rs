//! The per-game part of the bot client: how a game's view and events are found in the
//! envelope, how events update the view, whose turn it is, how the game ended and how an
//! action goes on the wire. One implementation per game (`xiangqi::table`, `tuolaji::table`);
//! the connection loop in [`client`](crate::client) is the same for all.

use std::fmt;

use qipai_protocol::{ClientMsg, Event, Outcome, RoomOptions, Seq, View};

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

    /// How the game ended, once it has: the one shape every game's view tells
    /// ([`qipai_protocol::HasOutcome`]).
    fn outcome(view: &Self::View) -> Option<Outcome>;

    /// Moves (plies) played, or for a card game the hands dealt.
    fn plies(view: &Self::View) -> usize;

    /// How the game ended for `seat`, once it has.
    fn ending(view: &Self::View, seat: u8) -> Option<Ending> {
        let outcome = Self::outcome(view)?;
        let verdict = if outcome.no_result {
            Verdict::NoResult
        } else if outcome.won(seat) {
            Verdict::Win
        } else if outcome.winners.is_empty() {
            Verdict::Draw
        } else {
            Verdict::Loss
        };
        Some(Ending {
            verdict,
            reason: outcome.reason,
            plies: Self::plies(view),
        })
    }

    /// The request carrying `action`.
    fn request(seq: Seq, action: Self::Action) -> ClientMsg;

    /// The request that resigns (sent after repeated refusals, so a confused bot does not
    /// hold a table forever).
    fn resignation(seq: Seq) -> Option<ClientMsg>;

    /// Whether `options` are for this game.
    fn accepts(options: &RoomOptions) -> bool;
}

/// The [`Table`] of a two-seat board game (xiangqi, draughts): seat 0 plays `$first`, seat 1
/// `$second`; the view has `status`, `side_to_move`, `moves` and `draw_offer` and tells its outcome
/// ([`qipai_protocol::HasOutcome`]), the game's protocol module has `Status` and an action
/// `Resign`, and
/// `games` folds its events with `$fold`. One body for every duel, so that the games' glue
/// differs only in its names.
#[macro_export]
macro_rules! duel_table {
    (
        $(#[$doc:meta])*
        $table:ident for $variant:ident:
        $module:ident::{$view:ident, $event:ident, $action:ident},
        seats $first:ident, $second:ident,
        fold $fold:path
    ) => {
        $(#[$doc])*
        pub struct $table;

        impl $table {
            /// The side `seat` plays.
            fn side_of(seat: u8) -> Option<qipai_protocol::$module::Side> {
                match seat {
                    0 => Some(qipai_protocol::$module::Side::$first),
                    1 => Some(qipai_protocol::$module::Side::$second),
                    _ => None,
                }
            }
        }

        impl $crate::table::Table for $table {
            type View = qipai_protocol::$module::$view;
            type Event = qipai_protocol::$module::$event;
            type Action = qipai_protocol::$module::$action;

            fn view(view: qipai_protocol::View) -> Option<Self::View> {
                match view {
                    qipai_protocol::View::$variant(v) => Some(v),
                    _ => None,
                }
            }

            fn event(event: qipai_protocol::Event) -> Option<Self::Event> {
                match event {
                    qipai_protocol::Event::$variant(e) => Some(e),
                    _ => None,
                }
            }

            fn follow(view: &mut Self::View, event: &Self::Event) {
                $fold(view, event);
            }

            fn started(view: &Self::View) -> bool {
                view.status != qipai_protocol::$module::Status::Waiting
            }

            /// Its move, or an answer to a draw its opponent offered (at any time).
            fn must_act(view: &Self::View, seat: u8) -> bool {
                let side = Self::side_of(seat);
                let offered_to_me = view.draw_offer.is_some_and(|by| Some(by) != side);
                view.status == qipai_protocol::$module::Status::Playing
                    && (side == Some(view.side_to_move) || offered_to_me)
            }

            /// Two decision points per move: with a draw offer standing (answer it) and
            /// without (move), so a declined offer is followed by the move it held up.
            fn turn(view: &Self::View) -> u64 {
                let moves = u64::try_from(view.moves.len()).unwrap_or(u64::MAX);
                moves.saturating_mul(2) + u64::from(view.draw_offer.is_some())
            }

            fn outcome(view: &Self::View) -> Option<qipai_protocol::Outcome> {
                qipai_protocol::HasOutcome::outcome(view)
            }

            fn plies(view: &Self::View) -> usize {
                view.moves.len()
            }

            fn request(seq: qipai_protocol::Seq, action: Self::Action) -> qipai_protocol::ClientMsg {
                qipai_protocol::ClientMsg::$variant { seq, action }
            }

            fn resignation(seq: qipai_protocol::Seq) -> Option<qipai_protocol::ClientMsg> {
                Some(qipai_protocol::ClientMsg::$variant {
                    seq,
                    action: qipai_protocol::$module::$action::Resign,
                })
            }

            fn accepts(options: &qipai_protocol::RoomOptions) -> bool {
                matches!(options, qipai_protocol::RoomOptions::$variant(_))
            }
        }
    };
}
