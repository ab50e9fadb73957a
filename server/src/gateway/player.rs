//! A connection's player: turns decoded messages into lobby requests and room commands.
//!
//! The layer above the frames ([`crate::gateway::connection`]) and below the rooms. It knows the
//! session (after `hello`), where the player is, and the connection's round trip, which
//! becomes the lag allowance of every timed action.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use qipai_games::{Millis, Received};
use qipai_protocol::{
    ClientMsg, ErrorCode, GameAction, RoomOptions, Seq, ServerMsg, WireError, PROTOCOL_VERSION,
};
use tokio::sync::{oneshot, Notify};

use crate::app::App;
use crate::lobby::session::{Identity, Place, Session};
use crate::lobby::{Near, Owner};
use crate::room::{Command, Outbox, RoomHandle, Who};
use crate::topology::forward::{Forward, NodeHello, RELAYED_PONG};
use crate::topology::{Location, Resume, Route, SessionRecord};

/// What the reader does next.
#[derive(Debug)]
pub enum Verdict {
    Continue,
    /// Close the connection after sending this, if anything.
    Close(Option<Box<ServerMsg>>),
    /// Several nodes: from now on the connection is piped to another node.
    Forward(Box<Forward>),
}

/// A refused request: its `seq`, the code and the message.
pub type Refusal = (Option<Seq>, ErrorCode, String);

/// How long to wait for a room to take a command and answer it.
const ROOM_TIMEOUT: Duration = Duration::from_secs(2);

/// Seats quick play claims for one request before it gives up (each taken by a join with
/// the room's id, or its room closed, before the requester could sit down).
const QUICK_PLAY_ATTEMPTS: u32 = 4;

/// The player behind one connection.
pub struct Player {
    shared: Arc<App>,
    outbox: Outbox,
    conn_id: u64,
    /// Wakes this connection's reader to close it (when another connection resumes the
    /// session).
    kill: Arc<Notify>,
    /// Whether this is one of the server's own bots (an in-memory connection).
    bot: bool,
    /// The client's address (`None` for the server's bots), for the per-address budgets.
    addr: Option<IpAddr>,
    /// The connection's place in the budgets (`None` for the server's bots).
    ticket: Option<crate::base::budget::ConnTicket>,
    /// Set by `hello`.
    session: Option<Arc<Session>>,
    /// Smoothed round trip in ms, from the server's pings.
    rtt_ms: Option<f64>,
    /// The competition this connection watches (`watch_competition`): at most one.
    watch: Option<crate::gateway::competition_watch::Watch>,
    /// A connection from another node (`/node`): its first message is the internal hello.
    internal: bool,
    /// The account session named by the upgrade request's cookie, for `hello` (a `hello`'s
    /// own `account_token` goes first).
    account_cookie: Option<String>,
}

impl Player {
    pub fn new(
        shared: Arc<App>,
        outbox: Outbox,
        conn_id: u64,
        kill: Arc<Notify>,
        ticket: Option<crate::base::budget::ConnTicket>,
        internal: bool,
        account_cookie: Option<String>,
    ) -> Player {
        let addr = ticket.as_ref().map(crate::base::budget::ConnTicket::addr);
        Player {
            internal,
            account_cookie,
            shared,
            outbox,
            conn_id,
            kill,
            bot: addr.is_none(),
            addr,
            ticket,
            session: None,
            rtt_ms: None,
            watch: None,
        }
    }

    pub fn has_said_hello(&self) -> bool {
        self.session.is_some()
    }

    /// The last words for a connection woken to close: `playing_elsewhere` when its session
    /// said hello on another connection since (which now holds the seat), so that the client
    /// offers to take it back instead of reconnecting by itself and taking the seat back and
    /// forth; nothing for the other reasons (a full queue, a bot dismissed).
    pub fn displaced(&self) -> Option<Box<ServerMsg>> {
        let session = self.session.as_ref()?;
        (!session.is_attached(self.conn_id)).then(|| {
            Box::new(ServerMsg::error(
                None,
                ErrorCode::PlayingElsewhere,
                "this session continued on another connection",
            ))
        })
    }

    /// Whether the next frame must be another node's internal hello.
    pub fn expects_node_hello(&self) -> bool {
        self.internal && self.session.is_none()
    }

    /// Another node's internal hello: checks the cluster's secret, then serves the player
    /// it names as if they had said `hello` here with their token.
    pub async fn node_hello(&mut self, hello: NodeHello) -> Verdict {
        let refuse = |code, message: &str| {
            Verdict::Close(Some(Box::new(ServerMsg::error(None, code, message))))
        };
        if let Err(why) = self.shared.topology.admit_node(&hello.secret) {
            return refuse(ErrorCode::BadNodeSecret, why);
        }
        // The budgets count the client's own address, not the forwarding node's: its
        // connections (`max_connections_per_addr`, with its direct ones here) and rooms.
        if let Some(addr) = hello.client_addr.and_then(|a| a.parse().ok()) {
            if let Some(ticket) = &mut self.ticket {
                if let Err(e) = ticket.count_as(addr) {
                    return refuse(e.code, &e.message);
                }
            }
            self.addr = Some(addr);
        }
        if let Some(id) = hello.room_id {
            // A room being taken over here is open in a moment; one handed over meanwhile
            // (a drain) is elsewhere: the player tries again rather than lose their place.
            if self.shared.topology.here(id).await != Location::Local {
                return refuse(
                    ErrorCode::NodeUnavailable,
                    "the room has moved: reconnect with your token",
                );
            }
        }
        let place = hello
            .room_id
            .and_then(|id| self.shared.lobby.get(id))
            .map(|room| Place { room, seat: None });
        let identity = Identity {
            player: hello.player_id,
            name: hello.name,
            account: hello.account,
            bot: hello.bot,
        };
        let session = self.shared.sessions.adopt_identity(
            &hello.resume_token,
            identity,
            place,
            self.conn_id,
            Arc::clone(&self.kill),
        );
        self.greet(session).await
    }

    /// Tells the topology where the player is now (several nodes: so that any node can
    /// resume them).
    fn placed(&self, session: &Session) {
        let record = SessionRecord {
            player: session.player_id,
            name: session.name.clone(),
            account: session.account,
            bot: session.bot,
            room: session.place().map_or(0, |p| p.room.id),
        };
        self.shared.topology.save_session(&session.token, record);
    }

    /// Queues a message to this connection.
    pub fn send(&self, msg: &ServerMsg) {
        self.outbox.send(msg);
    }

    /// A pong to one of our pings: its payload is the server time the ping left. On another
    /// node's link only the client's own pongs count, which the forwarding node marks
    /// ([`RELAYED_PONG`]): the whole round trip, the hop included,
    /// not the link's automatic pong (the hop alone).
    pub fn pong(&mut self, payload: &[u8]) {
        let payload = match payload {
            [time @ .., RELAYED_PONG] if self.internal => time,
            _ if self.internal => return,
            _ => payload,
        };
        let Ok(sent) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let now = self.shared.clock.now().0;
        let Some(rtt) = now.checked_sub(u64::from_be_bytes(sent)) else {
            return;
        };
        let rtt = rtt as f64;
        self.rtt_ms = Some(self.rtt_ms.map_or(rtt, |old| 0.8 * old + 0.2 * rtt));
    }

    /// The lag allowance: half the smoothed round trip (the clock caps it).
    fn lag(&self) -> Millis {
        Millis(self.rtt_ms.map_or(0, |rtt| (rtt / 2.0) as u64))
    }

    /// Handles one message.
    ///
    /// # Errors
    /// The refusal to send back; the reader counts it against the connection.
    pub async fn handle(&mut self, msg: ClientMsg) -> Result<Verdict, Refusal> {
        let seq = msg.seq();
        let session = match (&self.session, msg) {
            (
                None,
                ClientMsg::Hello {
                    protocol_version,
                    name,
                    resume_token,
                    account_token,
                },
            ) => {
                let account = account_token.or_else(|| self.account_cookie.take());
                let hello = self.hello(protocol_version, name, resume_token, account);
                return Ok(Box::pin(hello).await);
            }
            (None, _) => {
                return Ok(Verdict::Close(Some(Box::new(ServerMsg::error(
                    seq,
                    ErrorCode::HelloFirst,
                    "the first message must be `hello`",
                )))))
            }
            (Some(_), ClientMsg::Hello { .. }) => {
                return Err((None, ErrorCode::AlreadyHello, "already said hello".into()))
            }
            (Some(session), msg) => (Arc::clone(session), msg),
        };
        let (session, msg) = session;
        if !session.is_attached(self.conn_id) {
            return Ok(Verdict::Close(Some(Box::new(ServerMsg::error(
                seq,
                ErrorCode::PlayingElsewhere,
                "this session continued on another connection",
            )))));
        }
        if routable(&msg) {
            let routed = Box::pin(self.route(&session, &msg)).await;
            if let Some(forward) = routed.map_err(|e| (seq, e.code, e.message))? {
                // The other node holds the session from now on.
                self.shared.sessions.forget(&session);
                self.session = None;
                return Ok(Verdict::Forward(Box::new(forward)));
            }
        }
        self.request(&session, msg)
            .await
            .map_err(|e| (seq, e.code, e.message))?;
        Ok(Verdict::Continue)
    }

    async fn hello(
        &mut self,
        version: u32,
        name: String,
        token: Option<String>,
        account_token: Option<String>,
    ) -> Verdict {
        let refuse = |code, message: String| {
            Verdict::Close(Some(Box::new(ServerMsg::error(None, code, message))))
        };
        if version != PROTOCOL_VERSION {
            return refuse(
                ErrorCode::ProtocolVersion,
                format!("this server speaks protocol version {PROTOCOL_VERSION}, not {version}"),
            );
        }
        let sessions = &self.shared.sessions;
        let session = match token {
            Some(token) => match sessions.resume(&token, self.conn_id, Arc::clone(&self.kill)) {
                // Several nodes: a room closed here may live on elsewhere (taken over), and
                // a player this node knows in no room may have found one elsewhere since.
                Some(s)
                    if self.shared.topology.rooms_move()
                        && s.place().is_none_or(|p| p.room.tx.is_closed()) =>
                {
                    sessions.forget(&s);
                    match self.resume_elsewhere(&token).await {
                        Ok(s) => s,
                        Err(forward) => return forward,
                    }
                }
                Some(s) => s,
                None => match self.resume_elsewhere(&token).await {
                    Ok(s) => s,
                    Err(forward) => return forward,
                },
            },
            None => {
                // The server's own bots are bounded by `max_bots` instead.
                let capped = (!self.bot).then(|| self.shared.budget.session(sessions.len()));
                if let Some(Err(e)) = capped {
                    return refuse(e.code, e.message);
                }
                let (name, account) = match self.name_for(name, account_token).await {
                    Ok(named) => named,
                    Err(e) => return refuse(e.code, e.message),
                };
                sessions.create(
                    name,
                    account,
                    self.conn_id,
                    Arc::clone(&self.kill),
                    self.bot,
                )
            }
        };
        self.greet(session).await
    }

    /// The name a new session plays under, and its account. The server names its own bots;
    /// a signed-in account plays under its own name; a guest's name is checked, and may be
    /// no account's nor a look-alike of one.
    async fn name_for(
        &self,
        name: String,
        account_token: Option<String>,
    ) -> Result<(String, Option<u64>), WireError> {
        if self.bot {
            return Ok((name, None));
        }
        let store = self.shared.persist.as_ref().map(|p| p.store.as_ref());
        let accounts = &self.shared.accounts;
        if let Some(token) = account_token {
            let account = accounts.session(Some(&token), store).await?;
            return Ok((account.name, Some(account.id)));
        }
        let name = crate::base::names::check(&name).map_err(|why| WireError {
            code: ErrorCode::BadName,
            message: why.into(),
        })?;
        accounts.guest_may_use(&name, store).await?;
        Ok((name, None))
    }

    /// A token this node does not know, as the topology finds it. With several nodes: the
    /// player's room on another live node: the connection is forwarded there (`Err`, the
    /// verdict); a room whose node died is taken over here first; otherwise the session
    /// continues here. Alone, or without a record, the token is refused (`Err`).
    async fn resume_elsewhere(&mut self, token: &str) -> Result<Arc<Session>, Verdict> {
        let (record, room) = match self.shared.topology.resume(token, self.addr).await {
            Resume::Unknown => {
                return Err(Verdict::Close(Some(Box::new(ServerMsg::error(
                    None,
                    ErrorCode::BadResumeToken,
                    "unknown resume token, or its grace period is over: say hello without it",
                )))))
            }
            Resume::Forward(forward) => return Err(Verdict::Forward(Box::new(forward))),
            Resume::Here { record, room } => (record, room),
        };
        let place = room.map(|room| Place { room, seat: None });
        // A takeover just now restored the seated players' sessions from the store.
        let sessions = &self.shared.sessions;
        if let Some(s) = sessions.resume(token, self.conn_id, Arc::clone(&self.kill)) {
            return Ok(s);
        }
        let identity = Identity {
            player: record.player,
            name: record.name,
            account: record.account,
            bot: record.bot,
        };
        Ok(sessions.adopt_identity(token, identity, place, self.conn_id, Arc::clone(&self.kill)))
    }

    /// `welcome`, then back to the player's room if they are in one.
    async fn greet(&mut self, session: Arc<Session>) -> Verdict {
        let place = current_place(&session);
        self.send(&ServerMsg::Welcome {
            protocol_version: PROTOCOL_VERSION,
            player_id: session.player_id,
            resume_token: session.token.clone(),
            server_time: self.shared.clock.now().0,
            room_id: place.as_ref().map(|p| p.room.id),
        });
        self.session = Some(Arc::clone(&session));
        if let Some(place) = place {
            let (reply, answer) = oneshot::channel();
            let back = Command::Back {
                player: session.player_id,
                outbox: self.outbox.clone(),
                reply,
            };
            let answer = match tokio::time::timeout(ROOM_TIMEOUT, place.room.tx.send(back)).await {
                Ok(Ok(())) => answer.await.ok(),
                _ => None,
            };
            // Back at the seat, back as a spectator, or (the room closed) nowhere.
            session.set_place(answer.map(|seat| Place {
                room: place.room,
                seat,
            }));
        }
        if !session.bot {
            self.placed(&session);
        }
        Verdict::Continue
    }

    /// Whether `msg` (a lobby request, [`routable`]) is for another node, and then how to
    /// forward the connection to it. A player in a room is refused first, as here.
    async fn route(
        &self,
        session: &Arc<Session>,
        msg: &ClientMsg,
    ) -> Result<Option<Forward>, WireError> {
        not_in_room(session)?;
        let route = Route {
            token: &session.token,
            who: SessionRecord {
                player: session.player_id,
                name: session.name.clone(),
                account: session.account,
                bot: session.bot,
                room: 0,
            },
            msg,
            client_addr: self.addr,
        };
        self.shared.topology.route(route).await
    }

    /// Game actions are handed to the room at once; the requests that wait for a room
    /// (and its timers) run boxed, so that what every connection's task keeps for the
    /// largest future it may await stays small: memory per idle connection.
    async fn request(&mut self, session: &Arc<Session>, msg: ClientMsg) -> Result<(), WireError> {
        let lobby = &self.shared.lobby;
        match msg {
            ClientMsg::Hello { .. } => Err(wire(ErrorCode::AlreadyHello, "already said hello")),
            ClientMsg::Ping { seq, client_time } => {
                self.send(&ServerMsg::Pong {
                    seq,
                    client_time: client_time.unwrap_or(0),
                    server_time: self.shared.clock.now().0,
                });
                Ok(())
            }
            ClientMsg::ListRooms {
                seq,
                game,
                limit,
                after,
            } => {
                let page = self.shared.config.limits.list_rooms_page.max(1);
                let limit = limit.map_or(page, |l| (l as usize).clamp(1, page));
                let (rooms, next) = self.shared.topology.list(game, after, limit).await;
                self.send(&ServerMsg::Rooms { seq, rooms, next });
                Ok(())
            }
            ClientMsg::CreateRoom {
                seq,
                options,
                seat,
                bots,
            } => {
                not_in_room(session)?;
                // A guest is refused a rated table before one is opened for them.
                crate::room::rated::may_sit(&options, session.account, session.bot, [])?;
                let claim = lobby.create(options, bots, self.owner(session))?;
                let room = claim.room().clone();
                let entered = Box::pin(self.enter(session, room, seat, None, seq)).await;
                drop(claim);
                entered
            }
            ClientMsg::Join {
                seq,
                room_id,
                seat,
                entry_code,
            } => {
                not_in_room(session)?;
                let room = lobby
                    .get(room_id)
                    .ok_or_else(|| wire(ErrorCode::NoSuchRoom, "no room with that id"))?;
                // Guessing entry codes is limited per address like director logins (only a
                // wrong code counts: a whole hall behind one address sits down at once, so
                // joins are not capped while under way, `Limiter::check`). A join that
                // sits down neither counts nor clears, so joins of an ordinary room (where
                // a code is ignored) cannot reset an address's guesses.
                let limited = self.addr.filter(|_| entry_code.is_some());
                let shared = Arc::clone(&self.shared);
                let codes = &shared.competitions.entry_codes;
                if let Some(addr) = limited {
                    codes.check(addr, qipai_store::unix_ms())?;
                }
                let entered = Box::pin(self.enter(session, room, seat, entry_code, seq)).await;
                if let (Some(addr), Err(e)) = (limited, &entered) {
                    if e.code == ErrorCode::BadEntryCode {
                        codes.failed(addr, qipai_store::unix_ms());
                    }
                }
                entered
            }
            ClientMsg::QuickPlay { seq, options } => {
                not_in_room(session)?;
                crate::room::rated::may_sit(&options, session.account, session.bot, [])?;
                Box::pin(self.quick_play(session, options, seq)).await
            }
            ClientMsg::Spectate { seq, room_id } => {
                not_in_room(session)?;
                let room = lobby
                    .get(room_id)
                    .ok_or_else(|| wire(ErrorCode::NoSuchRoom, "no room with that id"))?;
                let (reply, answer) = oneshot::channel();
                let who = self.who(session);
                Box::pin(ask(
                    &room,
                    Command::Spectate {
                        who: Box::new(who),
                        seq: Some(seq),
                        reply,
                    },
                    answer,
                ))
                .await?;
                session.set_place(Some(Place { room, seat: None }));
                self.placed(session);
                Ok(())
            }
            ClientMsg::Leave { seq } => {
                let place = in_room(session)?;
                let (reply, answer) = oneshot::channel();
                let leave = Command::Leave {
                    player: session.player_id,
                    reply,
                };
                let result = Box::pin(ask(&place.room, leave, answer)).await;
                if result.is_ok()
                    || result
                        .as_ref()
                        .is_err_and(|e| e.code == ErrorCode::RoomClosed)
                {
                    session.set_place(None);
                    self.placed(session);
                    self.send(&ServerMsg::Left {
                        seq: Some(seq),
                        room_id: place.room.id,
                    });
                }
                result
            }
            ClientMsg::Snapshot { seq } => {
                let place = in_room(session)?;
                let cmd = Command::Snapshot {
                    player: session.player_id,
                    seq,
                };
                self.post(session, &place.room, cmd)
            }
            ClientMsg::WatchCompetition {
                seq,
                competition_id,
            } => {
                // One per connection: the new watch replaces the old (a refused one leaves it).
                let watch = crate::gateway::competition_watch::start(
                    &self.shared,
                    competition_id,
                    seq,
                    self.outbox.clone(),
                );
                self.watch = Some(Box::pin(watch).await?);
                Ok(())
            }
            ClientMsg::UnwatchCompetition { seq } => {
                self.watch = None;
                self.send(&ServerMsg::Ok { seq });
                Ok(())
            }
            // Every other message is a game's action (the `games!` registry's variants).
            action => match action.into_action() {
                Some((seq, action)) => self.act(session, seq, action),
                None => Err(wire(ErrorCode::WrongGame, "not a game action")),
            },
        }
    }

    fn act(&self, session: &Arc<Session>, seq: Seq, action: GameAction) -> Result<(), WireError> {
        let place = in_room(session)?;
        if place.seat.is_none() {
            return Err(wire(ErrorCode::NotSeated, "spectators cannot act"));
        }
        let cmd = Command::Act {
            player: session.player_id,
            seq,
            action,
            received: Received {
                at: self.shared.clock.now(),
                lag: self.lag(),
            },
        };
        self.post(session, &place.room, cmd)
    }

    /// Hands a command to a room without waiting; a full inbox is `busy`.
    fn post(&self, session: &Session, room: &RoomHandle, cmd: Command) -> Result<(), WireError> {
        match room.tx.try_send(cmd) {
            Ok(()) => Ok(()),
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => {
                Err(wire(ErrorCode::Busy, "the room is busy: try again"))
            }
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => {
                session.set_place(None);
                Err(wire(ErrorCode::RoomClosed, "the room has closed"))
            }
        }
    }

    async fn quick_play(
        &mut self,
        session: &Arc<Session>,
        options: RoomOptions,
        seq: Seq,
    ) -> Result<(), WireError> {
        // The lobby hands out seats, not rooms (`claim_seat`), so quick players who come
        // together are spread over the free seats. A seat may still be gone when the player
        // gets there (taken by a join with the room's id, or the room closed): then ask again.
        let near = self.near(session, &options).await;
        let mut attempt = 1;
        loop {
            let claim = self
                .shared
                .lobby
                .claim_seat(&options, self.owner(session), near)?;
            let room = claim.room().clone();
            let entered = self.enter(session, room, None, None, seq).await;
            drop(claim);
            match entered {
                Err(e)
                    if matches!(
                        e.code,
                        ErrorCode::RoomFull | ErrorCode::SeatTaken | ErrorCode::RoomClosed
                    ) && attempt < QUICK_PLAY_ATTEMPTS =>
                {
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    /// A rated quick player's rating at the table's game (a newcomer's when never rated
    /// there), for the lobby to seat them near it; `None` for a casual table, or when the
    /// store cannot say (the player is then seated as at a casual table).
    async fn near(&self, session: &Session, options: &RoomOptions) -> Option<Near> {
        let account = session.account.filter(|_| options.rated())?;
        let store = Arc::clone(&self.shared.persist.as_ref()?.store);
        let game = options.game();
        let rating = match store.ratings(account).await {
            Ok(rows) => rows
                .into_iter()
                .find(|r| r.game == game.name())
                .map(|r| r.rating),
            Err(error) => {
                tracing::warn!(%error, "rated quick play: the rating cannot be read");
                return None;
            }
        };
        let newcomer = || qipai_games::rating::Rating::newcomer(game).rating.round() as i64;
        let config = &self.shared.config.accounts;
        Some(Near {
            rating: rating.unwrap_or_else(newcomer),
            range: config.rated_range,
            widen_ms: config.rated_widen_ms,
        })
    }

    /// Sits down in `room`; the room sends `joined` and a snapshot.
    async fn enter(
        &mut self,
        session: &Arc<Session>,
        room: RoomHandle,
        seat: Option<u8>,
        entry_code: Option<String>,
        seq: Seq,
    ) -> Result<(), WireError> {
        // Several nodes: a new room's id is told (`joined`) only once every node finds it.
        self.shared.topology.listed(room.id).await;
        let (reply, answer) = oneshot::channel();
        let who = self.who(session);
        let join = Command::Join {
            who: Box::new(who),
            seat,
            seat_code: entry_code,
            seq: Some(seq),
            reply,
        };
        let seat = ask(&room, join, answer).await?;
        session.set_place(Some(Place {
            room,
            seat: Some(seat),
        }));
        self.placed(session);
        Ok(())
    }

    /// Who a room this player opens counts against.
    fn owner(&self, session: &Session) -> Owner {
        Owner {
            session: session.player_id,
            addr: self.addr,
        }
    }

    fn who(&self, session: &Session) -> Who {
        Who {
            player: session.player_id,
            name: session.name.clone(),
            account: session.account,
            bot: session.bot,
            outbox: self.outbox.clone(),
        }
    }

    /// The connection closed: the room marks the player away, and the session waits for a
    /// reconnection.
    pub async fn disconnected(self) {
        let Some(session) = self.session else {
            return;
        };
        if !session.is_attached(self.conn_id) {
            return;
        }
        if let Some(place) = current_place(&session) {
            let away = Command::Away {
                player: session.player_id,
                conn_id: self.conn_id,
            };
            // A closed room needs no news; a busy one gets it as soon as it has room.
            let _ = tokio::time::timeout(ROOM_TIMEOUT, place.room.tx.send(away)).await;
        }
        let grace = Duration::from_millis(self.shared.config.server.reconnect_grace_ms);
        let grace_ms = self.shared.config.server.reconnect_grace_ms;
        self.shared
            .topology
            .release_session(&session.token, grace_ms);
        self.shared.sessions.release(&session, self.conn_id, grace);
    }
}

/// Sends a command to a room and waits for its answer.
async fn ask<T>(
    room: &RoomHandle,
    cmd: Command,
    answer: oneshot::Receiver<Result<T, WireError>>,
) -> Result<T, WireError> {
    let closed = || wire(ErrorCode::RoomClosed, "the room has closed");
    match tokio::time::timeout(ROOM_TIMEOUT, room.tx.send(cmd)).await {
        Ok(Ok(())) => {}
        Ok(Err(_)) => return Err(closed()),
        Err(_) => return Err(wire(ErrorCode::Busy, "the room is busy: try again")),
    }
    match tokio::time::timeout(ROOM_TIMEOUT, answer).await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(closed()),
        Err(_) => Err(wire(ErrorCode::Busy, "the room did not answer in time")),
    }
}

/// Where the player is, forgetting a room that has closed since.
fn current_place(session: &Session) -> Option<Place> {
    let place = session.place()?;
    if place.room.tx.is_closed() {
        session.set_place(None);
        return None;
    }
    Some(place)
}

/// The lobby requests another node may have to serve: they join, watch or open a room.
fn routable(msg: &ClientMsg) -> bool {
    matches!(
        msg,
        ClientMsg::Join { .. }
            | ClientMsg::Spectate { .. }
            | ClientMsg::CreateRoom { .. }
            | ClientMsg::QuickPlay { .. }
    )
}

fn not_in_room(session: &Session) -> Result<(), WireError> {
    match current_place(session) {
        Some(_) => Err(wire(
            ErrorCode::AlreadyInRoom,
            "you are already in a room: leave it first",
        )),
        None => Ok(()),
    }
}

fn in_room(session: &Session) -> Result<Place, WireError> {
    current_place(session).ok_or_else(|| wire(ErrorCode::NotInRoom, "you are not in a room"))
}

fn wire(code: ErrorCode, message: &str) -> WireError {
    WireError {
        code,
        message: message.to_owned(),
    }
}
