//! The async half of a URL's way through the daemon: budgets, robots.txt,
//! the page request and its redirect hops, retries and backoff. Every
//! request takes a turn on the host's [`Clock`](crate::politeness::clock)
//! first; nothing here sends two requests to a host back to back.
//!
//! A redirect to another host ends the chain here: the target is queued as
//! a new URL, so it meets that host's robots.txt and schedule like any other.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use url::Url;

use super::shared::{
    done, outcome, park, response_outcome, retry, stop_reason, CpuJob, FetchResult, Fetching,
};
use crate::fetch::{redirect_target, RequestOptions, Response};
use crate::frontier::url::{host_key, normalize};
use crate::frontier::Lease;
use crate::politeness::robots::Robots;
use crate::record::{now_secs, Outcome, PageOutcome};
use crate::seeds::Seed;
use crate::store::{NewUrl, QueuedUrl, UrlKind};

/// Redirects of a robots.txt followed at most (RFC 9309: at least five).
const ROBOTS_HOPS: usize = 5;

fn is_transient(r: &Response) -> bool {
    r.is_transport_error() || matches!(r.status, 500 | 502 | 504 | 520..=530) || r.status == 0
}

/// Sitemap lines of one robots.txt read at most.
const MAX_ROBOTS_SITEMAPS: usize = 1000;

impl Fetching {
    /// One request of any kind, on the host's schedule, with `opts` (a
    /// site's settings, a revisit's validators).
    pub(super) async fn request(
        &self,
        url: &Url,
        delay: Duration,
        page: bool,
        opts: Option<&RequestOptions>,
    ) -> Response {
        let host = host_key(url);
        self.clock.turn(&host, delay).await;
        if let Some(limiter) = &self.limiter {
            limiter.until_ready().await;
        }
        if !self.backend.may_send(&host) {
            // Cluster mode: the lease may be gone (this worker was paused
            // past it); another worker may be fetching the host now.
            return Response {
                error: Some("not sent: the host's lease may have passed to another worker".into()),
                ..Response::default()
            };
        }
        let mut resp = match opts.filter(|o| !o.is_empty()) {
            Some(o) => self.fetcher.get_with(url.as_str(), !page, o).await,
            None if page => self.fetcher.get(url.as_str()).await,
            None => self.fetcher.get_any(url.as_str()).await,
        };
        self.clock.finished(&host, delay);
        // A missing robots.txt or sitemap is an answer, not a failure.
        let failed = resp.is_transport_error()
            || resp.status >= 500
            || resp.status == 429
            || (page && resp.status >= 400);
        if !resp.blocked {
            self.stats.note_request(&host, failed, delay);
        }
        if let Some((n, id)) = self
            .archive
            .as_ref()
            .and_then(|a| a.exchange(url.as_str(), &resp))
        {
            resp.archived = Some(n);
            resp.archived_id = Some(id);
        }
        resp
    }

    /// The request of a feed or a sitemap (conditional on a revisit), and
    /// its outcome of `kind` to fill in; `Err` when the URL ended here: a
    /// 304 (nothing new) or a request the guard refused.
    pub(super) async fn hub_request(
        &self,
        lease: Lease,
        url: &Url,
        seed: &Seed,
        delay: Duration,
        kind: Outcome,
    ) -> Result<(Lease, Response, PageOutcome), FetchResult> {
        let item = &lease.item;
        let opts = self.request_options(&lease.host, seed, url, item);
        let r = self.request(url, delay, false, Some(&opts)).await;
        if r.blocked {
            let out = response_outcome(&item.url, &r, Outcome::BlockedAddress);
            return Err(done(lease, out, vec![], false, Duration::ZERO));
        }
        let mut out = response_outcome(&item.url, &r, kind);
        out.bytes = r.body.len() as u64;
        if (200..=299).contains(&r.status) && !r.is_transport_error() {
            out.content_hash = Some(crate::record::body_hash(&r.body));
        }
        if r.status == 304 && item.revisit.is_some() {
            self.not_modified(item, &mut out);
            return Err(done(lease, out, vec![], false, delay));
        }
        Ok((lease, r, out))
    }

    /// The host's robots rules, fetching them if missing or stale. The second
    /// value is the status of the robots.txt fetched now (first contact;
    /// 0 for no answer), `None` when a cached copy served.
    pub(super) async fn robots_for(
        &self,
        scheme: &str,
        host: &str,
        seed: &Seed,
    ) -> (Arc<Robots>, Option<u16>) {
        if let Ok(cache) = self.robots.lock() {
            if let Some((r, at)) = cache.get(host) {
                if at.elapsed() < self.robots_ttl {
                    return (r.clone(), None);
                }
            }
        }
        // The store's copy survives restarts.
        if let Ok(Some((fetched_at, status, body))) = self.store.robots(host) {
            let age = now_secs().saturating_sub(fetched_at);
            if age < self.robots_ttl.as_secs() && !(500..=599).contains(&status) && status != 0 {
                let r = Arc::new(Robots::from_response(status, body.as_bytes(), &self.agent));
                let at = Instant::now()
                    .checked_sub(Duration::from_secs(age))
                    .unwrap_or_else(Instant::now);
                if let Ok(mut cache) = self.robots.lock() {
                    cache.insert(host.to_string(), (r.clone(), at));
                }
                return (r, None);
            }
        }
        let resp = self.fetch_robots(scheme, host, seed).await;
        if resp.blocked {
            // The page request is refused the same way, with its outcome.
            return (Arc::new(Robots::from_response(404, b"", &self.agent)), None);
        }
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
                .store_error(format!("storing robots.txt of {host}: {e}"));
        }
        if !matches!(*r, Robots::Unavailable) {
            if let Ok(mut cache) = self.robots.lock() {
                cache.insert(host.to_string(), (r.clone(), Instant::now()));
            }
        }
        (r, Some(status))
    }

    /// RFC 9309: a robots.txt answering 5xx (or not at all) means "disallow
    /// everything" while it lasts. The answer is counted, the host is shown
    /// as held (since when, next try) and the last error says why.
    fn robots_unavailable(&self, host: &str, status: Option<u16>, next_try: Instant) {
        let answer = match status {
            Some(0) => {
                self.stats.transport_errors.fetch_add(1, Relaxed);
                "no answer".to_string()
            }
            Some(s) => {
                self.stats.count_status(s);
                format!("HTTP {s}")
            }
            // A cached answer: counted when it came.
            None => "no answer".to_string(),
        };
        let until = now_secs() + next_try.saturating_duration_since(Instant::now()).as_secs();
        let since = self.stats.held_since(host).unwrap_or_else(now_secs);
        let why = format!(
            "robots.txt unavailable ({answer}) since {}: every URL of the host is held \
             (RFC 9309); next robots.txt try at {}",
            crate::record::iso_time(since),
            crate::record::iso_time(until)
        );
        self.stats.error(format!("{host}: {why}"));
        self.stats.hold(host, why, since, Some(until));
    }

    /// GETs robots.txt, following up to five redirects (to any host, each
    /// hop on its host's schedule), as RFC 9309 asks, with the settings of
    /// the seed whose URL needs it.
    async fn fetch_robots(&self, scheme: &str, host: &str, seed: &Seed) -> Response {
        let Ok(mut url) = Url::parse(&format!("{scheme}://{host}/robots.txt")) else {
            return Response {
                error: Some(format!("bad host {host:?}")),
                ..Response::default()
            };
        };
        let mut hops = 0;
        let first = host.to_string();
        loop {
            let host = host_key(&url);
            // Sent as the seed's own requests are (on a redirect to another
            // host, as that host's site settings say).
            let own = Some(seed).filter(|_| host == first);
            let mut opts = self.sites.options(&host, own, &url, None);
            opts.seed = crate::fetch::guard::Origin::parse(&seed.url).filter(|_| !seed.guarded);
            let resp = self
                .request(&url, self.host_delay(&host), false, Some(&opts))
                .await;
            match redirect_target(url.as_str(), &resp) {
                Some(Ok(next)) if hops < ROBOTS_HOPS && next != url => {
                    hops += 1;
                    url = next;
                }
                // Too many hops or a bad Location: RFC 9309 lets a crawler
                // treat it as unavailable (allow all); `from_response` does
                // that for a final 3xx.
                _ => return resp,
            }
        }
    }

    /// Whether a redirect target was queued or fetched before (by its
    /// normalised form, as links are queued).
    async fn known(&self, target: &Url) -> bool {
        let url = normalize(target.as_str(), None, &self.rules)
            .map_or_else(|_| target.to_string(), |u| u.to_string());
        match self.backend.known(&url).await {
            Some(known) => known,
            None => self.store.known(&url).unwrap_or(false),
        }
    }

    fn sitemap_urls(&self, scheme: &str, host: &str, robots: &Robots, seed_id: u32) -> Vec<NewUrl> {
        // A robots.txt may list thousands of Sitemap lines; the first ones
        // are read.
        let listed = robots.sitemaps();
        let left_out = listed.len().saturating_sub(MAX_ROBOTS_SITEMAPS);
        if left_out > 0 {
            self.stats
                .sitemap_left_out
                .fetch_add(left_out as u64, Relaxed);
        }
        let mut urls: Vec<String> = listed.iter().take(MAX_ROBOTS_SITEMAPS).cloned().collect();
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
                    revisit: None,
                },
            })
            .collect()
    }
}

/// Fetches one leased URL.
pub(crate) async fn fetch(shared: &Fetching, lease: Lease) -> FetchResult {
    let item = lease.item.clone();
    let host = lease.host.clone();
    let seed = shared.seed(item.seed, &host);
    let base_delay = shared.seed_delay(Some(&seed), &host);
    let Ok(url) = Url::parse(&item.url) else {
        return done(
            lease,
            outcome(
                &item.url,
                0,
                Outcome::BadUrl,
                Some("unparseable URL in the queue".into()),
            ),
            vec![],
            false,
            Duration::ZERO,
        );
    };
    if item.kind == UrlKind::Page {
        if let Some(stop) = shared.health.stopped(&host) {
            return park(lease, Outcome::HostStopped, stop_reason(&stop), stop.until);
        }
        // A page budget (or a focused crawl that stopped paying) holds new
        // URLs; a revisit is not held by it.
        if item.revisit.is_none() {
            let why = if shared.over_budget(&host, &seed, item.seed) {
                Some(
                    "page budget spent (crawl.max_pages, the seed's max_pages or \
                     crawl.max_pages_per_host); offered again at the next start"
                        .to_string(),
                )
            } else {
                shared
                    .focus_stopped()
                    .map(|why| format!("{why}; offered again at the next start"))
            };
            if let Some(why) = why {
                return park(lease, Outcome::BudgetSpent, why, u64::MAX);
            }
        }
    }
    if item.revisit.is_some() && item.attempt == 0 {
        shared.stats.revisits.fetch_add(1, Relaxed);
    }
    let (robots, fetched_status) = shared.robots_for(url.scheme(), &host, &seed).await;
    let first_contact = fetched_status.is_some();
    let delay = shared
        .delays
        .host_delay_from(base_delay, robots.crawl_delay());
    if matches!(*robots, Robots::Unavailable) {
        // RFC 9309: an unreachable robots.txt means "disallow for now".
        let attempt = item.attempt.saturating_add(1);
        if attempt > shared.max_retries.saturating_add(3) {
            // Not given up: set aside with its outcome, offered again after
            // the cool-down (or at the next start), when robots.txt may answer.
            let until = now_secs().saturating_add(shared.health.cooldown().as_secs());
            let why = format!(
                "robots.txt unavailable (5xx or no answer) after {attempt} attempts; \
                 offered again after {}",
                crate::record::iso_time(until)
            );
            return park(lease, Outcome::RobotsUnavailable, why, until);
        }
        shared.stats.retries.fetch_add(1, Relaxed);
        let hold = Instant::now() + shared.delays.backoff(attempt).max(Duration::from_secs(60));
        shared.robots_unavailable(&host, fetched_status, hold);
        let mut again = item;
        again.attempt = attempt;
        return retry(lease, again, base_delay, Some(hold));
    }
    if first_contact {
        // A host held for its robots.txt is free again.
        shared.stats.unhold_for(&host, "robots.txt");
    }
    let mut extra = Vec::new();
    if first_contact && seed.sitemaps {
        extra = shared.sitemap_urls(url.scheme(), &host, &robots, item.seed);
    }
    if !robots.allowed_off_thread(url.as_str()).await {
        return done(
            lease,
            outcome(
                &item.url,
                0,
                Outcome::RobotsDenied,
                Some("disallowed by robots.txt".into()),
            ),
            extra,
            false,
            Duration::ZERO,
        );
    }
    match item.kind {
        UrlKind::Sitemap => super::sitemap::fetch(shared, lease, &url, &seed, delay).await,
        UrlKind::Feed => super::feed::fetch(shared, lease, &url, &seed, delay).await,
        UrlKind::Page => fetch_page(shared, lease, &url, seed, delay, extra, &robots).await,
    }
}

/// A page request and its redirect hops on the same host.
struct Followed {
    response: Response,
    final_url: String,
    /// Every URL before the final one, in order.
    chain: Vec<String>,
    /// Why following stopped early (loop, too many hops, bad Location, scope).
    redirect_error: Option<String>,
    /// A redirect to another host, queued instead of followed.
    elsewhere: Option<Url>,
    /// A redirect to a URL already queued or fetched: not fetched twice.
    known: Option<Url>,
}

async fn follow(
    shared: &Fetching,
    lease: &Lease,
    url: &Url,
    seed: &Seed,
    delay: Duration,
    robots: &Arc<Robots>,
) -> Followed {
    let mut current = url.clone();
    let mut chain: Vec<String> = Vec::new();
    // A revisit asks whether the page changed (its first hop only).
    loop {
        let mut opts = shared.request_options(&lease.host, seed, &current, &lease.item);
        if !chain.is_empty() {
            opts.conditional = None;
        }
        let response = shared.request(&current, delay, true, Some(&opts)).await;
        let stop = |response, current: Url, chain, why: Option<String>, elsewhere| Followed {
            response,
            final_url: current.to_string(),
            chain,
            redirect_error: why,
            elsewhere,
            known: None,
        };
        let next = match redirect_target(current.as_str(), &response) {
            None => return stop(response, current, chain, None, None),
            Some(Err(why)) => return stop(response, current, chain, Some(why), None),
            Some(Ok(next)) => next,
        };
        let why = if chain.len() >= shared.max_redirects {
            Some(format!("more than {} redirects", shared.max_redirects))
        } else if next.as_str().len() > shared.rules.max_len {
            Some(format!(
                "redirect target of {} characters, longer than crawl.max_url_len ({})",
                next.as_str().len(),
                shared.rules.max_len
            ))
        } else if next == current || chain.iter().any(|c| c == next.as_str()) {
            Some(format!("redirect loop at {next}"))
        } else if !seed.in_scope(&next) {
            Some(format!("redirect to {next} is out of the seed's scope"))
        } else if host_key(&next) != lease.host {
            return stop(response, current, chain, None, Some(next));
        } else if !robots.allowed_off_thread(next.as_str()).await {
            Some(format!("redirect to {next} is disallowed by robots.txt"))
        } else if shared.known(&next).await {
            return Followed {
                known: Some(next),
                ..stop(response, current, chain, None, None)
            };
        } else {
            None
        };
        if why.is_some() {
            return stop(response, current, chain, why, None);
        }
        chain.push(std::mem::replace(&mut current, next).to_string());
    }
}

/// Why a response is a challenge or block page, if it is one.
fn challenge_page(r: &Response) -> Option<String> {
    if r.is_transport_error() {
        return None;
    }
    crate::fetch::challenge::challenge(r.status, |n| r.header_values(n), &r.body)
}

/// A challenge or block page instead of the page: the host is held with
/// backoff and the URL tried again, up to the retries 429 gets; then it
/// ends `blocked_by_site`. Never a record.
fn blocked_by_site(
    shared: &Fetching,
    lease: Lease,
    mut out: PageOutcome,
    why: String,
    delay: Duration,
) -> FetchResult {
    shared.stats.blocked_by_site.fetch_add(1, Relaxed);
    let item = lease.item.clone();
    if item.attempt < shared.max_retries.saturating_add(3) {
        shared.stats.retries.fetch_add(1, Relaxed);
        let wait = shared.delays.retry_after(None, item.attempt + 1);
        let until = now_secs() + wait.as_secs();
        shared.stats.hold(
            &lease.host,
            format!(
                "blocked by the site ({why}): held until {}",
                crate::record::iso_time(until)
            ),
            now_secs(),
            Some(until),
        );
        let mut again = item;
        again.attempt += 1;
        return retry(lease, again, delay, Some(Instant::now() + wait));
    }
    out.outcome = Outcome::BlockedBySite;
    out.error = Some(format!("{why}, {} times", item.attempt + 1));
    shared.page_result(&lease.host, true);
    done(lease, out, Vec::new(), true, delay)
}

async fn fetch_page(
    shared: &Fetching,
    lease: Lease,
    url: &Url,
    seed: Arc<Seed>,
    delay: Duration,
    mut extra: Vec<NewUrl>,
    robots: &Arc<Robots>,
) -> FetchResult {
    let item = lease.item.clone();
    let followed = follow(shared, &lease, url, &seed, delay, robots).await;
    let r = &followed.response;
    if r.blocked {
        // Not sent: neither a fetch nor a failure of the host's.
        let mut out = outcome(&item.url, 0, Outcome::BlockedAddress, r.error.clone());
        out.redirects = followed.chain.clone();
        return done(lease, out, extra, false, Duration::ZERO);
    }
    shared.stats.fetched.fetch_add(1, Relaxed);
    shared.stats.bytes.fetch_add(r.body.len() as u64, Relaxed);
    if r.is_transport_error() {
        shared.stats.transport_errors.fetch_add(1, Relaxed);
    } else {
        shared.stats.count_status(r.status);
    }
    let mut out = response_outcome(&item.url, r, Outcome::Fetched);
    out.final_url = Some(followed.final_url.clone()).filter(|f| *f != item.url);
    out.redirects = followed.chain.clone();
    out.bytes = r.body.len() as u64;
    if let Some(why) = challenge_page(r) {
        return blocked_by_site(shared, lease, out, why, delay);
    }
    if r.status == 429 || r.status == 503 {
        if item.attempt < shared.max_retries.saturating_add(3) {
            shared.stats.retries.fetch_add(1, Relaxed);
            let wait = shared.delays.retry_after(r.retry_after, item.attempt + 1);
            let until = now_secs() + wait.as_secs();
            shared.stats.hold(
                &lease.host,
                format!(
                    "HTTP {} (Retry-After or backoff): held until {}",
                    r.status,
                    crate::record::iso_time(until)
                ),
                now_secs(),
                Some(until),
            );
            let mut again = item.clone();
            again.attempt += 1;
            return retry(lease, again, delay, Some(Instant::now() + wait));
        }
        out.error = Some(format!(
            "HTTP {} after {} attempts",
            r.status,
            item.attempt + 1
        ));
        shared.page_result(&lease.host, true);
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
        shared.page_result(&lease.host, true);
        return done(lease, out, extra, true, delay);
    }
    if let Some(target) = followed.elsewhere {
        // Queued as a new URL of its own host (robots, schedule, dedup).
        out.outcome = Outcome::Redirected;
        out.final_url = Some(target.to_string());
        out.error = Some(format!("redirected to another host: {target} (queued)"));
        extra.push(NewUrl {
            host: host_key(&target),
            item: QueuedUrl {
                url: target.to_string(),
                depth: item.depth,
                seed: item.seed,
                attempt: 0,
                kind: UrlKind::Page,
                priority: item.priority,
                features: item.features,
                revisit: None,
            },
        });
        return done(lease, out, extra, true, delay);
    }
    if let Some(target) = followed.known {
        out.outcome = Outcome::Redirected;
        out.final_url = Some(target.to_string());
        out.error = Some(format!(
            "redirected to {target}, a URL already queued or fetched (not fetched twice)"
        ));
        return done(lease, out, extra, true, delay);
    }
    if let Some(why) = followed.redirect_error {
        out.outcome = Outcome::RedirectError;
        out.error = Some(why);
        return done(lease, out, extra, true, delay);
    }
    if r.status == 304 && item.revisit.is_some() {
        shared.page_result(&lease.host, false);
        shared.not_modified(&item, &mut out);
        return done(lease, out, extra, false, delay);
    }
    let page = Answered {
        lease,
        out,
        seed,
        delay,
        extra,
    };
    answered(shared, page, followed, url)
}

/// A fetched page that answered for itself (no retry, redirect or 304):
/// its URL and outcome so far, its seed, the host's delay and the links it
/// adds.
struct Answered {
    lease: Lease,
    out: PageOutcome,
    seed: Arc<Seed>,
    delay: Duration,
    extra: Vec<NewUrl>,
}

/// What becomes of a page's final answer: an HTTP error, a body too large,
/// a feed, another type than HTML, or an HTML page for the CPU stage.
fn answered(shared: &Fetching, page: Answered, followed: Followed, url: &Url) -> FetchResult {
    let Answered {
        lease,
        mut out,
        seed,
        delay,
        mut extra,
    } = page;
    let item = &lease.item;
    let r = &followed.response;
    let ok = (200..=299).contains(&r.status);
    // An answer (2xx, 3xx, 4xx but 429) says the host is well; what is
    // left here of 5xx (501, 505, ...) says it is not.
    shared.page_result(&lease.host, r.status >= 500);
    if !ok {
        return done(lease, out, extra, true, delay);
    }
    if let Some(len) = r.oversize {
        shared.stats.truncated.fetch_add(1, Relaxed);
        shared.stats.skipped.fetch_add(1, Relaxed);
        out.outcome = Outcome::TooLarge;
        out.error = Some(format!(
            "body not read: Content-Length {len} is over crawl.max_body_bytes"
        ));
        return done(lease, out, extra, true, delay);
    }
    let ct = r.content_type.as_deref();
    if !crate::fetch::is_html_type(ct) {
        // A page URL (a seed, a link) that answers with a feed is read as one.
        let entries = crate::fetch::is_feed_type(ct)
            .then(|| super::feed::entries(&r.body))
            .flatten();
        if let Some(entries) = entries {
            out.outcome = Outcome::Feed;
            out.content_hash = Some(crate::record::body_hash(&r.body));
            extra.extend(super::feed::queue(shared, item, &seed, url, entries));
            return done(lease, out, extra, true, delay);
        }
        shared.stats.skipped.fetch_add(1, Relaxed);
        out.outcome = Outcome::NotHtml;
        out.error = Some(format!("skipped: Content-Type {}", ct.unwrap_or_default()));
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
        rendered: None,
    })
}
