//! What the daemon's stages share ([`Shared`]) and pass on ([`CpuJob`],
//! [`WriterMsg`]), and the CPU stage: decode, parse, extract, links,
//! near-duplicates. The async fetch task is in [`super::fetch_task`]; both
//! end in a [`WriterMsg`] for the store writer.

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;
use url::Url;

use super::seeds::Seed;
use super::stats::Stats;
use crate::fetch::{Fetcher, Response};
use crate::focus::{Focus, LinkFeatures};
use crate::frontier::url::{check_page_url, host_key, normalize, UrlRules};
use crate::frontier::Lease;
use crate::politeness::budget::ErrorBudget;
use crate::politeness::clock::Clock;
use crate::politeness::robots::Robots;
use crate::politeness::DelayRules;
use crate::store::{simhash, Completion, Counter, NewUrl, PageOutcome, QueuedUrl, Store, UrlKind};
use trawl_extract::{Charset, Link, Options, Page};

/// Everything the tasks share.
pub struct Shared {
    pub store: Store,
    pub fetcher: Arc<dyn Fetcher>,
    pub stats: Arc<Stats>,
    pub seeds: RwLock<HashMap<u32, Seed>>,
    pub robots: Mutex<HashMap<String, (Arc<Robots>, Instant)>>,
    pub rules: UrlRules,
    pub delays: DelayRules,
    pub extract: Options,
    /// robots.txt product token (first word of the User-Agent, before '/').
    pub agent: String,
    pub max_redirects: usize,
    pub max_retries: u8,
    pub max_pages: u64,
    pub max_pages_per_host: u64,
    pub robots_ttl: Duration,
    /// When each host may be sent its next request.
    pub clock: Clock,
    /// Consecutive failed page fetches per host.
    pub health: ErrorBudget,
    pub error_budget: u32,
    pub limiter: Option<governor::DefaultDirectRateLimiter>,
    /// Topic, strategy and link model of a focused crawl.
    pub focus: Option<Arc<Focus>>,
    /// Templates of e-commerce seeds.
    pub shop: super::shop::Shop,
    /// Test hook called before each page is processed.
    pub page_hook: Option<super::PageHook>,
}

/// A fetched page waiting for the CPU stage.
pub struct CpuJob {
    pub lease: Lease,
    pub seed: Seed,
    pub final_url: String,
    pub chain: Vec<String>,
    pub response: Response,
    pub delay: Duration,
    pub extra_links: Vec<NewUrl>,
}

/// Work for the store writer.
pub struct WriterMsg {
    pub lease: Lease,
    pub completion: Completion,
    /// Politeness delay before the host's next fetch.
    pub delay: Duration,
    /// Hold the host off until then (robots 5xx, 429, 503).
    pub hold: Option<Instant>,
}

/// Where a fetch task sends its result.
pub enum FetchResult {
    Cpu(CpuJob),
    Write(WriterMsg),
}

pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

pub(super) fn outcome(url: &str, status: u16, error: Option<String>) -> PageOutcome {
    PageOutcome {
        url: url.to_string(),
        status,
        fetched_at: now_secs(),
        error,
        ..PageOutcome::default()
    }
}

impl Shared {
    pub(super) fn seed(&self, id: u32, host: &str) -> Seed {
        self.seeds
            .read()
            .ok()
            .and_then(|s| s.get(&id).cloned())
            .unwrap_or_else(|| Seed {
                url: String::new(),
                host: host.to_string(),
                max_depth: 0,
                max_pages: None,
                scope: super::seeds::Scope::Host,
                mode: super::seeds::Mode::Article,
                sitemaps: false,
                topic: None,
            })
    }

    pub(super) fn over_budget(&self, host: &str, seed: &Seed, seed_id: u32) -> bool {
        (self.max_pages_per_host > 0
            && self.store.count(Counter::Host(host)).unwrap_or(0) >= self.max_pages_per_host)
            || self.seed_spent(seed, seed_id)
    }

    /// Whether the crawl's or the seed's page budget is spent.
    pub(super) fn seed_spent(&self, seed: &Seed, seed_id: u32) -> bool {
        let count = |c| self.store.count(c).unwrap_or(0);
        (self.max_pages > 0 && count(Counter::Total) >= self.max_pages)
            || seed
                .max_pages
                .is_some_and(|m| count(Counter::Seed(seed_id)) >= m)
    }

    /// Counts a page fetch against the host's error budget; says so once
    /// when the host has spent it.
    pub(super) fn page_result(&self, host: &str, ok: bool) {
        if self.health.record(host, ok) {
            self.stats.hosts_stopped.fetch_add(1, Relaxed);
            tracing::warn!(
                host,
                budget = self.error_budget,
                "host stopped: its last page fetches all failed; its queued URLs are dropped \
                 and links to it are not queued (crawl.host_error_budget)"
            );
        }
    }
}

/// [`process`], with a panic (an extractor bug on a hostile page) caught
/// and turned into an error outcome for that page: the host is not stalled
/// and the crawl goes on.
pub fn process_guarded(shared: &Shared, job: CpuJob) -> WriterMsg {
    let lease = job.lease.clone();
    let delay = job.delay;
    let links = job.extra_links.clone();
    let status = job.response.status;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| process(shared, job))) {
        Ok(msg) => msg,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            shared.stats.panics.fetch_add(1, Relaxed);
            tracing::error!(url = %lease.item.url, panic = %what, "processing the page panicked; recorded as an error");
            let mut out = outcome(&lease.item.url, status, None);
            out.error = Some(format!("internal error while processing the page: {what}"));
            WriterMsg {
                completion: Completion::Done {
                    outcome: out,
                    record: None,
                    simhash: None,
                    links,
                    counted: Some((lease.host.clone(), lease.item.seed)),
                },
                lease,
                delay,
                hold: None,
            }
        }
    }
}

/// The CPU stage: turns a fetched page into a record and links.
pub fn process(shared: &Shared, job: CpuJob) -> WriterMsg {
    let CpuJob {
        lease,
        seed,
        final_url,
        chain,
        response,
        delay,
        extra_links,
    } = job;
    let item = lease.item.clone();
    if let Some(hook) = &shared.page_hook {
        (hook.0)(&item.url);
    }
    let mut out = outcome(&item.url, response.status, None);
    out.final_url = Some(final_url.clone()).filter(|f| *f != item.url);
    out.redirects = chain;
    out.bytes = response.body.len() as u64;
    if response.truncated {
        out.error = Some(format!("body cut at {} bytes", response.body.len()));
    }
    let base = Url::parse(&final_url).ok();
    let opts = Options {
        url: Some(final_url.clone()),
        charset: response
            .content_type
            .as_deref()
            .and_then(Charset::from_content_type),
        ..shared.extract.clone()
    };
    let page = match Page::parse(&response.body, &opts) {
        Ok(page) => page,
        Err(e) => {
            shared.stats.extraction_errors.fetch_add(1, Relaxed);
            out.error = Some(format!("extraction: {e}"));
            return WriterMsg {
                completion: Completion::Done {
                    outcome: out,
                    record: None,
                    simhash: None,
                    links: extra_links,
                    counted: Some((lease.host.clone(), item.seed)),
                },
                lease,
                delay,
                hold: None,
            };
        }
    };
    let robots = page.robots(&shared.agent);
    // A focused crawl judges every page, indexed or not: its links need it.
    let focus = shared.focus.as_deref();
    let ex = (!robots.noindex || focus.is_some()).then(|| page.extract(&opts));
    let topic = focus.and_then(|f| f.topic_for(seed.topic.as_deref()));
    let relevance = topic.zip(ex.as_ref()).map(|(t, ex)| t.relevance(&ex.text));
    if let (Some(f), Some(r)) = (focus, relevance) {
        out.relevance = Some(r);
        out.relevant = Some(r >= f.threshold);
    }
    let mut links = extra_links;
    if !robots.nofollow && item.depth < seed.max_depth {
        if let Some(base) = &base {
            let parent = focus.zip(topic).map(|(f, topic)| Parent {
                focus: f,
                topic,
                store: &shared.store,
                rates: HashMap::new(),
                relevance: relevance.unwrap_or(0.0),
                hub: ex
                    .as_ref()
                    .is_some_and(|e| crate::focus::is_hub(e.page_type)),
            });
            links.extend(page_links(shared, &page, base, &seed, &item, parent));
        }
    }
    let mut record = None;
    let mut hash = None;
    if let (false, Some(ex)) = (robots.noindex, ex) {
        let content_hash = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(ex.text.as_bytes()));
        out.content_hash = Some(content_hash.clone());
        hash = simhash::simhash(&ex.text);
        let duplicate_of = hash
            .and_then(|h| shared.store.near_duplicate(h).ok().flatten())
            .and_then(|seq| shared.store.record(seq).ok().flatten())
            .and_then(|r| r.get("url").and_then(|u| u.as_str()).map(str::to_string))
            .filter(|u| *u != item.url);
        if duplicate_of.is_some() {
            shared.stats.duplicates.fetch_add(1, Relaxed);
        }
        record = Some(json!({
            "url": item.url,
            "final_url": final_url,
            "canonical": ex.canonical,
            "fetched_at": out.fetched_at,
            "status": response.status,
            "title": ex.title,
            "author": ex.author,
            "date": ex.date,
            "language": ex.language,
            "page_type": ex.page_type,
            "algorithm": ex.algorithm,
            "text": ex.text,
            "description": ex.description,
            "site_name": ex.site_name,
            "content_hash": content_hash,
            "duplicate_of": duplicate_of,
            "depth": item.depth,
            "relevance": relevance,
        }));
        if seed.mode == super::seeds::Mode::Ecommerce && page.is_product(&final_url, ex.page_type) {
            let site = crate::frontier::url::site_of(&lease.host);
            let product =
                shared
                    .shop
                    .product(&shared.store, &shared.stats, site, &response.body, &page);
            if let (
                Some(serde_json::Value::Object(rec)),
                super::shop::Product::Extracted {
                    applied,
                    template,
                    version,
                },
            ) = (&mut record, product)
            {
                shared.stats.products.fetch_add(1, Relaxed);
                rec.insert("type".into(), "product".into());
                rec.insert("fields".into(), json!(applied.values));
                rec.insert("template".into(), template.into());
                rec.insert("template_version".into(), version.into());
                rec.insert("template_match".into(), json!(applied.matched));
            }
        }
    }
    WriterMsg {
        completion: Completion::Done {
            outcome: out,
            record,
            simhash: hash,
            links,
            counted: Some((lease.host.clone(), item.seed)),
        },
        lease,
        delay,
        hold: None,
    }
}

/// The page links are found on, in a focused crawl.
struct Parent<'a> {
    focus: &'a Focus,
    topic: &'a crate::focus::Topic,
    store: &'a Store,
    relevance: f32,
    hub: bool,
    /// Harvest rates of the hosts linked to so far.
    rates: HashMap<String, f32>,
}

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

/// In-scope, followable links of a page, with their priorities.
fn page_links(
    shared: &Shared,
    page: &Page,
    base: &Url,
    seed: &Seed,
    item: &QueuedUrl,
    mut parent: Option<Parent<'_>>,
) -> Vec<NewUrl> {
    // Resolve as a browser does: against <base href> (itself resolved
    // against the final URL after redirects), else the final URL. The DOM
    // drops <head> as invisible, so the parser keeps the base for us.
    let base = page
        .base_href()
        .and_then(|h| base.join(h.trim()).ok())
        .filter(|b| matches!(b.scheme(), "http" | "https"))
        .unwrap_or_else(|| base.clone());
    // A spent page budget queues nothing more (a page with 100,000 links
    // would otherwise fill the queue with URLs that are only dropped).
    if shared.seed_spent(seed, item.seed) {
        return Vec::new();
    }
    let mut spent: HashMap<String, bool> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for link in page.links() {
        if link.nofollow {
            continue;
        }
        let Ok(u) = normalize(&link.href, Some(&base), &shared.rules) else {
            continue;
        };
        if !seed.in_scope(&u) || check_page_url(&u).is_err() || !seen.insert(u.to_string()) {
            continue;
        }
        let depth = item.depth + 1;
        let host = host_key(&u);
        let full = *spent.entry(host.clone()).or_insert_with(|| {
            shared.health.stopped(&host)
                || (shared.max_pages_per_host > 0
                    && shared.store.count(Counter::Host(&host)).unwrap_or(0)
                        >= shared.max_pages_per_host)
        });
        if full {
            continue;
        }
        let (priority, features) = match parent.as_mut() {
            Some(p) => p.score(page, &link, &u, &host, depth),
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
            },
        });
    }
    out
}
