//! The scheduler: the one task that leases URLs. It asks its [`Leases`]
//! for the next URL whose host may be sent a request, spawns its fetch
//! task (at most `crawl.max_concurrent` in flight), lets the backend do its
//! periodic work, and hands it the `finished` messages the writer sends
//! back; on a stop (or, with `--once`, when a focused crawl stops paying)
//! it gives in-flight fetches `crawl.shutdown_grace_secs`.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::backend::{Health, Leases};
use super::fetch_task;
use super::shared::{CpuJob, FetchResult, Fetching, Sched, Visit};
use crate::config::Config;
use crate::crawl::options::RunOptions;
use crate::crawl::stats::Stats;
use crate::frontier::Next;

/// What the scheduler works with.
pub(in crate::crawl) struct Scheduler<'a, L> {
    pub cfg: &'a Config,
    pub opts: &'a RunOptions,
    pub shared: &'a Arc<Fetching>,
    pub stats: &'a Stats,
    pub leases: &'a mut L,
    pub cpu_tx: &'a mpsc::Sender<CpuJob>,
    pub write_tx: &'a mpsc::Sender<Visit>,
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
    let mut waiting = OnceWait::new(Duration::from_secs(c.once_wait_secs));

    loop {
        while let Ok(msg) = sched_rx.try_recv() {
            waiting.note(apply(msg, leases, &mut inflight));
        }
        while tasks.try_join_next().is_some() {}
        let now = Instant::now();
        stats.inflight.store(inflight as u64, Relaxed);
        let health = leases.health();

        // `--once` ends when the stop signal comes or a focused crawl stops
        // paying (`focus.stop_below`; the daemon parks new URLs instead).
        let stop = *stop_rx.borrow() || (opts.exit_when_idle && shared.focus_stopped().is_some());
        if stop && stopping.is_none() {
            stopping = Some(now + Duration::from_secs(c.shutdown_grace_secs));
        }
        if health == Health::Down {
            if inflight == 0 {
                break;
            }
            // Let in-flight work reach the writer, which keeps it.
            if let Some(msg) = sched_rx.recv().await {
                waiting.note(apply(msg, leases, &mut inflight));
            }
            continue;
        }
        if let Some(deadline) = stopping {
            if inflight == 0 || now >= deadline {
                break;
            }
            tokio::select! {
                Some(msg) = sched_rx.recv() => {
                    apply(msg, leases, &mut inflight);
                }
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
                Next::Wait(at) => {
                    if opts.exit_when_idle && inflight == 0 && waiting.too_long(now, at, stats) {
                        break;
                    }
                    at.min(leases.next_tick(now))
                }
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
            Some(msg) = sched_rx.recv() => waiting.note(apply(msg, leases, &mut inflight)),
            _ = tokio::time::sleep_until(wake.into()) => {}
            _ = stop_rx.changed() => {}
        }
    }
    tasks
}

/// `--once` with every host held (robots.txt unreachable, a Retry-After of
/// an hour, a stopped host) would wait silently for as long as the holds
/// last: it says what it waits for, and stops after `crawl.once_wait_secs`
/// without a URL ending (the URLs stay queued for the next run).
struct OnceWait {
    limit: Duration,
    last_end: Instant,
    last_said: Option<Instant>,
}

impl OnceWait {
    fn new(limit: Duration) -> OnceWait {
        OnceWait {
            limit,
            last_end: Instant::now(),
            last_said: None,
        }
    }

    /// A URL ended for good (`true`), or was held to be tried again.
    fn note(&mut self, ended: bool) {
        if ended {
            self.last_end = Instant::now();
            self.last_said = None;
        }
    }

    /// With nothing in flight and the next request at `at`: whether to stop;
    /// says what it waits for every 30 s.
    fn too_long(&mut self, now: Instant, at: Instant, stats: &Stats) -> bool {
        let idle = now.saturating_duration_since(self.last_end);
        let wait = at.saturating_duration_since(now);
        if wait < Duration::from_secs(5) && idle < self.limit {
            return false;
        }
        let held: Vec<String> = stats
            .held_hosts()
            .into_iter()
            .map(|h| format!("{}: {}", h.host, h.reason))
            .collect();
        if idle + wait.min(Duration::from_secs(1)) >= self.limit {
            tracing::warn!(
                waited_secs = idle.as_secs(),
                next_request_in_secs = wait.as_secs(),
                held = ?held,
                "--once: no URL ended for crawl.once_wait_secs and every host is held; \
                 stopping (the URLs left stay queued for the next run)"
            );
            return true;
        }
        if self
            .last_said
            .is_none_or(|t| now.duration_since(t) >= Duration::from_secs(30))
        {
            self.last_said = Some(now);
            tracing::info!(
                next_request_in_secs = wait.as_secs(),
                held = ?held,
                "--once: waiting for held hosts"
            );
        }
        false
    }
}

/// Hands a writer's message to the backend; whether a URL ended for good
/// (not held to be tried again).
pub(super) fn apply<L: Leases>(msg: Sched, leases: &mut L, inflight: &mut usize) -> bool {
    match msg {
        Sched::Finished(f) => {
            *inflight = inflight.saturating_sub(1);
            let ended = f.hold.is_none();
            leases.finished(f);
            ended
        }
        Sched::Committed { host, key } => {
            leases.committed(&host, &key);
            false
        }
    }
}

/// Spawns the fetch task of a leased URL: its result goes to the CPU
/// stage (a page to process) or straight to the writer.
fn spawn_fetch(
    tasks: &mut JoinSet<()>,
    shared: &Arc<Fetching>,
    lease: crate::frontier::Lease,
    cpu_tx: &mpsc::Sender<CpuJob>,
    write_tx: &mpsc::Sender<Visit>,
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
