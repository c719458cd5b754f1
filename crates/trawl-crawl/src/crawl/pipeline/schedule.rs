//! The scheduler: the one task that leases URLs. It asks its [`Leases`]
//! for the next URL whose host may be sent a request, spawns its fetch
//! task (at most `crawl.max_concurrent` in flight), lets the backend do its
//! periodic work, and hands it the `finished` messages the writer sends
//! back; on a stop it gives in-flight fetches `crawl.shutdown_grace_secs`.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::fetch_task;
use super::shared::{CpuJob, FetchResult, Sched, Shared, WriterMsg};
use super::{Health, Leases};
use crate::config::Config;
use crate::crawl::stats::Stats;
use crate::crawl::RunOptions;
use crate::frontier::Next;

/// What the scheduler works with.
pub(in crate::crawl) struct Scheduler<'a, L> {
    pub cfg: &'a Config,
    pub opts: &'a RunOptions,
    pub shared: &'a Arc<Shared>,
    pub stats: &'a Stats,
    pub leases: &'a mut L,
    pub cpu_tx: &'a mpsc::Sender<CpuJob>,
    pub write_tx: &'a mpsc::Sender<WriterMsg>,
    pub sched_rx: &'a mut mpsc::UnboundedReceiver<Sched>,
    pub stop_rx: &'a mut watch::Receiver<bool>,
}

/// Schedules until a stop, the end of the work (`exit_when_idle`) or the
/// store going down; returns the fetch tasks still running.
pub(in crate::crawl) async fn run<L: Leases>(s: Scheduler<'_, L>) -> JoinSet<()> {
    let Scheduler {
        cfg,
        opts,
        shared,
        stats,
        leases,
        cpu_tx,
        write_tx,
        sched_rx,
        stop_rx,
    } = s;
    let c = &cfg.crawl;
    let mut tasks: JoinSet<()> = JoinSet::new();
    let mut inflight: usize = 0;
    let mut stopping: Option<Instant> = None;

    loop {
        while let Ok(msg) = sched_rx.try_recv() {
            apply(msg, leases, &mut inflight);
        }
        while tasks.try_join_next().is_some() {}
        let now = Instant::now();
        stats.inflight.store(inflight as u64, Relaxed);
        let health = leases.health();

        if *stop_rx.borrow() && stopping.is_none() {
            stopping = Some(now + Duration::from_secs(c.shutdown_grace_secs));
        }
        if health == Health::Down {
            if inflight == 0 {
                break;
            }
            // Let in-flight work reach the writer, which keeps it.
            if let Some(msg) = sched_rx.recv().await {
                apply(msg, leases, &mut inflight);
            }
            continue;
        }
        if let Some(deadline) = stopping {
            if inflight == 0 || now >= deadline {
                break;
            }
            tokio::select! {
                Some(msg) = sched_rx.recv() => apply(msg, leases, &mut inflight),
                _ = tokio::time::sleep_until(deadline.into()) => {}
            }
            continue;
        }
        leases.tick(now).await;
        let wake = if inflight < c.max_concurrent && leases.health() == Health::Up {
            match leases.next(now).await {
                Next::Url(lease) => {
                    inflight += 1;
                    spawn_fetch(&mut tasks, shared, lease, cpu_tx, write_tx);
                    continue;
                }
                Next::Wait(at) => at.min(leases.next_tick(now)),
                Next::Empty => {
                    if opts.exit_when_idle && inflight == 0 && leases.idle().await {
                        break;
                    }
                    leases.next_tick(now)
                }
            }
        } else {
            leases.next_tick(now)
        };
        tokio::select! {
            Some(msg) = sched_rx.recv() => apply(msg, leases, &mut inflight),
            _ = tokio::time::sleep_until(wake.into()) => {}
            _ = stop_rx.changed() => {}
        }
    }
    tasks
}

/// Hands a writer's message to the backend.
pub(super) fn apply<L: Leases>(msg: Sched, leases: &mut L, inflight: &mut usize) {
    match msg {
        Sched::Finished(f) => {
            *inflight = inflight.saturating_sub(1);
            leases.finished(f);
        }
        Sched::Committed { host, key } => leases.committed(&host, &key),
    }
}

/// Spawns the fetch task of a leased URL: its result goes to the CPU
/// stage (a page to process) or straight to the writer.
fn spawn_fetch(
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
            FetchResult::Write(mut msg) => {
                shared.plan_revisit(&mut msg);
                let _ = write_tx.send(msg).await;
            }
        }
    });
}
