//! One URL's way through the daemon: the async fetch task (robots.txt,
//! budgets, redirects, retries) and the CPU stage (decode, parse, extract,
//! links, near-duplicates). Both end in a [`WriterMsg`] for the store writer.

use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;
use url::Url;

use super::seeds::Seed;
use super::stats::Stats;
use crate::extract::{extract_doc, parse_bytes, Options};
use crate::fetch::{get_following, Fetcher, Response};
use crate::focus::{Focus, LinkFeatures};
use crate::frontier::url::{check_page_url, host_key, normalize, UrlRules};
use crate::frontier::Lease;
use crate::html::{charset, Doc, Tag};
use crate::politeness::robots::Robots;
use crate::politeness::DelayRules;
use crate::store::{simhash, Completion, Counter, NewUrl, PageOutcome, QueuedUrl, Store, UrlKind};

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
    pub limiter: Option<governor::DefaultDirectRateLimiter>,
    /// Topic, strategy and link model of a focused crawl.
    pub focus: Option<Arc<Focus>>,
    /// Templates of e-commerce seeds.
    pub shop: super::shop::Shop,
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

fn outcome(url: &str, status: u16, error: Option<String>) -> PageOutcome {
    PageOutcome {
        url: url.to_string(),
        status,
        fetched_at: now_secs(),
        error,
        ..PageOutcome::default()
    }
}

fn done(
    lease: Lease,
    out: PageOutcome,
    links: Vec<NewUrl>,
    counted: bool,
    delay: Duration,
) -> FetchResult {
    let counted = counted.then(|| (lease.host.clone(), lease.item.seed));
    FetchResult::Write(WriterMsg {
        lease,
        completion: Completion::Done {
            outcome: out,
            record: None,
            simhash: None,
            links,
            counted,
        },
        delay,
        hold: None,
    })
}

fn retry(lease: Lease, item: QueuedUrl, delay: Duration, hold: Option<Instant>) -> FetchResult {
    FetchResult::Write(WriterMsg {
        lease,
        completion: Completion::Retry { item },
        delay,
        hold,
    })
}

impl Shared {
    fn seed(&self, id: u32, host: &str) -> Seed {
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

    fn over_budget(&self, host: &str, seed: &Seed, seed_id: u32) -> bool {
        let count = |c| self.store.count(c).unwrap_or(0);
        (self.max_pages > 0 && count(Counter::Total) >= self.max_pages)
            || (self.max_pages_per_host > 0
                && count(Counter::Host(host)) >= self.max_pages_per_host)
            || seed
                .max_pages
                .is_some_and(|m| count(Counter::Seed(seed_id)) >= m)
    }

    /// The host's robots rules, fetching them if missing or stale. The second
    /// value is true when they were fetched now (first contact).
    async fn robots_for(&self, scheme: &str, host: &str) -> (Arc<Robots>, bool) {
        if let Ok(cache) = self.robots.lock() {
            if let Some((r, at)) = cache.get(host) {
                if at.elapsed() < self.robots_ttl {
                    return (r.clone(), false);
                }
            }
        }
        // The store's copy survives restarts.
        if let Ok(Some((fetched_at, status, body))) = self.store.robots(host) {
            let age = now_secs().saturating_sub(fetched_at);
            if age < self.robots_ttl.as_secs() && !(500..=599).contains(&status) && status != 0 {
                let r = Arc::new(Robots::from_response(status, body.as_bytes(), &self.agent));
                let at = Instant::now() - Duration::from_secs(age);
                if let Ok(mut cache) = self.robots.lock() {
                    cache.insert(host.to_string(), (r.clone(), at));
                }
                return (r, false);
            }
        }
        let url = format!("{scheme}://{host}/robots.txt");
        let resp = self.fetcher.get_any(&url).await;
        let status = if resp.is_transport_error() {
            0
        } else {
            resp.status
        };
        let r = Arc::new(Robots::from_response(status, &resp.body, &self.agent));
        let body = String::from_utf8_lossy(
            &resp.body[..resp
                .body
                .len()
                .min(crate::politeness::robots::MAX_ROBOTS_BYTES)],
        );
        if let Err(e) = self.store.put_robots(host, now_secs(), status, &body) {
            self.stats
                .error(format!("storing robots.txt of {host}: {e}"));
        }
        if !matches!(*r, Robots::Unavailable) {
            if let Ok(mut cache) = self.robots.lock() {
                cache.insert(host.to_string(), (r.clone(), Instant::now()));
            }
        }
        (r, true)
    }

    fn sitemap_urls(&self, scheme: &str, host: &str, robots: &Robots, seed_id: u32) -> Vec<NewUrl> {
        let mut urls: Vec<String> = robots.sitemaps().to_vec();
        urls.push(format!("{scheme}://{host}/sitemap.xml"));
        // Sitemap lines should be absolute; relative ones are resolved leniently.
        let base = Url::parse(&format!("{scheme}://{host}/")).ok();
        urls.into_iter()
            .filter_map(|u| normalize(&u, base.as_ref(), &self.rules).ok())
            .map(|u| NewUrl {
                host: host_key(&u),
                item: QueuedUrl {
                    url: u.to_string(),
                    depth: 0,
                    seed: seed_id,
                    attempt: 0,
                    kind: UrlKind::Sitemap,
                    priority: 1.0,
                    features: None,
                },
            })
            .collect()
    }
}

fn is_transient(r: &Response) -> bool {
    r.is_transport_error() || matches!(r.status, 500 | 502 | 504 | 520..=530) || r.status == 0
}

fn is_html(content_type: Option<&str>) -> bool {
    content_type.is_none_or(|ct| {
        let ct = ct.to_ascii_lowercase();
        ct.contains("html") || ct.contains("text/plain") || ct.trim().is_empty()
    })
}

/// Fetches one leased URL.
pub async fn fetch(shared: &Shared, lease: Lease) -> FetchResult {
    let item = lease.item.clone();
    let host = lease.host.clone();
    let seed = shared.seed(item.seed, &host);
    let base_delay = shared.delays.min_delay;
    let Ok(url) = Url::parse(&item.url) else {
        return done(
            lease,
            outcome(&item.url, 0, Some("unparseable URL in the queue".into())),
            vec![],
            false,
            Duration::ZERO,
        );
    };
    if item.kind == UrlKind::Page && shared.over_budget(&host, &seed, item.seed) {
        shared.stats.skipped.fetch_add(1, Relaxed);
        return done(
            lease,
            outcome(&item.url, 0, Some("skipped: page budget reached".into())),
            vec![],
            false,
            Duration::ZERO,
        );
    }
    let (robots, first_contact) = shared.robots_for(url.scheme(), &host).await;
    let delay = shared.delays.host_delay(robots.crawl_delay());
    if matches!(*robots, Robots::Unavailable) {
        // RFC 9309: an unreachable robots.txt means "disallow for now".
        shared.stats.retries.fetch_add(1, Relaxed);
        let hold = Instant::now()
            + shared
                .delays
                .backoff(item.attempt.saturating_add(1))
                .max(Duration::from_secs(60));
        return retry(lease, item, base_delay, Some(hold));
    }
    let mut extra = Vec::new();
    if first_contact && seed.sitemaps {
        extra = shared.sitemap_urls(url.scheme(), &host, &robots, item.seed);
    }
    if !robots.allowed(&shared.agent, url.as_str()) {
        shared.stats.robots_denied.fetch_add(1, Relaxed);
        return done(
            lease,
            outcome(&item.url, 0, Some("disallowed by robots.txt".into())),
            extra,
            false,
            Duration::ZERO,
        );
    }
    if let Some(limiter) = &shared.limiter {
        limiter.until_ready().await;
    }
    match item.kind {
        UrlKind::Sitemap => fetch_sitemap(shared, lease, &url, &seed, delay).await,
        UrlKind::Page => fetch_page(shared, lease, &url, seed, delay, extra, &robots).await,
    }
}

async fn fetch_page(
    shared: &Shared,
    lease: Lease,
    url: &Url,
    seed: Seed,
    delay: Duration,
    extra: Vec<NewUrl>,
    robots: &Robots,
) -> FetchResult {
    let item = lease.item.clone();
    let allow = |next: &Url| {
        seed.in_scope(next)
            && (host_key(next) != lease.host || robots.allowed(&shared.agent, next.as_str()))
    };
    let followed = get_following(
        shared.fetcher.as_ref(),
        url.as_str(),
        shared.max_redirects,
        allow,
    )
    .await;
    let r = &followed.response;
    shared.stats.fetched.fetch_add(1, Relaxed);
    shared.stats.bytes.fetch_add(r.body.len() as u64, Relaxed);
    if r.is_transport_error() {
        shared.stats.transport_errors.fetch_add(1, Relaxed);
    } else {
        shared.stats.count_status(r.status);
    }
    let mut out = outcome(
        &item.url,
        if r.is_transport_error() { 0 } else { r.status },
        r.error.clone(),
    );
    out.final_url = Some(followed.final_url.clone()).filter(|f| *f != item.url);
    out.redirects = followed.chain.clone();
    out.bytes = r.body.len() as u64;
    if r.status == 429 || r.status == 503 {
        if item.attempt < shared.max_retries.saturating_add(3) {
            shared.stats.retries.fetch_add(1, Relaxed);
            let wait = shared.delays.retry_after(r.retry_after, item.attempt + 1);
            let mut again = item.clone();
            again.attempt += 1;
            return retry(lease, again, delay, Some(Instant::now() + wait));
        }
        out.error = Some(format!(
            "HTTP {} after {} attempts",
            r.status,
            item.attempt + 1
        ));
        return done(lease, out, extra, true, delay);
    }
    if is_transient(r) {
        if item.attempt < shared.max_retries {
            shared.stats.retries.fetch_add(1, Relaxed);
            let mut again = item.clone();
            again.attempt += 1;
            let backoff = shared.delays.backoff(again.attempt);
            return retry(lease, again, delay.max(backoff), None);
        }
        out.error = Some(format!(
            "{} after {} attempts",
            r.error
                .clone()
                .unwrap_or_else(|| format!("HTTP {}", r.status)),
            item.attempt + 1
        ));
        return done(lease, out, extra, true, delay);
    }
    if let Some(why) = followed.redirect_error {
        out.error = Some(why);
        return done(lease, out, extra, true, delay);
    }
    if !(200..=299).contains(&r.status) {
        return done(lease, out, extra, true, delay);
    }
    if let Some(len) = r.oversize {
        shared.stats.truncated.fetch_add(1, Relaxed);
        out.error = Some(format!(
            "body not read: Content-Length {len} is over crawl.max_body_bytes"
        ));
        return done(lease, out, extra, true, delay);
    }
    if !is_html(r.content_type.as_deref()) {
        out.error = Some(format!(
            "skipped: Content-Type {}",
            r.content_type.clone().unwrap_or_default()
        ));
        return done(lease, out, extra, true, delay);
    }
    if r.truncated {
        shared.stats.truncated.fetch_add(1, Relaxed);
    }
    FetchResult::Cpu(CpuJob {
        final_url: followed.final_url,
        chain: followed.chain,
        response: followed.response,
        lease,
        seed,
        delay,
        extra_links: extra,
    })
}

/// Reads `<loc>` entries of a sitemap or sitemap index (gzip'd or not).
pub fn parse_sitemap(body: &[u8]) -> (bool, Vec<String>) {
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
    let s = String::from_utf8_lossy(bytes);
    let index = s.contains("<sitemapindex");
    let mut locs = Vec::new();
    let mut rest = &*s;
    while let Some(start) = rest.find("<loc>") {
        rest = &rest[start + 5..];
        let Some(end) = rest.find("</loc>") else {
            break;
        };
        let loc = rest[..end].trim().replace("&amp;", "&");
        if !loc.is_empty() {
            locs.push(loc);
        }
        rest = &rest[end + 6..];
        if locs.len() >= 50_000 {
            break;
        }
    }
    (index, locs)
}

async fn fetch_sitemap(
    shared: &Shared,
    lease: Lease,
    url: &Url,
    seed: &Seed,
    delay: Duration,
) -> FetchResult {
    let item = lease.item.clone();
    let r = shared.fetcher.get_any(url.as_str()).await;
    let mut out = outcome(
        &item.url,
        if r.is_transport_error() { 0 } else { r.status },
        r.error.clone(),
    );
    out.bytes = r.body.len() as u64;
    let mut links = Vec::new();
    if (200..=299).contains(&r.status) && !r.is_transport_error() {
        let (index, locs) = parse_sitemap(&r.body);
        for loc in locs {
            let Ok(u) = normalize(&loc, Some(url), &shared.rules) else {
                continue;
            };
            if !seed.in_scope(&u) || (!index && check_page_url(&u).is_err()) {
                continue;
            }
            links.push(NewUrl {
                host: host_key(&u),
                item: QueuedUrl {
                    url: u.to_string(),
                    depth: if index { 0 } else { 1 },
                    seed: item.seed,
                    attempt: 0,
                    kind: if index {
                        UrlKind::Sitemap
                    } else {
                        UrlKind::Page
                    },
                    priority: if index { 1.0 } else { 0.5 },
                    features: None,
                },
            });
        }
    }
    done(lease, out, links, false, delay)
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
    let mut out = outcome(&item.url, response.status, None);
    out.final_url = Some(final_url.clone()).filter(|f| *f != item.url);
    out.redirects = chain;
    out.bytes = response.body.len() as u64;
    if response.truncated {
        out.error = Some(format!("body cut at {} bytes", response.body.len()));
    }
    let base = Url::parse(&final_url).ok();
    let declared = response
        .content_type
        .as_deref()
        .and_then(charset::charset_from_content_type)
        .and_then(|l| charset::encoding_for_label(l).ok());
    let tld = base
        .as_ref()
        .and_then(|u| u.host_str())
        .and_then(|h| h.rsplit('.').next())
        .map(str::to_string);
    let parsed = parse_bytes(&response.body, declared, tld.as_deref(), &shared.extract);
    let doc = match parsed {
        Ok((doc, _)) => doc,
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
    let robots_meta = doc
        .meta
        .metas
        .iter()
        .filter(|(k, _)| k == "robots" || k == &shared.agent.to_ascii_lowercase())
        .map(|(_, v)| v.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(",");
    let noindex = robots_meta.contains("noindex") || robots_meta.contains("none");
    let nofollow = robots_meta.contains("nofollow") || robots_meta.contains("none");
    // A focused crawl judges every page, indexed or not: its links need it.
    let focus = shared.focus.as_deref();
    let ex = (!noindex || focus.is_some()).then(|| {
        extract_doc(
            &doc,
            Some(&final_url),
            shared.extract.algorithm,
            shared.extract.page_type,
        )
    });
    let topic = focus.and_then(|f| f.topic_for(seed.topic.as_deref()));
    let relevance = topic.zip(ex.as_ref()).map(|(t, ex)| t.relevance(&ex.text));
    if let (Some(f), Some(r)) = (focus, relevance) {
        out.relevance = Some(r);
        out.relevant = Some(r >= f.threshold);
    }
    let mut links = extra_links;
    if !nofollow && item.depth < seed.max_depth {
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
            links.extend(page_links(shared, &doc, base, &seed, &item, parent));
        }
    }
    let mut record = None;
    let mut hash = None;
    if let (false, Some(ex)) = (noindex, ex) {
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
        if seed.mode == super::seeds::Mode::Ecommerce
            && super::shop::is_product(&doc, &final_url, ex.page_type)
        {
            let site = crate::frontier::url::site_of(&lease.host);
            let product =
                shared
                    .shop
                    .product(&shared.store, &shared.stats, site, &response.body, &doc);
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
        shared.stats.records.fetch_add(1, Relaxed);
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

/// Text of the text nodes just before and after a link, up to ~`CONTEXT`
/// bytes each way: the words a reader sees around it.
const CONTEXT: usize = 150;

fn link_context(doc: &Doc, a: u32) -> String {
    let mut before = Vec::new();
    let mut n = 0;
    let mut i = a;
    while i > 0 && n < CONTEXT {
        i -= 1;
        if !doc.is_element(i) {
            let t = doc.text(i).trim();
            n += t.len();
            before.push(t);
        }
    }
    before.reverse();
    let mut out = before.join(" ");
    let mut n = 0;
    let mut i = doc.end(a);
    while (i as usize) < doc.len() && n < CONTEXT {
        if !doc.is_element(i) {
            let t = doc.text(i).trim();
            n += t.len();
            out.push(' ');
            out.push_str(t);
        }
        i += 1;
    }
    out
}

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
        doc: &Doc,
        a: u32,
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
            anchor: topic.keyword_score(&doc.plain_text(a), 5.0),
            context: topic.keyword_score(&link_context(doc, a), 20.0),
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
    doc: &Doc,
    base: &Url,
    seed: &Seed,
    item: &QueuedUrl,
    mut parent: Option<Parent<'_>>,
) -> Vec<NewUrl> {
    // <base href> changes how relative links resolve.
    let base = (0..doc.len() as u32)
        .find(|&i| doc.is_element(i) && doc.name(i) == "base")
        .and_then(|i| doc.attr(i, "href"))
        .and_then(|h| base.join(h).ok())
        .unwrap_or_else(|| base.clone());
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for i in 0..doc.len() as u32 {
        if doc.tag(i) != Tag::A {
            continue;
        }
        let Some(href) = doc.attr(i, "href") else {
            continue;
        };
        if doc.attr(i, "rel").is_some_and(|r| {
            r.split_whitespace()
                .any(|t| t.eq_ignore_ascii_case("nofollow"))
        }) {
            continue;
        }
        let Ok(u) = normalize(href, Some(&base), &shared.rules) else {
            continue;
        };
        if !seed.in_scope(&u) || check_page_url(&u).is_err() || !seen.insert(u.to_string()) {
            continue;
        }
        let depth = item.depth + 1;
        let host = host_key(&u);
        let (priority, features) = match parent.as_mut() {
            Some(p) => p.score(doc, i, &u, &host, depth),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemap_parsing() {
        let xml = b"<?xml version=\"1.0\"?><urlset><url><loc> http://a.test/1?x=1&amp;y=2 </loc></url><url><loc>http://a.test/2</loc></url></urlset>";
        assert_eq!(
            parse_sitemap(xml),
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
        assert!(parse_sitemap(idx).0);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, xml).unwrap_or_default();
        let gz = enc.finish().unwrap_or_default();
        assert_eq!(parse_sitemap(&gz).1.len(), 2);
        assert_eq!(parse_sitemap(b"\x1f\x8bgarbage"), (false, vec![]));
    }
}
