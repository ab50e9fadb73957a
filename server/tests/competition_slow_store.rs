//! A competition's commit held open by a slow store: the public pages of that competition
//! (as last committed) and of the others are answered meanwhile, and another competition's
//! director goes on; the held change is answered, and shown, once its commit is done.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::competition::{get, login, post, post_ok, PASSWORD};
use common::TestServer;
use qipai_store::competition::{CompetitionLog, CompetitionStore, CompetitionWrite};
use qipai_store::{BoxFuture, Store, StoreResult};
use tokio::sync::{Notify, Semaphore};

/// Where a held commit waits.
struct Hold {
    /// The competition whose commits are held (0: none).
    competition: AtomicU64,
    /// Told when a held commit arrives.
    entered: Notify,
    /// A held commit goes on with a permit.
    open: Semaphore,
}

/// The SQLite store, except that a commit touching the held competition waits at the gate
/// before it reaches the disk.
struct Slow {
    inner: Arc<dyn Store>,
    hold: Arc<Hold>,
}

/// The competition a write belongs to (`None` for directors' sessions).
fn competition_of(w: &CompetitionWrite) -> Option<u64> {
    match w {
        CompetitionWrite::Competition(c) => Some(c.id),
        CompetitionWrite::Entry(e) => Some(e.competition),
        CompetitionWrite::Round(r, _) => Some(r.competition),
        CompetitionWrite::Correction(c) => Some(c.competition),
        CompetitionWrite::EntryContacts { competition, .. }
        | CompetitionWrite::TableRoom { competition, .. }
        | CompetitionWrite::Result { competition, .. }
        | CompetitionWrite::RoundStart { competition, .. }
        | CompetitionWrite::RoundUndone { competition, .. }
        | CompetitionWrite::Settings { competition, .. } => Some(*competition),
        _ => None,
    }
}

/// Keeps no accounts (every method refuses), as the competitions under test need none.
impl qipai_store::accounts::AccountStore for Slow {}

impl CompetitionStore for Slow {
    fn competition_write(&self, batch: Vec<CompetitionWrite>) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            let held = self.hold.competition.load(Ordering::SeqCst);
            if held != 0 && batch.iter().any(|w| competition_of(w) == Some(held)) {
                self.hold.entered.notify_one();
                if let Ok(permit) = self.hold.open.acquire().await {
                    permit.forget();
                }
            }
            self.inner.competition_write(batch).await
        })
    }
    fn competitions(&self) -> BoxFuture<'_, StoreResult<Vec<CompetitionLog>>> {
        self.inner.competitions()
    }
    fn director_session(
        &self,
        token_hash: Vec<u8>,
    ) -> BoxFuture<'_, StoreResult<Option<qipai_store::competition::DirectorSessionRow>>> {
        self.inner.director_session(token_hash)
    }
}

impl Store for Slow {
    fn migrate(&self) -> BoxFuture<'_, StoreResult<u32>> {
        self.inner.migrate()
    }
    fn write(&self, batch: Vec<qipai_store::Write>) -> BoxFuture<'_, StoreResult<()>> {
        self.inner.write(batch)
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
    fn unfinished(&self) -> BoxFuture<'_, StoreResult<Vec<qipai_store::RoomLog>>> {
        self.inner.unfinished()
    }
    fn open_sessions(
        &self,
        finished_since_ms: i64,
    ) -> BoxFuture<'_, StoreResult<Vec<qipai_store::SessionRow>>> {
        self.inner.open_sessions(finished_since_ms)
    }
    fn record(&self, room: u64) -> BoxFuture<'_, StoreResult<Option<qipai_store::RecordRow>>> {
        self.inner.record(room)
    }
    fn player_games(
        &self,
        name: String,
        from: qipai_store::GamesFrom,
        limit: u64,
    ) -> BoxFuture<'_, StoreResult<Vec<qipai_store::GameSummary>>> {
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

fn store_file() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir()
        .join(format!("qipai_slow_{}_{nanos}.db", std::process::id()))
        .display()
        .to_string()
}

const PAIRS: &str = "department,event,pair,name,phone,joined_group
工会甲,tuolaji,1,张一,,
工会甲,tuolaji,1,张二,,
工会乙,tuolaji,1,李一,,
工会乙,tuolaji,1,李二,,
";

const PLAYERS: &str = "department,event,pair,name,phone,joined_group
工会甲,xiangqi,,赵一,,
工会乙,xiangqi,,钱一,,
";

/// Long enough for any answer that does not wait for the held commit; the held one waits
/// for ever.
const ANSWERED: Duration = Duration::from_secs(10);

/// `GET path` answered while the commit is held; its JSON.
async fn read_meanwhile(s: &TestServer, path: &str) -> serde_json::Value {
    let (status, v) = tokio::time::timeout(ANSWERED, get(s, path))
        .await
        .unwrap_or_else(|_| panic!("{path} waited for the held commit"));
    assert_eq!(status, 200, "{path}: {v}");
    v
}

/// While competition A's import waits for its commit: A's public pages answer as last
/// committed (no entries), B's pages answer, B's director pairs a round; then A's import is
/// answered and shown.
#[tokio::test]
async fn reads_are_answered_while_a_commit_is_held() {
    let file = store_file();
    let hold = Arc::new(Hold {
        competition: AtomicU64::new(0),
        entered: Notify::new(),
        open: Semaphore::new(0),
    });
    let store = Slow {
        inner: qipai_store::open(&file).await.expect("open the store"),
        hold: Arc::clone(&hold),
    };
    let hash = qipai_server::competition::auth::hash_password_cost(PASSWORD, 64, 1).unwrap();
    let s = Arc::new(
        TestServer::on_store(Arc::new(store), Duration::from_millis(1), |c| {
            c.store.url = file.clone();
            c.director.password_hash = hash;
            c.server.rate_per_sec = 10_000;
            c.server.rate_burst = 10_000;
        })
        .await,
    );
    let token = login(&s).await;
    let create = |event: &str| format!(r#"{{"name":"{event} cup","event":"{event}","seed":3}}"#);
    let a = post_ok(&s, &token, "/api/director/competitions", &create("tuolaji")).await["id"]
        .as_u64()
        .expect("an id");
    let b = post_ok(&s, &token, "/api/director/competitions", &create("xiangqi")).await["id"]
        .as_u64()
        .expect("an id");
    post_ok(
        &s,
        &token,
        &format!("/api/director/competitions/{b}/entries"),
        PLAYERS,
    )
    .await;

    hold.competition.store(a, Ordering::SeqCst);
    let import = tokio::spawn({
        let (s, token) = (Arc::clone(&s), token.clone());
        async move {
            let path = format!("/api/director/competitions/{a}/entries");
            post(&s, Some(&token), &path, PAIRS).await
        }
    });
    tokio::time::timeout(ANSWERED, hold.entered.notified())
        .await
        .expect("the import's commit reaches the store");

    let list = read_meanwhile(&s, "/api/competitions").await;
    assert_eq!(list["competitions"].as_array().map(Vec::len), Some(2));
    let mine = read_meanwhile(&s, &format!("/api/competitions/{a}")).await;
    assert_eq!(mine["entries"].as_u64(), Some(0), "as last committed");
    read_meanwhile(&s, &format!("/api/competitions/{a}/standings")).await;
    let other = read_meanwhile(&s, &format!("/api/competitions/{b}")).await;
    assert_eq!(other["entries"].as_u64(), Some(2));
    read_meanwhile(&s, &format!("/api/competitions/{b}/entries")).await;
    let path = format!("/api/director/competitions/{b}/rounds");
    let (status, round) = tokio::time::timeout(ANSWERED, post(&s, Some(&token), &path, ""))
        .await
        .expect("another competition's director goes on");
    assert_eq!(status, 200, "{round}");
    assert!(!import.is_finished(), "the import waits for its commit");

    hold.open.add_permits(1);
    let (status, imported) = tokio::time::timeout(ANSWERED, import)
        .await
        .expect("the import is answered once committed")
        .expect("the import's task");
    assert_eq!((status, imported["imported"].as_u64()), (200, Some(2)));
    let (_, mine) = get(&s, &format!("/api/competitions/{a}")).await;
    assert_eq!(mine["entries"].as_u64(), Some(2));
    s.stop();
    let _ = std::fs::remove_file(&file);
}
