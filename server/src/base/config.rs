//! The server's configuration, in layers: the defaults (`config/default.toml`, compiled in),
//! then a file given with `--config` that sets only the keys it cares about, then the
//! environment (`QIPAI_<SECTION>__<KEY>`), which may set any key. A key nobody knows is
//! refused with its name. Adding a key is adding a field here and a documented line with its
//! default in `config/default.toml`.
//!
//! The layers are merged by `figment`; an error names the key as its layer names it (a
//! variable by its name, a file's key by its path) and the layer. The environment is our own
//! provider, which reads each value as the type of the key it replaces.

use std::net::SocketAddr;
use std::path::Path;

use figment::providers::{Format, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};
use qipai_games::options::DuelHouse;
use qipai_protocol::draughts::DraughtsOptions;
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::XiangqiOptions;
use serde::{Deserialize, Serialize};

/// Prefix of every environment override.
pub const ENV_PREFIX: &str = "QIPAI_";

/// Everything the server reads at start-up.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub xiangqi: XiangqiConfig,
    pub draughts: DraughtsConfig,
    pub tuolaji: TuolajiConfig,
    /// What one client, one address and all of them together may make the server spend.
    pub limits: LimitsConfig,
    #[serde(default)]
    pub store: StoreConfig,
    /// What the store keeps, and for how long.
    #[serde(default)]
    pub retention: RetentionConfig,
    #[serde(default)]
    pub director: DirectorConfig,
    #[serde(default)]
    pub cluster: ClusterConfig,
    #[serde(default)]
    pub passwords: PasswordsConfig,
    #[serde(default)]
    pub accounts: AccountsConfig,
}

/// Players' accounts ([`crate::accounts`]). Each field is documented in `config/default.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AccountsConfig {
    pub session_ttl_ms: u64,
    /// Failed sign-ins from one address before it must wait.
    pub signin_free_failures: u32,
    /// Failed sign-ins to one account, from any address, before it must wait.
    pub account_free_failures: u32,
    /// The first wait, in ms; it doubles with every further failure.
    pub signin_delay_ms: u64,
    /// Rated quick play: the rating difference a waiting player accepts at once.
    pub rated_range: u32,
    /// Rated quick play: the accepted difference grows by `rated_range` every this many ms
    /// the player has waited.
    pub rated_widen_ms: u64,
}

impl Default for AccountsConfig {
    fn default() -> AccountsConfig {
        AccountsConfig {
            session_ttl_ms: 30 * 24 * 60 * 60 * 1000,
            signin_free_failures: 5,
            account_free_failures: 10,
            signin_delay_ms: 1000,
            rated_range: 100,
            rated_widen_ms: 10_000,
        }
    }
}

/// The password-hashing pool ([`crate::base::hashing`]). Each field is documented in
/// `config/default.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PasswordsConfig {
    /// Checks and hashes running at once, each on a thread of the pool's own.
    pub threads: usize,
    /// Checks waiting for a thread; one more is refused (`password_checks_busy`).
    pub queue: usize,
    /// Argon2id's memory cost of a new hash, in KiB.
    pub memory_kib: u32,
    /// Argon2id's passes over that memory for a new hash.
    pub passes: u32,
    /// The nice value the pool's threads raise their own priority to (Linux: per thread),
    /// so that the games' threads come first; 0 leaves it. It can only go up for an
    /// unprivileged process: a server already running nicer keeps its own value. The
    /// kernel takes at most 19.
    pub nice: u8,
}

impl Default for PasswordsConfig {
    fn default() -> PasswordsConfig {
        PasswordsConfig {
            threads: 2,
            queue: 16,
            memory_kib: 19456,
            passes: 2,
            nice: 10,
        }
    }
}

/// Several nodes: off by default (one node alone, exactly as without it). Each
/// field is documented in `config/default.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClusterConfig {
    pub enabled: bool,
    pub redis_url: String,
    /// Empty: a random id at start-up.
    pub node_id: String,
    /// `host:port` the other nodes reach this one at (its WebSocket at `/node`); empty: the
    /// listening address.
    pub advertise: String,
    pub lease_ms: u64,
    /// Shared by every node: the internal hello must carry it.
    pub secret: String,
}

impl Default for ClusterConfig {
    fn default() -> ClusterConfig {
        ClusterConfig {
            enabled: false,
            redis_url: String::new(),
            node_id: String::new(),
            advertise: String::new(),
            lease_ms: 3000,
            secret: String::new(),
        }
    }
}

/// Competition directors. Each field is documented in `config/default.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DirectorConfig {
    pub name: String,
    /// An Argon2 hash in PHC form (`$argon2id$…`); empty: nobody can sign in as director.
    pub password_hash: String,
    pub session_ttl_ms: u64,
    /// Failed logins from one address before it must wait.
    pub login_free_failures: u32,
    /// The first wait after those, in ms; it doubles with every further failure.
    pub login_delay_ms: u64,
}

impl Default for DirectorConfig {
    fn default() -> DirectorConfig {
        DirectorConfig {
            name: "director".into(),
            password_hash: String::new(),
            session_ttl_ms: 12 * 60 * 60 * 1000,
            login_free_failures: 5,
            login_delay_ms: 1000,
        }
    }
}

/// The durable store (`qipai-store`). Each field is documented in `config/default.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StoreConfig {
    /// A SQLite file path, or `postgres://…`; empty: no store (nothing survives a restart).
    pub url: String,
    pub group_commit_ms: u64,
    /// The writer's probe of the backend between commits (0: never).
    pub health_check_ms: u64,
    /// How far a SQLite commit has gone when its actions are acknowledged.
    pub sqlite_sync: SqliteSyncConfig,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            url: String::new(),
            group_commit_ms: 0,
            health_check_ms: 1000,
            sqlite_sync: SqliteSyncConfig::Full,
        }
    }
}

/// `[store] sqlite_sync`: `"full"` (a commit is on the disk, power cuts included) or
/// `"normal"` (a commit is in the operating system's hands: survives any crash of the
/// server, not a power cut); [`qipai_store::SqliteSync`] says what each keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SqliteSyncConfig {
    Full,
    Normal,
}

impl From<SqliteSyncConfig> for qipai_store::SqliteSync {
    fn from(sync: SqliteSyncConfig) -> qipai_store::SqliteSync {
        match sync {
            SqliteSyncConfig::Full => qipai_store::SqliteSync::Full,
            SqliteSyncConfig::Normal => qipai_store::SqliteSync::Normal,
        }
    }
}

/// Retention: the store's sweep ([`crate::persist::retention`]). Each field is documented in
/// `config/default.toml`; every age is in ms, so that a test can sweep at once.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionConfig {
    /// How often the sweep runs (0: never).
    pub every_ms: u64,
    /// A room closed without a finished game is deleted this long after it was opened.
    pub abandoned_after_ms: u64,
    /// A game session's row is deleted this long after it was made, unless it could still
    /// be resumed.
    pub sessions_after_ms: u64,
    /// Finished games' raw logs are deleted this long after the game (0: kept for ever);
    /// their records stay.
    pub logs_after_ms: u64,
}

impl Default for RetentionConfig {
    fn default() -> RetentionConfig {
        const HOUR: u64 = 60 * 60 * 1000;
        RetentionConfig {
            every_ms: HOUR,
            abandoned_after_ms: 24 * HOUR,
            sessions_after_ms: 24 * HOUR,
            logs_after_ms: 0,
        }
    }
}

/// Listener, connections, sessions and rooms. Each field is documented in `config/default.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Reverse proxies whose `X-Forwarded-For`/`Forwarded` name the client
    /// ([`crate::base::forwarded`]); empty: those headers are ignored.
    #[serde(default)]
    pub trusted_proxies: Vec<crate::base::forwarded::Cidr>,
}

/// One game's section (`[xiangqi]`, `[draughts]`, `[tuolaji]`): the defaults of its table
/// options, in the game's own options type (`O`, the wire's; `games` checks and resolves
/// it), what the server decides for every table of it (`H`), and the server's own keys.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameConfig<O, H> {
    /// Defaults for what a table's options leave out.
    #[serde(flatten)]
    pub table: O,
    /// What no table chooses (first-move time, lag allowance).
    #[serde(flatten)]
    pub house: H,
    /// A table whose first player has waited this long gets bots in its empty seats (0: never).
    pub bot_fill_ms: u64,
    /// Plays room `id` from this seed + `id` instead of a random seed, and counts room ids
    /// from 1 (tests and replays only: anyone who knows it knows every hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// The xiangqi section.
pub type XiangqiConfig = GameConfig<XiangqiOptions, DuelHouse>;
/// The draughts section (`rules/draughts.md`).
pub type DraughtsConfig = GameConfig<DraughtsOptions, DuelHouse>;
/// The Tuolaji section (`rules/tuolaji.md`).
pub type TuolajiConfig = GameConfig<TuolajiOptions, qipai_games::tuolaji::options::TuolajiHouse>;

/// Budgets: every resource a client can make the server spend. Each field is documented in
/// `config/default.toml` and listed in PROTOCOL.md §13 with the error code that refuses it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    pub max_connections_per_addr: usize,
    pub connect_rate_per_addr: u32,
    pub connect_burst_per_addr: u32,
    pub pong_timeout_ms: u64,
    pub max_outbound_bytes: usize,
    pub max_write_buffer_bytes: usize,
    pub max_rooms: usize,
    pub rooms_per_addr: usize,
    pub rooms_per_session: usize,
    pub empty_room_grace_ms: u64,
    pub max_bots: usize,
    pub bot_threads: usize,
    pub bot_memory_mib: usize,
    pub bot_think_max_ms: u64,
    pub list_rooms_page: usize,
    pub http_body_timeout_ms: u64,
    pub max_long_polls: usize,
    pub long_polls_per_addr: usize,
    pub max_sessions: usize,
    pub max_http_connections: usize,
    pub http_connections_per_addr: usize,
    pub descriptor_reserve: usize,
    pub descriptors_kept: usize,
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

/// The built-in defaults: `config/default.toml` as compiled in. Every key has its default
/// here, so a file or the environment names only what it changes.
pub const DEFAULT_TOML: &str = include_str!("../../../config/default.toml");

impl Config {
    /// The defaults, with no file and no environment applied (what tests start from).
    ///
    /// # Errors
    /// Only if the compiled-in file is broken, which a unit test rules out.
    pub fn defaults() -> Result<Config, ConfigError> {
        Config::layered(None, std::iter::empty())
    }

    /// The layers the way Rust services usually stack them: the compiled-in defaults, then
    /// the file at `path` (only the keys it sets), then every `QIPAI_<SECTION>__<KEY>`
    /// variable of the process environment.
    ///
    /// # Errors
    /// [`ConfigError`] when the file cannot be read, or a key or value is wrong.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let file = match path {
            Some(p) => {
                // Tried here first: a file that is missing or unreadable must be an error
                // naming it, where figment would take it for an empty layer.
                std::fs::read_to_string(p).map_err(|source| ConfigError::Read {
                    path: p.display().to_string(),
                    source,
                })?;
                Some(Toml::file_exact(p))
            }
            None => None,
        };
        Config::from_layers(file, std::env::vars())
    }

    /// The defaults, overlaid key by key with the TOML `file` (if any), then with the
    /// overrides among `env` (pairs of name and value). A key the defaults do not know is
    /// refused with its name, wherever it comes from.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the bad key or value.
    pub fn layered(
        file: Option<&str>,
        env: impl Iterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        Config::from_layers(file.map(Toml::string), env)
    }

    fn from_layers(
        file: Option<figment::providers::Data<Toml>>,
        env: impl Iterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Toml::string(DEFAULT_TOML));
        if let Some(file) = file {
            figment = figment.merge(file);
        }
        let env = Environment::read(&figment, env)?;
        let figment = figment.merge(env);
        let config: Config = figment.extract().map_err(invalid)?;
        // A game's section is two flattened types, which serde cannot check for unknown
        // keys: every key given must come back when the configuration is written out.
        let given = figment.data().map_err(invalid)?;
        let back = figment::value::Value::serialize(&config).map_err(invalid)?;
        let (Some(given), Some(back)) = (given.get(&Profile::Default), back.as_dict()) else {
            return Ok(config);
        };
        match unknown_key(given, back) {
            Some(path) => {
                let keys: Vec<&str> = path.split('.').collect();
                let leaf = keys.last().copied().unwrap_or(&path);
                // Worded as figment words its own errors: the key as its layer names it (a
                // variable by its name), then the layer.
                let place = figment.find_metadata(&path).map_or_else(
                    || format!("\"{path}\""),
                    |m| {
                        let key = m.interpolate(&Profile::Default, &keys);
                        match &m.source {
                            Some(source) => format!("\"{key}\" in {source} {}", m.name),
                            None => format!("\"{key}\" in {}", m.name),
                        }
                    },
                );
                Err(ConfigError::Invalid(format!(
                    "unknown field `{leaf}` for key {place}"
                )))
            }
            None => Ok(config),
        }
    }
}

/// The environment layer: every `QIPAI_<SECTION>__<KEY>` variable, read as the same type as
/// the key it replaces (figment's own `Env` guesses types from the text, so `secret=123`
/// would become a number), and named by its variable in every error.
struct Environment(Dict);

impl Environment {
    fn read(
        below: &Figment,
        env: impl Iterator<Item = (String, String)>,
    ) -> Result<Environment, ConfigError> {
        let mut sections = Dict::new();
        for (name, text) in env {
            let Some(path) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            let Some((section, key)) = path.split_once("__") else {
                continue;
            };
            let section = section.to_ascii_lowercase();
            let key = key.to_ascii_lowercase();
            if !matches!(below.find_value(&section), Ok(Value::Dict(..))) {
                return Err(ConfigError::Invalid(format!(
                    "{name}: there is no section [{section}]"
                )));
            }
            let value = match below.find_value(&format!("{section}.{key}")) {
                Ok(old) => typed_like(&old, &text),
                // A key with no default in the file (an optional one, such as the Tuolaji
                // seed): read as TOML, or as a string when it is not.
                Err(_) => Some(guess_value(&text)),
            }
            .ok_or_else(|| ConfigError::Invalid(format!("{name}: `{text}` is not valid")))?;
            if let Value::Dict(_, keys) = sections
                .entry(section)
                .or_insert_with(|| Value::from(Dict::new()))
            {
                keys.insert(key, value);
            }
        }
        Ok(Environment(sections))
    }
}

impl Provider for Environment {
    fn metadata(&self) -> Metadata {
        Metadata::named("the environment")
            .interpolater(|_, keys| format!("{ENV_PREFIX}{}", keys.join("__").to_ascii_uppercase()))
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        Ok(Profile::Default.collect(self.0.clone()))
    }
}

/// A figment error as a [`ConfigError`]: figment names the key and the layer it came from
/// (a variable of the environment by its name, a file by its path).
fn invalid(e: figment::Error) -> ConfigError {
    ConfigError::Invalid(e.to_string())
}

/// The first key of `given` (a dotted path) that `known` does not have.
fn unknown_key(given: &Dict, known: &Dict) -> Option<String> {
    given
        .iter()
        .find_map(|(key, value)| match (value, known.get(key)) {
            (_, None) => Some(key.clone()),
            (Value::Dict(_, g), Some(Value::Dict(_, k))) => {
                unknown_key(g, k).map(|inner| format!("{key}.{inner}"))
            }
            _ => None,
        })
}

/// Reads an environment value as the same type as the key it replaces.
fn typed_like(old: &Value, text: &str) -> Option<Value> {
    let t = text.trim();
    Some(match old {
        Value::String(..) | Value::Char(..) => Value::from(text.to_owned()),
        Value::Num(_, n) if n.to_u128().is_some() || n.to_i128().is_some() => {
            if let Ok(u) = t.parse::<u64>() {
                Value::from(u)
            } else {
                Value::from(t.parse::<i64>().ok()?)
            }
        }
        Value::Num(..) => Value::from(t.parse::<f64>().ok()?),
        Value::Bool(..) => Value::from(t.parse::<bool>().ok()?),
        // A list is written with commas: `10.0.0.0/8,127.0.0.1`; empty text, an empty list.
        Value::Array(..) => Value::from(
            text.split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| Value::from(item.to_owned()))
                .collect::<Vec<Value>>(),
        ),
        Value::Empty(..) | Value::Dict(..) => return None,
    })
}

/// Reads an environment value for a key with no default: an integer, a boolean, a float,
/// else the text itself.
fn guess_value(text: &str) -> Value {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        Value::from(i)
    } else if let Ok(b) = t.parse::<bool>() {
        Value::from(b)
    } else if let Ok(f) = t.parse::<f64>() {
        Value::from(f)
    } else {
        Value::from(text.to_owned())
    }
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
        assert_eq!(c.xiangqi.table.time_control.as_deref(), Some("30+10"));
        assert_eq!(c.tuolaji.table.bid_window_ms, Some(5000));
        assert_eq!(c.draughts.house.first_move_ms, 30_000);
        assert_eq!(c.tuolaji.seed, None);
    }

    /// The retention keys of `config/default.toml` load, equal to the built-in defaults
    /// (a file without a `[retention]` section gets the same), and take milliseconds from
    /// the environment (what tests use to sweep at once).
    #[test]
    fn retention_and_the_session_cap_load() {
        let c = Config::defaults().unwrap();
        let r = &c.retention;
        let d = RetentionConfig::default();
        assert_eq!(
            (
                r.every_ms,
                r.abandoned_after_ms,
                r.sessions_after_ms,
                r.logs_after_ms
            ),
            (
                d.every_ms,
                d.abandoned_after_ms,
                d.sessions_after_ms,
                d.logs_after_ms
            )
        );
        assert_eq!(r.every_ms, 3_600_000);
        assert_eq!(c.limits.max_sessions, 40_000);
        let c = Config::layered(None, env(&[("QIPAI_RETENTION__EVERY_MS", "20")])).unwrap();
        assert_eq!(c.retention.every_ms, 20);
    }

    #[test]
    fn environment_overrides_each_type() {
        let c = Config::layered(
            None,
            env(&[
                ("QIPAI_SERVER__ADDR", "0.0.0.0:9000"),
                ("QIPAI_SERVER__RATE_PER_SEC", "7"),
                ("QIPAI_XIANGQI__NATURAL_LIMIT_COUNTS_CHECKS", "false"),
                ("QIPAI_SERVER__TRUSTED_PROXIES", "127.0.0.1/32, 10.0.0.0/8"),
                ("UNRELATED", "x"),
            ]),
        )
        .unwrap();
        assert_eq!(c.server.addr.port(), 9000);
        assert_eq!(c.server.rate_per_sec, 7);
        assert_eq!(c.xiangqi.table.natural_limit_counts_checks, Some(false));
        let proxies: Vec<String> = c
            .server
            .trusted_proxies
            .iter()
            .map(|n| n.to_string())
            .collect();
        assert_eq!(proxies, ["127.0.0.1/32", "10.0.0.0/8"]);
        let none = Config::layered(None, env(&[("QIPAI_SERVER__TRUSTED_PROXIES", "")])).unwrap();
        assert!(none.server.trusted_proxies.is_empty());
        let bad = Config::layered(None, env(&[("QIPAI_SERVER__TRUSTED_PROXIES", "localhost")]));
        assert!(bad.unwrap_err().to_string().contains("`localhost`"));
    }

    /// `[store] sqlite_sync` is "full" unless set; "normal" is the other word it takes.
    #[test]
    fn the_sqlite_sync_is_full_unless_set() {
        let c = Config::layered(None, env(&[])).unwrap();
        assert_eq!(c.store.sqlite_sync, SqliteSyncConfig::Full);
        let c = Config::layered(None, env(&[("QIPAI_STORE__SQLITE_SYNC", "normal")])).unwrap();
        assert_eq!(c.store.sqlite_sync, SqliteSyncConfig::Normal);
        let bad = Config::layered(None, env(&[("QIPAI_STORE__SQLITE_SYNC", "off")]));
        assert!(bad.is_err());
    }

    #[test]
    fn bad_overrides_are_refused_by_name() {
        for (k, v) in [
            ("QIPAI_SERVER__RATE_PER_SEC", "many"),
            ("QIPAI_SERVER__NO_SUCH_KEY", "1"),
            ("QIPAI_NOSECTION__ADDR", "1"),
        ] {
            let err = Config::layered(None, env(&[(k, v)])).unwrap_err();
            assert!(err.to_string().contains(k), "{err}");
        }
    }

    /// A file names only what it changes; the rest comes from the defaults, and the
    /// environment still wins over the file.
    #[test]
    fn a_file_sets_only_its_keys() {
        let file = "[server]\nrate_per_sec = 9\n[tuolaji]\nseed = 42\n";
        let c = Config::layered(Some(file), env(&[("QIPAI_SERVER__RATE_BURST", "3")])).unwrap();
        assert_eq!(c.server.rate_per_sec, 9);
        assert_eq!(c.server.rate_burst, 3);
        assert_eq!(c.server.max_frame_bytes, 65536);
        assert_eq!(c.tuolaji.seed, Some(42));
        let c = Config::layered(Some(file), env(&[("QIPAI_SERVER__RATE_PER_SEC", "4")])).unwrap();
        assert_eq!(c.server.rate_per_sec, 4);
    }

    /// The environment may set a key that has no default in the file (the seed).
    #[test]
    fn environment_sets_optional_keys() {
        let c = Config::layered(None, env(&[("QIPAI_TUOLAJI__SEED", "7")])).unwrap();
        assert_eq!(c.tuolaji.seed, Some(7));
    }

    /// An unknown key in a file is refused with its name.
    #[test]
    fn unknown_file_keys_are_refused_by_name() {
        let err = Config::layered(Some("[server]\nno_such_key = 1\n"), env(&[])).unwrap_err();
        assert!(err.to_string().contains("no_such_key"), "{err}");
        // A game's section too (two flattened types, checked by writing it back).
        let err = Config::layered(Some("[xiangqi]\nno_such_key = 1\n"), env(&[])).unwrap_err();
        assert!(err.to_string().contains("no_such_key"), "{err}");
        let err = Config::layered(None, env(&[("QIPAI_TUOLAJI__NO_SUCH_KEY", "1")])).unwrap_err();
        assert!(
            err.to_string().contains("QIPAI_TUOLAJI__NO_SUCH_KEY"),
            "{err}"
        );
        let err = Config::layered(Some("[nosection]\nx = 1\n"), env(&[])).unwrap_err();
        assert!(err.to_string().contains("nosection"), "{err}");
    }

    /// A value that looks like a number stays text where the key is text; an error names
    /// the variable or the file the bad key came from.
    #[test]
    fn errors_name_their_layer() {
        let c = Config::layered(None, env(&[("QIPAI_CLUSTER__SECRET", "123")])).unwrap();
        assert_eq!(c.cluster.secret, "123");
        let err = Config::layered(None, env(&[("QIPAI_SERVER__NO_SUCH_KEY", "1")])).unwrap_err();
        assert!(
            err.to_string()
                .contains("\"QIPAI_SERVER__NO_SUCH_KEY\" in the environment"),
            "{err}"
        );
        let dir = std::env::temp_dir().join(format!("qipai-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.toml");
        std::fs::write(&file, "[server]\nrate_per_sec = \"many\"\n").unwrap();
        let err = Config::load(Some(&file)).unwrap_err().to_string();
        assert!(err.contains("bad.toml"), "{err}");
        std::fs::write(&file, "[draughts]\nno_such_key = 1\n").unwrap();
        let err = Config::load(Some(&file)).unwrap_err().to_string();
        assert!(
            err.contains("bad.toml") && err.contains("no_such_key"),
            "{err}"
        );
        let missing = Config::load(Some(&dir.join("missing.toml"))).unwrap_err();
        assert!(missing.to_string().contains("missing.toml"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every config file in the repository (the ones README's commands use) loads.
    #[test]
    fn every_shipped_file_loads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for file in ["config/default.toml", "loadtest/closed-loop.toml"] {
            let c = Config::load(Some(&root.join(file)));
            assert!(c.is_ok(), "{file}: {:?}", c.err());
        }
    }
}
