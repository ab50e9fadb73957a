//! What every bot strategy is: a seat's view (the one a human client gets) in, an action out;
//! and how much thinking one decision may take.
//!
//! A strategy sees only what its seat sees: no hidden cards, no server state. Legality comes
//! from `qipai_games`, never from a copy of a rule here.

use std::time::Duration;

/// A strategy for one game: given the seat's view, what to do now.
///
/// The client calls [`Strategy::observe`] with every event it receives (so a card game's
/// strategy can remember what was played), and [`Strategy::decide`] whenever the view says
/// the seat has something to do. Decisions may take long (a xiangqi search): the client runs
/// them on a blocking thread, which is why a strategy is `Send + 'static`.
pub trait Strategy: Send + 'static {
    /// The seat's view of the game (a snapshot, kept up to date by events).
    type View: Clone + Send + 'static;
    /// What happened at the table.
    type Event;
    /// What the seat may ask to do.
    type Action: Send + 'static;

    /// Takes note of an event before it is folded into the view. The default ignores it
    /// (xiangqi's view carries the whole move list).
    fn observe(&mut self, event: &Self::Event) {
        let _ = event;
    }

    /// The action for `seat` in `view`, or `None` when there is nothing to do (not this
    /// seat's turn, the game is over, the view is unreadable).
    fn decide(&mut self, seat: u8, view: &Self::View) -> Option<Self::Action>;
}

/// How hard a strategy thinks: a cap on time per decision and/or on search nodes. The
/// time actually spent is also bounded by the seat's own clock (see [`clock_budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The most wall time for one decision; `None` leaves only the clock budget.
    pub think: Option<Duration>,
    /// The most search nodes for one decision. With no time cap this makes play
    /// deterministic (tests and benchmarks use it).
    pub max_nodes: Option<u64>,
    /// Whether to take the seat's clock into account (off for in-memory games with no clock
    /// pressure, so that only `think`/`max_nodes` decide).
    pub use_clock: bool,
}

impl Strength {
    /// Think at most `ms` milliseconds per move, less when the clock demands it.
    pub const fn think_ms(ms: u64) -> Strength {
        Strength {
            think: Some(Duration::from_millis(ms)),
            max_nodes: None,
            use_clock: true,
        }
    }

    /// Search exactly up to `nodes` nodes per move, whatever the clock says: deterministic.
    pub const fn nodes(nodes: u64) -> Strength {
        Strength {
            think: None,
            max_nodes: Some(nodes),
            use_clock: false,
        }
    }

    /// The time for this move: the cap, lowered by the clock budget; with neither a cap,
    /// nor a clock, nor a node limit, [`UNBOUNDED_THINK`] (a search must end).
    pub fn time_limit(&self, clock: Option<ClockState>) -> Option<Duration> {
        let from_clock = clock.filter(|_| self.use_clock).map(clock_budget);
        match (self.think, from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (None, None) if self.max_nodes.is_none() => Some(UNBOUNDED_THINK),
            (a, b) => a.or(b),
        }
    }
}

/// The seed of the chance moves of the bot a server seats at `seat` of room `room_id` (a
/// level's draw): the same room and seat, the same seed, so a seeded server's bots replay
/// (its room ids count from 1).
pub fn seat_seed(room_id: u64, seat: u8) -> u64 {
    room_id
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(seat))
}

/// A search's time when nothing else limits it.
pub const UNBOUNDED_THINK: Duration = Duration::from_secs(1);

/// A seat's time situation, as its view gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// Time left on the seat's clock.
    pub remaining_ms: u64,
    /// Time added after each move (Fischer), 0 otherwise.
    pub increment_ms: u64,
    /// Moves still to make before the current period ends (period controls), or `None`
    /// for Fischer and sudden death.
    pub moves_to_go: Option<u32>,
}

/// Moves a game is assumed still to last when the control does not say (Fischer, sudden death).
const ASSUMED_MOVES_LEFT: u64 = 30;
/// Never plan less than this: a move needs some time to be found and sent.
const FLOOR_MS: u64 = 20;
/// Time kept aside for the network and the server, never spent on thinking.
const RESERVE_MS: u64 = 300;

/// The time to spend on this move: `remaining / moves_to_go + 0.8 × increment`, with
/// `moves_to_go` the moves left in the period (periods) or 30 (Fischer, sudden death),
/// never more than half of what is left beyond a safety reserve, never below a floor.
pub fn clock_budget(clock: ClockState) -> Duration {
    let to_go = clock
        .moves_to_go
        .map_or(ASSUMED_MOVES_LEFT, |m| u64::from(m.max(1)));
    let usable = clock.remaining_ms.saturating_sub(RESERVE_MS);
    let planned = usable / to_go + clock.increment_ms * 4 / 5;
    let ms = planned.min(usable / 2).max(FLOOR_MS);
    Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fischer 5+3 at the start: a thirtieth of the time plus most of the increment.
    #[test]
    fn fischer_budget() {
        let b = clock_budget(ClockState {
            remaining_ms: 300_300,
            increment_ms: 3_000,
            moves_to_go: None,
        });
        assert_eq!(b, Duration::from_millis(10_000 + 2_400));
    }

    /// Periods: the time left split over the moves left in the period, at most half of it.
    #[test]
    fn period_budget() {
        let clock = |moves| ClockState {
            remaining_ms: 60_300,
            increment_ms: 0,
            moves_to_go: Some(moves),
        };
        assert_eq!(clock_budget(clock(10)), Duration::from_millis(6_000));
        assert_eq!(clock_budget(clock(1)), Duration::from_millis(30_000));
        assert_eq!(clock_budget(clock(0)), Duration::from_millis(30_000));
    }

    /// Nearly flagged: the floor, so a move still goes out.
    #[test]
    fn floor_budget() {
        let b = clock_budget(ClockState {
            remaining_ms: 100,
            increment_ms: 0,
            moves_to_go: None,
        });
        assert_eq!(b, Duration::from_millis(FLOOR_MS));
    }
}
