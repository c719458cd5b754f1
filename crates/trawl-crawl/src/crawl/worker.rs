//! Cluster mode's daemon: one worker among many, crawling the hosts it
//! claims from the shared frontier in PostgreSQL ([`crate::cluster`]).
//!
//! ```text
//!  PostgreSQL ─ claim/renew hosts, due URLs ─► scheduler ─► fetch tasks ─► CPU threads
//!      ▲                                                                     │
//!      └──── links, outcome, record (epoch-fenced) ◄── writer ◄─ outbox (sled)
//! ```
//!
//! The fetch tasks and CPU threads are the single-machine daemon's own
//! (robots.txt, redirects, retries, extraction, focus, templates); the local
//! sled store keeps what is the worker's alone: the robots cache, the
//! per-host clock, the focus model, and the **outbox** of completions not
//! yet committed. The writer puts each completion in the outbox, commits it
//! (links, then the URL's end under the host's epoch), and removes it; while
//! the database is away the outbox grows and is replayed, in order, when it
//! is back (also after a crash). A completion refused because another worker
//! took the host over is dropped: that worker fetches the URL again.
//!
//! Budgets and templates are the cluster's, not the worker's
//! ([`super::sitewide`]): page counts come from the database (a held
//! host's exactly, the crawl's and a seed's at most half a second late),
//! and a site's e-commerce templates are read when one of its hosts is
//! claimed and published when learned, so a site is learned once.
//!
//! The scheduler holds each host for `cluster.lease_secs`, renews its
//! leases every third of that, and stops fetching a host as soon as its
//! lease may have lapsed by the local clock (a worker paused past its lease
//! sends no request when it wakes). One request per held host at a time,
//! spaced by the host's delay (robots.txt `Crawl-delay`, `crawl.min_delay_ms`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::shared::{CpuJob, Shared, WriterMsg};
use super::sitewide::{self, Fence, Published};
use super::stats::{Snapshot, Stats};
use super::{learning, schedule, seeding, session, CrawlError, RunOptions};
use crate::cluster::ClusterCounts;
use crate::cluster::{Claimed, ClusterError, Conn, Finish, FinishEnd, Written};
use crate::config::Config;
use crate::fetch::Fetcher;
use crate::focus::Focus;
use crate::frontier::Lease;
use crate::seeds::{self, Registry};
use crate::store::{Completion, NewUrl, QueuedUrl, Store, Tree, UrlKind};

/// How this worker joins the cluster.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// `postgres://…` of the shared database.
    pub url: String,
    /// This worker's name (unique in the cluster).
    pub worker: String,
    pub lease: Duration,
    pub max_hosts: usize,
    pub batch: usize,
}

impl ClusterOptions {
    /// From `[cluster]` (the URL must be set), naming the worker
    /// `HOSTNAME-PID` when `cluster.worker` is empty.
    pub fn from_config(cfg: &Config) -> ClusterOptions {
        let k = &cfg.cluster;
        let worker = if k.worker.is_empty() {
            let host = std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "worker".into());
            format!("{host}-{}", std::process::id())
        } else {
            k.worker.clone()
        };
        ClusterOptions {
            url: k.url.clone(),
            worker,
            lease: Duration::from_secs(k.lease_secs),
            max_hosts: k.max_hosts,
            batch: k.batch,
        }
    }
}

/// Scheduler-side messages from the writer.
enum Back {
    /// A URL of `host` ended; `committed`: it is in the database (else it
    /// waits in the outbox and must not be read back as due).
    Finished {
        host: String,
        hash: i64,
        delay: Duration,
        hold: Option<Instant>,
        committed: bool,
    },
    /// An outbox entry reached the database.
    Committed { host: String, hash: i64 },
}

/// A host this worker holds.
struct Held {
    claim: Claimed,
    queue: VecDeque<(i64, QueuedUrl)>,
    /// A URL of it is being fetched or processed.
    busy: bool,
    /// No request before this.
    next_at: Instant,
    /// Ended here but not yet in the database.
    uncommitted: HashSet<i64>,
    /// Nothing due at the last look: look again then.
    recheck_at: Option<Instant>,
}

/// Lease keys carry (host id, epoch, URL hash) from the scheduler to the writer.
fn lease_key(host_id: i64, epoch: i64, hash: i64) -> Vec<u8> {
    let mut k = Vec::with_capacity(24);
    k.extend_from_slice(&host_id.to_be_bytes());
    k.extend_from_slice(&epoch.to_be_bytes());
    k.extend_from_slice(&hash.to_be_bytes());
    k
}

fn from_lease_key(k: &[u8]) -> Option<(i64, i64, i64)> {
    let part = |i: usize| -> Option<i64> {
        Some(i64::from_be_bytes(
            k.get(i * 8..i * 8 + 8)?.try_into().ok()?,
        ))
    };
    Some((part(0)?, part(1)?, part(2)?))
}

/// Runs a cluster worker until a signal (or, with `exit_when_idle`, until
/// the whole cluster is out of work).
pub async fn run(
    cfg: Config,
    opts: RunOptions,
    fetcher: Arc<dyn Fetcher>,
    cluster: ClusterOptions,
) -> Result<Snapshot, CrawlError> {
    let c = cfg.crawl.clone();
    // Below the lease: a paused worker's open transaction must not hold
    // its hosts' rows past the lease (see `Conn::limit_transactions`).
    let tx_limit = (cluster.lease / 2).max(Duration::from_millis(500));
    let mut db = Conn::new(&cluster.url).map_err(|e| CrawlError::Start(e.to_string()))?;
    db.limit_transactions(tx_limit);
    // A database that is busy (locks of a paused worker) gets a few tries;
    // one that is down or refuses us is reported at once.
    let mut tries = 0;
    while let Err(e) = db.client().await {
        tries += 1;
        let busy = matches!(&e, ClusterError::Busy(_));
        if !busy || tries >= 5 {
            return Err(CrawlError::Start(e.to_string()));
        }
        tracing::warn!(error = %e, "cluster database busy; trying again");
        tokio::time::sleep(tx_limit).await;
    }
    let store = super::open_store(&cfg)?;
    let observer = opts.observer.clone().unwrap_or_default();
    let stats = observer.stats.clone();
    observer.publish(Some(store.clone()));
    let mut stop_rx = super::Shutdown::watch(opts.shutdown.as_ref());
    let fence = Fence::default();

    let counts = Arc::new(ClusterCounts::default());
    let (shared, focus) = session::build_shared(
        &cfg,
        &opts,
        &store,
        fetcher,
        &stats,
        Arc::new(sitewide::ClusterView {
            fence: fence.clone(),
            counts: counts.clone(),
            db: tokio::sync::Mutex::new(
                Conn::new(&cluster.url).map_err(|e| CrawlError::Start(e.to_string()))?,
            ),
        }),
    )
    .await?;
    refresh_seeds(&mut db, &shared).await;
    let threads = match cfg.extract.threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let (cpu_tx, cpu_rx) = mpsc::channel::<CpuJob>(threads * 4);
    let (write_tx, write_rx) = mpsc::channel::<WriterMsg>(threads * 16);
    let (back_tx, mut back_rx) = mpsc::unbounded_channel::<Back>();
    let cpu_threads = session::spawn_cpu(threads, &shared, cpu_rx, &write_tx)?;
    let pending = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicU64::new(0));
    let writer = tokio::spawn(writer(
        WriterCtx {
            conn: Conn::new(&cluster.url).map_err(|e| CrawlError::Start(e.to_string()))?,
            worker: cluster.worker.clone(),
            outbox: store.outbox()?,
            store: store.clone(),
            focus: focus.clone(),
            stats: stats.clone(),
            back: back_tx,
            pending: pending.clone(),
            refused: refused.clone(),
            counts: counts.clone(),
            batch: cluster.batch,
        },
        write_rx,
    ));

    tracing::info!(worker = %cluster.worker, lease_secs = cluster.lease.as_secs(), "cluster worker starting");
    let defaults = seeding::seed_defaults(&cfg);
    let seed_files = || seeds::files(&c.seeds_dir, &opts.extra_seeds);
    let mut held: HashMap<String, Held> = HashMap::new();
    let mut tasks: JoinSet<()> = JoinSet::new();
    let mut inflight = 0usize;
    let mut stopping: Option<Instant> = None;
    let mut next_seed_poll = Instant::now();
    let renew_every = cluster.lease / 3;
    let mut next_renew = Instant::now() + renew_every;
    let mut next_claim = Instant::now();
    let mut next_beat = Instant::now();
    let mut next_count = Instant::now();
    let mut published = Published::default();
    let mut db_down = false;
    // URLs set aside last time (a stopped host, a spent budget) are offered again.
    match db.unpark(true).await {
        Ok(n) => tracing::info!(set_aside_offered_again = n, "cluster frontier"),
        Err(e) => tracing::warn!(error = %e, "offering set-aside URLs again"),
    }

    loop {
        while let Ok(msg) = back_rx.try_recv() {
            on_back(msg, &mut held, &mut inflight);
        }
        while tasks.try_join_next().is_some() {}
        let now = Instant::now();
        stats.inflight.store(inflight as u64, Relaxed);
        stats.hosts_known.store(held.len() as u64, Relaxed);
        if *stop_rx.borrow() && stopping.is_none() {
            stopping = Some(now + Duration::from_secs(c.shutdown_grace_secs));
        }
        if let Some(deadline) = stopping {
            if inflight == 0 || now >= deadline {
                break;
            }
            tokio::select! {
                Some(msg) = back_rx.recv() => on_back(msg, &mut held, &mut inflight),
                _ = tokio::time::sleep_until(deadline.into()) => {}
            }
            continue;
        }
        if now >= next_beat {
            let r = db
                .heartbeat(
                    &cluster.worker,
                    stats.fetched.load(Relaxed),
                    refused.load(Relaxed),
                    held.len(),
                    false,
                )
                .await;
            match r {
                Ok(()) => {
                    if db_down {
                        tracing::info!("the cluster database is back");
                        stats.store_down.store(false, Relaxed);
                    }
                    db_down = false;
                }
                Err(e) => db_error(&mut db_down, e, "heartbeat", &stats),
            }
            if !db_down {
                let r = sitewide::push_templates(&mut db, &shared, &mut published, &cluster.worker)
                    .await;
                if let Err(e) = r {
                    db_error(&mut db_down, e, "publishing templates", &stats);
                }
            }
            next_beat = now + Duration::from_secs(2);
        }
        if now >= next_count && !db_down {
            let r = sitewide::refresh_counts(&mut db, &shared, &counts).await;
            if let Err(e) = r {
                db_error(&mut db_down, e, "reading page counts", &stats);
            }
            next_count = now + COUNT_EVERY;
        }
        if now >= next_renew {
            let ids: Vec<(i64, i64)> = held.values().map(|h| (h.claim.id, h.claim.epoch)).collect();
            let sent = Instant::now();
            match db.renew(&cluster.worker, &ids, cluster.lease).await {
                Ok(live) => {
                    let live: HashSet<i64> = live.into_iter().collect();
                    let valid = sent + cluster.lease.mul_f64(0.8);
                    held.retain(|name, h| {
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
                    next_renew = now + renew_every;
                }
                Err(e) => {
                    db_error(&mut db_down, e, "renewing leases", &stats);
                    next_renew = now + Duration::from_millis(500);
                }
            }
        }
        if now >= next_seed_poll && !db_down {
            if let Err(e) = load_seeds(&mut db, &store, &shared, &seed_files(), &defaults).await {
                tracing::warn!(error = %e, "loading seeds into the cluster");
            }
            // A stopped host's URLs come back when its cool-down has passed.
            if let Err(e) = db.unpark(false).await {
                tracing::warn!(error = %e, "offering set-aside URLs again");
            }
            next_seed_poll = now + Duration::from_secs(c.seed_poll_secs);
        }
        if held.len() < cluster.max_hosts && now >= next_claim && !db_down {
            match db
                .claim(
                    &cluster.worker,
                    cluster.max_hosts - held.len(),
                    cluster.lease,
                )
                .await
            {
                Ok(claims) => {
                    let got = claims.len();
                    let valid = now + cluster.lease.mul_f64(0.8);
                    if got > 0 {
                        // A host handed over: its seed's count as its last
                        // holder left it, before its first fetch here.
                        let r = sitewide::refresh_counts(&mut db, &shared, &counts).await;
                        if let Err(e) = r {
                            tracing::warn!(error = %e, "reading page counts");
                        }
                    }
                    let names: Vec<String> = claims.iter().map(|c| c.name.clone()).collect();
                    let r =
                        sitewide::pull_templates(&mut db, &shared, &mut published, &names).await;
                    if let Err(e) = r {
                        tracing::warn!(error = %e, "reading the claimed sites' templates");
                    }
                    for claim in claims {
                        tracing::debug!(host = %claim.name, epoch = claim.epoch, "host claimed");
                        fence.set(&claim.name, valid);
                        counts.set_host(&claim.name, claim.fetched);
                        held.insert(
                            claim.name.clone(),
                            Held {
                                claim,
                                queue: VecDeque::new(),
                                busy: false,
                                next_at: now,
                                uncommitted: HashSet::new(),
                                recheck_at: None,
                            },
                        );
                    }
                    next_claim = now + Duration::from_millis(if got > 0 { 50 } else { 300 });
                }
                Err(e) => {
                    db_error(&mut db_down, e, "claiming hosts", &stats);
                    next_claim = now + Duration::from_millis(500);
                }
            }
        }
        // Start what may start.
        let mut wake = now + Duration::from_millis(300);
        let names: Vec<String> = held.keys().cloned().collect();
        for name in names {
            if inflight >= c.max_concurrent || db_down {
                break;
            }
            let Some(h) = held.get_mut(&name) else {
                continue;
            };
            // The fence knows until when the lease is surely live.
            if h.busy || !fence.allows(&name) {
                continue;
            }
            if h.next_at > now {
                wake = wake.min(h.next_at);
                continue;
            }
            if h.queue.is_empty() {
                if h.recheck_at.is_some_and(|t| t > now) {
                    continue;
                }
                match db.due(h.claim.id, cluster.batch).await {
                    Ok(due) => {
                        let fresh: Vec<_> = due
                            .urls
                            .into_iter()
                            .filter(|(hash, _)| !h.uncommitted.contains(hash))
                            .collect();
                        if fresh.is_empty() {
                            match due.next_in {
                                Some(d)
                                    if d < Duration::from_secs(2) || !h.uncommitted.is_empty() =>
                                {
                                    h.recheck_at = Some(now + d.max(Duration::from_millis(100)));
                                }
                                _ => {
                                    if h.uncommitted.is_empty() {
                                        let delay = h.next_at.saturating_duration_since(now);
                                        let claim = h.claim.clone();
                                        held.remove(&name);
                                        fence.set(&name, now);
                                        counts.drop_host(&name);
                                        if let Err(e) = db.release(&claim, delay).await {
                                            db_error(&mut db_down, e, "releasing a host", &stats);
                                        }
                                    } else {
                                        h.recheck_at = Some(now + Duration::from_millis(200));
                                    }
                                }
                            }
                            continue;
                        }
                        h.recheck_at = None;
                        h.queue.extend(fresh);
                    }
                    Err(e) => {
                        db_error(&mut db_down, e, "reading due URLs", &stats);
                        continue;
                    }
                }
            }
            let Some((hash, item)) = h.queue.pop_front() else {
                continue;
            };
            if !shared
                .seeds
                .read()
                .is_ok_and(|s| s.contains_key(&item.seed))
            {
                refresh_seeds(&mut db, &shared).await;
            }
            let Some(h) = held.get_mut(&name) else {
                continue;
            };
            h.busy = true;
            inflight += 1;
            let lease = Lease {
                key: lease_key(h.claim.id, h.claim.epoch, hash),
                host: name.clone(),
                item,
            };
            // A URL whose fetch is cut by shutdown stays queued in the database.
            schedule::spawn_fetch(&mut tasks, &shared, lease, &cpu_tx, &write_tx);
        }
        for h in held.values() {
            if let Some(t) = h.recheck_at {
                wake = wake.min(t);
            }
        }
        if opts.exit_when_idle
            && held.is_empty()
            && inflight == 0
            && pending.load(Relaxed) == 0
            && !db_down
        {
            match db.idle().await {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => db_error(&mut db_down, e, "checking for work", &stats),
            }
        }
        let wake = wake
            .min(next_renew)
            .min(next_claim.max(now + Duration::from_millis(20)));
        tokio::select! {
            Some(msg) = back_rx.recv() => on_back(msg, &mut held, &mut inflight),
            _ = tokio::time::sleep_until(wake.into()) => {}
            _ = stop_rx.changed() => {}
        }
    }

    // Shutdown: fetches still running after the grace period are dropped
    // (their URLs stay queued in the database), the CPU and writer stages
    // drain, the hosts go back to the cluster.
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    drop(cpu_tx);
    drop(write_tx);
    for t in cpu_threads {
        let _ = t.join(); // a CPU thread catches its pages' panics
    }
    let _ = writer.await; // the writer catches its own errors
    while let Ok(msg) = back_rx.try_recv() {
        on_back(msg, &mut held, &mut inflight);
    }
    for h in held.values() {
        let delay = h.next_at.saturating_duration_since(Instant::now());
        if let Err(e) = db.release(&h.claim, delay).await {
            tracing::warn!(host = %h.claim.name, error = %e, "could not release a host; its lease expires");
        }
    }
    // Templates learned since the last heartbeat.
    let pushed = sitewide::push_templates(&mut db, &shared, &mut published, &cluster.worker).await;
    if let Err(e) = pushed {
        tracing::warn!(error = %e, "templates not published; the next start publishes them");
    }
    let _ = db
        .heartbeat(
            &cluster.worker,
            stats.fetched.load(Relaxed),
            refused.load(Relaxed),
            0,
            true,
        )
        .await; // best effort: the status shows the worker silent otherwise
    if let Some(f) = &focus {
        learning::save_model(f, &store);
    }
    store.flush().await?;
    let left = pending.load(Relaxed);
    if left > 0 {
        tracing::warn!(
            completions = left,
            "stopped with completions in the outbox; the next start commits them"
        );
    }
    let snap = stats.snapshot();
    tracing::info!("{}", snap.line());
    Ok(snap)
}

/// How often a worker reads the cluster's page counts (when budgets are set).
const COUNT_EVERY: Duration = Duration::from_millis(500);

/// Notes that the database is away (said once per outage).
fn db_error(down: &mut bool, e: ClusterError, what: &str, stats: &Stats) {
    if !*down {
        tracing::warn!(error = %e, "{what}: the cluster database is away; backing off");
    }
    stats.store_error(format!("cluster database: {e}"));
    *down = true;
}

fn on_back(msg: Back, held: &mut HashMap<String, Held>, inflight: &mut usize) {
    match msg {
        Back::Finished {
            host,
            hash,
            delay,
            hold,
            committed,
        } => {
            *inflight = inflight.saturating_sub(1);
            if let Some(h) = held.get_mut(&host) {
                h.busy = false;
                let now = Instant::now();
                h.next_at = hold.unwrap_or(now).max(now + delay);
                if !committed {
                    h.uncommitted.insert(hash);
                }
            }
        }
        Back::Committed { host, hash } => {
            if let Some(h) = held.get_mut(&host) {
                h.uncommitted.remove(&hash);
            }
        }
    }
}

/// Reads the cluster's seeds into the shared map (seeds added by any worker).
async fn refresh_seeds(db: &mut Conn, shared: &Shared) {
    match db.seeds().await {
        Ok(all) => {
            if let Ok(mut s) = shared.seeds.write() {
                s.extend(all);
            }
        }
        Err(e) => tracing::warn!(error = %e, "reading the cluster's seeds"),
    }
}

/// Seed files that changed since this worker last read them: their seeds
/// registered cluster-wide and their URLs queued.
async fn load_seeds(
    db: &mut Conn,
    store: &Store,
    shared: &Shared,
    files: &[std::path::PathBuf],
    defaults: &seeds::SeedDefaults,
) -> Result<(), CrawlError> {
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
            if let Ok(mut s) = shared.seeds.write() {
                s.insert(*id, seed.clone());
            }
            urls.push(NewUrl {
                host: seed.host.clone(),
                item: QueuedUrl {
                    url: seed.url.clone(),
                    depth: 0,
                    seed: *id,
                    attempt: 0,
                    kind: UrlKind::Page,
                    priority: 1.0,
                    features: None,
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

/// What the writer works with.
struct WriterCtx {
    conn: Conn,
    worker: String,
    outbox: Tree,
    store: Store,
    focus: Option<Arc<Focus>>,
    stats: Arc<Stats>,
    back: mpsc::UnboundedSender<Back>,
    /// Completions in the outbox.
    pending: Arc<AtomicUsize>,
    refused: Arc<AtomicU64>,
    counts: Arc<ClusterCounts>,
    /// Completions per transaction.
    batch: usize,
}

/// An outbox entry: the completion and the host it belongs to.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    host: String,
    /// The URL's seed (its page counts).
    #[serde(default)]
    seed: u32,
    finish: Finish,
}

fn to_finish(msg: WriterMsg) -> Option<(Entry, Duration, Option<Instant>)> {
    let (host_id, epoch, hash) = from_lease_key(&msg.lease.key)?;
    let links = |links: Vec<NewUrl>| links.into_iter().map(|n| (n.host, n.item)).collect();
    let now = Instant::now();
    let (end, links) = match msg.completion {
        Completion::Done {
            outcome,
            record,
            links: l,
            counted,
            simhash,
        } => (
            FinishEnd::Done {
                outcome,
                record,
                counted: counted.is_some(),
                simhash,
            },
            links(l),
        ),
        Completion::Retry { item } => (
            FinishEnd::Retry {
                attempt: item.attempt,
                wait_ms: msg
                    .hold
                    .map_or(0, |t| t.saturating_duration_since(now).as_millis() as u64),
            },
            vec![],
        ),
        Completion::Park { outcome, until, .. } => (
            FinishEnd::Park {
                outcome,
                wait_ms: (until != u64::MAX).then(|| {
                    until
                        .saturating_sub(crate::record::now_secs())
                        .saturating_mul(1000)
                }),
            },
            vec![],
        ),
    };
    let delay_ms = msg
        .hold
        .map_or(msg.delay, |t| {
            t.saturating_duration_since(now).max(msg.delay)
        })
        .as_millis() as u64;
    Some((
        Entry {
            host: msg.lease.host,
            seed: msg.lease.item.seed,
            finish: Finish {
                host_id,
                epoch,
                hash,
                end,
                links,
                delay_ms,
            },
        },
        msg.delay,
        msg.hold,
    ))
}

/// How long the writer waits before trying the database again.
const RETRY: Duration = Duration::from_secs(1);

/// The writer: each completion into the outbox, then into the database.
async fn writer(mut w: WriterCtx, mut rx: mpsc::Receiver<WriterMsg>) {
    let mut next_key: u64 = match w.outbox.scan::<Entry>(b"") {
        Ok(entries) => {
            w.pending.store(entries.len(), Relaxed);
            if !entries.is_empty() {
                tracing::info!(
                    completions = entries.len(),
                    "replaying the outbox of an earlier run"
                );
            }
            entries
                .last()
                .and_then(|(k, _)| k.as_slice().try_into().ok().map(u64::from_be_bytes))
                .map_or(0, |k| k + 1)
        }
        Err(e) => {
            tracing::error!(error = %e, "the outbox does not read; its completions are fetched again by the cluster");
            0
        }
    };
    let mut retry_at: Option<Instant> = None;
    loop {
        let msg = if w.pending.load(Relaxed) > 0 {
            let at = retry_at.unwrap_or_else(Instant::now);
            tokio::select! {
                m = rx.recv() => m,
                _ = tokio::time::sleep_until(at.into()) => {
                    if drain(&mut w).await { retry_at = None } else { retry_at = Some(Instant::now() + RETRY) }
                    continue;
                }
            }
        } else {
            rx.recv().await
        };
        let Some(msg) = msg else { break };
        // What else is waiting joins this commit (up to a batch).
        let mut msgs = vec![msg];
        while msgs.len() < w.batch {
            match rx.try_recv() {
                Ok(m) => msgs.push(m),
                Err(_) => break,
            }
        }
        let mut ended = Vec::with_capacity(msgs.len());
        for msg in msgs {
            if let (Some(f), Completion::Done { outcome, .. }) = (&w.focus, &msg.completion) {
                learning::learn(f, &w.store, &w.stats, &msg.lease, outcome);
            }
            let Some((entry, delay, hold)) = to_finish(msg) else {
                continue;
            };
            ended.push((entry.host.clone(), entry.finish.hash, delay, hold));
            let key = next_key.to_be_bytes();
            next_key += 1;
            if let Err(e) = w.outbox.put(&key, &entry) {
                tracing::error!(error = %e, "cannot write the outbox");
            } else {
                w.pending.fetch_add(1, Relaxed);
            }
        }
        // Older entries first: a retry timer may be pending.
        let committed = retry_at.is_none_or(|t| t <= Instant::now()) && drain(&mut w).await;
        if !committed && retry_at.is_none() {
            retry_at = Some(Instant::now() + RETRY);
        }
        for (host, hash, delay, hold) in ended {
            let _ = w.back.send(Back::Finished {
                host,
                hash,
                delay,
                hold,
                committed,
            });
        }
    }
    // Last tries before the worker ends; what stays is committed next start.
    let deadline = Instant::now() + Duration::from_secs(10);
    while w.pending.load(Relaxed) > 0 && Instant::now() < deadline && !drain(&mut w).await {
        tokio::time::sleep(RETRY).await;
    }
    let _ = w.store.flush().await;
}

/// Commits the outbox in order, a batch per transaction; true when it is
/// empty.
async fn drain(w: &mut WriterCtx) -> bool {
    let entries = match w.outbox.scan::<Entry>(b"") {
        Ok(e) => e,
        Err(e) => {
            tracing::error!(error = %e, "cannot read the outbox");
            return false;
        }
    };
    for chunk in entries.chunks(w.batch) {
        let finishes: Vec<Finish> = chunk.iter().map(|(_, e)| e.finish.clone()).collect();
        match w.conn.finish_batch(&w.worker, &finishes).await {
            Ok(written) => {
                for ((key, entry), written) in chunk.iter().zip(written) {
                    committed(w, key, entry, written);
                }
            }
            Err(e) if e.is_transient() => {
                w.conn.reset();
                w.stats.store_error(format!("cluster database: {e}"));
                return false;
            }
            // A statement that cannot succeed: one by one, to find it.
            Err(_) => {
                for (key, entry) in chunk {
                    match w.conn.finish(&w.worker, &entry.finish).await {
                        Ok(written) => committed(w, key, entry, written),
                        Err(e) if e.is_transient() => {
                            w.conn.reset();
                            w.stats.store_error(format!("cluster database: {e}"));
                            return false;
                        }
                        Err(e) => {
                            // Dropped rather than block the outbox forever;
                            // the URL stays queued.
                            tracing::error!(error = %e, "a completion cannot be committed; dropped (its URL is fetched again)");
                            if w.outbox.remove(key).unwrap_or(false) {
                                w.pending.fetch_sub(1, Relaxed);
                            }
                        }
                    }
                }
            }
        }
    }
    true
}

/// An outbox entry reached the database: counted, removed, reported.
fn committed(w: &WriterCtx, key: &[u8], entry: &Entry, written: Written) {
    match written {
        Written::Applied { record, counted } => {
            if record {
                w.stats.records.fetch_add(1, Relaxed);
            }
            if counted {
                w.counts.fetched(&entry.host, entry.seed);
            }
        }
        Written::Refused => {
            w.refused.fetch_add(1, Relaxed);
            tracing::warn!(host = %entry.host, "a completion was refused: another worker holds the host now and fetches the URL again");
        }
    }
    if w.outbox.remove(key).unwrap_or(false) {
        w.pending.fetch_sub(1, Relaxed);
    }
    let _ = w.back.send(Back::Committed {
        host: entry.host.clone(),
        hash: entry.finish.hash,
    });
}
