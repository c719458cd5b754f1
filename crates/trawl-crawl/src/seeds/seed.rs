//! A seed and its options, the types every part of the crawl reads (the
//! parser in `mod.rs` makes them, the registry keeps them, the book hands
//! them out): kept apart from the parser so those parts depend on the
//! types, not on each other.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use url::Url;

use crate::frontier::url::host_key;

/// How far links may lead from a seed (`crawl.scope`, `scope=`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The seed's host (with its port).
    #[default]
    Host,
    /// The seed's site and its subdomains.
    Domain,
    /// Anywhere.
    Any,
}

impl Scope {
    /// From its name in config and on seed lines (`host`, `domain`, `any`).
    pub fn parse(s: &str) -> Option<Scope> {
        match s {
            "host" => Some(Scope::Host),
            "domain" => Some(Scope::Domain),
            "any" => Some(Scope::Any),
            _ => None,
        }
    }
}

/// Crawl mode of a seed (`crawl.mode`, `mode=`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Main text and metadata of every page.
    #[default]
    Article,
    /// Articles, and product fields read with learned per-site templates.
    Ecommerce,
}

/// When pages are rendered in a headless browser (`render.mode`,
/// `render=`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RenderMode {
    /// Never: the fetched HTML is extracted as it is.
    Never,
    /// When the fetched HTML needs it (an app shell, a price that comes
    /// with a script) and holds no embedded state to read instead.
    #[default]
    Auto,
    /// Every HTML page.
    Always,
}

impl RenderMode {
    /// Reads `never`, `auto` or `always`.
    pub fn parse(s: &str) -> Option<RenderMode> {
        match s {
            "never" => Some(RenderMode::Never),
            "auto" => Some(RenderMode::Auto),
            "always" => Some(RenderMode::Always),
            _ => None,
        }
    }
}

/// A seed and its options (persisted in the store by seed id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Seed {
    /// The seed URL.
    pub url: String,
    /// Its host key.
    pub host: String,
    /// Links followed this deep.
    pub max_depth: u16,
    /// The seed's page budget.
    pub max_pages: Option<u64>,
    /// Which links are followed.
    pub scope: Scope,
    /// Article or e-commerce mode.
    pub mode: Mode,
    /// Whether the host's sitemaps are read.
    pub sitemaps: bool,
    /// Named focus topic (`None`: the `[focus]` topic, if any).
    #[serde(default)]
    pub topic: Option<String>,
    /// Links are queued only when they match one of these regular
    /// expressions (`include=`; none: every link).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    /// Links matching one of these are never queued (`exclude=`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// This seed's least time between requests to a host, in ms (`delay=`;
    /// `None`: `crawl.min_delay_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    /// Requests in flight to the seed's own host at once (`concurrency=`;
    /// `None`: its `[[site]]` table's, else `crawl.max_per_host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
    /// How often this seed's hubs are fetched again, in seconds (`revisit=`;
    /// 0: never; `None`: `revisit.hubs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisit: Option<u64>,
    /// How often this seed's other pages are fetched again, in seconds
    /// (`revisit_pages=`; 0: never; `None`: `revisit.pages`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisit_pages: Option<u64>,
    /// How this seed's requests are sent (`user_agent=`, `header=`,
    /// `cookies=`, `auth_env=`, `proxy=`); over a `[[site]]` table's.
    #[serde(default, skip_serializing_if = "RequestSettings::is_empty")]
    pub request: RequestSettings,
    /// When its pages are rendered (`render=`; `None`: `render.mode`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<RenderMode>,
    /// Added through the daemon's API (read from its [`API_FILE`](super::API_FILE)): its
    /// host is not trusted to be a private address; the guard treats it as
    /// a link's host (only a seed file may name a private origin).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guarded: bool,
    /// The seed URL's place in its host's queue, 0 to 1 (`priority=`;
    /// `None`: 1, ahead of links).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f32>,
}

/// How requests are sent to some URLs: a seed line's options or a
/// `[[site]]` table. Secrets are not in it: a cookie file's path and the
/// name of the environment variable with the credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestSettings {
    /// The `User-Agent` sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// Extra header fields (name, value).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
    /// A Netscape cookie file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cookies: Option<PathBuf>,
    /// The environment variable holding `user:password` for basic auth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_env: Option<String>,
    /// Secret header fields (name, environment variable holding the
    /// value): sent, never archived, stored, logged or exported; only the
    /// variable's name is kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub header_env: Vec<(String, String)>,
    /// A proxy URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy: Option<String>,
}

impl RequestSettings {
    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == RequestSettings::default()
    }

    /// These settings over `base`: each one set here wins; headers of both
    /// are sent (these last).
    pub fn over(&self, base: &RequestSettings) -> RequestSettings {
        let mut headers = base.headers.clone();
        headers.extend(self.headers.iter().cloned());
        let mut header_env = base.header_env.clone();
        header_env.extend(self.header_env.iter().cloned());
        RequestSettings {
            header_env,
            user_agent: self.user_agent.clone().or_else(|| base.user_agent.clone()),
            headers,
            cookies: self.cookies.clone().or_else(|| base.cookies.clone()),
            auth_env: self.auth_env.clone().or_else(|| base.auth_env.clone()),
            proxy: self.proxy.clone().or_else(|| base.proxy.clone()),
        }
    }
}

/// Whether `v` can name an environment variable.
pub(super) fn is_env_name(v: &str) -> bool {
    !v.is_empty() && !v.contains(['=', '\0'])
}

/// An option naming an environment variable needs it set: a seed crawled
/// without the credentials it was given would be crawled as someone else
/// (the same rule as `[[site]]`'s, which stops the start).
pub(super) fn env_is_set(option: &str, var: &str) -> Result<(), String> {
    if std::env::var_os(var).is_some() {
        Ok(())
    } else {
        Err(format!(
            "option {option}: the environment variable {var} is not set"
        ))
    }
}

impl Seed {
    /// A seed of `host` with nothing set: depth 0, host scope, article
    /// mode, no sitemaps, no patterns, the crawl's settings (what a URL
    /// whose seed is unknown is crawled under).
    pub fn bare(host: &str) -> Seed {
        Seed {
            url: String::new(),
            host: host.to_string(),
            max_depth: 0,
            max_pages: None,
            scope: Scope::Host,
            mode: Mode::Article,
            sitemaps: false,
            topic: None,
            include: Vec::new(),
            exclude: Vec::new(),
            delay_ms: None,
            concurrency: None,
            revisit: None,
            revisit_pages: None,
            request: RequestSettings::default(),
            render: None,
            guarded: false,
            priority: None,
        }
    }

    /// The seed URL's priority in its host's queue.
    pub fn url_priority(&self) -> f32 {
        self.priority.unwrap_or(1.0)
    }

    /// This seed as a seed line (its URL and every option it has), which
    /// the parser reads back as this seed; `Err` names an option whose
    /// value a line cannot hold (a line break, or ` #`, which starts a
    /// comment).
    pub fn to_line(&self) -> Result<String, String> {
        let mut out = vec![self.url.clone()];
        let mut opt = |k: &str, v: String| out.push(format!("{k}={v}"));
        opt("depth", self.max_depth.to_string());
        if let Some(n) = self.max_pages {
            opt("max_pages", n.to_string());
        }
        opt("scope", format!("{:?}", self.scope).to_lowercase());
        opt("mode", format!("{:?}", self.mode).to_lowercase());
        opt("sitemaps", self.sitemaps.to_string());
        if let Some(r) = self.render {
            opt("render", format!("{r:?}").to_lowercase());
        }
        if let Some(t) = &self.topic {
            opt("topic", quoted(t)?);
        }
        for i in &self.include {
            opt("include", quoted(i)?);
        }
        for e in &self.exclude {
            opt("exclude", quoted(e)?);
        }
        let numbers = [
            ("delay", self.delay_ms),
            ("concurrency", self.concurrency.map(|c| c as u64)),
            ("revisit", self.revisit),
            ("revisit_pages", self.revisit_pages),
        ];
        for (k, v) in numbers {
            if let Some(v) = v {
                opt(k, v.to_string());
            }
        }
        if let Some(p) = self.priority {
            opt("priority", p.to_string());
        }
        let r = &self.request;
        if let Some(ua) = &r.user_agent {
            opt("user_agent", quoted(ua)?);
        }
        for (name, value) in &r.headers {
            opt("header", quoted(&format!("{name}:{value}"))?);
        }
        for (name, var) in &r.header_env {
            opt("header_env", quoted(&format!("{name}:{var}"))?);
        }
        if let Some(c) = &r.cookies {
            opt("cookies", quoted(&c.to_string_lossy())?);
        }
        if let Some(a) = &r.auth_env {
            opt("auth_env", quoted(a)?);
        }
        if let Some(p) = &r.proxy {
            opt("proxy", quoted(p)?);
        }
        Ok(out.join(" "))
    }

    /// Whether `url` is on this seed's site (its registrable domain or a
    /// subdomain), whatever the scope.
    pub fn same_site(&self, url: &Url) -> bool {
        Seed {
            scope: Scope::Domain,
            ..Seed::bare(&self.host)
        }
        .in_scope(url)
    }

    /// Whether a link target is within this seed's scope.
    pub fn in_scope(&self, url: &Url) -> bool {
        let host = host_key(url);
        match self.scope {
            Scope::Host => host == self.host,
            Scope::Domain => {
                let site = crate::frontier::url::site_of(&self.host);
                let h = host.split(':').next().unwrap_or(&host);
                h == site || h.ends_with(&format!(".{site}"))
            }
            Scope::Any => true,
        }
    }
}

/// `v` in double quotes, as a seed line's option value.
fn quoted(v: &str) -> Result<String, String> {
    if v.contains(['\n', '\r']) || v.contains(" #") {
        return Err(format!("{v:?} cannot be written on a seed line"));
    }
    Ok(format!(
        "\"{}\"",
        v.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}
