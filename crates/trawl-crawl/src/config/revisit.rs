//! `[revisit]`: how often pages fetched before are fetched again. Its keys
//! take durations as the seed options `revisit=` and `revisit_pages=` do
//! (`90s`, `15m`, `1h`, `2d`, `1w`, a number of seconds, or `never`; see
//! `record::parse_duration`).

use serde::{Deserialize, Deserializer};

use crate::record::{parse_duration, MAX_INTERVAL};

/// `[revisit]`: the daemon's fetch-again schedule. Hubs (a seed's own URL,
/// pages typed listing or collection, feeds, sitemaps) are where new
/// pages appear; other pages (articles, products, …) change rarely.
/// Adaptive: a page's interval halves when a visit finds it changed and
/// grows by half when it did not, within `min` and `max`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RevisitConfig {
    /// Hubs are fetched again this often, in seconds (`never`: 0, off).
    #[serde(deserialize_with = "duration")]
    pub hubs: u64,
    /// Other pages are fetched again this often, in seconds (0: never).
    #[serde(deserialize_with = "duration")]
    pub pages: u64,
    /// Shortest adaptive interval, in seconds.
    #[serde(deserialize_with = "duration")]
    pub min: u64,
    /// Longest adaptive interval, in seconds.
    #[serde(deserialize_with = "duration")]
    pub max: u64,
    /// Revisits ask the server whether anything changed (`If-None-Match`,
    /// `If-Modified-Since`); a 304 costs no body and makes no record.
    pub conditional: bool,
}

impl Default for RevisitConfig {
    fn default() -> Self {
        RevisitConfig {
            hubs: 3600,
            pages: 0,
            min: 300,
            max: 7 * 86_400,
            conditional: true,
        }
    }
}

/// serde: a duration written as a string or a number of seconds.
fn duration<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Secs(u64),
        Text(String),
    }
    match Raw::deserialize(d)? {
        Raw::Secs(n) if n <= MAX_INTERVAL => Ok(n),
        Raw::Secs(n) => Err(serde::de::Error::custom(format!(
            "{n} seconds is longer than a year"
        ))),
        Raw::Text(t) => parse_duration(&t).map_err(serde::de::Error::custom),
    }
}

impl RevisitConfig {
    /// Checks the bounds: (key, message) of the first bad one.
    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.min == 0 {
            return Err(("revisit.min", "must be at least 1 second".into()));
        }
        if self.max < self.min {
            return Err((
                "revisit.max",
                format!(
                    "{} s is shorter than revisit.min ({} s)",
                    self.max, self.min
                ),
            ));
        }
        Ok(())
    }
}
