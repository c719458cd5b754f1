//! A cluster worker's leases: the hosts it holds in the shared frontier.
//!
//! The worker claims up to `cluster.max_hosts` hosts, holds each for
//! `cluster.lease_secs`, renews its leases every third of that, and stops
//! sending requests to a host as soon as its lease may have lapsed by the
//! local clock (the [`Fence`]: a worker paused past its lease sends no
//! request when it wakes). Up to the host's concurrency (`crawl.max_per_host`,
//! a site's or seed's `concurrency`) of its URLs at a time, spaced by the
//! host's delay (robots.txt `Crawl-delay`, `crawl.min_delay_ms`). A host
//! with nothing due goes back to the cluster. Every couple of seconds the
//! worker beats its heart, publishes the templates it learned and reads
//! the cluster's page counts; seed files are read into the cluster as on
//! one machine.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::options::ClusterOptions;
use super::sitewide::{self, Fence, Published};
use crate::cluster::{Claimed, ClusterCounts, ClusterError, Conn};
use crate::config::Config;
use crate::crawl::pipeline::seeding;
use crate::crawl::pipeline::shared::Fetching;
use crate::crawl::pipeline::{Finished, Health, Leases};
use crate::crawl::stats::{Queued, Stats};
use crate::crawl::{CrawlError, RunOptions};
use crate::frontier::{Lease, Next};
use crate::seeds::{Registry, SeedDefaults};
use crate::store::{NewUrl, QueuedUrl, Store, UrlKind};

/// How often a worker reads the cluster's page counts (when budgets are set).
const COUNT_EVERY: Duration = Duration::from_millis(500);
/// How often a worker beats its heart and publishes templates.
const BEAT_EVERY: Duration = Duration::from_secs(2);
/// The longest the scheduler sleeps without looking at its hosts.
const LOOK_EVERY: Duration = Duration::from_millis(300);

/// A host this worker holds.
struct Held {
    claim: Claimed,
    queue: VecDeque<(i64, QueuedUrl)>,
    /// Its URLs being fetched or processed.
    inflight: usize,
    /// No request before this.
    next_at: Instant,
    /// Ended here but not yet in the database.
    uncommitted: HashSet<i64>,
    /// Nothing due at the last look: look again then.
    recheck_at: Option<Instant>,
}

/// Lease keys carry (host id, epoch, URL hash) from the scheduler to the writer.
pub(super) fn lease_key(host_id: i64, epoch: i64, hash: i64) -> Vec<u8> {
    let mut k = Vec::with_capacity(24);
    k.extend_from_slice(&host_id.to_be_bytes());
    k.extend_from_slice(&epoch.to_be_bytes());
    k.extend_from_slice(&hash.to_be_bytes());
    k
}

/// (host id, epoch, URL hash) of a lease key.
pub(super) fn from_lease_key(k: &[u8]) -> Option<(i64, i64, i64)> {
    let part = |i: usize| -> Option<i64> {
        Some(i64::from_be_bytes(
            k.get(i * 8..i * 8 + 8)?.try_into().ok()?,
        ))
    };
    Some((part(0)?, part(1)?, part(2)?))
}

/// What a worker's leases start from.
pub(super) struct Start<'a> {
    pub cfg: &'a Config,
    pub opts: &'a RunOptions,
    pub cluster: ClusterOptions,
    pub db: Conn,
    pub shared: Arc<Fetching>,
    /// The focus of a focused crawl (its strategy sets the patience).
    pub focus: Option<Arc<crate::focus::Focus>>,
    pub fence: Fence,
    pub counts: Arc<ClusterCounts>,
    /// Completions in the outbox (the writer's).
    pub pending: Arc<AtomicUsize>,
    /// Completions the cluster refused (the writer's).
    pub refused: Arc<AtomicU64>,
}

/// The hosts a worker holds, as the pipeline's [`Leases`].
pub(super) struct ClusterLeases {
    cluster: ClusterOptions,
    db: Conn,
    db_down: bool,
    shared: Arc<Fetching>,
    fence: Fence,
    counts: Arc<ClusterCounts>,
    pending: Arc<AtomicUsize>,
    refused: Arc<AtomicU64>,
    held: HashMap<String, Held>,
    published: Published,
    defaults: SeedDefaults,
    seed_files: seeding::SeedFiles,
    seed_poll: Duration,
    next_seed_poll: Instant,
    next_renew: Instant,
    next_claim: Instant,
    next_beat: Instant,
    next_count: Instant,
    /// When due revisits (and set-aside URLs whose wait ended) are queued next.
    next_due: Instant,
    /// With pages as the budget (`focus.budget = "pages"`, focused crawls):
    /// a URL goes out only if its priority is at least this share of the
    /// best URL this worker's hosts hold (0: every free slot is filled).
    page_patience: f32,
}

/// How often due revisits are queued in the shared frontier.
const DUE_EVERY: Duration = Duration::from_secs(1);

impl ClusterLeases {
    /// Reads the cluster's seeds and offers set-aside URLs again.
    pub(super) async fn start(s: Start<'_>) -> ClusterLeases {
        let now = Instant::now();
        let c = &s.cfg.crawl;
        let page_patience = page_patience(s.cfg, s.focus.as_deref());
        let mut leases = ClusterLeases {
            next_renew: now + s.cluster.lease / 3,
            cluster: s.cluster,
            db: s.db,
            db_down: false,
            shared: s.shared,
            fence: s.fence,
            counts: s.counts,
            pending: s.pending,
            refused: s.refused,
            held: HashMap::new(),
            published: Published::default(),
            defaults: seeding::seed_defaults(s.cfg),
            seed_files: seeding::SeedFiles::new(s.cfg, s.opts),
            seed_poll: Duration::from_secs(c.seed_poll_secs),
            next_seed_poll: now,
            next_claim: now,
            next_beat: now,
            next_count: now,
            next_due: now + DUE_EVERY,
            page_patience,
        };
        refresh_seeds(&mut leases.db, &leases.shared).await;
        // URLs set aside last time (a stopped host, a spent budget) are offered again.
        match leases.db.unpark(true).await {
            Ok(n) => tracing::info!(set_aside_offered_again = n, "cluster frontier"),
            Err(e) => tracing::warn!(error = %e, "offering set-aside URLs again"),
        }
        leases
    }

    fn stats(&self) -> &Stats {
        &self.shared.stats
    }

    /// Notes that the database is away (said once per outage).
    fn db_error(&mut self, e: ClusterError, what: &str) {
        if !self.db_down {
            tracing::warn!(error = %e, "{what}: the cluster database is away; backing off");
        }
        self.shared
            .stats
            .store_error(format!("cluster database: {e}"));
        self.db_down = true;
    }

    async fn beat(&mut self, now: Instant) {
        let r = self
            .db
            .heartbeat(
                &self.cluster.worker,
                self.stats().fetched.load(Relaxed),
                self.refused.load(Relaxed),
                self.held.len(),
                false,
            )
            .await;
        match r {
            Ok(()) => {
                if self.db_down {
                    tracing::info!("the cluster database is back");
                    self.stats().store_down.store(false, Relaxed);
                }
                self.db_down = false;
            }
            Err(e) => self.db_error(e, "heartbeat"),
        }
        if !self.db_down {
            let (db, shared, published) = (&mut self.db, &self.shared, &mut self.published);
            let r = sitewide::push_templates(db, shared, published, &self.cluster.worker).await;
            if let Err(e) = r {
                self.db_error(e, "publishing templates");
            }
        }
        if !self.db_down {
            // The status page's host table: the cluster's queued URLs.
            let shown = self.stats().shown_hosts();
            match self.db.hosts_queued(&shown).await {
                Ok(counts) => self.stats().set_queued(
                    counts
                        .into_iter()
                        .map(|(h, urls)| (h, Queued { urls, more: false })),
                ),
                Err(e) => self.db_error(e, "counting queued URLs"),
            }
        }
        self.next_beat = now + BEAT_EVERY;
    }

    async fn renew(&mut self, now: Instant) {
        let ids: Vec<(i64, i64)> = self
            .held
            .values()
            .map(|h| (h.claim.id, h.claim.epoch))
            .collect();
        let sent = Instant::now();
        let lease = self.cluster.lease;
        match self.db.renew(&self.cluster.worker, &ids, lease).await {
            Ok(live) => {
                let live: HashSet<i64> = live.into_iter().collect();
                let valid = sent + lease.mul_f64(0.8);
                let (fence, counts) = (&self.fence, &self.counts);
                self.held.retain(|name, h| {
                    let keep = live.contains(&h.claim.id);
                    if keep {
                        fence.set(name, valid);
                    } else {
                        tracing::warn!(host = %name, "lost the lease of a host (taken over)");
                        fence.set(name, now);
                        counts.drop_host(name);
                    }
                    keep
                });
                self.next_renew = now + lease / 3;
            }
            Err(e) => {
                self.db_error(e, "renewing leases");
                self.next_renew = now + Duration::from_millis(500);
            }
        }
    }

    async fn claim(&mut self, now: Instant) {
        let want = self.cluster.max_hosts - self.held.len();
        let lease = self.cluster.lease;
        match self.db.claim(&self.cluster.worker, want, lease).await {
            Ok(claims) => {
                let got = claims.len();
                let valid = now + lease.mul_f64(0.8);
                if got > 0 {
                    // A host handed over: its seed's count as its last
                    // holder left it, before its first fetch here.
                    let r = sitewide::refresh_counts(&mut self.db, &self.shared, &self.counts);
                    if let Err(e) = r.await {
                        tracing::warn!(error = %e, "reading page counts");
                    }
                }
                let names: Vec<String> = claims.iter().map(|c| c.name.clone()).collect();
                let (db, shared, published) = (&mut self.db, &self.shared, &mut self.published);
                let r = sitewide::pull_templates(db, shared, published, &names).await;
                if let Err(e) = r {
                    tracing::warn!(error = %e, "reading the claimed sites' templates");
                }
                for claim in claims {
                    tracing::debug!(host = %claim.name, epoch = claim.epoch, "host claimed");
                    self.fence.set(&claim.name, valid);
                    self.counts.set_host(&claim.name, claim.fetched);
                    self.held.insert(
                        claim.name.clone(),
                        Held {
                            claim,
                            queue: VecDeque::new(),
                            inflight: 0,
                            next_at: now,
                            uncommitted: HashSet::new(),
                            recheck_at: None,
                        },
                    );
                }
                self.next_claim = now + Duration::from_millis(if got > 0 { 50 } else { 300 });
            }
            Err(e) => {
                self.db_error(e, "claiming hosts");
                self.next_claim = now + Duration::from_millis(500);
            }
        }
    }

    /// Gives a host back to the cluster.
    async fn release(&mut self, name: &str, now: Instant) {
        let Some(h) = self.held.remove(name) else {
            return;
        };
        let delay = h.next_at.saturating_duration_since(now);
        self.fence.set(name, now);
        self.counts.drop_host(name);
        if let Err(e) = self.db.release(&h.claim, delay).await {
            self.db_error(e, "releasing a host");
        }
    }

    /// Fills a held host's queue with its due URLs; false when it has none
    /// now (it is looked at again later, or given back).
    async fn fill(&mut self, name: &str, now: Instant) -> bool {
        let Some(h) = self.held.get(name) else {
            return false;
        };
        let id = h.claim.id;
        let due = match self.db.due(id, self.cluster.batch).await {
            Ok(due) => due,
            Err(e) => {
                self.db_error(e, "reading due URLs");
                return false;
            }
        };
        let Some(h) = self.held.get_mut(name) else {
            return false;
        };
        let fresh: Vec<_> = due
            .urls
            .into_iter()
            .filter(|(hash, _)| !h.uncommitted.contains(hash))
            .collect();
        if !fresh.is_empty() {
            h.recheck_at = None;
            h.queue.extend(fresh);
            return true;
        }
        match due.next_in {
            Some(d) if d < Duration::from_secs(2) || !h.uncommitted.is_empty() => {
                h.recheck_at = Some(now + d.max(Duration::from_millis(100)));
            }
            _ if h.uncommitted.is_empty() => self.release(name, now).await,
            _ => h.recheck_at = Some(now + Duration::from_millis(200)),
        }
        false
    }
}

/// The patience of a worker whose budget is pages (0 otherwise).
fn page_patience(cfg: &Config, focus: Option<&crate::focus::Focus>) -> f32 {
    let focused = focus.is_some_and(|f| f.strategy == crate::focus::Strategy::Focused);
    if focused && cfg.focus.budget == crate::focus::Budget::Pages {
        cfg.focus.patience
    } else {
        0.0
    }
}

impl ClusterLeases {
    /// With pages as the budget, the lowest priority worth a fetch now: the
    /// patience share of the best URL queued at this worker's hosts (those
    /// waiting for their delay or busy included).
    fn page_floor(&self) -> f32 {
        if self.page_patience <= 0.0 {
            return 0.0;
        }
        let best = self
            .held
            .values()
            .filter_map(|h| h.queue.front().map(|(_, q)| q.priority))
            .fold(0.0f32, f32::max);
        self.page_patience * best
    }
}

impl Leases for ClusterLeases {
    async fn tick(&mut self, now: Instant) {
        self.stats()
            .hosts_known
            .store(self.held.len() as u64, Relaxed);
        if now >= self.next_beat {
            self.beat(now).await;
        }
        if now >= self.next_count && !self.db_down {
            let r = sitewide::refresh_counts(&mut self.db, &self.shared, &self.counts).await;
            if let Err(e) = r {
                self.db_error(e, "reading page counts");
            }
            self.next_count = now + COUNT_EVERY;
        }
        if now >= self.next_renew {
            self.renew(now).await;
        }
        if (now >= self.next_seed_poll || self.seed_files.changed()) && !self.db_down {
            let files = self.seed_files.list();
            let r = load_seeds(&mut self.db, &self.shared, &files, &self.defaults).await;
            if let Err(e) = r {
                tracing::warn!(error = %e, "loading seeds into the cluster");
            }
            self.next_seed_poll = now + self.seed_poll;
        }
        // Due revisits, and a stopped host's URLs once its cool-down has passed.
        if now >= self.next_due && !self.db_down {
            if let Err(e) = self.db.unpark(false).await {
                tracing::warn!(error = %e, "queuing due revisits and set-aside URLs");
            }
            self.next_due = now + DUE_EVERY;
        }
        if self.held.len() < self.cluster.max_hosts && now >= self.next_claim && !self.db_down {
            self.claim(now).await;
        }
    }

    async fn next(&mut self, now: Instant) -> Next {
        let mut wake = self.next_tick(now);
        let floor = self.page_floor();
        let names: Vec<String> = self.held.keys().cloned().collect();
        for name in names {
            if self.db_down {
                break;
            }
            let Some(h) = self.held.get(&name) else {
                continue;
            };
            // The fence knows until when the lease is surely live.
            if h.inflight >= self.shared.sites.concurrency(&name) || !self.fence.allows(&name) {
                continue;
            }
            if h.next_at > now {
                wake = wake.min(h.next_at);
                continue;
            }
            // Pages as the budget: the slot waits for a better host's turn.
            if h.queue.front().is_some_and(|(_, q)| q.priority < floor) {
                continue;
            }
            if h.queue.is_empty() {
                // The database still has the URLs in flight as due: fill
                // (and give the host back) only when none is.
                if h.inflight > 0 || h.recheck_at.is_some_and(|t| t > now) {
                    continue;
                }
                if !self.fill(&name, now).await {
                    continue;
                }
            }
            let Some((hash, item)) = self.held.get_mut(&name).and_then(|h| h.queue.pop_front())
            else {
                continue;
            };
            if self.shared.seeds.get(item.seed).is_none() {
                refresh_seeds(&mut self.db, &self.shared).await;
            }
            let Some(h) = self.held.get_mut(&name) else {
                continue;
            };
            h.inflight += 1;
            return Next::Url(Lease {
                key: lease_key(h.claim.id, h.claim.epoch, hash),
                host: name,
                item,
            });
        }
        for h in self.held.values() {
            if let Some(t) = h.recheck_at {
                wake = wake.min(t);
            }
        }
        if self.held.is_empty() && !self.db_down {
            Next::Empty
        } else {
            Next::Wait(wake)
        }
    }

    fn next_tick(&self, now: Instant) -> Instant {
        (now + LOOK_EVERY)
            .min(self.next_renew)
            .min(self.next_due)
            .min(self.next_claim.max(now + Duration::from_millis(20)))
    }

    fn finished(&mut self, f: Finished) {
        let Some(h) = self.held.get_mut(&f.host) else {
            return;
        };
        h.inflight = h.inflight.saturating_sub(1);
        let now = Instant::now();
        h.next_at = f.hold.unwrap_or(now).max(now + f.delay);
        if !f.committed {
            if let Some((_, _, hash)) = from_lease_key(&f.key) {
                h.uncommitted.insert(hash);
            }
        }
    }

    fn committed(&mut self, host: &str, key: &[u8]) {
        if let (Some(h), Some((_, _, hash))) = (self.held.get_mut(host), from_lease_key(key)) {
            h.uncommitted.remove(&hash);
        }
    }

    fn health(&self) -> Health {
        if self.db_down || self.stats().archive_down.load(Relaxed) {
            Health::Paused
        } else {
            Health::Up
        }
    }

    async fn idle(&mut self) -> bool {
        if self.pending.load(Relaxed) > 0 || self.db_down {
            return false;
        }
        match self.db.idle().await {
            Ok(idle) => idle,
            Err(e) => {
                self.db_error(e, "checking for work");
                false
            }
        }
    }

    async fn close(&mut self) {
        let now = Instant::now();
        for h in self.held.values() {
            let delay = h.next_at.saturating_duration_since(now);
            if let Err(e) = self.db.release(&h.claim, delay).await {
                tracing::warn!(host = %h.claim.name, error = %e, "could not release a host; its lease expires");
            }
        }
        // Templates learned since the last heartbeat.
        let (db, shared, published) = (&mut self.db, &self.shared, &mut self.published);
        let pushed = sitewide::push_templates(db, shared, published, &self.cluster.worker).await;
        if let Err(e) = pushed {
            tracing::warn!(error = %e, "templates not published; the next start publishes them");
        }
        let _ = self
            .db
            .heartbeat(
                &self.cluster.worker,
                self.stats().fetched.load(Relaxed),
                self.refused.load(Relaxed),
                0,
                true,
            )
            .await; // best effort: the status shows the worker silent otherwise
    }
}

/// Reads the cluster's seeds into the shared map (seeds added by any worker).
async fn refresh_seeds(db: &mut Conn, shared: &Fetching) {
    match db.seeds().await {
        Ok(all) => {
            shared.add_seeds(all);
        }
        Err(e) => tracing::warn!(error = %e, "reading the cluster's seeds"),
    }
}

/// Seed files that changed since this worker last read them: their seeds
/// registered cluster-wide and their URLs queued.
async fn load_seeds(
    db: &mut Conn,
    shared: &Fetching,
    files: &[std::path::PathBuf],
    defaults: &SeedDefaults,
) -> Result<(), CrawlError> {
    let store: &Store = &shared.store;
    for file in files {
        let Some(seeding::ChangedFile {
            text,
            seeds: parsed,
            bad,
        }) = seeding::changed_file(store, file, defaults, &shared.rules)?
        else {
            continue;
        };
        let ids = db
            .register_seeds(&parsed)
            .await
            .map_err(|e| CrawlError::Start(e.to_string()))?;
        let mut urls = Vec::with_capacity(parsed.len());
        for (seed, id) in parsed.iter().zip(&ids) {
            shared.add_seeds([(*id, seed.clone())]);
            urls.push(NewUrl {
                host: seed.host.clone(),
                item: QueuedUrl {
                    url: seed.url.clone(),
                    depth: 0,
                    seed: *id,
                    attempt: 0,
                    kind: UrlKind::Page,
                    priority: seed.url_priority(),
                    features: None,
                    revisit: None,
                },
            });
        }
        let added = db
            .enqueue(&urls)
            .await
            .map_err(|e| CrawlError::Start(e.to_string()))?;
        Registry::of(store).file_read(file, &text)?;
        tracing::info!(file = %file.display(), new_urls = added, bad_lines = bad, "seed file loaded into the cluster");
    }
    Ok(())
}
