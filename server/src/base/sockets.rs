//! Descriptors: every accepted TCP connection holds one from its accept to its close, a plain
//! HTTP request and a WebSocket alike, and the process may hold only `RLIMIT_NOFILE` of them.
//! An accept past that limit fails (`EMFILE`) and the listener can answer nobody, `/healthz`
//! included; so the server stops short of it (PROTOCOL.md §13, "descriptors"):
//!
//! - `limits.descriptors_kept` descriptors are never given to sockets (the listener, the
//!   store's files, the runtime's own, the refusal of one more connection);
//! - below that, the last `limits.descriptor_reserve` are only for `/healthz` and a new
//!   player's WebSocket upgrade: a connection accepted there must send each request's head
//!   within [`RESERVE_HEAD_MS`];
//! - plain HTTP (a connection until it becomes a WebSocket) is capped in all
//!   (`limits.max_http_connections`) and by address (`limits.http_connections_per_addr`);
//!   over the total it is served from the reserve, over its address's cap refused;
//! - past every place the connection is answered `503` at once and closed.
//!
//! WebSockets are counted here as descriptors and besides by their own budgets
//! ([`crate::base::budget::Budget::connection`]).

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::base::addr_key::per_user;
use crate::base::budget::{Keyed, Total};
use crate::base::config::Config;

/// How long a connection served from the reserve may take to send its request's head: the
/// probe of a load balancer or a browser's upgrade sends it at once.
pub const RESERVE_HEAD_MS: u64 = 1000;

/// How an accepted connection is served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Within the plain HTTP budgets: every path, kept alive between requests.
    Normal,
    /// From the reserve: `/healthz` and `/ws` only, a short wait for each request's head.
    Reserve,
}

/// Why a connection was refused at its accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turned {
    /// The descriptors left are the ones kept: `503`.
    Descriptors,
    /// Plain HTTP is over its total and the reserve is full: `503`.
    Full,
    /// Its address holds as many plain HTTP connections as it may: `429`.
    Address,
}

/// The descriptors' and plain HTTP's budgets and counts.
#[derive(Debug)]
pub struct Sockets {
    /// Every accepted connection open now, capped below the process's limit.
    open: Total,
    /// The process's descriptor limit (`RLIMIT_NOFILE`), when known.
    limit: Option<usize>,
    reserve: usize,
    /// Plain HTTP connections outside the reserve.
    http: Total,
    /// Plain HTTP connections by address (the reserve's too).
    http_by_addr: Keyed<IpAddr>,
    /// Connections served from the reserve now.
    reserved: Total,
    turned: [AtomicU64; 3],
}

impl Sockets {
    /// The budgets of `config` under the descriptor limit `limit` (`None`: unknown, so only
    /// the configured caps hold).
    pub fn new(config: &Config, limit: Option<usize>) -> Sockets {
        let l = &config.limits;
        let open = limit.map_or(usize::MAX, |n| n.saturating_sub(l.descriptors_kept));
        Sockets {
            open: Total::new(open),
            limit,
            reserve: l.descriptor_reserve,
            http: Total::new(l.max_http_connections),
            http_by_addr: Keyed::new(l.http_connections_per_addr),
            reserved: Total::new(l.descriptor_reserve),
            turned: Default::default(),
        }
    }

    /// A place for a connection accepted from `peer` (`trusted`: a configured proxy, which
    /// carries many clients and is not capped by address), or why not.
    ///
    /// # Errors
    /// [`Turned`]: what the connection is refused for (counted for `/metrics`).
    pub fn admit(self: &Arc<Self>, peer: IpAddr, trusted: bool) -> Result<Admitted, Turned> {
        let turned = |why: Turned| {
            if let Some(n) = self.turned.get(why as usize) {
                n.fetch_add(1, Relaxed);
            }
            Err(why)
        };
        if !self.open.take() {
            return turned(Turned::Descriptors);
        }
        let socket = SocketTicket {
            sockets: Arc::clone(self),
        };
        let addr = (!trusted).then(|| per_user(peer));
        if let Some(addr) = addr {
            if !self.http_by_addr.take(addr) {
                return turned(Turned::Address);
            }
        }
        let below_reserve = self.open.get() <= self.open.cap.saturating_sub(self.reserve);
        let tier = if below_reserve && self.http.take() {
            Tier::Normal
        } else if self.reserved.take() {
            Tier::Reserve
        } else {
            if let Some(addr) = addr {
                self.http_by_addr.give(addr);
            }
            return turned(Turned::Full);
        };
        Ok(Admitted {
            socket,
            http: HttpTicket {
                sockets: Arc::clone(self),
                addr,
                tier,
            },
        })
    }

    /// The `/metrics` families: the limits, the counts, the refusals.
    pub fn scrape(&self, scrape: &crate::base::metrics::Scrape<'_>) {
        let limits = [
            ("descriptors", self.limit.unwrap_or(0)),
            ("sockets", self.open.cap),
            ("descriptor_reserve", self.reserve),
            ("max_http_connections", self.http.cap),
            ("http_connections_per_addr", self.http_by_addr.cap),
        ];
        for (key, value) in limits {
            scrape.gauge(
                "qipai_limit",
                "Each configured budget ([limits]).",
                &[("key", key)],
                value as f64,
            );
        }
        for (what, n) in [
            ("sockets", self.open.get()),
            ("http_connections", self.http.get()),
            ("http_reserved", self.reserved.get()),
        ] {
            scrape.gauge(
                "qipai_in_use",
                "What the budgets count now.",
                &[("what", what)],
                n as f64,
            );
        }
        let names = ["descriptors", "http_full", "http_per_addr"];
        for (what, n) in names.iter().zip(&self.turned) {
            scrape.counter(
                "qipai_refused_total",
                "Requests refused by a budget, by what.",
                &[("what", what)],
                n.load(Relaxed),
            );
        }
    }
}

/// An accepted connection's places: its descriptor (until it closes, WebSocket or not) and
/// its place as plain HTTP (until it closes or becomes a WebSocket).
#[derive(Debug)]
pub struct Admitted {
    pub socket: SocketTicket,
    pub http: HttpTicket,
}

/// A descriptor's place, held by the connection's stream.
#[derive(Debug)]
pub struct SocketTicket {
    sockets: Arc<Sockets>,
}

impl Drop for SocketTicket {
    fn drop(&mut self) {
        self.sockets.open.give();
    }
}

/// A plain HTTP connection's place.
#[derive(Debug)]
pub struct HttpTicket {
    sockets: Arc<Sockets>,
    addr: Option<IpAddr>,
    tier: Tier,
}

impl HttpTicket {
    /// How the connection is served.
    pub fn tier(&self) -> Tier {
        self.tier
    }
}

impl Drop for HttpTicket {
    fn drop(&mut self) {
        match self.tier {
            Tier::Normal => self.sockets.http.give(),
            Tier::Reserve => self.sockets.reserved.give(),
        }
        if let Some(addr) = self.addr {
            self.sockets.http_by_addr.give(addr);
        }
    }
}

/// The process's soft limit on open descriptors, from `/proc/self/limits` (`None` where there
/// is no such file, or no limit).
pub fn descriptor_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sockets(limit: usize, tweak: impl FnOnce(&mut Config)) -> Arc<Sockets> {
        let mut config = Config::defaults().unwrap();
        config.limits.descriptors_kept = 10;
        config.limits.descriptor_reserve = 5;
        tweak(&mut config);
        Arc::new(Sockets::new(&config, Some(limit)))
    }

    fn addr(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 1, n])
    }

    #[test]
    fn the_last_places_are_the_reserve_and_the_kept_are_never_given() {
        let s = sockets(30, |_| {});
        let normal: Vec<_> = (0..15).map(|i| s.admit(addr(i), false).unwrap()).collect();
        assert!(normal.iter().all(|a| a.http.tier() == Tier::Normal));
        let reserve: Vec<_> = (15..20).map(|i| s.admit(addr(i), false).unwrap()).collect();
        assert!(reserve.iter().all(|a| a.http.tier() == Tier::Reserve));
        assert_eq!(s.admit(addr(20), false).unwrap_err(), Turned::Descriptors);
        drop(reserve);
        assert_eq!(s.admit(addr(20), false).unwrap().http.tier(), Tier::Reserve);
        assert_eq!(s.open.get(), 15, "every place given back");
    }

    #[test]
    fn plain_http_is_capped_by_address_and_in_all() {
        let s = sockets(1000, |c| {
            c.limits.http_connections_per_addr = 2;
            c.limits.max_http_connections = 3;
        });
        let _a = s.admit(addr(1), false).unwrap();
        let _b = s.admit(addr(1), false).unwrap();
        assert_eq!(s.admit(addr(1), false).unwrap_err(), Turned::Address);
        let proxied: Vec<_> = (0..3).map(|_| s.admit(addr(1), true).unwrap()).collect();
        assert_eq!(proxied[0].http.tier(), Tier::Normal);
        assert_eq!(proxied[1].http.tier(), Tier::Reserve, "over the total");
        let upgraded = proxied.into_iter().map(|a| a.socket).collect::<Vec<_>>();
        assert_eq!(s.http.get(), 2, "a WebSocket is no longer plain HTTP");
        assert_eq!(s.open.get(), 5);
        drop(upgraded);
        assert_eq!(s.open.get(), 2);
    }

    #[test]
    fn reads_this_process_limit() {
        assert!(descriptor_limit().is_some_and(|n| n > 0));
    }
}
