//! Write-ahead: a room with a [`Journal`] logs every input its game is given (start, each
//! accepted action, deadlines, forfeits, reseats) and every seat change to the store, and
//! sends an action's `ok` and events only once the step is committed. After a restart the
//! same log, replayed through the same game code, rebuilds the room ([`Room::restore`]).
//!
//! The room never waits inside a command: a step is queued and its output held; the run
//! loop then [`Room::settle`]s — hands the queue to the store's group-commit writer and waits
//! for the commit — before it takes the next command.
//!
//! Deadlines are the exception. A deal paced for people fires one every 40 ms (a card), and
//! logging each as a step with its own commit made the store, not the players, decide how
//! many tables a server holds. The deadlines that fire between two other steps are logged
//! as one step (the first one's time in the row, the later ones' in its `action`), and only
//! with the next write that must be durable: a deadline's events are not held, and a log
//! that lacks the last few still replays — the reopened room finds the deadline past and the
//! game does the same again (a Tuolaji card dealt again is the same card).
//!
//! The moment an action's answer is sent is logged the same lazy way ([`StepKind::Sent`]):
//! a clock the action started runs from then, not from the action's arrival, so the commit
//! is charged to nobody, and a replay starts it at the same moment.

use qipai_store::writer::Writer;
use qipai_store::{seated, unix_ms, RoomLog, RoomRow, SeatRow, StepKind, StepRow, Write};

use super::*;

/// What a room writes to the store, and what it still owes its players.
pub struct Journal {
    writer: Writer,
    /// The seed the game was made from (logged with the room).
    seed: u64,
    /// The next step's index.
    next: u64,
    /// Writes not yet handed to the writer.
    queue: Vec<Write>,
    /// Accepted actions whose `ok` and events wait for their commit.
    held: Vec<Held<Event>>,
    /// Who sat where when the seats were last logged: (player, bot).
    logged_seats: Vec<Option<(PlayerId, bool)>>,
    /// Whether the end of the game has been logged.
    logged_end: bool,
    /// The log of a room being reopened after a restart.
    replay: Option<RoomLog>,
    /// Every event of the game so far, for its record.
    history: crate::room::record::History,
    /// The store did not take a write after its retries: the room's state is ahead of its
    /// log, so the room closes (a restart reopens it as of its log).
    failed: bool,
    /// The owner's lease epoch, written with every step (fencing, several nodes).
    epoch: u64,
    /// Deadlines fired since the last step was queued, not yet logged: (time, event seq).
    deadlines: Vec<(Millis, u64)>,
    /// When the last held answers were sent, if that moved a clock and is not logged yet:
    /// (time, event seq). Always older than the deadlines waiting beside it.
    sent: Option<(Millis, u64)>,
}

/// How many fired deadlines may wait for the next durable write (more than a whole
/// three-deck deal, so a hand's deal is one step, written with the first bid after it).
const LAZY_DEADLINES: usize = 256;

/// An accepted action's answer, sent after the commit.
struct Held<E> {
    outbox: Outbox,
    seq: Seq,
    /// When the action arrived (for the action latency histogram).
    arrived: tokio::time::Instant,
    emits: Vec<Emit<E>>,
}

impl Journal {
    /// A journal for a new room made from `seed`.
    pub fn new(writer: Writer, seed: u64) -> Journal {
        Journal {
            writer,
            seed,
            next: 0,
            queue: Vec::new(),
            held: Vec::new(),
            logged_seats: Vec::new(),
            logged_end: false,
            replay: None,
            history: crate::room::record::History::default(),
            failed: false,
            epoch: 0,
            deadlines: Vec::new(),
            sent: None,
        }
    }

    /// Queues the deadlines fired since the last step as one step, after the send they
    /// followed.
    fn queue_deadlines(&mut self, room: u64) {
        if let Some((at, event_seq)) = self.sent.take() {
            self.push_step(room, StepKind::Sent, 0, Received::at(at), None, event_seq);
        }
        let Some(&(first, event_seq)) = self.deadlines.first() else {
            return;
        };
        let later: Vec<u64> = self.deadlines[1..].iter().map(|(at, _)| at.0).collect();
        // Taken, not cleared: a paced deal grows the list to hundreds of entries, and a
        // cleared list would keep their 4 KiB for the rest of the room's life.
        self.deadlines = Vec::new();
        let action = (!later.is_empty())
            .then(|| qipai_protocol::encode(&later).ok())
            .flatten();
        self.push_step(
            room,
            StepKind::Deadline,
            0,
            Received::at(first),
            action,
            event_seq,
        );
    }

    fn push_step(
        &mut self,
        room: u64,
        kind: StepKind,
        seat: u8,
        at: Received,
        action: Option<Vec<u8>>,
        event_seq: u64,
    ) {
        self.queue.push(Write::Step(StepRow {
            room,
            index: self.next,
            kind,
            seat,
            at_ms: at.at.0,
            lag_ms: at.lag.0,
            action,
            event_seq,
            epoch: self.epoch,
        }));
        self.next += 1;
    }

    /// Whether nothing needs writing yet: no step but deadlines (fewer than the limit), no
    /// seat change, nobody waiting for an answer.
    fn can_wait(&self) -> bool {
        self.queue.is_empty() && self.held.is_empty() && self.deadlines.len() < LAZY_DEADLINES
    }

    /// Whether a write failed: the room must close.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The room closes without a result (a competition's table forfeited): logged, so a
    /// restart does not reopen it.
    pub fn close(&mut self, room: RoomId, reason: &str) {
        self.queue.push(Write::Closed {
            room,
            reason: reason.to_owned(),
        });
    }

    /// A journal for a room reopened from `log`.
    pub fn reopen(writer: Writer, log: RoomLog) -> Journal {
        let mut journal = Journal::new(writer, log.room.seed);
        journal.next = log.steps.len() as u64;
        journal.epoch = log.epoch;
        journal.replay = Some(log);
        journal
    }
}

/// What a logged step carries (an action, a ruling), read back.
fn logged<T: serde::de::DeserializeOwned>(step: &StepRow) -> Result<T, ReplayError> {
    let bytes = step.action.as_deref().unwrap_or_default();
    rmp_serde::from_slice(bytes).map_err(|e| ReplayError::Unreadable {
        index: step.index,
        reason: e.to_string(),
    })
}

/// Why a room's log could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("step {index}: the action cannot be read: {reason}")]
    Unreadable { index: u64, reason: String },
    #[error("step {index}: the game refused the logged action: {reason}")]
    Refused { index: u64, reason: String },
    #[error("step {index} is out of order")]
    Gap { index: u64 },
}

impl<G: OnWire> Room<G> {
    /// A new room logs itself; a reopened one replays its log. `false` when the log could
    /// not be replayed: the room is then closed (logged, and marked closed in the store)
    /// and must not run.
    pub(super) fn restore(&mut self) -> bool {
        let Some(journal) = self.journal.as_mut() else {
            return true;
        };
        journal.logged_seats = vec![None; self.seats.len()];
        let Some(log) = journal.replay.take() else {
            let options = qipai_protocol::encode(&self.options).unwrap_or_default();
            journal.queue.push(Write::Room(RoomRow {
                id: self.id,
                game: G::KIND.name().to_owned(),
                options,
                seed: journal.seed,
                created_ms: unix_ms(),
            }));
            return true;
        };
        match self.replay(&log) {
            Ok(()) => {
                tracing::info!(steps = log.steps.len(), "reopened from the store");
                true
            }
            Err(error) => {
                tracing::error!(%error, "the room's log cannot be replayed: closed");
                self.registry.remove(&self.id);
                if let Some(j) = &self.journal {
                    j.writer.post(Write::Closed {
                        room: self.id,
                        reason: error.to_string(),
                    });
                }
                false
            }
        }
    }

    fn replay(&mut self, log: &RoomLog) -> Result<(), ReplayError> {
        for (expected, step) in (0u64..).zip(&log.steps) {
            let index = step.index;
            if index != expected {
                return Err(ReplayError::Gap { index });
            }
            let (seat, at) = (Seat(step.seat), Millis(step.at_ms));
            let emits = match step.kind {
                StepKind::Start => {
                    self.started = true;
                    self.game.start(at)
                }
                StepKind::Action => {
                    let action: G::Action = logged(step)?;
                    let received = Received {
                        at,
                        lag: Millis(step.lag_ms),
                    };
                    self.game
                        .apply(seat, action, received)
                        .map_err(|e| ReplayError::Refused {
                            index,
                            reason: e.to_string(),
                        })?
                }
                StepKind::Deadline => {
                    // The deadlines that fired after this one before the next step.
                    let later: Vec<u64> = match step.action {
                        Some(_) => logged(step)?,
                        None => Vec::new(),
                    };
                    let mut emits = self.game.on_deadline(at);
                    for at in later {
                        emits.extend(self.game.on_deadline(Millis(at)));
                    }
                    emits
                }
                StepKind::Forfeit => self.game.forfeit(seat, at),
                StepKind::Reseat => self.game.reseat(seat, at),
                StepKind::Ruling => self.game.rule(logged(step)?, at),
                StepKind::Sent => {
                    self.game.sent(at);
                    Vec::new()
                }
            };
            self.event_seq = step.event_seq + emits.len() as u64;
            let emits = Self::wire_emits(emits);
            self.remember(&emits);
        }
        // Everybody is away until they come back with their token (the reconnection grace
        // runs from now); the server's bots are summoned again.
        let now = self.clock.now();
        for (index, row) in seated(&log.seats, self.seats.len()).into_iter().enumerate() {
            let Some(SeatRow {
                player: Some(player),
                name,
                bot,
                ..
            }) = row
            else {
                continue;
            };
            self.seats[index] = Some(Occupant {
                player,
                name,
                bot,
                outbox: None,
                away_since: (!bot).then_some(now),
            });
            if let Some(j) = self.journal.as_mut() {
                j.logged_seats[index] = Some((player, bot));
            }
            if bot {
                self.summon_bot(index as u8);
            }
        }
        if self.seats.iter().any(Option::is_some) {
            self.fill_delay = None;
        }
        self.note_over();
        Ok(())
    }

    /// A bot summoned for a reopened room takes the seat its predecessor held.
    pub(super) fn rebot(&mut self, cmd: Command) -> Option<Command> {
        let Command::Join {
            who,
            seat: Some(seat),
            seat_code,
            seq,
            reply,
        } = cmd
        else {
            return Some(cmd);
        };
        let index = usize::from(seat);
        let orphan = self.seats.get(index).and_then(Option::as_ref);
        if !(who.bot && orphan.is_some_and(|o| o.bot && o.outbox.is_none())) {
            return Some(Command::Join {
                who,
                seat: Some(seat),
                seat_code,
                seq,
                reply,
            });
        }
        self.seats[index] = Some(Occupant {
            player: who.player,
            name: who.name,
            bot: true,
            outbox: Some(who.outbox.clone()),
            away_since: None,
        });
        self.send_joined(&who.outbox, seq, Some(seat));
        self.publish(vec![Emit::All(Event::Room(RoomEvent::Back { seat }))]);
        let _ = reply.send(Ok(seat));
        None
    }

    /// Keeps the events for the game's record.
    pub(super) fn remember(&mut self, emits: &[Emit<Event>]) {
        if let Some(j) = self.journal.as_mut() {
            j.history.push(emits);
        }
    }

    /// Why the store cannot save an action now (`None` when it can, or without a store): the
    /// action is then refused before it is applied, so the room stays as it was and takes
    /// the next action once the store is back.
    pub(super) fn store_down(&self) -> Option<String> {
        self.journal.as_ref()?.writer.unavailable()
    }

    /// The action's bytes for the log, when there is one.
    pub(super) fn log_bytes(&self, action: &G::Action) -> Option<Vec<u8>> {
        self.journal.as_ref()?;
        qipai_protocol::encode(action).ok()
    }

    /// Logs a game input other than an action (its output is not held: replaying the log
    /// without it reaches the same state, as the game does the same at the same time).
    pub(super) fn log_step(&mut self, kind: StepKind, seat: Seat, at: Millis) {
        if kind == StepKind::Deadline {
            let event_seq = self.event_seq;
            if let Some(j) = self.journal.as_mut() {
                j.deadlines.push((at, event_seq));
            }
            return;
        }
        self.queue_step(kind, seat, Received::at(at), None);
    }

    /// Logs an arbiter's ruling (replayed through `Game::rule`).
    pub(super) fn log_ruling(&mut self, ruling: &G::Ruling, at: Millis) {
        let bytes = self
            .journal
            .as_ref()
            .and_then(|_| qipai_protocol::encode(ruling).ok());
        self.queue_step(StepKind::Ruling, Seat(0), Received::at(at), bytes);
    }

    fn queue_step(&mut self, kind: StepKind, seat: Seat, at: Received, action: Option<Vec<u8>>) {
        let event_seq = self.event_seq;
        let id = self.id;
        if let Some(j) = self.journal.as_mut() {
            j.queue_deadlines(id);
            j.push_step(id, kind, seat.0, at, action, event_seq);
        }
    }

    /// An action was accepted: with a journal its answer waits for the commit.
    pub(super) fn accepted(
        &mut self,
        seat: Seat,
        seq: Seq,
        outbox: Outbox,
        logged: Option<Vec<u8>>,
        received: Received,
        emits: Vec<Emit<G::Event>>,
    ) {
        let arrived = self.clock.instant(received.at);
        if self.journal.is_none() {
            outbox.send_ok(seq, arrived);
            self.publish_game(emits);
            self.note_over();
            self.game.sent(self.clock.now());
            return;
        }
        self.queue_step(StepKind::Action, seat, received, logged);
        let emits = Self::wire_emits(emits);
        if let Some(j) = self.journal.as_mut() {
            j.held.push(Held {
                outbox,
                seq,
                arrived,
                emits,
            });
        }
    }

    /// Writes what this command queued (seat changes and the end of the game included),
    /// waits for the commit, then sends the answers held for it.
    pub(super) async fn settle(&mut self) {
        self.queue_seats();
        self.queue_end();
        let Some(j) = self.journal.as_mut() else {
            return;
        };
        if j.can_wait() {
            return;
        }
        j.queue_deadlines(self.id);
        let writer = j.writer.clone();
        let queue = std::mem::take(&mut j.queue);
        let held = std::mem::take(&mut j.held);
        let durable = writer.send_all(queue).await.durable().await;
        if !durable {
            // No silent loss: nothing unsaved is acknowledged. The game has applied what
            // the store refused, so the room cannot go on consistently; it closes, and a
            // restart reopens it from its log, as of its last saved step.
            tracing::error!(
                actions = held.len(),
                "the store did not take this room's steps after its retries: \
                 the actions are refused with store_unavailable and the room closes"
            );
            j.failed = true;
            for h in held {
                h.outbox.send(&error(
                    h.seq,
                    ErrorCode::StoreUnavailable,
                    "the store could not save this action: it was not applied and the room \
                     closes (it reopens as of its last saved action when the server restarts)",
                ));
            }
            return;
        }
        let answered = !held.is_empty();
        for h in held {
            h.outbox.send_ok(h.seq, h.arrived);
            self.publish(h.emits);
        }
        self.note_over();
        if answered {
            self.answers_sent();
        }
    }

    /// The held answers have just left: a clock they started runs from now, and the moment
    /// is logged with the next write for the replay.
    fn answers_sent(&mut self) {
        let now = self.clock.now();
        if !self.game.sent(now) {
            return;
        }
        let event_seq = self.event_seq;
        if let Some(j) = self.journal.as_mut() {
            j.sent = Some((now, event_seq));
        }
    }

    /// The room is closing (the server stops, say): what waits in the queue is handed to the
    /// writer, which writes everything queued before it ends. A revoked room's log belongs
    /// to its new owner, and a failed one's store refused it already.
    pub(super) fn flush_on_exit(&mut self) {
        let id = self.id;
        let Some(j) = self.journal.as_mut().filter(|j| !j.failed) else {
            return;
        };
        if self.revoked {
            return;
        }
        j.queue_deadlines(id);
        for write in std::mem::take(&mut j.queue) {
            j.writer.post(write);
        }
    }

    fn queue_seats(&mut self) {
        let now = self.clock.now();
        let id = self.id;
        let current: Vec<Option<(PlayerId, bool, String)>> = self
            .seats
            .iter()
            .map(|o| o.as_ref().map(|o| (o.player, o.bot, o.name.clone())))
            .collect();
        let Some(j) = self.journal.as_mut() else {
            return;
        };
        for (index, now_at) in current.into_iter().enumerate() {
            let key = now_at.as_ref().map(|(p, b, _)| (*p, *b));
            if j.logged_seats.get(index) == Some(&key) {
                continue;
            }
            if let Some(slot) = j.logged_seats.get_mut(index) {
                *slot = key;
            }
            let (player, bot, name) = match now_at {
                Some((p, b, n)) => (Some(p), b, n),
                None => (None, false, String::new()),
            };
            j.queue.push(Write::Seat(SeatRow {
                room: id,
                seat: index as u8,
                player,
                name,
                bot,
                at_ms: now.0,
            }));
        }
    }

    /// The game is over: its result (the final public view, as JSON) is logged once.
    fn queue_end(&mut self) {
        if !self.game.is_over() || self.journal.as_ref().is_none_or(|j| j.logged_end) {
            return;
        }
        let view = G::wire_view(self.game.view(Viewer::Spectator, self.clock.now()));
        let result = serde_json::to_string(&view).unwrap_or_else(|_| "null".into());
        let room = self.id;
        let players = self
            .seats
            .iter()
            .map(|o| o.as_ref().map_or_else(String::new, |o| o.name.clone()))
            .collect();
        let finished_ms = unix_ms();
        if let Some(j) = self.journal.as_mut() {
            j.logged_end = true;
            // The events of the action that ended the game are still held for the commit
            // (published, and so remembered, only after it): the record needs them too.
            let mut history = std::mem::take(&mut j.history);
            for held in &j.held {
                history.push(&held.emits);
            }
            let record = crate::room::record::build(
                room,
                G::KIND.name(),
                players,
                &view,
                self.game.outcome().as_ref(),
                &history,
                finished_ms,
            );
            j.queue.push(Write::Result {
                room,
                result,
                finished_ms,
            });
            j.queue.push(Write::Record(record));
        }
    }
}
