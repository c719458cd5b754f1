//! Sitemaps (and sitemap indexes, gzip'd or not): their `<loc>` entries
//! become queued URLs of the seed that found them.

use std::io::Read;
use std::time::Duration;

use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::Event;
use quick_xml::Reader;
use url::Url;

use super::shared::{FetchResult, Fetching};
use crate::frontier::url::{check_page_url, host_key, normalize};
use crate::frontier::Lease;
use crate::record::Outcome;
use crate::seeds::Seed;
use crate::store::{NewUrl, QueuedUrl, UrlKind};

/// Most entries read from one sitemap (the protocol's own limit).
const MAX_LOCS: usize = 50_000;

/// [`parse_dated`] without the dates.
#[cfg(test)]
fn parse(body: &[u8]) -> (bool, Vec<String>) {
    let (index, entries) = parse_dated(body);
    (index, entries.into_iter().map(|(loc, _)| loc).collect())
}

/// A `<lastmod>` (W3C Datetime: a date, or a date and time with a zone)
/// as seconds since the epoch.
fn lastmod(s: &str) -> Option<i64> {
    let s = s.trim();
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|d| d.timestamp())
        .ok()
        .or_else(|| {
            let day = chrono::NaiveDate::parse_from_str(s.get(..10)?, "%Y-%m-%d").ok()?;
            Some(day.and_hms_opt(0, 0, 0)?.and_utc().timestamp())
        })
}

/// The `<loc>` entries of a sitemap or sitemap index (gzip'd or not), each
/// with its `<lastmod>` (seconds since the epoch), read with an XML parser:
/// namespace prefixes, CDATA, entities and character references are read
/// as XML says. Whether it is an index comes first. A document that stops
/// being XML keeps the entries read before the error.
pub(crate) fn parse_dated(body: &[u8]) -> (bool, Vec<(String, Option<i64>)>) {
    let mut text = Vec::new();
    let bytes: &[u8] = if body.starts_with(&[0x1f, 0x8b]) {
        let mut dec = flate2::read::MultiGzDecoder::new(body).take(50 << 20);
        if dec.read_to_end(&mut text).is_err() {
            return (false, Vec::new());
        }
        &text
    } else {
        body
    };
    let mut reader = Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let (mut index, mut locs) = (false, Vec::<(String, Option<i64>)>::new());
    // The text of the `<loc>` (or `<lastmod>`) being read.
    let mut loc: Option<String> = None;
    let mut date: Option<String> = None;
    // This `<url>` element's date, and the entry its `<loc>` made.
    let (mut entry_date, mut entry): (Option<i64>, Option<usize>) = (None, None);
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => match e.local_name().as_ref() {
                b"sitemapindex" => index = true,
                b"url" | b"sitemap" => (entry_date, entry) = (None, None),
                b"loc" => loc = Some(String::new()),
                b"lastmod" => date = Some(String::new()),
                _ => {}
            },
            Ok(Event::Text(t)) => {
                if let (Some(l), Ok(t)) = (loc.as_mut().or(date.as_mut()), t.decode()) {
                    l.push_str(&t);
                }
            }
            Ok(Event::End(e)) if e.local_name().as_ref() == b"lastmod" => {
                entry_date = date.take().and_then(|d| lastmod(&d));
                if let Some(i) = entry {
                    locs[i].1 = entry_date;
                }
            }
            Ok(Event::CData(t)) => {
                if let (Some(l), Ok(t)) = (loc.as_mut(), t.decode()) {
                    l.push_str(&t);
                }
            }
            Ok(Event::GeneralRef(r)) => {
                if let Some(l) = loc.as_mut() {
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        l.push(c);
                    } else if let Some(v) = r
                        .decode()
                        .ok()
                        .and_then(|name| resolve_predefined_entity(&name))
                    {
                        l.push_str(v);
                    }
                }
            }
            Ok(Event::End(e)) if e.local_name().as_ref() == b"loc" => {
                if let Some(l) = loc.take() {
                    let l = l.trim();
                    if !l.is_empty() {
                        entry = Some(locs.len());
                        locs.push((l.to_string(), entry_date));
                    }
                }
                if locs.len() >= MAX_LOCS {
                    break;
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
        buf.clear();
    }
    (index, locs)
}

pub(super) async fn fetch(
    shared: &Fetching,
    lease: Lease,
    url: &Url,
    seed: &Seed,
    delay: Duration,
) -> FetchResult {
    let (lease, r, out) = match shared
        .hub_request(lease, url, seed, delay, Outcome::Sitemap)
        .await
    {
        Ok(answer) => answer,
        Err(ended) => return ended,
    };
    let item = lease.item.clone();
    let mut links = Vec::new();
    let mut dated = Vec::new();
    if (200..=299).contains(&r.status) && !r.is_transport_error() {
        let (index, locs) = parse_dated(&r.body);
        let now = crate::record::now_secs();
        let mut budget = SitemapBudget::new(shared, seed, &item, index);
        for (loc, date) in locs {
            let Ok(u) = normalize(&loc, Some(url), &shared.rules) else {
                continue;
            };
            if !seed.in_scope(&u) || (!index && check_page_url(&u).is_err()) {
                continue;
            }
            if !index && !shared.pattern_allows(item.seed, seed, u.as_str()) {
                continue;
            }
            let link = NewUrl {
                host: host_key(&u),
                item: QueuedUrl {
                    url: u.to_string(),
                    // A sitemap's depth is how deep in indexes it was listed.
                    depth: if index {
                        item.depth.saturating_add(1)
                    } else {
                        1
                    },
                    seed: item.seed,
                    attempt: 0,
                    kind: if index {
                        UrlKind::Sitemap
                    } else {
                        UrlKind::Page
                    },
                    // Recently changed pages first (undated: 0.5).
                    priority: if index {
                        1.0
                    } else {
                        super::feed::priority(date, now)
                    },
                    features: None,
                    revisit: None,
                },
            };
            // A known page's <lastmod> says whether it changed; only new
            // pages spend the budget.
            if let (false, Some(d)) = (index, date) {
                dated.push((link.clone(), d));
            }
            if budget.take() {
                links.push(link);
            }
        }
        budget.settle();
    }
    let changed = super::revisit::changed_entries(dated, crate::record::now_secs());
    super::shared::hub_done(lease, out, links, changed, delay)
}

/// What one sitemap may queue: an index's entries only when it is not
/// itself listed in an index (the protocol has one level of indexes; a
/// chain of indexes listing indexes is a flood), page entries only when
/// the seed's depth reaches them, and no more page entries over all of a
/// seed's sitemaps than its `max_pages` (nor more sitemaps from an index
/// than the pages that budget has left). What is left out is counted.
struct SitemapBudget<'a> {
    shared: &'a Fetching,
    seed_id: u32,
    /// Entries that may still be queued from this sitemap.
    left: u64,
    index: bool,
    taken: u64,
    refused: u64,
}

impl<'a> SitemapBudget<'a> {
    fn new(shared: &'a Fetching, seed: &Seed, item: &QueuedUrl, index: bool) -> Self {
        let queued = shared
            .sitemap_entries
            .lock()
            .map(|m| m.get(&item.seed).copied().unwrap_or(0))
            .unwrap_or(0);
        let budget = seed
            .max_pages
            .map_or(u64::MAX, |m| m.saturating_sub(queued));
        // An index lists sitemaps, each good for a page at least: no more
        // of them than the pages the seed's budget has left.
        let left = if index {
            if item.depth >= 1 {
                0
            } else {
                budget
            }
        } else if seed.max_depth < 1 {
            0
        } else {
            budget
        };
        SitemapBudget {
            shared,
            seed_id: item.seed,
            left,
            index,
            taken: 0,
            refused: 0,
        }
    }

    /// Whether one more entry may be queued.
    fn take(&mut self) -> bool {
        if self.left == 0 {
            self.refused += 1;
            return false;
        }
        self.left -= 1;
        self.taken += 1;
        true
    }

    /// Counts what was queued against the seed and what was left out.
    fn settle(self) {
        use std::sync::atomic::Ordering::Relaxed;
        if !self.index && self.taken > 0 {
            if let Ok(mut m) = self.shared.sitemap_entries.lock() {
                *m.entry(self.seed_id).or_insert(0) += self.taken;
            }
        }
        if self.refused > 0 {
            self.shared
                .stats
                .sitemap_left_out
                .fetch_add(self.refused, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemap_parsing() {
        let xml = b"<?xml version=\"1.0\"?><urlset><url><loc> http://a.test/1?x=1&amp;y=2 </loc></url><url><loc>http://a.test/2</loc></url></urlset>";
        assert_eq!(
            parse(xml),
            (
                false,
                vec![
                    "http://a.test/1?x=1&y=2".to_string(),
                    "http://a.test/2".to_string()
                ]
            )
        );
        let idx =
            b"<sitemapindex><sitemap><loc>http://a.test/s1.xml.gz</loc></sitemap></sitemapindex>";
        assert!(parse(idx).0);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, xml).unwrap_or_default();
        let gz = enc.finish().unwrap_or_default();
        assert_eq!(parse(&gz).1.len(), 2);
        assert_eq!(parse(b"\x1f\x8bgarbage"), (false, vec![]));
    }

    #[test]
    fn lastmod_dates_go_with_their_entries() {
        let xml = br#"<urlset><url><lastmod>2026-11-24T10:00:00+00:00</lastmod><loc>http://a.test/1</loc></url>
            <url><loc>http://a.test/2</loc><lastmod>2026-11-24</lastmod></url>
            <url><loc>http://a.test/3</loc><lastmod>soon</lastmod></url><url><loc>http://a.test/4</loc></url></urlset>"#;
        let (_, e) = parse_dated(xml);
        assert_eq!(
            e,
            vec![
                ("http://a.test/1".to_string(), Some(1_795_514_400)),
                ("http://a.test/2".to_string(), Some(1_795_478_400)),
                ("http://a.test/3".to_string(), None),
                ("http://a.test/4".to_string(), None),
            ]
        );
    }

    /// Read as XML, not searched for `<loc>`: a commented-out entry is no
    /// entry, prefixed elements, CDATA and character references are read.
    #[test]
    fn sitemap_is_read_as_xml() {
        let xml = br#"<?xml version="1.0"?>
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
  <!-- <loc>http://a.test/commented-out</loc> -->
  <sm:url><sm:loc><![CDATA[http://a.test/c?a=1&b=2]]></sm:loc></sm:url>
  <sm:url><sm:loc>http://a.test/&#x41;&#66;&lt;</sm:loc></sm:url>
</sm:urlset>"#;
        assert_eq!(
            parse(xml),
            (
                false,
                vec![
                    "http://a.test/c?a=1&b=2".to_string(),
                    "http://a.test/AB<".to_string()
                ]
            )
        );
        let idx = br#"<si:sitemapindex xmlns:si="x"><si:sitemap><si:loc>http://a.test/s.xml</si:loc></si:sitemap></si:sitemapindex>"#;
        assert_eq!(parse(idx), (true, vec!["http://a.test/s.xml".to_string()]));
    }
}
