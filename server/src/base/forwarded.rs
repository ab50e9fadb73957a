//! The client's address behind a reverse proxy.
//!
//! A server reached through a proxy (TLS in front, `deploy/`) sees one peer, the proxy, for
//! every player: each per-address budget and rate limit would count them all as one. The
//! proxy says who it serves in `X-Forwarded-For` (or RFC 7239 `Forwarded`), but anyone can
//! write those headers, so they are read only when the peer is a configured trusted proxy
//! (`server.trusted_proxies`), and then from the right: each trusted proxy appends the
//! address it saw, so the rightmost hop that is not itself a trusted proxy is the client
//! (what a client wrote on the left is never believed). Without the setting, or from any
//! other peer, the headers are ignored and the peer is the client.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use hyper::header::{HeaderName, FORWARDED};
use hyper::HeaderMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `X-Forwarded-For`: the de facto header every proxy writes (nginx, Caddy, HAProxy).
static X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The address a request's budgets count: the client behind trusted proxies, else `peer`.
///
/// `X-Forwarded-For` is read when present, `Forwarded` otherwise. Walking its hops from the
/// right, the first one outside `trusted` is the client; when every hop is trusted the
/// leftmost is. A hop that cannot be read (`unknown`, an obfuscated name, garbage) ends the
/// walk at the last hop read, since nothing to its left can be vouched for.
pub fn client_addr(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let peer = peer.to_canonical();
    if !is_trusted(peer, trusted) {
        return peer;
    }
    let hops = hops(headers);
    let mut client = peer;
    for hop in hops.iter().rev() {
        let Some(addr) = hop else {
            break;
        };
        client = addr.to_canonical();
        if !is_trusted(client, trusted) {
            break;
        }
    }
    client
}

fn is_trusted(addr: IpAddr, trusted: &[Cidr]) -> bool {
    trusted.iter().any(|net| net.contains(addr))
}

/// The hops a request names, left to right (`None` for one that cannot be read).
fn hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name: &HeaderName| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect()
    };
    let xff = values(&X_FORWARDED_FOR);
    if !xff.is_empty() {
        return xff
            .iter()
            .flat_map(|v| v.split(','))
            .map(|hop| parse_node(hop.trim()))
            .collect();
    }
    values(&FORWARDED)
        .iter()
        .flat_map(|v| v.split(','))
        .map(|element| {
            element
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .find(|(key, _)| key.trim().eq_ignore_ascii_case("for"))
                .and_then(|(_, node)| parse_node(node.trim()))
        })
        .collect()
}

/// One hop: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]:4711`, quoted or not.
fn parse_node(text: &str) -> Option<IpAddr> {
    let text = text.trim_matches('"');
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    text.parse().ok().or_else(|| {
        let (host, port) = text.rsplit_once(':')?;
        port.parse::<u16>().ok()?;
        host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
    })
}

/// A network in CIDR notation (`127.0.0.1/32`, `10.0.0.0/8`, `::1/128`; a bare address is
/// the one address), as `server.trusted_proxies` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `addr` is in this network (an IPv4 address never is in an IPv6 one).
    pub fn contains(&self, addr: IpAddr) -> bool {
        match (self.net, addr.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(a)) => {
                masked(u128::from(u32::from(net)), 32, self.prefix)
                    == masked(u128::from(u32::from(a)), 32, self.prefix)
            }
            (IpAddr::V6(net), IpAddr::V6(a)) => {
                masked(u128::from(net), 128, self.prefix) == masked(u128::from(a), 128, self.prefix)
            }
            _ => false,
        }
    }
}

/// The first `prefix` of an address's `bits` bits.
fn masked(addr: u128, bits: u8, prefix: u8) -> u128 {
    let host_bits = u32::from(bits - prefix);
    addr.checked_shr(host_bits).unwrap_or(0)
}

/// Why a `trusted_proxies` entry was refused.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not an address or a network such as 10.0.0.0/8")]
pub struct BadCidr(String);

impl FromStr for Cidr {
    type Err = BadCidr;

    fn from_str(text: &str) -> Result<Cidr, BadCidr> {
        let bad = || BadCidr(text.to_owned());
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text.trim(), None),
        };
        let net: IpAddr = addr.parse().map_err(|_| bad())?;
        let bits = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().map_err(|_| bad())?,
            None => bits,
        };
        if prefix > bits {
            return Err(bad());
        }
        Ok(Cidr { net, prefix })
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.net, self.prefix)
    }
}

impl Serialize for Cidr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cidr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cidr, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nets(list: &[&str]) -> Vec<Cidr> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, value.parse().unwrap());
        }
        h
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn networks_parse_and_contain() {
        let lo = "127.0.0.1/32".parse::<Cidr>().unwrap();
        assert!(lo.contains(ip("127.0.0.1")));
        assert!(!lo.contains(ip("127.0.0.2")));
        assert!(lo.contains(ip("::ffff:127.0.0.1")));
        let ten = "10.0.0.0/8".parse::<Cidr>().unwrap();
        assert!(ten.contains(ip("10.200.3.4")) && !ten.contains(ip("11.0.0.1")));
        let all = "0.0.0.0/0".parse::<Cidr>().unwrap();
        assert!(all.contains(ip("203.0.113.9")) && !all.contains(ip("::1")));
        let v6 = "fd00::/8".parse::<Cidr>().unwrap();
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        assert_eq!("::1".parse::<Cidr>().unwrap().to_string(), "::1/128");
        for bad in ["", "10.0.0.0/33", "::/129", "localhost", "10.0.0.0/x"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let h = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(client_addr(ip("203.0.113.1"), &h, &[]), ip("203.0.113.1"));
        let trusted = nets(&["127.0.0.1/32"]);
        assert_eq!(
            client_addr(ip("203.0.113.1"), &h, &trusted),
            ip("203.0.113.1")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_rightmost_untrusted_hop() {
        let trusted = nets(&["127.0.0.1/32", "10.0.0.0/8"]);
        let peer = ip("127.0.0.1");
        // The client wrote a false first hop; the proxies appended what they saw.
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 198.51.100.7, 10.0.0.5")]);
        assert_eq!(client_addr(peer, &h, &trusted), ip("198.51.100.7"));
        // Several header lines are one list.
        let h = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        assert_eq!(client_addr(peer, &h, &trusted), ip("198.51.100.7"));
        // No header: the proxy itself.
        assert_eq!(client_addr(peer, &HeaderMap::new(), &trusted), peer);
        // Every hop trusted: the leftmost.
        let h = headers(&[("x-forwarded-for", "10.1.1.1, 10.0.0.5")]);
        assert_eq!(client_addr(peer, &h, &trusted), ip("10.1.1.1"));
        // An unreadable hop ends the walk at the last one read.
        let h = headers(&[("x-forwarded-for", "198.51.100.7, unknown")]);
        assert_eq!(client_addr(peer, &h, &trusted), peer);
    }

    #[test]
    fn forwarded_is_read_when_there_is_no_x_forwarded_for() {
        let trusted = nets(&["127.0.0.1/32"]);
        let peer = ip("127.0.0.1");
        let h = headers(&[(
            "forwarded",
            r#"for=1.2.3.4, for="[2001:db8:cafe::17]:4711";proto=https"#,
        )]);
        assert_eq!(client_addr(peer, &h, &trusted), ip("2001:db8:cafe::17"));
        let h = headers(&[("forwarded", "proto=https;For=198.51.100.7:443")]);
        assert_eq!(client_addr(peer, &h, &trusted), ip("198.51.100.7"));
        let h = headers(&[
            ("forwarded", "for=1.2.3.4"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        assert_eq!(client_addr(peer, &h, &trusted), ip("198.51.100.7"));
    }
}
