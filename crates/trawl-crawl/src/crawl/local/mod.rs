//! One machine: the pipeline over the sled store. A session runs the
//! pipeline over one store handle with the sled frontier as its
//! [`Leases`](super::pipeline::Leases) ([`leases`]) and sled transactions
//! as its [`Commits`](super::pipeline::Commits) ([`commits`]), until a
//! stop, the end of the work (`exit_when_idle`), or the store going down.

pub(super) mod commits;
pub(super) mod leases;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use super::options::{CrawlError, RunOptions};
use super::pipeline::shared::Visit;
use super::pipeline::{self, shared};
use super::stats::Snapshot;
use super::stats::Stats;
use crate::config::Config;
use crate::fetch::Fetcher;
use crate::focus::Strategy;
use crate::frontier::Frontier;
use crate::store::Store;

/// How a session ended.
pub(super) enum SessionEnd {
    /// Stopped by a signal or, with `exit_when_idle`, done.
    Finished(Box<Snapshot>),
    /// The store could not write: completions not known to be on disk.
    StoreDown(Vec<Visit>),
}

/// One session over one store handle.
pub(super) async fn session(
    cfg: &Config,
    opts: &RunOptions,
    store: Store,
    fetcher: Arc<dyn Fetcher>,
    stats: Arc<Stats>,
    mut stop_rx: tokio::sync::watch::Receiver<bool>,
) -> Result<SessionEnd, CrawlError> {
    let c = cfg.crawl.clone();
    let stages = pipeline::build_stages(
        cfg,
        opts,
        &store,
        fetcher,
        &stats,
        Arc::new(shared::Local),
        &machine_name(),
    )
    .await?;
    let (shared, focus) = (&stages.fetching, &stages.processing.focus);
    let mut frontier = Frontier::new(store.clone(), c.max_per_host)?;
    let limits = shared.clone();
    frontier.set_limits(Box::new(move |host| limits.sites.concurrency(host)));
    if focus
        .as_ref()
        .is_some_and(|f| f.strategy == Strategy::Focused)
    {
        frontier.set_patience(cfg.focus.patience);
        frontier.set_page_budget(cfg.focus.budget == crate::focus::Budget::Pages);
        let judged = stats.clone();
        frontier.set_host_weights(Box::new(move |host| {
            judged.harvest.get().map_or(0.5, |h| h.host_weight(host))
        }));
    }
    stats.queue.store(store.queue_len_hint(), Relaxed);
    if let Ok(Some(saved)) = store.meta_get(super::stats::COUNTERS_KEY) {
        stats.restore(&saved);
    }
    // Records in the store, not only this run's.
    stats
        .records
        .store(store.last_record_seq().unwrap_or(0), Relaxed);
    let mut leases = leases::LocalLeases::start(cfg, opts, shared, frontier)?;
    let commits = commits::LocalCommits::new(store.clone(), stats.clone());
    let kept = pipeline::run(cfg, opts, &stages, &mut leases, commits, &mut stop_rx).await?;
    // The next session opens the store again; sled allows one handle.
    drop(leases);
    drop(stages);
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

/// Completions kept from a session whose store went down, applied again.
pub(super) use commits::replay;

/// This machine's name, for its WARC files (`/etc/hostname`, else `trawl`).
fn machine_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "trawl".into())
}
