//! The room task: owns one game, its seats, its spectators and its timers.
//!
//! Nothing else touches the game: the rest of the server sends [`Command`]s to the room's
//! bounded inbox. The room never awaits a socket: it hands encoded frames to each
//! connection's [`Outbox`], which never blocks. Every event gets the next `event_seq`, and a
//! public event is encoded once for everybody. One actor serves every game through
//! [`OnWire`].
//!
//! This file holds the task's loop, actions and timers; `seating` the seats (joins, leaves,
//! reconnections, bots), `publish` what goes out (events, snapshots, the lobby's listing),
//! `outgoing` how it waits for the commit of what it shows, `durable` the log itself.

use std::collections::VecDeque;
use std::sync::Arc;

use dashmap::DashMap;
use qipai_games::{Emit, Millis, Received, Seat, Viewer};
use qipai_protocol::{
    ErrorCode, Event, GameAction, PlayerId, RoomEvent, RoomId, RoomInfo, RoomOptions, RoomStatus,
    SeatInfo, Seq, ServerMsg, TableTitle, WireError,
};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_tungstenite::tungstenite::Bytes;

use super::wire::OnWire;
use super::{encode_frame, Command, Outbox, ReservedSeat, RoomHandle, Summon, Who};
use crate::base::budget::RoomTicket;
use crate::base::clock::ServerClock;
use crate::base::shutdown::Shutdown;

mod comeback;
mod durable;
mod outgoing;
mod publish;
mod seating;

pub use durable::{Journal, ReplayError};
use qipai_store::StepKind;

/// Most commands a room takes before it hands their steps to the store as one commit:
/// enough for a table's worth of joins and reconnections, few enough that a deadline is not
/// kept waiting behind a flood.
const COMMANDS_PER_COMMIT: usize = 32;

/// Most commits a room has in flight at once; with that many it waits for the oldest before
/// it takes more commands or timers, so a slow store slows the room down instead of piling
/// up its held output.
const COMMITS_IN_FLIGHT: usize = 4;

/// Room timings from the configuration.
#[derive(Clone, Copy, Debug)]
pub struct RoomTimings {
    /// How long an away player's seat waits before the seat is forfeited or freed.
    pub reconnect_grace: Millis,
    /// How long a finished game stays open.
    pub linger: Millis,
    /// How long a dropped player's session lives: a seat a bot keeps for them is theirs
    /// until then.
    pub session_grace: Millis,
    /// How long a room with no person in it (seated, within their grace, or watching)
    /// stays open.
    pub empty_grace: Millis,
}

/// A seated player.
struct Occupant {
    player: PlayerId,
    name: String,
    /// The signed-in account the player plays as (`None`: a guest, a bot).
    account: Option<u64>,
    /// One of the server's bots: a person may take the seat.
    bot: bool,
    /// `None` while disconnected.
    outbox: Option<Outbox>,
    /// When the connection dropped, for the reconnection grace.
    away_since: Option<Millis>,
}

/// One room: the game and everybody in it.
pub struct Room<G: OnWire> {
    /// This room's id, named in every message it sends.
    id: RoomId,
    /// Its short number for people ("table 12"), in `joined`, the listing and the record.
    number: Option<u64>,
    /// Its name, when its owner gave one (a competition's table), in the same places.
    title: Option<TableTitle>,
    /// The options as listed in the lobby (defaults filled in).
    options: RoomOptions,
    /// The rules; only this task touches them.
    game: G,
    /// A new game as this room's began, for rebuilding it from its log (`comeback`).
    fresh: Box<dyn Fn() -> G + Send>,
    /// One entry per seat; `None` is a free seat.
    seats: Vec<Option<Occupant>>,
    /// Watchers without a seat.
    spectators: Vec<(PlayerId, Outbox)>,
    /// The last event's sequence number.
    event_seq: u64,
    /// Whether every seat has been filled once and the game begun.
    started: bool,
    /// A competition's table before its round starts: the game waits even with every
    /// seat taken (`Command::HoldStart`).
    held: bool,
    /// When the game ended, for the linger time.
    over_since: Option<Millis>,
    timings: RoomTimings,
    clock: ServerClock,
    /// The lobby's listing of this room, updated on every seat or status change.
    info: watch::Sender<RoomInfo>,
    inbox: mpsc::Receiver<Command>,
    /// The lobby's registry, from which the room removes itself when it closes.
    registry: Arc<DashMap<RoomId, RoomHandle>>,
    shutdown: Shutdown,
    /// How long after the first person sits down the empty seats get bots; taken (armed
    /// into `fill_at`) at that first join, so a room never fills before its creator is in.
    fill_delay: Option<Millis>,
    /// When the empty seats of a waiting room get bots.
    fill_at: Option<Millis>,
    /// Seats a bot.
    summon: Option<Summon>,
    /// Per seat: the player (id and name) who stayed away past the grace while a bot plays
    /// the seat, and until when nobody else may take it; the seat is theirs again when they
    /// come back.
    reserved: Vec<Option<Reserved>>,
    /// Since when no person has been in the room (only bots, or nobody).
    empty_since: Option<Millis>,
    /// Per seat: the person who last left it while the game was on, named in the game's
    /// record in place of the bot that finished it (or of nobody), so the game is in their
    /// list of games (我的对局) though they did not see its end.
    left_by: Vec<Option<OfRecord>>,
    /// The last person left and nobody is watching: the room closes now, not after the
    /// empty grace (which is for people who may come back), and gives back its place in the
    /// rooms budget at once.
    left_by_everyone: bool,
    /// The room's place in the rooms budget, given back when the task ends (or as the last
    /// person leaves, before they are told, so their next table is not refused).
    ticket: Option<RoomTicket>,
    /// The write-ahead log in the store (`durable`); `None` without a store.
    journal: Option<Journal>,
    /// Reserved seats (a competition's table): who alone may sit at each seat, by its code
    /// (no bots).
    reserved_seats: Option<Arc<[ReservedSeat]>>,
    /// How far the room's time line runs behind the node's (the time it spent without an
    /// owner, several nodes): actions' arrival times are moved onto the room's.
    skew: Millis,
    /// Several nodes: the node's lease, without which no action is taken.
    fence: Option<crate::room::fence::Fence>,
    /// Several nodes: another node owns the room now; it stops.
    revoked: bool,
    /// A competition's table forfeited: it closes, telling everybody this.
    closing: Option<WireError>,
    /// What the room has said since it last handed steps to the store (`outgoing`).
    out: Vec<outgoing::Out>,
    /// The commits handed to the store and not acknowledged yet, oldest first, each with
    /// the output it holds back (`outgoing`).
    in_flight: VecDeque<outgoing::Pending>,
    /// A sent commit's emptied buffer, kept for the next commit's output so that its
    /// capacity is not allocated again for each.
    spare_out: Option<Vec<outgoing::Out>>,
}

/// A seat a bot keeps for a player who dropped.
#[derive(Clone, Debug)]
struct Reserved {
    player: PlayerId,
    name: String,
    account: Option<u64>,
    /// The player's session ends then; until then only they may take the seat.
    until: Millis,
}

/// Who a game's record names at a seat: the name, and the account behind it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct OfRecord {
    pub name: String,
    pub account: Option<u64>,
}

/// Everything a new room needs besides its game.
pub struct RoomParts {
    pub id: RoomId,
    /// The short number people read and say, if the lobby counts them.
    pub number: Option<u64>,
    /// Its name, when its owner gave one (a competition's table: competition, round, table).
    pub title: Option<TableTitle>,
    pub options: RoomOptions,
    pub inbox_size: usize,
    pub timings: RoomTimings,
    pub clock: ServerClock,
    pub registry: Arc<DashMap<RoomId, RoomHandle>>,
    pub shutdown: Shutdown,
    /// Empty seats of a waiting room get bots this long after it opens (`None`: never).
    pub bot_fill: Option<Millis>,
    /// How bots are seated; without it (tests of the bare server) no bot ever comes.
    pub summon: Option<Summon>,
    /// The room's place in the rooms budget.
    pub ticket: Option<RoomTicket>,
    /// Where the room logs itself, or the log it reopens from.
    pub journal: Option<Journal>,
    /// Reserved seats (a competition's table): who alone may sit at each seat (with its
    /// code); no bots.
    pub reserved_seats: Option<Arc<[ReservedSeat]>>,
    /// How far the room's time line runs behind the node's clock (from its log).
    pub skew: Millis,
    /// Several nodes: the node's lease.
    pub fence: Option<crate::room::fence::Fence>,
}

impl<G: OnWire> Room<G> {
    /// Starts the room's task and registers it; returns its handle. `fresh` makes the
    /// room's game as it begins (from its settings and seed).
    pub fn spawn(fresh: impl Fn() -> G + Send + 'static, parts: RoomParts) -> RoomHandle {
        let (tx, inbox) = mpsc::channel(parts.inbox_size);
        let seats: Vec<Option<Occupant>> = (0..G::SEATS).map(|_| None).collect();
        let (info, info_rx) = watch::channel(RoomInfo {
            room_id: parts.id,
            options: parts.options.clone(),
            seats: vec![None; seats.len()],
            spectators: 0,
            status: RoomStatus::Waiting,
            number: parts.number,
            title: parts.title.clone(),
        });
        let handle = RoomHandle {
            id: parts.id,
            game: G::KIND,
            tx,
            info: info_rx,
        };
        parts.registry.insert(parts.id, handle.clone());
        let fill_delay = parts.summon.as_ref().and(parts.bot_fill);
        let reserved = vec![None; seats.len()];
        let left_by = vec![None; seats.len()];
        let mut room = Room {
            id: parts.id,
            number: parts.number,
            title: parts.title,
            options: parts.options,
            game: fresh(),
            fresh: Box::new(fresh),
            seats,
            spectators: Vec::new(),
            event_seq: 0,
            started: false,
            held: false,
            over_since: None,
            timings: parts.timings,
            clock: parts.clock.behind(parts.skew),
            info,
            inbox,
            registry: parts.registry,
            shutdown: parts.shutdown,
            fill_delay,
            fill_at: None,
            summon: parts.summon,
            reserved,
            empty_since: None,
            left_by,
            left_by_everyone: false,
            ticket: parts.ticket,
            journal: parts.journal,
            reserved_seats: parts.reserved_seats,
            skew: parts.skew,
            fence: parts.fence,
            revoked: false,
            closing: None,
            out: Vec::new(),
            in_flight: VecDeque::new(),
            spare_out: None,
        };
        if !room.restore() {
            return handle;
        }
        let span = tracing::info_span!("room", room = parts.id, game = ?G::KIND);
        // The task borrows the room it owns instead of moving it into `run`: a moved `self`
        // is kept twice in the future (the argument and the local), 2 KB more per table.
        let task = async move { room.run().await };
        tokio::spawn(tracing::Instrument::instrument(task, span));
        handle
    }

    async fn run(&mut self) {
        tracing::debug!("open");
        // A new room's row is committed before anybody hears of the room.
        self.settle().await;
        loop {
            let stopped = self.serve().await;
            // A room whose step the store refused rebuilds itself from its log and goes on.
            if !stopped && !self.revoked && self.failed() && self.come_back().await {
                continue;
            }
            self.end(stopped).await;
            return;
        }
    }

    /// Takes commands and timers until the room is finished (`false`) or the server stops
    /// (`true`).
    async fn serve(&mut self) -> bool {
        let mut shutdown = self.shutdown.clone();
        // One shutdown wait and one timer for the room's life, the timer moved only when the
        // next deadline moves: a new watch wait and a new `Sleep` in every turn of the loop
        // were a waker registration and a timer-wheel insert and removal per command.
        let stopping = shutdown.wait();
        let timer = tokio::time::sleep_until(tokio::time::Instant::now());
        tokio::pin!(stopping, timer);
        let mut armed = None;
        let mut stopped = false;
        loop {
            let deadline = self.next_deadline().map(|d| self.clock.instant(d));
            if let Some(at) = deadline.filter(|&at| armed != Some(at)) {
                timer.as_mut().reset(at);
            }
            armed = deadline;
            // With as many commits in flight as it may have, the room only waits for the
            // oldest (and for the end).
            let more = self.in_flight.len() < COMMITS_IN_FLIGHT;
            let oldest = self.in_flight.front_mut().map(|p| &mut p.ack);
            tokio::select! {
                cmd = self.inbox.recv(), if more => match cmd {
                    Some(cmd) => {
                        if !matches!(cmd, Command::Act { .. }) {
                            // Seat changes follow the committed room, so that the
                            // lobby's listing (sent after each commit) shows no seat
                            // before its commit.
                            self.drain().await;
                        }
                        self.take_commands(cmd);
                    }
                    None => {
                        stopped = true;
                        break;
                    }
                },
                () = &mut timer, if more && armed.is_some() => self.on_deadline(),
                durable = commit_of(oldest) => self.committed(durable).await,
                () = &mut stopping => {
                    stopped = true;
                    break;
                }
            }
            self.note_people();
            if self.deserted() {
                self.end_deserted_game();
            }
            self.hand_over().await;
            if self.finished() {
                break;
            }
        }
        stopped
    }

    /// The room ends: handed over, stopped with the server, or closed for good; everybody
    /// in it is told.
    async fn end(&mut self, stopped: bool) {
        if self.revoked {
            if !self.in_flight.is_empty() {
                // Nothing held goes out but refusals: the room lives on another node.
                self.lease_gone();
            }
        } else if stopped {
            // The server stops: what is in flight is sent once committed, what is queued is
            // written, and the room is reopened at the next start.
            self.drain().await;
            self.flush_on_exit();
        } else {
            self.close_for_good().await;
        }
        self.registry.remove(&self.id);
        if self.revoked {
            // Not `left`: the players are still in the room, which lives on another node.
            for outbox in self.everybody() {
                outbox.close();
            }
        } else {
            if let Some(why) = &self.closing {
                let told = error_without_seq(why);
                for outbox in self.everybody() {
                    outbox.send(&told);
                }
            }
            self.say_goodbye();
        }
        // The server's bots have nowhere else to go: their connections close, which stops
        // their searches and frees their places in the bots budget.
        let bots = self.seats.iter().flatten().filter(|o| o.bot);
        for outbox in bots.filter_map(|o| o.outbox.as_ref()) {
            outbox.close();
        }
        self.refuse_leftovers();
        tracing::debug!("closed");
    }

    /// Handles `first` and what else already waits in the inbox (up to
    /// [`COMMANDS_PER_COMMIT`]), so that the commands that came in while the last commit was
    /// written share the next one: a table that four quick players reach at once waits for
    /// one commit before it answers the fourth, not for four in a row (with a store under
    /// load, four commits in a row outlasted the joiners' patience and they were told `busy`).
    fn take_commands(&mut self, first: Command) {
        let mut next = Some(first);
        let mut taken = 0;
        while let Some(cmd) = next.take() {
            if let Some(cmd) = self.rebot(cmd) {
                self.on_command(cmd);
            }
            taken += 1;
            self.note_people();
            if taken < COMMANDS_PER_COMMIT && !self.finished() {
                next = self.inbox.try_recv().ok();
            }
        }
    }

    /// Commands that reached the inbox after the last one handled get an answer too.
    fn refuse_leftovers(&mut self) {
        self.inbox.close();
        let closed = || wire(ErrorCode::RoomClosed, "the room has closed");
        while let Ok(cmd) = self.inbox.try_recv() {
            match cmd {
                Command::Join { reply, .. } => {
                    let _ = reply.send(Err(closed()));
                }
                Command::Spectate { reply, .. } | Command::Leave { reply, .. } => {
                    let _ = reply.send(Err(closed()));
                }
                Command::Back { reply, .. } => {
                    let _ = reply.send(None);
                }
                Command::Act { player, seq, .. } | Command::Snapshot { player, seq } => {
                    if self.revoked {
                        continue;
                    }
                    if let Some(outbox) = self.outbox_of(player) {
                        outbox.send(&error(seq, ErrorCode::RoomClosed, "the room has closed"));
                    }
                }
                Command::Away { .. }
                | Command::Revoke
                | Command::Rule { .. }
                | Command::Close { .. }
                | Command::ReserveSeats { .. }
                | Command::HoldStart { .. } => {}
            }
        }
    }

    /// The connection of a seated player or spectator.
    pub(super) fn outbox_of(&self, player: PlayerId) -> Option<&Outbox> {
        match self.seat_of(player) {
            Some(seat) => self.outbox(seat),
            None => self
                .spectators
                .iter()
                .find(|(p, _)| *p == player)
                .map(|(_, o)| o),
        }
    }

    fn on_command(&mut self, cmd: Command) {
        match cmd {
            Command::Join {
                who,
                seat,
                seat_code,
                seq,
                reply,
            } => {
                let answer = self.on_join(*who, seat, seat_code.as_deref(), seq);
                self.reply(reply, answer);
            }
            Command::Spectate { who, seq, reply } => {
                self.send_joined(&who.outbox, seq, None);
                self.spectators.push((who.player, who.outbox));
                self.reply(reply, Ok(()));
            }
            Command::Leave { player, reply } => {
                let answer = self.on_leave(player);
                self.reply(reply, answer);
            }
            Command::Act {
                player,
                seq,
                action,
                received,
            } => self.on_act(player, seq, action, received),
            Command::Snapshot { player, .. } => self.on_snapshot(player),
            Command::Away { player, conn_id } => self.on_away(player, conn_id),
            Command::Rule { ruling } => self.on_rule(ruling),
            Command::Back {
                player,
                outbox,
                reply,
            } => {
                let answer = self.on_back(player, outbox);
                self.reply(reply, answer);
            }
            Command::Revoke => self.revoked = true,
            Command::Close { code, message } => self.on_close(code, message),
            Command::ReserveSeats { seats } => {
                if self.reserved_seats.is_some() {
                    self.reserved_seats = Some(seats);
                }
            }
            Command::HoldStart { held } => {
                self.held = held;
                self.start_if_full();
            }
        }
    }

    fn on_act(&mut self, player: PlayerId, seq: Seq, action: GameAction, received: Received) {
        let received = Received {
            at: received.at.saturating_sub(self.skew),
            lag: received.lag,
        };
        let Some(seat) = self.seat_of(player) else {
            if let Some((_, outbox)) = self.spectators.iter().find(|(p, _)| *p == player) {
                let outbox = outbox.clone();
                self.say(
                    &outbox,
                    error(seq, ErrorCode::NotSeated, "spectators cannot act"),
                );
            }
            return;
        };
        let Some(outbox) = self.outbox(seat).cloned() else {
            return;
        };
        let refusal = if self.fence.as_ref().is_some_and(|f| !f.ok()) {
            // Another node may take the room over soon: nothing more is accepted here.
            Some(wire(
                ErrorCode::LeaseLost,
                "this node lost its lease on the room: reconnect (any node) with your token",
            ))
        } else if let Some(reason) = self.store_down() {
            Some(WireError {
                code: ErrorCode::StoreUnavailable,
                message: format!(
                    "the store cannot save actions now ({reason}): nothing was applied, \
                     try again once it is back"
                ),
            })
        } else if !self.started {
            Some(wire(ErrorCode::NotStarted, "the game has not started"))
        } else if self.game.is_over() {
            Some(wire(ErrorCode::GameOver, "the game is over"))
        } else {
            None
        };
        if let Some(e) = refusal {
            self.say(&outbox, error(seq, e.code, e.message));
            return;
        }
        let action = match G::wire_action(action) {
            Ok(a) => a,
            Err(other) => {
                let msg = format!("this room plays {:?}, not {:?}", G::KIND, other.game());
                self.say(&outbox, error(seq, ErrorCode::WrongGame, msg));
                return;
            }
        };
        let logged = self.log_bytes(&action);
        match self.game.apply(seat, action, received) {
            Ok(emits) => self.accepted(seat, seq, outbox, logged, received, emits),
            Err(e) => {
                use qipai_games::Coded;
                let refused = ServerMsg::Error {
                    seq: Some(seq),
                    code: e.code(),
                    message: e.to_string(),
                    splits: e.splits(),
                    details: e.details(),
                };
                self.say(&outbox, refused);
            }
        }
    }

    /// An arbiter's ruling: applied before the game starts (kept by the game for its start)
    /// and while it is played; ignored once it is over.
    fn on_rule(&mut self, ruling: Box<dyn std::any::Any + Send>) {
        if self.game.is_over() {
            return;
        }
        let Ok(ruling) = ruling.downcast::<G::Ruling>() else {
            tracing::warn!(room = self.id, "a ruling of another game: dropped");
            return;
        };
        let ruling = *ruling;
        let now = self.clock.now();
        self.log_ruling(&ruling, now);
        let emits = self.game.rule(ruling, now);
        self.publish_game(emits);
        self.note_over();
    }

    /// A competition's table forfeited: logged closed, then the room stops (`run`).
    fn on_close(&mut self, code: ErrorCode, message: String) {
        if let Some(j) = self.journal.as_mut() {
            j.close(self.id, &message);
        }
        self.closing = Some(WireError { code, message });
    }

    fn on_snapshot(&mut self, player: PlayerId) {
        let viewer = self.seat_of(player).map_or(Viewer::Spectator, Viewer::Seat);
        if let Some(outbox) = self.outbox_of(player).cloned() {
            let snapshot = self.snapshot(viewer);
            self.say(&outbox, snapshot);
        }
    }

    fn on_deadline(&mut self) {
        let now = self.clock.now();
        if self.game.deadline().is_some_and(|d| d <= now) {
            self.log_step(StepKind::Deadline, Seat(0), now);
            let emits = self.game.on_deadline(now);
            self.publish_game(emits);
            self.note_over();
        }
        let grace = self.timings.reconnect_grace;
        for index in 0..self.seats.len() {
            let expired = self.seats[index]
                .as_ref()
                .and_then(|o| o.away_since)
                .is_some_and(|since| since + grace <= now);
            if !expired {
                continue;
            }
            let seat = Seat(index as u8);
            if self.started && !self.game.is_over() {
                self.log_step(StepKind::Forfeit, seat, now);
                let emits = self.game.forfeit(seat, now);
                self.publish_game(emits);
                self.note_over();
            }
            let gone = self.seats[index].take();
            self.note_left(index, gone.as_ref());
            self.publish(vec![Emit::All(Event::Room(RoomEvent::Left {
                seat: seat.0,
            }))]);
            // A game that goes on without them gets a bot in their seat until they return.
            if self.started && !self.game.is_over() {
                if let Some(gone) = gone.filter(|o| !o.bot) {
                    let until = gone
                        .away_since
                        .map_or(now, |t| t + self.timings.session_grace);
                    self.reserved[index] = Some(Reserved {
                        player: gone.player,
                        name: gone.name,
                        account: gone.account,
                        until,
                    });
                    self.summon_bot(seat.0);
                }
            }
        }
        if self.fill_at.is_some_and(|t| t <= now) {
            self.fill_at = None;
            if !self.started {
                let empty: Vec<u8> = (0..self.seats.len())
                    .filter(|&i| self.seats[i].is_none())
                    .map(|i| i as u8)
                    .collect();
                for seat in empty {
                    self.summon_bot(seat);
                }
            }
        }
    }

    /// The earliest of: the game's own deadline, a reconnection grace running out, the end
    /// of the linger time.
    fn next_deadline(&self) -> Option<Millis> {
        let grace = self.timings.reconnect_grace;
        let graces = self
            .seats
            .iter()
            .flatten()
            .filter_map(|o| o.away_since.map(|t| t + grace));
        let linger = self.over_since.map(|t| t + self.timings.linger);
        let empty = self.empty_since.map(|t| t + self.timings.empty_grace);
        let fill = self.fill_at.filter(|_| !self.started);
        let game = if self.game.is_over() {
            None
        } else {
            self.game.deadline()
        };
        graces
            .chain(linger)
            .chain(empty)
            .chain(fill)
            .chain(game)
            .min()
    }

    /// Whether a person is in the room: seated (connected or within their grace), keeping
    /// a seat a bot plays for them, or watching.
    fn has_person(&self) -> bool {
        let now = self.clock.now();
        let seated = self.seats.iter().flatten().any(|o| !o.bot);
        let kept = self.reserved.iter().flatten().any(|r| r.until > now);
        seated || kept || !self.spectators.is_empty()
    }

    /// Starts or stops the empty room's clock.
    fn note_people(&mut self) {
        if self.has_person() {
            self.empty_since = None;
        } else if self.empty_since.is_none() {
            self.empty_since = Some(self.clock.now());
        }
    }

    /// Whether the room should close: the linger time is over, nobody is left (a table held
    /// for its round's start waits), or no person has been in it for the empty grace (its
    /// bots stop with it).
    fn finished(&self) -> bool {
        let now = self.clock.now();
        let empty = self.seats.iter().all(Option::is_none) && self.spectators.is_empty();
        let lingered = self
            .over_since
            .is_some_and(|t| t + self.timings.linger <= now);
        self.revoked
            || self.closing.is_some()
            || self.failed()
            || lingered
            || self.deserted()
            || (empty && !self.held && (!self.started || self.game.is_over()))
    }

    /// Whether no person is coming back: the empty grace ran out, or the last person left.
    fn deserted(&self) -> bool {
        self.left_by_everyone
            || self
                .empty_since
                .is_some_and(|t| t + self.timings.empty_grace <= self.clock.now())
    }

    /// A game still going in a deserted room (a Tuolaji table whose person left: its bots
    /// would play on for nobody) ends now: the bots' seats are given up as the person's
    /// was, which ends a card game as abandoned, without a result, and its record is
    /// written — the game is in its player's list, not lost with the room.
    fn end_deserted_game(&mut self) {
        if !self.started || self.game.is_over() {
            return;
        }
        let now = self.clock.now();
        for index in 0..self.seats.len() {
            if !self.seats[index].as_ref().is_some_and(|o| o.bot) || self.game.is_over() {
                continue;
            }
            let seat = Seat(index as u8);
            self.log_step(StepKind::Forfeit, seat, now);
            let emits = self.game.forfeit(seat, now);
            self.publish_game(emits);
        }
        self.note_over();
    }

    /// `gone` left seat `index` while the game was on: the record will name them.
    fn note_left(&mut self, index: usize, gone: Option<&Occupant>) {
        let person = gone.filter(|o| !o.bot);
        if let (true, Some(o), Some(slot)) = (self.started, person, self.left_by.get_mut(index)) {
            *slot = Some(OfRecord {
                name: o.name.clone(),
                account: o.account,
            });
        }
    }

    /// Who played seat `index`, for the record: the person sitting there, else the person
    /// who left it during the game (rather than the bot that took it over), else the bot.
    fn player_of_record(&self, index: usize) -> OfRecord {
        let sitting = self.seats.get(index).and_then(Option::as_ref);
        let left = self.left_by.get(index).and_then(Option::as_ref);
        match (sitting, left) {
            (Some(o), Some(left)) if o.bot => left.clone(),
            (Some(o), _) => OfRecord {
                name: o.name.clone(),
                account: o.account,
            },
            (None, Some(left)) => left.clone(),
            (None, None) => OfRecord::default(),
        }
    }

    pub(super) fn note_over(&mut self) {
        if self.game.is_over() && self.over_since.is_none() {
            self.over_since = Some(self.clock.now());
        }
    }

    pub(super) fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats
            .iter()
            .position(|o| o.as_ref().is_some_and(|o| o.player == player))
            .map(|i| Seat(i as u8))
    }

    pub(super) fn outbox(&self, seat: Seat) -> Option<&Outbox> {
        self.seats.get(seat.index())?.as_ref()?.outbox.as_ref()
    }
}

/// Resolves when the oldest commit in flight is done (`true`) or failed; never when none is.
async fn commit_of(oldest: Option<&mut qipai_store::writer::Ack>) -> bool {
    match oldest {
        Some(ack) => ack.await,
        None => std::future::pending().await,
    }
}

fn wire(code: ErrorCode, message: &str) -> WireError {
    WireError {
        code,
        message: message.to_owned(),
    }
}

/// A refusal nobody asked for (a table forfeited), told as an `error` without `seq`.
fn error_without_seq(why: &WireError) -> ServerMsg {
    ServerMsg::error(None, why.code, why.message.clone())
}

fn error(seq: Seq, code: ErrorCode, message: impl Into<String>) -> ServerMsg {
    ServerMsg::error(Some(seq), code, message)
}
