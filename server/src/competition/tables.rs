//! A round's tables run themselves: each pairing gets a room with the competition's
//! table options whose seats are reserved for the entries' players (each seat taken with
//! its player's entry code; no bots), and a watcher that follows the room as a silent
//! spectator:
//!
//! - a round is first published (tournaments.md "The day itself"): its tables open and
//!   players may sit, but each table's game is held (`Command::HoldStart`) until the round
//!   starts (the director's start, or the time set for it); a seat taken before the start
//!   is never late;
//! - a Tuolaji table learns, before anybody can sit, when its round started
//!   (`TuolajiRuling::RoundStarted`): its round clock (五(一)3) counts from the round's
//!   start, not from its game's;
//! - a xiangqi table learns, before anybody can sit, when its lateness limit passes
//!   (`XiangqiRuling::CompetitionTable`): it has no casual abort, a side that leaves before
//!   its first move may come back until then, and one that never moves is absent and loses
//!   (4.1.5; tournaments.md "The day itself");
//! - it notes when each seat is first taken (lateness counts from the round's start, in
//!   started "minutes" of `lateness_unit_ms`);
//! - when the lateness limit passes with an entry not complete at its table, that entry
//!   forfeits (xiangqi 4.1.5: the competition's `xiangqi_lateness_limit_min`; Tuolaji
//!   第十三条: from the 21st minute the round is forfeited), and the table is closed;
//! - 第十三条 at a Tuolaji table: a pair complete while the table waits gets its band as a
//!   ruling (`TuolajiRuling::Late`, logged with the room's steps); the game applies it when it starts
//!   (−20/−30 in the first hand, the first hand forfeited, the round forfeited), and counts
//!   the pair that completed the table as late as its start. So the bands are applied in
//!   the start's own step: no crash can fall between the start and the rulings;
//! - when the game ends, its result (from the final spectator's view) is recorded, with the
//!   lateness of each entry in the note.
//!
//! Lateness counts from the round's start as stored (`competition_rounds.started_ms`), so a
//! restart does not restart it. A seat already taken before a restart counts as on time
//! (when it was taken is not stored) **[D]**, unless its pair's ruling was logged before the
//! restart: the doubt goes to the player. A match's games (a xiangqi best of three, a
//! knockout's extra game) are stored as each ends, with the next game's room and when it
//! opened, so a restart mid-match goes on with the same games, colours and lateness.

use std::sync::Arc;
use std::time::Duration;

use qipai_games::competition::lateness::{started_units, tuolaji_lateness, TuolajiLateness};
use qipai_games::competition::{Competition, EntryId, Event, GameResult, Pairing, Round};
use qipai_games::tuolaji::TuolajiRuling;
use qipai_games::xiangqi::XiangqiRuling;
use qipai_games::{Millis, Seat};
use qipai_protocol::{ErrorCode, RoomInfo, RoomStatus, ServerMsg, TableTitle, View, WireError};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;

use crate::room::{Command, Outbox, Outgoing, ReservedSeat, RoomHandle, Who};

use super::Competitions;
use super::Held;
use crate::base::metrics::Metrics;
use crate::lobby::Lobby;

/// What a round's tables need of the server: the competitions, the lobby that opens their
/// rooms, and the metrics. The app provides it, so competitions never import the app.
pub trait Host: Send + Sync + 'static {
    fn competitions(&self) -> &Competitions;
    fn lobby(&self) -> &Lobby;
    fn metrics(&self) -> &Arc<Metrics>;
}

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
    /// The games played at the table before this one (a xiangqi best of three, or a
    /// knockout's extra game: `table_match`), from the first-named entry's side.
    games: Vec<GameResult>,
    /// A later game's table: when it opened (Unix ms); its lateness counts from then.
    opened_ms: Option<i64>,
    /// What the earlier games' notes said.
    earlier_note: String,
}

/// The moment `started_ms` (Unix ms) on tokio's clock (now, if it is in the future).
fn instant_of(started_ms: i64) -> Instant {
    let ago = u64::try_from(qipai_store::unix_ms().saturating_sub(started_ms)).unwrap_or(0);
    let now = Instant::now();
    now.checked_sub(Duration::from_millis(ago)).unwrap_or(now)
}

/// Opens the tables of `round` (just paired), each held until the round starts, and
/// starts their watchers.
///
/// # Errors
/// `unknown_competition`; the lobby's `bad_options`; the store's error.
pub async fn open_round<H: Host>(shared: &Arc<H>, id: u64, round: &Round) -> Result<(), WireError> {
    let comps = &shared.competitions();
    let (options, event, unit_ms, limit, seats, name) = comps
        .read(id, |h, _| {
            let seats: Vec<(u32, Vec<ReservedSeat>, Vec<usize>)> = round
                .pairings
                .iter()
                .map(|p| {
                    let (names, sides) = seating(h, p, false);
                    (p.table, names, sides)
                })
                .collect();
            (
                h.table_options.clone(),
                h.core.settings.event,
                h.lateness_unit_ms,
                lateness_limit(&h.core),
                seats,
                h.name.clone(),
            )
        })
        .await?;
    for (table, names, side_of_seat) in seats {
        let title = title_of(&name, round.number, table);
        let handle = shared
            .lobby()
            .open_table(options.clone(), names.into(), title)?;
        // Held before anybody learns the room (the round's answer comes after this).
        let _ = handle.tx.send(Command::HoldStart { held: true }).await;
        comps.set_room(id, (round.number, table), handle.id).await?;
        let t = Table {
            competition: id,
            round: round.number,
            table,
            event,
            unit_ms,
            limit,
            side_of_seat,
            games: Vec::new(),
            opened_ms: None,
            earlier_note: String::new(),
        };
        follow(Arc::clone(shared), t, handle);
    }
    Ok(())
}

/// A table waiting for its players learns its competition's rulings, before anybody can
/// sit (each logged with the room's steps, so the same after a restart):
/// - Tuolaji: when its round started (stored) and how long a lateness "minute" is: its
///   round clock (五(一)3) and the lateness of a pair not ruled before the start
///   (第十三条) count from there ([`TuolajiRuling::RoundStarted`]);
/// - xiangqi: when the lateness limit passes ([`XiangqiRuling::CompetitionTable`]): no
///   casual abort, an absent side loses (4.1.5).
async fn tell_table(handle: &RoomHandle, t: &Table, started_ms: i64) {
    let ago = u64::try_from(qipai_store::unix_ms().saturating_sub(started_ms)).unwrap_or(0);
    let ruling: Box<dyn std::any::Any + Send> = match t.event {
        Event::TuolajiPairs => Box::new(TuolajiRuling::RoundStarted {
            ago: Millis(ago),
            lateness_unit_ms: t.unit_ms,
        }),
        Event::XiangqiSingles => {
            let limit = t.limit.saturating_mul(t.unit_ms);
            Box::new(XiangqiRuling::CompetitionTable {
                limit_in: Millis(limit.saturating_sub(ago)),
            })
        }
    };
    let _ = handle.tx.send(Command::Rule { ruling }).await;
}

/// Started minutes past which an absent entry forfeits.
fn lateness_limit(c: &Competition) -> u64 {
    match c.settings.event {
        Event::TuolajiPairs => TUOLAJI_FORFEIT_AFTER,
        Event::XiangqiSingles => u64::from(c.settings.xiangqi_lateness_limit_min),
    }
}

/// Who sits where at a pairing's table (each seat taken with its player's entry code, or by
/// the session of the account the player linked),
/// and which entry (0: first-named) each seat is. Xiangqi: Red (seat 0) is the first-named
/// entry, or the second in a later game with the colours `swapped`. Tuolaji: seats 0+2 the
/// first pair, 1+3 the second.
fn seating(h: &Held, p: &Pairing, swapped: bool) -> (Vec<ReservedSeat>, Vec<usize>) {
    let c = &h.core;
    let players = |e: EntryId| -> Vec<ReservedSeat> {
        c.entries
            .get(e.index())
            .map(|e| {
                e.players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| ReservedSeat {
                        name: p.name.clone(),
                        code_hash: h.code_hash(e.id, i).to_vec(),
                        account: h.links.get(&(e.id.0, i)).map(|l| l.account),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (players(p.first), players(p.second));
    // A missing player (never: entries are complete) gets a seat nobody can take.
    let at = |v: &[ReservedSeat], i: usize| {
        v.get(i).cloned().unwrap_or_else(|| ReservedSeat {
            name: String::new(),
            code_hash: Vec::new(),
            account: None,
        })
    };
    match c.settings.event {
        Event::TuolajiPairs => (
            vec![at(&a, 0), at(&b, 0), at(&a, 1), at(&b, 1)],
            vec![0, 1, 0, 1],
        ),
        Event::XiangqiSingles if swapped => (vec![at(&b, 0), at(&a, 0)], vec![1, 0]),
        Event::XiangqiSingles => (vec![at(&a, 0), at(&b, 0)], vec![0, 1]),
    }
}

/// The seat of player `player` of the pairing's entry on `side` (0: first-named), as
/// [`seating`] places them.
pub fn seat_of(event: Event, side: usize, player: usize) -> usize {
    match event {
        Event::TuolajiPairs => side + 2 * player,
        Event::XiangqiSingles => side,
    }
}

/// Entry `entry` of competition `id` has a new code, or a player of it was linked to an
/// account or unlinked: its tables still being played get their entrants as they are now,
/// so that an old code or link stops working there at once, and a new link works (a player
/// already seated stays).
///
/// # Errors
/// `unknown_competition`.
pub async fn entrants_changed<H: Host>(shared: &H, id: u64, entry: u32) -> Result<(), WireError> {
    let entry = EntryId(entry);
    let open = shared
        .competitions()
        .read(id, |h, _| {
            h.core
                .rounds
                .iter()
                .flat_map(|r| r.pairings.iter().map(move |p| (r.number, p)))
                .filter(|(_, p)| p.result.is_none() && (p.first == entry || p.second == entry))
                .filter_map(|(n, p)| {
                    let extra = h.tables.get(&(n, p.table))?;
                    // A match goes on with the colours changed each game.
                    let swapped = extra.games.len() % 2 == 1;
                    Some((extra.room?, seating(h, p, swapped).0))
                })
                .collect::<Vec<_>>()
        })
        .await?;
    for (room, seats) in open {
        if let Some(handle) = shared.lobby().get(room) {
            let seats = seats.into();
            let _ = handle.tx.send(Command::ReserveSeats { seats }).await;
        }
    }
    Ok(())
}

/// Which tables [`live_tables`] looks at.
#[derive(Clone, Copy)]
enum Which {
    /// This one.
    Table((u32, u32)),
    /// Every table that has a result (those without one hold the next round back anyway:
    /// `round_unfinished`).
    Recorded,
}

/// The open rooms of competition `id`'s tables whose game is not over (players may be
/// sitting down or playing), with the table each is.
async fn live_tables<H: Host>(
    shared: &H,
    id: u64,
    which: Which,
) -> Result<Vec<((u32, u32), RoomHandle)>, WireError> {
    let rooms = shared
        .competitions()
        .read(id, |h, _| {
            let recorded = |(round, table): (u32, u32)| {
                h.core
                    .rounds
                    .iter()
                    .filter(|r| r.number == round)
                    .flat_map(|r| &r.pairings)
                    .any(|p| p.table == table && p.result.is_some())
            };
            h.tables
                .iter()
                .filter(|(at, _)| match which {
                    Which::Table(t) => t == **at,
                    Which::Recorded => recorded(**at),
                })
                .filter_map(|(at, t)| Some((*at, t.room?)))
                .collect::<Vec<_>>()
        })
        .await?;
    Ok(rooms
        .into_iter()
        .filter_map(|(at, room)| Some((at, shared.lobby().get(room)?)))
        .filter(|(_, h)| h.info.borrow().status != RoomStatus::Over)
        .collect())
}

/// How long closing a table may take before the director is answered anyway.
const CLOSING: Duration = Duration::from_secs(5);

/// Ends the game at each of `tables` and closes its room, telling its players why
/// (`table_closed`, with the director's reason); returns once the rooms are gone, so
/// that the director's next request finds them closed.
async fn close_tables(tables: Vec<((u32, u32), RoomHandle)>, why: &str) {
    for ((round, table), handle) in tables {
        let close = Command::Close {
            code: ErrorCode::TableClosed,
            message: format!(
                "round {round} table {table}: {why}; the game ends and the table closes"
            ),
        };
        let mut gone = handle.info.clone();
        if handle.tx.send(close).await.is_ok() {
            let _ = tokio::time::timeout(CLOSING, async { while gone.changed().await.is_ok() {} })
                .await;
        }
    }
}

/// A director overrides a refusal with this reason: it must say something.
fn override_reason(reason: Option<&str>) -> Result<Option<String>, WireError> {
    match reason.map(str::trim) {
        None => Ok(None),
        Some("") => Err(WireError {
            code: ErrorCode::MissingReason,
            message: "an override needs a reason".into(),
        }),
        Some(r) => Ok(Some(r.to_owned())),
    }
}

/// A director's result for a table (tournaments.md "The day itself" **[D]**). While the
/// table's game is still being played it is refused (`table_live`) unless the director
/// overrides with a reason: then the result is recorded with the reason in its note, and
/// the game at the table ends (its players are told, `table_closed`). A recorded table
/// still open (nobody playing yet) closes too, so nothing played there later counts.
///
/// # Errors
/// `table_live`; `missing_reason` for an override without one; those of
/// `Competitions::record`.
pub async fn director_result<H: Host>(
    shared: &H,
    id: u64,
    at: (u32, u32),
    result: GameResult,
    note: &str,
    overrule: Option<&str>,
) -> Result<(), WireError> {
    let overrule = override_reason(overrule)?;
    let open = live_tables(shared, id, Which::Table(at)).await?;
    let playing = open
        .iter()
        .any(|(_, h)| h.info.borrow().status == RoomStatus::Playing);
    let note = match (&overrule, playing) {
        (None, true) => {
            return Err(WireError {
                code: ErrorCode::TableLive,
                message: format!(
                    "round {} table {}: its game is still being played; override with a reason to end it",
                    at.0, at.1
                ),
            })
        }
        (Some(reason), true) => {
            let over = format!("director's result over the game at the table: {reason}");
            [note, &over].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join("; ")
        }
        (_, false) => note.to_owned(),
    };
    shared.competitions().record(id, at, result, &note).await?;
    let why = format!(
        "the director recorded its result ({}){}",
        super::result_name(result),
        overrule.map(|r| format!(": {r}")).unwrap_or_default()
    );
    close_tables(open, &why).await;
    Ok(())
}

/// Pairs competition `id`'s next round, publishes it and opens its tables (held until the
/// round starts: at `start_ms` when given, else when a director starts it). While a table
/// with a result is still open with its game not over it is refused (`table_live`), unless
/// the director overrides with a reason: those tables then close (tournaments.md "The day
/// itself" **[D]**). A table without a result holds it back in any case
/// (`round_unfinished`).
///
/// # Errors
/// `table_live`, `missing_reason`; those of `Competitions::publish_round` and
/// [`open_round`].
pub async fn next_round<H: Host>(
    shared: &Arc<H>,
    id: u64,
    overrule: Option<&str>,
    start_ms: Option<i64>,
) -> Result<Round, WireError> {
    let overrule = override_reason(overrule)?;
    let open = live_tables(shared.as_ref(), id, Which::Recorded).await?;
    let why = match (&overrule, open.is_empty()) {
        (_, true) => String::new(),
        (None, false) => {
            let list: Vec<String> = open
                .iter()
                .map(|((r, t), _)| format!("round {r} table {t}"))
                .collect();
            return Err(WireError {
                code: ErrorCode::TableLive,
                message: format!(
                    "still open: {}; override with a reason to close them",
                    list.join(", ")
                ),
            });
        }
        (Some(reason), false) => format!("the director paired the next round: {reason}"),
    };
    let round = shared.competitions().publish_round(id, start_ms).await?;
    close_tables(open, &why).await;
    open_round(shared, id, &round).await?;
    Ok(round)
}

/// Undoes competition `id`'s latest round, `number`, while none of its tables has a result
/// (tournaments.md "The day itself"): the round and its pairings are gone, and its tables
/// close, their players told why (`table_closed`). Returns the round undone.
///
/// # Errors
/// Those of `Competitions::undo_round`.
pub async fn undo_round<H: Host>(shared: &H, id: u64, number: u32) -> Result<Round, WireError> {
    let (round, rooms) = shared.competitions().undo_round(id, number).await?;
    let open: Vec<((u32, u32), RoomHandle)> = rooms
        .into_iter()
        .filter_map(|(at, room)| Some((at, shared.lobby().get(room)?)))
        .collect();
    close_tables(open, "the director undid the round").await;
    Ok(round)
}

/// Before the store's rooms are reopened: the open tables of every competition are
/// reopened with their seats reserved again.
pub async fn before_recovery<H: Host>(shared: &Arc<H>) {
    for (room, names, t) in open_tables(shared).await {
        let name = shared
            .competitions()
            .read(t.competition, |h, _| h.name.clone())
            .await
            .unwrap_or_default();
        let title = title_of(&name, t.round, t.table);
        shared.lobby().reopen_as_table(room, names.into(), title);
    }
}

/// What a table is called wherever a player sees it (the lobby, the table, the records):
/// its competition, round and table, the numbers of the pairing sheet (第2轮 第5桌), not the
/// room's own number.
fn title_of(competition: &str, round: u32, table: u32) -> TableTitle {
    TableTitle {
        competition: competition.to_owned(),
        round,
        table,
    }
}

/// After the rooms are reopened: every open table without a result is watched again, its
/// lateness still counted from the round's stored start; a table whose game has not
/// begun is held again until its round starts.
pub async fn resume<H: Host>(shared: &Arc<H>) {
    for (room, _, t) in open_tables(shared).await {
        if let Some(handle) = shared.lobby().get(room) {
            let _ = handle.tx.send(Command::HoldStart { held: true }).await;
            follow(Arc::clone(shared), t, handle);
        }
    }
}

/// Every table with a room and no result yet, with its seating.
async fn open_tables<H: Host>(shared: &Arc<H>) -> Vec<(u64, Vec<ReservedSeat>, Table)> {
    let mut out = Vec::new();
    for (id, _, _) in shared.competitions().list().await {
        let found = shared
            .competitions()
            .read(id, |h, _| {
                let mut v = Vec::new();
                for r in &h.core.rounds {
                    for p in r.pairings.iter().filter(|p| p.result.is_none()) {
                        let Some(extra) = h.tables.get(&(r.number, p.table)) else {
                            continue;
                        };
                        let Some(room) = extra.room else {
                            continue;
                        };
                        // A match goes on with its stored games, the colours changed each game.
                        let swapped = extra.games.len() % 2 == 1;
                        let (names, side_of_seat) = seating(h, p, swapped);
                        let t = Table {
                            competition: id,
                            round: r.number,
                            table: p.table,
                            event: h.core.settings.event,
                            unit_ms: h.lateness_unit_ms,
                            limit: lateness_limit(&h.core),
                            side_of_seat,
                            games: extra.games.clone(),
                            opened_ms: extra.game_opened_ms,
                            earlier_note: extra.note.clone(),
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

/// The result a finished game's spectator view shows, from the first-named entry's side
/// (seat 0's side: seats 0 and 2 in Tuolaji, unless the colours are swapped).
fn result_of(view: &View, t: &Table) -> Option<GameResult> {
    let outcome = view.outcome()?;
    let first_side = |seat: &u8| t.side_of_seat.get(usize::from(*seat)) == Some(&0);
    Some(match outcome.winners.first() {
        Some(seat) if first_side(seat) => GameResult::FirstWins,
        Some(_) => GameResult::SecondWins,
        None => GameResult::Draw,
    })
}

/// A game at the table ended with `result` (first-named entry's side): a xiangqi table
/// asks `table_match` whether it decides the table (2.6 best of three, 2.9 a knockout's
/// extra game, then lots) and records the table's result, or opens the next game's table
/// with the colours changed. A Tuolaji table's game is its round: its result is the
/// table's, but a draw in a knockout goes to lots (tournaments.md "Knockout" **[D]**).
async fn game_over<H: Host>(shared: &Arc<H>, mut t: Table, result: GameResult, text: String) {
    use qipai_games::competition::table_match::{table_lot, table_next, TableNext};
    let note = [t.earlier_note.as_str(), text.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("; ");
    // A Tuolaji table's game is its round: a drawn one in a knockout goes to lots at once.
    let tuolaji = t.event == Event::TuolajiPairs;
    let times = if tuolaji && result == GameResult::Draw {
        2
    } else {
        1
    };
    t.games.extend(std::iter::repeat_n(result, times));
    let decided = shared
        .competitions()
        .read(t.competition, |h, _| {
            let seed = h.core.rounds.iter().find(|r| r.number == t.round)?.seed;
            let mut settings = h.core.settings.clone();
            settings.best_of_three &= !tuolaji;
            Some(table_next(&settings, &t.games, table_lot(seed, t.table)))
        })
        .await
        .ok()
        .flatten();
    let games: Vec<&str> = t.games.iter().map(|g| super::result_name(*g)).collect();
    let with_games = if t.games.len() > 1 && !tuolaji {
        format!(
            "{note}{}games: {}",
            if note.is_empty() { "" } else { "; " },
            games.join(", ")
        )
    } else {
        note.clone()
    };
    match decided {
        Some(TableNext::Decided(r)) => record(shared.as_ref(), &t, r, &with_games).await,
        Some(TableNext::Play) => {
            t.earlier_note = note;
            if let Err(e) = next_game(shared, t).await {
                tracing::warn!(code = ?e.code, message = %e.message, "the next game's table did not open");
            }
        }
        None => {}
    }
}

/// Opens the table of the next game of a match (the colours changed each game) and
/// follows it.
async fn next_game<H: Host>(shared: &Arc<H>, mut t: Table) -> Result<(), WireError> {
    let swapped = t.games.len() % 2 == 1;
    let (options, names) = shared
        .competitions()
        .read(t.competition, |h, _| {
            let p = h
                .core
                .rounds
                .iter()
                .find(|r| r.number == t.round)?
                .pairings
                .iter()
                .find(|p| p.table == t.table)?;
            Some((
                h.table_options.clone(),
                (seating(h, p, swapped), h.name.clone()),
            ))
        })
        .await?
        .ok_or(WireError {
            code: ErrorCode::UnknownTable,
            message: format!("round {} table {}", t.round, t.table),
        })?;
    let ((names, side_of_seat), name) = names;
    let title = title_of(&name, t.round, t.table);
    let handle = shared.lobby().open_table(options, names.into(), title)?;
    let opened_ms = qipai_store::unix_ms();
    shared
        .competitions()
        .next_game(
            t.competition,
            (t.round, t.table),
            t.games.clone(),
            t.earlier_note.clone(),
            (handle.id, opened_ms),
        )
        .await?;
    t.side_of_seat = side_of_seat;
    t.opened_ms = Some(opened_ms);
    follow(Arc::clone(shared), t, handle);
    Ok(())
}

/// Follows a table in a task of its own.
fn follow<H: Host>(shared: Arc<H>, t: Table, handle: RoomHandle) {
    tokio::spawn(watch(shared, t, handle));
}

/// Lateness of each side in started minutes: the last of its seats to be taken.
fn lateness(t: &Table, arrived: &[Option<u64>], now_ms: u64) -> [u64; 2] {
    let mut late = [0u64; 2];
    for (seat, side) in t.side_of_seat.iter().enumerate() {
        let at = arrived.get(seat).copied().flatten().unwrap_or(now_ms);
        // Started minutes of the lateness unit (a minute is `unit_ms` here).
        let minutes = started_units(Millis(at), t.unit_ms);
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

async fn record<H: Host>(shared: &H, t: &Table, result: GameResult, note: &str) {
    if let Err(e) = shared
        .competitions()
        .record(t.competition, (t.round, t.table), result, note)
        .await
    {
        tracing::warn!(competition = t.competition, round = t.round, table = t.table, code = ?e.code, message = %e.message, "table result not recorded");
    }
}

/// 第十三条 at a Tuolaji table still waiting: each pair complete at its table (both seats
/// taken) and not yet ruled gets its band as a ruling, applied by the game when it starts.
/// The pair that completes the table is not ruled here: the game counts it as late as its
/// start (the round's start it knows from [`tell_table`]).
async fn rule_complete_pairs(
    t: &Table,
    handle: &RoomHandle,
    seats: &[Option<qipai_protocol::SeatInfo>],
    late: [u64; 2],
    ruled: &mut [bool; 2],
) {
    if t.event != Event::TuolajiPairs {
        return;
    }
    for side in 0..2 {
        let complete = t
            .side_of_seat
            .iter()
            .enumerate()
            .all(|(seat, s)| *s != side || seats.get(seat).is_some_and(Option::is_some));
        let Some(seat) = t.side_of_seat.iter().position(|s| *s == side) else {
            continue;
        };
        if !complete || ruled[side] {
            continue;
        }
        ruled[side] = true;
        let ruling = Box::new(TuolajiRuling::Late {
            seat: Seat(u8::try_from(seat).unwrap_or(0)),
            band: tuolaji_lateness(late[side]),
        });
        let _ = handle.tx.send(Command::Rule { ruling }).await;
    }
}

/// Waits until the table's round has started: the director's start, or the time set for
/// it (which a director may move meanwhile). Returns the start (Unix ms), or `None` when
/// the room closed meanwhile (its round undone).
async fn until_started<H: Host>(
    shared: &H,
    t: &Table,
    info: &mut tokio::sync::watch::Receiver<RoomInfo>,
) -> Option<i64> {
    let comps = shared.competitions();
    let mut versions = comps.watch();
    loop {
        versions.borrow_and_update();
        let start = comps
            .read(t.competition, |h, _| {
                h.round_started_ms.get(&t.round).copied()
            })
            .await
            .ok()?;
        let wait = match start {
            Some(at) => {
                let left = at.saturating_sub(qipai_store::unix_ms());
                if left <= 0 {
                    return Some(at);
                }
                Some(Duration::from_millis(left.unsigned_abs()))
            }
            None => None,
        };
        let until_set_time = async {
            match wait {
                Some(d) => tokio::time::sleep(d).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = until_set_time => {}
            changed = versions.changed() => changed.ok()?,
            changed = info.changed() => changed.ok()?,
        }
    }
}

/// Follows one table to its end: held until its round starts (players may sit meanwhile,
/// and are on time), then its rulings, then the game. After a restart, seats already taken
/// count as on time, and a game already started had its rulings.
async fn watch<H: Host>(shared: Arc<H>, t: Table, handle: RoomHandle) {
    let (tx, mut rx) = mpsc::channel(1024);
    let player = u64::MAX - handle.id;
    let outbox = Outbox::new(
        player,
        tx,
        Arc::new(Notify::new()),
        Arc::clone(shared.metrics()),
        1 << 24,
    );
    let (reply, _) = oneshot::channel();
    let who = Who {
        player,
        name: "competition".into(),
        account: None,
        bot: false,
        outbox,
    };
    if handle
        .tx
        .send(Command::Spectate {
            who: Box::new(who),
            seq: None,
            reply,
        })
        .await
        .is_err()
    {
        return;
    }
    let mut info = handle.info.clone();
    // Watched (so the empty room stays open), the table waits for its round's start.
    let Some(started_ms) = until_started(shared.as_ref(), &t, &mut info).await else {
        return;
    };
    // A later game's lateness counts from its table's opening.
    let started_ms = t.opened_ms.map_or(started_ms, |o| o.max(started_ms));
    let started = instant_of(started_ms);
    // A table still waiting learns when its round started, before its game can begin.
    if handle.info.borrow().status == RoomStatus::Waiting {
        tell_table(&handle, &t, started_ms).await;
    }
    let mut arrived: Vec<Option<u64>> = vec![None; t.side_of_seat.len()];
    // Which pairs were ruled before the start (a pair ruled again is ignored by the game).
    let mut ruled = [false; 2];
    // Seats taken before the start (or before a restart) are on time.
    let i = info.borrow_and_update().clone();
    for (seat, s) in i.seats.iter().enumerate() {
        if let (Some(_), Some(slot)) = (s, arrived.get_mut(seat)) {
            *slot = Some(0);
        }
    }
    if i.status == RoomStatus::Waiting {
        let now = started.elapsed().as_millis() as u64;
        let late = lateness(&t, &arrived, now);
        rule_complete_pairs(&t, &handle, &i.seats, late, &mut ruled).await;
    }
    // The game may begin: at once when every seat is taken.
    let _ = handle.tx.send(Command::HoldStart { held: false }).await;
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
                if i.status == RoomStatus::Waiting {
                    let late = lateness(&t, &arrived, now);
                    rule_complete_pairs(&t, &handle, &i.seats, late, &mut ruled).await;
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
                        let text = format!("forfeit by lateness: {text}");
                        record(shared.as_ref(), &t, result, &text).await;
                        // The table is closed: the side present is told why, and no game
                        // played there later could change the result.
                        let close = Command::Close {
                            code: ErrorCode::TableForfeited,
                            message: format!("this table is forfeited ({text}); it closes"),
                        };
                        let _ = handle.tx.send(close).await;
                        return;
                    }
                }
            }
            frame = rx.recv() => {
                let Some(Outgoing::Frame(bytes)) = frame else {
                    if frame.is_none() { return; }
                    continue;
                };
                if !over {
                    continue;
                }
                if let Ok(ServerMsg::Snapshot { view, .. }) = rmp_serde::from_slice::<ServerMsg>(&bytes) {
                    if let Some(result) = result_of(&view, &t) {
                        let text = note(&t, lateness(&t, &arrived, 0));
                        game_over(&shared, t, result, text).await;
                        return;
                    }
                }
            }
        }
    }
}
