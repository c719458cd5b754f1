//! What travels through the frontier: a queued URL (and its compact
//! on-disk form), a URL found on a page, and how a leased URL ends.

use serde::{Deserialize, Serialize};

use super::error::StoreError;
use super::layout::LINK_FEATURES;
use crate::record::PageOutcome;
use crate::record::Record;

/// What kind of resource a queued URL is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UrlKind {
    /// A web page.
    Page,
    /// A sitemap (its URLs are queued, it makes no record).
    Sitemap,
    /// An RSS, Atom or JSON feed (its entries are queued, it makes no record).
    Feed,
}

/// What a revisit knows of the URL's last visit: the validators for a
/// conditional request, the text hash to tell an unchanged page, the
/// record a changed page's new version replaces, and the adaptive interval.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Revisit {
    /// Seconds between visits now (it shrinks while the page keeps
    /// changing and grows while it does not, within `[revisit]` bounds).
    pub interval: u32,
    /// A hub (a seed, a listing, a feed, a sitemap): revisited on the hub schedule.
    pub hub: bool,
    /// The last response's `ETag` (sent as `If-None-Match`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The last response's `Last-Modified` (sent as `If-Modified-Since`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// `content_hash` of the latest record's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    /// The latest record's number (its `seq`; a cluster's row number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<u64>,
    /// The latest record's version (1: the first record).
    #[serde(default)]
    pub version: u32,
    /// Visits so far.
    #[serde(default)]
    pub visits: u32,
    /// A hub's links at this visit, in page order (the first
    /// [`HUB_LINKS`], each a 32-bit hash of its URL): a known page that
    /// moves ahead on the hub, or joins it, is checked for an edit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<u32>,
}

/// Links of a hub remembered for the next visit's comparison.
pub const HUB_LINKS: usize = 256;

/// A known page a hub says has changed since `at`: a sitemap entry's
/// `<lastmod>`, a feed entry's date, a link that moved ahead on a changed
/// hub page. If its last fetch is older, it gets a conditional revisit now
/// (unknown URLs are queued as links are).
#[derive(Debug, Clone)]
pub struct Changed {
    /// The page, as a link of the hub.
    pub link: NewUrl,
    /// When it changed (seconds since the epoch).
    pub at: u64,
}

/// A URL waiting in (or leased from) the frontier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueuedUrl {
    /// The normalised URL.
    pub url: String,
    /// Links followed from the seed to reach it.
    pub depth: u16,
    /// The seed line this URL descends from (its scope and budget).
    pub seed: u32,
    /// Failed attempts so far.
    pub attempt: u8,
    /// Page or sitemap.
    pub kind: UrlKind,
    /// Link priority in [0, 1]; higher is fetched first.
    pub priority: f32,
    /// Focus link features (quantized), for the model to learn from once
    /// the page is judged.
    pub features: Option<[u8; LINK_FEATURES]>,
    /// Set when this is a visit again of a URL fetched before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisit: Option<Box<Revisit>>,
}

impl QueuedUrl {
    /// Compact form for the queue: depth(2) seed(4) attempt(1) kind(1)
    /// priority(4) [features(8)] [revisit length(2) revisit JSON] url — a
    /// third of the JSON size, and the queue is the biggest thing in the
    /// store. The kind byte's top bit says whether features are present,
    /// the next one whether revisit data is.
    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(20 + self.url.len());
        b.extend_from_slice(&self.depth.to_be_bytes());
        b.extend_from_slice(&self.seed.to_be_bytes());
        b.push(self.attempt);
        let kind = match self.kind {
            UrlKind::Page => 0,
            UrlKind::Sitemap => 1,
            UrlKind::Feed => 2,
        };
        let revisit = self
            .revisit
            .as_ref()
            .map(|r| serde_json::to_vec(r).unwrap_or_default())
            .filter(|j| j.len() <= usize::from(u16::MAX));
        let mut flags = 0;
        if self.features.is_some() {
            flags |= FEATURE_BIT;
        }
        if revisit.is_some() {
            flags |= REVISIT_BIT;
        }
        b.push(kind | flags);
        b.extend_from_slice(&self.priority.to_be_bytes());
        if let Some(f) = &self.features {
            b.extend_from_slice(f);
        }
        if let Some(j) = &revisit {
            b.extend_from_slice(&(j.len() as u16).to_be_bytes());
            b.extend_from_slice(j);
        }
        b.extend_from_slice(self.url.as_bytes());
        b
    }

    pub(super) fn from_bytes(b: &[u8]) -> Result<QueuedUrl, StoreError> {
        let corrupt = || StoreError::Corrupt {
            tree: "queue",
            message: format!("{} bytes is not a queued URL", b.len()),
        };
        if b.len() < 12 {
            return Err(corrupt());
        }
        let depth = u16::from_be_bytes([b[0], b[1]]);
        let seed = u32::from_be_bytes([b[2], b[3], b[4], b[5]]);
        let kind = match b[7] & !(FEATURE_BIT | REVISIT_BIT) {
            0 => UrlKind::Page,
            1 => UrlKind::Sitemap,
            2 => UrlKind::Feed,
            _ => return Err(corrupt()),
        };
        let priority = f32::from_be_bytes([b[8], b[9], b[10], b[11]]);
        let (features, rest) = if b[7] & FEATURE_BIT != 0 {
            let f = b.get(12..20).and_then(|f| f.try_into().ok());
            (Some(f.ok_or_else(corrupt)?), &b[20..])
        } else {
            (None, &b[12..])
        };
        let (revisit, url) = if b[7] & REVISIT_BIT != 0 {
            let len = rest
                .get(..2)
                .map(|l| usize::from(u16::from_be_bytes([l[0], l[1]])))
                .ok_or_else(corrupt)?;
            let json = rest.get(2..2 + len).ok_or_else(corrupt)?;
            let r: Revisit = serde_json::from_slice(json).map_err(|_| corrupt())?;
            (Some(Box::new(r)), &rest[2 + len..])
        } else {
            (None, rest)
        };
        let url = std::str::from_utf8(url).map_err(|_| corrupt())?.to_string();
        Ok(QueuedUrl {
            url,
            depth,
            seed,
            attempt: b[6],
            kind,
            priority,
            features,
            revisit,
        })
    }
}

const FEATURE_BIT: u8 = 0x80;
const REVISIT_BIT: u8 = 0x40;

/// A new URL found on a page, to enqueue with the page's completion.
#[derive(Debug, Clone)]
pub struct NewUrl {
    /// Its host key.
    pub host: String,
    /// The URL and its queue data.
    pub item: QueuedUrl,
}

/// A URL's next visit: the item to queue (its revisit data set) and when
/// (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Again {
    /// The URL, with what the visit needs to know of this one.
    pub item: QueuedUrl,
    /// Due then (seconds since the epoch).
    pub due: u64,
}

/// How a leased URL ends.
// One value per URL, moved once from the fetch task to the writer: boxing the
// large variant would add an allocation and buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Completion {
    /// Fetched (successfully or not, for good): outcome, optional record, links.
    Done {
        /// The fetch's outcome.
        outcome: PageOutcome,
        /// The record made from the page, if any.
        record: Option<Box<Record>>,
        /// SimHash of the record's text (near-duplicate marking).
        simhash: Option<u64>,
        /// Links found, to queue.
        links: Vec<NewUrl>,
        /// (host, seed) whose page budgets this fetch counts against; `None`
        /// for URLs that were never fetched (robots, budget, scope) and for revisits.
        counted: Option<(String, u32)>,
        /// The URL's next visit, when it is revisited.
        again: Option<Again>,
        /// Known pages the hub says changed.
        changed: Vec<Changed>,
        /// A revisit's URL as queued: visited again at once if a hub said
        /// the page changed after this visit fetched it (`None`: not a revisit).
        recheck: Option<Box<QueuedUrl>>,
    },
    /// Try again later (transient failure, host backing off, shutdown).
    Retry {
        /// The URL, its attempt count raised.
        item: QueuedUrl,
    },
    /// Not fetched now (its host was stopped, a page budget is spent): the
    /// URL gets `outcome` and is set aside until `until` (seconds since the
    /// epoch; `u64::MAX`: the next start), then offered again.
    Park {
        /// The URL.
        item: QueuedUrl,
        /// Why it was not fetched.
        outcome: PageOutcome,
        /// Set aside until then (seconds since the epoch; `u64::MAX`: the next start).
        until: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queued_url_round_trips_and_rejects_garbage() {
        let mut q = QueuedUrl {
            url: "http://a.test/ü?x=1".into(),
            depth: 0,
            seed: 0,
            attempt: 0,
            kind: UrlKind::Page,
            priority: 0.25,
            features: None,
            revisit: None,
        };
        assert_eq!(QueuedUrl::from_bytes(&q.to_bytes()).ok(), Some(q.clone()));
        q.features = Some([1, 2, 3, 4, 5, 6, 7, 255]);
        assert_eq!(QueuedUrl::from_bytes(&q.to_bytes()).ok(), Some(q.clone()));
        q.kind = UrlKind::Feed;
        q.revisit = Some(Box::new(Revisit {
            interval: 600,
            hub: true,
            etag: Some("\"x\"".into()),
            record: Some(9),
            version: 2,
            ..Revisit::default()
        }));
        assert_eq!(QueuedUrl::from_bytes(&q.to_bytes()).ok(), Some(q.clone()));
        let b = q.to_bytes();
        assert!(
            QueuedUrl::from_bytes(&b[..24]).is_err(),
            "cut inside the revisit data"
        );
        assert!(QueuedUrl::from_bytes(&q.to_bytes()[..15]).is_err());
        assert!(QueuedUrl::from_bytes(b"short").is_err());
        assert!(QueuedUrl::from_bytes(&[0u8, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0]).is_err());
    }
}
