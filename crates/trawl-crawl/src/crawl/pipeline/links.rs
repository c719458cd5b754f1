//! The links of a fetched page that the crawl follows: resolved against
//! `<base href>`, normalised, in the seed's scope, not nofollow, within page
//! budgets; in a focused crawl each with a priority from the focus model.

use std::collections::HashMap;

use url::Url;

use super::shared::Processing;
use crate::focus::{Focus, LinkFeatures};
use crate::frontier::url::{check_page_url, host_key, normalize};
use crate::seeds::Seed;
use crate::store::{Counter, NewUrl, QueuedUrl, Store, UrlKind};
use trawl_extract::{Link, Page};

/// The page links are found on, in a focused crawl.
pub(super) struct Parent<'a> {
    pub(super) focus: &'a Focus,
    pub(super) topic: &'a crate::focus::Topic,
    pub(super) store: &'a Store,
    pub(super) relevance: f32,
    pub(super) hub: bool,
    /// Harvest rates of the hosts linked to so far.
    pub(super) rates: HashMap<String, f32>,
}

/// Feeds (`<link rel="alternate">`) of one page followed at most.
const MAX_FEEDS: usize = 16;

/// Bytes of text read on each side of a link for its context.
const CONTEXT: usize = 150;

/// Words of a URL's path and query.
fn url_words(u: &Url) -> String {
    let mut s = u.path().to_string();
    if let Some(q) = u.query() {
        s.push(' ');
        s.push_str(q);
    }
    s.replace(|c: char| !c.is_alphanumeric(), " ")
}

impl Parent<'_> {
    /// Priority and stored features of a link.
    fn score(
        &mut self,
        page: &Page,
        link: &Link,
        u: &Url,
        host: &str,
        depth: u16,
    ) -> (f32, Option<[u8; crate::focus::FEATURES]>) {
        let topic = self.topic;
        let store = self.store;
        let host_rate = *self.rates.entry(host.to_string()).or_insert_with(|| {
            // Laplace-smoothed share of the host's fetched pages that were relevant.
            let n = store.count(Counter::Host(host)).unwrap_or(0);
            let r = store.count(Counter::RelevantHost(host)).unwrap_or(0);
            (r as f32 + 1.0) / (n as f32 + 2.0)
        });
        let f = LinkFeatures {
            parent_relevance: self.relevance,
            anchor: topic.keyword_score(&page.anchor_text(link), 5.0),
            context: topic.keyword_score(&page.link_context(link, CONTEXT), 20.0),
            url: topic.keyword_score(&url_words(u), 3.0),
            hub: self.hub,
            depth,
            host_rate,
        };
        self.focus.score(&f)
    }
}

/// The URL a page's links resolve against, as a browser does: its
/// `<base href>` (itself resolved against the final URL after redirects),
/// else the final URL. The DOM drops `<head>` as invisible, so the parser
/// keeps the base for us.
fn resolve_base(page: &Page, base: &Url) -> Url {
    page.base_href()
        .and_then(|h| base.join(h.trim()).ok())
        .filter(|b| matches!(b.scheme(), "http" | "https"))
        .unwrap_or_else(|| base.clone())
}

/// A page's links resolved against its base and normalised, once per page
/// for both the links queued and the links its record keeps.
pub(super) struct Resolved {
    /// The page's own URL (its final URL, after redirects), normalised: it
    /// is never one of its links (reached through a redirect, it is not in
    /// the seen-set).
    own: Option<String>,
    /// Every link that resolves, in page order, duplicates included.
    links: Vec<(Link, Url)>,
    /// The page's feeds (`<link rel="alternate">`), resolved.
    feeds: Vec<Url>,
    /// Links past the resolving bound (four times the page's link cap):
    /// never resolved, counted as left out when links are queued.
    unresolved: usize,
}

/// Resolves the links of `page`, fetched at `base`.
pub(super) fn resolve(shared: &Processing, page: &Page, base: &Url) -> Resolved {
    let own = normalize(base.as_str(), None, &shared.rules)
        .ok()
        .map(|u| u.to_string());
    let base = resolve_base(page, base);
    let all = page.links();
    // A page of a million links costs a million URL parses otherwise;
    // duplicates and out-of-scope links leave room for four per kept one.
    let bound = shared.max_links_per_page.saturating_mul(4);
    let unresolved = all.len().saturating_sub(bound);
    let links = all
        .into_iter()
        .take(bound)
        .filter_map(|l| {
            let u = normalize(&l.href, Some(&base), &shared.rules).ok()?;
            Some((l, u))
        })
        .collect();
    let feeds = page
        .feed_links()
        .iter()
        .take(MAX_FEEDS)
        .filter_map(|h| normalize(h, Some(&base), &shared.rules).ok())
        .collect();
    Resolved {
        own,
        links,
        feeds,
        unresolved,
    }
}

/// Most outgoing links a record keeps.
const MAX_OUTGOING: usize = 2000;

/// Every http(s) link of the page, in document order, once each, without
/// the page itself (nofollow and out-of-scope links too): a record's `links`.
pub(super) fn outgoing(resolved: &Resolved) -> Vec<String> {
    let mut seen: std::collections::HashSet<String> = resolved.own.iter().cloned().collect();
    let mut out = Vec::new();
    for (_, u) in &resolved.links {
        let u = u.to_string();
        if seen.insert(u.clone()) {
            out.push(u);
            if out.len() >= MAX_OUTGOING {
                break;
            }
        }
    }
    out
}

/// In-scope, followable links of a page, with their priorities.
pub(super) fn page_links(
    shared: &Processing,
    page: &Page,
    resolved: &Resolved,
    seed: &Seed,
    item: &QueuedUrl,
    mut parent: Option<Parent<'_>>,
) -> Vec<NewUrl> {
    // A spent page budget queues nothing more (a page with 100,000 links
    // would otherwise fill the queue with URLs that are only dropped).
    if shared.seed_spent(seed, item.seed) {
        return Vec::new();
    }
    let mut spent: HashMap<String, bool> = HashMap::new();
    let mut seen: std::collections::HashSet<String> = resolved.own.iter().cloned().collect();
    let mut out = Vec::new();
    let mut over_cap = resolved.unresolved as u64;
    for (link, u) in &resolved.links {
        if link.nofollow {
            continue;
        }
        if !seed.in_scope(u) || check_page_url(u).is_err() || !seen.insert(u.to_string()) {
            continue;
        }
        if !shared.pattern_allows(item.seed, seed, u.as_str()) {
            continue;
        }
        let depth = item.depth + 1;
        let host = host_key(u);
        // Links to a stopped host are queued: they are set aside with an
        // outcome when leased, and offered again after its cool-down.
        let full = *spent.entry(host.clone()).or_insert_with(|| {
            shared.max_pages_per_host > 0
                && shared.count(Counter::Host(&host)) >= shared.max_pages_per_host
        });
        if full {
            continue;
        }
        if out.len() >= shared.max_links_per_page {
            over_cap += 1;
            continue;
        }
        let (priority, features) = match parent.as_mut() {
            Some(p) => p.score(page, link, u, &host, depth),
            // Unfocused: shallow first.
            None => (1.0 / (1.0 + f32::from(depth)), None),
        };
        out.push(NewUrl {
            host,
            item: QueuedUrl {
                url: u.to_string(),
                depth,
                seed: item.seed,
                attempt: 0,
                kind: UrlKind::Page,
                priority,
                features,
                revisit: None,
            },
        });
    }
    if over_cap > 0 {
        shared
            .stats
            .over_page_cap
            .fetch_add(over_cap, std::sync::atomic::Ordering::Relaxed);
    }
    // The page's feeds: hubs like the page, read for their entries.
    for u in &resolved.feeds {
        if !seed.in_scope(u) || !seen.insert(u.to_string()) {
            continue;
        }
        out.push(NewUrl {
            host: host_key(u),
            item: QueuedUrl {
                url: u.to_string(),
                depth: item.depth,
                seed: item.seed,
                attempt: 0,
                kind: UrlKind::Feed,
                priority: 1.0,
                features: None,
                revisit: None,
            },
        });
    }
    out
}
