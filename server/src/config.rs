//! The server's configuration: `config/default.toml`, overridden key by key from the
//! environment (`QIPAI_<SECTION>__<KEY>`).

use std::net::SocketAddr;
use std::path::Path;

use serde::Deserialize;

/// Prefix of every environment override.
pub const ENV_PREFIX: &str = "QIPAI_";

/// Everything the server reads at start-up.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub xiangqi: XiangqiConfig,
    pub tuolaji: TuolajiConfig,
    #[serde(default)]
    pub store: StoreConfig,
}

/// The durable store (`qipai-store`). Each field is documented in `config/default.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StoreConfig {
    /// A SQLite file path, or `postgres://…`; empty: no store (nothing survives a restart).
    pub url: String,
    pub group_commit_ms: u64,
    /// 0: keep raw logs forever.
    pub prune_after_days: u64,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            url: String::new(),
            group_commit_ms: 2,
            prune_after_days: 0,
        }
    }
}

/// Listener, connections, sessions and rooms. Each field is documented in `config/default.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    pub max_connections: usize,
    pub max_frame_bytes: usize,
    pub rate_per_sec: u32,
    pub rate_burst: u32,
    pub abuse_burst: u32,
    pub outbound_queue: usize,
    pub read_buffer_bytes: usize,
    pub write_buffer_bytes: usize,
    pub hello_timeout_ms: u64,
    pub ping_interval_ms: u64,
    pub reconnect_grace_ms: u64,
    pub room_linger_ms: u64,
    pub room_inbox: usize,
}

/// Defaults for xiangqi rooms; a room's own options override them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct XiangqiConfig {
    pub time_control: String,
    pub first_move_ms: u64,
    pub natural_limit_moves: u32,
    pub natural_limit_counts_checks: bool,
    pub draw_offer_every_moves: u32,
    pub max_lag_ms: u64,
    pub bot_fill_ms: u64,
    pub bot_think_ms: u64,
}

/// Defaults for Tuolaji tables (`rules/tuolaji.md`); a table's own options override them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuolajiConfig {
    pub throw_penalty: u32,
    pub deal_interval_ms: u64,
    pub bid_window_ms: u64,
    pub bottom_ms: u64,
    pub turn_ms: u64,
    pub seat_grace_ms: u64,
    /// 0 for no limit.
    pub round_minutes: u32,
    pub last_call_minutes: u32,
    pub joker_bids: bool,
    pub between_hands_ms: u64,
    pub bot_fill_ms: u64,
    /// Deals room `id` from this seed + `id` instead of a random seed (tests and replays
    /// only: anyone who knows it knows every hand).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

/// The built-in defaults: `config/default.toml` as compiled in.
pub const DEFAULT_TOML: &str = include_str!("../../config/default.toml");

impl Config {
    /// The defaults, with no environment applied (what tests start from).
    ///
    /// # Errors
    /// Only if the compiled-in file is broken, which a unit test rules out.
    pub fn defaults() -> Result<Config, ConfigError> {
        Config::from_toml(DEFAULT_TOML, std::iter::empty())
    }

    /// Reads `path` (or the compiled-in defaults when `None`) and applies every
    /// `QIPAI_<SECTION>__<KEY>` variable of the process environment.
    ///
    /// # Errors
    /// [`ConfigError`] when the file cannot be read, or a key or value is wrong.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let text = match path {
            Some(p) => std::fs::read_to_string(p).map_err(|source| ConfigError::Read {
                path: p.display().to_string(),
                source,
            })?,
            None => DEFAULT_TOML.to_owned(),
        };
        Config::from_toml(&text, std::env::vars())
    }

    /// Parses `text` and applies the overrides among `env` (pairs of name and value).
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the bad key or value.
    pub fn from_toml(
        text: &str,
        env: impl Iterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut table: toml::Table =
            toml::from_str(text).map_err(|e| ConfigError::Invalid(e.to_string()))?;
        for (name, value) in env {
            let Some(path) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            let Some((section, key)) = path.split_once("__") else {
                continue;
            };
            let section = section.to_ascii_lowercase();
            let key = key.to_ascii_lowercase();
            let Some(toml::Value::Table(sec)) = table.get_mut(&section) else {
                return Err(ConfigError::Invalid(format!(
                    "{name}: there is no section [{section}]"
                )));
            };
            let Some(old) = sec.get(&key) else {
                return Err(ConfigError::Invalid(format!(
                    "{name}: [{section}] has no key `{key}`"
                )));
            };
            let new = override_value(old, &value)
                .ok_or_else(|| ConfigError::Invalid(format!("{name}: `{value}` is not valid")))?;
            sec.insert(key, new);
        }
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Invalid(e.to_string()))
    }
}

/// Reads an environment value as the same TOML type as the key it replaces.
fn override_value(old: &toml::Value, text: &str) -> Option<toml::Value> {
    Some(match old {
        toml::Value::String(_) => toml::Value::String(text.to_owned()),
        toml::Value::Integer(_) => toml::Value::Integer(text.trim().parse().ok()?),
        toml::Value::Float(_) => toml::Value::Float(text.trim().parse().ok()?),
        toml::Value::Boolean(_) => toml::Value::Boolean(text.trim().parse().ok()?),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Iterator<Item = (String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn the_default_file_parses() {
        let c = Config::defaults().unwrap();
        assert_eq!(c.server.addr.to_string(), "127.0.0.1:7878");
        assert_eq!(c.server.max_frame_bytes, 65536);
        assert_eq!(c.xiangqi.time_control, "30+10");
        assert_eq!(c.tuolaji.bid_window_ms, 5000);
        assert_eq!(c.tuolaji.seed, None);
    }

    #[test]
    fn environment_overrides_each_type() {
        let c = Config::from_toml(
            DEFAULT_TOML,
            env(&[
                ("QIPAI_SERVER__ADDR", "0.0.0.0:9000"),
                ("QIPAI_SERVER__RATE_PER_SEC", "7"),
                ("QIPAI_XIANGQI__NATURAL_LIMIT_COUNTS_CHECKS", "false"),
                ("UNRELATED", "x"),
            ]),
        )
        .unwrap();
        assert_eq!(c.server.addr.port(), 9000);
        assert_eq!(c.server.rate_per_sec, 7);
        assert!(!c.xiangqi.natural_limit_counts_checks);
    }

    #[test]
    fn bad_overrides_are_refused_by_name() {
        for (k, v) in [
            ("QIPAI_SERVER__RATE_PER_SEC", "many"),
            ("QIPAI_SERVER__NO_SUCH_KEY", "1"),
            ("QIPAI_NOSECTION__ADDR", "1"),
        ] {
            let err = Config::from_toml(DEFAULT_TOML, env(&[(k, v)])).unwrap_err();
            assert!(err.to_string().contains(k), "{err}");
        }
    }
}
