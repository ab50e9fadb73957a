//! Publishing: every event numbered and encoded once for all, snapshots, the lobby's
//! listing, and the goodbye when the room closes.

use super::outgoing::Out;
use super::*;
use crate::room::encode_event;
use crate::room::record::{self, History};

impl<G: OnWire> Room<G> {
    /// The room is closing: everybody still in it is told so.
    pub(super) fn say_goodbye(&self) {
        let left = ServerMsg::Left {
            seq: None,
            room_id: self.id,
        };
        let Some(frame) = encode_frame(&left) else {
            return;
        };
        for outbox in self.everybody() {
            outbox.send_frame(frame.clone());
        }
    }

    /// The connections of everybody in the room: the seated (connected), then spectators.
    pub(super) fn everybody(&self) -> impl Iterator<Item = &Outbox> {
        let seated = self.seats.iter().flatten();
        let seated = seated.filter_map(|o| o.outbox.as_ref());
        seated.chain(self.spectators.iter().map(|(_, o)| o))
    }

    pub(super) fn publish_game(&mut self, emits: Vec<Emit<G::Event>>) {
        let emits = Self::wire_emits(emits);
        self.publish(emits);
    }

    /// The game's events as the protocol's.
    pub(super) fn wire_emits(emits: Vec<Emit<G::Event>>) -> Vec<Emit<Event>> {
        emits
            .into_iter()
            .map(|e| match e {
                Emit::All(e) => Emit::All(G::wire_event(e)),
                Emit::Split { seat, own, others } => Emit::Split {
                    seat,
                    own: G::wire_event(own),
                    others: G::wire_event(others),
                },
            })
            .collect()
    }

    /// Says the events to everybody (sent after the commit, `outgoing`), all of them in one
    /// frame per connection (a batch, `encode_batch`): each event is encoded once for
    /// everybody who sees it the same way, a split one twice, and a connection's frame is
    /// those bytes behind an array's header. A connection that sees no private event gets
    /// the frame shared by everybody else. The game's record keeps the same bytes.
    pub(super) fn publish(&mut self, emits: Vec<Emit<Event>>) {
        let server_time = self.clock.now().0;
        let mut said = Vec::with_capacity(emits.len());
        for emit in emits {
            self.event_seq += 1;
            let place = (self.id, self.event_seq, server_time);
            let history = self.journal.as_mut().map(Journal::history);
            said.push(Said::encoded(place, &emit, history));
        }
        let shared = batch(said.iter().filter_map(|s| s.others.as_ref()));
        for (index, occ) in self.seats.iter().enumerate() {
            let Some(outbox) = occ.as_ref().and_then(|o| o.outbox.as_ref()) else {
                continue;
            };
            let private = said
                .iter()
                .any(|s| matches!(&s.own, Some((seat, _)) if *seat == index));
            let frame = if private {
                batch(said.iter().filter_map(|s| s.to(index)))
            } else {
                shared.clone()
            };
            if let Some(bytes) = frame {
                self.out.push(Out::Frame(outbox.clone(), bytes));
            }
        }
        if let Some(bytes) = &shared {
            for (_, outbox) in &self.spectators {
                self.out.push(Out::Frame(outbox.clone(), bytes.clone()));
            }
        }
    }

    /// Updates the lobby's listing when a seat, the spectators or the status changed
    /// (compared in place: most commands are actions, which change none of them, and they
    /// cost no allocation). The room's id and options never change.
    pub(super) fn publish_info(&self) {
        let status = if self.game.is_over() {
            RoomStatus::Over
        } else if self.started {
            RoomStatus::Playing
        } else {
            RoomStatus::Waiting
        };
        let spectators = self.spectators.len() as u32;
        self.info.send_if_modified(|info| {
            let same_seats = info.seats.len() == self.seats.len()
                && info.seats.iter().zip(&self.seats).all(|pair| match pair {
                    (None, None) => true,
                    (Some(i), Some(o)) => {
                        i.player_id == o.player
                            && i.bot == o.bot
                            && i.connected == o.outbox.is_some()
                            && i.name == o.name
                    }
                    _ => false,
                });
            if same_seats && info.status == status && info.spectators == spectators {
                return false;
            }
            info.status = status;
            info.spectators = spectators;
            if !same_seats {
                info.seats = self.seat_infos();
            }
            true
        });
    }

    pub(super) fn send_joined(&mut self, outbox: &Outbox, seq: Option<Seq>, seat: Option<u8>) {
        let joined = ServerMsg::Joined {
            seq,
            room_id: self.id,
            game: G::KIND,
            seat,
            number: self.number,
            title: self.title.clone(),
        };
        self.say(outbox, joined);
        let viewer = seat.map_or(Viewer::Spectator, |s| Viewer::Seat(Seat(s)));
        let snapshot = self.snapshot(viewer);
        self.say(outbox, snapshot);
    }

    pub(super) fn snapshot(&self, viewer: Viewer) -> ServerMsg {
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

    pub(super) fn seat_infos(&self) -> Vec<Option<SeatInfo>> {
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
}

/// One event as encoded for its audiences: `own` for one seat (a split event), `others`
/// for everybody else.
struct Said {
    own: Option<(usize, Bytes)>,
    others: Option<Bytes>,
}

impl Said {
    /// `emit` encoded at `place` (the room, the event's number, the server's time); the
    /// event the game's record keeps ([`record::kept`]) goes into `history` as encoded.
    fn encoded(
        place: (RoomId, u64, u64),
        emit: &Emit<Event>,
        mut history: Option<&mut History>,
    ) -> Said {
        let (kept_seat, _) = record::kept(emit);
        let mut frame = |event: &Event, kept: bool| {
            encode_event(place, event, |bytes| {
                if let Some(history) = history.as_deref_mut().filter(|_| kept) {
                    history.keep(kept_seat, bytes);
                }
            })
        };
        match emit {
            Emit::All(e) => Said {
                own: None,
                others: frame(e, true),
            },
            Emit::Split { seat, own, others } => Said {
                own: frame(own, kept_seat.is_some()).map(|bytes| (seat.index(), bytes)),
                others: frame(others, kept_seat.is_none()),
            },
        }
    }

    /// The bytes seat `index` is to get.
    fn to(&self, index: usize) -> Option<&Bytes> {
        match &self.own {
            Some((seat, own)) if *seat == index => Some(own),
            _ => self.others.as_ref(),
        }
    }
}

/// One frame of `parts` (a batch, or the one message itself); `None` when there is none.
fn batch<'a>(parts: impl Iterator<Item = &'a Bytes>) -> Option<Bytes> {
    let parts: Vec<&Bytes> = parts.collect();
    match parts.as_slice() {
        [] => None,
        [one] => Some((*one).clone()),
        _ => {
            let slices: Vec<&[u8]> = parts.iter().map(|b| b.as_ref()).collect();
            Some(Bytes::from(qipai_protocol::encode_batch(&slices)))
        }
    }
}
