//! One WebSocket connection: the handshake, the reader loop and the writer task.
//!
//! The reader owns the read half: it checks each frame (binary, size, rate), decodes it and
//! hands the message to the [`crate::gateway::player`] layer. The writer task owns the write half and
//! drains the connection's bounded queue, feeding every queued frame and flushing once. Rooms
//! only ever see the queue ([`Outbox`]), so a slow client can never stall a room: when its
//! queue is full it is closed, and its seat waits for a reconnection.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use qipai_protocol::{decode, ClientMsg, ErrorCode, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, Notify};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use crate::app::App;
use crate::base::budget::ConnTicket;
use crate::base::metrics::Metrics;
use crate::base::ratelimit::TokenBucket;
use crate::gateway::player::{Player, Verdict};
use crate::room::{Control, Outbox, Outgoing};

/// Ids for connections, so a room can tell an old connection's news from a new one's.
static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// The WebSocket settings from the configuration. tungstenite's own frame limits sit well
/// above ours, so an oversized frame is answered with `frame_too_large` by us rather than
/// dropped by it; only a frame four times over our limit breaks the connection.
pub fn ws_config(shared: &App) -> WebSocketConfig {
    let s = &shared.config.server;
    let hard_limit = s.max_frame_bytes.saturating_mul(4).max(4096);
    let max_write = shared
        .config
        .limits
        .max_write_buffer_bytes
        .max(s.write_buffer_bytes.saturating_add(1));
    WebSocketConfig::default()
        .read_buffer_size(s.read_buffer_bytes)
        .write_buffer_size(s.write_buffer_bytes)
        .max_write_buffer_size(max_write)
        .max_message_size(Some(hard_limit))
        .max_frame_size(Some(hard_limit))
}

/// Serves one of the server's own bots over an in-memory connection: the same loop as a
/// socket's, so a bot is a connection like any other.
pub async fn serve_in_memory<W>(ws: W, shared: Arc<App>)
where
    W: Stream<Item = Result<Message, WsError>> + Sink<Message, Error = WsError> + Send + 'static,
{
    let conn_id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let span = tracing::debug_span!("bot", conn = conn_id);
    tracing::Instrument::instrument(run(ws, shared, conn_id, None, false, None), span).await;
}

/// Serves one WebSocket that [`crate::gateway::http`] upgraded. Without a ticket (over a connection
/// budget) it only says why and closes. `internal`: another node's connection (`/node`),
/// whose first frame is the internal hello. `account_cookie`: the account session the
/// upgrade request's cookie named (from this server's own page only), for `hello`.
pub async fn serve<S>(
    ws: WebSocketStream<S>,
    shared: Arc<App>,
    ticket: Result<ConnTicket, qipai_protocol::WireError>,
    internal: bool,
    account_cookie: Option<String>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let ticket = match ticket {
        Ok(ticket) => ticket,
        Err(e) => {
            refuse_and_close(ws, &shared, e).await;
            return;
        }
    };
    let conn_id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let span = tracing::debug_span!("conn", conn = conn_id);
    let metrics = Arc::clone(&shared.metrics);
    metrics.connections.fetch_add(1, Ordering::Relaxed);
    metrics.connections_total.fetch_add(1, Ordering::Relaxed);
    // The player holds the ticket (another node's link moves it to its client's address).
    let served = run(ws, shared, conn_id, Some(ticket), internal, account_cookie);
    tracing::Instrument::instrument(served, span).await;
    metrics.connections.fetch_sub(1, Ordering::Relaxed);
}

/// Tells a connection over its budget why, and closes it.
async fn refuse_and_close<W>(mut ws: W, shared: &App, e: qipai_protocol::WireError)
where
    W: Sink<Message, Error = WsError> + Unpin,
{
    shared.metrics.error(e.code);
    let msg = ServerMsg::error(None, e.code, e.message);
    if let Some(frame) = crate::room::encode_frame(&msg) {
        let _ = ws.feed(Message::Binary(frame)).await;
    }
    let _ = ws.feed(Message::Close(None)).await;
    let _ = ws.flush().await;
}

/// `ticket`: the connection's place in the budgets, with the client's address; `None` for
/// the server's own bots.
async fn run<W>(
    ws: W,
    shared: Arc<App>,
    conn_id: u64,
    ticket: Option<ConnTicket>,
    internal: bool,
    account_cookie: Option<String>,
) where
    W: Stream<Item = Result<Message, WsError>> + Sink<Message, Error = WsError> + Send + 'static,
{
    let bot = ticket.is_none();
    let (sink, mut stream) = ws.split();
    let (tx, rx) = mpsc::channel(shared.config.server.outbound_queue);
    let kill = Arc::new(Notify::new());
    let outbox = Outbox::new(
        conn_id,
        tx.clone(),
        Arc::clone(&kill),
        Arc::clone(&shared.metrics),
        shared.config.limits.max_outbound_bytes,
    );
    let writer = tokio::spawn(write_loop(
        sink,
        rx,
        Arc::clone(&shared.metrics),
        outbox.queued(),
    ));
    let mut shutdown = shared.shutdown.clone();
    let mut reader = Reader {
        rate: TokenBucket::new(
            shared.config.server.rate_per_sec,
            shared.config.server.rate_burst,
        ),
        rate_per_sec: shared.config.server.rate_per_sec,
        abuse: TokenBucket::new(1, shared.config.server.abuse_burst),
        max_frame: shared.config.server.max_frame_bytes,
        metrics: Arc::clone(&shared.metrics),
    };
    let mut player = Player::new(
        Arc::clone(&shared),
        outbox.clone(),
        conn_id,
        Arc::clone(&kill),
        ticket,
        internal,
        account_cookie,
    );
    let mut ping = tokio::time::interval(Duration::from_millis(
        shared.config.server.ping_interval_ms.max(1),
    ));
    // Before `hello`: the hello timeout. After it: silence, reset by every complete frame,
    // so a client that answers no ping, or leaves a frame unfinished, is closed. The
    // server's own bots are exempt (they are not pinged over a socket).
    let silence = Duration::from_millis(
        shared
            .config
            .server
            .ping_interval_ms
            .saturating_add(shared.config.limits.pong_timeout_ms),
    );
    let deadline = tokio::time::sleep(Duration::from_millis(shared.config.server.hello_timeout_ms));
    tokio::pin!(deadline);
    // When the last complete frame came after `hello`. The timer is not moved for every
    // frame (a timer-wheel update each time): when it fires, it is moved to `heard +
    // silence` if a frame came since.
    let mut heard: Option<tokio::time::Instant> = None;
    // Several nodes: the connection goes on piped to another node.
    let mut forward = None;
    // Made once, not in every turn of the loop: each new one registered its waker again
    // (and took it back on drop) for every frame.
    let killed = kill.notified();
    let stopping = shutdown.wait();
    tokio::pin!(killed, stopping);

    let farewell: Option<Box<ServerMsg>> = loop {
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(frame)) = frame else { break None };
                match reader.check(frame, &mut player).await {
                    Verdict::Continue => {}
                    Verdict::Close(msg) => break msg,
                    Verdict::Forward(f) => {
                        forward = Some(f);
                        break None;
                    }
                }
                if player.has_said_hello() && !bot {
                    let now = tokio::time::Instant::now();
                    if heard.is_none() {
                        // The first frame after `hello`: from the hello timeout to silence.
                        deadline.as_mut().reset(now + silence);
                    }
                    heard = Some(now);
                }
            }
            () = &mut killed => break player.displaced(),
            () = &mut stopping => break Some(Box::new(ServerMsg::Shutdown {
                message: "the server is shutting down".into(),
            })),
            () = &mut deadline, if !(bot && player.has_said_hello()) => {
                if !player.has_said_hello() {
                    break Some(Box::new(ServerMsg::error(
                        None, ErrorCode::HelloFirst, "no `hello` in time")));
                }
                if let Some(due) = heard.map(|t| t + silence) {
                    if due > tokio::time::Instant::now() {
                        deadline.as_mut().reset(due);
                        continue;
                    }
                }
                shared.budget.refuse(crate::base::budget::Refused::Timeout);
                break Some(Box::new(ServerMsg::error(
                    None, ErrorCode::TimedOut, "no answer to the server's ping in time")));
            }
            _ = ping.tick(), if player.has_said_hello() => {
                let now = shared.clock.now().0;
                // A full queue means the reader will be told to close soon anyway.
                let _ = tx.try_send(Outgoing::Control(Control::Ping(now)));
            }
        }
    };
    if let Some(f) = forward {
        // Boxed: piping to another node holds a 4.6 KB future that only clusters use; in
        // place it would make every connection's task that much bigger.
        Box::pin(crate::topology::forward::pipe(
            *f,
            &mut stream,
            &outbox,
            &tx,
            shared.topology.as_ref(),
            shared.shutdown.clone(),
        ))
        .await;
    }
    if let Some(msg) = farewell {
        outbox.send(&msg);
    }
    let _ = tx.try_send(Outgoing::Control(Control::Close));
    drop((tx, outbox));
    // Boxed like the handling of a message (Reader::check): it is awaited once, at the end.
    Box::pin(player.disconnected()).await;
    // The closing handshake: read (and ignore) what the client still sends until its own
    // close, so that closing the socket does not reset it and lose our last words.
    let _ = tokio::time::timeout(Duration::from_millis(1000), async {
        while let Some(Ok(frame)) = stream.next().await {
            if matches!(frame, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
    // Give the writer a moment to flush the last words, then stop it either way.
    let abort = writer.abort_handle();
    if tokio::time::timeout(Duration::from_millis(500), writer)
        .await
        .is_err()
    {
        abort.abort();
    }
}

/// Checks frames before they become messages.
struct Reader {
    /// Messages a client may send (a flood is dropped with `rate_limited`).
    rate: TokenBucket,
    /// The rate's sustained messages per second, told to a client that goes over it.
    rate_per_sec: u32,
    /// Errors a client may cause before it is closed.
    abuse: TokenBucket,
    max_frame: usize,
    metrics: Arc<Metrics>,
}

impl Reader {
    async fn check(&mut self, frame: Message, player: &mut Player) -> Verdict {
        let bytes = match frame {
            Message::Binary(bytes) => bytes,
            Message::Text(_) => {
                return self.refuse(
                    player,
                    None,
                    ErrorCode::TextFrame,
                    "text frames are not accepted: send one MessagePack value per binary frame"
                        .into(),
                );
            }
            Message::Pong(payload) => {
                // Control frames pay like any other: a ping flood is dropped and closed.
                if !self.rate.take() {
                    return self.rate_limited(player);
                }
                player.pong(&payload);
                return Verdict::Continue;
            }
            Message::Ping(_) | Message::Frame(_) => {
                if !self.rate.take() {
                    return self.rate_limited(player);
                }
                return Verdict::Continue;
            }
            Message::Close(_) => return Verdict::Close(None),
        };
        self.metrics.frames_in.fetch_add(1, Ordering::Relaxed);
        self.metrics
            .bytes_in
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        if bytes.len() > self.max_frame {
            let message = format!(
                "frame of {} bytes is over the limit of {}",
                bytes.len(),
                self.max_frame
            );
            return self.refuse(player, None, ErrorCode::FrameTooLarge, message);
        }
        if !self.rate.take() {
            return self.rate_limited(player);
        }
        if player.expects_node_hello() {
            return match crate::topology::forward::NodeHello::decode(&bytes) {
                Some(hello) => Box::pin(player.node_hello(hello)).await,
                None => Verdict::Close(Some(Box::new(ServerMsg::error(
                    None,
                    ErrorCode::BadNodeSecret,
                    "the first frame on /node must be the internal hello",
                )))),
            };
        }
        match decode::<ClientMsg>(&bytes, ClientMsg::TYPES) {
            // Boxed, one allocation a message: in place, the handling's future (the message
            // itself, the session, the room's request) would widen every connection's task
            // by over a kilobyte for its whole life, though a connection is handling a
            // message only for the instants between a frame and its room's queue.
            Ok(msg) => match Box::pin(player.handle(msg)).await {
                Ok(verdict) => verdict,
                Err(e) => {
                    let (seq, code, message) = e;
                    self.refuse(player, seq, code, message)
                }
            },
            // A card outside the notation is refused by the codec as the room refused it
            // when cards were strings: answered, not counted against the connection (PROTOCOL
            // §13, errors about a game action).
            Err(e) if e.code == ErrorCode::BadCard && player.has_said_hello() => {
                player.send(&ServerMsg::error(e.seq, e.code, e.message));
                Verdict::Continue
            }
            Err(e) => self.refuse(player, e.seq, e.code, e.message),
        }
    }

    fn rate_limited(&mut self, player: &Player) -> Verdict {
        let message = "too many messages: this one was dropped";
        // The limit, for the page to say it in the player's language.
        let details = qipai_protocol::ErrorDetails {
            limit: Some(self.rate_per_sec),
            ..qipai_protocol::ErrorDetails::default()
        };
        let answer = ServerMsg::error_with(None, ErrorCode::RateLimited, message, details);
        self.refuse_with(player, answer)
    }

    /// Answers with an error; a connection that keeps erring is closed.
    fn refuse(
        &mut self,
        player: &Player,
        seq: Option<u64>,
        code: ErrorCode,
        message: String,
    ) -> Verdict {
        self.refuse_with(player, ServerMsg::error(seq, code, message))
    }

    /// [`Reader::refuse`] with the error answer already made.
    fn refuse_with(&mut self, player: &Player, answer: ServerMsg) -> Verdict {
        if !player.has_said_hello() {
            // Before `hello` there is no second chance.
            return Verdict::Close(Some(Box::new(answer)));
        }
        player.send(&answer);
        if self.abuse.take() {
            Verdict::Continue
        } else {
            Verdict::Close(Some(Box::new(ServerMsg::error(
                None,
                ErrorCode::Closing,
                "too many bad messages: closing the connection",
            ))))
        }
    }
}

/// Drains the queue: feeds everything waiting, then flushes once. Ends after a close
/// frame, or when the socket fails.
async fn write_loop<S>(
    mut sink: S,
    mut rx: mpsc::Receiver<Outgoing>,
    metrics: Arc<Metrics>,
    queued: Arc<AtomicUsize>,
) where
    S: SinkExt<Message> + Unpin,
{
    let count = |m: Outgoing| {
        if let Outgoing::Frame(b) = &m {
            crate::room::sent(&queued, b.len());
        }
        let m = m.into_message();
        metrics.frames_out.fetch_add(1, Ordering::Relaxed);
        metrics
            .bytes_out
            .fetch_add(m.len() as u64, Ordering::Relaxed);
        m
    };
    while let Some(first) = rx.recv().await {
        let mut closing = matches!(first, Outgoing::Control(Control::Close));
        if sink.feed(count(first)).await.is_err() {
            return;
        }
        while !closing {
            let Ok(next) = rx.try_recv() else { break };
            closing = matches!(next, Outgoing::Control(Control::Close));
            if sink.feed(count(next)).await.is_err() {
                return;
            }
        }
        if sink.flush().await.is_err() || closing {
            return;
        }
    }
}
