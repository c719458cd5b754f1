//! The scheduler: the one task that owns the frontier. It leases the next
//! URL whose host may be sent a request, spawns its fetch task (at most
//! `crawl.max_concurrent` in flight), re-reads seed files, and applies the
//! `finished(host)` messages the writer sends back; on a stop it gives
//! in-flight fetches `crawl.shutdown_grace_secs`.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::shared::{CpuJob, FetchResult, Sched, Shared, WriterMsg};
use super::stats::Stats;
use super::{fetch_task, seeding, CrawlError, RunOptions};
use crate::config::Config;
use crate::frontier::{Frontier, Next};
use crate::record::now_secs;
use crate::seeds;
use crate::store::{Store, StoreError};

/// What the scheduler works with.
pub(super) struct Scheduler<'a> {
    pub cfg: &'a Config,
    pub opts: &'a RunOptions,
    pub store: &'a Store,
    pub shared: &'a Arc<Shared>,
    pub stats: &'a Stats,
    pub frontier: &'a mut Frontier,
    pub cpu_tx: &'a mpsc::Sender<CpuJob>,
    pub write_tx: &'a mpsc::Sender<WriterMsg>,
    pub sched_rx: &'a mut mpsc::UnboundedReceiver<Sched>,
    pub stop_rx: &'a mut watch::Receiver<bool>,
}

/// Schedules until a stop, the end of the work (`exit_when_idle`) or the
/// store going down; returns the fetch tasks still running.
pub(super) async fn run(s: Scheduler<'_>) -> Result<JoinSet<()>, CrawlError> {
    let Scheduler {
        cfg,
        opts,
        store,
        shared,
        stats,
        frontier,
        cpu_tx,
        write_tx,
        sched_rx,
        stop_rx,
    } = s;
    let c = &cfg.crawl;
    let defaults = seeding::seed_defaults(cfg);
    let seed_files = || seeds::files(&c.seeds_dir, &opts.extra_seeds);
    // URLs set aside last time (a stopped host, a spent budget) are offered again.
    let offered = store.unpark(now_secs(), true)?;
    let added = seeding::load_seeds(store, shared, &seed_files(), &defaults, frontier)?;
    tracing::info!(
        new_urls = added,
        set_aside_offered_again = offered,
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
            check(apply(msg, frontier, &mut inflight), stats);
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
        if down(stats) && inflight == 0 {
            break;
        }
        if let Some(deadline) = stopping.filter(|_| !down(stats)) {
            if inflight == 0 || now >= deadline {
                break;
            }
            tokio::select! {
                Some(msg) = sched_rx.recv() => check(apply(msg, frontier, &mut inflight), stats),
                _ = tokio::time::sleep_until(deadline.into()) => {}
            }
            continue;
        }
        if down(stats) {
            // Let in-flight work reach the writer, which keeps it.
            if let Some(msg) = sched_rx.recv().await {
                check(apply(msg, frontier, &mut inflight), stats);
            }
            continue;
        }
        if now >= next_seed_poll {
            if let Err(e) = seeding::load_seeds(store, shared, &seed_files(), &defaults, frontier) {
                stats.store_error(format!("loading seeds: {e}"));
            }
            // A stopped host's URLs come back when its cool-down has passed.
            if let Err(e) = store.unpark(now_secs(), false) {
                stats.store_error(format!("offering set-aside URLs again: {e}"));
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
                    spawn_fetch(&mut tasks, shared, lease, cpu_tx, write_tx);
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
            Some(msg) = sched_rx.recv() => check(apply(msg, frontier, &mut inflight), stats),
            _ = tokio::time::sleep_until(wake.into()) => {}
            _ = stop_rx.changed() => {}
        }
    }

    Ok(tasks)
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

/// Spawns the fetch task of a leased URL: its result goes to the CPU
/// stage (a page to process) or straight to the writer.
pub(super) fn spawn_fetch(
    tasks: &mut JoinSet<()>,
    shared: &Arc<Shared>,
    lease: crate::frontier::Lease,
    cpu_tx: &mpsc::Sender<CpuJob>,
    write_tx: &mpsc::Sender<WriterMsg>,
) {
    let (shared, cpu_tx, write_tx) = (shared.clone(), cpu_tx.clone(), write_tx.clone());
    tasks.spawn(async move {
        match fetch_task::fetch(&shared, lease).await {
            // The channels close only during shutdown; the lease stays in
            // flight and is re-queued.
            FetchResult::Cpu(job) => {
                let _ = cpu_tx.send(job).await;
            }
            FetchResult::Write(msg) => {
                let _ = write_tx.send(msg).await;
            }
        }
    });
}
