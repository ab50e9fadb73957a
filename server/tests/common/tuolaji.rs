//! Tuolaji over the test kit: short timings, seating, a player that acts from its own view
//! (the view's hint, and the legal bids the server sent it), and a replay of a table's events through
//! the engine alone.

use std::collections::{BTreeMap, VecDeque};

use qipai_games::cards::Card;
use qipai_games::tuolaji::{
    hand_seed, HandAction, HandEvent, Match, Phase as EnginePhase, TuolajiRules as Rules,
};
use qipai_games::{Millis, Seat};
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent, TuolajiOptions, TuolajiView};
use qipai_protocol::{ClientMsg, ErrorCode, Event, RoomId, RoomOptions, ServerMsg, View};

use super::records::Rng;
use super::{Client, TestServer};

/// The seed the test servers deal from: room `id` deals from `SEED + id`.
pub const SEED: u64 = 20_240_601;

/// A server that deals from [`SEED`] and lets bursts of events through (a whole hand can be
/// played in one go with zero timings).
pub async fn seeded_server() -> TestServer {
    TestServer::start(|c| {
        c.tuolaji.seed = Some(SEED);
        c.server.outbound_queue = 1 << 16;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
        c.limits.max_outbound_bytes = 1 << 26;
        // Every test client comes from 127.0.0.1.
        c.limits.rooms_per_addr = 1000;
    })
    .await
}

/// Zero pauses, a short bid window, turns long enough never to run out in a test.
pub fn fast_options() -> TuolajiOptions {
    TuolajiOptions {
        deal_interval_ms: Some(0),
        bid_window_ms: Some(30),
        bottom_ms: Some(10_000),
        turn_ms: Some(10_000),
        between_hands_ms: Some(0),
        trick_pause_ms: Some(0),
        ..TuolajiOptions::default()
    }
}

/// The engine's rules for a replay of a table with `options` (only the scoring and the bid
/// window matter to a replay).
pub fn rules_of(options: &TuolajiOptions) -> Rules {
    let d = Rules::default();
    Rules {
        throw_penalty: options.throw_penalty.unwrap_or(d.throw_penalty),
        deal_interval_ms: 0,
        bid_window_ms: options.bid_window_ms.unwrap_or(d.bid_window_ms),
        ..d
    }
}

impl Client {
    /// Creates a Tuolaji table at `seat` (or any); returns its id once seated.
    pub async fn create_tuolaji(&mut self, options: TuolajiOptions, seat: Option<u8>) -> RoomId {
        let seq = self.seq();
        self.send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Tuolaji(options),
            seat,
            bots: false,
        })
        .await;
        self.joined_room(seq).await
    }

    /// Creates a Tuolaji table at seat 0 with the server's bots in the other seats; the
    /// answers (`joined`, the snapshot, the bots sitting down) are the caller's to read.
    pub async fn create_tuolaji_with_bots(&mut self, options: TuolajiOptions) {
        let seq = self.seq();
        self.send(&ClientMsg::CreateRoom {
            seq,
            options: RoomOptions::Tuolaji(options),
            seat: Some(0),
            bots: true,
        })
        .await;
    }

    /// Quick play: any waiting Tuolaji table with these options, or a new one.
    pub async fn quick_tuolaji(&mut self, options: TuolajiOptions) -> (RoomId, u8) {
        let seq = self.seq();
        self.send(&ClientMsg::QuickPlay {
            seq,
            options: RoomOptions::Tuolaji(options),
        })
        .await;
        match self.recv().await {
            ServerMsg::Joined {
                room_id,
                seat: Some(seat),
                ..
            } => {
                assert!(matches!(self.recv().await, ServerMsg::Snapshot { .. }));
                (room_id, seat)
            }
            other => panic!("quick play {seq}: {other:?}"),
        }
    }

    async fn joined_room(&mut self, seq: u64) -> RoomId {
        match self.recv().await {
            ServerMsg::Joined { room_id, .. } => {
                assert!(matches!(self.recv().await, ServerMsg::Snapshot { .. }));
                room_id
            }
            other => panic!("create {seq}: {other:?}"),
        }
    }

    /// Sends a Tuolaji action; returns its seq.
    pub async fn tl(&mut self, action: TuolajiAction) -> u64 {
        let seq = self.seq();
        self.send(&ClientMsg::Tuolaji { seq, action }).await;
        seq
    }

    /// A fresh snapshot: its event number and Tuolaji view.
    pub async fn tl_view(&mut self) -> (u64, TuolajiView) {
        match self.snapshot().await {
            (seq, View::Tuolaji(view)) => (seq, *view),
            other => panic!("expected a Tuolaji view, got {other:?}"),
        }
    }
}

/// The Tuolaji event in `msg`, with its number.
pub fn tl_event(msg: &ServerMsg) -> Option<(u64, &TuolajiEvent)> {
    match msg {
        ServerMsg::Event {
            event_seq,
            event: Event::Tuolaji(e),
            ..
        } => Some((*event_seq, e)),
        _ => None,
    }
}

/// Every Tuolaji event in a log, in order.
pub fn tl_events(log: &[ServerMsg]) -> Vec<TuolajiEvent> {
    log.iter()
        .filter_map(|m| tl_event(m).map(|(_, e)| e.clone()))
        .collect()
}

/// The bid with the most cards among those the server sent `view`'s seat as legal
/// (第十条, the rule is in `games`), if any.
pub fn bid_for(view: &TuolajiView) -> Option<TuolajiAction> {
    let cards = view.legal_bids.iter().max_by_key(|c| c.len())?.clone();
    Some(TuolajiAction::Bid { cards })
}

/// A seated client that plays legal moves from its own view.
pub struct Player {
    pub client: Client,
    pub seat: u8,
    /// Messages read while waiting for an answer, still to be looked at.
    pending: VecDeque<ServerMsg>,
    /// Actions the server refused (a bid that came too late, a turn already auto-played).
    pub refused: Vec<(ErrorCode, String)>,
    /// Hands seen to their end.
    pub hands: u32,
}

impl Player {
    pub fn new(client: Client, seat: u8) -> Player {
        Player {
            client,
            seat,
            pending: VecDeque::new(),
            refused: Vec::new(),
            hands: 0,
        }
    }

    async fn next(&mut self) -> ServerMsg {
        match self.pending.pop_front() {
            Some(m) => m,
            None => self.client.recv().await,
        }
    }

    /// A snapshot's view; other messages read meanwhile wait in `pending`.
    pub async fn view(&mut self) -> TuolajiView {
        let seq = self.client.seq();
        self.client.send(&ClientMsg::Snapshot { seq }).await;
        loop {
            match self.client.recv().await {
                ServerMsg::Snapshot {
                    view: View::Tuolaji(v),
                    ..
                } => return *v,
                other => self.pending.push_back(other),
            }
        }
    }

    /// Sends `action` and waits for its answer; other messages wait in `pending`.
    pub async fn act(&mut self, action: TuolajiAction) -> Result<(), (ErrorCode, String)> {
        let seq = self.client.tl(action).await;
        self.answer(seq).await
    }

    /// Sends an action as a client could write it, whatever the protocol's types allow (a
    /// card outside the notation, say), and waits for its answer as [`Player::act`] does.
    pub async fn act_raw(&mut self, action: serde_json::Value) -> Result<(), (ErrorCode, String)> {
        let seq = self.client.seq();
        let frame = serde_json::json!({"type": "tuolaji", "seq": seq, "action": action});
        self.client
            .send_raw(qipai_protocol::encode(&frame).expect("encode"))
            .await;
        self.answer(seq).await
    }

    /// The answer to request `seq`; other messages wait in `pending`.
    async fn answer(&mut self, seq: u64) -> Result<(), (ErrorCode, String)> {
        loop {
            match self.client.recv().await {
                ServerMsg::Ok { seq: s } if s == seq => return Ok(()),
                ServerMsg::Error {
                    seq: Some(s),
                    code,
                    message,
                    ..
                } if s == seq => return Err((code, message)),
                other => self.pending.push_back(other),
            }
        }
    }

    async fn act_from(&mut self, action: Option<TuolajiAction>) {
        if let Some(action) = action {
            if let Err(e) = self.act(action).await {
                self.refused.push(e);
            }
        }
    }

    /// Plays until the game is over or `hands` hands have ended: whenever an event may have
    /// made it this seat's turn, it plays its view's hint; in the bid window it bids from
    /// its own hand when that bid would stand; `silent` seats never act.
    pub async fn play(&mut self, hands: u32, silent: bool) {
        let me = self.seat;
        loop {
            let msg = self.next().await;
            let Some((_, event)) = tl_event(&msg) else {
                continue;
            };
            let (turn, bid) = match event {
                TuolajiEvent::GameOver { .. } => return,
                TuolajiEvent::HandOver { .. } => {
                    self.hands += 1;
                    if self.hands >= hands {
                        return;
                    }
                    (false, false)
                }
                TuolajiEvent::BiddingClosed {
                    dealer,
                    trump: None,
                } => (*dealer == me, false),
                TuolajiEvent::BottomTaken { dealer, .. }
                | TuolajiEvent::BottomPutBack { dealer, .. } => (*dealer == me, false),
                TuolajiEvent::Led { seat, .. } | TuolajiEvent::Followed { seat, .. } => {
                    ((seat + 1) % 4 == me, false)
                }
                TuolajiEvent::TrickWon { winner, .. } => (*winner == me, false),
                TuolajiEvent::DealDone { .. } => (false, true),
                TuolajiEvent::Bid(b) => (false, b.seat != me),
                _ => (false, false),
            };
            if silent || !(turn || bid) {
                continue;
            }
            let view = self.view().await;
            let action = if turn {
                view.hint.clone()
            } else {
                bid_for(&view)
            };
            self.act_from(action).await;
        }
    }
}

/// Every Tuolaji event of a table in order, each private one as its owner saw it: the
/// seats' logs merged by event number.
pub fn merged(logs: &[&[ServerMsg]]) -> Vec<TuolajiEvent> {
    let mut all: BTreeMap<u64, TuolajiEvent> = BTreeMap::new();
    for log in logs {
        for (seq, event) in log.iter().filter_map(tl_event) {
            let shows = match event {
                TuolajiEvent::Dealt { card, .. } => card.is_some(),
                TuolajiEvent::DealtCards { cards, .. } => !cards.is_empty(),
                TuolajiEvent::BottomTaken { cards, .. }
                | TuolajiEvent::BottomPutBack { cards, .. } => !cards.is_empty(),
                TuolajiEvent::LegalBids { bids, .. } => !bids.is_empty(),
                _ => true,
            };
            if shows || !all.contains_key(&seq) {
                all.insert(seq, event.clone());
            }
        }
    }
    all.into_values().collect()
}

/// Takes `cards` out of `own` (as multisets; the order of what stays is not kept).
pub fn remove_cards(own: &mut Vec<Card>, cards: &[Card]) {
    for c in cards {
        let i = own
            .iter()
            .position(|o| o == c)
            .unwrap_or_else(|| panic!("{c} is not among {own:?}"));
        own.swap_remove(i);
    }
}

/// The next `count` cards the engine deals to `seat`, dealing round the table as far as
/// needed and keeping the other seats' cards for their own events.
fn deal_to(
    game: &mut Match,
    now: Millis,
    undealt: &mut [VecDeque<Card>; 4],
    seat: u8,
    count: usize,
) -> Vec<Card> {
    let index = usize::from(seat);
    while undealt[index].len() < count {
        let dealt = game.deal_next(now).expect("a card to deal");
        let Some(HandEvent::Dealt {
            seat: s,
            card: Some(c),
        }) = dealt.first()
        else {
            panic!("the engine dealt {dealt:?}")
        };
        undealt[s.index()].push_back(*c);
    }
    undealt[index].drain(..count).collect()
}

/// Replays a table's merged events through [`Match`] alone from `seed` (each hand dealt
/// from [`hand_seed`]), checking every dealt card against the engine's deal, and returns
/// the game. The test players never throw, so every lead is replayed as it was split.
pub fn replay(rules: &Rules, seed: u64, events: &[TuolajiEvent]) -> Match {
    let mut game: Option<Match> = None;
    let mut now = Millis(0);
    // Cards the engine dealt to each seat that no event has shown yet (a burst's
    // `dealt_cards` come seat by seat, the engine deals round the table).
    let mut undealt: [VecDeque<Card>; 4] = Default::default();
    for event in events {
        if let TuolajiEvent::HandStarted { hand_number, .. } = event {
            let hand_seed = hand_seed(seed, *hand_number);
            match game.as_mut() {
                None => game = Some(Match::new(rules, hand_seed, now).expect("a game")),
                Some(g) => g.next_hand(hand_seed, now).expect("the next hand"),
            }
            continue;
        }
        let Some(g) = game.as_mut() else {
            continue;
        };
        let act = |g: &mut Match, seat: u8, action: HandAction, now| {
            g.apply(Seat(seat), action, now)
                .unwrap_or_else(|e| panic!("replay refused at {event:?}: {e}"));
        };
        match event {
            TuolajiEvent::Dealt { seat, card } => {
                let shown: Vec<Card> = card.iter().copied().collect();
                assert_eq!(deal_to(g, now, &mut undealt, *seat, 1), shown);
            }
            TuolajiEvent::DealtCards { seat, cards, count } => {
                assert_eq!(
                    &deal_to(g, now, &mut undealt, *seat, *count as usize),
                    cards
                );
            }
            TuolajiEvent::Bid(b) => act(
                g,
                b.seat,
                HandAction::Bid {
                    cards: b.cards.clone(),
                },
                now,
            ),
            TuolajiEvent::BiddingClosed { .. } => {
                if let EnginePhase::Bidding { closes_at } = g.hand().phase() {
                    now = now.max(closes_at);
                }
                g.close_bidding(now).expect("bidding closes");
            }
            TuolajiEvent::TrumpNamed { dealer, suit } => {
                act(g, *dealer, HandAction::NameTrump { suit: *suit }, now)
            }
            TuolajiEvent::BottomPutBack {
                dealer, cards: c, ..
            } => act(g, *dealer, HandAction::PutBack { cards: c.clone() }, now),
            TuolajiEvent::Led {
                seat,
                cards: c,
                units,
            } => act(
                g,
                *seat,
                HandAction::Lead {
                    cards: c.clone(),
                    declared: (units.len() > 1).then(|| units.clone()),
                },
                now,
            ),
            TuolajiEvent::Followed { seat, cards: c } => {
                act(g, *seat, HandAction::Follow { cards: c.clone() }, now)
            }
            _ => {}
        }
    }
    game.expect("the table started")
}

/// A seat's snapshot: the server time and its view.
pub async fn seat_view(client: &mut Client) -> (u64, TuolajiView) {
    match client.snapshot_msg().await {
        ServerMsg::Snapshot {
            server_time,
            view: View::Tuolaji(v),
            ..
        } => (server_time, *v),
        other => panic!("not a Tuolaji snapshot: {other:?}"),
    }
}

/// The next action the table waits for and its seat, with the hand it belongs to, once the
/// table waits for one: the hint of the seat whose turn it is, or in the bid window the
/// strongest bid of the first seat (from a random one) that has one; `None` once the game is
/// over. Meanwhile (the deal, a bid window nobody can bid in, between hands) it waits.
pub async fn next_action(
    clients: &mut [Client],
    rng: &mut Rng,
) -> Option<(usize, TuolajiAction, u32)> {
    for _ in 0..2000 {
        let (_, v) = seat_view(&mut clients[0]).await;
        let seat = match v.phase {
            Phase::Leading { seat, .. } | Phase::Following { seat, .. } => Some(seat),
            Phase::NamingTrump { dealer, .. } | Phase::Bottom { dealer, .. } => Some(dealer),
            Phase::Over => return None,
            Phase::Bidding { .. } => {
                let first = rng.below(4) as usize;
                for k in 0..4 {
                    let s = (first + k) % 4;
                    if let Some(bid) = bid_for(&seat_view(&mut clients[s]).await.1) {
                        return Some((s, bid, v.hand_number));
                    }
                }
                None
            }
            _ => None,
        };
        if let Some(seat) = seat {
            let (_, v) = seat_view(&mut clients[usize::from(seat)]).await;
            if let Some(hint) = v.hint {
                return Some((usize::from(seat), hint, v.hand_number));
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    panic!("the table waits for nobody");
}

/// The environment of a spawned `qipai-server` that plays through crashes (the crash and
/// cluster tests): xiangqi and Tuolaji with no bots and nothing timing out meanwhile, a
/// fixed deal, no pauses, a bid window of `bid_window_ms`, room for a whole deal at once
/// and a snapshot per action.
pub fn patient_env(bid_window_ms: u64) -> Vec<(&'static str, String)> {
    let long = "600000".to_string();
    vec![
        ("QIPAI_XIANGQI__FIRST_MOVE_MS", long.clone()),
        ("QIPAI_XIANGQI__BOT_FILL_MS", "0".into()),
        ("QIPAI_TUOLAJI__SEED", SEED.to_string()),
        ("QIPAI_TUOLAJI__DEAL_INTERVAL_MS", "0".into()),
        ("QIPAI_TUOLAJI__BID_WINDOW_MS", bid_window_ms.to_string()),
        ("QIPAI_TUOLAJI__BOTTOM_MS", long.clone()),
        ("QIPAI_TUOLAJI__TURN_MS", long.clone()),
        ("QIPAI_TUOLAJI__SEAT_GRACE_MS", long),
        ("QIPAI_TUOLAJI__BETWEEN_HANDS_MS", "0".into()),
        ("QIPAI_TUOLAJI__BOT_FILL_MS", "0".into()),
        ("QIPAI_SERVER__OUTBOUND_QUEUE", "65536".into()),
        ("QIPAI_SERVER__RATE_PER_SEC", "10000".into()),
        ("QIPAI_SERVER__RATE_BURST", "10000".into()),
    ]
}
