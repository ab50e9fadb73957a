//! The one `Game` trait every game implements, and the small types it speaks in.
//!
//! The server's room actor drives any game through this trait alone: it owns a value
//! implementing [`Game`], feeds it actions and deadlines with the time they happened, and
//! publishes the events it returns. The game never reads a clock or does IO; replaying the
//! same options, seed and timed actions gives the same events.

use std::ops::{Add, Sub};

use qipai_protocol::{Card, ErrorCode, Outcome};

/// The ruling type of a game that takes none: no value of it exists, so nothing can be
/// handed to [`Game::rule`] (and a logged one could not be read back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum NoRuling {}

/// A seat at a table: 0–1 in xiangqi (red, black), 0–3 in Tuolaji (play order). On the
/// wire it is the bare number.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into per-seat arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Milliseconds, either a duration or a point on the room's monotonic time line (the room
/// passes `now` in; games never read a clock).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// Zero milliseconds.
    pub const ZERO: Millis = Millis(0);

    /// `self - other`, or zero when `other` is later.
    pub const fn saturating_sub(self, other: Millis) -> Millis {
        Millis(self.0.saturating_sub(other.0))
    }
}

impl Add for Millis {
    type Output = Millis;
    fn add(self, rhs: Millis) -> Millis {
        Millis(self.0.saturating_add(rhs.0))
    }
}

/// Saturating: a duration never goes below zero.
impl Sub for Millis {
    type Output = Millis;
    fn sub(self, rhs: Millis) -> Millis {
        self.saturating_sub(rhs)
    }
}

/// Who is looking at a game: a seated player or a spectator (who sees no hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// When an action reached the server, and how much of its travel time the player is not
/// charged for (xiangqi's lag allowance, estimated from the connection's round trip).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Received {
    pub at: Millis,
    pub lag: Millis,
}

impl Received {
    /// Received at `at` with no lag allowance (bots, tests, deadlines).
    pub const fn at(at: Millis) -> Received {
        Received {
            at,
            lag: Millis::ZERO,
        }
    }
}

/// Who an event goes to. Everyone sees every step of the room (so sequence numbers have no
/// holes); a step that reveals something to one seat only is a [`Emit::Split`].
#[derive(Clone, Debug, PartialEq)]
pub enum Emit<E> {
    /// The same event for every seat and spectator.
    All(E),
    /// `own` goes to `seat`, `others` to everybody else (e.g. a dealt card and "a card was
    /// dealt to seat 2").
    Split { seat: Seat, own: E, others: E },
}

impl<E> Emit<E> {
    /// The event as `viewer` receives it.
    pub fn to(&self, viewer: Viewer) -> &E {
        match self {
            Emit::Split { seat, own, .. } if viewer == Viewer::Seat(*seat) => own,
            Emit::All(event) | Emit::Split { others: event, .. } => event,
        }
    }

    /// The event as a spectator receives it.
    pub fn public(&self) -> &E {
        self.to(Viewer::Spectator)
    }

    /// An event with a part only `seat` can use (the side to move's legal moves): `make(part)`
    /// to `seat`, `make` of an empty part to everybody else; `make(part)` to all when no seat
    /// is to act. Sending the part to those who cannot use it would only cost bytes.
    pub fn part_for<P: Default>(seat: Option<Seat>, part: P, make: impl Fn(P) -> E) -> Emit<E> {
        match seat {
            Some(seat) => Emit::Split {
                seat,
                own: make(part),
                others: make(P::default()),
            },
            None => Emit::All(make(part)),
        }
    }
}

/// An error that has a stable wire code.
pub trait Coded {
    /// The code clients branch on; never reused for another meaning.
    fn code(&self) -> ErrorCode;

    /// With `declare_structure`: the valid splits of the throw, for the client to choose.
    fn splits(&self) -> Option<Vec<Vec<Vec<Card>>>> {
        None
    }

    /// What a client needs to say the refusal in the player's language: the article, the
    /// unit kinds, the cards. `None` when the code says it all.
    fn details(&self) -> Option<qipai_protocol::ErrorDetails> {
        None
    }
}

/// One game's rules as a state machine the room can drive.
pub trait Game: Send + Sized + 'static {
    /// The table's options (time control, rule variants), fixed at creation.
    type Options: Clone + Send + Sync + 'static;
    /// What a player may ask to do.
    type Action: Send + 'static;
    /// What one viewer may see of the whole state (a snapshot).
    type View;
    /// What happened, for views to follow along without a new snapshot.
    type Event: Clone + Send + 'static;
    /// Why an action was refused; the state is unchanged whenever this is returned.
    type Error: std::error::Error + Coded + Send + 'static;

    /// An arbiter's ruling this game's rules know (a competition's lateness, its table's
    /// absence rule), logged with the room's steps and replayed like them: each game names
    /// its own, so the trait knows no game's competition rules; [`NoRuling`] for none.
    type Ruling: serde::Serialize + serde::de::DeserializeOwned + Send + 'static;

    /// How many seats must be filled before the game starts.
    const SEATS: u8;

    /// A new game, not started yet. All randomness comes from `seed`.
    fn new(options: &Self::Options, seed: u64) -> Self;

    /// Every seat is filled: the game begins at `now`.
    fn start(&mut self, now: Millis) -> Vec<Emit<Self::Event>>;

    /// `seat` asks to do `action`.
    ///
    /// # Errors
    /// The game's own error when the action is not allowed now; nothing changes then.
    fn apply(
        &mut self,
        seat: Seat,
        action: Self::Action,
        received: Received,
    ) -> Result<Vec<Emit<Self::Event>>, Self::Error>;

    /// The events of the last accepted action left the server at `now`, after the store
    /// committed it: a clock that action started runs from here, so the commit is charged
    /// to nobody (xiangqi rules, "Clocks" **\[D\]**). Returns whether anything changed (the
    /// room logs only those, for its replay); games without a running clock ignore it.
    fn sent(&mut self, now: Millis) -> bool {
        let _ = now;
        false
    }

    /// The earliest moment at which the game must act by itself (a flag, a turn timer).
    fn deadline(&self) -> Option<Millis>;

    /// Time has reached [`Game::deadline`]: act on it (flag fall, auto-play, abort).
    fn on_deadline(&mut self, now: Millis) -> Vec<Emit<Self::Event>>;

    /// `seat`'s player is gone for good: they left, or the reconnection grace ran out. A
    /// duel ends (xiangqi: the absent side loses); a card table goes on and plays the seat
    /// by itself (Tuolaji) until someone sits down again.
    fn forfeit(&mut self, seat: Seat, now: Millis) -> Vec<Emit<Self::Event>>;

    /// Whether a newcomer may sit in the forfeited `seat` now (Tuolaji: between hands).
    fn can_reseat(&self, seat: Seat) -> bool {
        let _ = seat;
        false
    }

    /// Whether a person may take `seat` from a server bot now, the game going on as it is
    /// (Tuolaji: yes, the newcomer sees just what the seat saw; a duel: no, once it began).
    fn can_replace(&self, seat: Seat) -> bool {
        let _ = seat;
        false
    }

    /// A newcomer sat in the forfeited `seat` (only called when [`Game::can_reseat`] said
    /// yes): the seat is played by its person again.
    fn reseat(&mut self, seat: Seat, now: Millis) -> Vec<Emit<Self::Event>> {
        let _ = (seat, now);
        Vec::new()
    }

    /// An arbiter's ruling the server applies to the table ([`Game::Ruling`]). Games
    /// without such rules take [`NoRuling`], which cannot be given.
    fn rule(&mut self, ruling: Self::Ruling, now: Millis) -> Vec<Emit<Self::Event>> {
        let _ = (ruling, now);
        Vec::new()
    }

    /// What `viewer` may see at `now`.
    fn view(&self, viewer: Viewer, now: Millis) -> Self::View;

    /// Whether the game has ended (result or abort); no more actions are accepted.
    fn is_over(&self) -> bool;

    /// How the game ended (winning seats and reason), in the one shape records,
    /// competitions and bots read for every game; `None` while it is not over.
    fn outcome(&self) -> Option<Outcome>;
}
