//! The crawl daemon: the one pipeline (`pipeline`) and its two backends,
//! one machine over sled (`local`) and a cluster worker over PostgreSQL
//! ([`worker`]); the run's options, shutdown and observer.
//!
//! ```text
//!  seeds/*.txt ─► scheduler (Leases) ─► fetch tasks (tokio, ≤ max_concurrent)
//!                      ▲                              │ bounded channel
//!                      │                              ▼
//!                      │                         CPU threads (decode, parse, extract, links)
//!                      │                              │ bounded channel
//!                      └──── finished(host) ◄── writer thread (Commits: sled, or outbox + PostgreSQL)
//! ```
//!
//! Every leased URL ends in exactly one store transaction (done, dropped, or
//! back in the queue) and one `finished` message, so the scheduler always
//! knows what is in flight. When the run's shutdown future
//! ([`RunOptions::shutdown`]; the binary's is SIGINT/SIGTERM) completes, it
//! stops leasing, gives in-flight fetches `shutdown_grace_secs`, flushes the
//! store and returns; unfinished leases are re-queued on the next start.
//!
//! The library does not own the process: signals, the terminal's progress
//! line and allocator settings are the embedding program's (see
//! [`Observer`] and `store::alloc`).
//!
//! A run is a series of sessions over one store handle. When the store
//! cannot write (disk full), the writer says so, the session stops leasing,
//! lets in-flight work arrive and ends; [`run`] then reopens the store every
//! few seconds, replays the completed pages the writer kept in memory, and
//! starts the next session: nothing fetched is lost or fetched again.

pub(crate) mod focused;
pub(crate) mod harvest;
mod local;
mod options;
mod pipeline;
pub(crate) mod stats;
mod taps;
pub(crate) mod template;
pub mod worker;

pub use options::{CrawlError, Observer, PageHook, RunOptions, Shutdown};
pub use pipeline::seeding::parse_lines as parse_seed_lines;
pub(crate) use template::store as templates;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use crate::config::Config;
use crate::fetch::{Fetcher, HttpFetcher};
use crate::store::{Store, StoreError};
use local::SessionEnd;
use pipeline::shared::Visit;
pub use stats::{Snapshot, Stats};
pub use taps::Tap;

/// Runs the daemon until its shutdown future completes (or, with
/// `exit_when_idle`, until done).
pub async fn run(cfg: Config, opts: RunOptions) -> Result<Snapshot, CrawlError> {
    let fetcher: Arc<dyn Fetcher> = Arc::new(HttpFetcher::new(&cfg.fetch_config())?);
    run_with(cfg, opts, fetcher).await
}

/// Opens the store of `cfg` (creating its directory).
fn open_store(cfg: &Config) -> Result<Store, StoreError> {
    let c = &cfg.crawl;
    Store::open_sized(&c.data_dir, c.store_cache_mb << 20, c.seen_filter_mb << 20)
}

/// [`run`] with a given fetcher (tests, benchmarks).
pub(crate) async fn run_with(
    cfg: Config,
    opts: RunOptions,
    fetcher: Arc<dyn Fetcher>,
) -> Result<Snapshot, CrawlError> {
    let c = cfg.crawl.clone();
    let observer = opts.observer.clone().unwrap_or_default();
    let stats = observer.stats.clone();
    let store = open_store(&cfg)?;
    let dir = std::fs::canonicalize(&c.data_dir).unwrap_or_else(|_| c.data_dir.clone());
    let _ = stats.data_dir.set(dir.display().to_string()); // set once, here

    // The shutdown outlives sessions.
    let stop_rx = Shutdown::watch(opts.shutdown.as_ref());

    let published = observer.clone();
    let tapping = taps::start(
        &opts.taps,
        taps::StoreSource::new(move || published.store()),
    )
    .map_err(|e| CrawlError::Start(format!("the taps' thread: {e}")))?;
    let mut store = Some(store);
    let mut backlog: Vec<Visit> = Vec::new();
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
            if let Err(e) = local::replay(&current, &backlog) {
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
        observer.publish(Some(current.clone()));
        let end = local::session(
            &cfg,
            &opts,
            current,
            fetcher.clone(),
            stats.clone(),
            stop_rx.clone(),
        )
        .await;
        // The next session opens a new handle; sled allows one at a time.
        observer.publish(None);
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
    if let Some(t) = tapping {
        match open_store(&cfg) {
            Ok(s) => taps::finish(t, Some(taps::StoreSource::new(move || Some(s.clone())))),
            Err(e) => tracing::warn!(error = %e, "the taps get the last records on the next start"),
        }
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
