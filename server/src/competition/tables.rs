//! A round's tables run themselves (issue 15): each pairing gets a room with the competition's
//! table options whose seats are reserved for the entries' players (by name; no bots), and a
//! watcher that follows the room as a silent spectator:
//!
//! - it notes when each seat is first taken (lateness counts from the round's start, in
//!   started "minutes" of `lateness_unit_ms`);
//! - when the lateness limit passes with an entry not complete at its table, that entry
//!   forfeits (xiangqi 4.1.5: the competition's `xiangqi_lateness_limit_min`; Tuolaji
//!   第十三条: from the 21st minute the round is forfeited);
//! - when a Tuolaji table's game starts (its last seat taken), each pair's lateness band
//!   (第十三条, `qipai_games::competition::lateness`) goes to the table as a ruling
//!   (`Game::rule`, logged with the room's steps): the game applies it (−20/−30 in the
//!   first hand, the first hand forfeited, the round forfeited);
//! - when the game ends, its result (from the final spectator's view) is recorded, with the
//!   lateness of each entry in the note.
//!
//! Lateness counts from the round's start as stored (`competition_rounds.started_ms`), so a
//! restart does not restart it. A seat already taken before a restart counts as on time
//! (when it was taken is not stored) **[D]**: the doubt goes to the player.

use std::sync::Arc;
use std::time::Duration;

use qipai_games::competition::lateness::{started_minutes, tuolaji_lateness, TuolajiLateness};
use qipai_games::competition::{Competition, EntryId, Event, GameResult, Pairing, Round};
use qipai_games::{Millis, Ruling, Seat};
use qipai_protocol::{RoomStatus, ServerMsg, View, WireError};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::room::{Command, Outbox, RoomHandle, Who};
use crate::Shared;

/// Tuolaji 第十三条: from the 21st started minute the round is forfeited.
const TUOLAJI_FORFEIT_AFTER: u64 = 20;

/// What a watcher needs to know of its table.
struct Table {
    competition: u64,
    round: u32,
    table: u32,
    event: Event,
    unit_ms: u64,
    /// Started minutes past which an absent entry forfeits.
    limit: u64,
    /// Per seat: 0 when it belongs to the first-named entry, 1 for the second.
    side_of_seat: Vec<usize>,
    /// When the round started (Unix ms).
    started_ms: i64,
}

/// The moment `started_ms` (Unix ms) on tokio's clock (now, if it is in the future).
fn instant_of(started_ms: i64) -> Instant {
    let ago = u64::try_from(qipai_store::unix_ms().saturating_sub(started_ms)).unwrap_or(0);
    let now = Instant::now();
    now.checked_sub(Duration::from_millis(ago)).unwrap_or(now)
}

/// Opens the tables of `round` (just paired) and starts their watchers.
///
/// # Errors
/// `unknown_competition`; the lobby's `bad_options`; the store's error.
pub async fn open_round(shared: &Arc<Shared>, id: u64, round: &Round) -> Result<(), WireError> {
    let comps = &shared.competitions;
    let (options, event, unit_ms, limit, seats, started_ms) = comps
        .read(id, |h, _| {
            let seats: Vec<(u32, Vec<String>, Vec<usize>)> = round
                .pairings
                .iter()
                .map(|p| {
                    let (names, sides) = seating(&h.core, p);
                    (p.table, names, sides)
                })
                .collect();
            (
                h.table_options.clone(),
                h.core.settings.event,
                h.lateness_unit_ms,
                lateness_limit(&h.core),
                seats,
                h.round_started_ms
                    .get(&round.number)
                    .copied()
                    .unwrap_or_else(qipai_store::unix_ms),
            )
        })
        .await?;
    let store = shared.persist.as_ref().map(|p| p.store.as_ref());
    for (table, names, side_of_seat) in seats {
        let handle = shared.lobby.open_table(options.clone(), names.into())?;
        comps
            .set_room(id, (round.number, table), handle.id, store)
            .await?;
        let t = Table {
            competition: id,
            round: round.number,
            table,
            event,
            unit_ms,
            limit,
            side_of_seat,
            started_ms,
        };
        tokio::spawn(watch(Arc::clone(shared), t, handle, false));
    }
    Ok(())
}

/// Started minutes past which an absent entry forfeits.
fn lateness_limit(c: &Competition) -> u64 {
    match c.settings.event {
        Event::TuolajiPairs => TUOLAJI_FORFEIT_AFTER,
        Event::XiangqiSingles => u64::from(c.settings.xiangqi_lateness_limit_min),
    }
}

/// Who sits where at a pairing's table, and which entry (0: first-named) each seat is.
/// Xiangqi: Red (seat 0) is the first-named entry. Tuolaji: seats 0+2 the first pair, 1+3
/// the second.
fn seating(c: &Competition, p: &Pairing) -> (Vec<String>, Vec<usize>) {
    let names = |e: EntryId| -> Vec<String> {
        c.entries
            .get(e.index())
            .map(|e| e.players.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default()
    };
    let (a, b) = (names(p.first), names(p.second));
    let at = |v: &[String], i: usize| v.get(i).cloned().unwrap_or_default();
    match c.settings.event {
        Event::TuolajiPairs => (
            vec![at(&a, 0), at(&b, 0), at(&a, 1), at(&b, 1)],
            vec![0, 1, 0, 1],
        ),
        Event::XiangqiSingles => (vec![at(&a, 0), at(&b, 0)], vec![0, 1]),
    }
}

/// Before the store's rooms are reopened: the open tables of every competition are
/// reopened with their seats reserved again.
pub async fn before_recovery(shared: &Arc<Shared>) {
    for (room, names, _) in open_tables(shared).await {
        shared.lobby.reopen_as_table(room, names.into());
    }
}

/// After the rooms are reopened: every open table without a result is watched again, its
/// lateness still counted from the round's stored start.
pub async fn resume(shared: &Arc<Shared>) {
    for (room, _, t) in open_tables(shared).await {
        if let Some(handle) = shared.lobby.get(room) {
            tokio::spawn(watch(Arc::clone(shared), t, handle, true));
        }
    }
}

/// Every table with a room and no result yet, with its seating.
async fn open_tables(shared: &Arc<Shared>) -> Vec<(u64, Vec<String>, Table)> {
    let mut out = Vec::new();
    for (id, _, _) in shared.competitions.list().await {
        let found = shared
            .competitions
            .read(id, |h, _| {
                let mut v = Vec::new();
                for r in &h.core.rounds {
                    for p in r.pairings.iter().filter(|p| p.result.is_none()) {
                        let Some(room) = h.tables.get(&(r.number, p.table)).and_then(|t| t.room)
                        else {
                            continue;
                        };
                        let (names, side_of_seat) = seating(&h.core, p);
                        let t = Table {
                            competition: id,
                            round: r.number,
                            table: p.table,
                            event: h.core.settings.event,
                            unit_ms: h.lateness_unit_ms,
                            limit: lateness_limit(&h.core),
                            side_of_seat,
                            started_ms: h
                                .round_started_ms
                                .get(&r.number)
                                .copied()
                                .unwrap_or_else(qipai_store::unix_ms),
                        };
                        v.push((room, names, t));
                    }
                }
                v
            })
            .await
            .unwrap_or_default();
        out.extend(found);
    }
    out
}

/// The result a finished game's spectator view shows, from the first-named entry's side.
fn result_of(view: &View) -> Option<GameResult> {
    let winner = match view {
        View::Xiangqi(v) => {
            let r = v.result?;
            r.winner
                .map(|w| usize::from(w != qipai_protocol::xiangqi::Side::Red))
        }
        View::Tuolaji(v) => {
            let o = v.outcome?;
            o.winner.map(usize::from)
        }
        _ => return None,
    };
    Some(match winner {
        Some(0) => GameResult::FirstWins,
        Some(_) => GameResult::SecondWins,
        None => GameResult::Draw,
    })
}

/// Lateness of each side in started minutes: the last of its seats to be taken.
fn lateness(t: &Table, arrived: &[Option<u64>], now_ms: u64) -> [u64; 2] {
    let mut late = [0u64; 2];
    for (seat, side) in t.side_of_seat.iter().enumerate() {
        let at = arrived.get(seat).copied().flatten().unwrap_or(now_ms);
        // Started minutes of the lateness unit (a minute is `unit_ms` here).
        let minutes = started_minutes(Millis(at.saturating_mul(60_000) / t.unit_ms.max(1)));
        late[*side] = late[*side].max(minutes);
    }
    late
}

/// What the note says of each side's lateness.
fn note(t: &Table, late: [u64; 2]) -> String {
    let mut parts = Vec::new();
    for (side, minutes) in late.iter().enumerate() {
        if *minutes == 0 {
            continue;
        }
        let who = if side == 0 { "first" } else { "second" };
        let band = match (t.event, tuolaji_lateness(*minutes)) {
            (Event::XiangqiSingles, _) => String::new(),
            (_, TuolajiLateness::Warning) => " (第十三条: warning, 违例)".into(),
            (_, TuolajiLateness::FirstHandPenalty { points }) => {
                format!(" (第十三条: −{points} in the first hand)")
            }
            (_, TuolajiLateness::FirstHandForfeited) => {
                " (第十三条: first hand forfeited, opponents up a level)".into()
            }
            (_, TuolajiLateness::RoundForfeited) => " (第十三条: round forfeited)".into(),
            (_, TuolajiLateness::OnTime) => String::new(),
        };
        parts.push(format!("{who} entry {minutes} min late{band}"));
    }
    parts.join("; ")
}

async fn record(shared: &Shared, t: &Table, result: GameResult, note: &str) {
    let store = shared.persist.as_ref().map(|p| p.store.as_ref());
    if let Err(e) = shared
        .competitions
        .record(t.competition, (t.round, t.table), result, note, store)
        .await
    {
        tracing::warn!(competition = t.competition, round = t.round, table = t.table, code = ?e.code, message = %e.message, "table result not recorded");
    }
}

/// 第十三条: the rulings a Tuolaji table gets when its game starts, one per late pair
/// whose band changes something at the table (a warning does not).
fn rulings(t: &Table, late: [u64; 2]) -> Vec<Ruling> {
    if t.event != Event::TuolajiPairs {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (side, minutes) in late.iter().enumerate() {
        let band = tuolaji_lateness(*minutes);
        if matches!(band, TuolajiLateness::OnTime | TuolajiLateness::Warning) {
            continue;
        }
        let Some(seat) = t.side_of_seat.iter().position(|s| *s == side) else {
            continue;
        };
        let seat = Seat(u8::try_from(seat).unwrap_or(0));
        out.push(Ruling::Late { seat, band });
    }
    out
}

/// Follows one table to its end. `resumed`: after a restart (seats already taken count as
/// on time; a game already started had its rulings).
async fn watch(shared: Arc<Shared>, t: Table, handle: RoomHandle, resumed: bool) {
    let started = instant_of(t.started_ms);
    let (tx, mut rx) = mpsc::channel(1024);
    let player = u64::MAX - handle.id;
    let outbox = Outbox::new(
        player,
        tx,
        Arc::new(Notify::new()),
        Arc::clone(&shared.metrics),
        1 << 24,
    );
    let (reply, _) = oneshot::channel();
    let who = Who {
        player,
        name: "competition".into(),
        bot: false,
        outbox,
    };
    if handle
        .tx
        .send(Command::Spectate {
            who,
            seq: None,
            reply,
        })
        .await
        .is_err()
    {
        return;
    }
    let mut info = handle.info.clone();
    let mut arrived: Vec<Option<u64>> = vec![None; t.side_of_seat.len()];
    let mut ruled = false;
    if resumed {
        let i = info.borrow().clone();
        for (seat, s) in i.seats.iter().enumerate() {
            if let (Some(_), Some(slot)) = (s, arrived.get_mut(seat)) {
                *slot = Some(0);
            }
        }
        ruled = i.status != RoomStatus::Waiting;
    }
    let limit_at = started
        + Duration::from_millis(t.limit.saturating_mul(t.unit_ms))
        + Duration::from_millis(1);
    let mut limit_checked = false;
    let mut over = false;
    loop {
        tokio::select! {
            changed = info.changed() => {
                if changed.is_err() {
                    return; // The room closed without an end.
                }
                let now = started.elapsed().as_millis() as u64;
                let i = info.borrow_and_update().clone();
                for (seat, s) in i.seats.iter().enumerate() {
                    if let (Some(_), Some(slot @ None)) = (s, arrived.get_mut(seat)) {
                        *slot = Some(now);
                    }
                }
                if i.status != RoomStatus::Waiting && !ruled {
                    ruled = true;
                    for ruling in rulings(&t, lateness(&t, &arrived, now)) {
                        let _ = handle.tx.send(Command::Rule { ruling }).await;
                    }
                }
                if i.status == RoomStatus::Over && !over {
                    over = true;
                    let _ = handle.tx.send(Command::Snapshot { player, seq: 1 }).await;
                }
            }
            () = tokio::time::sleep_until(limit_at), if !limit_checked => {
                limit_checked = true;
                let i = info.borrow().clone();
                if i.status == RoomStatus::Waiting {
                    let absent = |side: usize| t.side_of_seat.iter().enumerate()
                        .any(|(seat, s)| *s == side && i.seats.get(seat).is_none_or(Option::is_none));
                    let result = match (absent(0), absent(1)) {
                        (true, true) => Some(GameResult::BothForfeit),
                        (true, false) => Some(GameResult::FirstForfeits),
                        (false, true) => Some(GameResult::SecondForfeits),
                        (false, false) => None,
                    };
                    if let Some(result) = result {
                        let now = started.elapsed().as_millis() as u64;
                        let text = note(&t, lateness(&t, &arrived, now));
                        record(&shared, &t, result, &format!("forfeit by lateness: {text}")).await;
                        return;
                    }
                }
            }
            frame = rx.recv() => {
                let Some(Message::Binary(bytes)) = frame else {
                    if frame.is_none() { return; }
                    continue;
                };
                if !over {
                    continue;
                }
                if let Ok(ServerMsg::Snapshot { view, .. }) = rmp_serde::from_slice::<ServerMsg>(&bytes) {
                    if let Some(result) = result_of(&view) {
                        let text = note(&t, lateness(&t, &arrived, 0));
                        record(&shared, &t, result, &text).await;
                        return;
                    }
                }
            }
        }
    }
}
