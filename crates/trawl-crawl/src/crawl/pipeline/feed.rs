//! Feeds: RSS (2.0, 1.0, 0.9x), Atom and JSON Feed, read with feed-rs.
//! Each entry's link becomes a queued page of the seed that found the
//! feed, newest first: an entry's date (published, else updated) sets its
//! priority, so on a news site the article published a minute ago is
//! fetched before last month's. Feeds are found from a page's
//! `<link rel="alternate">`, named as seeds, or answered by a page URL;
//! they are hubs, revisited on the hub schedule.

use std::time::Duration;

use url::Url;

use super::shared::{done, FetchResult, Fetching};
use crate::frontier::url::{check_page_url, host_key, normalize};
use crate::frontier::Lease;
use crate::record::{now_secs, Outcome};
use crate::seeds::Seed;
use crate::store::{NewUrl, QueuedUrl, UrlKind};

/// Most entries read from one feed.
const MAX_ENTRIES: usize = 10_000;

/// A feed entry: its link and its date (seconds since the epoch).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// The entry's link (as written; resolved against the feed's URL).
    pub link: String,
    /// Published, else updated.
    pub date: Option<i64>,
    /// The later of updated and published: when the entry last changed.
    pub changed: Option<i64>,
}

/// The entries of a feed, or `None` when the body is not a feed.
pub(crate) fn entries(body: &[u8]) -> Option<Vec<Entry>> {
    let feed = feed_rs::parser::parse(body).ok()?;
    Some(
        feed.entries
            .into_iter()
            .filter_map(|e| {
                // The entry's page: an "alternate" link, else the first.
                let link = e
                    .links
                    .iter()
                    .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
                    .or_else(|| e.links.first())?
                    .href
                    .trim()
                    .to_string();
                let date = e.published.or(e.updated).map(|d| d.timestamp());
                let changed = e.updated.max(e.published).map(|d| d.timestamp());
                Some(Entry {
                    link,
                    date,
                    changed,
                })
            })
            .take(MAX_ENTRIES)
            .collect(),
    )
}

/// A page's priority from its date: newer is higher, within (0.5, 1];
/// an undated entry gets 0.5.
pub(crate) fn priority(date: Option<i64>, now: u64) -> f32 {
    match date {
        Some(d) => {
            let age_days = (now as i64).saturating_sub(d).max(0) as f32 / 86_400.0;
            0.5 + 0.5 / (1.0 + age_days)
        }
        None => 0.5,
    }
}

/// The queued pages of a feed's entries: in the seed's scope, allowed by
/// its URL patterns, one link deeper than the feed.
pub(super) fn queue(
    shared: &Fetching,
    item: &QueuedUrl,
    seed: &Seed,
    base: &Url,
    entries: Vec<Entry>,
) -> Vec<NewUrl> {
    queue_dated(shared, item, seed, base, entries)
        .into_iter()
        .map(|(l, _)| l)
        .collect()
}

/// [`queue`], each page with the date its entry last changed.
fn queue_dated(
    shared: &Fetching,
    item: &QueuedUrl,
    seed: &Seed,
    base: &Url,
    entries: Vec<Entry>,
) -> Vec<(NewUrl, Option<i64>)> {
    let now = now_secs();
    let mut out = Vec::new();
    for e in entries {
        let Ok(u) = normalize(&e.link, Some(base), &shared.rules) else {
            continue;
        };
        if !seed.in_scope(&u) || check_page_url(&u).is_err() {
            continue;
        }
        if !shared.pattern_allows(item.seed, seed, u.as_str()) {
            continue;
        }
        let link = NewUrl {
            host: host_key(&u),
            item: QueuedUrl {
                url: u.to_string(),
                depth: item.depth.saturating_add(1),
                seed: item.seed,
                attempt: 0,
                kind: UrlKind::Page,
                priority: priority(e.date, now),
                features: None,
                revisit: None,
            },
        };
        out.push((link, e.changed));
    }
    out
}

/// Fetches a feed (conditionally on a revisit) and queues its entries.
pub(super) async fn fetch(
    shared: &Fetching,
    lease: Lease,
    url: &Url,
    seed: &Seed,
    delay: Duration,
) -> FetchResult {
    let (lease, r, mut out) = match shared
        .hub_request(lease, url, seed, delay, Outcome::Feed)
        .await
    {
        Ok(answer) => answer,
        Err(ended) => return ended,
    };
    let item = lease.item.clone();
    if !(200..=299).contains(&r.status) || r.is_transport_error() {
        out.outcome = if r.is_transport_error() {
            Outcome::TransportError
        } else {
            Outcome::HttpError
        };
        return done(lease, out, vec![], false, delay);
    }
    match entries(&r.body) {
        Some(e) => {
            let queued = queue_dated(shared, &item, seed, url, e);
            let dated = queued
                .iter()
                .filter_map(|(l, d)| Some((l.clone(), (*d)?)))
                .collect();
            let changed = super::revisit::changed_entries(dated, now_secs());
            let links = queued.into_iter().map(|(l, _)| l).collect();
            super::shared::hub_done(lease, out, links, changed, delay)
        }
        None => {
            out.outcome = Outcome::ExtractionError;
            out.error = Some("not a feed (RSS, Atom or JSON Feed)".into());
            done(lease, out, vec![], false, delay)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_atom_and_json_feed_entries_with_dates() {
        let rss = br#"<?xml version="1.0"?><rss version="2.0"><channel><title>N</title>
            <item><title>A</title><link>http://a.test/a1</link>
              <pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate></item>
            <item><title>B</title><link>/b2</link></item></channel></rss>"#;
        let e = entries(rss).expect("rss");
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].link, "http://a.test/a1");
        assert_eq!(e[0].date, Some(1_795_514_400));
        assert_eq!((e[1].link.as_str(), e[1].date), ("/b2", None));
        let atom = br#"<?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>N</title><id>x</id>
            <updated>2026-11-24T10:00:00Z</updated>
            <entry><title>A</title><id>a</id><link rel="alternate" href="http://a.test/x"/>
              <updated>2026-11-24T10:00:00Z</updated></entry></feed>"#;
        assert_eq!(entries(atom).expect("atom")[0].link, "http://a.test/x");
        let json = br#"{"version":"https://jsonfeed.org/version/1.1","title":"N",
            "items":[{"id":"1","url":"http://a.test/j","date_published":"2026-11-24T10:00:00Z"}]}"#;
        let j = entries(json).expect("json feed");
        assert_eq!(
            (j[0].link.as_str(), j[0].date),
            ("http://a.test/j", Some(1_795_514_400))
        );
        assert!(entries(b"<html><body>not a feed</body></html>").is_none());
        assert!(entries(b"\x00\x01\x02").is_none());
    }

    #[test]
    fn newer_entries_come_first() {
        let now = 1_800_000_000;
        let fresh = priority(Some(now as i64 - 60), now);
        let old = priority(Some(now as i64 - 30 * 86_400), now);
        assert!(fresh > old && old > priority(None, now));
        assert!(fresh <= 1.0);
        assert_eq!(priority(Some(now as i64 + 999), now), 1.0, "a future date");
    }
}
