//! One session of the daemon over one store handle, wired: the shared
//! state, the frontier, the CPU threads and the store writer are started,
//! the scheduler runs until a stop, the end of the work or the store going
//! down, and the stages are drained in order.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio::sync::mpsc;

use super::shared::{CpuJob, Sched, Shared, WriterMsg};
use super::stats::Stats;
use super::{
    harvest, learning, process, schedule, shop, writer, CrawlError, RunOptions, SessionEnd,
};
use crate::config::Config;
use crate::fetch::Fetcher;
use crate::focus::Strategy;
use crate::frontier::url::UrlRules;
use crate::frontier::Frontier;
use crate::politeness::DelayRules;
use crate::seeds::Registry;
use crate::store::Store;

/// One session over one store handle: until a stop, the end of the work
/// (`exit_when_idle`), or the store going down.
pub(super) async fn session(
    cfg: &Config,
    opts: &RunOptions,
    store: Store,
    fetcher: Arc<dyn Fetcher>,
    stats: Arc<Stats>,
    mut stop_rx: tokio::sync::watch::Receiver<bool>,
) -> Result<SessionEnd, CrawlError> {
    let c = cfg.crawl.clone();
    let (shared, focus) = build_shared(
        cfg,
        opts,
        &store,
        fetcher,
        &stats,
        Arc::new(super::shared::Local),
    )
    .await?;
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
    let (cpu_tx, cpu_rx) = mpsc::channel::<CpuJob>(threads * 4);
    let (write_tx, write_rx) = mpsc::channel::<WriterMsg>(threads * 16);
    let (sched_tx, mut sched_rx) = mpsc::unbounded_channel::<Sched>();
    let cpu_threads = spawn_cpu(threads, &shared, cpu_rx, &write_tx)?;
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

    let mut tasks = schedule::run(schedule::Scheduler {
        cfg,
        opts,
        store: &store,
        shared: &shared,
        stats: &stats,
        frontier: &mut frontier,
        cpu_tx: &cpu_tx,
        write_tx: &write_tx,
        sched_rx: &mut sched_rx,
        stop_rx: &mut stop_rx,
    })
    .await?;

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
    if stats.store_down.load(Relaxed) {
        return Ok(SessionEnd::StoreDown(kept));
    }
    store.flush().await?;
    store.mark_clean_stop()?;
    store.flush().await?;
    let snap = stats.snapshot();
    tracing::info!("{}", snap.line());
    Ok(SessionEnd::Finished(Box::new(snap)))
}

/// The state every fetch task and CPU thread shares, and the focus of a
/// focused crawl, for a run over `store`.
pub(super) async fn build_shared(
    cfg: &Config,
    opts: &RunOptions,
    store: &Store,
    fetcher: Arc<dyn Fetcher>,
    stats: &Arc<Stats>,
    backend: Arc<dyn super::shared::Backend>,
) -> Result<(Arc<Shared>, Option<Arc<crate::focus::Focus>>), CrawlError> {
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
    let clock = crate::politeness::clock::Clock::new(store.clone(), clean_start);
    let examples = learning::example_texts(cfg, store, fetcher.as_ref(), &clock).await?;
    let focus = learning::build_focus(cfg, opts, store, &examples)?;
    let shared = Arc::new(Shared {
        store: store.clone(),
        fetcher,
        stats: stats.clone(),
        seeds: RwLock::new(Registry::of(store).all()?),
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
        clock,
        health: crate::politeness::budget::ErrorBudget::new(
            c.host_error_budget,
            Duration::from_secs(c.host_stop_cooldown_secs),
        ),
        error_budget: c.host_error_budget,
        limiter,
        focus: focus.clone(),
        shop: shop::Shop::new(c.template_samples, c.template_checks),
        page_hook: opts.page_hook.clone(),
        backend,
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
            strategy = f.strategy.name(),
            model_updates = f.model_updates(),
            "focused crawl"
        );
    }
    Ok((shared, focus))
}

/// Starts the CPU threads: each takes fetched pages from `cpu_rx` and
/// sends their completions to `write_tx`.
pub(super) fn spawn_cpu(
    threads: usize,
    shared: &Arc<Shared>,
    cpu_rx: mpsc::Receiver<CpuJob>,
    write_tx: &mpsc::Sender<WriterMsg>,
) -> Result<Vec<std::thread::JoinHandle<()>>, CrawlError> {
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
                    .blocking_send(process::process_guarded(&shared, job))
                    .is_err()
                {
                    break;
                }
            })
            .map_err(|e| CrawlError::Start(format!("CPU thread: {e}")))?;
        cpu_threads.push(handle);
    }
    Ok(cpu_threads)
}
