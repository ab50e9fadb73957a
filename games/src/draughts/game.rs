//! A timed draughts game as the room drives it: the [`Game`] trait over [`History`], a
//! [`Clock`], resignation and draw offers.
//!
//! Seat 0 plays White, seat 1 Black. Time rules as xiangqi's (**\[D\]**): a side's clock does
//! not run before its first move, and a first move not made within `first_move_ms` aborts
//! the game; after that, time is charged from the moment the position was sent until the
//! move arrives, less the lag allowance, and the flag falls on the server's own deadline.

use qipai_protocol::ErrorCode;

use super::board::{squares, Side};
use super::end::{EndReason, EndRules, History, Outcome};
use super::error::DraughtsError;
use super::position::Position;
use super::wire::{
    Clocks, DraughtsAction, DraughtsEvent, DraughtsView, GameResult, Status, ToMove,
};
use crate::clock::{Clock, Press, TimeControl};
use crate::game::{Coded, Emit, Game, Millis, Received, Seat, Viewer};

/// A draughts table's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsSettings {
    /// Where the game starts: usually [`Position::start`].
    pub start: Position,
    pub time_control: TimeControl,
    /// A side that has not made its first move this long after it was due aborts the game.
    pub first_move_ms: u64,
    pub end_rules: EndRules,
    /// A side may offer a draw once per this many own moves **\[D\]**.
    pub draw_offer_every_moves: u32,
    /// The most lag allowance per move.
    pub max_lag_ms: u64,
}

impl Default for DraughtsSettings {
    fn default() -> DraughtsSettings {
        DraughtsSettings {
            start: Position::start(),
            time_control: TimeControl::default(),
            first_move_ms: 30_000,
            end_rules: EndRules::default(),
            draw_offer_every_moves: 10,
            max_lag_ms: 500,
        }
    }
}

/// Why a draughts action was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DraughtsGameError {
    /// The move itself breaks a rule or is not notation.
    #[error(transparent)]
    Rule(#[from] DraughtsError),
    #[error("It is {to_move:?}'s turn to move.")]
    NotYourTurn { to_move: Side },
    #[error("There is no draw offer from your opponent to answer.")]
    NoDrawOffer,
    #[error("Your own draw offer is still standing; your opponent must answer it.")]
    OwnDrawOffer,
    #[error("You may offer a draw once every {every} of your moves; make {wait} more first.")]
    DrawOfferLimit { every: u32, wait: u32 },
    #[error("There is no such seat at a draughts table.")]
    NoSuchSeat,
}

impl Coded for DraughtsGameError {
    fn code(&self) -> ErrorCode {
        match self {
            DraughtsGameError::Rule(e) => e.code(),
            DraughtsGameError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            DraughtsGameError::NoDrawOffer => ErrorCode::NoDrawOffer,
            DraughtsGameError::OwnDrawOffer => ErrorCode::OwnDrawOffer,
            DraughtsGameError::DrawOfferLimit { .. } => ErrorCode::DrawOfferLimit,
            DraughtsGameError::NoSuchSeat => ErrorCode::NotSeated,
        }
    }
}

type Events = Vec<Emit<DraughtsEvent>>;

/// One timed game between two seats.
#[derive(Clone, Debug)]
pub struct DraughtsGame {
    settings: DraughtsSettings,
    history: History,
    clock: Clock,
    started: bool,
    /// When the side to move must have made its first move (only before its first move).
    first_move_deadline: Option<Millis>,
    /// The side whose draw offer stands.
    draw_offer: Option<Side>,
    /// Each side's own move count when it last offered a draw.
    last_offer: [Option<u32>; 2],
}

fn side_of(seat: Seat) -> Option<Side> {
    match seat.0 {
        0 => Some(Side::White),
        1 => Some(Side::Black),
        _ => None,
    }
}

fn side_at(index: usize) -> Side {
    if index == 0 {
        Side::White
    } else {
        Side::Black
    }
}

impl DraughtsGame {
    /// The game's record so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    fn position(&self) -> &Position {
        self.history.position()
    }

    fn clocks(&self, now: Millis) -> Clocks {
        Clocks {
            white_ms: self.clock.remaining(0, now.0),
            black_ms: self.clock.remaining(1, now.0),
            running: self.clock.running().map(side_at),
            server_time: now.0,
        }
    }

    /// The seat of the side to move while the game is on (`None` before and after).
    fn seat_to_move(&self) -> Option<Seat> {
        if !self.started || self.history.outcome().is_some() {
            return None;
        }
        Some(Seat(self.position().side_to_move().index() as u8))
    }

    /// An event carrying what the side to move may do: its legal moves to that side's seat
    /// only (nobody else can use them), the pieces that must capture (6.1) to everybody.
    fn with_to_move(&self, make: impl Fn(ToMove) -> DraughtsEvent) -> Emit<DraughtsEvent> {
        let ToMove {
            legal_moves,
            must_capture,
        } = self.to_move();
        Emit::part_for(self.seat_to_move(), legal_moves, |legal_moves| {
            make(ToMove {
                legal_moves,
                must_capture: must_capture.clone(),
            })
        })
    }

    /// What the side to move may do, as `viewer` sees it (see [`Self::with_to_move`]).
    fn to_move_for(&self, viewer: Viewer) -> ToMove {
        let mut to_move = self.to_move();
        if self
            .seat_to_move()
            .is_none_or(|s| viewer != Viewer::Seat(s))
        {
            to_move.legal_moves.clear();
        }
        to_move
    }

    /// The side to move's legal moves and capturing pieces (nothing unless playing).
    fn to_move(&self) -> ToMove {
        if self.seat_to_move().is_none() {
            return ToMove::default();
        }
        let mut moves = self.position().legal_moves();
        moves.sort_by_key(|m| (m.from(), m.to()));
        let capturing = moves
            .iter()
            .filter(|m| m.is_capture())
            .fold(0u64, |bits, m| bits | m.from().bit());
        ToMove {
            legal_moves: moves.iter().map(ToString::to_string).collect(),
            must_capture: squares(capturing).map(|s| s.number()).collect(),
        }
    }

    /// The flag falls before any other action of a side whose time ran out.
    fn flag_if_due(&mut self, actor: Side, received: Received) -> Option<Events> {
        let running = self.clock.running()?;
        let lag = if running == actor.index() {
            received.lag.0.min(self.settings.max_lag_ms)
        } else {
            self.settings.max_lag_ms
        };
        let loser = self.clock.check_flag(received.at.0.saturating_sub(lag))?;
        let outcome = Outcome::win(side_at(loser).opponent(), EndReason::TimeForfeit);
        Some(self.finish(outcome, received.at))
    }

    fn finish(&mut self, outcome: Outcome, now: Millis) -> Events {
        if self.history.finish(outcome).is_err() {
            return Vec::new();
        }
        self.over(now)
    }

    fn over(&mut self, now: Millis) -> Events {
        self.clock.stop(now.0);
        self.first_move_deadline = None;
        self.draw_offer = None;
        self.history
            .outcome()
            .map(|outcome| {
                Emit::All(DraughtsEvent::Over {
                    result: result(outcome),
                    clocks: self.clocks(now),
                })
            })
            .into_iter()
            .collect()
    }

    fn play(
        &mut self,
        side: Side,
        notation: &str,
        received: Received,
    ) -> Result<Events, DraughtsGameError> {
        let to_move = self.position().side_to_move();
        if side != to_move {
            return Err(DraughtsGameError::NotYourTurn { to_move });
        }
        let mv = self.position().parse_move(notation)?;
        let now = received.at;
        if self.first_move_deadline.is_some_and(|d| d < now) {
            return Ok(self.finish(Outcome::draw(EndReason::Aborted), now));
        }
        if self.clock.moves(side.index()) > 0 {
            if let Ok(Press::Flagged) = self.clock.press(side.index(), now.0, received.lag.0) {
                let outcome = Outcome::win(side.opponent(), EndReason::TimeForfeit);
                return Ok(self.finish(outcome, now));
            }
        } else {
            let _ = self.clock.free_move(side.index());
        }
        self.history.play(&mv)?;
        if self.draw_offer == Some(side.opponent()) {
            self.draw_offer = None;
        }
        let next = side.opponent();
        if self.history.outcome().is_none() {
            if self.clock.moves(next.index()) > 0 {
                self.first_move_deadline = None;
                let _ = self.clock.start(next.index(), now.0);
            } else {
                self.first_move_deadline = Some(now + Millis(self.settings.first_move_ms));
            }
        }
        let notation = mv.to_string();
        let fen = self.position().to_fen();
        let clocks = self.clocks(now);
        let first_move_deadline = self.first_move_deadline.map(|m| m.0);
        let draw_offer = self.draw_offer;
        let mut events = vec![self.with_to_move(|to_move| DraughtsEvent::Moved {
            side,
            notation: notation.clone(),
            fen: fen.clone(),
            to_move,
            clocks,
            first_move_deadline,
            draw_offer,
        })];
        if self.history.outcome().is_some() {
            events.extend(self.over(now));
        }
        Ok(events)
    }

    /// Offering while the opponent's offer stands accepts it.
    fn offer_draw(&mut self, side: Side, now: Millis) -> Result<Events, DraughtsGameError> {
        match self.draw_offer {
            Some(s) if s == side => return Err(DraughtsGameError::OwnDrawOffer),
            Some(_) => return self.answer_draw(side, true, now),
            None => {}
        }
        let every = self.settings.draw_offer_every_moves;
        let moves = self.clock.moves(side.index());
        if let Some(made) = self.last_offer[side.index()].map(|l| moves.saturating_sub(l)) {
            if made < every {
                let wait = every - made;
                return Err(DraughtsGameError::DrawOfferLimit { every, wait });
            }
        }
        self.last_offer[side.index()] = Some(moves);
        self.draw_offer = Some(side);
        let clocks = self.clocks(now);
        Ok(vec![Emit::All(DraughtsEvent::DrawOffered {
            by: side,
            clocks,
        })])
    }

    /// Accepts (`accept`) or declines the opponent's standing offer.
    fn answer_draw(
        &mut self,
        side: Side,
        accept: bool,
        now: Millis,
    ) -> Result<Events, DraughtsGameError> {
        match self.draw_offer {
            Some(s) if s == side.opponent() => {
                if accept {
                    return Ok(self.finish(Outcome::draw(EndReason::Agreement), now));
                }
                self.draw_offer = None;
                let clocks = self.clocks(now);
                Ok(vec![Emit::All(DraughtsEvent::DrawDeclined {
                    by: side,
                    clocks,
                })])
            }
            Some(_) => Err(DraughtsGameError::OwnDrawOffer),
            None => Err(DraughtsGameError::NoDrawOffer),
        }
    }
}

impl Game for DraughtsGame {
    type Options = DraughtsSettings;
    type Action = DraughtsAction;
    type View = DraughtsView;
    type Event = DraughtsEvent;
    type Error = DraughtsGameError;
    type Ruling = crate::NoRuling;

    const SEATS: u8 = 2;

    /// Draughts has no chance: the seed is not used.
    fn new(options: &DraughtsSettings, _seed: u64) -> DraughtsGame {
        DraughtsGame {
            history: History::new(options.start, options.end_rules),
            clock: Clock::new(&options.time_control, options.max_lag_ms),
            settings: options.clone(),
            started: false,
            first_move_deadline: None,
            draw_offer: None,
            last_offer: [None, None],
        }
    }

    fn start(&mut self, now: Millis) -> Events {
        if self.started {
            return Vec::new();
        }
        self.started = true;
        if self.history.outcome().is_some() {
            return self.over(now);
        }
        self.first_move_deadline = Some(now + Millis(self.settings.first_move_ms));
        let fen = self.position().to_fen();
        let side_to_move = self.position().side_to_move();
        let clocks = self.clocks(now);
        let first_move_deadline = self.first_move_deadline.map(|m| m.0);
        vec![self.with_to_move(|to_move| DraughtsEvent::Started {
            fen: fen.clone(),
            side_to_move,
            to_move,
            clocks,
            first_move_deadline,
        })]
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: DraughtsAction,
        received: Received,
    ) -> Result<Events, DraughtsGameError> {
        let side = side_of(seat).ok_or(DraughtsGameError::NoSuchSeat)?;
        if self.history.outcome().is_some() {
            return Err(DraughtsError::GameOver.into());
        }
        if !matches!(action, DraughtsAction::Move { .. }) {
            if let Some(events) = self.flag_if_due(side, received) {
                return Ok(events);
            }
        }
        let now = received.at;
        match action {
            DraughtsAction::Move { notation } => self.play(side, &notation, received),
            DraughtsAction::Resign => {
                Ok(self.finish(Outcome::win(side.opponent(), EndReason::Resignation), now))
            }
            DraughtsAction::OfferDraw => self.offer_draw(side, now),
            DraughtsAction::AcceptDraw => self.answer_draw(side, true, now),
            DraughtsAction::DeclineDraw => self.answer_draw(side, false, now),
        }
    }

    /// The next side's time, started by the move, runs from the moment the move left the
    /// server.
    fn sent(&mut self, now: Millis) -> bool {
        self.clock.sent(now.0)
    }

    /// The flag is checked `max_lag_ms` after the clock reaches zero, so that a move already
    /// on its way is judged by its own lag allowance.
    fn deadline(&self) -> Option<Millis> {
        if !self.started || self.history.outcome().is_some() {
            return None;
        }
        let grace = Millis(self.settings.max_lag_ms);
        let flag = self.clock.flag_deadline().map(|d| Millis(d) + grace);
        match (self.first_move_deadline, flag) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_deadline(&mut self, now: Millis) -> Events {
        if !self.started || self.history.outcome().is_some() {
            return Vec::new();
        }
        if self.first_move_deadline.is_some_and(|d| d <= now) {
            return self.finish(Outcome::draw(EndReason::Aborted), now);
        }
        match self.clock.check_flag(now.0) {
            Some(i) => {
                let outcome = Outcome::win(side_at(i).opponent(), EndReason::TimeForfeit);
                self.finish(outcome, now)
            }
            None => Vec::new(),
        }
    }

    /// Leaving before one's first move aborts the game; later, it loses by abandonment.
    fn forfeit(&mut self, seat: Seat, now: Millis) -> Events {
        match side_of(seat) {
            Some(side) if self.started && self.history.outcome().is_none() => {
                let outcome = if self.clock.moves(side.index()) == 0 {
                    Outcome::draw(EndReason::Aborted)
                } else {
                    Outcome::win(side.opponent(), EndReason::Abandoned)
                };
                self.finish(outcome, now)
            }
            _ => Vec::new(),
        }
    }

    fn view(&self, viewer: Viewer, now: Millis) -> DraughtsView {
        let status = match (self.started, self.history.outcome()) {
            (_, Some(_)) => Status::Over,
            (true, None) => Status::Playing,
            (false, None) => Status::Waiting,
        };
        let moves: Vec<String> = self
            .history
            .moves()
            .iter()
            .map(|m| m.notation.clone())
            .collect();
        DraughtsView {
            status,
            fen: self.position().to_fen(),
            side_to_move: self.position().side_to_move(),
            to_move: self.to_move_for(viewer),
            last_move: moves.last().cloned(),
            moves,
            clocks: self.clocks(now),
            time_control: self.settings.time_control.to_string(),
            first_move_deadline: self.first_move_deadline.map(|m| m.0),
            draw_offer: self.draw_offer,
            result: self.history.outcome().map(result),
        }
    }

    fn is_over(&self) -> bool {
        self.history.outcome().is_some()
    }

    fn outcome(&self) -> Option<qipai_protocol::Outcome> {
        self.history.outcome().map(|o| result(o).outcome())
    }
}

fn result(outcome: Outcome) -> GameResult {
    GameResult {
        winner: outcome.winner,
        reason: outcome.reason,
    }
}
