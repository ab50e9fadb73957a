//! Finished games' records: the JSON record of every game (players, the final public view,
//! the result by seat, and every event of the game, private ones with the seat they went
//! to: for Tuolaji the deal, bids, bottom before and after, every trick, points and level
//! changes), for xiangqi its PGN and for draughts its PDN, each written by its game's
//! own notation module (`qipai_games::xiangqi::pgn`, `qipai_games::draughts::pdn`).

use qipai_games::movetext::RecordHead;
use qipai_games::{draughts, xiangqi, Emit};
use qipai_protocol::draughts::DraughtsEvent;
use qipai_protocol::xiangqi::XiangqiEvent;
use qipai_protocol::{Event, Outcome, RoomId, TableTitle, View};
use qipai_store::RecordRow;
use serde::Deserialize;

/// A game's events as it is played, kept for its record: for each step the event the record
/// keeps (the public one; for a card game the seat's own event, with its seat), MessagePack-
/// encoded as it happens (two values an event: the seat or nil, then the event, with its
/// field names, so that it transcodes to the record's JSON as it is: [`KeptEvents`]). A
/// Tuolaji hand is some 250 events: kept as values they were most of a table's memory with
/// the store on (177 KiB a table against 73 without a store, at 4,750 tables), and a record
/// is read back once, when the game ends.
///
/// The bytes go into an open chunk of about [`CHUNK`] bytes; a full chunk is LZ4-compressed
/// and kept at its compressed size. Encoded events repeat their field names and card codes,
/// so a chunk compresses several times over (6.4 KiB a table less at 4,750 Tuolaji tables);
/// compressing a chunk costs about a microsecond, once per a few dozen events, and the record
/// reads them back once. The open chunk is what a room holds uncompressed, so it is small and
/// released when packed: it grows with what it holds instead of holding a chunk's room from
/// its first event on (docs/performance/2026-12-07-allocations.md). Each event repeats the
/// one before it closely, so a small chunk compresses nearly as well as a large one.
#[derive(Default)]
pub struct History {
    /// Full chunks, each compressed with its length in front (`lz4_flex`'s size-prepended
    /// block format).
    packed: Vec<Box<[u8]>>,
    /// The chunk being filled.
    open: Vec<u8>,
}

/// How many encoded bytes a [`History`] chunk collects before it is compressed.
const CHUNK: usize = 1024;

impl History {
    /// Keeps what the record needs of `emits`, encoding it (a room replaying its log; a
    /// room at play hands over the bytes it encoded for the wire, [`History::keep`]).
    pub fn push(&mut self, emits: &[Emit<Event>]) {
        for emit in emits {
            let (seat, event) = kept(emit);
            // Our events always encode (the wire encodes the same values).
            let _ = qipai_protocol::encode_into(&mut self.open, &seat);
            let _ = qipai_protocol::encode_into(&mut self.open, event);
            self.pack_when_full();
        }
    }

    /// Keeps the event the record needs of an emit ([`kept`]: `seat` the seat that alone
    /// saw it), as the wire encoded it: an event is encoded once, not again for the record.
    pub fn keep(&mut self, seat: Option<u8>, event: &[u8]) {
        let _ = qipai_protocol::encode_into(&mut self.open, &seat);
        self.open.extend_from_slice(event);
        self.pack_when_full();
    }

    fn pack_when_full(&mut self) {
        if self.open.len() >= CHUNK {
            self.pack();
        }
    }

    /// Compresses the open chunk into `packed` and releases it (an event larger than a chunk
    /// grew it; the next chunk grows anew from its first event).
    fn pack(&mut self) {
        let packed = lz4_flex::compress_prepend_size(&std::mem::take(&mut self.open));
        self.packed.push(packed.into_boxed_slice());
    }

    /// The encoded events, decompressed, in order.
    fn bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        for packed in &self.packed {
            // Only `pack` wrote these blocks, so they decompress.
            if let Ok(chunk) = lz4_flex::decompress_size_prepended(packed) {
                bytes.extend_from_slice(&chunk);
            }
        }
        bytes.extend_from_slice(&self.open);
        bytes
    }

    /// The events kept, in order: (the seat that alone saw it, the event).
    #[cfg(test)]
    fn events(&self) -> Vec<(Option<u8>, Event)> {
        decoded(&self.bytes()).collect()
    }

    /// The bytes this history holds (compressed chunks and the open one's capacity).
    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        self.open.capacity() + self.packed.iter().map(|p| p.len()).sum::<usize>()
    }
}

/// The events of [`History::bytes`], decoded one by one as they are read.
fn decoded(bytes: &[u8]) -> impl Iterator<Item = (Option<u8>, Event)> + '_ {
    let mut reader = rmp_serde::Deserializer::from_read_ref(bytes);
    std::iter::from_fn(move || {
        let seat = Option::<u8>::deserialize(&mut reader).ok()?;
        let event = Event::deserialize(&mut reader).ok()?;
        Some((seat, event))
    })
}

/// A record's `events` (PROTOCOL §16), written straight from the history's MessagePack:
/// each event is transcoded to JSON (`serde_transcode`) without being built as an [`Event`]
/// again, which was most of what writing a record cost
/// (docs/performance/2026-12-07-transcode.md). The JSON is the same, byte for byte, as the
/// events' own (a test compares them): the history encodes them with their field names.
struct KeptEvents<'a>(&'a [u8]);

impl serde::Serialize for KeptEvents<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut reader = rmp_serde::Deserializer::from_read_ref(self.0);
        let mut events = serializer.serialize_seq(None)?;
        while let Ok(seat) = Option::<u8>::deserialize(&mut reader) {
            events.serialize_element(&Kept {
                seat,
                event: serde_transcode::Transcoder::new(&mut reader),
            })?;
        }
        events.end()
    }
}

/// The event of `emit` a record keeps, and the seat it was shown to when only that seat saw
/// it. A duel's split only gave the side to move its legal moves, which the record's
/// positions give back: the record keeps the public event.
pub fn kept(emit: &Emit<Event>) -> (Option<u8>, &Event) {
    match emit {
        Emit::All(e)
        | Emit::Split {
            others: e @ (Event::Xiangqi(_) | Event::Draughts(_)),
            ..
        } => (None, e),
        Emit::Split { seat, own, .. } => (Some(seat.0), own),
    }
}

/// The record of room `room`'s finished game (its id, short number and title): `view` its final
/// public view, `outcome` how it ended as the game tells it
/// ([`qipai_games::Game::outcome`]).
pub fn build(
    (room, number, title): (RoomId, Option<u64>, Option<&TableTitle>),
    game: &str,
    seated: Seated,
    view: &View,
    outcome: Option<&Outcome>,
    history: &History,
    finished_ms: i64,
) -> RecordRow {
    let Seated {
        players,
        accounts,
        rated,
    } = seated;
    let events = history.bytes();
    let head = RecordHead {
        room,
        players: &players,
        finished_ms,
    };
    let pgn = match view {
        View::Xiangqi(v) => {
            let start = decoded(&events).find_map(|(_, e)| match e {
                Event::Xiangqi(XiangqiEvent::Started { fen, .. }) => Some(fen),
                _ => None,
            });
            Some(xiangqi::pgn::write(&head, v, start.as_deref()))
        }
        _ => None,
    };
    let result = result(outcome);
    // What a list of games reads ([`list_fields`]): the body's own keys, without the events.
    let summary = Summary {
        number,
        title,
        players: &players,
        rated,
        result: &result,
    };
    let body = Body {
        room_id: room,
        game,
        accounts: &accounts,
        finished_ms,
        last: view,
        events: KeptEvents(&events),
        summary,
    };
    // Our own types always serialise to JSON (no map with keys that are not strings).
    let body_json = serde_json::to_string(&body).unwrap_or_default();
    let summary_json = serde_json::to_string(&body.summary).ok();
    RecordRow {
        room,
        game: game.to_owned(),
        finished_ms,
        body: body_json,
        pgn,
        players,
        accounts,
        summary: summary_json,
    }
}

/// A record's JSON body (PROTOCOL §16), serialised straight from the room's values: a
/// `serde_json::Value` tree of every event, built and dropped at each game's end, was most
/// of what the store added to a short game's CPU (docs/performance/2026-12-06-store-sync.md).
#[derive(serde::Serialize)]
struct Body<'a> {
    room_id: RoomId,
    game: &'a str,
    accounts: &'a [Option<u64>],
    finished_ms: i64,
    #[serde(rename = "final")]
    last: &'a View,
    events: KeptEvents<'a>,
    /// The keys a list of games reads, which the body has too.
    #[serde(flatten)]
    summary: Summary<'a>,
}

/// What a list of games reads of a record ([`list_fields`]).
#[derive(serde::Serialize)]
struct Summary<'a> {
    number: Option<u64>,
    title: Option<&'a TableTitle>,
    players: &'a [String],
    rated: bool,
    result: &'a serde_json::Value,
}

/// One event of a record, with the seat that alone saw it.
#[derive(serde::Serialize)]
struct Kept<E> {
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<u8>,
    event: E,
}

/// Who played a finished game, seat by seat, and whether its table was rated.
pub struct Seated {
    /// The name at each seat (`""`: nobody).
    pub players: Vec<String>,
    /// The signed-in account at each seat (`None`: a guest, a bot, nobody): an account's
    /// list of games finds the game by it, whatever name it played under.
    pub accounts: Vec<Option<u64>>,
    pub rated: bool,
}

/// The result by seat, for lists of games: the game's [`Outcome`] as
/// `{"winners": [seats], "reason": "checkmate"}` (no winners: a draw, or no result); `null`
/// while the game is not over.
pub fn result(outcome: Option<&Outcome>) -> serde_json::Value {
    match outcome {
        Some(o) => serde_json::json!({ "winners": o.winners, "reason": o.reason }),
        None => serde_json::Value::Null,
    }
}

/// What a list of games shows of a record's summary (or of its JSON body, which has the same
/// keys, for a record written before summaries were kept): the players by seat, the result
/// (`null` in records written before it was kept), the room's short number (`null`
/// before rooms had one) and its title (a competition's table).
pub fn list_fields(body: &str) -> ListFields {
    serde_json::from_str(body).unwrap_or_default()
}

/// A record's body with `players` as the store's seats of the game name them now (a
/// deleted account's name replaced); the body as written for a game without accounts, or
/// when they agree, or when it is unreadable.
pub fn body_now(record: RecordRow) -> String {
    let RecordRow {
        body,
        players,
        accounts,
        ..
    } = record;
    if accounts.iter().all(Option::is_none) {
        return body;
    }
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(&body) else {
        return body;
    };
    let players = serde_json::json!(players);
    if value.get("players") == Some(&players) {
        return body;
    }
    value["players"] = players;
    value.to_string()
}

/// See [`list_fields`].
#[derive(Default, serde::Deserialize)]
pub struct ListFields {
    #[serde(default)]
    pub players: Vec<String>,
    #[serde(default)]
    pub result: serde_json::Value,
    #[serde(default)]
    pub number: Option<u64>,
    #[serde(default)]
    pub title: Option<TableTitle>,
    /// Whether the table was rated (`false` in records written before tables were).
    #[serde(default)]
    pub rated: bool,
}

/// The PDN of a draughts record's JSON body (made when asked, so records written before
/// PDN existed have it too); `None` for another game or a body that does not read.
pub fn pdn_of_body(room: RoomId, body: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Body {
        players: Vec<String>,
        finished_ms: i64,
        #[serde(rename = "final")]
        last: View,
        events: Vec<Entry>,
    }
    #[derive(serde::Deserialize)]
    struct Entry {
        event: serde_json::Value,
    }
    let body: Body = serde_json::from_str(body).ok()?;
    let View::Draughts(v) = body.last else {
        return None;
    };
    let start = body.events.into_iter().find_map(|e| {
        match serde_json::from_value::<Event>(e.event).ok()? {
            Event::Draughts(DraughtsEvent::Started { fen, .. }) => Some(fen),
            _ => None,
        }
    });
    let head = RecordHead {
        room,
        players: &body.players,
        finished_ms: body.finished_ms,
    };
    Some(draughts::pdn::write(&head, &v, start.as_deref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipai_protocol::xiangqi::Side;

    /// A Tuolaji card dealt to `seat`: the card for that seat, `None` for the others.
    fn dealt(seat: u8, card: Option<&str>) -> Event {
        Event::Tuolaji(qipai_protocol::tuolaji::TuolajiEvent::Dealt {
            seat,
            card: card.map(|c| c.parse().expect("a card")),
        })
    }

    /// A xiangqi draw offer by `by`.
    fn offered(by: Side) -> Event {
        Event::Xiangqi(XiangqiEvent::DrawOffered { by })
    }

    /// The record keeps a card game's own side of a split event with its seat, the public
    /// side of a duel's, and every event in order, through the encoding.
    #[test]
    fn history_reads_back_what_the_record_keeps() {
        use qipai_games::Seat;
        let dealt = |card| dealt(2, card);
        let mut history = History::default();
        history.push(&[
            Emit::Split {
                seat: Seat(2),
                own: dealt(Some("As")),
                others: dealt(None),
            },
            Emit::All(dealt(None)),
        ]);
        // The two sides differ only so that the test sees which one is kept.
        history.push(&[Emit::Split {
            seat: Seat(0),
            own: offered(Side::Red),
            others: offered(Side::Black),
        }]);
        assert_eq!(
            history.events(),
            [
                (Some(2), dealt(Some("As"))),
                (None, dealt(None)),
                (None, offered(Side::Black)),
            ]
        );
    }

    /// What a room at play keeps (the bytes it encoded for the wire, `History::keep`) is
    /// what a room replaying its log keeps (`History::push`, encoding them anew).
    #[test]
    fn kept_wire_bytes_are_the_pushed_events() {
        use qipai_games::Seat;
        let dealt = |card| dealt(1, card);
        let emits = [
            Emit::Split {
                seat: Seat(1),
                own: dealt(Some("Th")),
                others: dealt(None),
            },
            Emit::All(offered(Side::Red)),
            Emit::Split {
                seat: Seat(0),
                own: offered(Side::Red),
                others: offered(Side::Black),
            },
        ];
        let mut pushed = History::default();
        pushed.push(&emits);
        let mut kept = History::default();
        for emit in &emits {
            let (seat, event) = super::kept(emit);
            kept.keep(seat, &qipai_protocol::encode(event).unwrap());
        }
        assert_eq!(kept.bytes(), pushed.bytes());
        assert_eq!(kept.events().len(), 3);
    }

    /// Plays `game` for `steps` steps (`pick`'s action for the side to move, else the next
    /// deadline), keeping every step's events as a room does.
    fn played<G: qipai_games::Game>(
        mut game: G,
        steps: usize,
        wrap: fn(G::Event) -> Event,
        pick: impl Fn(&G, usize) -> Option<(qipai_games::Seat, G::Action)>,
    ) -> History {
        use qipai_games::{Millis, Received};
        let lift = |emits: Vec<Emit<G::Event>>| -> Vec<Emit<Event>> {
            emits
                .into_iter()
                .map(|e| match e {
                    Emit::All(e) => Emit::All(wrap(e)),
                    Emit::Split { seat, own, others } => Emit::Split {
                        seat,
                        own: wrap(own),
                        others: wrap(others),
                    },
                })
                .collect()
        };
        let mut history = History::default();
        let mut now = Millis(0);
        history.push(&lift(game.start(now)));
        for step in 0..steps {
            if game.is_over() {
                break;
            }
            let applied = pick(&game, step)
                .and_then(|(seat, action)| game.apply(seat, action, Received::at(now)).ok());
            let emits = match applied {
                Some(emits) => emits,
                None => {
                    let Some(at) = game.deadline() else { break };
                    now = Millis(now.0.max(at.0));
                    game.on_deadline(now)
                }
            };
            history.push(&lift(emits));
        }
        history
    }

    /// A game of each kind as its record keeps it, with the least number of events it must
    /// have: Tuolaji walked by its deadlines (the deal, bids, the bottom, tricks, hands' ends:
    /// every kind of card event, private ones with their seat), xiangqi and draughts by legal
    /// moves.
    fn three_games() -> [(&'static str, History, usize); 3] {
        use qipai_games::draughts::{DraughtsGame, DraughtsSettings};
        use qipai_games::tuolaji::{TuolajiGame, TuolajiSettings};
        use qipai_games::xiangqi::{XiangqiGame, XiangqiSettings};
        use qipai_games::{Game, Millis, Seat, Viewer};
        use qipai_protocol::draughts::{DraughtsAction, Side as DraughtsSide};
        use qipai_protocol::xiangqi::XiangqiAction;
        let tuolaji = played(
            TuolajiGame::new(&TuolajiSettings::default(), 7),
            1500,
            Event::Tuolaji,
            |_, _| None,
        );
        let xiangqi = played(
            XiangqiGame::new(&XiangqiSettings::default(), 7),
            300,
            Event::Xiangqi,
            |g, step| {
                // Only the side to move's seat is shown its legal moves (seat 0 is red).
                let side = g.view(Viewer::Spectator, Millis(0)).side_to_move;
                let seat = Seat(u8::from(side == Side::Black));
                let moves = g.view(Viewer::Seat(seat), Millis(0)).legal_moves;
                let iccs = moves.get(step * 7 % moves.len().max(1))?.to_string();
                Some((seat, XiangqiAction::Move { iccs }))
            },
        );
        let draughts = played(
            DraughtsGame::new(&DraughtsSettings::default(), 7),
            300,
            Event::Draughts,
            |g, step| {
                // Seat 0 is white.
                let side = g.view(Viewer::Spectator, Millis(0)).side_to_move;
                let seat = Seat(u8::from(side == DraughtsSide::Black));
                let moves = g.view(Viewer::Seat(seat), Millis(0)).to_move.legal_moves;
                let notation = moves.get(step * 5 % moves.len().max(1))?.clone();
                Some((seat, DraughtsAction::Move { notation }))
            },
        );
        [
            ("tuolaji", tuolaji, 1000),
            ("xiangqi", xiangqi, 60),
            ("draughts", draughts, 60),
        ]
    }

    /// The events' JSON as the record wrote it before it transcoded them: each decoded into an
    /// [`Event`], then serialised.
    fn decoded_json(bytes: &[u8]) -> String {
        let events: Vec<_> = decoded(bytes).collect();
        let own: Vec<_> = events
            .iter()
            .map(|(seat, event)| Kept { seat: *seat, event })
            .collect();
        serde_json::to_string(&own).unwrap_or_default()
    }

    /// The record's events written straight from the history's MessagePack are, byte for
    /// byte, the JSON of the events themselves, in a game of each kind.
    #[test]
    fn record_events_transcode_to_the_events_own_json() {
        for (game, history, at_least) in three_games() {
            let bytes = history.bytes();
            let events = decoded(&bytes).count();
            assert!(events >= at_least, "{game}: {events} events");
            let want = decoded_json(&bytes);
            let got = serde_json::to_string(&KeptEvents(&bytes)).expect("transcoded");
            assert_eq!(got, want, "{game}");
        }
    }

    /// A measurement, not a check (docs/performance/2026-12-07-transcode.md): the time to
    /// write a game's events as JSON, decoded into events first against transcoded.
    /// `cargo test --release -p qipai-server --lib record_events_cost -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement: run by hand"]
    fn record_events_cost() {
        for (game, history, _) in three_games() {
            let bytes = history.bytes();
            let events = decoded(&bytes).count();
            let time = |write: &dyn Fn() -> String| {
                let rounds = 200;
                let started = std::time::Instant::now();
                for _ in 0..rounds {
                    std::hint::black_box(write());
                }
                started.elapsed().as_secs_f64() * 1e6 / f64::from(rounds)
            };
            let before = time(&|| decoded_json(&bytes));
            let after = time(&|| serde_json::to_string(&KeptEvents(&bytes)).unwrap_or_default());
            println!(
                "{game}: {events} events, decoded then written {before:.0} µs, transcoded \
                 {after:.0} µs ({:.2} → {:.2} µs an event)",
                before / events as f64,
                after / events as f64
            );
        }
    }

    /// A measurement, not a check (docs/performance/2026-12-07-wire-bytes.md): a room's
    /// encoding of a game's events for the wire and its record, each event encoded twice (a
    /// frame, then again for the record: `History::push`) against once (`encode_event`, the
    /// record keeping the frame's event bytes). Both sides clone each event twice, as the
    /// first must (a frame and an emit own their event), so that only the encoding differs.
    /// `cargo test --release -p qipai-server --lib publish_encoding_cost -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement: run by hand"]
    fn publish_encoding_cost() {
        use crate::room::{encode_event, encode_frame};
        use qipai_protocol::ServerMsg;
        use std::hint::black_box;
        for (game, history, _) in three_games() {
            let events: Vec<Event> = history.events().into_iter().map(|(_, e)| e).collect();
            let time = |publish: &dyn Fn() -> History| {
                let rounds = 200;
                let started = std::time::Instant::now();
                for _ in 0..rounds {
                    black_box(publish());
                }
                started.elapsed().as_secs_f64() * 1e6 / f64::from(rounds)
            };
            let twice = time(&|| {
                let mut kept = History::default();
                for (n, event) in events.iter().enumerate() {
                    black_box(encode_frame(&ServerMsg::Event {
                        room_id: 1 << 40,
                        event_seq: n as u64,
                        server_time: 1_000_000,
                        event: event.clone(),
                    }));
                    kept.push(&[Emit::All(event.clone())]);
                }
                kept
            });
            let once = time(&|| {
                let mut kept = History::default();
                for (n, event) in events.iter().enumerate() {
                    black_box((event.clone(), event.clone()));
                    let place = (1 << 40, n as u64, 1_000_000);
                    black_box(encode_event(place, event, |b| kept.keep(None, b)));
                }
                kept
            });
            // The frames alone, with no store (no record kept): the message encoded whole
            // against the event encoded and the frame written around it.
            let frames_whole = time(&|| {
                for (n, event) in events.iter().enumerate() {
                    black_box(event.clone());
                    black_box(encode_frame(&ServerMsg::Event {
                        room_id: 1 << 40,
                        event_seq: n as u64,
                        server_time: 1_000_000,
                        event: event.clone(),
                    }));
                }
                History::default()
            });
            let frames_around = time(&|| {
                for (n, event) in events.iter().enumerate() {
                    black_box((event.clone(), event.clone()));
                    let place = (1 << 40, n as u64, 1_000_000);
                    black_box(encode_event(place, event, |_| {}));
                }
                History::default()
            });
            let n = events.len() as f64;
            println!(
                "{game}: {} events; with a record: encoded twice {twice:.0} µs, once {once:.0} \
                 µs ({:.2} → {:.2} µs an event); frames alone: the message whole {:.2}, around \
                 the event {:.2} µs an event",
                events.len(),
                twice / n,
                once / n,
                frames_whole / n,
                frames_around / n
            );
        }
    }

    /// Thousands of events across many chunks come back whole and in order, and no chunk
    /// holds much more than it keeps.
    #[test]
    fn history_keeps_chunks_small_and_reads_back_in_order() {
        use qipai_protocol::tuolaji::{Card, TuolajiEvent};
        let dealt = |n: usize| {
            Event::Tuolaji(TuolajiEvent::DealtCards {
                seat: (n % 4) as u8,
                cards: (0..n % 7)
                    .filter_map(|i| Card::from_index((n + i) % 54))
                    .collect(),
                count: n as u32,
            })
        };
        let mut history = History::default();
        for n in 0..3000 {
            history.push(&[Emit::All(dealt(n))]);
        }
        let want: Vec<_> = (0..3000).map(|n| (None, dealt(n))).collect();
        assert_eq!(history.events(), want);
        assert!(history.packed.len() > 10);
        assert_open_chunk_small(&history);
    }

    /// A room between chunks holds no open chunk: packing one releases it, and the next
    /// grows from its first event.
    #[test]
    fn history_releases_the_open_chunk_when_it_packs_it() {
        use qipai_protocol::tuolaji::TuolajiEvent;
        let dealt = Event::Tuolaji(TuolajiEvent::Dealt {
            seat: 1,
            card: None,
        });
        let mut history = History::default();
        while history.packed.is_empty() {
            history.push(&[Emit::All(dealt.clone())]);
        }
        assert_eq!(history.open.capacity(), 0);
        history.push(&[Emit::All(dealt.clone())]);
        assert!(history.open.capacity() < CHUNK / 8);
    }

    /// The open chunk keeps at most a chunk's room, whatever it held before.
    fn assert_open_chunk_small(history: &History) {
        let capacity = history.open.capacity();
        assert!(capacity <= CHUNK, "an open chunk of {capacity} bytes");
    }

    /// An event larger than a chunk is kept whole, and the open chunk shrinks back after it.
    #[test]
    fn history_keeps_an_event_larger_than_a_chunk() {
        use qipai_protocol::tuolaji::{Card, Rank, Suit, TuolajiEvent};
        let king = Card::new(Rank::King, Suit::Spades);
        let big = Event::Tuolaji(TuolajiEvent::DealtCards {
            seat: 1,
            cards: vec![king; CHUNK],
            count: 1,
        });
        let small = Event::Tuolaji(TuolajiEvent::Dealt {
            seat: 1,
            card: Some(king),
        });
        let mut history = History::default();
        for event in [&small, &big, &small] {
            history.push(&[Emit::All(event.clone())]);
        }
        assert_eq!(
            history.events(),
            [(None, small.clone()), (None, big), (None, small)]
        );
        assert_open_chunk_small(&history);
    }

    /// Four Tuolaji deals as the record keeps them (each seat's own dealt card, with its seat)
    /// takes much less than its encoded size: the point of compressing the chunks.
    #[test]
    fn history_of_a_deal_is_kept_compressed() {
        use qipai_games::Seat;
        use qipai_protocol::tuolaji::{Card, Rank, Suit, TuolajiEvent};
        let mut history = History::default();
        let mut encoded = 0;
        for n in 0..624usize {
            let seat = (n % 4) as u8;
            let card = Card::new(Rank::ALL[(n * 7) % 13], Suit::ALL[(n * 3) % 4]);
            let dealt = |card: Option<Card>| Event::Tuolaji(TuolajiEvent::Dealt { seat, card });
            let own = dealt(Some(card));
            encoded += qipai_protocol::encode(&(Some(seat), &own)).map_or(0, |b| b.len());
            history.push(&[Emit::Split {
                seat: Seat(seat),
                own,
                others: dealt(None),
            }]);
        }
        assert_eq!(history.events().len(), 624);
        let packed: usize = history.packed.iter().map(|p| p.len()).sum();
        assert!(
            packed > 0 && packed * 2 < CHUNK * history.packed.len(),
            "{packed}"
        );
        assert!(
            history.held_bytes() < encoded,
            "{} of {encoded}",
            history.held_bytes()
        );
    }
}
