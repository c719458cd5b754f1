//! The crawl daemon: wiring, scheduling, shutdown.
//!
//! ```text
//!  seeds/*.txt ─► scheduler (owns the Frontier) ─► fetch tasks (tokio, ≤ max_concurrent)
//!                      ▲                              │ bounded channel
//!                      │                              ▼
//!                      │                         CPU threads (decode, parse, extract, links)
//!                      │                              │ bounded channel
//!                      └──── finished(host) ◄── store writer thread (one sled transaction per URL)
//! ```
//!
//! Every leased URL ends in exactly one store transaction (done, dropped, or
//! back in the queue) and one `finished` message, so the scheduler always
//! knows what is in flight. On SIGINT/SIGTERM it stops leasing, gives
//! in-flight fetches `shutdown_grace_secs`, flushes the store and returns;
//! unfinished leases are re-queued on the next start.
//!
//! A run is a series of sessions over one store handle. When the store
//! cannot write (disk full), the writer says so, the session stops leasing,
//! lets in-flight work arrive and ends; [`run`] then reopens the store every
//! few seconds, replays the completed pages the writer kept in memory, and
//! starts the next session: nothing fetched is lost or fetched again.

mod fetch_task;
pub mod harvest;
pub mod pipeline;
pub mod seeds;
pub mod shop;
mod sitemap;
pub mod stats;
pub mod status;
pub mod templates;
mod writer;

use std::collections::HashMap;
use std::io::IsTerminal;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::config::Config;
use crate::fetch::{FetchConfig, Fetcher, HttpFetcher};
use crate::focus::{Focus, LinkModel, Strategy};
use crate::frontier::url::UrlRules;
use crate::frontier::Lease;
use crate::frontier::{Frontier, Next};
use crate::politeness::DelayRules;
use crate::store::{NewUrl, PageOutcome, QueuedUrl, Store, StoreError, UrlKind};
use pipeline::{FetchResult, Shared, WriterMsg};
use seeds::{Mode, Scope, Seed, SeedDefaults};
pub use stats::{Snapshot, Stats};

/// Why the daemon stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Client(#[from] crate::fetch::ClientError),
    #[error("status endpoint {addr}: {source}")]
    Status {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot start: {0}")]
    Start(String),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error("stopped while the store could not write ({error}); {pages} fetched pages were not saved and will be fetched again on the next start")]
    StoppedWhileDown { error: String, pages: usize },
}

/// How a session ended.
enum SessionEnd {
    /// Stopped by a signal or, with `exit_when_idle`, done.
    Finished(Box<Snapshot>),
    /// The store could not write: completions not known to be on disk.
    StoreDown(Vec<WriterMsg>),
}

/// A function called with each page's URL in the CPU stage, before
/// extraction: a test hook (a panicking extractor) — `None` in real crawls.
#[derive(Clone)]
pub struct PageHook(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for PageHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageHook")
    }
}

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Seed files; when given they replace the seeds directory.
    pub extra_seeds: Vec<PathBuf>,
    /// Return when the frontier is empty and nothing is in flight (instead
    /// of waiting for new seeds).
    pub exit_when_idle: bool,
    /// Overrides `focus.strategy`.
    pub strategy: Option<crate::focus::Strategy>,
    #[doc(hidden)]
    pub page_hook: Option<PageHook>,
}

/// Messages to the scheduler.
pub(crate) enum Sched {
    Finished {
        host: String,
        delay: Duration,
        hold: Option<Instant>,
    },
}

fn seed_defaults(cfg: &Config) -> SeedDefaults {
    SeedDefaults {
        max_depth: cfg.crawl.max_depth,
        scope: Scope::parse(&cfg.crawl.scope).unwrap_or(Scope::Host),
        sitemaps: cfg.crawl.sitemaps,
        mode: if cfg.crawl.mode == "ecommerce" {
            Mode::Ecommerce
        } else {
            Mode::Article
        },
        topics: cfg.focus.topics.keys().cloned().collect(),
    }
}

/// Reads seed files that changed since the last look; registers their seeds
/// and queues their URLs (known URLs are not queued again).
fn load_seeds(
    store: &Store,
    shared: &Shared,
    files: &[PathBuf],
    defaults: &SeedDefaults,
    frontier: &mut Frontier,
) -> Result<usize, StoreError> {
    let mut added = 0;
    for file in files {
        let text = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                tracing::warn!(file = %file.display(), error = %e, "cannot read seed file");
                continue;
            }
        };
        let key = format!("seedfile:{}", file.display());
        let hash = xxhash_rust::xxh3::xxh3_64(text.as_bytes()).to_be_bytes();
        if store.meta_get(&key)?.as_deref() == Some(&hash[..]) {
            continue;
        }
        let (seeds, errors) =
            seeds::parse(&text, &file.display().to_string(), defaults, &shared.rules);
        for e in &errors {
            tracing::warn!("bad seed line skipped: {e}");
        }
        for seed in seeds {
            let id_key = format!("seedid:{}", seed.url);
            let id = match store.meta_get(&id_key)? {
                Some(v) if v.len() == 4 => u32::from_be_bytes([v[0], v[1], v[2], v[3]]),
                _ => {
                    let next = store
                        .meta_get("seed_next")?
                        .filter(|v| v.len() == 4)
                        .map_or(1, |v| u32::from_be_bytes([v[0], v[1], v[2], v[3]]));
                    store.meta_put("seed_next", &(next + 1).to_be_bytes())?;
                    store.meta_put(&id_key, &next.to_be_bytes())?;
                    next
                }
            };
            store.put_seed(id, &seed)?;
            if let Ok(mut s) = shared.seeds.write() {
                s.insert(id, seed.clone());
            }
            let new = NewUrl {
                host: seed.host.clone(),
                item: QueuedUrl {
                    url: seed.url.clone(),
                    depth: 0,
                    seed: id,
                    attempt: 0,
                    kind: UrlKind::Page,
                    priority: 1.0,
                    features: None,
                },
            };
            let n = store.enqueue(&[new])?;
            if n > 0 {
                frontier.host_has_work(&seed.host);
                added += n;
            }
        }
        store.meta_put(&key, &hash)?;
        tracing::info!(file = %file.display(), bad_lines = errors.len(), "seed file loaded");
    }
    Ok(added)
}

/// Feeds a judged page to the harvest rate and, through the link that led to
/// it, to the link model (stored every 50 updates and at shutdown).
fn learn(f: &Focus, store: &Store, stats: &Stats, lease: &Lease, outcome: &PageOutcome) {
    let Some(relevant) = outcome.relevant else {
        return;
    };
    if let Some(h) = stats.harvest.get() {
        h.judge(&lease.host, relevant);
    }
    if let Some(q) = &lease.item.features {
        let label = if relevant { 1.0 } else { 0.0 };
        if f.learn(q, label) % 50 == 0 {
            save_model(f, store);
        }
    }
}

fn save_model(f: &Focus, store: &Store) {
    if let Err(e) = store.meta_put(crate::focus::MODEL_KEY, &f.model_json()) {
        tracing::warn!(error = %e, "link model not saved");
    }
}

/// Main texts of the topics' example URLs: fetched once, then kept in the
/// store (a restart, even offline, judges pages the same way). A URL that
/// cannot be fetched is logged and left out.
async fn example_texts(
    cfg: &Config,
    store: &Store,
    fetcher: &dyn Fetcher,
) -> Result<HashMap<String, String>, CrawlError> {
    let mut out = HashMap::new();
    for url in cfg.focus.example_urls() {
        let key = format!("example_url:{url}");
        if let Some(text) = store.meta_get(&key)? {
            out.insert(url, String::from_utf8_lossy(&text).into_owned());
            continue;
        }
        let r = fetcher.get(&url).await;
        if r.is_transport_error() || !(200..=299).contains(&r.status) {
            tracing::warn!(url, status = r.status, error = ?r.error, "focus example URL not fetched");
            continue;
        }
        match trawl_extract::extract(
            &r.body,
            &trawl_extract::Options {
                url: Some(url.clone()),
                ..cfg.extract_options()
            },
        ) {
            Ok(ex) if !ex.text.trim().is_empty() => {
                store.meta_put(&key, ex.text.as_bytes())?;
                out.insert(url, ex.text);
            }
            Ok(_) => tracing::warn!(url, "focus example URL has no main text"),
            Err(e) => tracing::warn!(url, error = %e, "focus example URL not extracted"),
        }
    }
    Ok(out)
}

/// The crawl's focus, with the link model learned by earlier runs.
fn build_focus(
    cfg: &Config,
    opts: &RunOptions,
    store: &Store,
    fetched: &HashMap<String, String>,
) -> Result<Option<Arc<Focus>>, CrawlError> {
    let topic = cfg.focus.topic(fetched)?;
    let topics = cfg.focus.named_topics(fetched)?;
    if topic.is_none() && topics.is_empty() {
        return Ok(None);
    }
    let f = &cfg.focus;
    let strategy = opts
        .strategy
        .or_else(|| Strategy::parse(&f.strategy))
        .unwrap_or(Strategy::Focused);
    let model = store
        .meta_get(crate::focus::MODEL_KEY)?
        .and_then(|b| LinkModel::from_json(&b, f.learning_rate))
        .unwrap_or_else(|| LinkModel::new(f.learning_rate));
    Ok(Some(Arc::new(Focus::new(
        topic,
        topics,
        strategy,
        f.threshold,
        model,
    ))))
}

/// Runs the daemon until a signal (or, with `exit_when_idle`, until done).
pub async fn run(cfg: Config, opts: RunOptions) -> Result<Snapshot, CrawlError> {
    let c = &cfg.crawl;
    crate::store::alloc::tune_allocator();
    #[cfg(unix)]
    // SAFETY: installs the ignore disposition for one signal before the
    // runtime's threads use it; no handler code runs. A file-size limit
    // (ulimit -f) then fails the write with EFBIG, which the writer
    // handles like a full disk, instead of killing the daemon.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let fetcher: Arc<dyn Fetcher> = Arc::new(HttpFetcher::new(&FetchConfig {
        user_agent: c.user_agent.clone(),
        connect_timeout: Duration::from_secs(c.connect_timeout_secs),
        timeout: Duration::from_secs(c.timeout_secs),
        max_body_bytes: c.max_body_bytes,
    })?);
    run_with(cfg, opts, fetcher).await
}

/// Opens the store of `cfg` (creating its directory).
fn open_store(cfg: &Config) -> Result<Store, StoreError> {
    let c = &cfg.crawl;
    Store::open_sized(&c.data_dir, c.store_cache_mb << 20, c.seen_filter_mb << 20)
}

/// [`run`] with a given fetcher (tests, benchmarks).
pub async fn run_with(
    cfg: Config,
    opts: RunOptions,
    fetcher: Arc<dyn Fetcher>,
) -> Result<Snapshot, CrawlError> {
    let c = cfg.crawl.clone();
    let stats = Arc::new(Stats::default());
    let store = open_store(&cfg)?;
    let dir = std::fs::canonicalize(&c.data_dir).unwrap_or_else(|_| c.data_dir.clone());
    let _ = stats.data_dir.set(dir.display().to_string()); // set once, here
    let slot: status::StoreSlot = Arc::new(RwLock::new(Some(store.clone())));

    // Status endpoint, progress line and signals outlive sessions.
    let status_task = if c.status_addr.is_empty() {
        None
    } else {
        let listener = tokio::net::TcpListener::bind(&c.status_addr)
            .await
            .map_err(|source| CrawlError::Status {
                addr: c.status_addr.clone(),
                source,
            })?;
        tracing::info!(addr = %c.status_addr, "status endpoint listening");
        Some(tokio::spawn(status::serve(
            listener,
            stats.clone(),
            slot.clone(),
        )))
    };
    let progress_task = tokio::spawn(progress(stats.clone()));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("shutdown requested: finishing in-flight work");
        // The receivers live as long as the run.
        let _ = stop_tx.send(true);
    });

    let mut store = Some(store);
    let mut backlog: Vec<WriterMsg> = Vec::new();
    let result = loop {
        let current = match store.take() {
            Some(s) => s,
            None => match open_store(&cfg) {
                Ok(s) => s,
                Err(e) => {
                    stats.store_error(format!("reopening the store: {e}"));
                    if wait_or_stop(stop_rx.clone(), STORE_RETRY).await {
                        break stopped_while_down(&stats, backlog.len());
                    }
                    continue;
                }
            },
        };
        if !backlog.is_empty() {
            if let Err(e) = writer::replay(&current, &backlog) {
                stats.store_error(format!("store still cannot write: {e}"));
                drop(current);
                if wait_or_stop(stop_rx.clone(), STORE_RETRY).await {
                    break stopped_while_down(&stats, backlog.len());
                }
                continue;
            }
            tracing::warn!(
                pages = backlog.len(),
                "the store writes again: kept pages saved, crawl resumes"
            );
            backlog.clear();
        }
        stats.store_down.store(false, Relaxed);
        if let Ok(mut g) = slot.write() {
            *g = Some(current.clone());
        }
        let end = session(
            &cfg,
            &opts,
            current,
            fetcher.clone(),
            stats.clone(),
            stop_rx.clone(),
        )
        .await;
        // The next session opens a new handle; sled allows one at a time.
        if let Ok(mut g) = slot.write() {
            *g = None;
        }
        match end {
            Ok(SessionEnd::Finished(snap)) => break Ok(*snap),
            Ok(SessionEnd::StoreDown(kept)) => {
                backlog = kept;
                if *stop_rx.borrow() {
                    break stopped_while_down(&stats, backlog.len());
                }
                if wait_or_stop(stop_rx.clone(), STORE_RETRY).await {
                    break stopped_while_down(&stats, backlog.len());
                }
            }
            Err(e) => break Err(e),
        }
    };
    progress_task.abort();
    if let Some(t) = status_task {
        t.abort();
    }
    result
}

/// How long the daemon waits between attempts to reopen a store that could not write.
const STORE_RETRY: Duration = Duration::from_secs(3);

/// Sleeps `d` unless a stop is requested first (then returns true).
async fn wait_or_stop(mut stop: tokio::sync::watch::Receiver<bool>, d: Duration) -> bool {
    if *stop.borrow() {
        return true;
    }
    tokio::select! {
        _ = tokio::time::sleep(d) => *stop.borrow(),
        _ = stop.changed() => true,
    }
}

fn stopped_while_down(stats: &Stats, pages: usize) -> Result<Snapshot, CrawlError> {
    let error = stats
        .last_error
        .lock()
        .ok()
        .and_then(|g| g.clone())
        .unwrap_or_else(|| "store error".into());
    Err(CrawlError::StoppedWhileDown { error, pages })
}

/// One session over one store handle: until a stop, the end of the work
/// (`exit_when_idle`), or the store going down.
async fn session(
    cfg: &Config,
    opts: &RunOptions,
    store: Store,
    fetcher: Arc<dyn Fetcher>,
    stats: Arc<Stats>,
    mut stop_rx: tokio::sync::watch::Receiver<bool>,
) -> Result<SessionEnd, CrawlError> {
    let c = cfg.crawl.clone();
    let agent = c
        .user_agent
        .split(['/', ' '])
        .next()
        .unwrap_or("trawl")
        .to_string();
    let limiter = NonZeroU32::new(c.requests_per_second)
        .map(|n| governor::RateLimiter::direct(governor::Quota::per_second(n)));
    // Durable at once: a crash of this session must be seen as one.
    let clean_start = store.take_clean_stop()?;
    store.flush().await?;
    let min_delay = Duration::from_millis(c.min_delay_ms);
    let examples = example_texts(cfg, &store, fetcher.as_ref()).await?;
    let focus = build_focus(cfg, opts, &store, &examples)?;
    let shared = Arc::new(Shared {
        store: store.clone(),
        fetcher,
        stats: stats.clone(),
        seeds: RwLock::new(store.seeds::<Seed>()?.into_iter().collect()),
        robots: Mutex::new(HashMap::new()),
        rules: UrlRules {
            strip_params: c.strip_params.clone(),
            sort_query: c.sort_query,
            max_len: c.max_url_len,
        },
        delays: DelayRules {
            min_delay,
            max_crawl_delay: Duration::from_secs(c.max_crawl_delay_secs),
            retry_base: Duration::from_millis(c.retry_base_ms),
            retry_max: Duration::from_secs(c.retry_max_secs),
        },
        extract: cfg.extract_options(),
        agent,
        max_redirects: c.max_redirects,
        max_retries: c.max_retries,
        max_pages: c.max_pages,
        max_pages_per_host: c.max_pages_per_host,
        robots_ttl: Duration::from_secs(c.robots_cache_hours.max(1) * 3600),
        clock: crate::politeness::clock::Clock::new(store.clone(), clean_start),
        health: crate::politeness::budget::ErrorBudget::new(c.host_error_budget),
        error_budget: c.host_error_budget,
        limiter,
        focus: focus.clone(),
        shop: shop::Shop::new(c.template_samples),
        page_hook: opts.page_hook.clone(),
    });
    if let Some(f) = &focus {
        if stats.harvest.get().is_none() {
            let harvest = harvest::Harvest::new(
                Some(c.data_dir.join("harvest.jsonl")),
                cfg.focus.series_every,
                store.count(crate::store::Counter::Judged)?,
                store.count(crate::store::Counter::Relevant)?,
            );
            let _ = stats.harvest.set(harvest); // set once, here
        }
        tracing::info!(
            strategy = ?f.strategy,
            model_updates = f.model_updates(),
            "focused crawl"
        );
    }
    let mut frontier = Frontier::new(store.clone(), c.max_per_host)?;
    if focus
        .as_ref()
        .is_some_and(|f| f.strategy == Strategy::Focused)
    {
        frontier.set_patience(cfg.focus.patience);
    }
    stats.queue.store(store.queue_len_hint(), Relaxed);

    // Pipeline stages.
    let threads = match cfg.extract.threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let (cpu_tx, cpu_rx) = mpsc::channel::<pipeline::CpuJob>(threads * 4);
    let (write_tx, write_rx) = mpsc::channel::<WriterMsg>(threads * 16);
    let (sched_tx, mut sched_rx) = mpsc::unbounded_channel::<Sched>();
    let cpu_rx = Arc::new(Mutex::new(cpu_rx));
    let mut cpu_threads = Vec::new();
    for i in 0..threads {
        let rx = cpu_rx.clone();
        let tx = write_tx.clone();
        let shared = shared.clone();
        let handle = std::thread::Builder::new()
            .name(format!("trawl-cpu-{i}"))
            .spawn(move || loop {
                // The lock is held only while waiting for the next job.
                let job = match rx.lock() {
                    Ok(mut guard) => guard.blocking_recv(),
                    Err(_) => None,
                };
                let Some(job) = job else { break };
                if tx
                    .blocking_send(pipeline::process_guarded(&shared, job))
                    .is_err()
                {
                    break;
                }
            })
            .map_err(|e| CrawlError::Start(format!("CPU thread: {e}")))?;
        cpu_threads.push(handle);
    }
    let writer = {
        let (store, focus, stats, sched_tx) = (
            store.clone(),
            focus.clone(),
            stats.clone(),
            sched_tx.clone(),
        );
        std::thread::Builder::new()
            .name("trawl-writer".into())
            .spawn(move || writer::run(store, focus, stats, sched_tx, write_rx))
            .map_err(|e| CrawlError::Start(format!("writer thread: {e}")))?
    };

    let defaults = seed_defaults(cfg);
    let seed_files = || seeds::files(&c.seeds_dir, &opts.extra_seeds);
    let added = load_seeds(&store, &shared, &seed_files(), &defaults, &mut frontier)?;
    tracing::info!(
        new_urls = added,
        queue = store.queue_len_hint(),
        "crawl starting"
    );
    let mut next_seed_poll = Instant::now() + Duration::from_secs(c.seed_poll_secs);
    let mut tasks: JoinSet<()> = JoinSet::new();
    let mut inflight: usize = 0;
    let mut stopping: Option<Instant> = None;
    let down = |stats: &Stats| stats.store_down.load(Relaxed);
    // A failed store read or write pauses fetching (see `writer`).
    let check = |r: Result<(), StoreError>, stats: &Stats| {
        if let Err(e) = r {
            stats.store_error(format!("store read failed: {e}"));
        }
    };

    loop {
        while let Ok(msg) = sched_rx.try_recv() {
            check(apply(msg, &mut frontier, &mut inflight), &stats);
        }
        while tasks.try_join_next().is_some() {}
        let now = Instant::now();
        let (waiting, known) = frontier.host_counts(now);
        stats.hosts_waiting.store(waiting as u64, Relaxed);
        stats.hosts_known.store(known as u64, Relaxed);
        stats.inflight.store(inflight as u64, Relaxed);

        if *stop_rx.borrow() && stopping.is_none() {
            stopping = Some(now + Duration::from_secs(c.shutdown_grace_secs));
        }
        if down(&stats) && inflight == 0 {
            break;
        }
        if let Some(deadline) = stopping.filter(|_| !down(&stats)) {
            if inflight == 0 || now >= deadline {
                break;
            }
            tokio::select! {
                Some(msg) = sched_rx.recv() => check(apply(msg, &mut frontier, &mut inflight), &stats),
                _ = tokio::time::sleep_until(deadline.into()) => {}
            }
            continue;
        }
        if down(&stats) {
            // Let in-flight work reach the writer, which keeps it.
            if let Some(msg) = sched_rx.recv().await {
                check(apply(msg, &mut frontier, &mut inflight), &stats);
            }
            continue;
        }
        if now >= next_seed_poll {
            if let Err(e) = load_seeds(&store, &shared, &seed_files(), &defaults, &mut frontier) {
                stats.store_error(format!("loading seeds: {e}"));
            }
            next_seed_poll = now + Duration::from_secs(c.seed_poll_secs);
        }
        let wake = if inflight < c.max_concurrent {
            match frontier.next(now) {
                Err(e) => {
                    stats.store_error(format!("store read failed: {e}"));
                    continue;
                }
                Ok(Next::Url(lease)) => {
                    inflight += 1;
                    let shared = shared.clone();
                    let cpu_tx = cpu_tx.clone();
                    let write_tx = write_tx.clone();
                    tasks.spawn(async move {
                        match fetch_task::fetch(&shared, lease).await {
                            FetchResult::Cpu(job) => {
                                // Closed only during shutdown; the lease stays in-flight and is re-queued.
                                let _ = cpu_tx.send(job).await;
                            }
                            FetchResult::Write(msg) => {
                                // Same: closed only during shutdown.
                                let _ = write_tx.send(msg).await;
                            }
                        }
                    });
                    continue;
                }
                Ok(Next::Wait(at)) => at.min(next_seed_poll),
                Ok(Next::Empty) => {
                    if opts.exit_when_idle && inflight == 0 {
                        break;
                    }
                    next_seed_poll
                }
            }
        } else {
            next_seed_poll
        };
        tokio::select! {
            Some(msg) = sched_rx.recv() => check(apply(msg, &mut frontier, &mut inflight), &stats),
            _ = tokio::time::sleep_until(wake.into()) => {}
            _ = stop_rx.changed() => {}
        }
    }

    // Shutdown: stop fetches still running after the grace period (their
    // leases stay in `inflight` and are re-queued next start), drain the
    // CPU and writer stages, flush.
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    drop(cpu_tx);
    drop(write_tx);
    for t in cpu_threads {
        let _ = t.join(); // a CPU thread catches its pages' panics; nothing else to report
    }
    let kept = writer.join().unwrap_or_default();
    drop(frontier);
    drop(shared);
    if down(&stats) {
        return Ok(SessionEnd::StoreDown(kept));
    }
    store.flush().await?;
    store.mark_clean_stop()?;
    store.flush().await?;
    let snap = stats.snapshot();
    tracing::info!("{}", snap.line());
    Ok(SessionEnd::Finished(Box::new(snap)))
}

fn apply(msg: Sched, frontier: &mut Frontier, inflight: &mut usize) -> Result<(), StoreError> {
    let Sched::Finished { host, delay, hold } = msg;
    *inflight = inflight.saturating_sub(1);
    if let Some(until) = hold {
        frontier.hold(&host, until);
    }
    frontier.finished(&host, delay)?;
    Ok(())
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                // No SIGTERM handler could be installed: Ctrl-C still works.
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        // An error here means no handler: the daemon then runs until killed.
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// A live line on a terminal, a log line every 10 s otherwise.
async fn progress(stats: Arc<Stats>) {
    let tty = std::io::stderr().is_terminal();
    let every = if tty {
        Duration::from_millis(500)
    } else {
        Duration::from_secs(10)
    };
    loop {
        tokio::time::sleep(every).await;
        let line = stats.snapshot().line();
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else {
            tracing::info!("{line}");
        }
    }
}
