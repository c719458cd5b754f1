//! `[[site]]`: settings for the requests to some hosts, matched by host or
//! by domain (the domain and its subdomains): spacing, user agent, extra
//! headers, a cookie file, basic auth taken from the environment, a proxy.
//! A seed line's options of the same names override them for its URLs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use crate::fetch::{check_header, is_proxy_url};

/// One `[[site]]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    /// The host it applies to (`shop.example.com`, `host:port` for another port).
    pub host: Option<String>,
    /// Or the domain: the domain itself and every subdomain.
    pub domain: Option<String>,
    /// Least time between two requests to a host of the site, in ms.
    pub delay_ms: Option<u64>,
    /// Requests in flight to a host of the site at once (1 to 64; replaces
    /// `crawl.max_per_host`).
    pub concurrency: Option<usize>,
    /// The `User-Agent` sent to it (robots.txt is still matched with the
    /// crawl's own product token).
    pub user_agent: Option<String>,
    /// Extra header fields sent with every request to it.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// A Netscape cookie file (as curl and wget write them).
    pub cookies: Option<PathBuf>,
    /// The environment variable holding `user:password` for basic auth.
    pub auth_env: Option<String>,
    /// Secret header fields: name = the environment variable holding the
    /// value (sent, never archived, stored, logged or exported).
    #[serde(default)]
    pub headers_env: BTreeMap<String, String>,
    /// A proxy for its requests (`http://`, `https://`, `socks5://`, `socks5h://`).
    pub proxy: Option<String>,
}

impl SiteConfig {
    /// Checks the table: (key, message) of the first bad value.
    pub(super) fn validate(&self, i: usize) -> Result<(), (String, String)> {
        let key = |k: &str| format!("site[{i}].{k}");
        match (&self.host, &self.domain) {
            (Some(_), Some(_)) | (None, None) => {
                return Err((
                    key("host"),
                    "give exactly one of host = \"HOST\" or domain = \"DOMAIN\"".into(),
                ))
            }
            (Some(h), None) | (None, Some(h)) if h.trim().is_empty() || h.contains('/') => {
                return Err((key("host"), format!("{h:?} is not a host or domain name")))
            }
            _ => {}
        }
        if let Some(d) = self.delay_ms.filter(|&d| d > 3_600_000) {
            return Err((
                key("delay_ms"),
                format!("{d} is out of range (allowed: 0 to 3600000)"),
            ));
        }
        if let Some(n) = self.concurrency.filter(|&n| !(1..=64).contains(&n)) {
            return Err((
                key("concurrency"),
                format!("{n} is out of range (allowed: 1 to 64)"),
            ));
        }
        if self
            .user_agent
            .as_ref()
            .is_some_and(|u| u.trim().is_empty() || u.bytes().any(|b| b < 0x20 || b == 0x7f))
        {
            return Err((key("user_agent"), "must be one non-empty line".into()));
        }
        for (name, value) in &self.headers {
            check_header(name, value).map_err(|m| (key("headers"), m))?;
        }
        for (name, var) in &self.headers_env {
            crate::fetch::check_secret_header(name).map_err(|m| (key("headers_env"), m))?;
            if var.is_empty() || var.contains(['=', '\0']) {
                return Err((
                    key("headers_env"),
                    format!("{var:?} is not an environment variable name"),
                ));
            }
        }
        if let Some(p) = self.proxy.as_ref().filter(|p| !is_proxy_url(p)) {
            return Err((
                key("proxy"),
                format!("{p:?} is not a proxy URL (http://, https://, socks5:// or socks5h://HOST:PORT)"),
            ));
        }
        if let Some(v) = self
            .auth_env
            .as_ref()
            .filter(|v| v.is_empty() || v.contains('='))
        {
            return Err((
                key("auth_env"),
                format!("{v:?} is not an environment variable name"),
            ));
        }
        Ok(())
    }
}
