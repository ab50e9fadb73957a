//! Competitions run by the server (issue 15), around the pure core in
//! `qipai_games::competition` (pairing, standings, lateness, import):
//!
//! - [`Competitions`]: every competition held in memory and written through to the store
//!   (`qipai_store::competition`) before a change is acknowledged; loaded back at start-up.
//! - [`auth`]: directors' credential and sessions.
//! - [`api`]: the HTTP API under `/api/director/…` (directors) and `/api/competitions/…`
//!   (public, read-only; contacts never leave through it).
//! - [`tables`]: a round's tables opened with their seats reserved, watched to their end,
//!   lateness applied, results recorded.
//! - [`view`]: what the API shows: JSON and CSV.
//! - [`watch`]: a competition watched over the WebSocket (`watch_competition`).
//!
//! A server competition is one event of the notice (Tuolaji pairs or xiangqi singles); two
//! competitions of different events are *partners* (the second names the first when it is
//! created): 不得兼项 is checked across them, one registration form imports into both, and
//! team totals count both.

pub mod api;
pub mod auth;
pub mod tables;
pub mod view;
pub mod watch;

use std::collections::{BTreeMap, HashMap};

use qipai_games::competition::import::import_form;
use qipai_games::competition::pairing::pair_next_round;
use qipai_games::competition::{
    Bye, Competition, Contact, DirectorOnly, EntryId, Event, Format, GameResult, Pairing, Player,
    Round, Settings,
};
use qipai_games::Coded;
use qipai_protocol::{ErrorCode, WireError};
use qipai_store::competition::{
    CompetitionLog, CompetitionRow, CompetitionWrite, CorrectionRow, EntryRow, PairingRow, RoundRow,
};
use qipai_store::{unix_ms, Store};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::Config;

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

/// A competition's settings as created and stored (JSON in the store).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredSettings {
    pub event: String,
    pub format: String,
    pub rounds: u32,
    pub best_of_three: bool,
    pub one_event_only: bool,
    pub xiangqi_lateness_limit_min: u32,
    pub seed: u64,
    /// The competition of the other event this one is run with.
    pub partner: Option<u64>,
    /// The tables' `RoomOptions` (JSON); absent: the game's `"competition"` preset.
    #[serde(default)]
    pub table_options: Option<serde_json::Value>,
    /// How long a "minute" of lateness is, in ms (60000; tests make it short).
    #[serde(default)]
    pub lateness_unit_ms: Option<u64>,
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
    /// Lateness and the like, as recorded with the result.
    pub note: String,
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
    /// When each round was started (Unix ms, stored): lateness counts from here, across
    /// restarts too.
    pub round_started_ms: BTreeMap<u32, i64>,
    /// The SHA-256 ([`code_hash`]) of each entry's players' entry codes (by entry index, in
    /// the order of its players). The codes themselves are kept nowhere: a director sees
    /// each once, when it is issued (tournaments.md "Who sits where").
    pub code_hashes: BTreeMap<u32, Vec<Vec<u8>>>,
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

fn unknown(id: u64) -> WireError {
    bad(
        ErrorCode::UnknownCompetition,
        format!("no competition {id}"),
    )
}

/// Contacts of an entry's players and their entry codes, director only (JSON in the store).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactJson {
    pub phone: String,
    pub joined_group: String,
    /// The entry code in clear, as servers before the codes were hashed kept it: read
    /// only to hash it when the store is loaded ([`Competitions::load`]), never written.
    #[serde(default, skip_serializing)]
    pub code: String,
    /// The SHA-256 of the player's entry code ([`code_hash`]), in hex.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub code_hash: String,
}

fn entry_row(
    competition: u64,
    e: &qipai_games::competition::Entry,
    hashes: &[Vec<u8>],
) -> EntryRow {
    let names: Vec<&str> = e.players.iter().map(|p| p.name.as_str()).collect();
    let contacts: Vec<Option<ContactJson>> = e
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let code_hash = hashes
                .get(i)
                .map(|h| qipai_store::hex(h))
                .unwrap_or_default();
            match &p.contact {
                Some(c) => Some(ContactJson {
                    phone: c.0.phone.clone(),
                    joined_group: c.0.joined_group.clone(),
                    code_hash,
                    ..ContactJson::default()
                }),
                None if !code_hash.is_empty() => Some(ContactJson {
                    code_hash,
                    ..ContactJson::default()
                }),
                None => None,
            }
        })
        .collect();
    EntryRow {
        competition,
        index: e.id.0,
        team: e.team.0.clone(),
        pair_number: e.pair_number,
        players: serde_json::to_string(&names).unwrap_or_default(),
        contacts: serde_json::to_string(&contacts).unwrap_or_default(),
    }
}

fn round_rows(competition: u64, r: &Round, started_ms: i64) -> (RoundRow, Vec<PairingRow>) {
    (
        RoundRow {
            competition,
            number: r.number,
            seed: r.seed,
            bye: r.bye.map(|b| b.entry.0),
            started_ms,
        },
        r.pairings
            .iter()
            .map(|p| PairingRow {
                competition,
                round: r.number,
                table: p.table,
                first: p.first.0,
                second: p.second.0,
                room: None,
                result: p.result.map(|x| result_name(x).to_owned()),
                note: String::new(),
            })
            .collect(),
    )
}

impl Held {
    fn settings_json(&self) -> StoredSettings {
        let s = &self.core.settings;
        StoredSettings {
            event: event_name(s.event).into(),
            format: format_name(s.format).into(),
            rounds: s.rounds,
            best_of_three: s.best_of_three,
            one_event_only: s.one_event_only,
            xiangqi_lateness_limit_min: s.xiangqi_lateness_limit_min,
            seed: s.seed,
            partner: self.partner,
            table_options: serde_json::to_value(&self.table_options).ok(),
            lateness_unit_ms: Some(self.lateness_unit_ms),
        }
    }

    /// Rebuilds a competition from what the store kept; with the entries whose codes the
    /// store kept in clear (an older server's), now hashed, to write back.
    fn from_log(log: CompetitionLog) -> Result<(Held, Vec<u32>), String> {
        let s: StoredSettings =
            serde_json::from_str(&log.competition.settings).map_err(|e| e.to_string())?;
        let event = match s.event.as_str() {
            "tuolaji" => Event::TuolajiPairs,
            "xiangqi" => Event::XiangqiSingles,
            other => return Err(format!("unknown event {other}")),
        };
        let format = if s.format == "knockout" {
            Format::Knockout
        } else {
            Format::Swiss
        };
        let mut core = Competition::new(Settings {
            event,
            format,
            rounds: s.rounds,
            best_of_three: s.best_of_three,
            one_event_only: s.one_event_only,
            xiangqi_lateness_limit_min: s.xiangqi_lateness_limit_min,
            seed: s.seed,
        });
        let mut code_hashes = BTreeMap::new();
        let mut in_clear = Vec::new();
        for e in log.entries {
            let names: Vec<String> = serde_json::from_str(&e.players).map_err(|e| e.to_string())?;
            let contacts: Vec<Option<ContactJson>> =
                serde_json::from_str(&e.contacts).unwrap_or_default();
            let players: Vec<Player> = names
                .into_iter()
                .enumerate()
                .map(|(i, name)| Player {
                    name,
                    contact: contacts
                        .get(i)
                        .cloned()
                        .flatten()
                        .filter(|c| !c.phone.is_empty() || !c.joined_group.is_empty())
                        .map(|c| {
                            DirectorOnly(Contact {
                                phone: c.phone,
                                joined_group: c.joined_group,
                            })
                        }),
                })
                .collect();
            let hashes: Vec<Vec<u8>> = (0..players.len())
                .map(|i| match contacts.get(i).and_then(Option::as_ref) {
                    Some(c) if !c.code.is_empty() => code_hash(&c.code),
                    Some(c) => qipai_store::from_hex(&c.code_hash).unwrap_or_default(),
                    None => Vec::new(),
                })
                .collect();
            if contacts.iter().flatten().any(|c| !c.code.is_empty()) {
                in_clear.push(e.index);
            }
            code_hashes.insert(e.index, hashes);
            core.entries.push(qipai_games::competition::Entry {
                id: EntryId(e.index),
                team: qipai_games::competition::Team(e.team),
                pair_number: e.pair_number,
                players,
            });
        }
        let mut tables = HashMap::new();
        let mut round_started_ms = BTreeMap::new();
        for r in &log.rounds {
            round_started_ms.insert(r.number, r.started_ms);
            let pairings = log
                .pairings
                .iter()
                .filter(|p| p.round == r.number)
                .map(|p| {
                    tables.insert(
                        (p.round, p.table),
                        TableExtra {
                            room: p.room,
                            note: p.note.clone(),
                        },
                    );
                    Pairing {
                        table: p.table,
                        first: EntryId(p.first),
                        second: EntryId(p.second),
                        result: p.result.as_deref().and_then(parse_result),
                    }
                })
                .collect();
            core.rounds.push(Round {
                number: r.number,
                pairings,
                bye: r.bye.map(|b| Bye { entry: EntryId(b) }),
                seed: r.seed,
            });
        }
        let mut correction_meta = Vec::new();
        for c in log.corrections {
            let Some(after) = parse_result(&c.after) else {
                continue;
            };
            core.corrections.push(qipai_games::competition::Correction {
                round: c.round,
                table: c.table,
                before: c.before.as_deref().and_then(parse_result),
                after,
                reason: c.reason,
            });
            correction_meta.push(CorrectionMeta {
                author: c.author,
                at_ms: c.at_ms,
            });
        }
        let held = Held {
            id: log.competition.id,
            name: log.competition.name,
            created_ms: log.competition.created_ms,
            partner: s.partner,
            table_options: table_options(event, s.table_options)?,
            lateness_unit_ms: s.lateness_unit_ms.unwrap_or(60_000).max(1),
            core,
            tables,
            correction_meta,
            round_started_ms,
            code_hashes,
        };
        Ok((held, in_clear))
    }

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

/// Every competition, and the directors.
pub struct Competitions {
    pub directors: auth::Directors,
    /// Joins with an entry code, per address: guesses are limited like director logins.
    pub entry_codes: auth::Limiter,
    held: tokio::sync::Mutex<BTreeMap<u64, Held>>,
    /// Bumped on every change: the public pages poll or watch it.
    version: tokio::sync::watch::Sender<u64>,
    /// The version at which each competition last changed (the WebSocket watch, `watch`).
    changed_at: std::sync::Mutex<HashMap<u64, u64>>,
}

impl Competitions {
    /// None yet; [`Competitions::load`] fills them from the store.
    pub fn new(config: &Config) -> Competitions {
        Competitions {
            directors: auth::Directors::new(&config.director),
            entry_codes: auth::Limiter::new(
                config.director.login_free_failures,
                config.director.login_delay_ms,
                "entry codes",
            ),
            held: tokio::sync::Mutex::new(BTreeMap::new()),
            version: tokio::sync::watch::channel(0).0,
            changed_at: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Loads every competition the store kept. A competition that cannot be rebuilt is
    /// logged and left out; the others go on.
    ///
    /// # Errors
    /// The store's error when it cannot be read.
    pub async fn load(&self, store: &dyn Store) -> Result<usize, qipai_store::StoreError> {
        let logs = store.competitions().await?;
        let mut held = self.held.lock().await;
        let mut partners = Vec::new();
        let mut hashed = Vec::new();
        for log in logs {
            let id = log.competition.id;
            match Held::from_log(log) {
                Ok((h, in_clear)) => {
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
                Err(error) => tracing::error!(competition = id, %error, "cannot rebuild"),
            }
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
        Ok(held.len())
    }

    /// A change was made to these competitions: wake whoever watches, and note the version
    /// each of them changed at.
    fn changed_ids(&self, ids: &[u64]) {
        self.version.send_modify(|v| {
            *v += 1;
            if let Ok(mut at) = self.changed_at.lock() {
                for id in ids {
                    at.insert(*id, *v);
                }
            }
        });
    }

    /// The version at which the competition `id` last changed (0: not since the start).
    pub fn changed_at(&self, id: u64) -> u64 {
        self.changed_at
            .lock()
            .ok()
            .and_then(|at| at.get(&id).copied())
            .unwrap_or(0)
    }

    /// A receiver that sees every change's version.
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// Runs `f` on a copy of the competition `id` (and of its partner, when it has one) and
    /// the writes it returns; the writes go to the store first, and only when they are
    /// committed do the copies replace the held ones. Nothing changes on an error.
    async fn change<T>(
        &self,
        id: u64,
        store: Option<&dyn Store>,
        f: impl FnOnce(&mut Held, Option<&mut Held>) -> Result<(T, Vec<CompetitionWrite>), WireError>,
    ) -> Result<T, WireError> {
        let mut held = self.held.lock().await;
        let mut mine = held.get(&id).cloned().ok_or_else(|| unknown(id))?;
        let mut partner = mine.partner.and_then(|p| held.get(&p).cloned());
        let (out, writes) = f(&mut mine, partner.as_mut())?;
        if let Some(store) = store {
            if !writes.is_empty() {
                store
                    .competition_write(writes)
                    .await
                    .map_err(|e| store_failed(&e))?;
            }
        }
        let touched = [Some(id), partner.as_ref().map(|p| p.id)];
        if let Some(p) = partner {
            held.insert(p.id, p);
        }
        held.insert(id, mine);
        drop(held);
        self.changed_ids(&touched.into_iter().flatten().collect::<Vec<_>>());
        Ok(out)
    }

    /// Creates a competition; returns its id.
    ///
    /// # Errors
    /// `bad_request_body` for an unknown event or format, rounds out of 1–20, or a partner
    /// that is not a competition of the other event without a partner.
    pub async fn create(
        &self,
        req: CreateRequest,
        store: Option<&dyn Store>,
    ) -> Result<u64, WireError> {
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
        let mut held = self.held.lock().await;
        if let Some(p) = req.partner {
            let ok = held
                .get(&p)
                .is_some_and(|h| h.partner.is_none() && h.core.settings.event != event);
            if !ok {
                return Err(body(
                    "partner: a competition of the other event that has no partner yet",
                ));
            }
        }
        let id = held.keys().next_back().map_or(1, |k| k + 1);
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
        };
        if let Some(store) = store {
            let row = CompetitionRow {
                id,
                name: h.name.clone(),
                settings: serde_json::to_string(&h.settings_json()).unwrap_or_default(),
                created_ms: h.created_ms,
            };
            store
                .competition_write(vec![CompetitionWrite::Competition(row)])
                .await
                .map_err(|e| store_failed(&e))?;
        }
        if let Some(p) = req.partner.and_then(|p| held.get_mut(&p)) {
            p.partner = Some(id);
        }
        held.insert(id, h);
        drop(held);
        self.changed_ids(
            &[Some(id), req.partner]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>(),
        );
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
        store: Option<&dyn Store>,
    ) -> Result<(usize, usize, Vec<IssuedCode>), WireError> {
        self.change(id, store, |mine, partner| {
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
                    import_both(csv, &mut mine.core, &mut p.core)?;
                    let (rows, issued) = p.issue_codes(start);
                    (p.core.entries.len() - start, rows, issued)
                }
                None => {
                    let other = other_event(mine.core.settings.event);
                    let mut scratch = Competition::new(Settings::new(other, 0));
                    import_both(csv, &mut mine.core, &mut scratch)?;
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
    /// (here, and at the entry's open tables: see `tables::reissued`). Returns the code, in
    /// clear this once.
    ///
    /// # Errors
    /// `unknown_competition`; `bad_request_body` for no such entry or player.
    pub async fn reissue(
        &self,
        id: u64,
        entry: u32,
        player: usize,
        store: Option<&dyn Store>,
    ) -> Result<IssuedCode, WireError> {
        self.change(id, store, |mine, _| {
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
            let write = CompetitionWrite::EntryContacts {
                competition: id,
                index: entry,
                contacts: entry_row(id, e, &hashes).contacts,
            };
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
            Ok((issued, vec![write]))
        })
        .await
    }

    /// Pairs the next round (the core's Swiss or knockout pairing from the recorded seed)
    /// and stores it; returns it.
    ///
    /// # Errors
    /// `no_round_left`, `round_unfinished`, `too_few_entries`.
    pub async fn start_round(
        &self,
        id: u64,
        store: Option<&dyn Store>,
    ) -> Result<Round, WireError> {
        self.change(id, store, |mine, _| {
            let round = pair_next_round(&mine.core).map_err(|e| bad(e.code(), e.to_string()))?;
            let started_ms = unix_ms();
            let (row, pairings) = round_rows(mine.id, &round, started_ms);
            mine.round_started_ms.insert(round.number, started_ms);
            mine.core.rounds.push(round.clone());
            Ok((round, vec![CompetitionWrite::Round(row, pairings)]))
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
        store: Option<&dyn Store>,
    ) -> Result<(), WireError> {
        self.change(id, store, |mine, _| {
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
            mine.tables.entry((round, table)).or_default().note = note.to_owned();
            Ok((
                (),
                vec![CompetitionWrite::Result {
                    competition: mine.id,
                    round,
                    table,
                    result: result_name(result).into(),
                    note: note.to_owned(),
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
        store: Option<&dyn Store>,
    ) -> Result<(), WireError> {
        self.change(id, store, |mine, _| {
            mine.core
                .correct(round, table, result, reason)
                .map_err(|e| bad(e.code(), e.to_string()))?;
            let before = mine.core.corrections.last().and_then(|c| c.before);
            let meta = CorrectionMeta {
                author: author.to_owned(),
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
                    reason: reason.to_owned(),
                    author: meta.author.clone(),
                    at_ms: meta.at_ms,
                }),
            ];
            mine.correction_meta.push(meta);
            Ok(((), writes))
        })
        .await
    }

    /// Runs `f` on the competition `id` and its partner, as held now.
    ///
    /// # Errors
    /// `unknown_competition`.
    pub async fn read<T>(
        &self,
        id: u64,
        f: impl FnOnce(&Held, Option<&Held>) -> T,
    ) -> Result<T, WireError> {
        let held = self.held.lock().await;
        let mine = held.get(&id).ok_or_else(|| unknown(id))?;
        let partner = mine.partner.and_then(|p| held.get(&p));
        Ok(f(mine, partner))
    }

    /// Where the holder of the entry code whose hash is `hash` plays next
    /// ([`view::next_table`]); `None` when no entry has that code.
    pub async fn next_table(
        &self,
        hash: &[u8],
        room: &(dyn Fn(u64) -> Option<&'static str> + Sync),
    ) -> Option<Value> {
        let held = self.held.lock().await;
        held.values().find_map(|h| {
            let (entry, player) = h.holder(hash)?;
            Some(view::next_table(h, entry, player, room))
        })
    }

    /// Every competition's id, name and event, by id.
    pub async fn list(&self) -> Vec<(u64, String, &'static str)> {
        self.held
            .lock()
            .await
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

/// Sets the room of a table (opened by [`tables`]).
impl Competitions {
    /// Notes the room a table plays in.
    ///
    /// # Errors
    /// `unknown_competition`, the store's error.
    pub async fn set_room(
        &self,
        id: u64,
        (round, table): (u32, u32),
        room: u64,
        store: Option<&dyn Store>,
    ) -> Result<(), WireError> {
        self.change(id, store, |mine, _| {
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
