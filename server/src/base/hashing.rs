//! Password hashing: Argon2id, and the one bounded pool every password check goes through.
//!
//! Argon2 (the `argon2` crate of RustCrypto, the Password Hashing Competition's winner) is
//! what a password is stored as: slow and memory-hard on purpose, so that a stolen hash is
//! slow to guess from. That cost is also what a guesser makes the server spend: each check
//! holds a thread at full speed and `m` KiB of memory for tens of milliseconds. So every
//! check and every new hash takes a place in [`Hashing`]: `[passwords] threads` run at once,
//! `queue` more wait, and one past those is refused at once (`password_checks_busy`, HTTP
//! 429 with `Retry-After`) instead of piling up threads and memory.
//!
//! The checks run on threads of their own (`qipai-hashing-N`), not on tokio's blocking
//! pool, and each of those threads lowers its own priority once (`[passwords] nice`): on a
//! busy machine the runtime's worker threads, which run every game, come first, and a burst
//! of guesses slows the guesses rather than the moves. They must be threads of their own
//! because a thread's priority stays with it: a re-niced blocking-pool thread would later
//! run the store's calls at that priority.
//!
//! A hash's parameters travel in its PHC string, so a check costs what its hash was made
//! with; new hashes (accounts' passwords) use `[passwords] memory_kib` and `passes`.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex, PoisonError};

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::{Algorithm, Argon2, Params, Version};
use qipai_protocol::{ErrorCode, WireError};
use tokio::sync::oneshot;

use crate::base::config::PasswordsConfig;
use crate::base::metrics::Scrape;

/// Hashes `password` with Argon2id at the crate's default cost and a random salt, in PHC
/// form (for `[director] password_hash`).
///
/// # Errors
/// The hasher's error (it has none for ordinary passwords).
pub fn hash_password(password: &str) -> Result<String, String> {
    hash_password_cost(password, Params::DEFAULT_M_COST, Params::DEFAULT_T_COST)
}

/// [`hash_password`] at a chosen cost: `m_kib` KiB of memory, `t` passes (tests use a
/// cheap one; the cost travels in the hash).
///
/// # Errors
/// Parameters out of Argon2's range.
pub fn hash_password_cost(password: &str, m_kib: u32, t: u32) -> Result<String, String> {
    let params = Params::new(m_kib, t, 1, None).map_err(|e| e.to_string())?;
    let salt = SaltString::generate(&mut OsRng);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches the PHC hash `phc` (false for a malformed hash).
pub fn verify_password(phc: &str, password: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A check or hash on its way to a hashing thread, with its answer's way back.
type Job = Box<dyn FnOnce() + Send>;

/// The pool: `threads` threads of its own taking jobs from one queue, and the count of jobs
/// let in, which never passes `threads + queue`.
#[derive(Debug)]
pub struct Hashing {
    /// The queue's one sender: when the pool is dropped, the threads find the queue closed
    /// and end.
    jobs: mpsc::Sender<Job>,
    counts: Arc<Counts>,
    threads: usize,
    queue: usize,
    memory_kib: u32,
    passes: u32,
}

/// What the pool and its threads count together.
#[derive(Debug, Default)]
struct Counts {
    /// Jobs let in and not yet ended: running or waiting.
    admitted: AtomicUsize,
    /// Jobs running on a hashing thread now.
    running: AtomicUsize,
    /// The nice value the hashing threads run at, as they read it back.
    nice: AtomicI32,
    /// Checks and hashes done, and refused for a full queue.
    done: AtomicU64,
    refused: AtomicU64,
}

/// A job's place in the pool, freed when the job ends, wherever the place then is: a caller
/// that hangs up drops only the answer's receiver, not this.
struct Place(Arc<Counts>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Relaxed);
    }
}

/// A job running on a hashing thread, however its run ends.
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

impl Hashing {
    /// From `[passwords]`: starts its threads.
    pub fn new(config: &PasswordsConfig) -> Hashing {
        let threads = config.threads.max(1);
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let counts = Arc::new(Counts::default());
        for n in 1..=threads {
            let queue = Arc::clone(&queue);
            let counts = Arc::clone(&counts);
            let nice = i32::from(config.nice);
            let started = std::thread::Builder::new()
                .name(format!("qipai-hashing-{n}"))
                .spawn(move || work(&queue, &counts, nice));
            // Fewer threads hash more slowly; with none the queue's receiver is gone and
            // every check is refused as busy.
            if let Err(error) = started {
                tracing::error!(%error, "cannot start a password-hashing thread");
            }
        }
        Hashing {
            jobs,
            counts,
            threads,
            queue: config.queue,
            memory_kib: config.memory_kib,
            passes: config.passes,
        }
    }

    /// Whether `password` matches `phc`, checked in the pool.
    ///
    /// # Errors
    /// `password_checks_busy` when every place and the queue are taken.
    pub async fn verify(&self, phc: String, password: String) -> Result<bool, WireError> {
        self.run(move || verify_password(&phc, &password)).await
    }

    /// A new hash of `password` at the configured cost, made in the pool.
    ///
    /// # Errors
    /// `password_checks_busy` when every place and the queue are taken.
    pub async fn hash(&self, password: String) -> Result<String, WireError> {
        let (m, t) = (self.memory_kib, self.passes);
        self.run(move || hash_password_cost(&password, m, t))
            .await?
            .map_err(|message| WireError {
                code: ErrorCode::BadRequestBody,
                message,
            })
    }

    /// Runs `job` on a hashing thread if the pool has a place for it. The place goes with
    /// the job, so a caller that gives up (its connection closed) does not free it before
    /// the job ends.
    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, WireError> {
        if self.counts.admitted.fetch_add(1, Relaxed) >= self.threads + self.queue {
            self.counts.admitted.fetch_sub(1, Relaxed);
            self.counts.refused.fetch_add(1, Relaxed);
            return Err(busy());
        }
        let place = Place(Arc::clone(&self.counts));
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            let counts = Arc::clone(&place.0);
            counts.running.fetch_add(1, Relaxed);
            let running = Running(&counts.running);
            let out = job();
            drop(running);
            counts.done.fetch_add(1, Relaxed);
            drop(place);
            // Its caller may have gone: the answer is then nobody's.
            let _ = answer.send(out);
        });
        // Refused only when no hashing thread is left; the job, and its place, go with it.
        self.jobs.send(job).map_err(|_| busy())?;
        answered.await.map_err(|_| busy())
    }

    /// Checks running now (at most `threads`).
    pub fn running(&self) -> usize {
        self.counts.running.load(Relaxed)
    }

    /// Checks let in and waiting for a thread now (at most `queue`).
    fn waiting(&self) -> usize {
        self.counts
            .admitted
            .load(Relaxed)
            .saturating_sub(self.running())
    }

    /// The pool's limits and counts for `/metrics`.
    pub fn scrape(&self, scrape: &Scrape<'_>) {
        let gauges = [
            ("threads", self.threads as f64),
            ("queue", self.queue as f64),
            ("memory_kib", f64::from(self.memory_kib)),
            ("nice", f64::from(self.counts.nice.load(Relaxed))),
            ("running", self.running() as f64),
            ("waiting", self.waiting() as f64),
        ];
        for (what, v) in gauges {
            scrape.gauge(
                "qipai_password_hashing",
                "The password-hashing pool: its size (threads, queue, Argon2 memory_kib of a new hash, the nice value its threads run at) and its checks running and waiting now.",
                &[("what", what)],
                v,
            );
        }
        let counts = [
            ("done", &self.counts.done),
            ("refused", &self.counts.refused),
        ];
        for (outcome, n) in counts {
            scrape.counter(
                "qipai_password_checks_total",
                "Password checks and hashes, done or refused for a full queue.",
                &[("outcome", outcome)],
                n.load(Relaxed),
            );
        }
    }
}

/// A hashing thread: lowers its own priority, then runs jobs until the queue's sender is
/// gone. A job that panics loses its answer (its caller hears "busy"), not the thread.
fn work(queue: &Mutex<mpsc::Receiver<Job>>, counts: &Counts, nice: i32) {
    if let Err(error) = priority::lower_to(nice) {
        tracing::warn!(%error, nice, "password hashing runs at the server's priority");
    }
    counts.nice.store(priority::current(), Relaxed);
    loop {
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = next else {
            return;
        };
        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
    }
}

/// The calling thread's own scheduling priority, its nice value (on Linux a thread's nice
/// value is its own, not its process's: `setpriority(2)`, "Bugs").
mod priority {
    /// Raises the calling thread's nice value to `nice` (never lowers it: an unprivileged
    /// process cannot, and a server started at a lower priority stays there); 0 leaves it.
    #[cfg(target_os = "linux")]
    pub fn lower_to(nice: i32) -> std::io::Result<()> {
        let now = current();
        if nice == 0 || nice <= now {
            return Ok(());
        }
        // SAFETY: plain system calls on the calling thread's own id, no memory passed.
        let rc = unsafe {
            let tid = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice)
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }

    /// Elsewhere a nice value is the whole process's: the threads keep the server's.
    #[cfg(not(target_os = "linux"))]
    pub fn lower_to(nice: i32) -> std::io::Result<()> {
        if nice == 0 {
            return Ok(());
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "a thread's own nice value is Linux's",
        ))
    }

    /// The calling thread's nice value (0 where it cannot be read).
    #[cfg(target_os = "linux")]
    pub fn current() -> i32 {
        // SAFETY: plain system calls on the calling thread's own id, no memory passed.
        unsafe {
            let tid = libc::gettid();
            libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t)
        }
    }

    /// Elsewhere the threads keep the server's priority.
    #[cfg(not(target_os = "linux"))]
    pub fn current() -> i32 {
        0
    }
}

/// Every place and the queue are taken.
fn busy() -> WireError {
    WireError {
        code: ErrorCode::PasswordChecksBusy,
        message: "too many password checks at once: try again in a second".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize, queue: usize) -> Hashing {
        Hashing::new(&PasswordsConfig {
            threads,
            queue,
            memory_kib: 64,
            passes: 1,
            nice: 10,
        })
    }

    /// Waits (up to 5 s of real time: the hashing threads are real) until `done` holds.
    async fn until(done: impl Fn() -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "waited 5 s");
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let phc = hash_password_cost("正确的密码", 64, 1).unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(verify_password(&phc, "正确的密码"));
        assert!(!verify_password(&phc, "wrong"));
        assert!(!verify_password("not a hash", "正确的密码"));
    }

    #[tokio::test]
    async fn the_pool_hashes_at_its_cost_and_verifies() {
        let pool = pool(1, 1);
        let phc = pool.hash("secret".into()).await.unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{phc}");
        assert!(pool.verify(phc.clone(), "secret".into()).await.unwrap());
        assert!(!pool.verify(phc, "guess".into()).await.unwrap());
    }

    /// One place and a queue of two: of ten checks at once, the first runs, two wait, and
    /// the other seven are refused at once; no more than one runs at any time.
    #[tokio::test]
    async fn past_the_places_and_the_queue_checks_are_refused() {
        let pool = Arc::new(pool(1, 2));
        let (go, gate) = mpsc::channel::<()>();
        let blocker = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move { pool.run(move || gate.recv().is_ok()).await })
        };
        until(|| pool.running() == 1).await;
        let queued: Vec<_> = (0..2)
            .map(|_| {
                let pool = Arc::clone(&pool);
                tokio::spawn(async move { pool.run(|| ()).await })
            })
            .collect();
        until(|| pool.waiting() == 2).await;
        for _ in 0..7 {
            let refused = pool.run(|| ()).await.unwrap_err();
            assert_eq!(refused.code, ErrorCode::PasswordChecksBusy);
        }
        assert_eq!(pool.running(), 1);
        go.send(()).unwrap();
        assert!(blocker.await.unwrap().unwrap());
        for q in queued {
            q.await.unwrap().unwrap();
        }
        assert_eq!(pool.counts.done.load(Relaxed), 3);
        assert_eq!(pool.counts.refused.load(Relaxed), 7);
        assert_eq!(pool.waiting(), 0);
    }

    /// A caller that gives up while its check runs keeps the place until the check ends:
    /// a guesser cannot free places by hanging up.
    #[tokio::test]
    async fn a_caller_that_hangs_up_keeps_its_place_until_its_job_ends() {
        let pool = Arc::new(pool(1, 0));
        let (go, gate) = mpsc::channel::<()>();
        let caller = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move { pool.run(move || gate.recv().is_ok()).await })
        };
        until(|| pool.running() == 1).await;
        caller.abort();
        assert!(caller.await.unwrap_err().is_cancelled());
        let refused = pool.run(|| ()).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::PasswordChecksBusy);
        go.send(()).unwrap();
        until(|| pool.counts.admitted.load(Relaxed) == 0).await;
        pool.run(|| ()).await.unwrap();
    }

    /// The checks run on the pool's own threads, at the configured nice value (or the
    /// test's own, if it was started at a lower priority still), and `/metrics` says so.
    #[tokio::test]
    async fn the_threads_are_the_pools_own_at_the_configured_nice() {
        let pool = pool(2, 0);
        let ours = priority::current();
        let (name, nice) = pool
            .run(|| {
                let name = std::thread::current().name().map(str::to_owned);
                (name, priority::current())
            })
            .await
            .unwrap();
        assert!(name.is_some_and(|n| n.starts_with("qipai-hashing-")));
        assert_eq!(nice, ours.max(10));
        assert_eq!(pool.counts.nice.load(Relaxed), ours.max(10));
        assert_eq!(
            priority::current(),
            ours,
            "the caller's priority is unchanged"
        );
    }

    /// Dropping the pool ends its threads once they are idle: servers started and stopped
    /// in one process leave no thread behind.
    #[tokio::test]
    async fn the_threads_end_with_the_pool() {
        let pool = pool(3, 0);
        pool.run(|| ()).await.unwrap();
        let counts = Arc::downgrade(&pool.counts);
        drop(pool);
        until(|| counts.strong_count() == 0).await;
    }
}
