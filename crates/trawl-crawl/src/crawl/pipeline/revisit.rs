//! Freshness: when a URL fetched now is fetched again. Hubs (a seed's own
//! URL, pages typed listing or collection, feeds, sitemaps) follow
//! `revisit.hubs` or the seed's `revisit=`; other pages `revisit.pages` or
//! `revisit_pages=` (off by default: an article rarely changes). The
//! interval adapts, as StormCrawler's AdaptiveScheduler does: it halves
//! when a visit finds the page changed (a new version) and grows by half
//! when it did not (a 304, the same text), within `revisit.min` and
//! `revisit.max`.
//!
//! One decision per finished URL, made here for both daemons: the store
//! (one machine) or the shared frontier (cluster) only keeps the due time.

use crate::config::RevisitConfig;
use crate::record::{now_secs, Outcome, PageOutcome, Record};
use crate::seeds::Seed;
use std::collections::HashMap;

use crate::store::{Again, Changed, Completion, NewUrl, QueuedUrl, Revisit, UrlKind, HUB_LINKS};
use trawl_extract::PageType;

/// Longest `ETag` or `Last-Modified` kept for a conditional request, in bytes.
const MAX_VALIDATOR: usize = 512;

/// The revisit settings of a run (`[revisit]`).
#[derive(Debug, Clone)]
pub(crate) struct Schedule(RevisitConfig);

impl Schedule {
    /// From `[revisit]`.
    pub(crate) fn new(c: &RevisitConfig) -> Schedule {
        Schedule(c.clone())
    }

    /// Whether revisits send validators.
    pub(crate) fn conditional(&self) -> bool {
        self.0.conditional
    }

    /// Sets the URL's next visit on a finished URL's completion, and keeps
    /// a revisit out of the page budgets (they count new URLs).
    pub(in crate::crawl) fn plan_completion(
        &self,
        seed: &Seed,
        item: &QueuedUrl,
        completion: &mut Completion,
    ) {
        if let Completion::Done {
            outcome,
            record,
            again,
            counted,
            links,
            changed,
            recheck,
            ..
        } = completion
        {
            if item.revisit.is_some() {
                *counted = None;
                *recheck = Some(Box::new(QueuedUrl {
                    attempt: 0,
                    revisit: None,
                    ..item.clone()
                }));
            }
            let now = now_secs();
            *again = self.plan(seed, item, outcome, record.as_deref(), now);
            let next = again.as_mut().and_then(|a| a.item.revisit.as_deref_mut());
            if let Some(next) = next.filter(|n| n.hub && item.kind == UrlKind::Page) {
                hub_links(item.revisit.as_deref(), next, links, changed, now);
            }
        }
    }

    /// The URL's next visit after this one ended with `out` (and `record`,
    /// when a new record or version was made), if it is revisited.
    pub(crate) fn plan(
        &self,
        seed: &Seed,
        item: &QueuedUrl,
        out: &PageOutcome,
        record: Option<&Record>,
        now: u64,
    ) -> Option<Again> {
        let prev = item.revisit.as_deref();
        let answered = matches!(
            out.outcome,
            Outcome::Fetched
                | Outcome::Truncated
                | Outcome::Sitemap
                | Outcome::Feed
                | Outcome::NotModified
                | Outcome::Unchanged
        );
        // A page revisited before is not dropped for a server's bad hour.
        let passing = prev.is_some()
            && matches!(out.outcome, Outcome::HttpError | Outcome::TransportError)
            && (out.status == 0 || out.status == 429 || out.status >= 500);
        if !(answered || passing) {
            return None;
        }
        let hub = item.kind != UrlKind::Page
            || item.depth == 0
            || match record {
                Some(r) => matches!(r.page_type, PageType::Listing | PageType::Collection),
                None => prev.is_some_and(|p| p.hub),
            };
        let base = if hub {
            seed.revisit.unwrap_or(self.0.hubs)
        } else {
            seed.revisit_pages.unwrap_or(self.0.pages)
        };
        if base == 0 {
            return None;
        }
        let (lo, hi) = (self.0.min.min(base), self.0.max.max(base));
        // A feed or a sitemap makes no record: its body's hash says
        // whether it changed.
        let listed = matches!(out.outcome, Outcome::Feed | Outcome::Sitemap)
            .then_some(out.content_hash.as_ref())
            .flatten();
        let interval = match prev {
            None => base,
            // A new record on a revisit is a changed page.
            Some(p) if record.is_some() => u64::from(p.interval) / 2,
            Some(p) if listed.is_some_and(|h| p.content_hash.as_ref() != Some(h)) => {
                u64::from(p.interval) / 2
            }
            Some(p) => u64::from(p.interval) * 3 / 2,
        }
        .clamp(lo, hi);
        let version = match record {
            Some(r) => r.version.unwrap_or(1),
            None => prev.map_or(0, |p| p.version),
        };
        // A validator longer than any real one is not kept (a server's
        // header must not grow every queued copy of the URL).
        let fit = |v: &String| v.len() <= MAX_VALIDATOR;
        let revisit = Revisit {
            interval: interval.min(u64::from(u32::MAX)) as u32,
            hub,
            etag: out
                .etag
                .clone()
                .or_else(|| prev.and_then(|p| p.etag.clone()))
                .filter(fit),
            last_modified: out
                .last_modified
                .clone()
                .or_else(|| prev.and_then(|p| p.last_modified.clone()))
                .filter(fit),
            content_hash: record
                .map(|r| r.content_hash.clone())
                .or_else(|| listed.cloned())
                .or_else(|| prev.and_then(|p| p.content_hash.clone())),
            // Set by the store (its number for this URL's latest record).
            record: prev.and_then(|p| p.record),
            version,
            visits: prev.map_or(1, |p| p.visits.saturating_add(1)),
            // Set with the visit's links (`plan_completion`).
            links: Vec::new(),
        };
        Some(Again {
            item: QueuedUrl {
                attempt: 0,
                priority: if hub { 1.0 } else { item.priority },
                revisit: Some(Box::new(revisit)),
                ..item.clone()
            },
            due: now.saturating_add(interval),
        })
    }
}

/// The dated entries of a hub whose dates say when each page changed:
/// an entry's date newer than the page's last fetch gets it a conditional
/// revisit. Dates more than a day ahead are wrong and left out; a hub
/// that gives (nearly) all of ten or more entries one date (a sitemap
/// stamped with the time it was generated) says nothing, and is not
/// believed; at most [`MAX_CHANGED`] are sent.
pub(in crate::crawl) fn changed_entries(dated: Vec<(NewUrl, i64)>, now: u64) -> Vec<Changed> {
    let ahead = now.saturating_add(86_400);
    let mut dated: Vec<(NewUrl, u64)> = dated
        .into_iter()
        .filter(|(_, d)| *d > 0 && (*d as u64) <= ahead)
        .map(|(l, d)| (l, d as u64))
        .collect();
    if dated.len() >= 10 {
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for (_, d) in &dated {
            *counts.entry(*d).or_default() += 1;
        }
        if counts.values().any(|&n| n * 10 >= dated.len() * 9) {
            return Vec::new();
        }
    }
    // The most recent first, when there are more than are sent.
    dated.sort_by_key(|d| std::cmp::Reverse(d.1));
    dated
        .into_iter()
        .take(MAX_CHANGED)
        .map(|(link, at)| Changed { link, at })
        .collect()
}

/// Most changed pages one read of a sitemap or a feed sends.
const MAX_CHANGED: usize = 2_000;

/// Most known pages one visit of a hub page sends to be checked for edits
/// (a page whose links are shuffled on every visit sends no more).
const MOVED_AHEAD: usize = 32;

/// A hub page's links at this visit, kept in `next` in page order; the
/// known pages among them that moved ahead since the previous visit
/// (`prev`), or joined the page, go to `changed`: a front page that lists
/// what was updated last announces an edit so. A visit that found the hub
/// unchanged (no links read) keeps the previous order.
fn hub_links(
    prev: Option<&Revisit>,
    next: &mut Revisit,
    links: &[NewUrl],
    changed: &mut Vec<Changed>,
    now: u64,
) {
    let pages: Vec<&NewUrl> = links
        .iter()
        .filter(|l| l.item.kind == UrlKind::Page)
        .take(HUB_LINKS)
        .collect();
    if pages.is_empty() {
        next.links = prev.map(|p| p.links.clone()).unwrap_or_default();
        return;
    }
    next.links = pages.iter().map(|l| link_hash(&l.item.url)).collect();
    let Some(before) = prev.filter(|p| !p.links.is_empty()) else {
        return;
    };
    let mut was: HashMap<u32, usize> = HashMap::with_capacity(before.links.len());
    for (i, h) in before.links.iter().enumerate() {
        was.entry(*h).or_insert(i);
    }
    // Moved ahead first, then joined (most of those are new pages, which
    // are queued as links).
    let (mut moved, mut joined) = (Vec::new(), Vec::new());
    for (i, (l, h)) in pages.iter().zip(&next.links).enumerate() {
        match was.get(h) {
            Some(&j) if j > i => moved.push(*l),
            Some(_) => {}
            None => joined.push(*l),
        }
    }
    changed.extend(
        moved
            .into_iter()
            .chain(joined)
            .take(MOVED_AHEAD)
            .map(|l| Changed {
                link: l.clone(),
                at: now,
            }),
    );
}

/// A link's 32-bit hash, for the order of a hub's links.
fn link_hash(url: &str) -> u32 {
    xxhash_rust::xxh3::xxh3_64(url.as_bytes()) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Seed {
        Seed {
            url: "http://a.test/".into(),
            max_depth: 3,
            sitemaps: true,
            ..Seed::bare("a.test")
        }
    }

    fn item(depth: u16, revisit: Option<Revisit>) -> QueuedUrl {
        QueuedUrl {
            url: "http://a.test/x".into(),
            depth,
            seed: 0,
            attempt: 0,
            kind: UrlKind::Page,
            priority: 0.4,
            features: None,
            revisit: revisit.map(Box::new),
        }
    }

    fn out(outcome: Outcome) -> PageOutcome {
        PageOutcome {
            outcome,
            status: 200,
            etag: Some("\"e1\"".into()),
            ..PageOutcome::default()
        }
    }

    fn schedule() -> Schedule {
        Schedule::new(&RevisitConfig {
            hubs: 600,
            pages: 0,
            min: 60,
            max: 3600,
            conditional: true,
        })
    }

    #[test]
    fn hubs_are_revisited_articles_not_by_default() {
        let s = schedule();
        let front = s
            .plan(&seed(), &item(0, None), &out(Outcome::Fetched), None, 1000)
            .expect("a seed's page is a hub");
        assert_eq!(front.due, 1600);
        let r = front.item.revisit.expect("revisit data");
        assert_eq!((r.hub, r.interval, r.visits), (true, 600, 1));
        assert_eq!(r.etag.as_deref(), Some("\"e1\""));
        let article = Record {
            page_type: PageType::Article,
            ..Record::default()
        };
        assert!(s
            .plan(
                &seed(),
                &item(2, None),
                &out(Outcome::Fetched),
                Some(&article),
                0
            )
            .is_none());
        let mut sd = seed();
        sd.revisit_pages = Some(86_400);
        let a = s
            .plan(
                &sd,
                &item(2, None),
                &out(Outcome::Fetched),
                Some(&article),
                0,
            )
            .expect("revisit_pages= turns it on");
        assert_eq!(a.due, 86_400, "a seed's interval may pass revisit.max");
        assert!(s
            .plan(&seed(), &item(0, None), &out(Outcome::HttpError), None, 0)
            .is_none());
        let mut huge = out(Outcome::Fetched);
        huge.etag = Some("x".repeat(70_000));
        let h = s
            .plan(&seed(), &item(0, None), &huge, None, 0)
            .expect("again");
        assert_eq!(h.item.revisit.expect("revisit").etag, None, "not kept");
    }

    #[test]
    fn the_interval_halves_on_change_and_grows_when_unchanged_within_bounds() {
        let s = schedule();
        let prev = Revisit {
            interval: 600,
            hub: true,
            ..Revisit::default()
        };
        let changed = Record {
            page_type: PageType::Listing,
            version: Some(2),
            ..Record::default()
        };
        let a = s
            .plan(
                &seed(),
                &item(1, Some(prev.clone())),
                &out(Outcome::Fetched),
                Some(&changed),
                0,
            )
            .expect("again");
        let r = a.item.revisit.expect("revisit");
        assert_eq!((r.interval, r.version), (300, 2));
        let b = s
            .plan(
                &seed(),
                &item(1, Some(prev.clone())),
                &out(Outcome::NotModified),
                None,
                0,
            )
            .expect("again");
        assert_eq!(b.item.revisit.expect("revisit").interval, 900);
        let slow = Revisit {
            interval: 3000,
            ..prev.clone()
        };
        let c = s
            .plan(
                &seed(),
                &item(1, Some(slow)),
                &out(Outcome::Unchanged),
                None,
                0,
            )
            .expect("again");
        assert_eq!(c.item.revisit.expect("revisit").interval, 3600, "max");
        let fast = Revisit {
            interval: 70,
            ..prev.clone()
        };
        let d = s
            .plan(
                &seed(),
                &item(1, Some(fast)),
                &out(Outcome::Fetched),
                Some(&changed),
                0,
            )
            .expect("again");
        assert_eq!(d.item.revisit.expect("revisit").interval, 60, "min");
        let mut down = out(Outcome::TransportError);
        down.status = 0;
        assert!(
            s.plan(&seed(), &item(1, Some(prev)), &down, None, 0)
                .is_some(),
            "a hub that was fine is not dropped for one outage"
        );
    }

    /// Regression (CI, stop 74): a sitemap answered 200 with a new body on
    /// every visit was taken for unchanged (it makes no record), so its
    /// interval grew by half each time and an edit it announced was found
    /// too late. Its body's hash says whether it changed.
    #[test]
    fn a_changed_sitemap_or_feed_is_visited_sooner() {
        let s = schedule();
        let mut sitemap = item(1, None);
        sitemap.kind = UrlKind::Sitemap;
        // The next visit of `item` after an answer of `kind` with `body`.
        let next = |item: &QueuedUrl, b: &[u8], kind: Outcome| {
            let out = PageOutcome {
                content_hash: Some(crate::record::body_hash(b)),
                ..out(kind)
            };
            let again = s.plan(&seed(), item, &out, None, 0).expect("revisited");
            QueuedUrl {
                revisit: again.item.revisit,
                ..item.clone()
            }
        };
        let interval = |q: &QueuedUrl| q.revisit.as_ref().map(|r| r.interval);
        let again = next(&sitemap, b"<urlset/>", Outcome::Sitemap);
        assert_eq!(interval(&again), Some(600));
        let changed = next(&again, b"<urlset><url/></urlset>", Outcome::Sitemap);
        assert_eq!(interval(&changed), Some(300), "changed");
        let same = next(&again, b"<urlset/>", Outcome::Sitemap);
        assert_eq!(interval(&same), Some(900), "the same");
        // A seed's URL that answers with a feed is judged the same way.
        let feed = next(&item(0, None), b"<rss/>", Outcome::Feed);
        let moved = next(&feed, b"<rss>1</rss>", Outcome::Feed);
        assert_eq!(interval(&moved), Some(300));
        // A sitemap that differs on every visit (a timestamp in it) is
        // visited no more often than `revisit.min`.
        let mut stamped = again;
        for visit in 0..8u8 {
            stamped = next(&stamped, &[visit], Outcome::Sitemap);
        }
        assert_eq!(interval(&stamped), Some(60), "revisit.min");
    }

    fn link(path: &str) -> NewUrl {
        NewUrl {
            host: "a.test".into(),
            item: QueuedUrl {
                url: format!("http://a.test/{path}"),
                ..item(1, None)
            },
        }
    }

    fn urls(changed: &[Changed]) -> Vec<&str> {
        changed
            .iter()
            .map(|c| c.link.item.url.trim_start_matches("http://a.test/"))
            .collect()
    }

    /// Issue 53, item 5: a front page listing what changed last. A new
    /// story on top pushes the others back (no signal); a story that moves
    /// ahead, or joins the list, is sent to be checked.
    #[test]
    fn links_that_move_ahead_on_a_hub_are_checked() {
        let mut first = Revisit::default();
        let mut changed = Vec::new();
        let page = |p: &[&str]| p.iter().map(|p| link(p)).collect::<Vec<_>>();
        hub_links(
            None,
            &mut first,
            &page(&["a", "b", "c", "d"]),
            &mut changed,
            9,
        );
        assert!(changed.is_empty(), "a first visit compares with nothing");
        let mut second = Revisit::default();
        hub_links(
            Some(&first),
            &mut second,
            &page(&["new", "a", "b", "c"]),
            &mut changed,
            9,
        );
        assert_eq!(urls(&changed), ["new"]);
        changed.clear();
        let mut third = Revisit::default();
        hub_links(
            Some(&second),
            &mut third,
            &page(&["c", "new", "a", "e"]),
            &mut changed,
            9,
        );
        assert_eq!(urls(&changed), ["c", "e"], "moved ahead first, then joined");
        assert!(changed.iter().all(|c| c.at == 9));
        // A visit that read no links (unchanged) keeps the order it had.
        let mut fourth = Revisit::default();
        hub_links(Some(&third), &mut fourth, &[], &mut changed, 9);
        assert_eq!(fourth.links, third.links);
    }

    #[test]
    fn dates_a_hub_gives_everything_alike_are_not_believed() {
        let now = 1_800_000_000u64;
        let dated = |dates: &[i64]| -> Vec<(NewUrl, i64)> {
            dates
                .iter()
                .enumerate()
                .map(|(i, d)| (link(&i.to_string()), *d))
                .collect()
        };
        let d = now as i64;
        let got = changed_entries(dated(&[d - 50, d - 10, d + 999_999, 0]), now);
        assert_eq!(
            urls(&got),
            ["1", "0"],
            "newest first, no date ahead or unset"
        );
        // A sitemap stamped with the time it was made: all one date.
        let stamped = vec![d - 5; 12];
        assert!(changed_entries(dated(&stamped), now).is_empty());
        let mut varied = stamped.clone();
        varied[0] = d - 3600;
        varied[1] = d - 7200;
        assert_eq!(changed_entries(dated(&varied), now).len(), 12);
    }

    /// A hostile hub's bounds: a sitemap of dated entries sends at most
    /// `MAX_CHANGED`, the newest; a hub page whose links all move sends at
    /// most `MOVED_AHEAD`.
    #[test]
    fn what_one_hub_visit_sends_is_bounded() {
        let now = 1_800_000_000u64;
        let many: Vec<(NewUrl, i64)> = (0..MAX_CHANGED + 500)
            .map(|i| (link(&i.to_string()), now as i64 - i as i64))
            .collect();
        let got = changed_entries(many, now);
        assert_eq!(got.len(), MAX_CHANGED);
        assert!(got.iter().all(|c| c.at > now - MAX_CHANGED as u64));
        let names: Vec<String> = (0..HUB_LINKS).map(|i| i.to_string()).collect();
        let forward: Vec<NewUrl> = names.iter().map(|n| link(n)).collect();
        let reversed: Vec<NewUrl> = names.iter().rev().map(|n| link(n)).collect();
        let (mut first, mut second) = (Revisit::default(), Revisit::default());
        let mut changed = Vec::new();
        hub_links(None, &mut first, &forward, &mut changed, 9);
        hub_links(Some(&first), &mut second, &reversed, &mut changed, 9);
        assert_eq!(changed.len(), MOVED_AHEAD);
        assert_eq!(second.links.len(), HUB_LINKS);
    }
}
