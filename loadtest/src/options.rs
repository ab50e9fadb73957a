//! The command line of `qipai-loadtest`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::Parser;
use rand::Rng;
use serde::Serialize;

/// Drives many bot clients over real WebSockets against a qipai server on this machine and
/// reports latency (to the acting seat's `ok` and to every other seat's event), throughput,
/// errors and the server's memory and CPU.
#[derive(Clone, Debug, Parser)]
#[command(version)]
pub struct Options {
    /// Which game the tables play: `tuolaji`, `xiangqi`, `draughts`, or `mix` (the three in
    /// turn).
    #[arg(long, value_enum, default_value_t = GameMix::Xiangqi)]
    pub game: GameMix,
    /// Tables to fill (4 connections per Tuolaji table, 2 per xiangqi or draughts game).
    #[arg(long, default_value_t = 10)]
    pub tables: usize,
    /// Think time per action in ms: `0` (as fast as possible), `1500` (fixed) or
    /// `1000-3000` (uniform).
    #[arg(long, default_value = "0")]
    pub think: ThinkTime,
    /// Tables started per second during the ramp-up.
    #[arg(long, default_value_t = 200.0)]
    pub ramp: f64,
    /// Seconds after the ramp-up before measuring starts.
    #[arg(long, default_value_t = 2.0)]
    pub warmup: f64,
    /// Seconds measured.
    #[arg(long, default_value_t = 10.0)]
    pub duration: f64,
    /// The server's WebSocket (loopback only). Several nodes of one cluster: their
    /// WebSockets separated by commas; the seats connect to them in turn, so that every
    /// table has players on different nodes (a play run only; `loadtest/two-nodes.sh`).
    #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
    pub url: String,
    /// Start `qipai-server` on a free loopback port, measure it, stop it at the end.
    #[arg(long)]
    pub spawn_server: bool,
    /// The server binary for `--spawn-server` (default: `qipai-server` beside this binary).
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    /// The server's configuration file for `--spawn-server` (default: its built-in one, or
    /// `loadtest/closed-loop.toml` for a closed loop, `--think 0`).
    #[arg(long)]
    pub server_config: Option<PathBuf>,
    /// The pid of a server started by hand, for its RSS and CPU (with `--spawn-server`
    /// the child's own).
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Instead of playing: open this many connections that only say `hello` and wait, and
    /// report the server's memory per connection.
    #[arg(long)]
    pub idle: Option<usize>,
    /// Measure the play load alone, then beside this attack from another loopback address
    /// (`rooms`, `pings`, `idle`, `half-frames`, `list-rooms`): the reference p99 and the
    /// server's peak memory, off and on.
    #[arg(long, value_enum)]
    pub attack: Option<crate::attack::AttackKind>,
    /// With `--attack`: the attacker's niceness. It runs as its own process (this binary
    /// with `--attack-only`), so that its own CPU is not taken from the server it attacks as
    /// if both were one machine's; 19 gives it only what the server and the reference load
    /// leave, as an attacker on another machine costs the server nothing but its traffic.
    #[arg(long, default_value_t = 19)]
    pub attacker_nice: i32,
    /// Internal: be the attacker of `--attack` against `--url` until stdin closes, then
    /// print the attack's tally as one JSON line.
    #[arg(long, value_enum, hide = true)]
    pub attack_only: Option<crate::attack::AttackKind>,
    /// With `--idle`: seconds to wait after the last connection before reading the RSS.
    #[arg(long, default_value_t = 3.0)]
    pub settle: f64,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// No human table at the end, only the JSON line.
    #[arg(long)]
    pub json_only: bool,
    /// Seed of the bots' choices and think times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Which game the tables play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameMix {
    Tuolaji,
    Xiangqi,
    Draughts,
    /// Tables take the three games in turn: Tuolaji, xiangqi, draughts.
    Mix,
}

/// Think time per action: uniform between two bounds in milliseconds (equal for a fixed one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ThinkTime {
    pub min_ms: u64,
    pub max_ms: u64,
}

impl ThinkTime {
    /// One draw.
    pub fn sample(self, rng: &mut impl Rng) -> Duration {
        let ms = if self.max_ms > self.min_ms {
            rng.random_range(self.min_ms..=self.max_ms)
        } else {
            self.min_ms
        };
        Duration::from_millis(ms)
    }

    /// No pause at all: a closed loop.
    pub fn is_zero(self) -> bool {
        self.max_ms == 0
    }
}

/// A think time that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("A think time is milliseconds: `0`, `1500` or `1000-3000` (low to high), not `{0}`.")]
pub struct BadThinkTime(String);

impl FromStr for ThinkTime {
    type Err = BadThinkTime;

    fn from_str(s: &str) -> Result<ThinkTime, BadThinkTime> {
        let bad = || BadThinkTime(s.to_owned());
        let ms = |t: &str| t.trim().parse::<u64>().map_err(|_| bad());
        let (min_ms, max_ms) = match s.split_once('-') {
            Some((lo, hi)) => (ms(lo)?, ms(hi)?),
            None => (ms(s)?, ms(s)?),
        };
        if min_ms > max_ms {
            return Err(bad());
        }
        Ok(ThinkTime { min_ms, max_ms })
    }
}

impl fmt::Display for ThinkTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min_ms == self.max_ms {
            write!(f, "{} ms", self.min_ms)
        } else {
            write!(f, "{}-{} ms", self.min_ms, self.max_ms)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed, ranged and malformed think times.
    #[test]
    fn think_times_parse() {
        let t: ThinkTime = "1000-3000".parse().unwrap();
        assert_eq!((t.min_ms, t.max_ms), (1000, 3000));
        let t: ThinkTime = "0".parse().unwrap();
        assert!(t.is_zero());
        assert!("3000-1000".parse::<ThinkTime>().is_err());
        assert!("fast".parse::<ThinkTime>().is_err());
    }
}
