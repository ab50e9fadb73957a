//! The server's configuration, in layers: the defaults (`config/default.toml`, compiled in),
//! then a file given with `--config` that sets only the keys it cares about, then the
//! environment (`QIPAI_<SECTION>__<KEY>`), which may set any key. A key nobody knows is
//! refused with its name. Adding a key is adding a field here and a documented line with its
//! default in `config/default.toml`.

use std::net::SocketAddr;
use std::path::Path;

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
    #[serde(default)]
    pub director: DirectorConfig,
    #[serde(default)]
    pub cluster: ClusterConfig,
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
    /// 0: keep raw logs forever.
    pub prune_after_days: u64,
    /// The writer's probe of the backend between commits (0: never).
    pub health_check_ms: u64,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            url: String::new(),
            group_commit_ms: 0,
            prune_after_days: 0,
            health_check_ms: 1000,
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
    /// `path` (only the keys it sets), then every `QIPAI_<SECTION>__<KEY>` variable of the
    /// process environment.
    ///
    /// # Errors
    /// [`ConfigError`] when the file cannot be read, or a key or value is wrong.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let text = match path {
            Some(p) => Some(
                std::fs::read_to_string(p).map_err(|source| ConfigError::Read {
                    path: p.display().to_string(),
                    source,
                })?,
            ),
            None => None,
        };
        Config::layered(text.as_deref(), std::env::vars())
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
        let parse = |text: &str| {
            toml::from_str::<toml::Table>(text).map_err(|e| ConfigError::Invalid(e.to_string()))
        };
        let mut table = parse(DEFAULT_TOML)?;
        // Keys the environment added that the defaults do not list, to name the variable
        // if the key turns out to be unknown.
        let mut added = Vec::new();
        if let Some(text) = file {
            overlay(&mut table, parse(text)?);
        }
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
            let new = match sec.get(&key) {
                Some(old) => override_value(old, &value),
                // A key with no default in the file (an optional one, such as the
                // Tuolaji seed): read as TOML, or as a string when it is not.
                None => {
                    added.push((name.clone(), key.clone()));
                    Some(guess_value(&value))
                }
            }
            .ok_or_else(|| ConfigError::Invalid(format!("{name}: `{value}` is not valid")))?;
            sec.insert(key, new);
        }
        let named = |message: String| match added
            .iter()
            .find(|(_, key)| message.contains(&format!("`{key}`")))
        {
            Some((name, _)) => ConfigError::Invalid(format!("{name}: {message}")),
            None => ConfigError::Invalid(message),
        };
        let config: Config = toml::Value::Table(table.clone())
            .try_into()
            .map_err(|e: toml::de::Error| named(e.to_string()))?;
        // A game's section is two flattened types, which serde cannot check for unknown
        // keys: every key given must come back when the configuration is written out.
        let back = toml::Table::try_from(&config).map_err(|e| named(e.to_string()))?;
        match unknown_key(&table, &back) {
            Some(path) => {
                let leaf = path.rsplit('.').next().unwrap_or(&path);
                Err(named(format!("unknown field `{leaf}` (`{path}`)")))
            }
            None => Ok(config),
        }
    }
}

/// The first key of `given` (a dotted path) that `known` does not have.
fn unknown_key(given: &toml::Table, known: &toml::Table) -> Option<String> {
    given
        .iter()
        .find_map(|(key, value)| match (value, known.get(key)) {
            (_, None) => Some(key.clone()),
            (toml::Value::Table(g), Some(toml::Value::Table(k))) => {
                unknown_key(g, k).map(|inner| format!("{key}.{inner}"))
            }
            _ => None,
        })
}

/// Lays `top` over `base`: tables merge key by key, any other value replaces.
fn overlay(base: &mut toml::Table, top: toml::Table) {
    for (key, value) in top {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(t)) => overlay(b, t),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// Reads an environment value as the same TOML type as the key it replaces.
fn override_value(old: &toml::Value, text: &str) -> Option<toml::Value> {
    Some(match old {
        toml::Value::String(_) => toml::Value::String(text.to_owned()),
        toml::Value::Integer(_) => toml::Value::Integer(text.trim().parse().ok()?),
        toml::Value::Float(_) => toml::Value::Float(text.trim().parse().ok()?),
        toml::Value::Boolean(_) => toml::Value::Boolean(text.trim().parse().ok()?),
        // A list is written with commas: `10.0.0.0/8,127.0.0.1`; empty text, an empty list.
        toml::Value::Array(_) => toml::Value::Array(
            text.split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| toml::Value::String(item.to_owned()))
                .collect(),
        ),
        _ => return None,
    })
}

/// Reads an environment value for a key with no default: an integer, a boolean, a float,
/// else the text itself.
fn guess_value(text: &str) -> toml::Value {
    let t = text.trim();
    if let Ok(i) = t.parse() {
        toml::Value::Integer(i)
    } else if let Ok(b) = t.parse() {
        toml::Value::Boolean(b)
    } else if let Ok(f) = t.parse() {
        toml::Value::Float(f)
    } else {
        toml::Value::String(text.to_owned())
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
