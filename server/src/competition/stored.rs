//! A competition as the store keeps it (`qipai_store::competition`'s rows), and back.
//!
//! Every stored value is read as a named type: an event, a format or a result this server
//! does not know, contacts or players that are not the JSON it writes, a code hash that is
//! not hex, is an [`Unreadable`] naming the row, never a default. A wrong guess (a knockout
//! read as Swiss, a correction dropped, contacts lost) would change standings or awards
//! without anybody seeing it.

use std::collections::{BTreeMap, HashMap};

use qipai_games::competition::{
    Bye, Competition, Contact, DirectorOnly, EntryId, Event, Format, GameResult, Pairing, Player,
    Round, Settings,
};
use qipai_store::competition::{CompetitionLog, EntryRow, PairingRow, RoundRow};
use serde::{Deserialize, Serialize};

use super::{code_hash, result_name, table_options, CorrectionMeta, Held, TableExtra};

/// A stored value this server cannot read, and the row it is in.
#[derive(Debug, thiserror::Error)]
#[error("{row}: {problem}")]
pub struct Unreadable {
    /// Table and key, e.g. `competition_pairings (competition 3, round 2, table 1)`.
    pub row: String,
    pub problem: String,
}

/// The event as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredEvent {
    Tuolaji,
    Xiangqi,
}

impl From<Event> for StoredEvent {
    fn from(e: Event) -> StoredEvent {
        match e {
            Event::TuolajiPairs => StoredEvent::Tuolaji,
            Event::XiangqiSingles => StoredEvent::Xiangqi,
        }
    }
}

impl From<StoredEvent> for Event {
    fn from(e: StoredEvent) -> Event {
        match e {
            StoredEvent::Tuolaji => Event::TuolajiPairs,
            StoredEvent::Xiangqi => Event::XiangqiSingles,
        }
    }
}

/// The format as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredFormat {
    Swiss,
    Knockout,
}

impl From<Format> for StoredFormat {
    fn from(f: Format) -> StoredFormat {
        match f {
            Format::Swiss => StoredFormat::Swiss,
            Format::Knockout => StoredFormat::Knockout,
        }
    }
}

impl From<StoredFormat> for Format {
    fn from(f: StoredFormat) -> Format {
        match f {
            StoredFormat::Swiss => Format::Swiss,
            StoredFormat::Knockout => Format::Knockout,
        }
    }
}

/// A competition's settings as created and stored (JSON in `competitions.settings`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredSettings {
    pub event: StoredEvent,
    pub format: StoredFormat,
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
    /// The entries a director withdrew (by number).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<u32>,
}

/// Contacts of an entry's players and their entry codes, director only (JSON in the store).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactJson {
    pub phone: String,
    pub joined_group: String,
    /// The entry code in clear, as servers before the codes were hashed kept it: read
    /// only to hash it when the store is loaded ([`super::Competitions::load`]), never
    /// written.
    #[serde(default, skip_serializing)]
    pub code: String,
    /// The SHA-256 of the player's entry code ([`code_hash`]), in hex.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub code_hash: String,
}

/// The row of entry `e` of `competition`, with its players' code hashes.
pub fn entry_row(
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

/// `competition_rounds.started_ms` of a round published and not started yet: the column
/// is not null, and no round starts at the Unix epoch.
const NOT_STARTED: i64 = 0;

/// The rows of round `r` of `competition`, starting at `started_ms` (none: not started yet).
pub fn round_rows(
    competition: u64,
    r: &Round,
    started_ms: Option<i64>,
) -> (RoundRow, Vec<PairingRow>) {
    (
        RoundRow {
            competition,
            number: r.number,
            seed: r.seed,
            bye: r.bye.map(|b| b.entry.0),
            started_ms: started_ms.unwrap_or(NOT_STARTED),
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
                games: String::new(),
                game_opened_ms: None,
            })
            .collect(),
    )
}

/// A result read back by its stable name.
fn stored_result(name: &str, row: impl FnOnce() -> String) -> Result<GameResult, Unreadable> {
    super::parse_result(name).ok_or_else(|| Unreadable {
        row: row(),
        problem: format!("unknown result {name:?}"),
    })
}

/// `value` read as JSON of type `T`, or what is wrong with it in `row`.
fn json<T: serde::de::DeserializeOwned>(
    value: &str,
    column: &str,
    row: impl FnOnce() -> String,
) -> Result<T, Unreadable> {
    serde_json::from_str(value).map_err(|e| Unreadable {
        row: row(),
        problem: format!("{column}: {e}"),
    })
}

/// An entry row's players as read.
struct EntryPlayers {
    players: Vec<Player>,
    /// Each player's code hash (empty: none).
    hashes: Vec<Vec<u8>>,
    /// Whether a code was kept in clear (an older server's), to hash and write back.
    in_clear: bool,
}

/// The players of an entry row, with their code hashes.
fn players(e: &EntryRow) -> Result<EntryPlayers, Unreadable> {
    let row = || {
        format!(
            "competition_entries (competition {}, entry {})",
            e.competition, e.index
        )
    };
    let names: Vec<String> = json(&e.players, "players", row)?;
    let contacts: Vec<Option<ContactJson>> = json(&e.contacts, "contacts", row)?;
    let mut players = Vec::with_capacity(names.len());
    let mut hashes = Vec::with_capacity(names.len());
    for (i, name) in names.into_iter().enumerate() {
        let c = contacts.get(i).cloned().flatten();
        let hash = match &c {
            Some(c) if !c.code.is_empty() => code_hash(&c.code),
            Some(c) if !c.code_hash.is_empty() => {
                qipai_store::from_hex(&c.code_hash).ok_or_else(|| Unreadable {
                    row: row(),
                    problem: format!("contacts: player {i}: code_hash is not hex"),
                })?
            }
            _ => Vec::new(),
        };
        hashes.push(hash);
        let contact = c
            .filter(|c| !c.phone.is_empty() || !c.joined_group.is_empty())
            .map(|c| {
                DirectorOnly(Contact {
                    phone: c.phone,
                    joined_group: c.joined_group,
                })
            });
        players.push(Player { name, contact });
    }
    let in_clear = contacts.iter().flatten().any(|c| !c.code.is_empty());
    Ok(EntryPlayers {
        players,
        hashes,
        in_clear,
    })
}

impl Held {
    /// The settings as stored.
    pub(super) fn stored_settings(&self) -> StoredSettings {
        let s = &self.core.settings;
        StoredSettings {
            event: s.event.into(),
            format: s.format.into(),
            rounds: s.rounds,
            best_of_three: s.best_of_three,
            one_event_only: s.one_event_only,
            xiangqi_lateness_limit_min: s.xiangqi_lateness_limit_min,
            seed: s.seed,
            partner: self.partner,
            table_options: serde_json::to_value(&self.table_options).ok(),
            lateness_unit_ms: Some(self.lateness_unit_ms),
            withdrawn: self.core.withdrawn.iter().map(|e| e.0).collect(),
        }
    }

    /// Rebuilds a competition from what the store kept; with the entries whose codes the
    /// store kept in clear (an older server's), now hashed, to write back.
    ///
    /// # Errors
    /// [`Unreadable`] for the first stored value it cannot read.
    pub(super) fn from_log(log: CompetitionLog) -> Result<(Held, Vec<u32>), Unreadable> {
        let id = log.competition.id;
        let competition_row = || format!("competitions (id {id})");
        let s: StoredSettings = json(&log.competition.settings, "settings", competition_row)?;
        let event = Event::from(s.event);
        let mut core = Competition::new(Settings {
            event,
            format: s.format.into(),
            rounds: s.rounds,
            best_of_three: s.best_of_three,
            one_event_only: s.one_event_only,
            xiangqi_lateness_limit_min: s.xiangqi_lateness_limit_min,
            seed: s.seed,
        });
        core.withdrawn = s.withdrawn.iter().map(|e| EntryId(*e)).collect();
        let mut code_hashes = BTreeMap::new();
        let mut in_clear = Vec::new();
        for e in log.entries {
            let read = players(&e)?;
            if read.in_clear {
                in_clear.push(e.index);
            }
            code_hashes.insert(e.index, read.hashes);
            core.entries.push(qipai_games::competition::Entry {
                id: EntryId(e.index),
                team: qipai_games::competition::Team(e.team),
                pair_number: e.pair_number,
                players: read.players,
            });
        }
        let mut tables = HashMap::new();
        let mut round_started_ms = BTreeMap::new();
        for r in &log.rounds {
            if r.started_ms != NOT_STARTED {
                round_started_ms.insert(r.number, r.started_ms);
            }
            let mut pairings = Vec::new();
            for p in log.pairings.iter().filter(|p| p.round == r.number) {
                let row = || {
                    format!(
                        "competition_pairings (competition {id}, round {}, table {})",
                        p.round, p.table
                    )
                };
                let games = p
                    .games
                    .split(',')
                    .filter(|g| !g.is_empty())
                    .map(|g| stored_result(g, row))
                    .collect::<Result<_, _>>()?;
                tables.insert(
                    (p.round, p.table),
                    TableExtra {
                        room: p.room,
                        note: p.note.clone(),
                        games,
                        game_opened_ms: p.game_opened_ms,
                    },
                );
                let result = match &p.result {
                    Some(name) => Some(stored_result(name, row)?),
                    None => None,
                };
                pairings.push(Pairing {
                    table: p.table,
                    first: EntryId(p.first),
                    second: EntryId(p.second),
                    result,
                });
            }
            core.rounds.push(Round {
                number: r.number,
                pairings,
                bye: r.bye.map(|b| Bye { entry: EntryId(b) }),
                seed: r.seed,
            });
        }
        let mut correction_meta = Vec::new();
        for (n, c) in log.corrections.into_iter().enumerate() {
            let row = || {
                format!(
                    "competition_corrections (competition {id}, round {}, table {}, correction {})",
                    c.round,
                    c.table,
                    n + 1
                )
            };
            let after = stored_result(&c.after, row)?;
            let before = match &c.before {
                Some(name) => Some(stored_result(name, row)?),
                None => None,
            };
            core.corrections.push(qipai_games::competition::Correction {
                round: c.round,
                table: c.table,
                before,
                after,
                reason: c.reason,
            });
            correction_meta.push(CorrectionMeta {
                author: c.author,
                at_ms: c.at_ms,
            });
        }
        let table_options =
            table_options(event, s.table_options).map_err(|problem| Unreadable {
                row: competition_row(),
                problem: format!("settings: {problem}"),
            })?;
        let held = Held {
            id,
            name: log.competition.name,
            created_ms: log.competition.created_ms,
            partner: s.partner,
            table_options,
            lateness_unit_ms: s.lateness_unit_ms.unwrap_or(60_000).max(1),
            core,
            tables,
            correction_meta,
            round_started_ms,
            code_hashes,
            links: log
                .links
                .into_iter()
                .map(|l| {
                    let linked = super::links::Linked {
                        account: l.account,
                        name: l.account_name,
                    };
                    ((l.index, l.player as usize), linked)
                })
                .collect(),
        };
        Ok((held, in_clear))
    }
}

#[cfg(test)]
mod tests {
    use qipai_store::competition::{CompetitionRow, CorrectionRow};

    use super::*;

    const SETTINGS: &str = r#"{"event":"xiangqi","format":"swiss","rounds":3,"best_of_three":false,"one_event_only":true,"xiangqi_lateness_limit_min":15,"seed":5,"partner":null}"#;

    /// Competition 7 with two xiangqi players, round 1 played, and one correction.
    fn log() -> CompetitionLog {
        let entry = |index: u32, name: &str| EntryRow {
            competition: 7,
            index,
            team: "工会甲".into(),
            pair_number: None,
            players: format!("[\"{name}\"]"),
            contacts: "[null]".into(),
        };
        CompetitionLog {
            competition: CompetitionRow {
                id: 7,
                name: "象棋".into(),
                settings: SETTINGS.into(),
                created_ms: 1,
            },
            entries: vec![entry(0, "赵一"), entry(1, "钱一")],
            rounds: vec![RoundRow {
                competition: 7,
                number: 1,
                seed: 9,
                bye: None,
                started_ms: 2,
            }],
            pairings: vec![PairingRow {
                competition: 7,
                round: 1,
                table: 1,
                first: 0,
                second: 1,
                room: None,
                result: Some("draw".into()),
                note: String::new(),
                games: String::new(),
                game_opened_ms: None,
            }],
            corrections: vec![CorrectionRow {
                competition: 7,
                round: 1,
                table: 1,
                before: Some("first_wins".into()),
                after: "draw".into(),
                reason: "录错".into(),
                author: "director".into(),
                at_ms: 3,
            }],
            links: Vec::new(),
        }
    }

    fn refusal(log: CompetitionLog) -> String {
        match Held::from_log(log) {
            Ok(_) => panic!("read"),
            Err(e) => e.to_string(),
        }
    }

    /// What the server writes, it reads back.
    #[test]
    fn a_stored_competition_is_read_back() {
        let (held, in_clear) = Held::from_log(log()).expect("read");
        assert!(in_clear.is_empty());
        assert_eq!(held.core.settings.format, Format::Swiss);
        assert_eq!(held.core.corrections.len(), 1);
        let settings = serde_json::to_value(held.stored_settings()).expect("json");
        assert_eq!(
            (settings["event"].as_str(), settings["format"].as_str()),
            (Some("xiangqi"), Some("swiss"))
        );
    }

    /// An unknown format is not Swiss: the row is named.
    #[test]
    fn an_unknown_format_is_refused() {
        let mut l = log();
        l.competition.settings = SETTINGS.replace("swiss", "round_robin");
        let e = refusal(l);
        assert!(
            e.starts_with("competitions (id 7): settings: unknown variant `round_robin`"),
            "{e}"
        );
    }

    /// Unreadable contacts are not "none": the entry is named.
    #[test]
    fn unreadable_contacts_are_refused() {
        let mut l = log();
        l.entries[1].contacts = "{".into();
        let e = refusal(l);
        assert!(
            e.starts_with("competition_entries (competition 7, entry 1): contacts:"),
            "{e}"
        );
        let mut l = log();
        l.entries[0].contacts = r#"[{"phone":"","joined_group":"","code_hash":"zz"}]"#.into();
        let e = refusal(l);
        assert!(e.contains("code_hash is not hex"), "{e}");
    }

    /// A result or a correction with an unknown result is not dropped: its row is named.
    #[test]
    fn unknown_results_are_refused() {
        let mut l = log();
        l.pairings[0].result = Some("win".into());
        let e = refusal(l);
        assert_eq!(
            e,
            "competition_pairings (competition 7, round 1, table 1): unknown result \"win\""
        );
        let mut l = log();
        l.corrections[0].after = "win".into();
        let e = refusal(l);
        assert!(
            e.starts_with(
                "competition_corrections (competition 7, round 1, table 1, correction 1)"
            ),
            "{e}"
        );
    }
}
