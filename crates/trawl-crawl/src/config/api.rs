//! `[api]`: the daemon's write endpoints (seeds, URLs, scrapes, extraction) on its
//! status address. Off until a token is set; ranges checked in
//! [`super::Config::ranges`].

use serde::Deserialize;

/// The environment variable that sets `api.token` (it wins over the file,
/// so the secret need not be written in config.toml).
pub(super) const TOKEN_ENV: &str = "TRAWL_API_TOKEN";

/// `[api]`: who may write to the daemon, and how much at once.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiConfig {
    /// The bearer token every write endpoint asks for; empty: the write
    /// endpoints are off. `TRAWL_API_TOKEN` overrides it.
    pub token: String,
    /// A request body's size at most (larger: 413).
    pub max_body_bytes: u64,
    /// Seed lines or URLs one request may carry at most (more: 413).
    pub max_lines: u64,
    /// `/extract` requests worked on at once (more wait, up to a queue of
    /// as many again; past it: 429 with Retry-After).
    pub max_concurrent: u64,
    /// `/scrape` requests waiting for their page at once (more: 429 with
    /// Retry-After).
    pub max_scrapes: u64,
    /// How long a `/scrape` waits for its page at most, in seconds (a
    /// request's `timeout` may ask less; the default wait is the lesser of
    /// this and 60). Past it: 504, and the page is still fetched and stored.
    pub max_scrape_wait_secs: u64,
}

impl std::fmt::Debug for ApiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token itself.
        f.debug_struct("ApiConfig")
            .field("token", &if self.token.is_empty() { "" } else { "<set>" })
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_lines", &self.max_lines)
            .field("max_concurrent", &self.max_concurrent)
            .field("max_scrapes", &self.max_scrapes)
            .field("max_scrape_wait_secs", &self.max_scrape_wait_secs)
            .finish()
    }
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            token: String::new(),
            max_body_bytes: 10 << 20,
            max_lines: 10_000,
            max_concurrent: 8,
            max_scrapes: 64,
            max_scrape_wait_secs: 300,
        }
    }
}

impl ApiConfig {
    /// The token in force: `TRAWL_API_TOKEN` when set and not empty, else
    /// the file's (empty: the write endpoints are off).
    pub fn token(&self) -> String {
        std::env::var(TOKEN_ENV)
            .ok()
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| self.token.clone())
    }

    /// Keys, values and allowed ranges.
    pub(super) fn ranges(&self) -> [(&'static str, u64, u64, u64); 5] {
        [
            ("api.max_body_bytes", self.max_body_bytes, 1024, 1 << 30),
            ("api.max_lines", self.max_lines, 1, 1_000_000),
            ("api.max_concurrent", self.max_concurrent, 1, 1024),
            ("api.max_scrapes", self.max_scrapes, 1, 4096),
            (
                "api.max_scrape_wait_secs",
                self.max_scrape_wait_secs,
                1,
                3600,
            ),
        ]
    }
}
