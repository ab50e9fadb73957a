//! A timed xiangqi game as the room drives it: the [`Game`] trait over [`History`], a
//! [`Clock`], resignation and draw offers.
//!
//! Seat 0 plays Red, seat 1 Black. Time rules (xiangqi rules page, "Clocks", **\[D\]**): a
//! side's clock does not run before its first move, and a first move not made within
//! `first_move_ms` aborts the game with no result; after that, time is charged from the
//! moment the position was sent until the move arrives, less the lag allowance, and the flag
//! falls on the server's own deadline.

use qipai_protocol::xiangqi::{
    Clocks, GameResult, Iccs, MoveRecord, Status, XiangqiAction, XiangqiEvent, XiangqiView,
};
use qipai_protocol::ErrorCode;

use super::end::{EndReason, EndRules, History, Outcome};
use super::error::XiangqiError;
use super::moves::Move;
use super::position::Position;
use super::ruling::XiangqiRuling;
use super::Side;
use crate::clock::{Clock, Press, TimeControl};
use crate::game::{Coded, Emit, Game, Millis, Received, Seat, Viewer};

/// A xiangqi table's settings: the room's options with the server's defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XiangqiSettings {
    /// Where the game starts: usually [`Position::start`].
    pub start: Position,
    pub time_control: TimeControl,
    /// A side that has not made its first move this long after it was due aborts the game.
    pub first_move_ms: u64,
    pub end_rules: EndRules,
    /// 2.8(1), 9.1.3 online **\[D\]**: a side may offer a draw once per this many own moves.
    pub draw_offer_every_moves: u32,
    /// The most lag allowance per move.
    pub max_lag_ms: u64,
}

impl XiangqiSettings {
    /// The preset names [`XiangqiSettings::preset`] knows.
    pub const PRESETS: &'static [&'static str] = &["competition"];

    /// 五(二)2, the competition's settings: 30 minutes each + 10 s a move, flag fall loses,
    /// natural limit 40 moves with checks not counted (将军不计); the rest as the default.
    pub fn competition() -> XiangqiSettings {
        XiangqiSettings {
            time_control: TimeControl::preset("competition").unwrap_or_default(),
            end_rules: EndRules::competition(),
            ..XiangqiSettings::default()
        }
    }

    /// The settings a preset names (`competition`), if it is one.
    pub fn preset(name: &str) -> Option<XiangqiSettings> {
        (name == "competition").then(XiangqiSettings::competition)
    }
}

impl Default for XiangqiSettings {
    /// A plain table: 30 minutes + 10 s, natural limit 60 moves with checks counted (the
    /// rules' 4.2.4). This is not the competition's setting: see
    /// [`XiangqiSettings::competition`].
    fn default() -> XiangqiSettings {
        XiangqiSettings {
            start: Position::start(),
            time_control: TimeControl::default(),
            first_move_ms: 30_000,
            end_rules: EndRules::default(),
            draw_offer_every_moves: 10,
            max_lag_ms: 500,
        }
    }
}

/// Why a xiangqi action was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XiangqiGameError {
    /// The move itself breaks a rule or is not ICCS.
    #[error(transparent)]
    Rule(#[from] XiangqiError),
    #[error("It is {to_move:?}'s turn to move.")]
    NotYourTurn { to_move: Side },
    #[error("There is no draw offer from your opponent to answer.")]
    NoDrawOffer,
    #[error("Your own draw offer is still standing; your opponent must answer it.")]
    OwnDrawOffer,
    /// 2.8(1): offering again right after a refusal is not allowed; online, a rate limit.
    #[error("You may offer a draw once every {every} of your moves; make {wait} more first.")]
    DrawOfferLimit { every: u32, wait: u32 },
    #[error("There is no such seat at a xiangqi table.")]
    NoSuchSeat,
}

impl Coded for XiangqiGameError {
    fn code(&self) -> ErrorCode {
        match self {
            XiangqiGameError::Rule(e) => e.code(),
            XiangqiGameError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            XiangqiGameError::NoDrawOffer => ErrorCode::NoDrawOffer,
            XiangqiGameError::OwnDrawOffer => ErrorCode::OwnDrawOffer,
            XiangqiGameError::DrawOfferLimit { .. } => ErrorCode::DrawOfferLimit,
            XiangqiGameError::NoSuchSeat => ErrorCode::NotSeated,
        }
    }

    fn details(&self) -> Option<qipai_protocol::ErrorDetails> {
        use qipai_protocol::ErrorDetails;
        match self {
            XiangqiGameError::Rule(e) => e.details(),
            XiangqiGameError::NotYourTurn { to_move } => Some(ErrorDetails {
                side: Some(side_key(*to_move).to_owned()),
                ..ErrorDetails::default()
            }),
            // 2.8(1): online a rate limit; `limit` is the moves between offers, `count`
            // the moves still to make.
            XiangqiGameError::DrawOfferLimit { every, wait } => Some(ErrorDetails {
                limit: Some(*every),
                count: Some(*wait),
                ..ErrorDetails::rule("draw_offer_limit", "2.8")
            }),
            _ => None,
        }
    }
}

/// A side as the wire writes it.
fn side_key(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

/// One timed game between two seats.
#[derive(Clone, Debug)]
pub struct XiangqiGame {
    settings: XiangqiSettings,
    history: History,
    clock: Clock,
    /// Whether both seats are filled and the game has begun.
    started: bool,
    /// When the side to move must have made its first move (only before its first move).
    first_move_deadline: Option<Millis>,
    /// The side whose draw offer stands.
    draw_offer: Option<Side>,
    /// Each side's own move count when it last offered a draw.
    last_offer: [Option<u32>; 2],
    /// A competition's table: when its lateness limit passes ([`XiangqiRuling`]). Then
    /// a first move not made in time loses instead of aborting, and leaving before one's
    /// first move keeps the game waiting.
    limit: Option<Millis>,
}

impl XiangqiGame {
    /// The game's record so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    fn side_of(seat: Seat) -> Option<Side> {
        match seat.0 {
            0 => Some(Side::Red),
            1 => Some(Side::Black),
            _ => None,
        }
    }

    fn position(&self) -> &Position {
        self.history.position()
    }

    fn clocks(&self, now: Millis) -> Clocks {
        Clocks {
            red_ms: self.clock.remaining(Side::Red.index(), now.0),
            black_ms: self.clock.remaining(Side::Black.index(), now.0),
            running: self
                .clock
                .running()
                .map(|i| if i == 0 { Side::Red } else { Side::Black }),
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

    /// The side to move's legal moves, for `viewer`: only that side's seat gets them (the
    /// other seat and spectators cannot use them; most of a move's bytes were this list).
    fn legal_moves_for(&self, viewer: Viewer) -> Vec<Iccs> {
        match self.seat_to_move() {
            Some(seat) if viewer == Viewer::Seat(seat) => self.legal_moves(),
            _ => Vec::new(),
        }
    }

    fn legal_moves(&self) -> Vec<Iccs> {
        if self.seat_to_move().is_none() {
            return Vec::new();
        }
        self.history.legal_moves().iter().map(Move::iccs).collect()
    }

    /// A side whose time ran out while the flag timer waits out the lag cap cannot dodge the
    /// loss with another action (accepting a draw, say): the flag falls first. The acting
    /// side is judged with its own lag allowance, the other side's time by the cap.
    fn flag_if_due(&mut self, actor: Side, received: Received) -> Option<Vec<Emit<XiangqiEvent>>> {
        let running = self.clock.running()?;
        let allowance = if running == actor.index() {
            received.lag.0.min(self.settings.max_lag_ms)
        } else {
            self.settings.max_lag_ms
        };
        let loser = self
            .clock
            .check_flag(received.at.0.saturating_sub(allowance))?;
        let loser = if loser == 0 { Side::Red } else { Side::Black };
        let outcome = Outcome::win(loser.opponent(), EndReason::TimeForfeit);
        Some(self.finish(outcome, received.at))
    }

    /// When the side to move must make its first move, its turn having come at `now`: the
    /// first-move time, and at a competition's table not before its lateness limit.
    fn first_move_due(&self, now: Millis) -> Millis {
        let due = now + Millis(self.settings.first_move_ms);
        self.limit.map_or(due, |limit| due.max(limit))
    }

    /// The side to move let its first-move time pass: a casual game is aborted with no
    /// result; at a competition's table the side is absent and loses (4.1.5).
    fn first_move_missed(&mut self, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        let outcome = match self.limit {
            Some(_) => {
                let absent = self.position().side_to_move();
                Outcome::win(absent.opponent(), EndReason::Abandoned)
            }
            None => Outcome::draw(EndReason::Aborted),
        };
        self.finish(outcome, now)
    }

    /// Ends the game for a reason from outside the board and announces it.
    fn finish(&mut self, outcome: Outcome, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        if self.history.finish(outcome).is_err() {
            return Vec::new();
        }
        self.over(now)
    }

    /// The game has an outcome: stop the clock and announce it.
    fn over(&mut self, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        self.clock.stop(now.0);
        self.first_move_deadline = None;
        self.draw_offer = None;
        match self.history.outcome() {
            Some(outcome) => vec![Emit::All(XiangqiEvent::Over {
                result: result(outcome),
                clocks: self.clocks(now),
            })],
            None => Vec::new(),
        }
    }

    fn play(
        &mut self,
        side: Side,
        iccs: &str,
        received: Received,
    ) -> Result<Vec<Emit<XiangqiEvent>>, XiangqiGameError> {
        let to_move = self.position().side_to_move();
        if side != to_move {
            return Err(XiangqiGameError::NotYourTurn { to_move });
        }
        let mv = Move::from_iccs(iccs)?;
        self.history.check_move(mv)?;
        let now = received.at;
        if self.first_move_deadline.is_some_and(|d| d < now) {
            // Too late, even if the room's timer has not fired yet.
            return Ok(self.first_move_missed(now));
        }
        let timed = self.clock.moves(side.index()) > 0;
        if timed {
            match self.clock.press(side.index(), now.0, received.lag.0) {
                Ok(Press::Flagged) => {
                    let outcome = Outcome::win(side.opponent(), EndReason::TimeForfeit);
                    return Ok(self.finish(outcome, now));
                }
                Ok(Press::Ok { .. }) | Err(_) => {}
            }
        } else {
            // The clock does not run before a side's first move; the count still matters
            // for period controls.
            let _ = self.clock.free_move(side.index());
        }
        self.history.play(mv)?;
        if self.draw_offer == Some(side.opponent()) {
            self.draw_offer = None;
        }
        if self.history.outcome().is_some() {
            let mut events = vec![self.moved_event(side, mv, now)];
            events.extend(self.over(now));
            return Ok(events);
        }
        let next = side.opponent();
        if self.clock.moves(next.index()) > 0 {
            self.first_move_deadline = None;
            let _ = self.clock.start(next.index(), now.0);
        } else {
            self.first_move_deadline = Some(self.first_move_due(now));
        }
        Ok(vec![self.moved_event(side, mv, now)])
    }

    /// The event of `mv`, just played by `side`.
    fn moved_event(&self, side: Side, mv: Move, now: Millis) -> Emit<XiangqiEvent> {
        // The record of `mv`: whether it gave check is whether the side to move is in check.
        let (chinese, in_check) = self
            .history
            .moves()
            .last()
            .map(|m| (m.chinese.clone(), m.check))
            .unwrap_or_default();
        let iccs = mv.iccs();
        let fen = self.position().to_fen();
        let clocks = self.clocks(now);
        let first_move_deadline = self.first_move_deadline.map(|m| m.0);
        let draw_offer = self.draw_offer;
        Emit::part_for(self.seat_to_move(), self.legal_moves(), |legal_moves| {
            XiangqiEvent::Moved {
                side,
                iccs,
                chinese: chinese.clone(),
                fen: fen.clone(),
                in_check,
                legal_moves,
                clocks,
                first_move_deadline,
                draw_offer,
            }
        })
    }

    /// Offering while the opponent's offer stands accepts it.
    fn offer_draw(
        &mut self,
        side: Side,
        now: Millis,
    ) -> Result<Vec<Emit<XiangqiEvent>>, XiangqiGameError> {
        match self.draw_offer {
            Some(s) if s == side => return Err(XiangqiGameError::OwnDrawOffer),
            Some(_) => return self.accept_draw(side, now),
            None => {}
        }
        let every = self.settings.draw_offer_every_moves;
        let moves = self.clock.moves(side.index());
        if let Some(last) = self.last_offer[side.index()] {
            let made = moves.saturating_sub(last);
            if made < every {
                return Err(XiangqiGameError::DrawOfferLimit {
                    every,
                    wait: every - made,
                });
            }
        }
        self.last_offer[side.index()] = Some(moves);
        self.draw_offer = Some(side);
        Ok(vec![Emit::All(XiangqiEvent::DrawOffered { by: side })])
    }

    fn accept_draw(
        &mut self,
        side: Side,
        now: Millis,
    ) -> Result<Vec<Emit<XiangqiEvent>>, XiangqiGameError> {
        match self.draw_offer {
            Some(s) if s == side.opponent() => {
                Ok(self.finish(Outcome::draw(EndReason::Agreement), now))
            }
            Some(_) => Err(XiangqiGameError::OwnDrawOffer),
            None => Err(XiangqiGameError::NoDrawOffer),
        }
    }

    fn decline_draw(&mut self, side: Side) -> Result<Vec<Emit<XiangqiEvent>>, XiangqiGameError> {
        match self.draw_offer {
            Some(s) if s == side.opponent() => {
                self.draw_offer = None;
                Ok(vec![Emit::All(XiangqiEvent::DrawDeclined { by: side })])
            }
            Some(_) => Err(XiangqiGameError::OwnDrawOffer),
            None => Err(XiangqiGameError::NoDrawOffer),
        }
    }
}

impl Game for XiangqiGame {
    type Options = XiangqiSettings;
    type Action = XiangqiAction;
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Error = XiangqiGameError;
    type Ruling = XiangqiRuling;

    const SEATS: u8 = 2;

    /// Xiangqi has no chance: the seed is not used.
    fn new(options: &XiangqiSettings, _seed: u64) -> XiangqiGame {
        XiangqiGame {
            history: History::new(options.start.clone(), options.end_rules),
            clock: Clock::new(&options.time_control, options.max_lag_ms),
            settings: options.clone(),
            started: false,
            first_move_deadline: None,
            draw_offer: None,
            last_offer: [None, None],
            limit: None,
        }
    }

    fn start(&mut self, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        if self.started {
            return Vec::new();
        }
        self.started = true;
        self.first_move_deadline = Some(self.first_move_due(now));
        let fen = self.position().to_fen();
        let side_to_move = self.position().side_to_move();
        let in_check = self.position().in_check();
        let clocks = self.clocks(now);
        let first_move_deadline = self.first_move_deadline.map(|m| m.0);
        vec![Emit::part_for(
            self.seat_to_move(),
            self.legal_moves(),
            |legal_moves| XiangqiEvent::Started {
                fen: fen.clone(),
                side_to_move,
                in_check,
                legal_moves,
                clocks,
                first_move_deadline,
            },
        )]
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: XiangqiAction,
        received: Received,
    ) -> Result<Vec<Emit<XiangqiEvent>>, XiangqiGameError> {
        let side = XiangqiGame::side_of(seat).ok_or(XiangqiGameError::NoSuchSeat)?;
        if self.history.outcome().is_some() {
            return Err(XiangqiError::GameOver.into());
        }
        if !matches!(action, XiangqiAction::Move { .. }) {
            if let Some(events) = self.flag_if_due(side, received) {
                return Ok(events);
            }
        }
        match action {
            XiangqiAction::Move { iccs } => self.play(side, &iccs, received),
            XiangqiAction::Resign => Ok(self.finish(
                Outcome::win(side.opponent(), EndReason::Resignation),
                received.at,
            )),
            XiangqiAction::OfferDraw => self.offer_draw(side, received.at),
            XiangqiAction::AcceptDraw => self.accept_draw(side, received.at),
            XiangqiAction::DeclineDraw => self.decline_draw(side),
        }
    }

    /// The next side's time, started by the move, runs from the moment the move left the
    /// server.
    fn sent(&mut self, now: Millis) -> bool {
        self.clock.sent(now.0)
    }

    /// The flag is checked `max_lag_ms` after the clock reaches zero, so that a move already
    /// on its way is judged by its own lag allowance rather than lost to the timer.
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

    fn on_deadline(&mut self, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        if !self.started || self.history.outcome().is_some() {
            return Vec::new();
        }
        if self.first_move_deadline.is_some_and(|d| d <= now) {
            return self.first_move_missed(now);
        }
        match self.clock.check_flag(now.0) {
            Some(i) => {
                let loser = if i == 0 { Side::Red } else { Side::Black };
                self.finish(Outcome::win(loser.opponent(), EndReason::TimeForfeit), now)
            }
            None => Vec::new(),
        }
    }

    /// A side that leaves before its first move aborts the game (nothing was at stake yet);
    /// later, it loses by abandonment. At a competition's table nothing is aborted: before
    /// its first move the side may come back ([`Game::can_reseat`]), and the first-move
    /// time, never before the lateness limit, decides (4.1.5).
    fn forfeit(&mut self, seat: Seat, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        match XiangqiGame::side_of(seat) {
            Some(side) if self.started && self.history.outcome().is_none() => {
                let outcome = match (self.clock.moves(side.index()), self.limit) {
                    (0, Some(_)) => return Vec::new(),
                    (0, None) => Outcome::draw(EndReason::Aborted),
                    _ => Outcome::win(side.opponent(), EndReason::Abandoned),
                };
                self.finish(outcome, now)
            }
            _ => Vec::new(),
        }
    }

    /// At a competition's table, a side that left before its first move takes its seat
    /// again (the seat is reserved for its entry: nobody else can).
    fn can_reseat(&self, seat: Seat) -> bool {
        self.limit.is_some()
            && self.history.outcome().is_none()
            && XiangqiGame::side_of(seat).is_some_and(|side| self.clock.moves(side.index()) == 0)
    }

    /// A competition's table ([`XiangqiRuling::CompetitionTable`]): given before the start
    /// (the last one stands); ignored once the game has started.
    fn rule(&mut self, ruling: XiangqiRuling, now: Millis) -> Vec<Emit<XiangqiEvent>> {
        match ruling {
            XiangqiRuling::CompetitionTable { limit_in } if !self.started => {
                self.limit = Some(now + limit_in);
            }
            XiangqiRuling::CompetitionTable { .. } => {}
        }
        Vec::new()
    }

    fn view(&self, viewer: Viewer, now: Millis) -> XiangqiView {
        let status = match (self.started, self.history.outcome()) {
            (_, Some(_)) => Status::Over,
            (true, None) => Status::Playing,
            (false, None) => Status::Waiting,
        };
        let position = self.position();
        XiangqiView {
            status,
            fen: position.to_fen(),
            side_to_move: position.side_to_move(),
            legal_moves: self.legal_moves_for(viewer),
            in_check: position.in_check(),
            last_move: self.history.moves().last().map(|m| m.iccs),
            moves: self
                .history
                .moves()
                .iter()
                .map(|m| MoveRecord {
                    iccs: m.iccs,
                    chinese: m.chinese.clone(),
                })
                .collect(),
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
