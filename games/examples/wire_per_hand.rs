//! Frames and bytes one Tuolaji seat receives per hand, as the page follows a table: with
//! protocol 2 (events only: what the page does now) against protocol 1's page (the same
//! events without `turn`, plus one `snapshot` request and answer after every step holding
//! an event of its RESYNC list, which is what `web/tuolaji.js` did before events were enough).
//!
//! Tables are played by the server's suggestion through the `Game` trait (no network); each
//! frame is the `event` or `snapshot` message exactly as the server encodes it.
//!
//! `cargo run --release -p qipai-games --example wire_per_hand -- 40`

use qipai_games::tuolaji::{TuolajiGame, TuolajiRules, TuolajiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat, Viewer};
use qipai_protocol::tuolaji::TuolajiEvent;
use qipai_protocol::{encode, ClientMsg, Event, ServerMsg, View};

/// The events after which the old page asked for a snapshot (`web/tuolaji.js` before).
fn resynced(event: &TuolajiEvent) -> bool {
    matches!(
        event,
        TuolajiEvent::Led { .. }
            | TuolajiEvent::Followed { .. }
            | TuolajiEvent::TrickWon { .. }
            | TuolajiEvent::BiddingClosed { .. }
            | TuolajiEvent::TrumpNamed { .. }
            | TuolajiEvent::BottomTaken { .. }
            | TuolajiEvent::BottomPutBack { .. }
            | TuolajiEvent::HandOver { .. }
            | TuolajiEvent::GameOver { .. }
            | TuolajiEvent::LastHand { .. }
    )
}

#[derive(Default)]
struct Tally {
    frames: u64,
    bytes: u64,
    /// Frames the client sent (snapshot requests), and their bytes.
    requests: u64,
    bytes_out: u64,
}

fn event_bytes(event: &TuolajiEvent, seq: u64) -> u64 {
    let msg = ServerMsg::Event {
        room_id: 1,
        event_seq: seq,
        server_time: 1_000_000,
        event: Event::Tuolaji(event.clone()),
    };
    encode(&msg).map_or(0, |b| b.len() as u64)
}

fn snapshot_bytes(game: &TuolajiGame, viewer: Viewer, now: Millis, seq: u64) -> u64 {
    let msg = ServerMsg::Snapshot {
        room_id: 1,
        event_seq: seq,
        server_time: now.0,
        you: match viewer {
            Viewer::Seat(s) => Some(s.0),
            Viewer::Spectator => None,
        },
        seats: Vec::new(),
        view: View::Tuolaji(Box::new(game.view(viewer, now))),
    };
    encode(&msg).map_or(0, |b| b.len() as u64)
}

/// Plays the first hand of table `seed`; returns seat 0's tallies (new, old).
fn hand(seed: u64) -> (Tally, Tally) {
    let settings = TuolajiSettings {
        rules: TuolajiRules {
            deal_interval_ms: 40,
            ..TuolajiRules::default()
        },
        between_hands_ms: 8_000,
        trick_pause_ms: 1200,
    };
    let me = Viewer::Seat(Seat(0));
    let mut game = TuolajiGame::new(&settings, seed);
    let mut now = Millis(0);
    let (mut new, mut old) = (Tally::default(), Tally::default());
    let mut seq = 0;
    let mut step = game.start(now);
    let request = encode(&ClientMsg::Snapshot { seq: 1 }).map_or(0, |b| b.len() as u64);
    loop {
        let mut resync = false;
        for emit in &step {
            seq += 1;
            let event = match emit {
                Emit::All(e) => e,
                Emit::Split { seat, own, .. } if Viewer::Seat(*seat) == me => own,
                Emit::Split { others, .. } => others,
            };
            let bytes = event_bytes(event, seq);
            new.frames += 1;
            new.bytes += bytes;
            if !matches!(event, TuolajiEvent::Turn { .. }) {
                old.frames += 1;
                old.bytes += bytes;
            }
            resync |= resynced(event);
            if matches!(event, TuolajiEvent::HandOver { .. }) {
                return (new, old);
            }
        }
        if resync {
            old.requests += 1;
            old.bytes_out += request;
            old.frames += 1;
            old.bytes += snapshot_bytes(&game, me, now, seq);
        }
        // The next step: the seat that must act plays the suggestion at once; else time
        // runs to the next deadline (a card dealt, the bid window's end).
        let to_act = game.view(Viewer::Spectator, now);
        let acted = (0..4).find_map(|s| {
            let v = game.view(Viewer::Seat(Seat(s)), now);
            v.hint.map(|h| (Seat(s), h))
        });
        step = match acted {
            Some((seat, action)) => match game.apply(seat, action, Received::at(now)) {
                Ok(out) => out,
                Err(e) => panic!("a hint was refused: {e} ({:?})", to_act.phase),
            },
            None => match game.deadline() {
                Some(at) => {
                    now = now.max(at);
                    game.on_deadline(now)
                }
                None => return (new, old),
            },
        };
    }
}

fn main() {
    let tables: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40);
    let (mut new, mut old) = (Tally::default(), Tally::default());
    for seed in 0..tables {
        let (n, o) = hand(seed);
        for (sum, one) in [(&mut new, n), (&mut old, o)] {
            sum.frames += one.frames;
            sum.bytes += one.bytes;
            sum.requests += one.requests;
            sum.bytes_out += one.bytes_out;
        }
    }
    let per = |x: u64| x as f64 / tables as f64;
    println!("one seat, per hand, mean of {tables} first hands (suggestions only, no bids):");
    println!(
        "  protocol 1 page (events + snapshot after RESYNC): {:.0} frames in, {:.0} bytes in, {:.0} snapshot requests out ({:.0} bytes)",
        per(old.frames),
        per(old.bytes),
        per(old.requests),
        per(old.bytes_out)
    );
    println!(
        "  protocol 2 page (events only, `turn`):            {:.0} frames in, {:.0} bytes in, {:.0} requests out",
        per(new.frames),
        per(new.bytes),
        per(new.requests)
    );
}
