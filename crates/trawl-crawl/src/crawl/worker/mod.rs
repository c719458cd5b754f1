//! Cluster mode's daemon: one worker among many, crawling the hosts it
//! claims from the shared frontier in PostgreSQL ([`crate::cluster`]).
//!
//! ```text
//!  PostgreSQL ─ claim/renew hosts, due URLs ─► leases ─► the pipeline ─► outbox (sled)
//!      ▲                                                                     │
//!      └──────────────── links, outcome, record (epoch-fenced) ◄─────────────┘
//! ```
//!
//! The worker runs the single-machine daemon's pipeline
//! (`super::pipeline`: scheduler, fetch tasks, CPU threads, writer) with
//! two backends of its own: `leases::ClusterLeases` (the hosts it holds
//! and their due URLs) and `outbox::Outbox` (completions kept in a sled
//! outbox until committed under the host's epoch). The local sled store
//! keeps what is the worker's alone: the robots cache, the per-host clock,
//! the focus model, and the outbox.
//!
//! Budgets and templates are the cluster's, not the worker's
//! (`sitewide`): page counts come from the database (a held host's
//! exactly, the crawl's and a seed's at most half a second late), and a
//! site's e-commerce templates are read when one of its hosts is claimed
//! and published when learned, so a site is learned once.

pub(super) mod leases;
mod options;
pub(super) mod outbox;
pub(crate) mod sitewide;

pub use options::ClusterOptions;

use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;
use std::time::Duration;

use super::options::{CrawlError, RunOptions};
use super::pipeline;
use super::stats::Snapshot;
use crate::cluster::{ClusterCounts, ClusterError, Conn};
use crate::config::Config;
use crate::fetch::Fetcher;
use sitewide::{ClusterView, Fence};

fn conn(url: &str) -> Result<Conn, CrawlError> {
    Conn::new(url).map_err(|e| CrawlError::Start(e.to_string()))
}

/// Runs a cluster worker until its shutdown future completes (or, with
/// `exit_when_idle`, until the whole cluster is out of work).
pub async fn run(
    cfg: Config,
    opts: RunOptions,
    fetcher: Arc<dyn Fetcher>,
    cluster: ClusterOptions,
) -> Result<Snapshot, CrawlError> {
    // Below the lease: a paused worker's open transaction must not hold
    // its hosts' rows past the lease (see `Conn::limit_transactions`).
    let tx_limit = (cluster.lease / 2).max(Duration::from_millis(500));
    let mut db = conn(&cluster.url)?;
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
    // Taps follow the cluster's records (every worker's) from cursors kept
    // in this worker's store.
    let tapping = if opts.taps.is_empty() {
        None
    } else {
        let source = super::taps::ClusterSource::new(store.clone(), &cluster.url)
            .map_err(CrawlError::Start)?;
        super::taps::start(&opts.taps, source)
            .map_err(|e| CrawlError::Start(format!("the taps' thread: {e}")))?
    };
    let mut stop_rx = super::Shutdown::watch(opts.shutdown.as_ref());
    let fence = Fence::default();
    let counts = Arc::new(ClusterCounts::default());
    let view = ClusterView {
        fence: fence.clone(),
        counts: counts.clone(),
        db: tokio::sync::Mutex::new(conn(&cluster.url)?),
    };
    let stages = pipeline::build_stages(
        &cfg,
        &opts,
        &store,
        fetcher,
        &stats,
        Arc::new(view),
        &cluster.worker,
    )
    .await?;
    let pending = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicU64::new(0));
    let mut links_conn = conn(&cluster.url)?;
    links_conn.set_queue_cap(Some(crate::store::QueueCap {
        floor: cfg.crawl.max_queued_per_host,
        per_page: cfg.crawl.queued_per_page,
    }));
    let commits = outbox::Outbox::open(outbox::OutboxCtx {
        conn: links_conn,
        worker: cluster.worker.clone(),
        store: store.clone(),
        stats: stats.clone(),
        pending: pending.clone(),
        refused: refused.clone(),
        counts: counts.clone(),
        batch: cluster.batch,
    })?;
    tracing::info!(worker = %cluster.worker, lease_secs = cluster.lease.as_secs(), "cluster worker starting");
    let mut leases = leases::ClusterLeases::start(leases::Start {
        cfg: &cfg,
        opts: &opts,
        cluster,
        db,
        shared: stages.fetching.clone(),
        focus: stages.processing.focus.clone(),
        fence,
        counts,
        pending: pending.clone(),
        refused,
    })
    .await;
    // Fetches cut by the shutdown leave their URLs queued in the database.
    let ran = pipeline::run(&cfg, &opts, &stages, &mut leases, commits, &mut stop_rx).await;
    if let Some(t) = tapping {
        // The taps read the cluster to its end on their own thread.
        let _ = tokio::task::spawn_blocking(move || super::taps::finish(t, None)).await;
    }
    let _kept = ran?;
    store.flush().await?;
    let left = pending.load(std::sync::atomic::Ordering::Relaxed);
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
