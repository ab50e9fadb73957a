//! Seats: sitting down, standing up, dropping out and coming back, and the server's bots
//! that keep seats filled (a person may take a bot's seat; a Tuolaji player away past the
//! grace gets theirs back from the bot keeping it).

use super::*;

impl<G: OnWire> Room<G> {
    pub(super) fn on_join(
        &mut self,
        mut who: Who,
        seat: Option<u8>,
        seat_code: Option<&str>,
        seq: Option<Seq>,
    ) -> Result<u8, WireError> {
        if let Some(s) = self.seat_of(who.player) {
            return Ok(s.0);
        }
        if self.game.is_over() {
            return Err(wire(ErrorCode::GameOver, "the game is over"));
        }
        let seated = self.seats.iter().flatten().map(|o| o.account);
        crate::room::rated::may_sit(&self.options, who.account, who.bot, seated)?;
        let seat = match &self.reserved_seats {
            Some(seats) => {
                let s = reserved_seat(seats, &who, seat, seat_code)?;
                // The seat shows its holder's registered name, whatever name they said.
                if let Some(e) = seats.get(usize::from(s)) {
                    who.name.clone_from(&e.name);
                }
                Some(s)
            }
            None => seat,
        };
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
        // A seat a bot keeps for a dropped player is theirs until their session ends.
        let now = self.clock.now();
        // (The server's bot that keeps it warm for them sits down here.)
        if !who.bot
            && self.reserved[index]
                .as_ref()
                .is_some_and(|r| r.until > now && r.player != who.player)
        {
            return Err(wire(
                ErrorCode::SeatTaken,
                "that seat is kept for its player until their grace ends",
            ));
        }
        let allowed = if from_bot {
            self.game.can_replace(Seat(seat))
        } else {
            self.game.can_reseat(Seat(seat))
        };
        // The server's bots see nothing anybody else could read; a person may take a seat
        // mid-game only where the game says it reveals nothing (Tuolaji: between hands).
        if self.started && !allowed && !who.bot {
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
            account: who.account,
            bot: who.bot,
            outbox: Some(who.outbox.clone()),
            away_since: None,
        });
        self.send_joined(&who.outbox, seq, Some(seat));
        if !who.bot {
            if let Some(delay) = self.fill_delay.take() {
                self.fill_at = Some(self.clock.now() + delay);
            }
        }
        if self.started && !from_bot {
            let now = self.clock.now();
            self.log_step(StepKind::Reseat, Seat(seat), now);
            let emits = self.game.reseat(Seat(seat), now);
            self.publish_game(emits);
        } else {
            self.start_if_full();
        }
        Ok(seat)
    }

    /// Starts the game when every seat is taken, unless it has started or is held
    /// (`Command::HoldStart`: a competition's round not started yet).
    pub(super) fn start_if_full(&mut self) {
        if self.started || self.held || !self.seats.iter().all(Option::is_some) {
            return;
        }
        self.started = true;
        let now = self.clock.now();
        self.log_step(StepKind::Start, Seat(0), now);
        let emits = self.game.start(now);
        self.publish_game(emits);
    }

    pub(super) fn on_leave(&mut self, player: PlayerId) -> Result<(), WireError> {
        if let Some(i) = self.spectators.iter().position(|(p, _)| *p == player) {
            self.spectators.swap_remove(i);
            return Ok(());
        }
        let seat = self
            .seat_of(player)
            .ok_or_else(|| wire(ErrorCode::NotInRoom, "you are not in this room"))?;
        if self.started && !self.game.is_over() {
            let now = self.clock.now();
            self.log_step(StepKind::Forfeit, seat, now);
            let emits = self.game.forfeit(seat, now);
            self.publish_game(emits);
            self.note_over();
        }
        let gone = self.seats[seat.index()].take();
        self.note_left(seat.index(), gone.as_ref());
        self.publish(vec![Emit::All(Event::Room(RoomEvent::Left {
            seat: seat.0,
        }))]);
        // A competition's table waits for its entries (they may sit again with their codes).
        if self.reserved_seats.is_none() && !self.has_person() {
            self.left_by_everyone = true;
            self.ticket = None;
        }
        Ok(())
    }

    pub(super) fn on_away(&mut self, player: PlayerId, conn_id: u64) {
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

    pub(super) fn on_back(&mut self, player: PlayerId, outbox: Outbox) -> Option<u8> {
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
            .position(|r| r.as_ref().is_some_and(|r| r.player == player))
        {
            // Away past the grace, their seat went to a bot: it is theirs again.
            self.dismiss_bot(index);
            let (name, account) = self.reserved[index]
                .take()
                .map(|r| (r.name, r.account))
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
                account,
                bot: false,
                outbox: Some(outbox.clone()),
                away_since: None,
            });
            self.send_joined(&outbox, None, Some(seat.0));
            let now = self.clock.now();
            self.log_step(StepKind::Reseat, seat, now);
            let emits = self.game.reseat(seat, now);
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

    /// Asks for a bot to sit at `seat` (it joins like any client).
    pub(super) fn summon_bot(&self, seat: u8) {
        if let Some(summon) = &self.summon {
            summon(self.id, seat, self.options.clone());
        }
    }

    /// A bot in the seat at `index` stands up for a person: its connection is closed.
    pub(super) fn dismiss_bot(&mut self, index: usize) {
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
}

/// Reserved seats (a competition's table): the seat reserved for the holder of `code`, or
/// without a code for the player whose entry is linked to the session's account: the only
/// one its holder may take (bots never sit).
fn reserved_seat(
    seats: &[ReservedSeat],
    who: &Who,
    asked: Option<u8>,
    code: Option<&str>,
) -> Result<u8, WireError> {
    let reserved = || {
        wire(
            ErrorCode::SeatReserved,
            "each seat of this table is reserved for its holder",
        )
    };
    if who.bot {
        return Err(reserved());
    }
    let mine = match code.map(crate::room::normalize_code) {
        Some(code) => {
            let hash = qipai_store::hash_token(&code);
            seats
                .iter()
                .position(|e| !code.is_empty() && e.code_hash == hash)
                .ok_or_else(|| {
                    wire(
                        ErrorCode::BadEntryCode,
                        "that entry code reserves no seat at this table",
                    )
                })?
        }
        // The session's account was learned from its cookie or token, never from the
        // client's word: it proves who the player is as the code would.
        None => who
            .account
            .and_then(|a| seats.iter().position(|e| e.account == Some(a)))
            .ok_or_else(|| {
                wire(
                    ErrorCode::BadEntryCode,
                    "the seats of this table are reserved: give your entry code (entry_code), \
                     or sign in to the account your entry is linked to",
                )
            })?,
    };
    let mine = u8::try_from(mine).map_err(|_| reserved())?;
    match asked {
        Some(a) if a != mine => Err(reserved()),
        _ => Ok(mine),
    }
}
