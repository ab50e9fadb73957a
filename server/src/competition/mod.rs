//! Competitions run by the server, around the pure core in
//! `qipai_games::competition` (pairing, standings, lateness, import):
//!
//! - [`Competitions`]: every competition held in memory and written through to the store
//!   (`qipai_store::competition`) before a change is acknowledged; loaded back at start-up.
//! - [`desk`]: one task per competition owns it and commits its changes; every read is
//!   answered from the board it publishes to, never waiting for the store
//!   (docs/competitions-design.md).
//! - [`stored`]: a competition as the store's rows, and back, every value typed.
//! - [`auth`]: directors' credential and sessions.
//! - [`entry_form`]: a registration form's bytes read in its encoding (UTF-8 with or
//!   without BOM, UTF-16, GBK/GB18030).
//! - [`links`]: an entry's player linked to an account, whose session then takes the
//!   player's seat without the entry code.
//! - [`tables`]: a round's tables opened with their seats reserved, watched to their end,
//!   lateness applied, results recorded.
//! - [`view`]: what the API shows: JSON and CSV.
//!
//! Their HTTP API (`gateway/competition_api.rs`) and the live watch over the WebSocket
//! (`gateway/competition_watch.rs`) sit in the gateway above.
//!
//! A server competition is one event of the notice (Tuolaji pairs or xiangqi singles); two
//! competitions of different events are *partners* (the second names the first when it is
//! created): 不得兼项 is checked across them, one registration form imports into both, and
//! team totals count both.

pub mod auth;
mod desk;
pub mod entry_form;
pub mod links;
pub mod stored;
pub mod tables;
pub mod view;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use qipai_games::competition::import::import_form;
use qipai_games::competition::pairing::pair_next_round;
use qipai_games::competition::{Competition, EntryId, Event, Format, GameResult, Round, Settings};
use qipai_games::Coded;
use qipai_protocol::{ErrorCode, WireError};
use qipai_store::competition::{CompetitionRow, CompetitionWrite, CorrectionRow};
use qipai_store::{unix_ms, Store};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::base::config::Config;
use stored::{entry_row, round_rows};

/// The stable name of a result on the wire and in the store.
pub const fn result_name(r: GameResult) -> &'static str {
    match r {
        GameResult::FirstWins => "first_wins",
        GameResult::Draw => "draw",
        GameResult::SecondWins => "second_wins",
        GameResult::FirstForfeits => "first_forfeits",
        GameResult::SecondForfeits => "second_forfeits",
        GameResult::BothForfeit => "both_forfeit",
    }
}

/// The result a stable name stands for.
pub fn parse_result(name: &str) -> Option<GameResult> {
    Some(match name {
        "first_wins" => GameResult::FirstWins,
        "draw" => GameResult::Draw,
        "second_wins" => GameResult::SecondWins,
        "first_forfeits" => GameResult::FirstForfeits,
        "second_forfeits" => GameResult::SecondForfeits,
        "both_forfeit" => GameResult::BothForfeit,
        _ => return None,
    })
}

fn event_name(e: Event) -> &'static str {
    match e {
        Event::TuolajiPairs => "tuolaji",
        Event::XiangqiSingles => "xiangqi",
    }
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Swiss => "swiss",
        Format::Knockout => "knockout",
    }
}

/// `POST /api/director/competitions`: what a director gives; the rest takes the notice's
/// defaults ([`Settings::new`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub name: String,
    /// `tuolaji` or `xiangqi`.
    pub event: String,
    /// `swiss` (default) or `knockout`.
    pub format: Option<String>,
    pub rounds: Option<u32>,
    pub best_of_three: Option<bool>,
    pub one_event_only: Option<bool>,
    pub xiangqi_lateness_limit_min: Option<u32>,
    /// The seed every lot is drawn from; the server draws one when absent.
    pub seed: Option<u64>,
    pub partner: Option<u64>,
    /// The tables' `RoomOptions` (JSON, for the event's game); absent: its `"competition"`
    /// preset (xiangqi 30+10 with the 40-move limit; Tuolaji's 90-minute round).
    pub table_options: Option<serde_json::Value>,
    /// How long a "minute" of lateness is, in ms: 60000 (tests make it short).
    pub lateness_unit_ms: Option<u64>,
}

/// What the server keeps beside a table of the core's round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableExtra {
    /// The table's room, once opened.
    pub room: Option<u64>,
    /// Lateness and the like, as recorded with the result; while a match goes on without
    /// a result, what its finished games' notes said.
    pub note: String,
    /// The games already finished at the table while its match goes on (a xiangqi best of
    /// three, a knockout's extra game; `table_match`), from the first-named entry's side:
    /// stored, so that a restart mid-match continues it (2.6).
    pub games: Vec<GameResult>,
    /// When the current game's table opened (Unix ms), for a game after the first: its
    /// lateness counts from there.
    pub game_opened_ms: Option<i64>,
}

/// Who made a correction, and when (the core keeps what and why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectionMeta {
    pub author: String,
    pub at_ms: i64,
}

/// One competition as held.
#[derive(Clone, Debug)]
pub struct Held {
    pub id: u64,
    pub name: String,
    pub created_ms: i64,
    pub partner: Option<u64>,
    /// The tables' options (the game's `"competition"` preset unless the director chose).
    pub table_options: qipai_protocol::RoomOptions,
    /// A "minute" of lateness, in ms.
    pub lateness_unit_ms: u64,
    pub core: Competition,
    /// By (round, table).
    pub tables: HashMap<(u32, u32), TableExtra>,
    /// Parallel to `core.corrections`.
    pub correction_meta: Vec<CorrectionMeta>,
    /// When each round starts (Unix ms, stored; a time to come when the director set one
    /// at publishing): lateness and the Tuolaji round clock count from here, across
    /// restarts too. A round published and not started yet has none (tournaments.md "The
    /// day itself").
    pub round_started_ms: BTreeMap<u32, i64>,
    /// The SHA-256 ([`code_hash`]) of each entry's players' entry codes (by entry index, in
    /// the order of its players). The codes themselves are kept nowhere: a director sees
    /// each once, when it is issued (tournaments.md "Who sits where").
    pub code_hashes: BTreeMap<u32, Vec<Vec<u8>>>,
    /// The entries' players linked to an account, by (entry index, player): the account's
    /// session takes the player's seat without the code ([`links`]).
    pub links: BTreeMap<(u32, usize), links::Linked>,
}

/// An entry code just issued: the only time it exists in clear (the answer to the import
/// or the reissue that made it).
#[derive(Clone, Debug, Serialize)]
pub struct IssuedCode {
    pub competition: u64,
    pub entry: u32,
    pub team: String,
    pub pair_number: Option<u32>,
    /// The player's place in the entry (0 or 1 for a pair).
    pub player: usize,
    pub name: String,
    pub code: String,
}

/// What is kept of an entry code: the SHA-256 of the code as [`room::normalize_code`]
/// gives it (`qipai_store::hash_token`, as the table's seats compare). A plain hash is
/// enough: codes are 60 random bits from the CSPRNG, not chosen by people, so there is no
/// dictionary to try; guessing online is rate-limited per address; and a stolen store
/// would need about 2^59 SHA-256 evaluations per code to find one that only seats a player
/// at a table.
pub fn code_hash(code: &str) -> Vec<u8> {
    qipai_store::hash_token(&crate::room::normalize_code(code))
}

/// The letters of entry codes: no 0/O or 1/I. There are 32, so five random bits pick one
/// evenly.
const CODE_ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// A new entry code from the operating system-seeded CSPRNG (`rand`'s thread generator,
/// ChaCha): 12 letters (60 bits) printed in groups of four, `ABCD-EFGH-JKLM`. Typed
/// without the dashes or in lower case, it is the same code (`room::normalize_code`).
pub fn new_entry_code() -> String {
    let bytes: [u8; 12] = rand::random();
    let mut code = String::with_capacity(14);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            code.push('-');
        }
        code.push(char::from(CODE_ALPHABET[usize::from(b & 31)]));
    }
    code
}

fn bad(code: ErrorCode, message: impl Into<String>) -> WireError {
    WireError {
        code,
        message: message.into(),
    }
}

fn store_failed(e: &qipai_store::StoreError) -> WireError {
    bad(ErrorCode::StoreUnavailable, format!("the store: {e}"))
}

fn no_partner() -> WireError {
    bad(
        ErrorCode::BadRequestBody,
        "partner: a competition of the other event that has no partner yet",
    )
}

fn unknown(id: u64) -> WireError {
    bad(
        ErrorCode::UnknownCompetition,
        format!("no competition {id}"),
    )
}

impl Held {
    /// Gives every entry from `from` on a new entry code per player; returns their rows
    /// for the store (hashes only) and the codes, in clear this once.
    fn issue_codes(&mut self, from: usize) -> (Vec<CompetitionWrite>, Vec<IssuedCode>) {
        let mut rows = Vec::new();
        let mut issued = Vec::new();
        for e in self.core.entries.iter().skip(from) {
            let codes: Vec<String> = e.players.iter().map(|_| new_entry_code()).collect();
            let hashes: Vec<Vec<u8>> = codes.iter().map(|c| code_hash(c)).collect();
            rows.push(CompetitionWrite::Entry(entry_row(self.id, e, &hashes)));
            self.code_hashes.insert(e.id.0, hashes);
            issued.extend(
                e.players
                    .iter()
                    .zip(codes)
                    .enumerate()
                    .map(|(i, (p, code))| IssuedCode {
                        competition: self.id,
                        entry: e.id.0,
                        team: e.team.0.clone(),
                        pair_number: e.pair_number,
                        player: i,
                        name: p.name.clone(),
                        code,
                    }),
            );
        }
        (rows, issued)
    }

    /// The hash of the entry code of player `player` of `entry` (empty when it has none,
    /// which no code matches).
    pub fn code_hash(&self, entry: EntryId, player: usize) -> &[u8] {
        self.code_hashes
            .get(&entry.0)
            .and_then(|c| c.get(player))
            .map_or(&[], Vec::as_slice)
    }

    /// The entry and player whose code hashes to `hash`.
    pub fn holder(&self, hash: &[u8]) -> Option<(EntryId, usize)> {
        self.code_hashes.iter().find_map(|(entry, hashes)| {
            let player = hashes.iter().position(|h| !h.is_empty() && h == hash)?;
            Some((EntryId(*entry), player))
        })
    }
}

/// Why the competitions could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("the store: {0}")]
    Store(#[from] qipai_store::StoreError),
    #[error("an unreadable stored value: {0}")]
    Unreadable(#[from] stored::Unreadable),
}

/// Every competition, and the directors.
///
/// Each competition's state is owned by its task ([`desk`]); every read is answered from the
/// [`desk::Board`], which holds what was last committed, so no read waits for the store or
/// for another competition's edit.
pub struct Competitions {
    pub directors: auth::Directors,
    /// Joins with an entry code, per address: guesses are limited like director logins.
    pub entry_codes: crate::base::limiter::Limiter,
    board: Arc<desk::Board>,
    /// Each competition's desk, by id (two partners share one). Never held across an await.
    desks: std::sync::Mutex<BTreeMap<u64, desk::Inbox>>,
    /// The store the desks commit to, once [`Competitions::load`] has read it; none: the
    /// competitions live in memory only.
    store: std::sync::OnceLock<Arc<dyn Store>>,
    /// Held while a competition is created, so that ids are given in order without a gap
    /// (a creation the store refused gives its id to the next); nothing else takes it.
    creating: tokio::sync::Mutex<()>,
}

impl Competitions {
    /// None yet; [`Competitions::load`] fills them from the store.
    pub fn new(config: &Config) -> Competitions {
        Competitions {
            directors: auth::Directors::new(&config.director),
            entry_codes: crate::base::limiter::Limiter::new(
                config.director.login_free_failures,
                config.director.login_delay_ms,
                "entry codes from this address",
            ),
            board: Arc::new(desk::Board::new()),
            desks: std::sync::Mutex::new(BTreeMap::new()),
            store: std::sync::OnceLock::new(),
            creating: tokio::sync::Mutex::new(()),
        }
    }

    /// Loads every competition the store kept, and commits every later change to it.
    ///
    /// # Errors
    /// The store's error when it cannot be read; [`stored::Unreadable`] naming the first row
    /// with a value this server cannot read (serving without that competition would give
    /// its id to the next one created).
    pub async fn load(&self, store: Arc<dyn Store>) -> Result<usize, LoadError> {
        let logs = store.competitions().await?;
        let mut held = BTreeMap::new();
        let mut partners = Vec::new();
        let mut hashed = Vec::new();
        for log in logs {
            let id = log.competition.id;
            let (h, in_clear) = Held::from_log(log)?;
            if let Some(p) = h.partner {
                partners.push((p, id));
            }
            hashed.extend(in_clear.into_iter().filter_map(|index| {
                let e = h.core.entries.iter().find(|e| e.id.0 == index)?;
                let hashes = h.code_hashes.get(&index).map_or(&[][..], Vec::as_slice);
                Some(CompetitionWrite::EntryContacts {
                    competition: id,
                    index,
                    contacts: entry_row(id, e, hashes).contacts,
                })
            }));
            held.insert(id, h);
        }
        for (a, b) in partners {
            if let Some(h) = held.get_mut(&a) {
                h.partner = Some(b);
            }
        }
        // The migration of entry codes kept in clear by a server before they were hashed:
        // in code, not SQL, as SQLite has no SHA-256; one transaction, before anybody can
        // join, and nothing to do the next time.
        if !hashed.is_empty() {
            tracing::info!(entries = hashed.len(), "hashing entry codes kept in clear");
            store.competition_write(hashed).await?;
        }
        let count = held.len();
        let mut held: BTreeMap<u64, Arc<Held>> =
            held.into_iter().map(|(id, h)| (id, Arc::new(h))).collect();
        let mut desks = BTreeMap::new();
        while let Some((_, h)) = held.pop_first() {
            let mut group = vec![h];
            group.extend(group[0].partner.and_then(|p| held.remove(&p)));
            self.board.publish(&group);
            let ids: Vec<u64> = group.iter().map(|h| h.id).collect();
            let inbox = desk::spawn(group, Some(Arc::clone(&store)), Arc::clone(&self.board));
            for i in ids {
                desks.insert(i, inbox.clone());
            }
        }
        if let Ok(mut d) = self.desks.lock() {
            *d = desks;
        }
        let _ = self.store.set(store);
        Ok(count)
    }

    /// The version at which the competition `id` last changed (0: not since the start).
    pub fn changed_at(&self, id: u64) -> u64 {
        self.board.changed_at(id)
    }

    /// A receiver that sees every change's version.
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.board.watch()
    }

    /// The desk of competition `id`.
    fn desk(&self, id: u64) -> Result<desk::Inbox, WireError> {
        self.desks
            .lock()
            .ok()
            .and_then(|d| d.get(&id).cloned())
            .ok_or_else(|| unknown(id))
    }

    /// Sends `edit` to `inbox` and waits for its answer (after its commit).
    async fn send<T: Send + 'static>(
        inbox: &desk::Inbox,
        id: u64,
        edit: impl FnOnce(
                &BTreeMap<u64, Arc<Held>>,
            ) -> Result<(T, Vec<CompetitionWrite>, Vec<Held>), WireError>
            + Send
            + 'static,
    ) -> Result<T, WireError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let edit: desk::Edit = Box::new(move |held| match edit(held) {
            Err(e) => {
                let _ = tx.send(Err(e));
                None
            }
            Ok((out, writes, edited)) => Some(desk::Staged {
                writes,
                edited,
                done: Box::new(move |committed| {
                    let _ = tx.send(committed.map(|()| out));
                }),
            }),
        });
        inbox.send(edit).await.map_err(|_| unknown(id))?;
        rx.await.map_err(|_| unknown(id))?
    }

    /// Has the desk of competition `id` run `f` on a copy of it (and of its partner, when it
    /// has one) and commit the writes `f` returns; only when they are committed do the copies
    /// replace the held ones, and are published. Nothing changes on an error.
    async fn change<T: Send + 'static>(
        &self,
        id: u64,
        f: impl FnOnce(&mut Held, Option<&mut Held>) -> Result<(T, Vec<CompetitionWrite>), WireError>
            + Send
            + 'static,
    ) -> Result<T, WireError> {
        let inbox = self.desk(id)?;
        Self::send(&inbox, id, move |held| {
            let mut mine = held
                .get(&id)
                .map(|h| Held::clone(h))
                .ok_or_else(|| unknown(id))?;
            let mut partner = mine
                .partner
                .and_then(|p| held.get(&p))
                .map(|h| Held::clone(h));
            let (out, writes) = f(&mut mine, partner.as_mut())?;
            Ok((
                out,
                writes,
                [Some(mine), partner].into_iter().flatten().collect(),
            ))
        })
        .await
    }

    /// Creates a competition; returns its id. A competition with a partner joins its
    /// partner's desk.
    ///
    /// # Errors
    /// `bad_request_body` for an unknown event or format, rounds out of 1–20, or a partner
    /// that is not a competition of the other event without a partner.
    pub async fn create(&self, req: CreateRequest) -> Result<u64, WireError> {
        let body = |m: &str| bad(ErrorCode::BadRequestBody, m);
        let event = match req.event.as_str() {
            "tuolaji" => Event::TuolajiPairs,
            "xiangqi" => Event::XiangqiSingles,
            _ => return Err(body("event: tuolaji or xiangqi")),
        };
        let name = req.name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(body("name: 1 to 100 characters"));
        }
        let mut settings = Settings::new(event, req.seed.unwrap_or_else(rand::random));
        settings.format = match req.format.as_deref() {
            None | Some("swiss") => Format::Swiss,
            Some("knockout") => Format::Knockout,
            Some(_) => return Err(body("format: swiss or knockout")),
        };
        if let Some(r) = req.rounds {
            if !(1..=20).contains(&r) {
                return Err(body("rounds: 1 to 20"));
            }
            settings.rounds = r;
        }
        settings.best_of_three = req.best_of_three.unwrap_or(false);
        settings.one_event_only = req.one_event_only.unwrap_or(true);
        if let Some(m) = req.xiangqi_lateness_limit_min {
            settings.xiangqi_lateness_limit_min = m.min(24 * 60);
        }
        let table_options = table_options(event, req.table_options).map_err(|m| body(&m))?;
        let creating = self.creating.lock().await;
        let partner_desk = match req.partner {
            Some(p) => Some(self.desk(p).map_err(|_| no_partner())?),
            None => None,
        };
        let id = self
            .desks
            .lock()
            .ok()
            .and_then(|d| d.keys().next_back().copied())
            .map_or(1, |k| k + 1);
        let h = Held {
            id,
            name,
            created_ms: unix_ms(),
            partner: req.partner,
            table_options,
            lateness_unit_ms: req.lateness_unit_ms.unwrap_or(60_000).max(1),
            core: Competition::new(settings),
            tables: HashMap::new(),
            correction_meta: Vec::new(),
            round_started_ms: BTreeMap::new(),
            code_hashes: BTreeMap::new(),
            links: BTreeMap::new(),
        };
        let write = CompetitionWrite::Competition(CompetitionRow {
            id,
            name: h.name.clone(),
            settings: serde_json::to_string(&h.stored_settings()).unwrap_or_default(),
            created_ms: h.created_ms,
        });
        let inbox = partner_desk.unwrap_or_else(|| {
            desk::spawn(
                Vec::new(),
                self.store.get().cloned(),
                Arc::clone(&self.board),
            )
        });
        let partner = req.partner;
        Self::send(&inbox, id, move |held| {
            let mut edited = vec![h];
            if let Some(p) = partner {
                let mut p = held
                    .get(&p)
                    .filter(|p| p.partner.is_none() && p.core.settings.event != event)
                    .map(|p| Held::clone(p))
                    .ok_or_else(no_partner)?;
                p.partner = Some(id);
                edited.push(p);
            }
            Ok(((), vec![write], edited))
        })
        .await?;
        if let Ok(mut d) = self.desks.lock() {
            d.insert(id, inbox);
        }
        drop(creating);
        Ok(id)
    }

    /// Imports a registration form (CSV, `qipai_games::competition::import`) into the
    /// competition and its partner; returns how many entries each gained, and the entry
    /// codes issued (the only time they are seen).
    ///
    /// # Errors
    /// `entries_closed` once a round is paired; the form's own errors (`bad_entry_form`,
    /// `already_entered`, …) with the line; `bad_entry_form` for rows of an event that has
    /// no competition here.
    pub async fn import(
        &self,
        id: u64,
        csv: &str,
    ) -> Result<(usize, usize, Vec<IssuedCode>), WireError> {
        let csv = csv.to_owned();
        self.change(id, move |mine, partner| {
            let closed = !mine.core.rounds.is_empty()
                || partner.as_ref().is_some_and(|p| !p.core.rounds.is_empty());
            if closed {
                return Err(bad(
                    ErrorCode::EntriesClosed,
                    "entries are closed: a round is paired",
                ));
            }
            let before = mine.core.entries.len();
            let (gained_other, mut writes, mut issued) = match partner {
                Some(p) => {
                    let start = p.core.entries.len();
                    import_both(&csv, &mut mine.core, &mut p.core)?;
                    let (rows, issued) = p.issue_codes(start);
                    (p.core.entries.len() - start, rows, issued)
                }
                None => {
                    let other = other_event(mine.core.settings.event);
                    let mut scratch = Competition::new(Settings::new(other, 0));
                    import_both(&csv, &mut mine.core, &mut scratch)?;
                    if !scratch.entries.is_empty() {
                        return Err(bad(
                            ErrorCode::BadEntryForm,
                            format!(
                                "the form has {} entries, but no {} competition is partnered with this one",
                                other.name(),
                                other.name()
                            ),
                        ));
                    }
                    (0, Vec::new(), Vec::new())
                }
            };
            let (rows, mine_issued) = mine.issue_codes(before);
            writes.extend(rows);
            issued.splice(0..0, mine_issued);
            Ok((
                (mine.core.entries.len() - before, gained_other, issued),
                writes,
            ))
        })
        .await
    }

    /// A new entry code for player `player` of entry `entry`: the old one stops working
    /// (here, and at the entry's open tables: see `tables::entrants_changed`), and the player's
    /// link to an account, made with the old code, is undone. Returns the code, in clear
    /// this once.
    ///
    /// # Errors
    /// `unknown_competition`; `bad_request_body` for no such entry or player.
    pub async fn reissue(
        &self,
        id: u64,
        entry: u32,
        player: usize,
    ) -> Result<IssuedCode, WireError> {
        self.change(id, move |mine, _| {
            let e = mine
                .core
                .entries
                .iter()
                .find(|e| e.id.0 == entry)
                .ok_or_else(|| bad(ErrorCode::BadRequestBody, format!("no entry {entry}")))?;
            let name = e
                .players
                .get(player)
                .map(|p| p.name.clone())
                .ok_or_else(|| {
                    bad(
                        ErrorCode::BadRequestBody,
                        format!("entry {entry} has no player {player}"),
                    )
                })?;
            let code = new_entry_code();
            let mut hashes = mine.code_hashes.get(&entry).cloned().unwrap_or_default();
            hashes.resize(e.players.len(), Vec::new());
            if let Some(h) = hashes.get_mut(player) {
                *h = code_hash(&code);
            }
            let mut writes = vec![CompetitionWrite::EntryContacts {
                competition: id,
                index: entry,
                contacts: entry_row(id, e, &hashes).contacts,
            }];
            // The link was made by proving the old code: whoever linked it with a code
            // that leaked must not keep the seat (the holder links again with the new one).
            if mine.links.remove(&(entry, player)).is_some() {
                writes.push(CompetitionWrite::Unlink {
                    competition: id,
                    index: entry,
                    player: u32::try_from(player).unwrap_or(u32::MAX),
                });
            }
            let issued = IssuedCode {
                competition: id,
                entry,
                team: e.team.0.clone(),
                pair_number: e.pair_number,
                player,
                name,
                code,
            };
            mine.code_hashes.insert(entry, hashes);
            Ok((issued, writes))
        })
        .await
    }

    /// Pairs the next round (the core's Swiss or knockout pairing from the recorded seed)
    /// and stores it, published; it starts at `start_ms` when given (Unix ms: now, or a
    /// time to come), else when a director starts it ([`Competitions::begin_round`]).
    /// Returns it.
    ///
    /// # Errors
    /// `no_round_left`, `round_unfinished`, `too_few_entries`.
    pub async fn publish_round(&self, id: u64, start_ms: Option<i64>) -> Result<Round, WireError> {
        self.change(id, move |mine, _| {
            let round = pair_next_round(&mine.core).map_err(|e| bad(e.code(), e.to_string()))?;
            let (row, pairings) = round_rows(mine.id, &round, start_ms);
            if let Some(at) = start_ms {
                mine.round_started_ms.insert(round.number, at);
            }
            mine.core.rounds.push(round.clone());
            Ok((round, vec![CompetitionWrite::Round(row, pairings)]))
        })
        .await
    }

    /// Starts round `round` at `at_ms` (Unix ms: now, or a time to come): its tables'
    /// lateness and round clock count from then, and their games begin. A round whose set
    /// time is still to come may be started sooner, or set again.
    ///
    /// # Errors
    /// `unknown_competition`; `not_found` for a round not paired; `round_started` for a
    /// round already started.
    pub async fn begin_round(&self, id: u64, round: u32, at_ms: i64) -> Result<i64, WireError> {
        self.change(id, move |mine, _| {
            if !mine.core.rounds.iter().any(|r| r.number == round) {
                return Err(bad(ErrorCode::NotFound, format!("no round {round}")));
            }
            if let Some(at) = mine.round_started_ms.get(&round) {
                if *at <= unix_ms() {
                    return Err(bad(
                        ErrorCode::RoundStarted,
                        format!("round {round} has started"),
                    ));
                }
            }
            mine.round_started_ms.insert(round, at_ms);
            let write = CompetitionWrite::RoundStart {
                competition: mine.id,
                round,
                started_ms: at_ms,
            };
            Ok((at_ms, vec![write]))
        })
        .await
    }

    /// Undoes round `number`, the latest, while none of its tables has a result: the round
    /// and its pairings are gone (its tables are closed by `tables::undo_round`). Returns
    /// it, and the rooms its tables had.
    ///
    /// # Errors
    /// `not_found` (no round, or `number` is not the latest), `round_recorded`.
    pub async fn undo_round(
        &self,
        id: u64,
        number: u32,
    ) -> Result<(Round, Vec<((u32, u32), u64)>), WireError> {
        self.change(id, move |mine, _| {
            // Named, so that a request sent twice never undoes two rounds.
            if mine.core.rounds.last().map(|r| r.number) != Some(number) {
                return Err(bad(
                    ErrorCode::NotFound,
                    format!("round {number} is not the latest round"),
                ));
            }
            let round = mine
                .core
                .undo_latest_round()
                .map_err(|e| bad(e.code(), e.to_string()))?;
            mine.round_started_ms.remove(&round.number);
            let rooms = round
                .pairings
                .iter()
                .filter_map(|p| {
                    let at = (round.number, p.table);
                    Some((at, mine.tables.remove(&at)?.room?))
                })
                .collect();
            let write = CompetitionWrite::RoundUndone {
                competition: mine.id,
                round: round.number,
            };
            Ok(((round, rooms), vec![write]))
        })
        .await
    }

    /// Withdraws entry `entry`: it is paired no more; its past games stand.
    ///
    /// # Errors
    /// `unknown_competition`; `not_found` for no such entry.
    pub async fn withdraw(&self, id: u64, entry: u32) -> Result<(), WireError> {
        self.change(id, move |mine, _| {
            mine.core
                .withdraw(EntryId(entry))
                .map_err(|e| bad(e.code(), e.to_string()))?;
            let write = CompetitionWrite::Settings {
                competition: mine.id,
                settings: serde_json::to_string(&mine.stored_settings()).unwrap_or_default(),
            };
            Ok(((), vec![write]))
        })
        .await
    }

    /// Records a table's result (when its game ends, or a director's entry for a table
    /// played off the server), with a note (lateness and the like).
    ///
    /// # Errors
    /// `unknown_table`; `bad_request_body` when the table already has a result (a change is a
    /// correction, which keeps its reason).
    pub async fn record(
        &self,
        id: u64,
        (round, table): (u32, u32),
        result: GameResult,
        note: &str,
    ) -> Result<(), WireError> {
        let note = note.to_owned();
        self.change(id, move |mine, _| {
            let recorded = mine
                .core
                .rounds
                .iter()
                .find(|r| r.number == round)
                .and_then(|r| r.pairings.iter().find(|p| p.table == table))
                .map(|p| p.result);
            if let Some(Some(_)) = recorded {
                return Err(bad(
                    ErrorCode::BadRequestBody,
                    "the table has a result: change it with a correction (it needs a reason)",
                ));
            }
            mine.core
                .record(round, table, result)
                .map_err(|e| bad(e.code(), e.to_string()))?;
            mine.tables
                .entry((round, table))
                .or_default()
                .note
                .clone_from(&note);
            Ok((
                (),
                vec![CompetitionWrite::Result {
                    competition: mine.id,
                    round,
                    table,
                    result: result_name(result).into(),
                    note,
                }],
            ))
        })
        .await
    }

    /// 仲裁: replaces a table's result with a reason; the correction is kept and shown.
    ///
    /// # Errors
    /// `missing_reason`, `unknown_table`.
    pub async fn correct(
        &self,
        id: u64,
        (round, table): (u32, u32),
        result: GameResult,
        reason: &str,
        author: &str,
    ) -> Result<(), WireError> {
        let (reason, author) = (reason.to_owned(), author.to_owned());
        self.change(id, move |mine, _| {
            mine.core
                .correct(round, table, result, &reason)
                .map_err(|e| bad(e.code(), e.to_string()))?;
            let before = mine.core.corrections.last().and_then(|c| c.before);
            let meta = CorrectionMeta {
                author,
                at_ms: unix_ms(),
            };
            let note = mine
                .tables
                .get(&(round, table))
                .map(|t| t.note.clone())
                .unwrap_or_default();
            let writes = vec![
                CompetitionWrite::Result {
                    competition: mine.id,
                    round,
                    table,
                    result: result_name(result).into(),
                    note,
                },
                CompetitionWrite::Correction(CorrectionRow {
                    competition: mine.id,
                    round,
                    table,
                    before: before.map(|b| result_name(b).into()),
                    after: result_name(result).into(),
                    reason,
                    author: meta.author.clone(),
                    at_ms: meta.at_ms,
                }),
            ];
            mine.correction_meta.push(meta);
            Ok(((), writes))
        })
        .await
    }

    /// Notes the room a table plays in (opened by [`tables`]).
    ///
    /// # Errors
    /// `unknown_competition`, the store's error.
    pub async fn set_room(
        &self,
        id: u64,
        (round, table): (u32, u32),
        room: u64,
    ) -> Result<(), WireError> {
        self.change(id, move |mine, _| {
            mine.tables.entry((round, table)).or_default().room = Some(room);
            Ok((
                (),
                vec![CompetitionWrite::TableRoom {
                    competition: mine.id,
                    round,
                    table,
                    room,
                }],
            ))
        })
        .await
    }

    /// A game of a table's match ended without deciding it (`table_match`): keeps the
    /// games finished so far and their notes, and the next game's room opened at
    /// `opened_ms` (Unix ms), in one write, so that a restart continues the match.
    ///
    /// # Errors
    /// `unknown_competition`, the store's error.
    pub async fn next_game(
        &self,
        id: u64,
        (round, table): (u32, u32),
        games: Vec<GameResult>,
        note: String,
        (room, opened_ms): (u64, i64),
    ) -> Result<(), WireError> {
        self.change(id, move |mine, _| {
            let names: Vec<&str> = games.iter().map(|g| result_name(*g)).collect();
            let write = CompetitionWrite::NextGame {
                competition: mine.id,
                round,
                table,
                games: names.join(","),
                note: note.clone(),
                room,
                opened_ms,
            };
            *mine.tables.entry((round, table)).or_default() = TableExtra {
                room: Some(room),
                note,
                games,
                game_opened_ms: Some(opened_ms),
            };
            Ok(((), vec![write]))
        })
        .await
    }

    /// Runs `f` on the competition `id` and its partner, as last committed. Answered from
    /// the board: it never waits for a desk or the store.
    ///
    /// # Errors
    /// `unknown_competition`.
    pub async fn read<T>(
        &self,
        id: u64,
        f: impl FnOnce(&Held, Option<&Held>) -> T,
    ) -> Result<T, WireError> {
        let all = self.board.published();
        let mine = all.get(&id).ok_or_else(|| unknown(id))?;
        let partner = mine.partner.and_then(|p| all.get(&p));
        Ok(f(mine, partner.map(Arc::as_ref)))
    }

    /// Where the holder of the entry code whose hash is `hash` plays next
    /// ([`view::next_table`]); `None` when no entry has that code.
    pub async fn next_table(
        &self,
        hash: &[u8],
        room: &(dyn Fn(u64) -> Option<&'static str> + Sync),
    ) -> Option<Value> {
        self.board.published().values().find_map(|h| {
            let (entry, player) = h.holder(hash)?;
            Some(view::next_table(h, entry, player, room))
        })
    }

    /// Every competition's id, name and event, by id.
    pub async fn list(&self) -> Vec<(u64, String, &'static str)> {
        self.board
            .published()
            .values()
            .map(|h| (h.id, h.name.clone(), event_name(h.core.settings.event)))
            .collect()
    }
}

/// The tables' options: `given` (JSON `RoomOptions` of the event's game), or the game's
/// `"competition"` preset.
fn table_options(
    event: Event,
    given: Option<serde_json::Value>,
) -> Result<qipai_protocol::RoomOptions, String> {
    use qipai_protocol::{GameKind, RoomOptions};
    let game = match event {
        Event::TuolajiPairs => GameKind::Tuolaji,
        Event::XiangqiSingles => GameKind::Xiangqi,
    };
    let value = given
        .unwrap_or_else(|| serde_json::json!({ "game": game.name(), "preset": "competition" }));
    let options: RoomOptions =
        serde_json::from_value(value).map_err(|e| format!("table_options: {e}"))?;
    if options.game() != game {
        return Err(format!("table_options: the tables play {}", game.name()));
    }
    Ok(options)
}

fn other_event(e: Event) -> Event {
    match e {
        Event::TuolajiPairs => Event::XiangqiSingles,
        Event::XiangqiSingles => Event::TuolajiPairs,
    }
}

/// The core's import into `mine` and `other` (one of each event).
fn import_both(
    csv: &str,
    mine: &mut Competition,
    other: &mut Competition,
) -> Result<(), WireError> {
    let (t, x) = match mine.settings.event {
        Event::TuolajiPairs => (mine, other),
        Event::XiangqiSingles => (other, mine),
    };
    import_form(csv, t, x).map_err(|e| bad(e.code(), e.to_string()))
}
