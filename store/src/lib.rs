//! qipai's durable store: everything that must survive a crash.
//!
//! - [`Store`]: the one trait, with two backends: [`sqlite::SqliteStore`] (embedded, the
//!   default, WAL mode) and [`postgres::PostgresStore`] (a server, for several nodes).
//! - [`Write`]: what the server writes: rooms, game steps (every input a game was given,
//!   with its time), seat changes, results, sessions (resume tokens hashed), records.
//! - [`writer::Writer`]: group commit — one task takes whatever the rooms have ready, writes
//!   it in one transaction and acknowledges each item after the commit.
//! - [`health::Health`]: whether the store can write now, and why not (`/healthz`, rooms).
//! - [`migrate`]: versioned SQL files under `migrations/`, applied at start-up.
//! - [`retention`]: what a sweep deletes (abandoned rooms, expired sessions), so that the
//!   store stays bounded.
//!
//! The store knows nothing of games: actions and options arrive as the protocol's
//! MessagePack bytes, results and records as JSON text.

pub mod accounts;
pub mod competition;
pub mod health;
pub mod migrate;
pub mod postgres;
pub mod retention;
pub mod sql;
pub mod sqlite;
pub mod writer;

pub use sqlite::SqliteSync;

use std::future::Future;
use std::path::Path;
use std::pin::Pin;

/// A boxed future, so that [`Store`] can be used as `dyn Store`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("postgres: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// No connection to PostgreSQL could be had (the database is down or unreachable).
    #[error("postgres: no connection: {0}")]
    Pool(String),
    /// Fencing, several nodes: a step of `room` written at `written`, below the room's
    /// `epoch` (another node took the room over); nothing of its batch was committed.
    #[error("fenced: a step of room {room} at epoch {written} is below the room's epoch {epoch}")]
    Fenced { room: u64, written: u64, epoch: u64 },
    #[error("the store's task failed: {0}")]
    Task(String),
    #[error("the store's writer has stopped")]
    WriterGone,
    #[error("{0}")]
    Unsupported(&'static str),
}

/// Results of store calls.
pub type StoreResult<T> = Result<T, StoreError>;

/// A room as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    pub id: u64,
    /// The protocol's game name (`xiangqi`, `tuolaji`).
    pub game: String,
    /// The protocol's `RoomOptions`, MessagePack, defaults filled in.
    pub options: Vec<u8>,
    pub seed: u64,
    /// Unix time in milliseconds.
    pub created_ms: i64,
    /// The short number people read and say (`None` before rooms had one, and with
    /// several nodes, whose counts would collide).
    pub number: Option<u64>,
    /// The address that opened it, as the per-address budgets key it (`None`: the server's
    /// own room, or written before addresses were kept): a room reopened after a restart
    /// counts against it again.
    pub addr: Option<String>,
}

/// What kind of input a game was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Every seat was filled: `Game::start`.
    Start = 0,
    /// A player's action: `Game::apply`.
    Action = 1,
    /// The game's deadline came: `Game::on_deadline`.
    Deadline = 2,
    /// A seat was given up: `Game::forfeit`.
    Forfeit = 3,
    /// A newcomer sat in a forfeited seat: `Game::reseat`.
    Reseat = 4,
    /// An arbiter's ruling (a competition's lateness): `Game::rule`, the ruling in `action`.
    Ruling = 5,
    /// The last action's events left the server (after its commit): `Game::sent`, from
    /// which a clock that action started runs. Logged with the next write when no step
    /// follows to carry it ([`StepRow::sent_ms`]).
    Sent = 6,
}

impl StepKind {
    /// The kind stored as `n`, if any.
    pub fn from_i64(n: i64) -> Option<StepKind> {
        Some(match n {
            0 => StepKind::Start,
            1 => StepKind::Action,
            2 => StepKind::Deadline,
            3 => StepKind::Forfeit,
            4 => StepKind::Reseat,
            5 => StepKind::Ruling,
            6 => StepKind::Sent,
            _ => return None,
        })
    }
}

/// One input given to a room's game, in order: replaying a room's steps through the same
/// game code rebuilds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    pub room: u64,
    /// 0, 1, 2, … per room.
    pub index: u64,
    pub kind: StepKind,
    pub seat: u8,
    /// On the server's time line (milliseconds).
    pub at_ms: u64,
    /// The lag allowance of an action.
    pub lag_ms: u64,
    /// The protocol's `GameAction`, MessagePack, for [`StepKind::Action`].
    pub action: Option<Vec<u8>>,
    /// The room's event sequence number before the step.
    pub event_seq: u64,
    /// The owner's lease epoch when it wrote the step (0: the room's first owner, or one
    /// node alone); the store refuses a step below the room's epoch (fencing).
    pub epoch: u64,
    /// When the room's last answers left, if that is not logged yet (`Game::sent` at that
    /// moment, replayed before this step): the moment an action's answer is sent rides on
    /// the next step's row instead of a [`StepKind::Sent`] row of its own, so an action
    /// writes one row, not two.
    pub sent_ms: Option<u64>,
}

/// Somebody sat down (`player` set) or a seat was freed (`player` `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub room: u64,
    pub seat: u8,
    pub player: Option<u64>,
    pub name: String,
    /// The signed-in account the player plays as (`None`: a guest, a bot, a free seat).
    pub account: Option<u64>,
    pub bot: bool,
    pub at_ms: u64,
}

/// A session: a player and the hash of their resume token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// [`hash_token`] of the resume token.
    pub token_hash: Vec<u8>,
    pub player: u64,
    pub name: String,
    /// The signed-in account the player plays as (`None`: a guest).
    pub account: Option<u64>,
    pub bot: bool,
    pub created_ms: i64,
}

/// A finished game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordRow {
    pub room: u64,
    pub game: String,
    pub finished_ms: i64,
    /// The record as JSON.
    pub body: String,
    /// The xiangqi record as PGN-style text other software reads.
    pub pgn: Option<String>,
    /// The name at each seat, by seat.
    pub players: Vec<String>,
    /// The signed-in account at each seat, by seat (`None`: a guest, a bot, a free seat).
    pub accounts: Vec<Option<u64>>,
    /// What a list of games shows of it: a small JSON object with the body's own keys
    /// (`players`, `result`, `number`, `title`); `None` in records written before.
    pub summary: Option<String>,
}

/// Where a page of a player's list of games starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesFrom {
    /// After skipping this many of the newest (the list read as numbered pages).
    Offset(u64),
    /// Right after the game that ended at `finished_ms` in room `room` (the last one of the
    /// previous page): a cursor by the time games ended, which a game ending meanwhile does
    /// not shift.
    Before { finished_ms: i64, room: u64 },
}

impl GamesFrom {
    /// The cursor's bounds and the offset, as the query binds them: `(finished_ms, room,
    /// offset)`; an offset starts below every game.
    pub(crate) fn bounds(self) -> (i64, i64, i64) {
        match self {
            GamesFrom::Offset(n) => (i64::MAX, i64::MAX, i64::try_from(n).unwrap_or(i64::MAX)),
            GamesFrom::Before { finished_ms, room } => {
                (finished_ms, i64::try_from(room).unwrap_or(i64::MAX), 0)
            }
        }
    }
}

/// The query of a page of a player's games, for either backend (`sql::postgres` for `$N`):
/// the rows come off the index `record_players (name, finished_ms, room)` newest first, and
/// each reads its record's game and summary (the whole body only for a record written before
/// summaries were kept).
pub(crate) const PLAYER_GAMES: &str = "SELECT p.room, r.game, p.finished_ms, p.seat, \
    COALESCE(r.summary, r.body) \
    FROM record_players p JOIN records r ON r.room = p.room WHERE p.name = ?1 \
    AND (p.finished_ms < ?3 OR (p.finished_ms = ?3 AND p.room < ?4)) \
    ORDER BY p.finished_ms DESC, p.room DESC LIMIT ?2 OFFSET ?5";

/// One line of a player's list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub room: u64,
    pub game: String,
    pub finished_ms: i64,
    pub seat: u8,
    /// The record's summary ([`RecordRow::summary`]), or its body when it has none: JSON
    /// with the same keys either way.
    pub summary: String,
}

/// Something to write; the writer puts a batch of them in one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    Room(RoomRow),
    Step(StepRow),
    Seat(SeatRow),
    /// The game ended with this result (JSON): the room is finished.
    Result {
        room: u64,
        result: String,
        finished_ms: i64,
    },
    /// The room closed without a result (abandoned, or its log could not be replayed).
    Closed {
        room: u64,
        reason: String,
    },
    Session(SessionRow),
    Record(RecordRow),
    /// A room's short number was handed out: the count goes on after it (kept at the
    /// largest), even if that room is never written.
    RoomNumber(u64),
    /// An account's change that belongs with a game's steps.
    Account(accounts::AccountWrite),
    /// A rated game's ratings, computed in the transaction of its last step from the
    /// ratings read there ([`accounts::RatingUpdate`]).
    Rate(accounts::RatingUpdate),
}

/// An unfinished room with everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomLog {
    pub room: RoomRow,
    /// In order.
    pub steps: Vec<StepRow>,
    /// In order; the last row per seat says who sits there.
    pub seats: Vec<SeatRow>,
    /// The room's lease epoch (raised by each takeover; 0 before any).
    pub epoch: u64,
    /// Milliseconds the room spent without an owner, kept off its clocks (takeovers add to it).
    pub skew_ms: u64,
}

/// The durable store. Every method is one round trip (or one transaction) to the backend.
/// Competitions' methods are in the supertrait [`competition::CompetitionStore`], accounts'
/// in [`accounts::AccountStore`].
pub trait Store:
    competition::CompetitionStore + accounts::AccountStore + Send + Sync + 'static
{
    /// Applies the migrations not yet applied; returns the schema version.
    fn migrate(&self) -> BoxFuture<'_, StoreResult<u32>>;
    /// Writes `batch` in one transaction: all of it, or (on error) none of it.
    fn write(&self, batch: Vec<Write>) -> BoxFuture<'_, StoreResult<()>>;
    /// One more than the largest room id ever stored (1 when none).
    fn next_room_id(&self) -> BoxFuture<'_, StoreResult<u64>>;
    /// The next room's short number: the largest handed out plus one (1 for an empty store).
    fn next_room_number(&self) -> BoxFuture<'_, StoreResult<u64>>;
    /// The largest player id of any stored session (0 when none).
    fn max_player_id(&self) -> BoxFuture<'_, StoreResult<u64>>;
    /// The latest moment on the server's time line that any step or seat change names.
    fn last_time(&self) -> BoxFuture<'_, StoreResult<u64>>;
    /// Every room still open, with its log.
    fn unfinished(&self) -> BoxFuture<'_, StoreResult<Vec<RoomLog>>>;
    /// Room `room`'s log, `None` when it is not open: what a room whose step the store
    /// refused rebuilds itself from. By default read from [`Store::unfinished`].
    fn room_log(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RoomLog>>> {
        Box::pin(async move {
            let logs = self.unfinished().await?;
            Ok(logs.into_iter().find(|log| log.room.id == room))
        })
    }
    /// The sessions of players who sit in an open room, or sat in a room whose game
    /// finished at `finished_since_ms` (Unix time) or later: their resume tokens still work.
    fn open_sessions(&self, finished_since_ms: i64) -> BoxFuture<'_, StoreResult<Vec<SessionRow>>>;
    /// A finished game's record.
    fn record(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RecordRow>>>;
    /// The finished games `name` sat in, newest first by the time they ended (then by room
    /// id, for games that ended in the same millisecond), `limit` of them from `from`.
    fn player_games(
        &self,
        name: String,
        from: GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<GameSummary>>>;
    /// Deletes the steps and seat changes of rooms finished or closed before `before_ms`
    /// (Unix time); their records stay. Returns how many rows went.
    fn prune(&self, before_ms: i64) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes what [`retention::Sweep`] says has expired (abandoned rooms, sessions), in
    /// one transaction.
    fn sweep(&self, sweep: retention::Sweep) -> BoxFuture<'_, StoreResult<retention::Swept>>;
    /// The store's size in bytes: SQLite's pages in use (`page_count * page_size`, the WAL
    /// aside), PostgreSQL's `pg_database_size`.
    fn size_bytes(&self) -> BoxFuture<'_, StoreResult<u64>>;
    /// Takes room `room` over at lease epoch `epoch` (several nodes): in one
    /// transaction raises the room's epoch (from then on steps below it are refused), adds
    /// `add_skew_ms` to its ownerless time, and reads its log. `None` when the room is not
    /// open or its epoch is already `epoch` or above (somebody else took it).
    fn take_over(
        &self,
        room: u64,
        epoch: u64,
        add_skew_ms: u64,
    ) -> BoxFuture<'_, StoreResult<Option<RoomLog>>> {
        let _ = (room, epoch, add_skew_ms);
        Box::pin(async {
            Err(StoreError::Unsupported(
                "takeovers need the PostgreSQL store",
            ))
        })
    }
    /// One round trip to the backend: `Ok` when it answers (the writer's health probe). An
    /// embedded store is always there.
    fn ping(&self) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async { Ok(()) })
    }
    /// Copies the whole store, online, into a new file at `path` (SQLite only).
    fn backup<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, StoreResult<()>>;
}

/// The hash a resume token is stored under (SHA-256): a stolen database gives no token.
pub fn hash_token(token: &str) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).to_vec()
}

/// `bytes` in lower-case hex (tokens, and hashes where text is kept).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of hex text written by [`hex`]; `None` when it is not hex.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect()
}

/// Unix time now, in milliseconds.
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Folds seat changes into who sits where: per seat, the last change.
pub fn seated(seats: &[SeatRow], count: usize) -> Vec<Option<SeatRow>> {
    let mut out = vec![None; count];
    for row in seats {
        if let Some(slot) = out.get_mut(usize::from(row.seat)) {
            *slot = row.player.map(|_| row.clone());
        }
    }
    out
}

/// Opens the store that `url` names: `postgres://…` or `postgresql://…` for PostgreSQL,
/// anything else is a SQLite file path (`sqlite://` prefix optional). Migrations are applied.
///
/// # Errors
/// The backend's error when it cannot be opened or migrated.
pub async fn open(url: &str) -> StoreResult<std::sync::Arc<dyn Store>> {
    open_with(url, SqliteSync::Full).await
}

/// [`open`], a SQLite file's commits flushed to the disk as `sync` says (a PostgreSQL
/// server's own settings decide there: `synchronous_commit`, which the URL may set for the
/// connection with `?options=-c%20synchronous_commit%3Doff`).
///
/// # Errors
/// As [`open`].
pub async fn open_with(url: &str, sync: SqliteSync) -> StoreResult<std::sync::Arc<dyn Store>> {
    let store: std::sync::Arc<dyn Store> =
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            std::sync::Arc::new(postgres::PostgresStore::connect(url).await?)
        } else {
            let path = url.strip_prefix("sqlite://").unwrap_or(url);
            std::sync::Arc::new(sqlite::SqliteStore::open(Path::new(path), sync).await?)
        };
    let version = store.migrate().await?;
    tracing::info!(version, "store ready");
    Ok(store)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_reads_back_what_it_writes() {
        let bytes = hash_token("ABCDEFGHJKLM");
        let text = hex(&bytes);
        assert_eq!(text.len(), 64);
        assert_eq!(from_hex(&text), Some(bytes));
        assert_eq!(hex(&[0, 15, 255]), "000fff");
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("zz"), None);
    }
}
