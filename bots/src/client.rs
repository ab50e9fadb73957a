//! The WebSocket bot client: connects like any player, says hello, finds a table (quick
//! play, or opens or joins one: [`Entry`]), follows the room from its snapshot and events
//! (asking for a new snapshot on a gap in `event_seq`), thinks off the async task when its
//! seat must act, and plays until the game is over; then leaves and starts the next game.
//! The per-game part is a [`Table`].
//!
//! The strategy runs on `tokio::task::spawn_blocking`, so a long search never stalls the
//! socket: messages keep being read while it thinks, and a decision made for a turn that
//! has passed (the game ended, a snapshot changed things) is dropped.

use std::collections::VecDeque;
use std::future::{pending, Future};
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::time::{Duration, Instant};

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use qipai_protocol::{
    decode_batch, encode, ClientMsg, ErrorCode, RoomId, RoomOptions, Seq, ServerMsg,
    PROTOCOL_VERSION,
};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Bytes, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::observe::{Observer, Quiet};
use crate::strategy::Strategy;
use crate::table::{Ending, Table};

/// Every `type` the server sends; anything else is a newer server's message and skipped.
/// Refusals of the bot's own actions in one game before it resigns rather than hold the
/// table with a strategy that keeps getting it wrong.
const MAX_REFUSALS: u32 = 5;

/// A deadline that does not come (a disabled timer still needs one).
const NEVER: Duration = Duration::from_secs(365 * 24 * 3600);

/// What the client is to do.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// `ws://host:port/ws`.
    pub url: String,
    /// The name shown at the table.
    pub name: String,
    /// The table's options (for quick play and for opening a table).
    pub options: RoomOptions,
    /// How the bot finds its table.
    pub entry: Entry,
    /// How many games to play, one after another.
    pub games: u32,
    /// Give up when the server sends nothing for this long (waiting alone at an opened
    /// table counts too).
    pub idle_timeout: Duration,
    /// With [`Entry::QuickPlay`]: stand up and quick-play again when no opponent has come
    /// this long after sitting down (plus a little per-name jitter). Two bots that
    /// quick-play at the same moment may each open a table of their own; this brings them
    /// together.
    pub regroup_after: Duration,
    /// The local address to connect from (`None`: the system's choice). The load generator
    /// gives each table its own loopback address, as distinct players would have, so that
    /// the server's per-address budgets meet it as they meet people.
    pub source: Option<IpAddr>,
}

/// How the bot finds a table for each game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Sit at any waiting table with the options, or open one (`quick_play`).
    QuickPlay,
    /// Open a new table with the options and wait there for an opponent (`create_room`),
    /// at `seat` or the first free one.
    Create { seat: Option<u8> },
    /// Open a new table with the options at `seat` (or the first free one) and have the
    /// server's bots fill the other seats (`create_room` with `bots`): the page's "play the
    /// bot" path, which the xiangqi match tool drives.
    AgainstBots { seat: Option<u8> },
    /// Sit at this room for the first game (`join`; at a competition's table with the
    /// entrant's `entry_code`); later games quick-play.
    Join {
        room_id: RoomId,
        seat: Option<u8>,
        entry_code: Option<String>,
    },
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    pub room_id: RoomId,
    pub seat: u8,
    pub ending: Ending,
    /// The bot's actions the server refused (0 in a healthy game).
    pub refused: u32,
    /// For each accepted action, the time from sending it to the server's `ok`: the
    /// round trip a load test measures.
    pub acks: Vec<Duration>,
}

/// Why the client stopped before playing all its games.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("Could not connect to {url}: {source}")]
    Connect {
        url: String,
        source: tungstenite::Error,
    },
    #[error("The connection failed: {0}")]
    Socket(#[from] tungstenite::Error),
    #[error("The server closed the connection.")]
    Closed,
    #[error("The server refused the request ({code:?}): {message}")]
    Refused { code: ErrorCode, message: String },
    #[error("The server sent nothing for {0:?}.")]
    Idle(Duration),
    #[error("A message could not be encoded: {0}")]
    Encode(String),
    #[error("The server is shutting down: {0}")]
    Shutdown(String),
    #[error("The options are for another game than this bot plays.")]
    WrongGame,
    #[error("The strategy's thread failed.")]
    Strategy,
}

/// A two-way stream of WebSocket messages: a real WebSocket, or an in-memory one
/// ([`crate::memory::duplex`]) for a bot the server seats itself.
pub trait Duplex:
    Stream<Item = Result<Message, tungstenite::Error>>
    + Sink<Message, Error = tungstenite::Error>
    + Send
    + Unpin
{
}

impl<T> Duplex for T where
    T: Stream<Item = Result<Message, tungstenite::Error>>
        + Sink<Message, Error = tungstenite::Error>
        + Send
        + Unpin
{
}

type Socket = Box<dyn Duplex>;

/// A decision being computed (and the think time after it): the strategy comes back with it.
type Thinking<S, A> = Pin<Box<dyn Future<Output = Result<(S, Option<A>), JoinError>> + Send>>;

/// Connects to `config.url` and plays `config.games` games with `strategy`, calling
/// `on_game` as each one ends; returns every game's report.
///
/// # Errors
/// [`ClientError`] when the connection fails or closes, the server refuses the hello or
/// the quick play, or nothing comes for `idle_timeout`.
pub async fn play<T, S>(
    config: &ClientConfig,
    strategy: S,
    on_game: impl FnMut(&GameReport),
) -> Result<Vec<GameReport>, ClientError>
where
    T: Table,
    S: Strategy<View = T::View, Event = T::Event, Action = T::Action>,
{
    play_observed::<T, S>(config, strategy, Box::new(Quiet), on_game).await
}

/// [`play`], with `observer` seeing every message each way and setting the pace.
///
/// # Errors
/// As [`play`].
pub async fn play_observed<T, S>(
    config: &ClientConfig,
    strategy: S,
    observer: Box<dyn Observer>,
    on_game: impl FnMut(&GameReport),
) -> Result<Vec<GameReport>, ClientError>
where
    T: Table,
    S: Strategy<View = T::View, Event = T::Event, Action = T::Action>,
{
    if !T::accepts(&config.options) {
        return Err(ClientError::WrongGame);
    }
    let socket = connect(config).await?;
    play_over::<T, S>(socket, config, strategy, observer, on_game).await
}

/// Plays like [`play_observed`] over a connection that is already open (`config.url` is
/// not used): the server seats its own bots this way, over an in-memory one.
///
/// # Errors
/// As [`play`].
pub async fn play_over<T, S>(
    socket: Box<dyn Duplex>,
    config: &ClientConfig,
    strategy: S,
    observer: Box<dyn Observer>,
    mut on_game: impl FnMut(&GameReport),
) -> Result<Vec<GameReport>, ClientError>
where
    T: Table,
    S: Strategy<View = T::View, Event = T::Event, Action = T::Action>,
{
    if !T::accepts(&config.options) {
        return Err(ClientError::WrongGame);
    }
    let mut bot = Bot::<T, S>::over(socket, config, strategy, observer).await?;
    let mut reports = Vec::new();
    for game in 0..config.games {
        let entry = match &config.entry {
            Entry::Join { .. } if game > 0 => Entry::QuickPlay,
            entry => entry.clone(),
        };
        let report = bot.one_game(config, entry).await?;
        on_game(&report);
        reports.push(report);
    }
    let _ = bot.ws.close().await;
    Ok(reports)
}

/// Opens a WebSocket to `config.url`.
async fn connect(config: &ClientConfig) -> Result<Socket, ClientError> {
    let ws = websocket(&config.url, config.source)
        .await
        .map_err(|source| ClientError::Connect {
            url: config.url.clone(),
            source,
        })?;
    Ok(Box::new(ws))
}

/// A WebSocket to `url` (`ws://host:port/…`), from the local address `source` when one is
/// named, with the small buffers and `TCP_NODELAY` a bot wants: its frames are small, a
/// load test runs thousands of them, and an action must leave at once.
///
/// # Errors
/// The connection or the handshake fails.
pub async fn websocket(
    url: &str,
    source: Option<IpAddr>,
) -> Result<WebSocketStream<MaybeTlsStream<TcpStream>>, tungstenite::Error> {
    let ws_config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let Some(source) = source else {
        let (ws, _) =
            tokio_tungstenite::connect_async_with_config(url, Some(ws_config), true).await?;
        return Ok(ws);
    };
    let tcp = connect_from(source, url).await?;
    let (ws, _) = tokio_tungstenite::client_async_with_config(
        url,
        MaybeTlsStream::Plain(tcp),
        Some(ws_config),
    )
    .await?;
    Ok(ws)
}

/// A TCP connection from `source` to the host and port of `url`.
async fn connect_from(source: IpAddr, url: &str) -> std::io::Result<TcpStream> {
    let hostport = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap_or_default();
    let target = tokio::net::lookup_host(hostport)
        .await?
        .find(|a| a.is_ipv4() == source.is_ipv4())
        .ok_or_else(|| std::io::Error::other(format!("no address for {hostport}")))?;
    let socket = if source.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if source.is_ipv4() {
        no_port_at_bind(&socket)?;
    }
    socket.bind(SocketAddr::new(source, 0))?;
    let tcp = socket.connect(target).await?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// Asks the kernel to choose the source port at `connect`, not at `bind`
/// (`IP_BIND_ADDRESS_NO_PORT`). A port chosen at `bind` is held apart for that socket alone,
/// and one that closed stays held through `TIME_WAIT`: the load tool's attackers, which
/// open and close connections from a bound address as fast as they can, would otherwise use
/// up the machine's ephemeral ports for every other program on it (a test suite beside the
/// soak failed with `EADDRNOTAVAIL`). Chosen at `connect`, a port is shared by every
/// connection to a different destination, as an unbound client's is.
fn no_port_at_bind(socket: &TcpSocket) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let on: libc::c_int = 1;
    // SAFETY: the descriptor is the open socket `socket` owns for the whole call, and the
    // option's value is a live `c_int` whose size is the length passed.
    let rc = unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::IPPROTO_IP,
            libc::IP_BIND_ADDRESS_NO_PORT,
            std::ptr::from_ref(&on).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Up to a second, different for each name, so that two lonely bots do not regroup in step.
fn jitter(name: &str) -> Duration {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    Duration::from_millis(hash % 1000)
}

/// Where the bot is in one game.
struct Seating<V> {
    room_id: RoomId,
    seat: Option<u8>,
    view: Option<V>,
    event_seq: u64,
    /// A snapshot was asked for: events are ignored until it comes.
    resyncing: bool,
    /// The turn a decision was last sent for (so a turn is answered once).
    answered: Option<u64>,
    /// The seq of the last action sent and when it went out.
    pending: Option<(Seq, Instant)>,
    /// Round trips of accepted actions.
    acks: Vec<Duration>,
    refused: u32,
}

struct Bot<T: Table, S> {
    ws: Socket,
    next_seq: Seq,
    /// The strategy, when it is not out thinking.
    strategy: Option<S>,
    /// Events that came while the strategy was thinking, to show it when it is back.
    unseen: Vec<T::Event>,
    idle: Duration,
    observer: Box<dyn Observer>,
    /// Messages of a batch frame not handed out yet.
    inbox: VecDeque<ServerMsg>,
}

impl<T, S> Bot<T, S>
where
    T: Table,
    S: Strategy<View = T::View, Event = T::Event, Action = T::Action>,
{
    async fn over(
        ws: Socket,
        config: &ClientConfig,
        strategy: S,
        observer: Box<dyn Observer>,
    ) -> Result<Bot<T, S>, ClientError> {
        let mut bot = Bot {
            ws,
            next_seq: 1,
            strategy: Some(strategy),
            unseen: Vec::new(),
            idle: config.idle_timeout,
            observer,
            inbox: VecDeque::new(),
        };
        bot.send(&ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: config.name.clone(),
            resume_token: None,
            account_token: None,
        })
        .await?;
        loop {
            match bot.recv().await? {
                ServerMsg::Welcome { .. } => return Ok(bot),
                ServerMsg::Error { code, message, .. } => {
                    return Err(ClientError::Refused { code, message })
                }
                _ => {}
            }
        }
    }

    fn seq(&mut self) -> Seq {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        let bytes = encode(msg).map_err(|e| ClientError::Encode(e.to_string()))?;
        self.observer.sent(msg, bytes.len(), Instant::now());
        self.ws.send(Message::Binary(Bytes::from(bytes))).await?;
        Ok(())
    }

    /// The next server message; frames this build cannot read are logged and skipped. A
    /// batch's messages wait in `inbox` (taken one at a time, so a caller that gives up
    /// waiting loses none).
    async fn recv(&mut self) -> Result<ServerMsg, ClientError> {
        loop {
            if let Some(msg) = self.inbox.pop_front() {
                if let ServerMsg::Shutdown { message } = msg {
                    return Err(ClientError::Shutdown(message));
                }
                return Ok(msg);
            }
            let frame = tokio::time::timeout(self.idle, self.ws.next())
                .await
                .map_err(|_| ClientError::Idle(self.idle))?;
            let at = Instant::now();
            match frame {
                None | Some(Ok(Message::Close(_))) => return Err(ClientError::Closed),
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Binary(bytes))) => {
                    self.observer.frame(bytes.len(), at);
                    match decode_batch::<ServerMsg>(&bytes, ServerMsg::TYPES) {
                        Ok(msgs) => {
                            for msg in &msgs {
                                self.observer.received(msg, at);
                            }
                            self.inbox.extend(msgs);
                        }
                        Err(e) => tracing::warn!(error = %e, "unreadable server frame skipped"),
                    }
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Quick-plays one table and plays it to the end; then leaves it. A table where no
    /// opponent comes is left for another quick play (see [`ClientConfig::regroup_after`]).
    async fn one_game(
        &mut self,
        config: &ClientConfig,
        entry: Entry,
    ) -> Result<GameReport, ClientError> {
        let patience = match entry {
            Entry::QuickPlay => Some(config.regroup_after + jitter(&config.name)),
            Entry::Create { .. } | Entry::AgainstBots { .. } | Entry::Join { .. } => None,
        };
        loop {
            if let Some(report) = self.try_game(config, entry.clone(), patience).await? {
                return Ok(report);
            }
            tracing::debug!(name = %config.name, "no opponent came; quick-playing again");
        }
    }

    /// Finds a table and plays there: the game's report, or `None` when no opponent came
    /// within `patience`.
    async fn try_game(
        &mut self,
        config: &ClientConfig,
        entry: Entry,
        patience: Option<Duration>,
    ) -> Result<Option<GameReport>, ClientError> {
        let quick = self.seq();
        let options = config.options.clone();
        let request = match entry {
            Entry::QuickPlay => ClientMsg::QuickPlay {
                seq: quick,
                options,
            },
            Entry::Create { seat } => ClientMsg::CreateRoom {
                seq: quick,
                options,
                seat,
                bots: false,
            },
            Entry::AgainstBots { seat } => ClientMsg::CreateRoom {
                seq: quick,
                options,
                seat,
                bots: true,
            },
            Entry::Join {
                room_id,
                seat,
                entry_code,
            } => ClientMsg::Join {
                seq: quick,
                room_id,
                seat,
                entry_code,
            },
        };
        self.send(&request).await?;
        let mut seating: Option<Seating<T::View>> = None;
        let mut thinking: Option<(u64, Thinking<S, T::Action>)> = None;
        let give_up = tokio::time::Instant::now() + patience.unwrap_or(NEVER);
        let report = loop {
            let lonely = patience.is_some()
                && seating
                    .as_ref()
                    .is_some_and(|s| s.view.as_ref().is_some_and(|v| !T::started(v)));
            let msg = tokio::select! {
                () = tokio::time::sleep_until(give_up), if lonely => break None,
                done = async {
                    match thinking.as_mut() {
                        Some((_, handle)) => handle.await,
                        None => pending().await,
                    }
                } => {
                    let turn = thinking.take().map(|(turn, _)| turn);
                    let (strategy, action) = done.map_err(|_| ClientError::Strategy)?;
                    self.give_back(strategy);
                    if let (Some(s), Some(turn)) = (seating.as_mut(), turn) {
                        match action {
                            Some(action) => self.answer(s, turn, action).await?,
                            // Nothing to do this turn: do not ask again until it changes.
                            None => s.answered = Some(turn),
                        }
                    }
                    None
                }
                msg = self.recv() => Some(msg?),
            };
            if let Some(msg) = msg {
                self.on_message(msg, quick, &mut seating).await?;
            }
            let Some(s) = seating.as_mut() else { continue };
            if let Some(ending) = s
                .view
                .as_ref()
                .zip(s.seat)
                .and_then(|(v, seat)| T::ending(v, seat))
            {
                break Some(GameReport {
                    room_id: s.room_id,
                    seat: s.seat.unwrap_or_default(),
                    ending,
                    refused: s.refused,
                    acks: std::mem::take(&mut s.acks),
                });
            }
            if thinking.is_none() {
                thinking = self.think(s);
            }
        };
        if let Some((_, handle)) = thinking {
            self.observer.stop_thinking();
            if let Ok((strategy, _)) = handle.await {
                self.give_back(strategy);
            }
        }
        self.leave().await?;
        Ok(report)
    }

    /// Starts a decision when the seat must act on a turn not yet answered.
    fn think(&mut self, s: &Seating<T::View>) -> Option<(u64, Thinking<S, T::Action>)> {
        let (view, seat) = (s.view.as_ref()?, s.seat?);
        if s.resyncing || !T::must_act(view, seat) {
            return None;
        }
        let turn = T::turn(view);
        if s.answered == Some(turn) {
            return None;
        }
        let mut strategy = self.strategy.take()?;
        let pause = self.observer.think_time();
        let thinking: Thinking<S, T::Action> = if self.observer.inline_strategy() {
            // Decided here, on the view itself: no copy of it for another thread.
            let action = strategy.decide(seat, view);
            let decided = (strategy, action);
            Box::pin(async move {
                if !pause.is_zero() {
                    tokio::time::sleep(pause).await;
                }
                Ok(decided)
            })
        } else {
            let view = view.clone();
            let decide = move || {
                let action = strategy.decide(seat, &view);
                (strategy, action)
            };
            let permits = self.observer.think_permits();
            Box::pin(async move {
                // Waiting for a thread of the pool costs no thread; dropping this future
                // (the game ended meanwhile) gives the place up.
                let permit = match permits {
                    Some(p) => p.acquire_owned().await.ok(),
                    None => None,
                };
                let decided = tokio::task::spawn_blocking(decide).await;
                drop(permit);
                if !pause.is_zero() {
                    tokio::time::sleep(pause).await;
                }
                decided
            })
        };
        Some((turn, thinking))
    }

    /// The strategy is back from thinking: show it what it missed.
    fn give_back(&mut self, mut strategy: S) {
        for event in self.unseen.drain(..) {
            strategy.observe(&event);
        }
        self.strategy = Some(strategy);
    }

    /// Sends `action` if the game is still at `turn`.
    async fn answer(
        &mut self,
        s: &mut Seating<T::View>,
        turn: u64,
        action: T::Action,
    ) -> Result<(), ClientError> {
        let current = s.view.as_ref().map(T::turn);
        if s.resyncing || current != Some(turn) {
            return Ok(());
        }
        let seq = self.seq();
        s.pending = Some((seq, Instant::now()));
        s.answered = Some(turn);
        self.send(&T::request(seq, action)).await
    }

    async fn on_message(
        &mut self,
        msg: ServerMsg,
        quick: Seq,
        seating: &mut Option<Seating<T::View>>,
    ) -> Result<(), ClientError> {
        match msg {
            ServerMsg::Joined { room_id, seat, .. } => {
                *seating = Some(Seating {
                    room_id,
                    seat,
                    view: None,
                    event_seq: 0,
                    resyncing: true,
                    answered: None,
                    pending: None,
                    acks: Vec::new(),
                    refused: 0,
                });
            }
            ServerMsg::Snapshot {
                room_id,
                event_seq,
                you,
                view,
                ..
            } => {
                if let Some(s) = seating.as_mut().filter(|s| s.room_id == room_id) {
                    s.view = T::view(view);
                    if let Some(v) = s.view.as_mut() {
                        T::seat(v, you);
                    }
                    s.seat = you;
                    s.event_seq = event_seq;
                    s.resyncing = false;
                    s.answered = None;
                }
            }
            ServerMsg::Event {
                room_id,
                event_seq,
                event,
                ..
            } => {
                let Some(s) = seating.as_mut().filter(|s| s.room_id == room_id) else {
                    return Ok(());
                };
                if s.resyncing || event_seq <= s.event_seq {
                    return Ok(());
                }
                if event_seq != s.event_seq + 1 {
                    tracing::debug!(room_id, event_seq, "missed an event; asking for a snapshot");
                    return self.resync(s).await;
                }
                s.event_seq = event_seq;
                if let (Some(event), Some(view)) = (T::event(event), s.view.as_mut()) {
                    T::follow(view, &event);
                    match self.strategy.as_mut() {
                        Some(strategy) => strategy.observe(&event),
                        None => self.unseen.push(event),
                    }
                }
            }
            ServerMsg::Error {
                seq, code, message, ..
            } => {
                if seq == Some(quick) {
                    return Err(ClientError::Refused { code, message });
                }
                tracing::warn!(?seq, ?code, %message, "request refused");
                if let Some(s) = seating
                    .as_mut()
                    .filter(|s| s.pending.is_some_and(|(p, _)| Some(p) == seq))
                {
                    s.refused += 1;
                    s.pending = None;
                    if s.refused >= MAX_REFUSALS {
                        let seq = self.seq();
                        if let Some(resign) = T::resignation(seq) {
                            self.send(&resign).await?;
                        }
                    }
                    return self.resync(s).await;
                }
            }
            ServerMsg::Ok { seq } => {
                if let Some(s) = seating.as_mut() {
                    if let Some((_, sent)) = s.pending.filter(|&(p, _)| p == seq) {
                        s.acks.push(sent.elapsed());
                        s.pending = None;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Asks for a fresh snapshot; events are ignored until it comes.
    async fn resync(&mut self, s: &mut Seating<T::View>) -> Result<(), ClientError> {
        s.resyncing = true;
        let seq = self.seq();
        self.send(&ClientMsg::Snapshot { seq }).await
    }

    /// Leaves the finished game's room; waits for `left` (or a refusal: already out).
    async fn leave(&mut self) -> Result<(), ClientError> {
        let seq = self.seq();
        self.send(&ClientMsg::Leave { seq }).await?;
        loop {
            match self.recv().await? {
                ServerMsg::Left { .. } => return Ok(()),
                ServerMsg::Error { seq: Some(s), .. } if s == seq => return Ok(()),
                _ => {}
            }
        }
    }
}
