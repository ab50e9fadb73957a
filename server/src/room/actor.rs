//! The room task: owns one game, its seats, its spectators and its timers.
//!
//! Nothing else touches the game: the rest of the server sends [`Command`]s to the room's
//! bounded inbox. The room never awaits a socket: it hands encoded frames to each
//! connection's [`Outbox`], which never blocks. Every event gets the next `event_seq`, and a
//! public event is encoded once for everybody. One actor serves every game through
//! [`OnWire`].

use std::sync::Arc;

use dashmap::DashMap;
use qipai_games::{Emit, Millis, Received, Seat, Viewer};
use qipai_protocol::{
    ErrorCode, Event, GameAction, PlayerId, RoomEvent, RoomId, RoomInfo, RoomOptions, RoomStatus,
    SeatInfo, Seq, ServerMsg, WireError,
};
use tokio::sync::{mpsc, watch};

use super::wire::OnWire;
use super::{encode_frame, Command, Outbox, RoomHandle, Summon, Who};
use crate::clock::ServerClock;
use crate::shutdown::Shutdown;

/// Room timings from the configuration.
#[derive(Clone, Copy, Debug)]
pub struct RoomTimings {
    /// How long an away player's seat waits before the seat is forfeited or freed.
    pub reconnect_grace: Millis,
    /// How long a finished game stays open.
    pub linger: Millis,
}

/// A seated player.
struct Occupant {
    player: PlayerId,
    name: String,
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
    /// The options as listed in the lobby (defaults filled in).
    options: RoomOptions,
    /// The rules; only this task touches them.
    game: G,
    /// One entry per seat; `None` is a free seat.
    seats: Vec<Option<Occupant>>,
    /// Watchers without a seat.
    spectators: Vec<(PlayerId, Outbox)>,
    /// The last event's sequence number.
    event_seq: u64,
    /// Whether every seat has been filled once and the game begun.
    started: bool,
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
    /// When the empty seats of a waiting room get bots.
    fill_at: Option<Millis>,
    /// Seats a bot.
    summon: Option<Summon>,
    /// Per seat: the player (id and name) who stayed away past the grace while a bot plays
    /// the seat; the seat is theirs again when they come back.
    reserved: Vec<Option<(PlayerId, String)>>,
}

/// Everything a new room needs besides its game.
pub struct RoomParts {
    pub id: RoomId,
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
}

impl<G: OnWire> Room<G> {
    /// Starts the room's task and registers it; returns its handle.
    pub fn spawn(game: G, parts: RoomParts) -> RoomHandle {
        let (tx, inbox) = mpsc::channel(parts.inbox_size);
        let seats: Vec<Option<Occupant>> = (0..G::SEATS).map(|_| None).collect();
        let (info, info_rx) = watch::channel(RoomInfo {
            room_id: parts.id,
            options: parts.options.clone(),
            seats: vec![None; seats.len()],
            spectators: 0,
            status: RoomStatus::Waiting,
        });
        let handle = RoomHandle {
            id: parts.id,
            game: G::KIND,
            tx,
            info: info_rx,
        };
        parts.registry.insert(parts.id, handle.clone());
        let fill_at = parts
            .summon
            .as_ref()
            .and(parts.bot_fill)
            .map(|delay| parts.clock.now() + delay);
        let reserved = vec![None; seats.len()];
        let room = Room {
            id: parts.id,
            options: parts.options,
            game,
            seats,
            spectators: Vec::new(),
            event_seq: 0,
            started: false,
            over_since: None,
            timings: parts.timings,
            clock: parts.clock,
            info,
            inbox,
            registry: parts.registry,
            shutdown: parts.shutdown,
            fill_at,
            summon: parts.summon,
            reserved,
        };
        let span = tracing::info_span!("room", room = parts.id, game = ?G::KIND);
        tokio::spawn(tracing::Instrument::instrument(room.run(), span));
        handle
    }

    async fn run(mut self) {
        tracing::debug!("open");
        let mut shutdown = self.shutdown.clone();
        loop {
            let deadline = self.next_deadline().map(|d| self.clock.instant(d));
            tokio::select! {
                cmd = self.inbox.recv() => match cmd {
                    Some(cmd) => self.on_command(cmd),
                    None => break,
                },
                () = sleep_until(deadline) => self.on_deadline(),
                () = shutdown.wait() => break,
            }
            if self.finished() {
                break;
            }
        }
        self.registry.remove(&self.id);
        self.say_goodbye();
        self.refuse_leftovers();
        tracing::debug!("closed");
    }

    /// The room is closing: everybody still in it is told so.
    fn say_goodbye(&self) {
        let left = ServerMsg::Left {
            seq: None,
            room_id: self.id,
        };
        let Some(frame) = encode_frame(&left) else {
            return;
        };
        let seated = self
            .seats
            .iter()
            .flatten()
            .filter_map(|o| o.outbox.as_ref());
        for outbox in seated.chain(self.spectators.iter().map(|(_, o)| o)) {
            outbox.send_frame(frame.clone());
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
                    if let Some(outbox) = self.outbox_of(player) {
                        outbox.send(&error(seq, ErrorCode::RoomClosed, "the room has closed"));
                    }
                }
                Command::Away { .. } => {}
            }
        }
    }

    /// The connection of a seated player or spectator.
    fn outbox_of(&self, player: PlayerId) -> Option<&Outbox> {
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
                seq,
                reply,
            } => {
                // The asker may have gone meanwhile; then nobody needs the answer.
                let _ = reply.send(self.on_join(who, seat, seq));
            }
            Command::Spectate { who, seq, reply } => {
                self.send_joined(&who.outbox, seq, None);
                self.spectators.push((who.player, who.outbox));
                let _ = reply.send(Ok(()));
            }
            Command::Leave { player, reply } => {
                let _ = reply.send(self.on_leave(player));
            }
            Command::Act {
                player,
                seq,
                action,
                received,
            } => self.on_act(player, seq, action, received),
            Command::Snapshot { player, .. } => self.on_snapshot(player),
            Command::Away { player, conn_id } => self.on_away(player, conn_id),
            Command::Back {
                player,
                outbox,
                reply,
            } => {
                let _ = reply.send(self.on_back(player, outbox));
            }
        }
        self.publish_info();
    }

    fn on_join(&mut self, who: Who, seat: Option<u8>, seq: Option<Seq>) -> Result<u8, WireError> {
        if let Some(s) = self.seat_of(who.player) {
            return Ok(s.0);
        }
        if self.game.is_over() {
            return Err(wire(ErrorCode::GameOver, "the game is over"));
        }
        // A person may take a bot's seat, when a free one could be taken.
        let takes_bot = |o: &Option<Occupant>| !who.bot && o.as_ref().is_some_and(|o| o.bot);
        let index = match seat {
            Some(s) => match self.seats.get(usize::from(s)) {
                Some(o) if o.is_none() || takes_bot(o) => usize::from(s),
                Some(_) => return Err(wire(ErrorCode::SeatTaken, "that seat is taken")),
                None => return Err(wire(ErrorCode::SeatTaken, "there is no such seat")),
            },
            None => self
                .seats
                .iter()
                .position(Option::is_none)
                .or_else(|| self.seats.iter().position(takes_bot))
                .ok_or_else(|| wire(ErrorCode::RoomFull, "every seat is taken"))?,
        };
        let seat = index as u8;
        let from_bot = self.seats[index].is_some();
        let allowed = if from_bot {
            self.game.can_replace(Seat(seat))
        } else {
            self.game.can_reseat(Seat(seat))
        };
        if self.started && !allowed {
            return Err(wire(
                ErrorCode::RoomFull,
                "the game has started: that seat cannot be taken now",
            ));
        }
        self.dismiss_bot(index);
        if !who.bot {
            // Another person took the seat a bot was keeping: it is theirs now.
            self.reserved[index] = None;
        }
        let info = SeatInfo {
            player_id: who.player,
            name: who.name.clone(),
            connected: true,
            bot: who.bot,
        };
        self.publish(vec![Emit::All(Event::Room(RoomEvent::Joined {
            seat,
            player: info,
        }))]);
        self.seats[index] = Some(Occupant {
            player: who.player,
            name: who.name,
            bot: who.bot,
            outbox: Some(who.outbox.clone()),
            away_since: None,
        });
        self.send_joined(&who.outbox, seq, Some(seat));
        if self.started && !from_bot {
            let emits = self.game.reseat(Seat(seat), self.clock.now());
            self.publish_game(emits);
        } else if self.seats.iter().all(Option::is_some) {
            self.started = true;
            let emits = self.game.start(self.clock.now());
            self.publish_game(emits);
        }
        Ok(seat)
    }

    fn on_leave(&mut self, player: PlayerId) -> Result<(), WireError> {
        if let Some(i) = self.spectators.iter().position(|(p, _)| *p == player) {
            self.spectators.swap_remove(i);
            return Ok(());
        }
        let seat = self
            .seat_of(player)
            .ok_or_else(|| wire(ErrorCode::NotInRoom, "you are not in this room"))?;
        if self.started && !self.game.is_over() {
            let emits = self.game.forfeit(seat, self.clock.now());
            self.publish_game(emits);
            self.note_over();
        }
        self.seats[seat.index()] = None;
        self.publish(vec![Emit::All(Event::Room(RoomEvent::Left {
            seat: seat.0,
        }))]);
        Ok(())
    }

    fn on_act(&mut self, player: PlayerId, seq: Seq, action: GameAction, received: Received) {
        let Some(seat) = self.seat_of(player) else {
            if let Some((_, outbox)) = self.spectators.iter().find(|(p, _)| *p == player) {
                outbox.send(&error(seq, ErrorCode::NotSeated, "spectators cannot act"));
            }
            return;
        };
        let Some(outbox) = self.outbox(seat).cloned() else {
            return;
        };
        let refusal = if !self.started {
            Some(wire(ErrorCode::NotStarted, "the game has not started"))
        } else if self.game.is_over() {
            Some(wire(ErrorCode::GameOver, "the game is over"))
        } else {
            None
        };
        if let Some(e) = refusal {
            outbox.send(&error(seq, e.code, e.message));
            return;
        }
        let action = match G::wire_action(action) {
            Ok(a) => a,
            Err(other) => {
                let msg = format!("this room plays {:?}, not {:?}", G::KIND, other.game());
                outbox.send(&error(seq, ErrorCode::WrongGame, msg));
                return;
            }
        };
        match self.game.apply(seat, action, received) {
            Ok(emits) => {
                outbox.send(&ServerMsg::Ok { seq });
                self.publish_game(emits);
                self.note_over();
            }
            Err(e) => {
                use qipai_games::Coded;
                outbox.send(&error(seq, e.code(), e.to_string()));
            }
        }
    }

    fn on_snapshot(&mut self, player: PlayerId) {
        let viewer = self.seat_of(player).map_or(Viewer::Spectator, Viewer::Seat);
        if let Some(outbox) = self.outbox_of(player) {
            outbox.send(&self.snapshot(viewer));
        }
    }

    fn on_away(&mut self, player: PlayerId, conn_id: u64) {
        self.spectators
            .retain(|(p, o)| !(*p == player && o.conn_id == conn_id));
        let Some(seat) = self.seat_of(player) else {
            return;
        };
        let now = self.clock.now();
        if let Some(occ) = self.seats[seat.index()].as_mut() {
            if occ.outbox.as_ref().is_some_and(|o| o.conn_id == conn_id) {
                occ.outbox = None;
                occ.away_since = Some(now);
                self.publish(vec![Emit::All(Event::Room(RoomEvent::Away {
                    seat: seat.0,
                }))]);
            }
        }
    }

    fn on_back(&mut self, player: PlayerId, outbox: Outbox) -> Option<u8> {
        if let Some(seat) = self.seat_of(player) {
            let was_away = self.seats[seat.index()]
                .as_ref()
                .is_some_and(|o| o.away_since.is_some());
            if let Some(occ) = self.seats[seat.index()].as_mut() {
                occ.outbox = Some(outbox.clone());
                occ.away_since = None;
            }
            // The snapshot comes first and already shows the seat connected; the others
            // learn it from the event that follows.
            self.send_joined(&outbox, None, Some(seat.0));
            if was_away {
                self.publish(vec![Emit::All(Event::Room(RoomEvent::Back {
                    seat: seat.0,
                }))]);
            }
            Some(seat.0)
        } else if let Some(index) = self
            .reserved
            .iter()
            .position(|r| r.as_ref().is_some_and(|(p, _)| *p == player))
        {
            // Away past the grace, their seat went to a bot: it is theirs again.
            self.dismiss_bot(index);
            let name = self.reserved[index]
                .take()
                .map(|(_, name)| name)
                .unwrap_or_default();
            let seat = Seat(index as u8);
            self.publish(vec![Emit::All(Event::Room(RoomEvent::Joined {
                seat: seat.0,
                player: SeatInfo {
                    player_id: player,
                    name: name.clone(),
                    connected: true,
                    bot: false,
                },
            }))]);
            self.seats[index] = Some(Occupant {
                player,
                name,
                bot: false,
                outbox: Some(outbox.clone()),
                away_since: None,
            });
            self.send_joined(&outbox, None, Some(seat.0));
            let emits = self.game.reseat(seat, self.clock.now());
            self.publish_game(emits);
            Some(seat.0)
        } else {
            // A spectator (dropped when the connection did), or a player whose seat was
            // freed meanwhile: either way they come back to watch.
            self.spectators.retain(|(p, _)| *p != player);
            self.send_joined(&outbox, None, None);
            self.spectators.push((player, outbox));
            None
        }
    }

    fn on_deadline(&mut self) {
        let now = self.clock.now();
        if self.game.deadline().is_some_and(|d| d <= now) {
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
                let emits = self.game.forfeit(seat, now);
                self.publish_game(emits);
                self.note_over();
            }
            let gone = self.seats[index].take();
            self.publish(vec![Emit::All(Event::Room(RoomEvent::Left {
                seat: seat.0,
            }))]);
            // A game that goes on without them gets a bot in their seat until they return.
            if self.started && !self.game.is_over() {
                if let Some(gone) = gone.filter(|o| !o.bot) {
                    self.reserved[index] = Some((gone.player, gone.name));
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
        self.publish_info();
    }

    /// Asks for a bot to sit at `seat` (it joins like any client).
    fn summon_bot(&self, seat: u8) {
        if let Some(summon) = &self.summon {
            summon(self.id, seat, self.options.clone());
        }
    }

    /// A bot in the seat at `index` stands up for a person: its connection is closed.
    fn dismiss_bot(&mut self, index: usize) {
        let is_bot = self.seats[index].as_ref().is_some_and(|o| o.bot);
        if !is_bot {
            return;
        }
        if let Some(bot) = self.seats[index].take() {
            if let Some(outbox) = bot.outbox {
                outbox.close();
            }
        }
        self.publish(vec![Emit::All(Event::Room(RoomEvent::Left {
            seat: index as u8,
        }))]);
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
        let fill = self.fill_at.filter(|_| !self.started);
        let game = if self.game.is_over() {
            None
        } else {
            self.game.deadline()
        };
        graces.chain(linger).chain(fill).chain(game).min()
    }

    /// Whether the room should close: the linger time is over, or nobody is left.
    fn finished(&self) -> bool {
        let empty = self.seats.iter().all(Option::is_none) && self.spectators.is_empty();
        let lingered = self
            .over_since
            .is_some_and(|t| t + self.timings.linger <= self.clock.now());
        lingered || (empty && (!self.started || self.game.is_over()))
    }

    fn note_over(&mut self) {
        if self.game.is_over() && self.over_since.is_none() {
            self.over_since = Some(self.clock.now());
        }
    }

    fn publish_game(&mut self, emits: Vec<Emit<G::Event>>) {
        let emits = emits
            .into_iter()
            .map(|e| match e {
                Emit::All(e) => Emit::All(G::wire_event(e)),
                Emit::Split { seat, own, others } => Emit::Split {
                    seat,
                    own: G::wire_event(own),
                    others: G::wire_event(others),
                },
            })
            .collect();
        self.publish(emits);
    }

    /// Sends each event to everybody: a public event is encoded once and the same bytes go
    /// to every connection; a split event is encoded twice.
    fn publish(&mut self, emits: Vec<Emit<Event>>) {
        let server_time = self.clock.now().0;
        for emit in emits {
            self.event_seq += 1;
            let frame = |event: Event| {
                encode_frame(&ServerMsg::Event {
                    room_id: self.id,
                    event_seq: self.event_seq,
                    server_time,
                    event,
                })
            };
            let (own, others) = match emit {
                Emit::All(e) => (None, frame(e)),
                Emit::Split { seat, own, others } => (Some((seat, frame(own))), frame(others)),
            };
            for (index, occ) in self.seats.iter().enumerate() {
                let Some(outbox) = occ.as_ref().and_then(|o| o.outbox.as_ref()) else {
                    continue;
                };
                let bytes = match &own {
                    Some((seat, own)) if seat.index() == index => own,
                    _ => &others,
                };
                if let Some(bytes) = bytes {
                    outbox.send_frame(bytes.clone());
                }
            }
            if let Some(bytes) = &others {
                for (_, outbox) in &self.spectators {
                    outbox.send_frame(bytes.clone());
                }
            }
        }
    }

    fn publish_info(&self) {
        let status = if self.game.is_over() {
            RoomStatus::Over
        } else if self.started {
            RoomStatus::Playing
        } else {
            RoomStatus::Waiting
        };
        self.info.send_replace(RoomInfo {
            room_id: self.id,
            options: self.options.clone(),
            seats: self.seat_infos(),
            spectators: self.spectators.len() as u32,
            status,
        });
    }

    fn send_joined(&self, outbox: &Outbox, seq: Option<Seq>, seat: Option<u8>) {
        outbox.send(&ServerMsg::Joined {
            seq,
            room_id: self.id,
            game: G::KIND,
            seat,
        });
        let viewer = seat.map_or(Viewer::Spectator, |s| Viewer::Seat(Seat(s)));
        outbox.send(&self.snapshot(viewer));
    }

    fn snapshot(&self, viewer: Viewer) -> ServerMsg {
        let now = self.clock.now();
        ServerMsg::Snapshot {
            room_id: self.id,
            event_seq: self.event_seq,
            server_time: now.0,
            you: match viewer {
                Viewer::Seat(s) => Some(s.0),
                Viewer::Spectator => None,
            },
            seats: self.seat_infos(),
            view: G::wire_view(self.game.view(viewer, now)),
        }
    }

    fn seat_infos(&self) -> Vec<Option<SeatInfo>> {
        self.seats
            .iter()
            .map(|o| {
                o.as_ref().map(|o| SeatInfo {
                    player_id: o.player,
                    name: o.name.clone(),
                    bot: o.bot,
                    connected: o.outbox.is_some(),
                })
            })
            .collect()
    }

    fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats
            .iter()
            .position(|o| o.as_ref().is_some_and(|o| o.player == player))
            .map(|i| Seat(i as u8))
    }

    fn outbox(&self, seat: Seat) -> Option<&Outbox> {
        self.seats.get(seat.index())?.as_ref()?.outbox.as_ref()
    }
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

fn wire(code: ErrorCode, message: &str) -> WireError {
    WireError {
        code,
        message: message.to_owned(),
    }
}

fn error(seq: Seq, code: ErrorCode, message: impl Into<String>) -> ServerMsg {
    ServerMsg::error(Some(seq), code, message)
}
