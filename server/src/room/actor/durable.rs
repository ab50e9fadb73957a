//! Write-ahead: a room with a [`Journal`] logs its creation, every input its game is given
//! (start, each accepted action, each deadline, forfeits, reseats, rulings), every seat
//! change and its end to the store, and says nothing about any of them before they are
//! committed (`outgoing`: one rule for every message, timers' steps and joins as much as
//! actions). After a restart the same log, replayed through the same game code, rebuilds
//! the room ([`Room::restore`]).
//!
//! The room never waits inside a command, nor for a commit: a step is queued and its output
//! held; the run loop then hands the queue to the store's group-commit writer
//! ([`Room::hand_over`]) and takes its next command while the store commits. Each commit's
//! output goes out when the writer acknowledges it ([`Room::committed`]), oldest first, so
//! a room with several commands in quick succession (four seats bidding, a timer step beside
//! an action) pays one commit's wait, not one per command in a row.
//!
//! The moment an action's answer is sent is the one input logged lazily: it rides on the next
//! step's row ([`StepRow::sent_ms`]; a [`StepKind::Sent`] row of its own when the next write
//! has no step, a seat change say), so a closed-loop action writes one row. A clock the
//! action started runs from then, not from the action's arrival, so the commit is charged
//! to nobody, and a replay starts it at the same moment. It shows nothing by itself: without
//! it a replay starts that clock at the action's arrival.

use qipai_store::writer::Writer;
use qipai_store::{seated, unix_ms, RoomLog, RoomRow, SeatRow, StepKind, StepRow, Write};

use super::outgoing::{send_out, Out, Pending};
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
    /// Who sat where when the seats were last logged: (player, bot).
    logged_seats: Vec<Option<(PlayerId, bool)>>,
    /// Whether the end of the game has been logged.
    logged_end: bool,
    /// The log of a room being reopened after a restart.
    replay: Option<RoomLog>,
    /// Every event of the game so far, for its record.
    history: crate::room::record::History,
    /// The store did not take a write after its retries: the room's state is ahead of its
    /// log, so the room rebuilds itself from the log (`comeback`).
    failed: bool,
    /// The owner's lease epoch, written with every step (fencing, several nodes).
    epoch: u64,
    /// When the last answers were sent, if that moved a clock and is not logged yet:
    /// (time, event seq).
    sent: Option<(Millis, u64)>,
}

impl Journal {
    /// The events kept for the game's record.
    pub(super) fn history(&mut self) -> &mut crate::room::record::History {
        &mut self.history
    }

    /// A journal for a new room made from `seed`.
    pub fn new(writer: Writer, seed: u64) -> Journal {
        Journal {
            writer,
            seed,
            next: 0,
            queue: Vec::new(),
            logged_seats: Vec::new(),
            logged_end: false,
            replay: None,
            history: crate::room::record::History::default(),
            failed: false,
            epoch: 0,
            sent: None,
        }
    }

    /// Queues the moment the last answers were sent as a row of its own, when no step
    /// carried it ([`Journal::push_step`]) and something else is written.
    fn queue_sent(&mut self, room: u64) {
        if let Some((at, event_seq)) = self.sent.take() {
            self.push_step(room, StepKind::Sent, 0, Received::at(at), None, event_seq);
        }
    }

    /// Queues a step, with the moment the last answers were sent if that is not logged yet.
    fn push_step(
        &mut self,
        room: u64,
        kind: StepKind,
        seat: u8,
        at: Received,
        action: Option<Vec<u8>>,
        event_seq: u64,
    ) {
        // Empty when this is the `Sent` row itself: `queue_sent` took the moment first.
        let sent_ms = self.sent.take().map(|(at, _)| at.0);
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
            sent_ms,
        }));
        self.next += 1;
    }

    /// The writer it hands its steps to.
    pub fn writer(&self) -> &Writer {
        &self.writer
    }

    /// The owner's lease epoch its steps carry.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Whether a write failed: the room must be rebuilt from its log.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The room closes (without a result, or after one): logged, so a restart does not
    /// reopen it.
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
        self.restore_with(&[])
    }

    /// [`Room::restore`], with the connections of people still in the room (`back`, a room
    /// rebuilt in place): they are at their seats again at once, not away.
    pub(super) fn restore_with(&mut self, back: &[(PlayerId, Outbox)]) -> bool {
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
                number: self.number,
                addr: self
                    .ticket
                    .as_ref()
                    .and_then(|t| t.addr_key())
                    .map(|a| a.to_string()),
            }));
            return true;
        };
        match self.replay(&log, back) {
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

    fn replay(&mut self, log: &RoomLog, back: &[(PlayerId, Outbox)]) -> Result<(), ReplayError> {
        for (expected, step) in (0u64..).zip(&log.steps) {
            let index = step.index;
            if index != expected {
                return Err(ReplayError::Gap { index });
            }
            let (seat, at) = (Seat(step.seat), Millis(step.at_ms));
            if let Some(sent) = step.sent_ms {
                self.game.sent(Millis(sent));
            }
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
        // runs from now); the server's bots are summoned again. Those still connected (a room
        // rebuilt in place) keep their seats and connections.
        let now = self.clock.now();
        for (index, row) in seated(&log.seats, self.seats.len()).into_iter().enumerate() {
            let Some(SeatRow {
                player: Some(player),
                name,
                account,
                bot,
                ..
            }) = row
            else {
                continue;
            };
            let outbox = back
                .iter()
                .find(|(p, _)| *p == player)
                .map(|(_, o)| o.clone());
            let here = outbox.is_some();
            self.seats[index] = Some(Occupant {
                player,
                name,
                account,
                bot,
                outbox,
                away_since: (!bot && !here).then_some(now),
            });
            if let Some(j) = self.journal.as_mut() {
                j.logged_seats[index] = Some((player, bot));
            }
            if bot && !here {
                self.summon_bot(index as u8);
            }
        }
        if self.seats.iter().any(Option::is_some) {
            self.fill_delay = None;
        }
        self.left_during_game(log);
        self.note_over();
        Ok(())
    }

    /// Who left a seat during the game, read back from the seat changes as `note_left`
    /// noted it before the restart: a person whose seat went to a bot or to nobody from the
    /// game's start on (a change in the start's millisecond counts as after it: leaving
    /// never escapes a result). The record names them there and a rated table rates them
    /// (docs/ratings.md), after a restart as before it.
    fn left_during_game(&mut self, log: &RoomLog) {
        let Some(start) = log.steps.iter().find(|s| s.kind == StepKind::Start) else {
            return;
        };
        let mut sitting: Vec<Option<OfRecord>> = vec![None; self.seats.len()];
        for row in &log.seats {
            let index = usize::from(row.seat);
            let Some(slot) = sitting.get_mut(index) else {
                continue;
            };
            if row.player.is_some() && !row.bot {
                *slot = Some(OfRecord {
                    name: row.name.clone(),
                    account: row.account,
                });
                continue;
            }
            let gone = slot.take();
            if let (Some(gone), Some(left)) = (gone, self.left_by.get_mut(index)) {
                if row.at_ms >= start.at_ms {
                    *left = Some(gone);
                }
            }
        }
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
            account: None,
            bot: true,
            outbox: Some(who.outbox.clone()),
            away_since: None,
        });
        self.send_joined(&who.outbox, seq, Some(seat));
        self.publish(vec![Emit::All(Event::Room(RoomEvent::Back { seat }))]);
        self.reply(reply, Ok(seat));
        None
    }

    /// Whether a write failed: the room's game is ahead of its log.
    pub(super) fn failed(&self) -> bool {
        self.journal.as_ref().is_some_and(Journal::failed)
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

    /// Logs a game input other than an action (a deadline, a forfeit, the start, a reseat):
    /// its events, like an action's, go out after the commit.
    pub(super) fn log_step(&mut self, kind: StepKind, seat: Seat, at: Millis) {
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
            j.push_step(id, kind, seat.0, at, action, event_seq);
        }
    }

    /// An action was accepted: its `ok` and events wait for the commit (`outgoing`).
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
        self.queue_step(StepKind::Action, seat, received, logged);
        self.out.push(Out::Ok {
            outbox,
            seq,
            arrived,
        });
        self.publish_game(emits);
        self.note_over();
    }

    /// Hands what the last commands and timers queued (seat changes and the end of the game
    /// included) to the store's writer, with what the room said meanwhile held beside it as a
    /// commit in flight ([`Room::committed`] sends it), without waiting for the commit. What
    /// the room said with nothing to write waits behind the commits in flight, or goes at once
    /// when there are none.
    pub(super) async fn hand_over(&mut self) {
        self.queue_seats();
        self.queue_end();
        let id = self.id;
        let pending = self.journal.as_ref().is_some_and(|j| !j.queue.is_empty());
        if !pending {
            if let Some(last) = self.in_flight.back_mut() {
                last.out.append(&mut self.out);
                return;
            }
            if !self.out.is_empty() && !self.may_send().await {
                self.lease_gone();
                return;
            }
            let answered = send_out(&mut self.out);
            self.sent_all(answered);
            return;
        }
        if !self.may_send().await {
            self.lease_gone();
            return;
        }
        let Some(j) = self.journal.as_mut() else {
            return;
        };
        j.queue_sent(id);
        let queue = std::mem::take(&mut j.queue);
        let ack = j.writer.send_all(queue).await;
        let out = std::mem::replace(&mut self.out, self.spare_out.take().unwrap_or_default());
        self.in_flight.push_back(Pending { ack, out });
    }

    /// The oldest commit in flight is done (`durable`) or failed. Done: its output goes out,
    /// after every earlier commit's (which went at their own commits). Failed: nothing
    /// unsaved is shown; the game has applied what the store refused, so the room cannot go
    /// on from memory: it rebuilds itself from its log, as of its last saved step
    /// (`comeback`).
    pub(super) async fn committed(&mut self, durable: bool) {
        let Some(mut done) = self.in_flight.pop_front() else {
            return;
        };
        if !durable {
            tracing::error!(
                "the store did not take this room's steps after its retries: its actions \
                 are refused with store_unavailable and the room rebuilds itself from its log"
            );
            if let Some(j) = self.journal.as_mut() {
                j.failed = true;
            }
            self.in_flight.push_front(done);
            self.refuse_held();
            return;
        }
        // The commit may have outlasted the lease (a paused process).
        if !self.may_send().await {
            self.in_flight.push_front(done);
            self.lease_gone();
            return;
        }
        let answered = send_out(&mut done.out);
        if self.spare_out.is_none() {
            self.spare_out = Some(done.out);
        }
        self.sent_all(answered);
    }

    /// Something went out: the lobby's listing follows (seat changes wait for the commits
    /// in flight before they are made, so the seats it lists are committed; a timer's seat
    /// change may run ahead of it by the commits still in flight), and a clock the answers
    /// started runs from now. A room with no commit left in flight keeps one output buffer,
    /// as a room without a store does: the spare becomes the buffer it says its next things
    /// into, or goes if that one has its own (a spare is worth keeping while commits follow
    /// each other; at a human pace it was a second buffer at its high-water size in every
    /// idle room).
    fn sent_all(&mut self, answered: bool) {
        if self.in_flight.is_empty() {
            if let Some(spare) = self.spare_out.take() {
                if self.out.capacity() == 0 {
                    self.out = spare;
                }
            }
        }
        self.publish_info();
        self.note_over();
        if answered {
            self.answers_sent();
        }
    }

    /// Hands over what is queued and waits until every commit in flight is done and its
    /// output sent (a new room before it is heard of, a room closing).
    pub(super) async fn settle(&mut self) {
        self.hand_over().await;
        self.drain().await;
    }

    /// Waits until every commit in flight is done and its output sent.
    pub(super) async fn drain(&mut self) {
        while let Some(oldest) = self.in_flight.front_mut() {
            let durable = (&mut oldest.ack).await;
            self.committed(durable).await;
        }
    }

    /// The room closes for good (its game over, everybody gone, a table forfeited): the
    /// store marks it closed before anybody is told, so a restart does not reopen it.
    pub(super) async fn close_for_good(&mut self) {
        if self.revoked || self.failed() {
            return;
        }
        let id = self.id;
        if let Some(j) = self.journal.as_mut() {
            j.close(id, "the room closed");
        }
        self.settle().await;
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
        j.queue_sent(id);
        for write in std::mem::take(&mut j.queue) {
            j.writer.post(write);
        }
    }

    fn queue_seats(&mut self) {
        let now = self.clock.now();
        let id = self.id;
        // Each seat as it would be logged now: who sits there, or nobody.
        let current: Vec<SeatRow> = (self.seats.iter().enumerate())
            .map(|(index, o)| SeatRow {
                room: id,
                seat: index as u8,
                player: o.as_ref().map(|o| o.player),
                name: o.as_ref().map(|o| o.name.clone()).unwrap_or_default(),
                account: o.as_ref().and_then(|o| o.account),
                bot: o.as_ref().is_some_and(|o| o.bot),
                at_ms: now.0,
            })
            .collect();
        let Some(j) = self.journal.as_mut() else {
            return;
        };
        for (index, row) in current.into_iter().enumerate() {
            let key = row.player.map(|p| (p, row.bot));
            if j.logged_seats.get(index) == Some(&key) {
                continue;
            }
            if let Some(slot) = j.logged_seats.get_mut(index) {
                *slot = key;
            }
            j.queue.push(Write::Seat(row));
        }
    }

    /// The game is over: its result (the final public view, as JSON) is logged once, with
    /// its record and, at a rated table, the update of its accounts' ratings (`rated`,
    /// computed by the store in that commit): all of them in the same commit as the game's
    /// last step.
    fn queue_end(&mut self) {
        let ends = self
            .journal
            .as_ref()
            .is_some_and(|j| !j.logged_end && self.game.is_over());
        if !ends {
            return;
        }
        let view = G::wire_view(self.game.view(Viewer::Spectator, self.clock.now()));
        let result = serde_json::to_string(&view).unwrap_or_else(|_| "null".into());
        let room = self.id;
        let (players, accounts): (Vec<String>, Vec<Option<u64>>) = (0..self.seats.len())
            .map(|i| self.player_of_record(i))
            .map(|r| (r.name, r.account))
            .unzip();
        let finished_ms = unix_ms();
        let outcome = self.game.outcome();
        let seats: Vec<crate::room::rated::RatedSeat> = accounts
            .iter()
            .zip(&self.seats)
            .map(|(account, o)| crate::room::rated::RatedSeat {
                account: *account,
                bot: account.is_none() && o.as_ref().is_some_and(|o| o.bot),
            })
            .collect();
        let rating = crate::room::rated::after_game(
            &self.options,
            &seats,
            outcome.as_ref(),
            room,
            finished_ms,
        );
        let seated = crate::room::record::Seated {
            players,
            accounts,
            rated: self.options.rated(),
        };
        if let Some(j) = self.journal.as_mut() {
            j.logged_end = true;
            let history = std::mem::take(&mut j.history);
            let record = crate::room::record::build(
                (room, self.number, self.title.as_ref()),
                G::KIND.name(),
                seated,
                &view,
                outcome.as_ref(),
                &history,
                finished_ms,
            );
            j.queue.push(Write::Result {
                room,
                result,
                finished_ms,
            });
            j.queue.push(Write::Record(record));
            j.queue.extend(rating.map(Write::Rate));
        }
    }
}
