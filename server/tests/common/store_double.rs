//! A store double: a real store behind the `Store` trait whose writes go through a hook the
//! test controls (to fail them, hang them or hold them back); every other call goes to the
//! real store.

use std::sync::Arc;

use qipai_store::competition::{CompetitionLog, CompetitionStore, CompetitionWrite};
use qipai_store::{
    BoxFuture, GameSummary, GamesFrom, RecordRow, RoomLog, SessionRow, Store, StoreResult, Write,
};

/// What a write does: given the batch and the real store.
pub type WriteHook =
    Arc<dyn Fn(Vec<Write>, Arc<dyn Store>) -> BoxFuture<'static, StoreResult<()>> + Send + Sync>;

/// The real store `inner`, its writes through `write`.
pub struct Hooked {
    pub inner: Arc<dyn Store>,
    pub write: WriteHook,
}

/// Keeps no accounts (every method refuses).
impl qipai_store::accounts::AccountStore for Hooked {}

impl CompetitionStore for Hooked {
    fn competition_write(&self, batch: Vec<CompetitionWrite>) -> BoxFuture<'_, StoreResult<()>> {
        self.inner.competition_write(batch)
    }
    fn competitions(&self) -> BoxFuture<'_, StoreResult<Vec<CompetitionLog>>> {
        self.inner.competitions()
    }
}

impl Store for Hooked {
    fn migrate(&self) -> BoxFuture<'_, StoreResult<u32>> {
        self.inner.migrate()
    }
    fn write(&self, batch: Vec<Write>) -> BoxFuture<'_, StoreResult<()>> {
        (self.write)(batch, Arc::clone(&self.inner))
    }
    fn next_room_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.inner.next_room_id()
    }
    fn next_room_number(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.inner.next_room_number()
    }
    fn max_player_id(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.inner.max_player_id()
    }
    fn last_time(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.inner.last_time()
    }
    fn unfinished(&self) -> BoxFuture<'_, StoreResult<Vec<RoomLog>>> {
        self.inner.unfinished()
    }
    fn room_log(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RoomLog>>> {
        self.inner.room_log(room)
    }
    fn open_sessions(&self, finished_since_ms: i64) -> BoxFuture<'_, StoreResult<Vec<SessionRow>>> {
        self.inner.open_sessions(finished_since_ms)
    }
    fn record(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<RecordRow>>> {
        self.inner.record(room)
    }
    fn player_games(
        &self,
        name: String,
        from: GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<GameSummary>>> {
        self.inner.player_games(name, from, limit)
    }
    fn prune(&self, before_ms: i64) -> BoxFuture<'_, StoreResult<u64>> {
        self.inner.prune(before_ms)
    }
    fn sweep(
        &self,
        sweep: qipai_store::retention::Sweep,
    ) -> BoxFuture<'_, StoreResult<qipai_store::retention::Swept>> {
        self.inner.sweep(sweep)
    }
    fn size_bytes(&self) -> BoxFuture<'_, StoreResult<u64>> {
        self.inner.size_bytes()
    }
    fn backup<'a>(&'a self, path: &'a std::path::Path) -> BoxFuture<'a, StoreResult<()>> {
        self.inner.backup(path)
    }
}
