//! The one pipeline both daemons run: the single-machine daemon over its
//! sled store (`crawl::local`) and the cluster worker over PostgreSQL
//! (`crawl::worker`).
//!
//! ```text
//!  Leases ─► scheduler ─► fetch tasks (tokio, ≤ max_concurrent) ─► CPU threads
//!    ▲                                                                │ bounded
//!    └──── finished / committed ◄── writer (one thread) ─► Commits ◄──┘
//! ```
//!
//! What differs between the two sits behind two small traits: [`Leases`]
//! (where the scheduler gets URLs: the sled frontier, or the hosts a worker
//! claimed in the shared frontier) and [`Commits`] (how the writer commits
//! a finished URL: a sled transaction with checkpoints, or the outbox and a
//! fenced PostgreSQL transaction). Everything else (robots.txt, redirects,
//! retries, extraction, focus, templates, budgets through
//! [`shared::Backend`]) is this module's, once.
//!
//! Every leased URL ends in exactly one completion and one `finished`
//! message, so the scheduler always knows what is in flight. When the
//! run's shutdown future completes, the scheduler stops leasing, gives
//! in-flight fetches `crawl.shutdown_grace_secs`, and the stages drain in
//! order: fetches, CPU threads, writer.

pub(super) mod archive;
pub(super) mod backend;
pub(super) mod feed;
pub(super) mod fetch_task;
pub(super) mod links;
pub(super) mod process;
pub(super) mod render;
pub(super) mod render_policy;
pub(super) mod revisit;
pub(super) mod schedule;
pub(super) mod seeding;
pub(super) mod shared;
pub(super) mod sitemap;
pub(super) mod sites;
pub(super) mod writer;

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::focused;
use super::harvest;
use super::options::{CrawlError, RunOptions};
use super::stats::Stats;
use super::template;
use crate::config::Config;
use crate::fetch::Fetcher;
use crate::frontier::url::UrlRules;
use crate::politeness::DelayRules;
use crate::seeds::Registry;
use crate::store::Store;
pub(super) use backend::{Commits, Committed, Health, Leases};
pub(super) use shared::Finished;
use shared::{CpuJob, Fetching, Processing, Sched, Shared, Visit};

/// Runs the stages over one backend until a stop, the end of the work
/// (`exit_when_idle`) or the store going down; returns the completions the
/// writer could not save.
pub(super) async fn run<L: Leases, C: Commits>(
    cfg: &Config,
    opts: &RunOptions,
    stages: &Stages,
    leases: &mut L,
    commits: C,
    stop_rx: &mut watch::Receiver<bool>,
) -> Result<Vec<Visit>, CrawlError> {
    let threads = cpu_threads(cfg);
    let Stages {
        fetching: shared,
        processing,
    } = stages;
    let stats = shared.stats.clone();
    let (cpu_tx, cpu_rx) = mpsc::channel::<CpuJob>(threads * 4);
    let (write_tx, write_rx) = mpsc::channel::<Visit>(threads * 16);
    let (sched_tx, mut sched_rx) = mpsc::unbounded_channel::<Sched>();
    let tabs = cfg.render.tabs.max(1);
    let (render_tx, render_rx) = mpsc::channel::<shared::RenderJob>(tabs * 2);
    let renders = tokio::spawn(render::run(
        shared.clone(),
        processing.clone(),
        render_rx,
        write_tx.clone(),
    ));
    let cpu = spawn_cpu(threads, processing, cpu_rx, &write_tx, render_tx)?;
    // The writer has a thread of its own (sled writes and checkpoints
    // block) and a small runtime on it (a cluster commits over the network).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CrawlError::Start(format!("writer runtime: {e}")))?;
    let writer = {
        let ends = writer::Ends {
            store: shared.store.clone(),
            focus: processing.focus.clone(),
            archive: shared.archive.clone(),
            stats: stats.clone(),
            sched: sched_tx,
            stop: stop_rx.clone(),
            plan: {
                let shared = shared.shared.clone();
                Box::new(move |msg: &mut Visit| shared.plan_revisit(msg))
            },
        };
        std::thread::Builder::new()
            .name("trawl-writer".into())
            .spawn(move || rt.block_on(writer::run(commits, ends, write_rx)))
            .map_err(|e| CrawlError::Start(format!("writer thread: {e}")))?
    };

    let mut tasks = schedule::run(schedule::Scheduler {
        cfg,
        opts,
        shared,
        stats: &stats,
        leases,
        cpu_tx: &cpu_tx,
        write_tx: &write_tx,
        sched_rx: &mut sched_rx,
        stop_rx,
    })
    .await;

    // Fetches still running after the grace period stop (their URLs are
    // leased again on the next start); the CPU and writer stages drain.
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    drop(cpu_tx);
    drop(write_tx);
    // The CPU threads end once the fetch tasks are gone; pages they sent
    // to the browser are rendered (each within render.timeout_secs).
    let _ = tokio::task::spawn_blocking(move || {
        for t in cpu {
            let _ = t.join(); // a CPU thread catches its pages' panics; nothing else to report
        }
    })
    .await;
    let _ = renders.await;
    let kept = writer.join().unwrap_or_default();
    while let Ok(msg) = sched_rx.try_recv() {
        // Whether it ended a URL does not matter at the end of a run.
        let _ended = schedule::apply(msg, leases, &mut 0);
    }
    leases.close().await;
    Ok(kept)
}

/// The CPU stage's threads (`extract.threads`, 0: one per core).
fn cpu_threads(cfg: &Config) -> usize {
    match cfg.extract.threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    }
}

/// The two sides' state for a run over `store`: what the fetch side reads
/// and what the CPU stage reads, over what both share.
pub(super) struct Stages {
    pub fetching: Arc<Fetching>,
    pub processing: Arc<Processing>,
}

/// Builds the state of a run over `store`.
pub(super) async fn build_stages(
    cfg: &Config,
    opts: &RunOptions,
    store: &Store,
    fetcher: Arc<dyn Fetcher>,
    stats: &Arc<Stats>,
    backend: Arc<dyn shared::Backend>,
    writer_name: &str,
) -> Result<Stages, CrawlError> {
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
    let examples = focused::example_texts(cfg, store, fetcher.as_ref(), &clock).await?;
    let focus = focused::build_focus(cfg, opts, store, &examples)?;
    let archive = if cfg.warc.enabled {
        let dir = c.data_dir.join("warc");
        let w = crate::warc::WarcWriter::open(&dir, writer_name, cfg.warc.max_file_mb << 20)
            .map_err(|e| CrawlError::Start(format!("WARC directory {}: {e}", dir.display())))?;
        Some(Arc::new(archive::Archive::new(w)))
    } else {
        None
    };
    // The store's seeds, read one at a time: their hosts may be private
    // addresses (the guard lets them through), their own concurrency=
    // holds for their hosts, their render= counts for the browser.
    let (mut modes, mut concurrency) = (vec![], vec![]);
    let in_store = backend.seeds_in_store();
    if in_store {
        let guard = fetcher.guard();
        Registry::of(store).each(|_, seed| {
            if let Some(g) = guard.as_ref().filter(|_| !seed.guarded) {
                g.allow(&seed.host);
            }
            if let Some(m) = seed.render.filter(|m| !modes.contains(m)) {
                modes.push(m);
            }
            if seed.concurrency.is_some() {
                concurrency.push(seed);
            }
        })?;
    }
    let render = render_policy::policy(cfg, &modes, stats)?;
    let seeds = if in_store {
        crate::seeds::Book::backed(store.clone())
    } else {
        crate::seeds::Book::holding_all()
    };
    store.set_queue_cap(Some(crate::store::QueueCap {
        floor: c.max_queued_per_host,
        per_page: c.queued_per_page,
    }));
    let shared = Arc::new(Shared {
        store: store.clone(),
        stats: stats.clone(),
        seeds,
        rules: UrlRules {
            strip_params: c.strip_params.clone(),
            sort_query: c.sort_query,
            max_len: c.max_url_len,
        },
        patterns: shared::Patterns::new(&c.include, &c.exclude),
        max_pages: c.max_pages,
        max_pages_per_host: c.max_pages_per_host,
        backend,
        revisits: revisit::Schedule::new(&cfg.revisit),
        archive,
        template_mode: template::TemplateMode::new(c.template_samples, c.template_checks),
        agent,
        render,
    });
    let fetching = Arc::new(Fetching {
        shared: shared.clone(),
        fetcher,
        robots: Mutex::new(HashMap::new()),
        robots_ttl: Duration::from_secs(c.robots_cache_hours.max(1) * 3600),
        delays: DelayRules {
            min_delay,
            max_crawl_delay: Duration::from_secs(c.max_crawl_delay_secs),
            retry_base: Duration::from_millis(c.retry_base_ms),
            retry_max: Duration::from_secs(c.retry_max_secs),
        },
        max_redirects: c.max_redirects,
        max_retries: c.max_retries,
        sitemap_entries: Mutex::new(HashMap::new()),
        clock,
        health: crate::politeness::budget::ErrorBudget::new(
            c.host_error_budget,
            Duration::from_secs(c.host_stop_cooldown_secs),
        ),
        error_budget: c.host_error_budget,
        limiter,
        sites: sites::Sites::new(&cfg.sites, c.max_per_host).map_err(CrawlError::Start)?,
    });
    let processing = Arc::new(Processing {
        shared,
        extract: cfg.extract_options(),
        focus: focus.clone(),
        page_hook: opts.page_hook.clone(),
        record_links: c.record_links,
        max_links_per_page: c.max_links_per_page,
    });
    fetching.sites.note_seeds(&concurrency);
    if let Some(f) = &focus {
        if stats.harvest.get().is_none() {
            let harvest = harvest::Harvest::new(
                Some(c.data_dir.join("harvest.jsonl")),
                cfg.focus.series_every,
                store.count(crate::store::Counter::Judged)?,
                store.count(crate::store::Counter::Relevant)?,
            )
            .with_stop_below(cfg.focus.stop_below);
            let _ = stats.harvest.set(harvest); // set once, here
        }
        tracing::info!(
            strategy = f.strategy.name(),
            model_updates = f.model_updates(),
            "focused crawl"
        );
    }
    Ok(Stages {
        fetching,
        processing,
    })
}

/// Starts the CPU threads: each takes fetched pages from `cpu_rx` and
/// sends their completions to `write_tx`.
fn spawn_cpu(
    threads: usize,
    shared: &Arc<Processing>,
    cpu_rx: mpsc::Receiver<CpuJob>,
    write_tx: &mpsc::Sender<Visit>,
    render_tx: mpsc::Sender<shared::RenderJob>,
) -> Result<Vec<std::thread::JoinHandle<()>>, CrawlError> {
    let cpu_rx = Arc::new(Mutex::new(cpu_rx));
    let mut cpu_threads = Vec::new();
    for i in 0..threads {
        let rx = cpu_rx.clone();
        let tx = write_tx.clone();
        let render_tx = render_tx.clone();
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
                let sent = match process::process_guarded(&shared, job) {
                    process::Processed::Done(msg) => tx.blocking_send(msg).is_ok(),
                    process::Processed::Render(r) => render_tx.blocking_send(r).is_ok(),
                };
                if !sent {
                    break;
                }
            })
            .map_err(|e| CrawlError::Start(format!("CPU thread: {e}")))?;
        cpu_threads.push(handle);
    }
    Ok(cpu_threads)
}
