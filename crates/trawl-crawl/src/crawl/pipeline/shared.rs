//! What the daemon's stages share and pass on: [`Shared`] (the store, the
//! counters, seeds, URL rules, budgets and the render policy), split by
//! side into [`Fetching`] (how requests go out: client, robots cache, politeness
//! clock, error budget) and [`Processing`] (how pages become records:
//! extract options, focus, the link cap), the messages between stages
//! ([`CpuJob`], [`Visit`], [`Sched`]) and the small constructors every
//! stage ends a URL with.

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::crawl::options::PageHook;
use crate::crawl::stats::Stats;
use crate::fetch::guard::Origin;
use crate::fetch::{Conditional, Fetcher, RequestOptions, Response};
use crate::focus::Focus;
use crate::frontier::url::UrlRules;
use crate::frontier::Lease;
use crate::politeness::budget::ErrorBudget;
use crate::politeness::clock::Clock;
use crate::politeness::robots::Robots;
use crate::politeness::DelayRules;
use crate::record::{now_secs, Outcome, PageOutcome};
use crate::seeds::{Book, Seed};
use crate::store::{Completion, Counter, NewUrl, QueuedUrl, Store};
use trawl_extract::Options;

/// What every stage reads: the store, the counters, the seeds, which URLs
/// are queued and the budgets. The fetch side sees it through
/// [`Fetching`], the CPU stage through [`Processing`], the writer as is.
pub(crate) struct Shared {
    pub store: Store,
    pub stats: Arc<Stats>,
    /// The seeds by number (see [`Book`]).
    pub seeds: Book,
    pub rules: UrlRules,
    /// URL patterns: which links are queued.
    pub(in crate::crawl) patterns: Patterns,
    pub max_pages: u64,
    pub max_pages_per_host: u64,
    /// What differs between one machine and a cluster, as the stages see it.
    pub backend: Arc<dyn Backend>,
    /// When URLs are fetched again.
    pub revisits: super::revisit::Schedule,
    /// The WARC archive (`None`: `[warc] enabled = false`).
    pub(in crate::crawl) archive: Option<Arc<super::archive::Archive>>,
    /// Templates of e-commerce seeds (applied by the CPU stage, shared
    /// with a cluster by its leases).
    pub template_mode: crate::crawl::template::TemplateMode,
    /// The product token of robots.txt (fetch side) and of robots meta
    /// tags (CPU stage): the User-Agent's first word, before '/'.
    pub agent: String,
    /// When a page goes to the browser (CPU stage), and the browser pool
    /// (render stage).
    pub(in crate::crawl) render: super::render_policy::RenderPolicy,
}

/// The fetch side's state (the scheduler, fetch tasks, hubs, renders):
/// how requests go out and when. The CPU stage cannot reach it.
pub(crate) struct Fetching {
    pub shared: Arc<Shared>,
    pub fetcher: Arc<dyn Fetcher>,
    pub robots: Mutex<HashMap<String, (Arc<Robots>, Instant)>>,
    pub robots_ttl: Duration,
    pub delays: DelayRules,
    pub max_redirects: usize,
    pub max_retries: u8,
    /// Page URLs each seed's sitemaps queued this run (bounded by its
    /// `max_pages`).
    pub(in crate::crawl) sitemap_entries: Mutex<HashMap<u32, u64>>,
    /// When each host may be sent its next request.
    pub clock: Clock,
    /// Consecutive failed page fetches per host.
    pub health: ErrorBudget,
    pub error_budget: u32,
    pub limiter: Option<governor::DefaultDirectRateLimiter>,
    /// How requests are sent to each site (`[[site]]`, seed options).
    pub sites: super::sites::Sites,
}

/// The CPU stage's state: how a fetched page is extracted, judged and
/// turned into a record and links. The fetch side cannot reach it.
pub(crate) struct Processing {
    pub shared: Arc<Shared>,
    pub extract: Options,
    /// Topic, strategy and link model of a focused crawl.
    pub focus: Option<Arc<Focus>>,
    /// Test hook called before each page is processed.
    pub page_hook: Option<PageHook>,
    /// Keep each record's outgoing links.
    pub record_links: bool,
    /// Links of one page queued at most (`crawl.max_links_per_page`).
    pub max_links_per_page: usize,
}

impl std::ops::Deref for Fetching {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.shared
    }
}

impl std::ops::Deref for Processing {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.shared
    }
}

/// The two things the shared stages ask of where URLs come from: whether a
/// request to a host may go out now, and the page counts budgets read. One
/// machine answers from its own store ([`Local`]); a cluster worker from its
/// leases and the cluster's counts (`worker::sitewide::ClusterView`).
pub(crate) trait Backend: Send + Sync {
    /// Whether a request to `host` may be sent now.
    fn may_send(&self, _host: &str) -> bool {
        true
    }

    /// A page count, when this backend keeps it (`None`: the store's).
    fn count(&self, _c: &Counter) -> Option<u64> {
        None
    }

    /// Whether a URL was queued or fetched before, when this backend knows
    /// (`None`: ask the store's seen-set).
    fn known<'a>(&'a self, _url: &'a str) -> BoxFuture<'a, Option<bool>> {
        Box::pin(std::future::ready(None))
    }

    /// Whether the run's seeds are registered in its store (one machine),
    /// so a seed not held in memory can be read again; a cluster's come
    /// from the shared database and are all held.
    fn seeds_in_store(&self) -> bool {
        true
    }
}

/// A future a [`Backend`] answers with.
pub(crate) type BoxFuture<'a, T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// One machine: every request may go, every count is the store's.
pub(crate) struct Local;

impl Backend for Local {}

/// A page the CPU stage sends to the browser.
pub(crate) struct RenderJob {
    /// The fetched page.
    pub job: CpuJob,
    /// Why it is rendered.
    pub reason: String,
}

/// A fetched page waiting for the CPU stage.
pub(crate) struct CpuJob {
    pub lease: Lease,
    pub seed: Arc<Seed>,
    pub final_url: String,
    pub chain: Vec<String>,
    pub response: Response,
    pub delay: Duration,
    pub extra_links: Vec<NewUrl>,
    /// Set when `response` holds the DOM a browser rendered.
    pub rendered: Option<crate::record::RenderNote>,
}

/// How one leased URL's visit ended: the one value every stage that ends
/// a URL (a fetch task, the CPU stage, the render stage) hands the finish
/// stage (the writer), which plans the next visit, counts it, lets the
/// focus learn, places its archive records and commits it.
pub(crate) struct Visit {
    /// The lease it ends (its host, block key and queued URL).
    pub lease: Lease,
    /// Its outcome, record, links and next visit (see [`Completion`]).
    pub completion: Completion,
    /// Politeness delay before the host's next fetch.
    pub delay: Duration,
    /// Hold the host off until then (robots 5xx, 429, 503).
    pub hold: Option<Instant>,
    /// The archived exchange of the page's response (its record gets the
    /// response's WARC location).
    pub archived: Option<u64>,
    /// The archived rendered DOM (its record gets that location too).
    pub archived_dom: Option<u64>,
}

/// Where a fetch task sends its result.
// One value per URL, moved once to the next stage: boxing the page would
// add an allocation per fetch and buy nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum FetchResult {
    Cpu(CpuJob),
    Write(Visit),
}

/// A leased URL ended: what the scheduler learns from the writer.
#[derive(Debug)]
pub(in crate::crawl) struct Finished {
    pub host: String,
    /// The lease's key.
    pub key: Vec<u8>,
    /// Politeness delay before the host's next request.
    pub delay: Duration,
    /// Hold the host off until then (robots 5xx, 429, 503).
    pub hold: Option<Instant>,
    /// The completion is in the frontier leases are read from (else it
    /// waits to be committed, and its URL must not be leased again).
    pub committed: bool,
}

/// Messages to the scheduler.
pub(in crate::crawl) enum Sched {
    /// A leased URL ended.
    Finished(Finished),
    /// A URL that ended uncommitted reached the frontier.
    Committed { host: String, key: Vec<u8> },
}

pub(in crate::crawl) fn outcome(
    url: &str,
    status: u16,
    kind: Outcome,
    error: Option<String>,
) -> PageOutcome {
    PageOutcome {
        url: url.to_string(),
        status,
        outcome: kind,
        fetched_at: now_secs(),
        error,
        ..PageOutcome::default()
    }
}

/// The outcome of a URL's final response: `ok` for a 2xx, else an HTTP or
/// transport error (status 0 when there was no response).
pub(in crate::crawl) fn response_outcome(url: &str, r: &Response, ok: Outcome) -> PageOutcome {
    // A request the guard refused was never sent: not a transport error.
    let kind = if r.blocked {
        Outcome::BlockedAddress
    } else if r.is_transport_error() {
        Outcome::TransportError
    } else if (200..=299).contains(&r.status) {
        ok
    } else {
        Outcome::HttpError
    };
    let status = if r.is_transport_error() { 0 } else { r.status };
    let mut out = outcome(url, status, kind, r.error.clone());
    headers_into(&mut out, r);
    out
}

/// The response headers an outcome keeps (what users filter on).
pub(in crate::crawl) fn headers_into(out: &mut PageOutcome, r: &Response) {
    out.content_type = r.content_type.clone();
    out.content_length = r.content_length;
    out.last_modified = r.last_modified.clone();
    out.etag = r.etag.clone();
}

/// Why a host was stopped, in words (outcomes, status).
pub(in crate::crawl) fn stop_reason(stop: &crate::politeness::budget::Stop) -> String {
    format!(
        "error budget spent: {} page fetches in a row failed (transport errors, 5xx, 429); \
         stopped since {} until {}",
        stop.failures,
        crate::record::iso_time(stop.since),
        crate::record::iso_time(stop.until)
    )
}

pub(in crate::crawl) fn done(
    lease: Lease,
    out: PageOutcome,
    links: Vec<NewUrl>,
    counted: bool,
    delay: Duration,
) -> FetchResult {
    FetchResult::Write(ended(lease, out, links, counted, delay))
}

/// A hub (a sitemap, a feed) that ended with `out`, its `links` to queue
/// and the known pages it says `changed`.
pub(in crate::crawl) fn hub_done(
    lease: Lease,
    out: PageOutcome,
    links: Vec<NewUrl>,
    changed: Vec<crate::store::Changed>,
    delay: Duration,
) -> FetchResult {
    let mut msg = ended(lease, out, links, false, delay);
    if let Completion::Done { changed: c, .. } = &mut msg.completion {
        *c = changed;
    }
    FetchResult::Write(msg)
}

/// A URL that ended with `out` and no record (`counted`: against its
/// budgets).
pub(in crate::crawl) fn ended(
    lease: Lease,
    out: PageOutcome,
    links: Vec<NewUrl>,
    counted: bool,
    delay: Duration,
) -> Visit {
    let counted = counted.then(|| (lease.host.clone(), lease.item.seed));
    Visit {
        lease,
        completion: Completion::Done {
            outcome: out,
            record: None,
            simhash: None,
            links,
            counted,
            again: None,
            changed: Vec::new(),
            recheck: None,
        },
        delay,
        hold: None,
        archived: None,
        archived_dom: None,
    }
}

pub(in crate::crawl) fn retry(
    lease: Lease,
    item: QueuedUrl,
    delay: Duration,
    hold: Option<Instant>,
) -> FetchResult {
    FetchResult::Write(Visit {
        lease,
        completion: Completion::Retry { item },
        delay,
        hold,
        archived: None,
        archived_dom: None,
    })
}

/// Ends a lease without a fetch: the URL gets an outcome of `kind` saying
/// `why`, and is set aside until `until` (seconds since the epoch;
/// `u64::MAX`: the next start), then offered again.
pub(in crate::crawl) fn park(lease: Lease, kind: Outcome, why: String, until: u64) -> FetchResult {
    let item = lease.item.clone();
    FetchResult::Write(Visit {
        completion: Completion::Park {
            outcome: outcome(&item.url, 0, kind, Some(why)),
            item,
            until,
        },
        lease,
        delay: Duration::ZERO,
        hold: None,
        archived: None,
        archived_dom: None,
    })
}

impl Shared {
    /// Whether a link found under seed `id` may be queued by the URL
    /// patterns; one left out is counted (`excluded`).
    pub(in crate::crawl) fn pattern_allows(&self, id: u32, seed: &Seed, url: &str) -> bool {
        let ok = self.patterns.allows(id, seed, url);
        if !ok {
            self.stats.excluded.fetch_add(1, Relaxed);
        }
        ok
    }

    /// Sets a finished URL's next visit on its completion (see `revisit`).
    pub(in crate::crawl) fn plan_revisit(&self, msg: &mut Visit) {
        let seed = self.seed(msg.lease.item.seed, &msg.lease.host);
        self.revisits
            .plan_completion(&seed, &msg.lease.item, &mut msg.completion);
    }

    /// Seed `id`'s options; a seed not registered (a store that lost it)
    /// crawls with the defaults for `host`.
    pub(in crate::crawl) fn seed(&self, id: u32, host: &str) -> Arc<Seed> {
        self.seeds
            .get(id)
            .unwrap_or_else(|| Arc::new(Seed::bare(host)))
    }

    /// A page counter: the backend's (a cluster's), else the store's.
    pub(in crate::crawl) fn count(&self, c: Counter) -> u64 {
        self.backend
            .count(&c)
            .unwrap_or_else(|| self.store.count(c).unwrap_or(0))
    }

    pub(in crate::crawl) fn over_budget(&self, host: &str, seed: &Seed, seed_id: u32) -> bool {
        (self.max_pages_per_host > 0 && self.count(Counter::Host(host)) >= self.max_pages_per_host)
            || self.seed_spent(seed, seed_id)
    }

    /// Why a focused crawl stopped fetching new pages (`focus.stop_below`).
    pub(in crate::crawl) fn focus_stopped(&self) -> Option<&str> {
        self.stats.harvest.get().and_then(|h| h.stopped())
    }

    /// Whether the crawl's or the seed's page budget is spent.
    pub(in crate::crawl) fn seed_spent(&self, seed: &Seed, seed_id: u32) -> bool {
        let count = |c| self.count(c);
        (self.max_pages > 0 && count(Counter::Total) >= self.max_pages)
            || seed
                .max_pages
                .is_some_and(|m| count(Counter::Seed(seed_id)) >= m)
    }
}

impl Fetching {
    /// The options of a request to `url` for `item` of seed `seed`: its
    /// site's and seed's settings, and on a revisit the validators to send
    /// (unless `revisit.conditional` is off).
    pub(in crate::crawl) fn request_options(
        &self,
        host: &str,
        seed: &Seed,
        url: &url::Url,
        item: &QueuedUrl,
    ) -> RequestOptions {
        let conditional = item
            .revisit
            .as_deref()
            .filter(|_| self.revisits.conditional())
            .map(|r| Conditional {
                etag: r.etag.clone(),
                last_modified: r.last_modified.clone(),
            })
            .filter(|c| !c.is_empty());
        let mut opts = self.sites.options(host, Some(seed), url, conditional);
        opts.seed = Origin::parse(&seed.url).filter(|_| !seed.guarded);
        opts
    }

    /// The least time between two requests to `host` for `seed`: its
    /// `delay=` (which replaces its site's `delay_ms` and
    /// `crawl.min_delay_ms`), else [`Fetching::host_delay`].
    pub(in crate::crawl) fn seed_delay(&self, seed: Option<&Seed>, host: &str) -> Duration {
        seed.and_then(|s| s.delay_ms)
            .map_or_else(|| self.host_delay(host), Duration::from_millis)
    }

    /// The least time between two requests to `host` when no seed says
    /// otherwise: its `[[site]]` table's, else `crawl.min_delay_ms`.
    pub(in crate::crawl) fn host_delay(&self, host: &str) -> Duration {
        self.sites
            .delay_ms(host)
            .map_or(self.delays.min_delay, Duration::from_millis)
    }

    /// A revisit answered 304: the outcome says so and keeps the
    /// validators and text hash of the visit before (a 304 may omit them).
    pub(in crate::crawl) fn not_modified(&self, item: &QueuedUrl, out: &mut PageOutcome) {
        self.stats.not_modified.fetch_add(1, Relaxed);
        out.outcome = Outcome::NotModified;
        if let Some(r) = item.revisit.as_deref() {
            out.etag = out.etag.take().or_else(|| r.etag.clone());
            out.last_modified = out.last_modified.take().or_else(|| r.last_modified.clone());
            out.content_hash = r.content_hash.clone();
        }
    }

    /// Seeds the crawl knows now (read or registered): their hosts may be
    /// private addresses (the guard lets them through).
    pub(in crate::crawl) fn add_seeds(&self, seeds: impl IntoIterator<Item = (u32, Seed)>) {
        let guard = self.fetcher.guard();
        for (id, seed) in seeds {
            if let Some(g) = guard.as_ref().filter(|_| !seed.guarded) {
                g.allow(&seed.host);
            }
            self.sites.note_seeds([&seed]);
            self.seeds.insert(id, Arc::new(seed));
        }
    }

    /// Counts a page fetch against the host's error budget (`failed`: a
    /// transport error, timeout, 5xx or 429); says so once when the host
    /// has spent it.
    pub(in crate::crawl) fn page_result(&self, host: &str, failed: bool) {
        if let Some(stop) = self.health.record(host, failed) {
            self.stats.hosts_stopped.fetch_add(1, Relaxed);
            let why = stop_reason(&stop);
            self.stats
                .hold(host, why.clone(), stop.since, Some(stop.until));
            self.stats.error(format!("{host}: {why}"));
            tracing::warn!(
                host,
                budget = self.error_budget,
                until = stop.until,
                "host stopped: its last page fetches all failed (transport errors, 5xx, 429); \
                 its queued URLs get a host_stopped outcome and are offered again after \
                 crawl.host_stop_cooldown_secs or at the next start (crawl.host_error_budget)"
            );
        }
    }
}

/// Which links are queued: `crawl.include` / `crawl.exclude` and each
/// seed's `include=` / `exclude=`, compiled once (a seed's on first use).
#[derive(Default)]
pub(in crate::crawl) struct Patterns {
    include: Vec<regex::Regex>,
    exclude: Vec<regex::Regex>,
    seeds: Mutex<HashMap<u32, Arc<SeedPatterns>>>,
}

/// A seed's own patterns, compiled.
struct SeedPatterns {
    include: Vec<regex::Regex>,
    exclude: Vec<regex::Regex>,
}

fn compile(list: &[String]) -> Vec<regex::Regex> {
    // Checked when the config and the seed lines were read.
    list.iter()
        .filter_map(|r| regex::Regex::new(r).ok())
        .collect()
}

impl Patterns {
    /// The crawl's own patterns.
    pub(in crate::crawl) fn new(include: &[String], exclude: &[String]) -> Patterns {
        Patterns {
            include: compile(include),
            exclude: compile(exclude),
            seeds: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `url`, found under seed `id`, may be queued: it matches an
    /// include of the crawl's (if any) and of the seed's (if any), and no
    /// exclude of either.
    pub(in crate::crawl) fn allows(&self, id: u32, seed: &Seed, url: &str) -> bool {
        let included =
            |list: &[regex::Regex]| list.is_empty() || list.iter().any(|r| r.is_match(url));
        let excluded = |list: &[regex::Regex]| list.iter().any(|r| r.is_match(url));
        if !included(&self.include) || excluded(&self.exclude) {
            return false;
        }
        if seed.include.is_empty() && seed.exclude.is_empty() {
            return true;
        }
        let own = || {
            Arc::new(SeedPatterns {
                include: compile(&seed.include),
                exclude: compile(&seed.exclude),
            })
        };
        let own = match self.seeds.lock() {
            Ok(mut m) => m.entry(id).or_insert_with(own).clone(),
            Err(_) => own(),
        };
        included(&own.include) && !excluded(&own.exclude)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(include: &[&str], exclude: &[&str]) -> Seed {
        Seed {
            url: "http://a.test/".into(),
            max_depth: 5,
            include: include.iter().map(|s| s.to_string()).collect(),
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
            ..Seed::bare("a.test")
        }
    }

    #[test]
    fn patterns_of_the_crawl_and_of_a_seed_both_hold() {
        let p = Patterns::new(&[], &["/tag/".into()]);
        let plain = seed(&[], &[]);
        assert!(p.allows(1, &plain, "http://a.test/news/1"));
        assert!(
            !p.allows(1, &plain, "http://a.test/tag/x"),
            "the crawl's exclude"
        );
        let news = seed(&["/news/2026/", "/$"], &["[?&]page=[0-9]{2,}"]);
        assert!(p.allows(2, &news, "http://a.test/news/2026/a"));
        assert!(p.allows(2, &news, "http://a.test/"));
        assert!(
            !p.allows(2, &news, "http://a.test/news/2025/b"),
            "not included"
        );
        assert!(
            !p.allows(2, &news, "http://a.test/news/2026/?page=12"),
            "the seed's exclude"
        );
        assert!(
            !p.allows(2, &news, "http://a.test/tag/news/2026/"),
            "the crawl's exclude"
        );
        let only = Patterns::new(&["/docs/".into()], &[]);
        assert!(!only.allows(1, &plain, "http://a.test/blog/"));
        assert!(only.allows(1, &plain, "http://a.test/docs/x"));
    }
}
