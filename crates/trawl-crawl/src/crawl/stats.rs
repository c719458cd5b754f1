//! Live counters of the daemon, shared by its tasks and read by the progress
//! line, the status endpoint and `trawl status`.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

/// The daemon's live counters: written by its stages, read through
/// [`Stats::snapshot`] (the progress line, `/status`, `trawl status`).
#[derive(Debug)]
pub struct Stats {
    pub(crate) started: Instant,
    pub(crate) fetched: AtomicU64,
    pub(crate) status_2xx: AtomicU64,
    pub(crate) status_3xx: AtomicU64,
    pub(crate) status_4xx: AtomicU64,
    pub(crate) status_5xx: AtomicU64,
    pub(crate) transport_errors: AtomicU64,
    pub(crate) robots_denied: AtomicU64,
    pub(crate) retries: AtomicU64,
    pub(crate) bytes: AtomicU64,
    pub(crate) records: AtomicU64,
    pub(crate) duplicates: AtomicU64,
    pub(crate) extraction_errors: AtomicU64,
    pub(crate) truncated: AtomicU64,
    pub(crate) skipped: AtomicU64,
    /// URLs set aside because a page budget was spent.
    pub(crate) budget_spent: AtomicU64,
    /// Pages that asked not to be indexed (no record).
    pub(crate) noindex: AtomicU64,
    /// Challenge or block pages answered instead of pages (each try).
    pub(crate) blocked_by_site: AtomicU64,
    /// Links not queued because of the URL patterns.
    pub(crate) excluded: AtomicU64,
    /// Links past `crawl.max_links_per_page` on their page.
    pub(crate) over_page_cap: AtomicU64,
    /// Links past their host's frontier room (`crawl.max_queued_per_host`).
    pub(crate) over_host_cap: AtomicU64,
    /// Sitemap entries not queued: nested indexes, past the seed's page
    /// budget or depth, past the Sitemap lines read from robots.txt.
    pub(crate) sitemap_left_out: AtomicU64,
    /// Revisits sent; of them answered 304, found unchanged, found changed.
    pub(crate) revisits: AtomicU64,
    pub(crate) not_modified: AtomicU64,
    pub(crate) unchanged: AtomicU64,
    pub(crate) versions: AtomicU64,
    pub(crate) queue: AtomicU64,
    pub(crate) inflight: AtomicU64,
    pub(crate) hosts_known: AtomicU64,
    pub(crate) hosts_waiting: AtomicU64,
    pub(crate) last_error: Mutex<Option<String>>,
    /// Store writes that failed (disk full, I/O errors), in all.
    pub(crate) store_errors: AtomicU64,
    /// Set while the store cannot write: no new fetches start.
    pub(crate) store_down: std::sync::atomic::AtomicBool,
    /// Set while the WARC archive cannot be written: no new fetches start.
    pub(crate) archive_down: std::sync::atomic::AtomicBool,
    /// Hosts stopped by their error budget.
    pub(crate) hosts_stopped: AtomicU64,
    /// URLs set aside because their host was stopped.
    pub(crate) host_stopped_urls: AtomicU64,
    /// Hosts held back now, and why (robots.txt 5xx, error budget, Retry-After).
    pub(crate) held: Mutex<BTreeMap<String, HeldHost>>,
    /// Pages whose processing panicked (recorded as error outcomes).
    pub(crate) panics: AtomicU64,
    /// Records made this run, by page type.
    pub(crate) by_type: Mutex<BTreeMap<&'static str, u64>>,
    /// Requests per host this run (the status page's host table).
    pub(crate) hosts: Mutex<HashMap<String, HostActivity>>,
    /// Set when the crawl is focused.
    pub(crate) harvest: std::sync::OnceLock<super::harvest::Harvest>,
    /// E-commerce mode: templates learned, product records, drift events.
    pub(crate) templates_learned: AtomicU64,
    pub(crate) products: AtomicU64,
    pub(crate) drift_events: AtomicU64,
    pub(crate) last_drift: Mutex<Option<String>>,
    /// The canonical store directory, set once at start.
    pub(crate) data_dir: std::sync::OnceLock<String>,
    /// The browser pool's counters, once it exists.
    pub(crate) render: std::sync::OnceLock<std::sync::Arc<crate::render::Counters>>,
    /// Pages fetched by earlier runs of this store (restored at start; the
    /// rate counts this run's only).
    pub(crate) fetched_before: AtomicU64,
}

/// Where a daemon keeps its counters in the store (a snapshot's JSON), so
/// a restarted daemon and `trawl status` on a stopped store go on from them.
pub const COUNTERS_KEY: &str = "stats:counters";

impl Default for Stats {
    fn default() -> Self {
        Stats {
            started: Instant::now(),
            fetched: AtomicU64::new(0),
            status_2xx: AtomicU64::new(0),
            status_3xx: AtomicU64::new(0),
            status_4xx: AtomicU64::new(0),
            status_5xx: AtomicU64::new(0),
            transport_errors: AtomicU64::new(0),
            robots_denied: AtomicU64::new(0),
            retries: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            records: AtomicU64::new(0),
            duplicates: AtomicU64::new(0),
            extraction_errors: AtomicU64::new(0),
            truncated: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
            budget_spent: AtomicU64::new(0),
            noindex: AtomicU64::new(0),
            blocked_by_site: AtomicU64::new(0),
            excluded: AtomicU64::new(0),
            over_page_cap: AtomicU64::new(0),
            over_host_cap: AtomicU64::new(0),
            sitemap_left_out: AtomicU64::new(0),
            revisits: AtomicU64::new(0),
            not_modified: AtomicU64::new(0),
            unchanged: AtomicU64::new(0),
            versions: AtomicU64::new(0),
            queue: AtomicU64::new(0),
            inflight: AtomicU64::new(0),
            hosts_known: AtomicU64::new(0),
            hosts_waiting: AtomicU64::new(0),
            last_error: Mutex::new(None),
            store_errors: AtomicU64::new(0),
            store_down: std::sync::atomic::AtomicBool::new(false),
            archive_down: std::sync::atomic::AtomicBool::new(false),
            hosts_stopped: AtomicU64::new(0),
            host_stopped_urls: AtomicU64::new(0),
            held: Mutex::new(BTreeMap::new()),
            panics: AtomicU64::new(0),
            by_type: Mutex::new(BTreeMap::new()),
            hosts: Mutex::new(HashMap::new()),
            harvest: std::sync::OnceLock::new(),
            templates_learned: AtomicU64::new(0),
            products: AtomicU64::new(0),
            drift_events: AtomicU64::new(0),
            last_drift: Mutex::new(None),
            data_dir: std::sync::OnceLock::new(),
            render: std::sync::OnceLock::new(),
            fetched_before: AtomicU64::new(0),
        }
    }
}

/// A host the crawl holds back, and why: in `/status`, `trawl status` and
/// the logs.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct HeldHost {
    /// Host key.
    pub host: String,
    /// In words: "robots.txt answered HTTP 503 ...", "error budget spent ...".
    pub reason: String,
    /// Seconds since the epoch.
    pub since: u64,
    /// Until when (seconds since the epoch), when known: the next robots.txt
    /// attempt, the end of a cool-down or of a Retry-After.
    pub until: Option<u64>,
}

/// Hosts whose requests are counted for the host table, at most.
const MAX_HOSTS: usize = 10_000;
/// Rows of the host table in a snapshot.
const SHOWN_HOSTS: usize = 50;

/// Requests to one host this run.
#[derive(Debug, Default, Clone)]
pub(crate) struct HostActivity {
    requests: u64,
    errors: u64,
    last_ms: u64,
    next_ms: u64,
    /// URLs waiting, as last read (see [`Stats::set_queued`]).
    queued: Option<Queued>,
}

/// A host's queued URLs as the scheduler last counted them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Queued {
    /// URLs not done yet (at least this many when `more`).
    pub urls: u64,
    /// The count stopped early: the host has more.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub more: bool,
}

/// One row of the status page's host table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HostRow {
    /// The host (`name[:port]`).
    pub host: String,
    /// Requests sent this run (pages, hops, robots.txt, sitemaps, feeds).
    pub requests: u64,
    /// Of them, without an answer or answered 4xx or 5xx.
    pub errors: u64,
    /// Why the host is held back, when it is.
    pub held: Option<String>,
    /// When its next request may go (seconds since the epoch).
    pub next_due: Option<u64>,
    /// When it was last sent one (seconds since the epoch).
    pub last: u64,
    /// Its URLs not done yet (in flight included, as the crawl's `queue`
    /// counts them), counted every couple of seconds (`None`: not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queued: Option<Queued>,
}

/// A point-in-time copy, as served by `/status` and printed by `trawl
/// status --json` (from a stopped store too: then `running` is false and
/// the counters the store keeps are filled, the live ones are 0).
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Snapshot {
    /// Whether a daemon is running (false: read from a stopped store).
    pub running: bool,
    /// Seconds since the daemon started.
    pub uptime_secs: f64,
    /// Fetched pages per second since the start.
    pub pages_per_sec: f64,
    /// Pages fetched (final responses).
    pub fetched: u64,
    /// Responses with a 2xx status.
    pub status_2xx: u64,
    /// Responses with a 3xx status.
    pub status_3xx: u64,
    /// Responses with a 4xx status.
    pub status_4xx: u64,
    /// Responses with a 5xx status.
    pub status_5xx: u64,
    /// Fetches with no complete HTTP answer (timeouts, resets, refused).
    pub transport_errors: u64,
    /// URLs robots.txt did not allow.
    pub robots_denied: u64,
    /// Retries scheduled.
    pub retries: u64,
    /// Body bytes received.
    pub bytes: u64,
    /// Records stored.
    pub records: u64,
    /// Records marked as near-duplicates.
    pub duplicates: u64,
    /// Pages the extractor failed on.
    pub extraction_errors: u64,
    /// Bodies cut at `crawl.max_body_bytes`.
    pub truncated: u64,
    /// Responses not extracted (not HTML, oversize).
    pub skipped: u64,
    /// URLs set aside because a page budget was spent (outcome `budget_spent`).
    #[serde(default)]
    pub budget_spent: u64,
    /// Pages that asked not to be indexed (outcome `noindex`).
    #[serde(default)]
    pub noindex: u64,
    /// Challenge or block pages answered instead of pages, each try
    /// counted (outcome `blocked_by_site` once the tries are spent).
    #[serde(default)]
    pub blocked_by_site: u64,
    /// Links not queued because of the URL patterns (`include` / `exclude`).
    #[serde(default)]
    pub excluded: u64,
    /// Links not queued: past `crawl.max_links_per_page` on their page.
    #[serde(default)]
    pub over_page_cap: u64,
    /// Links not queued: their host had used its frontier room
    /// (`crawl.max_queued_per_host` + `crawl.queued_per_page` per page fetched).
    #[serde(default)]
    pub over_host_cap: u64,
    /// Sitemap entries not queued (nested indexes, past the seed's page
    /// budget or depth).
    #[serde(default)]
    pub sitemap_left_out: u64,
    /// Revisits made (URLs fetched again).
    #[serde(default)]
    pub revisits: u64,
    /// Revisits answered 304 Not Modified.
    #[serde(default)]
    pub not_modified: u64,
    /// Revisits whose main text had not changed.
    #[serde(default)]
    pub unchanged: u64,
    /// New versions of changed pages stored.
    #[serde(default)]
    pub versions: u64,
    /// URLs queued (an estimate while running).
    pub queue: u64,
    /// Fetches in flight.
    pub inflight: u64,
    /// Hosts the scheduler knows (a cluster worker: the hosts it holds).
    pub hosts_known: u64,
    /// Hosts with queued URLs waiting for their turn.
    pub hosts_waiting: u64,
    /// The last error, in words.
    pub last_error: Option<String>,
    /// Store writes that failed (disk full, I/O errors), in all.
    pub store_errors: u64,
    /// The store cannot write: fetching is paused until it can.
    pub store_down: bool,
    /// The WARC archive cannot be written: fetching is paused until it can.
    #[serde(default)]
    pub archive_down: bool,
    /// Hosts stopped by their error budget.
    pub hosts_stopped: u64,
    /// URLs set aside (outcome `host_stopped`) because their host was stopped.
    pub host_stopped_urls: u64,
    /// Hosts held back now, and why.
    pub held_hosts: Vec<HeldHost>,
    /// Pages whose processing panicked (recorded as error outcomes).
    pub panics: u64,
    /// Records made this run, by page type.
    #[serde(default)]
    pub records_by_type: BTreeMap<String, u64>,
    /// The hosts most recently sent a request (at most 50), held ones first.
    #[serde(default)]
    pub hosts: Vec<HostRow>,
    /// The store directory this daemon owns (clients check it before trusting `/export`).
    pub data_dir: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The harvest rate (focused crawls).
    pub harvest: Option<super::harvest::HarvestSnapshot>,
    /// Templates learned (e-commerce mode).
    pub templates_learned: u64,
    /// Product records made.
    pub products: u64,
    /// Template drift events.
    pub drift_events: u64,
    /// The last drift event, in words.
    pub last_drift: Option<String>,
    /// Rendering in the headless browser (`render`).
    #[serde(default)]
    pub render: RenderCounts,
}

/// What the browser pool did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RenderCounts {
    /// Pages rendered.
    pub rendered: u64,
    /// Renders that failed (outcome `render_failed`), timeouts included.
    pub failed: u64,
    /// Of those, timeouts.
    pub timeouts: u64,
    /// Requests of pages' scripts that were sent.
    pub requests: u64,
    /// Requests of pages' scripts that were refused.
    pub refused: u64,
    /// Browsers started (restarts included).
    pub launches: u64,
}

impl Stats {
    pub(crate) fn count_status(&self, status: u16) {
        let c = match status {
            200..=299 => &self.status_2xx,
            300..=399 => &self.status_3xx,
            400..=499 => &self.status_4xx,
            _ => &self.status_5xx,
        };
        c.fetch_add(1, Relaxed);
    }

    /// Records a template drift event.
    pub(crate) fn drift(&self, what: String) {
        self.drift_events.fetch_add(1, Relaxed);
        if let Ok(mut g) = self.last_drift.lock() {
            *g = Some(what);
        }
    }

    /// Holds `host` back for `reason` (replacing an earlier reason).
    pub(crate) fn hold(&self, host: &str, reason: String, since: u64, until: Option<u64>) {
        if let Ok(mut m) = self.held.lock() {
            let host = host.to_string();
            m.insert(
                host.clone(),
                HeldHost {
                    host,
                    reason,
                    since,
                    until,
                },
            );
        }
    }

    /// `host` is no longer held back for a reason starting with `what`.
    pub(crate) fn unhold_for(&self, host: &str, what: &str) {
        if let Ok(mut m) = self.held.lock() {
            if m.get(host).is_some_and(|h| h.reason.starts_with(what)) {
                m.remove(host);
            }
        }
    }

    /// Since when `host` has been held back, if it is.
    pub(crate) fn held_since(&self, host: &str) -> Option<u64> {
        self.held.lock().ok()?.get(host).map(|h| h.since)
    }

    /// Hosts held back now (a hold whose end has passed is gone).
    pub(crate) fn held_hosts(&self) -> Vec<HeldHost> {
        let now = crate::record::now_secs();
        let Ok(m) = self.held.lock() else {
            return Vec::new();
        };
        m.values()
            .filter(|h| h.until.is_none_or(|u| u > now))
            .cloned()
            .collect()
    }

    pub(crate) fn error(&self, e: String) {
        if let Ok(mut g) = self.last_error.lock() {
            *g = Some(e);
        }
    }

    /// A store write failed: counted, kept as the last error, and fetching
    /// pauses (the writer clears `store_down` once the store writes again).
    pub(crate) fn store_error(&self, e: String) {
        self.store_errors.fetch_add(1, Relaxed);
        self.store_down.store(true, Relaxed);
        self.error(e);
    }

    /// Notes a request to `host` that ended now (`failed`: no answer, 4xx or
    /// 5xx), the host's next turn `delay` later.
    pub(crate) fn note_request(&self, host: &str, failed: bool, delay: std::time::Duration) {
        let Ok(mut m) = self.hosts.lock() else { return };
        if m.len() >= MAX_HOSTS && !m.contains_key(host) {
            // The least recently asked half goes (the table shows recent ones).
            let mut times: Vec<u64> = m.values().map(|a| a.last_ms).collect();
            times.sort_unstable();
            let cut = times[times.len() / 2];
            m.retain(|_, a| a.last_ms > cut);
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        if !m.contains_key(host) {
            m.insert(host.to_string(), HostActivity::default());
        }
        let Some(a) = m.get_mut(host) else { return };
        a.requests += 1;
        a.errors += u64::from(failed);
        a.last_ms = now;
        a.next_ms = now + delay.as_millis() as u64;
    }

    fn host_rows(&self) -> Vec<HostRow> {
        let held: HashMap<String, HeldHost> = self
            .held_hosts()
            .into_iter()
            .map(|h| (h.host.clone(), h))
            .collect();
        let Ok(m) = self.hosts.lock() else {
            return Vec::new();
        };
        let mut rows: Vec<HostRow> = m
            .iter()
            .map(|(host, a)| HostRow {
                host: host.clone(),
                requests: a.requests,
                errors: a.errors,
                held: held.get(host).map(|h| h.reason.clone()),
                // A held host's next request is when the hold ends (a
                // Retry-After, a cool-down), not its last one plus delay.
                next_due: Some(
                    held.get(host)
                        .and_then(|h| h.until)
                        .map_or(a.next_ms / 1000, |u| u.max(a.next_ms / 1000)),
                ),
                last: a.last_ms / 1000,
                queued: a.queued,
            })
            .collect();
        for (host, h) in &held {
            if !m.contains_key(host) {
                rows.push(HostRow {
                    host: host.clone(),
                    held: Some(h.reason.clone()),
                    next_due: h.until,
                    ..HostRow::default()
                });
            }
        }
        rows.sort_by(|a, b| {
            (b.held.is_some(), b.last)
                .cmp(&(a.held.is_some(), a.last))
                .then_with(|| a.host.cmp(&b.host))
        });
        rows.truncate(SHOWN_HOSTS);
        rows
    }

    /// The hosts the table shows now: the scheduler counts their queued URLs.
    pub(crate) fn shown_hosts(&self) -> Vec<String> {
        self.host_rows().into_iter().map(|r| r.host).collect()
    }

    /// Sets the queued URLs counted for hosts of the table.
    pub(crate) fn set_queued(&self, counts: impl IntoIterator<Item = (String, Queued)>) {
        let Ok(mut m) = self.hosts.lock() else { return };
        for (host, q) in counts {
            if let Some(a) = m.get_mut(&host) {
                a.queued = Some(q);
            }
        }
    }

    /// Counts a record made, by its page type.
    pub(crate) fn record_made(&self, page_type: &'static str) {
        if let Ok(mut m) = self.by_type.lock() {
            *m.entry(page_type).or_default() += 1;
        }
    }

    /// Adds the counters an earlier run left (its snapshot's JSON) to these.
    pub(crate) fn restore(&self, saved: &[u8]) {
        let Ok(s) = serde_json::from_slice::<Snapshot>(saved) else {
            return;
        };
        let add = |a: &AtomicU64, v: u64| {
            a.fetch_add(v, Relaxed);
        };
        add(&self.fetched, s.fetched);
        add(&self.fetched_before, s.fetched);
        for (a, v) in [
            (&self.status_2xx, s.status_2xx),
            (&self.status_3xx, s.status_3xx),
            (&self.status_4xx, s.status_4xx),
            (&self.status_5xx, s.status_5xx),
            (&self.transport_errors, s.transport_errors),
            (&self.robots_denied, s.robots_denied),
            (&self.retries, s.retries),
            (&self.bytes, s.bytes),
            (&self.duplicates, s.duplicates),
            (&self.extraction_errors, s.extraction_errors),
            (&self.truncated, s.truncated),
            (&self.skipped, s.skipped),
            (&self.budget_spent, s.budget_spent),
            (&self.noindex, s.noindex),
            (&self.blocked_by_site, s.blocked_by_site),
            (&self.excluded, s.excluded),
            (&self.over_page_cap, s.over_page_cap),
            (&self.sitemap_left_out, s.sitemap_left_out),
            (&self.revisits, s.revisits),
            (&self.not_modified, s.not_modified),
            (&self.unchanged, s.unchanged),
            (&self.versions, s.versions),
        ] {
            add(a, v);
        }
    }

    /// The counters now.
    pub fn snapshot(&self) -> Snapshot {
        let l = |a: &AtomicU64| a.load(Relaxed);
        let uptime = self.started.elapsed().as_secs_f64();
        Snapshot {
            running: true,
            uptime_secs: uptime,
            pages_per_sec: l(&self.fetched).saturating_sub(l(&self.fetched_before)) as f64
                / uptime.max(1e-3),
            fetched: l(&self.fetched),
            status_2xx: l(&self.status_2xx),
            status_3xx: l(&self.status_3xx),
            status_4xx: l(&self.status_4xx),
            status_5xx: l(&self.status_5xx),
            transport_errors: l(&self.transport_errors),
            robots_denied: l(&self.robots_denied),
            retries: l(&self.retries),
            bytes: l(&self.bytes),
            records: l(&self.records),
            duplicates: l(&self.duplicates),
            extraction_errors: l(&self.extraction_errors),
            truncated: l(&self.truncated),
            skipped: l(&self.skipped),
            budget_spent: l(&self.budget_spent),
            noindex: l(&self.noindex),
            blocked_by_site: l(&self.blocked_by_site),
            excluded: l(&self.excluded),
            over_page_cap: l(&self.over_page_cap),
            over_host_cap: l(&self.over_host_cap),
            sitemap_left_out: l(&self.sitemap_left_out),
            revisits: l(&self.revisits),
            not_modified: l(&self.not_modified),
            unchanged: l(&self.unchanged),
            versions: l(&self.versions),
            queue: l(&self.queue),
            inflight: l(&self.inflight),
            hosts_known: l(&self.hosts_known),
            hosts_waiting: l(&self.hosts_waiting),
            last_error: self.last_error.lock().ok().and_then(|g| g.clone()),
            store_errors: l(&self.store_errors),
            store_down: self.store_down.load(Relaxed),
            archive_down: self.archive_down.load(Relaxed),
            hosts_stopped: l(&self.hosts_stopped),
            host_stopped_urls: l(&self.host_stopped_urls),
            held_hosts: self.held_hosts(),
            panics: l(&self.panics),
            records_by_type: self
                .by_type
                .lock()
                .map(|m| m.iter().map(|(k, v)| (k.to_string(), *v)).collect())
                .unwrap_or_default(),
            hosts: self.host_rows(),
            data_dir: self.data_dir.get().cloned().unwrap_or_default(),
            harvest: self.harvest.get().and_then(|h| h.snapshot()),
            templates_learned: l(&self.templates_learned),
            products: l(&self.products),
            drift_events: l(&self.drift_events),
            last_drift: self.last_drift.lock().ok().and_then(|g| g.clone()),
            render: self
                .render
                .get()
                .map(|c| RenderCounts {
                    rendered: l(&c.rendered),
                    failed: l(&c.failed),
                    timeouts: l(&c.timeouts),
                    requests: l(&c.requests),
                    refused: l(&c.refused),
                    launches: l(&c.launches),
                })
                .unwrap_or_default(),
        }
    }
}

impl Snapshot {
    /// Prometheus text exposition.
    pub fn prometheus(&self) -> String {
        let mut s = String::new();
        metric(
            &mut s,
            "pages_total",
            "Pages fetched, by HTTP status class.",
            "counter",
            &[
                ("{status=\"2xx\"}".into(), self.status_2xx),
                ("{status=\"3xx\"}".into(), self.status_3xx),
                ("{status=\"4xx\"}".into(), self.status_4xx),
                ("{status=\"5xx\"}".into(), self.status_5xx),
                ("{status=\"error\"}".into(), self.transport_errors),
            ],
        );
        for (name, help, kind, v) in self.plain_metrics() {
            metric(&mut s, name, help, kind, &[(String::new(), v)]);
        }
        let r = &self.render;
        metric(
            &mut s,
            "rendered_total",
            "Pages rendered in the headless browser, by result.",
            "counter",
            &[
                ("{result=\"ok\"}".into(), r.rendered),
                ("{result=\"timeout\"}".into(), r.timeouts),
                (
                    "{result=\"failed\"}".into(),
                    r.failed.saturating_sub(r.timeouts),
                ),
            ],
        );
        metric(
            &mut s,
            "browser_requests_total",
            "Requests of rendered pages' scripts, sent or refused.",
            "counter",
            &[
                ("{result=\"sent\"}".into(), r.requests),
                ("{result=\"refused\"}".into(), r.refused),
            ],
        );
        metric(
            &mut s,
            "browser_launches_total",
            "Browsers started (restarts included).",
            "counter",
            &[(String::new(), r.launches)],
        );
        if let Some(h) = &self.harvest {
            metric(
                &mut s,
                "judged_total",
                "Pages judged for topic relevance.",
                "counter",
                &[(String::new(), h.judged)],
            );
            metric(
                &mut s,
                "relevant_total",
                "Pages judged relevant (harvest = relevant / judged).",
                "counter",
                &[(String::new(), h.relevant)],
            );
        }
        s
    }

    /// The metrics without labels, in the order `/metrics` lists them:
    /// (name, help, type, value).
    fn plain_metrics(&self) -> [(&'static str, &'static str, &'static str, u64); 19] {
        [
            ("bytes_total", "Body bytes fetched.", "counter", self.bytes),
            (
                "records_total",
                "Extracted records stored.",
                "counter",
                self.records,
            ),
            (
                "duplicates_total",
                "Records marked as near-duplicates.",
                "counter",
                self.duplicates,
            ),
            (
                "extraction_errors_total",
                "Pages whose extraction failed.",
                "counter",
                self.extraction_errors,
            ),
            (
                "robots_denied_total",
                "URLs skipped because robots.txt disallows them.",
                "counter",
                self.robots_denied,
            ),
            (
                "retries_total",
                "Fetches re-queued after a transient failure or backoff.",
                "counter",
                self.retries,
            ),
            (
                "store_errors_total",
                "Store writes that failed (disk full, I/O errors).",
                "counter",
                self.store_errors,
            ),
            (
                "store_down",
                "1 while the store cannot write and fetching is paused.",
                "gauge",
                u64::from(self.store_down),
            ),
            (
                "hosts_stopped_total",
                "Hosts stopped by their error budget (crawl.host_error_budget).",
                "counter",
                self.hosts_stopped,
            ),
            (
                "host_stopped_urls_total",
                "URLs set aside (outcome host_stopped) because their host was stopped.",
                "counter",
                self.host_stopped_urls,
            ),
            (
                "hosts_held",
                "Hosts held back now (robots.txt 5xx, error budget, Retry-After).",
                "gauge",
                self.held_hosts.len() as u64,
            ),
            (
                "panics_total",
                "Pages whose processing panicked (stored as error outcomes).",
                "counter",
                self.panics,
            ),
            (
                "queue_depth",
                "URLs waiting in the frontier.",
                "gauge",
                self.queue,
            ),
            ("inflight", "Fetches in progress.", "gauge", self.inflight),
            (
                "hosts_waiting",
                "Hosts waiting for their politeness delay.",
                "gauge",
                self.hosts_waiting,
            ),
            (
                "hosts_known",
                "Hosts with a schedule.",
                "gauge",
                self.hosts_known,
            ),
            (
                "products_total",
                "Product records extracted with a learned template.",
                "counter",
                self.products,
            ),
            (
                "templates_learned_total",
                "Extraction templates learned (and re-learned).",
                "counter",
                self.templates_learned,
            ),
            (
                "template_drift_total",
                "Template drift events (failing fields or a changed layout).",
                "counter",
                self.drift_events,
            ),
        ]
    }

    /// The one-line progress summary.
    pub fn line(&self) -> String {
        let harvest = self.harvest.as_ref().map_or(String::new(), |h| {
            let stopped = if h.stopped.is_some() {
                ", stopped paying"
            } else {
                ""
            };
            format!(
                " · harvest {:.2} (recent {:.2}{stopped})",
                h.rate, h.recent_rate
            )
        });
        let down = if self.store_down {
            " · STORE CANNOT WRITE: fetching paused"
        } else {
            ""
        };
        format!(
            "{} pages ({:.1}/s) · {} records · queue {} · in flight {} · hosts {} ({} waiting, {} held) · 4xx {} · errors {}{harvest}{down}",
            self.fetched,
            self.pages_per_sec,
            self.records,
            self.queue,
            self.inflight,
            self.hosts_known,
            self.hosts_waiting,
            self.held_hosts.len(),
            self.status_4xx,
            self.status_5xx
                + self.transport_errors
                + self.extraction_errors
                + self.store_errors
                + self.panics
        )
    }
}

/// Appends one metric in Prometheus' text format: its help and type lines,
/// then a line per label set.
fn metric(s: &mut String, name: &str, help: &str, kind: &str, lines: &[(String, u64)]) {
    s.push_str(&format!(
        "# HELP trawl_{name} {help}\n# TYPE trawl_{name} {kind}\n"
    ));
    for (labels, v) in lines {
        s.push_str(&format!("trawl_{name}{labels} {v}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 53): a held host's next request showed as "17 s
    /// ago" (its last request plus delay) when its hold ended in 45 s.
    #[test]
    fn a_held_hosts_next_request_is_when_the_hold_ends() {
        let stats = Stats::default();
        stats.note_request("a.test", true, std::time::Duration::from_secs(1));
        let until = crate::record::now_secs() + 45;
        stats.hold(
            "a.test",
            "Retry-After".into(),
            crate::record::now_secs(),
            Some(until),
        );
        let row = stats
            .snapshot()
            .hosts
            .into_iter()
            .find(|h| h.host == "a.test")
            .expect("row");
        assert_eq!(row.next_due, Some(until));
    }
}
