//! Password hashing: Argon2id, and the one bounded pool every password check goes through.
//!
//! Argon2 (the `argon2` crate of RustCrypto, the Password Hashing Competition's winner) is
//! what a password is stored as: slow and memory-hard on purpose, so that a stolen hash is
//! slow to guess from. That cost is also what a guesser makes the server spend: each check
//! holds a thread of the blocking pool and `m` KiB of memory for tens of milliseconds, and
//! tokio's blocking pool grows to 512 threads. So every check and every new hash takes a
//! place in [`Hashing`]: `[passwords] threads` run at once, `queue` more wait, and one past
//! those is refused at once (`password_checks_busy`, HTTP 429 with `Retry-After`) instead
//! of piling up threads and memory while the games on the same machine stall.
//!
//! A hash's parameters travel in its PHC string, so a check costs what its hash was made
//! with; new hashes (accounts' passwords) use `[passwords] memory_kib` and `passes`.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::{Algorithm, Argon2, Params, Version};
use qipai_protocol::{ErrorCode, WireError};
use tokio::sync::Semaphore;

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

/// The pool: a semaphore of `threads` places in front of the blocking pool, and a count of
/// the checks waiting for one.
#[derive(Debug)]
pub struct Hashing {
    places: Arc<Semaphore>,
    threads: usize,
    queue: usize,
    memory_kib: u32,
    passes: u32,
    /// Checks waiting for a place now.
    waiting: AtomicUsize,
    /// Checks and hashes done, and refused for a full queue.
    done: AtomicU64,
    refused: AtomicU64,
}

/// Gives a waiting check's place in the queue back, however its wait ends (its client may
/// go away while it waits).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

impl Hashing {
    /// From `[passwords]`.
    pub fn new(config: &PasswordsConfig) -> Hashing {
        let threads = config.threads.max(1);
        Hashing {
            places: Arc::new(Semaphore::new(threads)),
            threads,
            queue: config.queue,
            memory_kib: config.memory_kib,
            passes: config.passes,
            waiting: AtomicUsize::new(0),
            done: AtomicU64::new(0),
            refused: AtomicU64::new(0),
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

    /// Runs `job` on the blocking pool once it has a place. The place goes with the job, so
    /// a caller that gives up (its connection closed) does not free it before the job ends.
    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, WireError> {
        let place = match Arc::clone(&self.places).try_acquire_owned() {
            Ok(place) => place,
            Err(_) => {
                if self.waiting.fetch_add(1, Relaxed) >= self.queue {
                    self.waiting.fetch_sub(1, Relaxed);
                    self.refused.fetch_add(1, Relaxed);
                    return Err(busy());
                }
                let _waiting = Waiting(&self.waiting);
                Arc::clone(&self.places)
                    .acquire_owned()
                    .await
                    .map_err(|_| busy())?
            }
        };
        let out = tokio::task::spawn_blocking(move || {
            let _place = place;
            job()
        })
        .await
        .map_err(|_| busy())?;
        self.done.fetch_add(1, Relaxed);
        Ok(out)
    }

    /// Checks running now (at most `threads`).
    pub fn running(&self) -> usize {
        self.threads - self.places.available_permits().min(self.threads)
    }

    /// The pool's limits and counts for `/metrics`.
    pub fn scrape(&self, scrape: &Scrape<'_>) {
        let gauges = [
            ("threads", self.threads as f64),
            ("queue", self.queue as f64),
            ("memory_kib", f64::from(self.memory_kib)),
            ("running", self.running() as f64),
            ("waiting", self.waiting.load(Relaxed) as f64),
        ];
        for (what, v) in gauges {
            scrape.gauge(
                "qipai_password_hashing",
                "The password-hashing pool: its size (threads, queue, Argon2 memory_kib of a new hash) and its checks running and waiting now.",
                &[("what", what)],
                v,
            );
        }
        for (outcome, n) in [("done", &self.done), ("refused", &self.refused)] {
            scrape.counter(
                "qipai_password_checks_total",
                "Password checks and hashes, done or refused for a full queue.",
                &[("outcome", outcome)],
                n.load(Relaxed),
            );
        }
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
        })
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
        let (go, gate) = std::sync::mpsc::channel::<()>();
        let blocker = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move { pool.run(move || gate.recv().is_ok()).await })
        };
        while pool.running() == 0 {
            tokio::task::yield_now().await;
        }
        let queued: Vec<_> = (0..2)
            .map(|_| {
                let pool = Arc::clone(&pool);
                tokio::spawn(async move { pool.run(|| ()).await })
            })
            .collect();
        while pool.waiting.load(Relaxed) < 2 {
            tokio::task::yield_now().await;
        }
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
        assert_eq!(pool.done.load(Relaxed), 3);
        assert_eq!(pool.refused.load(Relaxed), 7);
        assert_eq!(pool.waiting.load(Relaxed), 0);
    }
}
