//! Nothing acknowledged is lost: the real `qipai-server` binary, on a SQLite store, is killed
//! with SIGKILL at random points of a xiangqi game and of a Tuolaji hand — some of them
//! between an action's arrival and its `ok` — and started again on the same file. After each
//! restart every player comes back with its resume token and checks that every acknowledged
//! action is there, that the action in flight is either wholly applied or not at all, and
//! that each seat's snapshot equals the last one before the crash as the clock rule of
//! PROTOCOL.md §12.1 says; then the game goes on to a normal end.
//!
//! One harness ([`crash_test`]) serves both games; each game says through [`Table`] how it
//! plays, what it sends in flight and what it checks.
//!
//! `QIPAI_CRASH_POINTS` sets how many crashes per game (default 4, as in CI); the longer run
//! in README uses 60 for xiangqi and 50 for Tuolaji. `QIPAI_CRASH_SEED` picks the random
//! points (default: from the time, printed so that a failure can be replayed).

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::records::Rng;
use common::tuolaji::{next_action, patient_env, remove_cards, seat_view};
use common::{spawn_listening, Client, Endpoint};
use qipai_protocol::tuolaji::{Card, Phase, Play, TuolajiAction, TuolajiView};
use qipai_protocol::xiangqi::{Side, Status, XiangqiAction, XiangqiOptions, XiangqiView};
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg, View};

/// A Tuolaji table's bid window in these tests: long enough for the test's bids, short
/// enough to wait out once a hand.
const BID_WINDOW_MS: u64 = 400;

/// The server binary on a store file.
struct Spawned {
    child: Child,
    addr: SocketAddr,
}

impl Endpoint for Spawned {
    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

impl Spawned {
    /// Starts the server on the next free port of `ports` (each game its own range, below
    /// the kernel's ephemeral ports 32768–60999): a port the kernel handed out could be
    /// handed to the other game's server or a client meanwhile, and a client would then
    /// talk to the wrong server.
    async fn start(file: &str, ports: &mut std::ops::Range<u16>) -> Spawned {
        Spawned::start_with(file, ports, &[]).await
    }

    /// [`Spawned::start`] with `extra` settings over the patient ones.
    async fn start_with(
        file: &str,
        ports: &mut std::ops::Range<u16>,
        extra: &[(&str, &str)],
    ) -> Spawned {
        let addr = ports
            .by_ref()
            .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
            .find(|addr| std::net::TcpListener::bind(addr).is_ok())
            .expect("a free port");
        let mut server = Command::new(env!("CARGO_BIN_EXE_qipai-server"));
        server
            .env("QIPAI_SERVER__ADDR", addr.to_string())
            .env("QIPAI_STORE__URL", file)
            // A long first-move limit and bot fill: nothing happens by itself meanwhile.
            // Turns, the bottom and the seat grace long enough that nobody times out while
            // the server restarts; a short bid window.
            .envs(patient_env(BID_WINDOW_MS))
            .envs(extra.iter().copied())
            .env("RUST_LOG", "warn");
        let child = spawn_listening(server, addr, "qipai-server").await;
        Spawned { child, addr }
    }

    /// SIGKILL: no goodbye, no flush.
    fn kill(self) {}

    /// SIGTERM, and wait for the process to end: the rooms hand what they queued to the
    /// store's writer, which writes it before the process exits.
    fn stop(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill -TERM");
        assert!(status.success());
        let _ = self.child.wait();
    }
}

/// A test that fails leaves no server behind.
impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// One game under the crash test, played by clients that sit in seats 0, 1, …
trait Table: Sized {
    const NAME: &'static str;
    /// The ports its servers listen on, one per start.
    const PORTS: std::ops::Range<u16>;
    /// Seats the players at a new table.
    async fn open(server: &Spawned) -> (Self, Vec<Client>);
    /// Plays up to `n` acknowledged actions, then takes the snapshot to compare with.
    async fn play(&mut self, clients: &mut [Client], rng: &mut Rng, n: u64);
    /// Sends one more action without waiting for its answer: the sender and the `seq`.
    async fn send(&mut self, clients: &mut [Client], rng: &mut Rng) -> Option<(usize, u64)>;
    /// After the restart, checks what came back against the snapshot before the crash;
    /// `late_ok` says whether the action in flight was acknowledged before the kill.
    /// `true` when the action in flight was applied.
    async fn check(&mut self, clients: &mut [Client], point: u64, late_ok: bool) -> bool;
    /// Plays on to a normal end.
    async fn finish(&mut self, clients: &mut [Client]);
}

/// The crash loop: a few acknowledged actions, one more in flight and the kill a random
/// 0–3 ms after it left (or, every third point, right after an `ok`), a restart on the same
/// file, every player back with its token, the table's checks; `QIPAI_CRASH_POINTS` times.
async fn crash_test<T: Table>() {
    let points = env_u64("QIPAI_CRASH_POINTS").unwrap_or(4);
    let seed = env_u64("QIPAI_CRASH_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            | 1
    });
    eprintln!(
        "crash test, {}: {points} points, QIPAI_CRASH_SEED={seed}",
        T::NAME
    );
    let started = Instant::now();
    let mut rng = Rng(seed);
    let file = std::env::temp_dir()
        .join(format!(
            "qipai_crash_{}_{}_{seed}.db",
            T::NAME,
            std::process::id()
        ))
        .display()
        .to_string();

    let mut ports = T::PORTS;
    let mut server = Spawned::start(&file, &mut ports).await;
    let (mut table, mut clients) = T::open(&server).await;
    let tokens: Vec<String> = clients.iter().map(|c| c.token.clone()).collect();
    let mut in_flight_applied = 0;
    for point in 0..points {
        let acked = rng.below(4) + u64::from(point % 3 == 2);
        table.play(&mut clients, &mut rng, acked).await;
        let in_flight = if point % 3 == 2 {
            None
        } else {
            table.send(&mut clients, &mut rng).await
        };
        if in_flight.is_some() {
            tokio::time::sleep(Duration::from_micros(rng.below(3000))).await;
        }
        server.kill();
        // An `ok` that reached the client before the kill counts as acknowledged: read
        // what the dead server had sent.
        let late_ok = match in_flight {
            Some((sender, seq)) => {
                let sender = &mut clients[sender];
                while sender.try_recv(Duration::from_millis(200)).await.is_some() {}
                sender
                    .log
                    .iter()
                    .any(|m| matches!(m, ServerMsg::Ok { seq: s } if *s == seq))
            }
            None => false,
        };

        server = Spawned::start(&file, &mut ports).await;
        for (client, token) in clients.iter_mut().zip(&tokens) {
            *client = Client::resume(&server, token).await;
        }
        // Back at the seat: `joined` and a snapshot come unasked.
        for c in &mut clients {
            c.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
        }
        if table.check(&mut clients, point, late_ok).await {
            in_flight_applied += 1;
        }
        for c in &mut clients {
            c.log.clear();
        }
    }
    table.finish(&mut clients).await;
    eprintln!(
        "crash test, {}: {points} crashes survived in {:.1} s, {in_flight_applied} in-flight actions applied",
        T::NAME,
        started.elapsed().as_secs_f64()
    );
    server.kill();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{file}{suffix}"));
    }
}

#[tokio::test]
async fn sigkill_at_random_points_loses_no_acknowledged_xiangqi_move() {
    crash_test::<Xiangqi>().await;
}

#[tokio::test]
async fn sigkill_at_random_points_loses_no_acknowledged_tuolaji_action() {
    crash_test::<Tuolaji>().await;
}

/// A deal paced for people (a card every 20 ms): every card is a step committed before
/// anybody sees it, so a kill half-way takes no card back — right after the restart each
/// seat holds every card it was shown (the deal goes on from there, the same cards to the
/// same seats), nor does a SIGTERM after it.
#[tokio::test]
async fn a_paced_deal_shows_no_card_that_a_kill_takes_back() {
    let file = crash_file("deal");
    let paced = [("QIPAI_TUOLAJI__DEAL_INTERVAL_MS", "20")];
    let mut ports = 31_000..31_200;
    let server = Spawned::start_with(&file, &mut ports, &paced).await;
    let (_, mut clients) = Tuolaji::open(&server).await;
    let tokens: Vec<String> = clients.iter().map(|c| c.token.clone()).collect();
    let mut before = all_views(&mut clients).await;
    while before[0].1.dealt < 60 {
        before = all_views(&mut clients).await;
    }
    assert!(
        matches!(before[0].1.phase, Phase::Dealing),
        "killed during the deal"
    );
    server.kill();

    let server = resume(&file, &mut ports, &paced, &mut clients, &tokens).await;
    let after = all_views(&mut clients).await;
    for ((_, b), (_, a)) in before.iter().zip(&after) {
        assert!(
            a.dealt >= b.dealt,
            "dealt {} after, {} seen before",
            a.dealt,
            b.dealt
        );
        // Panics naming the card if one the seat was shown is not in its hand.
        without(
            a.hand.as_deref().unwrap_or_default(),
            b.hand.as_deref().unwrap_or_default(),
        );
    }
    // SIGTERM: the same holds across a graceful stop.
    server.stop();
    let server = resume(&file, &mut ports, &paced, &mut clients, &tokens).await;
    let again = all_views(&mut clients).await;
    for ((_, a), (_, b)) in after.iter().zip(&again) {
        assert!(b.dealt >= a.dealt);
        without(
            b.hand.as_deref().unwrap_or_default(),
            a.hand.as_deref().unwrap_or_default(),
        );
    }
    server.kill();
    remove_store(&file);
}

/// The bid window closes by the table's timer: everybody is shown the trump naming (or the
/// bottom) at once, the dealer its cards. Killed right then, the restarted table shows
/// every seat the same: the window is not open again.
#[tokio::test]
async fn the_bid_window_closing_is_not_taken_back_by_a_kill() {
    let file = crash_file("bids");
    let mut ports = 31_200..31_400;
    let server = Spawned::start(&file, &mut ports).await;
    let (_, mut clients) = Tuolaji::open(&server).await;
    let tokens: Vec<String> = clients.iter().map(|c| c.token.clone()).collect();
    let mut before = all_views(&mut clients).await;
    while matches!(
        before[0].1.phase,
        Phase::Waiting | Phase::Dealing | Phase::Bidding { .. }
    ) {
        before = all_views(&mut clients).await;
    }
    server.kill();

    let server = resume(&file, &mut ports, &[], &mut clients, &tokens).await;
    let after = all_views(&mut clients).await;
    for ((_, b), (_, a)) in before.iter().zip(&after) {
        assert_eq!(table_state(a), table_state(b), "the seat's view came back");
    }
    server.kill();
    remove_store(&file);
}

/// The turn runs out and the server plays for the seat (short turns, bottom and trump
/// naming, so the whole hand goes by the timers). Killed right after a card it played was
/// shown, the restarted table has every seat's shown plays as the start of its plays.
#[tokio::test]
async fn an_auto_played_card_is_not_taken_back_by_a_kill() {
    let file = crash_file("auto");
    let short = [
        ("QIPAI_TUOLAJI__TURN_MS", "150"),
        ("QIPAI_TUOLAJI__BOTTOM_MS", "150"),
        ("QIPAI_TUOLAJI__BID_WINDOW_MS", "50"),
    ];
    let mut ports = 31_400..31_600;
    let server = Spawned::start_with(&file, &mut ports, &short).await;
    let (_, mut clients) = Tuolaji::open(&server).await;
    let tokens: Vec<String> = clients.iter().map(|c| c.token.clone()).collect();
    let mut before = all_views(&mut clients).await;
    while before.iter().all(|(_, v)| v.played.is_empty()) {
        before = all_views(&mut clients).await;
    }
    server.kill();

    let server = resume(&file, &mut ports, &short, &mut clients, &tokens).await;
    let after = all_views(&mut clients).await;
    for ((_, b), (_, a)) in before.iter().zip(&after) {
        assert_eq!(a.hand_number, b.hand_number);
        assert!(
            a.played.starts_with(&b.played),
            "plays shown {:?}, after the restart {:?}",
            b.played,
            a.played
        );
    }
    server.kill();
    remove_store(&file);
}

/// Room creation, a join, the game's start and a room's close, each killed right after a
/// client was told: the restarted server keeps the room and both seats and the game going,
/// never reopens the closed room, and never hands out a room id it told anybody before
/// (ids are counted here: the Tuolaji seed is configured). A player whose game ended
/// just before the kill still resumes with their token.
#[tokio::test]
async fn joins_the_start_and_a_close_are_not_taken_back_by_a_kill() {
    let file = crash_file("seats");
    let mut ports = 31_600..31_800;
    let server = Spawned::start(&file, &mut ports).await;
    let options = XiangqiOptions::default();
    let mut red = Client::hello(&server, "Red").await;
    let room = red.create_xiangqi(options.clone(), Some(0)).await;
    server.kill();

    let server = Spawned::start(&file, &mut ports).await;
    let mut red = Client::resume(&server, &red.token).await;
    assert_eq!(welcome_room(&red), Some(room), "the created room came back");
    red.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    let mut black = Client::hello(&server, "Black").await;
    black.join(room, Some(1)).await;
    server.kill();

    let server = Spawned::start(&file, &mut ports).await;
    let mut red = Client::resume(&server, &red.token).await;
    let mut black = Client::resume(&server, &black.token).await;
    for c in [&mut red, &mut black] {
        assert_eq!(welcome_room(c), Some(room));
        c.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    }
    let v = view(&mut black).await;
    assert_eq!(v.status, Status::Playing, "the started game came back");
    let mut green = Client::hello(&server, "Green").await;
    let other = green.create_xiangqi(options.clone(), None).await;
    assert_ne!(other, room, "a room id is never handed out twice");
    let seq = green.seq();
    green.send(&ClientMsg::Leave { seq }).await;
    green
        .until(|m| matches!(m, ServerMsg::Left { seq: Some(s), .. } if *s == seq))
        .await;
    let seq = red.xq(XiangqiAction::Resign).await;
    red.answer(seq).await;
    server.kill();

    let server = Spawned::start(&file, &mut ports).await;
    let red_id = red.player_id;
    let red = Client::resume(&server, &red.token).await;
    assert_eq!(
        red.player_id, red_id,
        "the token of a finished game still works"
    );
    let mut late = Client::hello(&server, "Late").await;
    let seq = late.seq();
    late.send(&ClientMsg::Join {
        seq,
        room_id: other,
        seat: None,
        entry_code: None,
    })
    .await;
    let closed = late.error_for(Some(seq)).await.0;
    assert_eq!(
        closed,
        ErrorCode::NoSuchRoom,
        "the closed room stays closed"
    );
    let third = late.create_xiangqi(options, None).await;
    assert!(third != room && third != other, "ids go on after a restart");
    server.kill();
    remove_store(&file);
}

/// What the lobby and a reconnection compare after a kill: the phase, the dealer and trump,
/// the seat's hand, the bids and the cards dealt.
fn table_state(v: &TuolajiView) -> impl PartialEq + std::fmt::Debug {
    (
        format!("{:?}", v.phase),
        v.dealer,
        v.trump,
        v.hand.as_deref().map(sorted),
        format!("{:?}", v.bids),
        v.dealt,
    )
}

/// The room a `welcome` (the last message of a fresh resume) names.
fn welcome_room(client: &Client) -> Option<qipai_protocol::RoomId> {
    match client.log.last() {
        Some(ServerMsg::Welcome { room_id, .. }) => *room_id,
        other => panic!("expected welcome, got {other:?}"),
    }
}

/// A store file of its own for one test.
fn crash_file(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("qipai_crash_{name}_{}.db", std::process::id()))
        .display()
        .to_string()
}

fn remove_store(file: &str) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{file}{suffix}"));
    }
}

/// Starts the server on `file` again and brings every player back with its token.
async fn resume(
    file: &str,
    ports: &mut std::ops::Range<u16>,
    extra: &[(&str, &str)],
    clients: &mut [Client],
    tokens: &[String],
) -> Spawned {
    let server = Spawned::start_with(file, ports, extra).await;
    for (client, token) in clients.iter_mut().zip(tokens) {
        *client = Client::resume(&server, token).await;
        client
            .until(|m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
    }
    server
}

/// Xiangqi: red is client 0, black client 1.
struct Xiangqi {
    options: XiangqiOptions,
    room: qipai_protocol::RoomId,
    acked: Vec<String>,
    before: XiangqiView,
    in_flight: Option<String>,
    games: u32,
}

async fn view(client: &mut Client) -> XiangqiView {
    match client.snapshot().await.1 {
        View::Xiangqi(v) => v,
        other => panic!("not xiangqi: {other:?}"),
    }
}

fn played(v: &XiangqiView) -> Vec<String> {
    v.moves.iter().map(|m| m.iccs.to_string()).collect()
}

fn mover(side: Side) -> usize {
    usize::from(side == Side::Black)
}

/// Sends a move and waits for its answer: `true` for `ok`.
async fn try_move(client: &mut Client, iccs: &str) -> bool {
    let seq = client
        .xq(XiangqiAction::Move {
            iccs: iccs.to_owned(),
        })
        .await;
    let answer = client
        .until(|m| {
            matches!(m, ServerMsg::Ok { seq: s } if *s == seq)
                || matches!(m, ServerMsg::Error { seq: Some(s), .. } if *s == seq)
        })
        .await;
    if !matches!(answer, ServerMsg::Ok { .. }) {
        eprintln!("{iccs}: {answer:?}");
    }
    matches!(answer, ServerMsg::Ok { .. })
}

impl Table for Xiangqi {
    const NAME: &'static str = "xiangqi";
    const PORTS: std::ops::Range<u16> = 21_000..26_000;

    async fn open(server: &Spawned) -> (Self, Vec<Client>) {
        let mut red = Client::hello(server, "Red").await;
        let mut black = Client::hello(server, "Black").await;
        let options = XiangqiOptions {
            time_control: Some("90+30".into()),
            ..XiangqiOptions::default()
        };
        let room = red.create_xiangqi(options.clone(), Some(0)).await;
        black.join(room, Some(1)).await;
        let before = view(&mut red).await;
        let table = Xiangqi {
            options,
            room,
            acked: Vec::new(),
            before,
            in_flight: None,
            games: 1,
        };
        (table, vec![red, black])
    }

    /// A few acknowledged moves, picked at random among the legal ones.
    async fn play(&mut self, clients: &mut [Client], rng: &mut Rng, n: u64) {
        let mut over = false;
        for _ in 0..n {
            let v = view(&mut clients[0]).await;
            // Only the side to move's seat gets its legal moves.
            let v = view(&mut clients[mover(v.side_to_move)]).await;
            if v.status != Status::Playing || v.legal_moves.is_empty() {
                over = true;
                break;
            }
            let mv = rng.pick(&v.legal_moves).to_string();
            let sender = &mut clients[mover(v.side_to_move)];
            assert!(try_move(sender, &mv).await, "a legal move {mv} was refused");
            self.acked.push(mv);
        }
        let last = view(&mut clients[0]).await;
        if !over {
            self.before = last;
        }
    }

    async fn send(&mut self, clients: &mut [Client], rng: &mut Rng) -> Option<(usize, u64)> {
        let last = view(&mut clients[0]).await;
        let last = view(&mut clients[mover(last.side_to_move)]).await;
        if last.status != Status::Playing || last.legal_moves.is_empty() {
            return None;
        }
        let mv = rng.pick(&last.legal_moves).to_string();
        let sender = mover(last.side_to_move);
        let seq = clients[sender]
            .xq(XiangqiAction::Move { iccs: mv.clone() })
            .await;
        self.in_flight = Some(mv);
        Some((sender, seq))
    }

    async fn check(&mut self, clients: &mut [Client], point: u64, late_ok: bool) -> bool {
        let in_flight = self.in_flight.take();
        let after = view(&mut clients[0]).await;
        let moves = played(&after);
        let acked = &mut self.acked;
        assert!(
            moves.starts_with(acked),
            "point {point}: acknowledged {acked:?}, after the restart {moves:?}"
        );
        let applied = match moves.len() - acked.len() {
            0 => {
                assert!(!late_ok, "point {point}: an acknowledged move was lost");
                false
            }
            1 => {
                assert_eq!(moves.last(), in_flight.as_ref(), "point {point}");
                acked.push(moves[moves.len() - 1].clone());
                true
            }
            n => panic!("point {point}: {n} moves more than were sent"),
        };
        let before = &self.before;
        if moves.len() == before.moves.len() {
            assert_eq!(after.fen, before.fen, "point {point}");
            // The side that has moved keeps its clock exactly; the side to move is charged
            // at most the time it had been thinking before the crash, never the downtime.
            let (kept, kept_before) = match after.side_to_move {
                Side::Red => (after.clocks.black_ms, before.clocks.black_ms),
                Side::Black => (after.clocks.red_ms, before.clocks.red_ms),
            };
            assert_eq!(kept, kept_before, "point {point}: the other clock");
        }
        // A finished game: a new one in a new room, under a new id (ids are random).
        if after.status != Status::Playing {
            let next = clients[0]
                .create_xiangqi(self.options.clone(), Some(0))
                .await;
            assert_ne!(next, self.room, "a new room got the old room's id");
            clients[1].join(next, Some(1)).await;
            self.room = next;
            self.acked.clear();
            self.games += 1;
            self.before = view(&mut clients[0]).await;
        }
        applied
    }

    /// The game then goes on normally: a resignation ends it.
    async fn finish(&mut self, clients: &mut [Client]) {
        eprintln!("crash test, xiangqi: {} games", self.games);
        let v = view(&mut clients[0]).await;
        if v.status != Status::Playing {
            return;
        }
        clients[mover(v.side_to_move)]
            .xq(XiangqiAction::Resign)
            .await;
        clients[0]
            .until(|m| {
                matches!(
                    m,
                    ServerMsg::Event {
                        event: qipai_protocol::Event::Xiangqi(
                            qipai_protocol::xiangqi::XiangqiEvent::Over { .. }
                        ),
                        ..
                    }
                )
            })
            .await;
    }
}

/// Tuolaji: four players, client `i` in seat `i`, each acting from its own view (the
/// server's hint on its turn, its strongest legal bid in the bid window).
struct Tuolaji {
    /// Each seat's snapshot before the crash, with the server time it was taken at.
    before: Vec<(u64, TuolajiView)>,
    /// The hand the acknowledged actions below belong to.
    hand: u32,
    /// The cards each seat played in this hand, acknowledged.
    acked_played: [Vec<Card>; 4],
    /// Acknowledged bids in this hand.
    acked_bids: usize,
    in_flight: Option<(usize, TuolajiAction)>,
    /// The hand the crash points began in.
    first_hand: u32,
    /// How many crashes came in each phase (by the snapshot before them).
    phases: std::collections::BTreeMap<&'static str, u32>,
}

async fn all_views(clients: &mut [Client]) -> Vec<(u64, TuolajiView)> {
    let mut views = Vec::new();
    for c in clients {
        views.push(seat_view(c).await);
    }
    views
}

fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut cards = cards.to_vec();
    cards.sort();
    cards
}

/// `hand` without `cards` (as multisets), sorted.
fn without(hand: &[Card], cards: &[Card]) -> Vec<Card> {
    let mut rest = hand.to_vec();
    remove_cards(&mut rest, cards);
    sorted(&rest)
}

/// The cards an action takes out of the hand.
fn cards_of(action: &TuolajiAction) -> &[Card] {
    match action {
        TuolajiAction::PutBack { cards }
        | TuolajiAction::Lead { cards, .. }
        | TuolajiAction::Follow { cards } => cards,
        TuolajiAction::Bid { .. } | TuolajiAction::NameTrump { .. } => &[],
    }
}

impl Tuolaji {
    /// What is acknowledged is counted from `hand` on.
    fn in_hand(&mut self, hand: u32) {
        if hand != self.hand {
            self.hand = hand;
            self.acked_played = Default::default();
            self.acked_bids = 0;
        }
    }

    /// Counts `action` of `seat` in `hand` as acknowledged.
    fn acked(&mut self, seat: usize, action: &TuolajiAction, hand: u32) {
        self.in_hand(hand);
        match action {
            TuolajiAction::Bid { .. } => self.acked_bids += 1,
            TuolajiAction::Lead { cards, .. } | TuolajiAction::Follow { cards } => {
                self.acked_played[seat].extend(cards.iter().cloned())
            }
            TuolajiAction::PutBack { .. } | TuolajiAction::NameTrump { .. } => {}
        }
    }

    /// Plays `action` and waits for its answer; a bid may come too late for the window.
    async fn act(&mut self, clients: &mut [Client], seat: usize, action: TuolajiAction, hand: u32) {
        let client = &mut clients[seat];
        let seq = client.tl(action.clone()).await;
        match client.answer(seq).await {
            ServerMsg::Ok { .. } => self.acked(seat, &action, hand),
            refused => assert!(
                matches!(action, TuolajiAction::Bid { .. }),
                "seat {seat}: {action:?} refused: {refused:?}"
            ),
        }
    }

    /// Whether the bid window open before the crash has closed on the server's time line
    /// since (PROTOCOL.md §12.1: deadlines keep their place on it; the dealer has then
    /// taken the bottom).
    /// (The seats' snapshots are taken one after the other: any of them may be the first
    /// after the close.)
    fn window_closed(&self, after: &[(u64, TuolajiView)]) -> bool {
        let b = &self.before[0].1;
        after.iter().any(|(time, a)| {
            matches!(b.phase, Phase::Bidding { closes_at } if *time >= closes_at)
                && a.phase != b.phase
        })
    }

    /// Checks that the action in flight of `seat` is wholly there in `after`.
    fn wholly_applied(&self, after: &[(u64, TuolajiView)], seat: usize, action: &TuolajiAction) {
        let before: Vec<&TuolajiView> = self.before.iter().map(|(_, v)| v).collect();
        let (b, a) = (before[seat], &after[seat].1);
        let cards = cards_of(action);
        if a.hand_number != b.hand_number {
            // The hand's last card: the hand is over and the next one dealt.
            let held = b.hand.as_deref().unwrap_or_default();
            assert!(
                matches!(action, TuolajiAction::Follow { .. }) && sorted(held) == sorted(cards),
                "a new hand after {action:?} with {held:?} in hand"
            );
            assert!(a.last_result.is_some(), "the hand's result");
            return;
        }
        let held = |v: &TuolajiView| sorted(v.hand.as_deref().unwrap_or_default());
        match action {
            TuolajiAction::NameTrump { suit } => assert_eq!(a.trump.as_ref(), Some(suit)),
            TuolajiAction::Bid { cards } => {
                assert_eq!(a.bids.len(), b.bids.len() + 1, "{:?}", a.bids);
                assert_eq!(a.bids[..b.bids.len()], b.bids[..]);
                let shown = &a.bids[b.bids.len()];
                assert_eq!(
                    (usize::from(shown.seat), sorted(&shown.cards)),
                    (seat, sorted(cards))
                );
                if self.window_closed(after) {
                    return;
                }
                assert_eq!(held(a), held(b), "a bid keeps its cards in the hand");
            }
            _ => assert_eq!(held(a), without(held(b).as_slice(), cards)),
        }
        if let TuolajiAction::Lead { .. } | TuolajiAction::Follow { .. } = action {
            let mut played = b.played.clone();
            played.extend(cards.iter().cloned());
            assert_eq!(a.played, played);
            let shown = Play {
                seat: seat as u8,
                cards: cards.to_vec(),
            };
            let last = |t: &Option<qipai_protocol::tuolaji::TrickView>| {
                t.as_ref().and_then(|t| t.plays.last().cloned())
            };
            assert!(
                [last(&a.current_trick), last(&a.previous_trick)]
                    .iter()
                    .flatten()
                    .any(|p| p.seat == shown.seat && sorted(&p.cards) == sorted(&shown.cards)),
                "{shown:?} not in {:?} / {:?}",
                a.current_trick,
                a.previous_trick
            );
        }
        // Nobody else's cards moved.
        for s in (0..4).filter(|s| *s != seat) {
            if !matches!(action, TuolajiAction::NameTrump { .. }) {
                assert_eq!(after[s].1.hand, before[s].hand, "seat {s}");
            }
        }
    }
}

impl Table for Tuolaji {
    const NAME: &'static str = "tuolaji";
    const PORTS: std::ops::Range<u16> = 26_000..31_000;

    async fn open(server: &Spawned) -> (Self, Vec<Client>) {
        let mut clients = Vec::new();
        for name in ["North", "East", "South", "West"] {
            clients.push(Client::hello(server, name).await);
        }
        // The server's defaults: the timings set above.
        let options = qipai_protocol::tuolaji::TuolajiOptions::default();
        let room = clients[0].create_tuolaji(options, Some(0)).await;
        for (seat, c) in clients.iter_mut().enumerate().skip(1) {
            c.join(room, Some(seat as u8)).await;
        }
        let before = all_views(&mut clients).await;
        let hand = before[0].1.hand_number;
        let table = Tuolaji {
            before,
            hand,
            acked_played: Default::default(),
            acked_bids: 0,
            in_flight: None,
            first_hand: hand,
            phases: Default::default(),
        };
        (table, clients)
    }

    /// Three actions for each one asked: a hand has some 160, and the crashes should reach
    /// the bids and the bottom of later hands too. It stops before a bid, a trump naming or
    /// a bottom exchange (unless that comes first), so that the crash comes right there.
    async fn play(&mut self, clients: &mut [Client], rng: &mut Rng, n: u64) {
        for i in 0..3 * n {
            let Some((seat, action, hand)) = next_action(clients, rng).await else {
                break;
            };
            let trick = matches!(
                action,
                TuolajiAction::Lead { .. } | TuolajiAction::Follow { .. }
            );
            if i > 0 && !trick {
                break;
            }
            self.act(clients, seat, action, hand).await;
        }
        // The last follow of a hand starts the next deal at once: let it run out first.
        for _ in 0..2000 {
            let (_, v) = seat_view(&mut clients[0]).await;
            if !matches!(v.phase, Phase::Dealing | Phase::BetweenHands { .. }) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        self.before = all_views(clients).await;
    }

    async fn send(&mut self, clients: &mut [Client], rng: &mut Rng) -> Option<(usize, u64)> {
        let (seat, action, hand) = next_action(clients, rng).await?;
        // What the table looked like as the action left (it may have waited for it).
        self.before = all_views(clients).await;
        let seq = clients[seat].tl(action.clone()).await;
        self.in_flight = Some((seat, action));
        self.in_hand(hand);
        Some((seat, seq))
    }

    async fn check(&mut self, clients: &mut [Client], point: u64, late_ok: bool) -> bool {
        let phase = match self.before[0].1.phase {
            Phase::Dealing | Phase::Bidding { .. } => "bidding",
            Phase::NamingTrump { .. } | Phase::Bottom { .. } => "naming or bottom",
            Phase::Leading { .. } | Phase::Following { .. } => "tricks",
            _ => "other",
        };
        *self.phases.entry(phase).or_default() += 1;
        let after = all_views(clients).await;
        let in_flight = self.in_flight.take();
        // Every acknowledged action is there.
        for (s, (_, a)) in after.iter().enumerate() {
            if a.hand_number == self.hand {
                assert!(
                    a.played.starts_with(&self.acked_played[s]),
                    "point {point}, seat {s}: acknowledged {:?}, after the restart {:?}",
                    self.acked_played[s],
                    a.played
                );
                assert!(
                    a.bids.len() >= self.acked_bids,
                    "point {point}: {:?}",
                    a.bids
                );
            }
        }
        let applied = match &in_flight {
            None => false,
            Some((seat, action)) => {
                let (b, a) = (&self.before[*seat].1, &after[*seat].1);
                match action {
                    TuolajiAction::Bid { .. } => a.bids.len() > b.bids.len(),
                    TuolajiAction::NameTrump { .. } => a.trump != b.trump,
                    _ => a.hand_number != b.hand_number || a.hand != b.hand,
                }
            }
        };
        assert!(
            applied || !late_ok,
            "point {point}: the acknowledged {in_flight:?} was lost"
        );
        if let (true, Some((seat, action))) = (applied, &in_flight) {
            self.wholly_applied(&after, *seat, action);
            let hand = after[*seat].1.hand_number;
            if hand == self.hand {
                self.acked(*seat, action, hand);
            }
        } else if self.window_closed(&after) {
            // The bids and the cards played stand.
            assert_eq!(after[0].1.bids, self.before[0].1.bids, "point {point}");
            for ((_, a), (_, b)) in after.iter().zip(&self.before) {
                assert_eq!(a.played, b.played, "point {point}");
            }
        } else {
            // Nothing moved: each seat sees what it saw before the crash, deadlines included
            // (the downtime is on nobody's clock).
            for (s, ((_, a), (_, b))) in after.iter().zip(&self.before).enumerate() {
                assert_eq!(
                    a, b,
                    "point {point}, seat {s}: the snapshot after the restart"
                );
            }
        }
        applied
    }

    /// The hand then finishes normally.
    async fn finish(&mut self, clients: &mut [Client]) {
        let hand = all_views(clients).await[0].1.hand_number;
        let mut rng = Rng(u64::from(hand) | 1);
        let mut actions = 0;
        while let Some((seat, action, h)) = next_action(clients, &mut rng).await {
            if h > hand {
                break;
            }
            self.act(clients, seat, action, h).await;
            actions += 1;
        }
        let (_, v) = seat_view(&mut clients[0]).await;
        assert!(
            v.hand_number > hand || v.phase == Phase::Over,
            "hand {hand} did not end: {v:?}"
        );
        let result = v.last_result.expect("the finished hand's result");
        eprintln!(
            "crash test, tuolaji: hands {}–{hand} played, the last one finished with {actions} more actions: {result:?}; crashes by phase: {:?}",
            self.first_hand, self.phases
        );
    }
}
