//! `--spawn-server`: `qipai-server` as a child process on a free loopback port, so that the
//! load test measures exactly that process.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

use crate::LoadtestError;

/// The budget a spawned server gets lifted to the size of the largest documented run
/// (4,750 Tuolaji tables). The per-address budgets keep their defaults: every table comes
/// from its own loopback address (as people would), and an attacker from one address of its
/// own meets them.
const LOAD_BUDGETS: [(&str, &str); 1] = [("QIPAI_LIMITS__MAX_ROOMS", "20000")];

/// How long the server has to start listening.
const START_SECS: u64 = 20;

/// A running server child; killed when dropped.
pub struct SpawnedServer {
    child: Child,
    pub pid: u32,
    /// Its WebSocket URL.
    pub url: String,
}

/// `qipai-server` beside the running binary (both are built into the same target folder).
pub fn default_binary() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("qipai-server")))
        .unwrap_or_else(|| PathBuf::from("qipai-server"))
}

/// `loadtest/closed-loop.toml`, compiled in: what a closed loop (`--think 0`) against a
/// spawned server uses when no `--server-config` is given, so that the plainest command
/// measures the server rather than its per-connection rate limit.
pub const CLOSED_LOOP_TOML: &str = include_str!("../closed-loop.toml");

/// Writes [`CLOSED_LOOP_TOML`] to a file of the temporary directory for `--config`.
///
/// # Errors
/// The file cannot be written.
pub fn closed_loop_config() -> std::io::Result<PathBuf> {
    let path = std::env::temp_dir().join(format!(
        "qipai-loadtest-closed-loop-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, CLOSED_LOOP_TOML)?;
    Ok(path)
}

impl SpawnedServer {
    /// Starts `bin` (with `config`, or its built-in one) on a free port of 127.0.0.1 and
    /// waits until it accepts connections.
    ///
    /// # Errors
    /// [`LoadtestError::Port`], [`LoadtestError::Spawn`], or
    /// [`LoadtestError::NotListening`] when it does not listen within 20 s.
    pub async fn start(bin: &Path, config: Option<&Path>) -> Result<SpawnedServer, LoadtestError> {
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(LoadtestError::Port)?;
        let mut cmd = Command::new(bin);
        if let Some(config) = config {
            cmd.arg("--config").arg(config);
        }
        // The room total gets the size of the load, unless the environment names it itself.
        for (key, value) in LOAD_BUDGETS {
            if std::env::var_os(key).is_none() {
                cmd.env(key, value);
            }
        }
        // A fresh store file per run (unless the caller's environment names one), so that a
        // run never reopens an earlier run's rooms.
        let store = std::env::temp_dir().join(format!("qipai-loadtest-{}.db", addr.port()));
        if std::env::var_os("QIPAI_STORE__URL").is_none() {
            let _ = std::fs::remove_file(&store);
            cmd.env("QIPAI_STORE__URL", &store);
        }
        cmd.env("QIPAI_SERVER__ADDR", addr.to_string())
            .env("RUST_LOG", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        let child = cmd.spawn().map_err(|source| LoadtestError::Spawn {
            path: bin.display().to_string(),
            source,
        })?;
        let pid = child.id().unwrap_or_default();
        let server = SpawnedServer {
            child,
            pid,
            url: format!("ws://{addr}/ws"),
        };
        for _ in 0..START_SECS * 20 {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                return Ok(server);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err(LoadtestError::NotListening(START_SECS))
    }

    /// Stops the server and waits for it to exit.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}
