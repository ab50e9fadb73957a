//! The key a per-address budget counts under: an IPv4 address as it is, an IPv6 address by
//! its /64 (one user, one home or one virtual machine is usually given a whole /64, so
//! counting its 2⁶⁴ addresses one by one would let it multiply every per-address budget).

use std::net::{IpAddr, Ipv6Addr};

/// `addr` as per-address budgets and attempt limits count it: IPv4 (also IPv4 mapped into
/// IPv6) as itself, other IPv6 by its first 64 bits.
pub fn per_user(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(
                u128::from(v6) & 0xffff_ffff_ffff_ffff_0000_0000_0000_0000,
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::per_user;
    use std::net::IpAddr;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ipv6_counts_by_its_64_and_ipv4_as_it_is() {
        assert_eq!(per_user(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            per_user(ip("2001:db8:1:2:ffff::9")),
            per_user(ip("2001:db8:1:2::7"))
        );
        assert_ne!(
            per_user(ip("2001:db8:1:3::1")),
            per_user(ip("2001:db8:1:2::1"))
        );
        assert_eq!(per_user(ip("10.1.2.3")), ip("10.1.2.3"));
        assert_eq!(per_user(ip("::ffff:10.1.2.3")), ip("10.1.2.3"));
    }
}
