//! Competitions: what the server keeps of them, behind [`CompetitionStore`], a
//! supertrait of [`crate::Store`] so that the same `dyn Store` serves both.
//!
//! Like the rest of the store, this knows nothing of the rules: settings, player names and
//! contacts arrive as JSON text, results as their stable names (`first_wins`, …). Contacts are
//! kept for directors only; the server never puts them on a public page.
//!
//! Writes are rare (a director's action, a table's end) and each is its own transaction
//! through [`CompetitionStore::competition_write`]; they do not go through the rooms' group
//! commit.

mod postgres;
mod sqlite;

use crate::{sql, BoxFuture, StoreError, StoreResult};

/// A competition as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompetitionRow {
    pub id: u64,
    pub name: String,
    /// The server's settings, JSON.
    pub settings: String,
    /// Unix time in milliseconds.
    pub created_ms: i64,
}

/// One entry: a Tuolaji pair or a xiangqi player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    pub competition: u64,
    /// From 0, in order of entry.
    pub index: u32,
    pub team: String,
    pub pair_number: Option<u32>,
    /// JSON array of the players' names.
    pub players: String,
    /// JSON, director only.
    pub contacts: String,
}

/// A round as paired: its seed and bye; its tables are [`PairingRow`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRow {
    pub competition: u64,
    pub number: u32,
    pub seed: u64,
    pub bye: Option<u32>,
    /// Unix time in milliseconds.
    pub started_ms: i64,
}

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub competition: u64,
    pub round: u32,
    pub table: u32,
    pub first: u32,
    pub second: u32,
    /// The table's room, once opened.
    pub room: Option<u64>,
    /// The result's stable name, once recorded.
    pub result: Option<String>,
    /// What was recorded beside it (lateness, how the table ended); while a match goes on
    /// without a result, what its finished games' notes said.
    pub note: String,
    /// The stable names of the games already finished at the table while its match goes on
    /// (a xiangqi best of three, a knockout's extra game), comma-separated, in the order
    /// played; empty before the first game ends.
    pub games: String,
    /// When the current game's table opened (Unix ms), for a game after the first: its
    /// lateness counts from there.
    pub game_opened_ms: Option<i64>,
}

/// An arbiter's correction, kept for ever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectionRow {
    pub competition: u64,
    pub round: u32,
    pub table: u32,
    pub before: Option<String>,
    pub after: String,
    pub reason: String,
    /// The director who made it.
    pub author: String,
    pub at_ms: i64,
}

/// An entry's player linked to an account: the account's session takes the player's
/// reserved seat without the entry code, and the account lists the entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkRow {
    pub competition: u64,
    /// The entry's index.
    pub index: u32,
    /// The player's place in the entry (0 or 1 for a pair).
    pub player: u32,
    pub account: u64,
    /// The account's name, as read back (not written: the account keeps it).
    pub account_name: String,
    /// Unix time in milliseconds.
    pub linked_ms: i64,
}

/// A director's session: the hash of its token ([`crate::hash_token`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectorSessionRow {
    pub token_hash: Vec<u8>,
    pub director: String,
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// One change; a batch of them is one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompetitionWrite {
    Competition(CompetitionRow),
    Entry(EntryRow),
    /// An entry's contacts JSON replaced (an entry code reissued, or the hashing of codes
    /// kept in clear by an older server).
    EntryContacts {
        competition: u64,
        index: u32,
        contacts: String,
    },
    /// A round and its tables.
    Round(RoundRow, Vec<PairingRow>),
    /// A table's room was opened.
    TableRoom {
        competition: u64,
        round: u32,
        table: u32,
        room: u64,
    },
    /// A table's result (recorded when it ends, or by a correction).
    Result {
        competition: u64,
        round: u32,
        table: u32,
        result: String,
        note: String,
    },
    Correction(CorrectionRow),
    /// A game of a table's match ended without deciding it: the games finished so far
    /// (comma-separated stable names), their notes, and the next game's room, opened at
    /// `opened_ms` (Unix ms). One write, so that a restart finds the match as it stands.
    NextGame {
        competition: u64,
        round: u32,
        table: u32,
        games: String,
        note: String,
        room: u64,
        opened_ms: i64,
    },
    /// A round published earlier starts at `started_ms` (Unix ms; a time to come when the
    /// director set one).
    RoundStart {
        competition: u64,
        round: u32,
        started_ms: i64,
    },
    /// The latest round undone before any result: its tables and the round go.
    RoundUndone {
        competition: u64,
        round: u32,
    },
    /// The competition's settings JSON replaced (an entry withdrawn).
    Settings {
        competition: u64,
        settings: String,
    },
    /// An entry's player linked to an account (one account per player; one player per
    /// account in a competition: the store refuses a second).
    Link(LinkRow),
    /// The link of an entry's player undone (by its account, a director, or a new code).
    Unlink {
        competition: u64,
        index: u32,
        player: u32,
    },
    DirectorLogin(DirectorSessionRow),
    DirectorLogout {
        token_hash: Vec<u8>,
    },
}

impl CompetitionWrite {
    /// The statements this write runs, in order, for either backend (`crate::sql`).
    pub(crate) fn statements(&self) -> Vec<sql::Statement<'_>> {
        use sql::Value::{Bytes, Int, Null, Text};
        let int = |n: u64| Int(n as i64);
        let small = |n: u32| Int(i64::from(n));
        let statement = |sql, values| sql::Statement { sql, values };
        match self {
            CompetitionWrite::Competition(c) => {
                vec![statement(
                "INSERT INTO competitions (id, name, settings, created_ms) VALUES (?1, ?2, ?3, ?4)",
                vec![int(c.id), Text(&c.name), Text(&c.settings), Int(c.created_ms)],
            )]
            }
            CompetitionWrite::Entry(e) => vec![statement(
                "INSERT INTO competition_entries (competition, idx, team, pair_number, players, \
                 contacts) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                vec![
                    int(e.competition),
                    small(e.index),
                    Text(&e.team),
                    e.pair_number.map_or(Null, small),
                    Text(&e.players),
                    Text(&e.contacts),
                ],
            )],
            CompetitionWrite::Round(r, pairings) => {
                let mut out = vec![statement(
                    "INSERT INTO competition_rounds (competition, number, seed, bye, started_ms) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    vec![
                        int(r.competition),
                        small(r.number),
                        int(r.seed),
                        r.bye.map_or(Null, small),
                        Int(r.started_ms),
                    ],
                )];
                out.extend(pairings.iter().map(|p| {
                    statement(
                        "INSERT INTO competition_pairings (competition, round, table_no, first, \
                         second, room, result, note, games, game_opened_ms) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                        vec![
                            int(p.competition),
                            small(p.round),
                            small(p.table),
                            small(p.first),
                            small(p.second),
                            p.room.map_or(Null, int),
                            p.result.as_deref().map_or(Null, Text),
                            Text(&p.note),
                            Text(&p.games),
                            p.game_opened_ms.map_or(Null, Int),
                        ],
                    )
                }));
                out
            }
            CompetitionWrite::EntryContacts {
                competition,
                index,
                contacts,
            } => vec![statement(
                "UPDATE competition_entries SET contacts = ?3 WHERE competition = ?1 AND idx = ?2",
                vec![int(*competition), small(*index), Text(contacts)],
            )],
            CompetitionWrite::TableRoom {
                competition,
                round,
                table,
                room,
            } => vec![statement(
                "UPDATE competition_pairings SET room = ?4 \
                 WHERE competition = ?1 AND round = ?2 AND table_no = ?3",
                vec![int(*competition), small(*round), small(*table), int(*room)],
            )],
            CompetitionWrite::Result {
                competition,
                round,
                table,
                result,
                note,
            } => vec![statement(
                "UPDATE competition_pairings SET result = ?4, note = ?5 \
                 WHERE competition = ?1 AND round = ?2 AND table_no = ?3",
                vec![
                    int(*competition),
                    small(*round),
                    small(*table),
                    Text(result),
                    Text(note),
                ],
            )],
            CompetitionWrite::NextGame {
                competition,
                round,
                table,
                games,
                note,
                room,
                opened_ms,
            } => vec![statement(
                "UPDATE competition_pairings SET games = ?4, note = ?5, room = ?6, \
                 game_opened_ms = ?7 WHERE competition = ?1 AND round = ?2 AND table_no = ?3",
                vec![
                    int(*competition),
                    small(*round),
                    small(*table),
                    Text(games),
                    Text(note),
                    int(*room),
                    Int(*opened_ms),
                ],
            )],
            CompetitionWrite::Correction(c) => vec![statement(
                "INSERT INTO competition_corrections (competition, round, table_no, before, after, \
                 reason, author, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                vec![
                    int(c.competition),
                    small(c.round),
                    small(c.table),
                    c.before.as_deref().map_or(Null, Text),
                    Text(&c.after),
                    Text(&c.reason),
                    Text(&c.author),
                    Int(c.at_ms),
                ],
            )],
            CompetitionWrite::RoundStart {
                competition,
                round,
                started_ms,
            } => vec![statement(
                "UPDATE competition_rounds SET started_ms = ?3 WHERE competition = ?1 AND number = ?2",
                vec![int(*competition), small(*round), Int(*started_ms)],
            )],
            CompetitionWrite::RoundUndone { competition, round } => vec![
                statement(
                    "DELETE FROM competition_pairings WHERE competition = ?1 AND round = ?2",
                    vec![int(*competition), small(*round)],
                ),
                statement(
                    "DELETE FROM competition_rounds WHERE competition = ?1 AND number = ?2",
                    vec![int(*competition), small(*round)],
                ),
            ],
            CompetitionWrite::Settings {
                competition,
                settings,
            } => vec![statement(
                "UPDATE competitions SET settings = ?2 WHERE id = ?1",
                vec![int(*competition), Text(settings)],
            )],
            CompetitionWrite::Link(l) => vec![statement(
                "INSERT INTO competition_entry_accounts (competition, idx, player, account, \
                 linked_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                vec![
                    int(l.competition),
                    small(l.index),
                    small(l.player),
                    int(l.account),
                    Int(l.linked_ms),
                ],
            )],
            CompetitionWrite::Unlink {
                competition,
                index,
                player,
            } => vec![statement(
                "DELETE FROM competition_entry_accounts \
                 WHERE competition = ?1 AND idx = ?2 AND player = ?3",
                vec![int(*competition), small(*index), small(*player)],
            )],
            CompetitionWrite::DirectorLogin(s) => vec![statement(
                "INSERT INTO director_sessions (token_hash, director, created_ms, expires_ms) \
                 VALUES (?1, ?2, ?3, ?4)",
                vec![
                    Bytes(&s.token_hash),
                    Text(&s.director),
                    Int(s.created_ms),
                    Int(s.expires_ms),
                ],
            )],
            CompetitionWrite::DirectorLogout { token_hash } => vec![statement(
                "DELETE FROM director_sessions WHERE token_hash = ?1",
                vec![Bytes(token_hash)],
            )],
        }
    }
}

/// Everything kept of one competition, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompetitionLog {
    pub competition: CompetitionRow,
    /// By index.
    pub entries: Vec<EntryRow>,
    /// By number.
    pub rounds: Vec<RoundRow>,
    /// By round, then table.
    pub pairings: Vec<PairingRow>,
    /// In the order they were made.
    pub corrections: Vec<CorrectionRow>,
    /// The entries' players linked to accounts, by entry, then player.
    pub links: Vec<LinkRow>,
}

fn u(n: i64) -> u64 {
    n as u64
}

const UNSUPPORTED: &str = "this store keeps no competitions";

/// The competitions' part of the store. The defaults refuse (a test's double need not
/// implement them); both backends implement every method.
pub trait CompetitionStore: Send + Sync + 'static {
    /// Writes `batch` in one transaction: all of it, or (on error) none of it.
    fn competition_write(&self, batch: Vec<CompetitionWrite>) -> BoxFuture<'_, StoreResult<()>> {
        drop(batch);
        Box::pin(async { Err(StoreError::Unsupported(UNSUPPORTED)) })
    }
    /// Every competition with everything kept of it, by id.
    fn competitions(&self) -> BoxFuture<'_, StoreResult<Vec<CompetitionLog>>> {
        Box::pin(async { Err(StoreError::Unsupported(UNSUPPORTED)) })
    }
    /// The director session stored under `token_hash`, if any (expired ones included: the
    /// caller compares `expires_ms`).
    fn director_session(
        &self,
        token_hash: Vec<u8>,
    ) -> BoxFuture<'_, StoreResult<Option<DirectorSessionRow>>> {
        drop(token_hash);
        Box::pin(async { Err(StoreError::Unsupported(UNSUPPORTED)) })
    }
}

/// Groups rows by competition id (rows sorted by it), for [`CompetitionLog`].
fn take_for<T>(
    rows: &mut std::iter::Peekable<std::vec::IntoIter<T>>,
    id: u64,
    of: impl Fn(&T) -> u64,
) -> Vec<T> {
    let mut out = Vec::new();
    while let Some(row) = rows.next_if(|r| of(r) == id) {
        out.push(row);
    }
    out
}

/// Every link with its account's name, for either backend (`sql::postgres` for `$N`).
pub(crate) const LINKS: &str = "SELECT l.competition, l.idx, l.player, l.account, a.name, \
    l.linked_ms FROM competition_entry_accounts l JOIN accounts a ON a.id = l.account \
    ORDER BY l.competition, l.idx, l.player";

/// Every table's rows, each list sorted by competition first.
struct Rows {
    competitions: Vec<CompetitionRow>,
    entries: Vec<EntryRow>,
    rounds: Vec<RoundRow>,
    pairings: Vec<PairingRow>,
    corrections: Vec<CorrectionRow>,
    links: Vec<LinkRow>,
}

/// Assembles the logs from each table's rows.
fn assemble(rows: Rows) -> Vec<CompetitionLog> {
    let Rows {
        competitions,
        entries,
        rounds,
        pairings,
        corrections,
        links,
    } = rows;
    let mut links = links.into_iter().peekable();
    let mut entries = entries.into_iter().peekable();
    let mut rounds = rounds.into_iter().peekable();
    let mut pairings = pairings.into_iter().peekable();
    let mut corrections = corrections.into_iter().peekable();
    competitions
        .into_iter()
        .map(|c| {
            let id = c.id;
            // Rows of competitions that no longer exist cannot be: foreign keys.
            CompetitionLog {
                entries: take_for(&mut entries, id, |r| r.competition),
                rounds: take_for(&mut rounds, id, |r| r.competition),
                pairings: take_for(&mut pairings, id, |r| r.competition),
                corrections: take_for(&mut corrections, id, |r| r.competition),
                links: take_for(&mut links, id, |r| r.competition),
                competition: c,
            }
        })
        .collect()
}
