//! The private-network guard: trawl follows links written by strangers, so
//! it sends no request to a loopback, private (RFC 1918), link-local
//! (169.254/16, where cloud metadata services answer), unique-local or
//! unspecified address unless a seed names that host itself (loopback test
//! sites keep working) or `crawl.allow_private` is set.
//!
//! The address checked is the one connected to: the fetcher's DNS resolver
//! drops private addresses of a name no seed names (so a name that
//! resolves public at first and private later, DNS rebinding, is caught on
//! each new connection), and an address written in the URL is checked
//! before the request. Every request goes through it: pages, each redirect
//! hop, robots.txt, sitemaps.
//!
//! A seed names an origin, not just a host: a private address is reached
//! at the scheme, host and port its seed names, and only for that seed's
//! URLs (a request carries its seed's [`Origin`]). A link from another seed,
//! or to another port of the same private host, is refused; a name a seed
//! names is resolved before such a request and refused if it is private.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, RwLock};

/// Scheme, host (lower case, no brackets) and port (the scheme's default
/// when none is written): what a seed names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of `url`; `None` for URLs without a host or port.
    pub fn of(url: &url::Url) -> Option<Origin> {
        Some(Origin {
            scheme: url.scheme().to_ascii_lowercase(),
            host: key(url.host_str()?),
            port: url.port_or_known_default()?,
        })
    }

    /// The origin of a URL written as text.
    pub fn parse(url: &str) -> Option<Origin> {
        Origin::of(&url::Url::parse(url).ok()?)
    }
}

/// Which hosts may resolve to private addresses.
#[derive(Debug, Default)]
pub struct AddressGuard {
    allow_all: bool,
    /// Hosts (names or addresses, without port, lower case) a seed names.
    named: RwLock<HashSet<String>>,
}

/// A request refused by the guard.
#[derive(Debug, thiserror::Error)]
#[error(
    "{host} resolves to a private or local address ({ip}) that no seed names (crawl.allow_private)"
)]
pub struct Blocked {
    /// The host asked for.
    pub host: String,
    /// The address it resolved to.
    pub ip: IpAddr,
}

/// Whether `ip` is loopback, private, link-local, unique-local, shared
/// (100.64/10), unspecified or multicast: anything but the public internet.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private(IpAddr::V4(v4));
            }
            let s = v6.segments();
            let low_v4 = || IpAddr::V4(std::net::Ipv4Addr::from(u128::from(v6) as u32));
            // IPv4-compatible ::a.b.c.d (deprecated, still routed by some
            // stacks), NAT64 64:ff9b::/96 and its local-use 64:ff9b:1::/48:
            // the IPv4 address is in the low 32 bits.
            if (s[..6] == [0; 6] && !v6.is_loopback() && !v6.is_unspecified())
                || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
            {
                return is_private(low_v4());
            }
            if s[..3] == [0x64, 0xff9b, 1] {
                return true;
            }
            // 6to4 2002:AABB:CCDD::/48 carries a.b.c.d in its next 32 bits.
            if s[0] == 0x2002 {
                let v4 = std::net::Ipv4Addr::from((u32::from(s[1]) << 16) | u32::from(s[2]));
                return is_private(IpAddr::V4(v4));
            }
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        }
    }
}

fn key(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

impl AddressGuard {
    /// A guard; `allow_all`: `crawl.allow_private`, nothing is blocked.
    pub fn new(allow_all: bool) -> AddressGuard {
        AddressGuard {
            allow_all,
            named: RwLock::new(HashSet::new()),
        }
    }

    /// `host` (a seed's; with or without port) may resolve anywhere.
    pub fn allow(&self, host: &str) {
        let h = match host.rsplit_once(':') {
            Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) && !h.ends_with(':') => h,
            _ => host,
        };
        if let Ok(mut n) = self.named.write() {
            n.insert(key(h));
        }
    }

    /// Whether `host` may be reached at `ip`.
    pub fn permits(&self, host: &str, ip: IpAddr) -> bool {
        self.allow_all || !is_private(ip) || self.named.read().is_ok_and(|n| n.contains(&key(host)))
    }

    /// The refusal for a URL whose host is an address the guard does not
    /// permit (names are checked when they resolve).
    pub fn check_url(&self, url: &url::Url) -> Result<(), Blocked> {
        let ip = match url.host() {
            Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
            _ => return Ok(()),
        };
        let host = url.host_str().unwrap_or_default();
        if self.permits(host, ip) {
            Ok(())
        } else {
            Err(Blocked {
                host: host.to_string(),
                ip,
            })
        }
    }

    /// The refusal for a request to `url` made for a seed naming `seed`
    /// (`None`: a request no seed makes, such as a configured example URL,
    /// checked by host as [`AddressGuard::check_url`]). A private target is
    /// reached only at the seed's own origin; a name some seed names (which
    /// the resolver lets resolve privately) is looked up first when the
    /// request is for another origin.
    pub async fn check_request(
        &self,
        url: &url::Url,
        seed: Option<&Origin>,
    ) -> Result<(), Blocked> {
        let Some(seed) = seed else {
            return self.check_url(url);
        };
        if self.allow_all || Origin::of(url).as_ref() == Some(seed) {
            return Ok(());
        }
        let host = url.host_str().unwrap_or_default();
        let blocked = |ip| Blocked {
            host: host.to_string(),
            ip,
        };
        match url.host() {
            Some(url::Host::Ipv4(v4)) if is_private(IpAddr::V4(v4)) => Err(blocked(IpAddr::V4(v4))),
            Some(url::Host::Ipv6(v6)) if is_private(IpAddr::V6(v6)) => Err(blocked(IpAddr::V6(v6))),
            Some(url::Host::Domain(name))
                if self.named.read().is_ok_and(|n| n.contains(&key(name))) =>
            {
                let port = url.port_or_known_default().unwrap_or(0);
                // Unresolvable: the request fails on its own.
                let Ok(addrs) = tokio::net::lookup_host((name, port)).await else {
                    return Ok(());
                };
                match addrs.map(|a| a.ip()).find(|ip| is_private(*ip)) {
                    Some(ip) => Err(blocked(ip)),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }
}

/// The fetcher's DNS resolver: the system's, without the addresses the
/// guard does not permit for the name.
pub(super) struct GuardedResolver(pub(super) Arc<AddressGuard>);

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let guard = self.0.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let all: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let kept: Vec<SocketAddr> = all
                .iter()
                .copied()
                .filter(|a| guard.permits(&host, a.ip()))
                .collect();
            if kept.is_empty() {
                if let Some(a) = all.first() {
                    let b: Box<dyn std::error::Error + Send + Sync> =
                        Box::new(Blocked { host, ip: a.ip() });
                    return Err(b);
                }
            }
            let addrs: reqwest::dns::Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_local_and_metadata_addresses_are_private() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "::ffff:10.0.0.1",
            "::",
            "::127.0.0.9",
            "::10.0.0.1",
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "2002:7f00:1::1",
            "2002:c0a8:101::",
        ] {
            assert!(is_private(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "93.184.216.34",
            "172.32.0.1",
            "8.8.8.8",
            "2606:4700::1111",
            "100.128.0.1",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "::8.8.8.8",
        ] {
            assert!(!is_private(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn a_host_a_seed_names_may_be_private_others_may_not() {
        let g = AddressGuard::new(false);
        g.allow("127.0.0.2:8080");
        g.allow("Intranet.Example");
        let lo: IpAddr = "127.0.0.2".parse().unwrap();
        assert!(g.permits("127.0.0.2", lo));
        assert!(g.permits("intranet.example", "10.0.0.5".parse().unwrap()));
        assert!(!g.permits("127.0.0.3", "127.0.0.3".parse().unwrap()));
        assert!(!g.permits("metadata.example", "169.254.169.254".parse().unwrap()));
        assert!(g.permits("public.example", "93.184.216.34".parse().unwrap()));
        let url = url::Url::parse("http://169.254.169.254/latest/meta-data/").unwrap();
        assert!(g.check_url(&url).is_err());
        assert!(AddressGuard::new(true).check_url(&url).is_ok());
        g.allow("[::1]:80");
        assert!(g
            .check_url(&url::Url::parse("http://[::1]:80/").unwrap())
            .is_ok());
    }
}
