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
mod local;
mod pipeline;
pub mod stats;
mod taps;
pub(crate) mod template;
pub mod worker;

pub use focused::harvest;
pub use pipeline::seeding::parse_lines as parse_seed_lines;
pub use pipeline::shared::PageHook;
pub use template::store as templates;

use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use crate::config::Config;
use crate::fetch::{Fetcher, HttpFetcher};
use crate::store::{Store, StoreError};
use pipeline::shared::WriterMsg;
pub use stats::{Snapshot, Stats};
pub use taps::Tap;

/// Why the daemon stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    #[error(transparent)]
    /// The store failed.
    Store(#[from] StoreError),
    #[error(transparent)]
    /// The HTTP client could not be built.
    Client(#[from] crate::fetch::ClientError),
    #[error("cannot start: {0}")]
    /// A thread, a runtime or the cluster database could not be started.
    Start(String),
    #[error(transparent)]
    /// The configuration is invalid.
    Config(#[from] crate::config::ConfigError),
    #[error("stopped while the store could not write ({error}); {pages} fetched pages were not saved and will be fetched again on the next start")]
    /// The run was stopped while the store could not write.
    StoppedWhileDown {
        /// The store's last error.
        error: String,
        /// Fetched pages not saved.
        pages: usize,
    },
}

/// How a session ended.
enum SessionEnd {
    /// Stopped by a signal or, with `exit_when_idle`, done.
    Finished(Box<Snapshot>),
    /// The store could not write: completions not known to be on disk.
    StoreDown(Vec<WriterMsg>),
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
    /// Where the run publishes its counters and store handle (a status
    /// server reads them); `None`: the run keeps them to itself.
    pub observer: Option<Observer>,
    /// Completes when the run should stop (as mini-redis takes one);
    /// `None`: the run stops only when done (`exit_when_idle`) or on a
    /// store failure it cannot ride out.
    pub shutdown: Option<Shutdown>,
    /// Sinks fed with every record the store commits, in `seq` order, at
    /// least once across crashes ([`Tap`]); one machine only for now.
    pub taps: Vec<Tap>,
    #[doc(hidden)]
    pub page_hook: Option<PageHook>,
}

/// A future that says when a run should stop (a signal, a test's
/// deadline, an embedding program's own reason). Cheap to clone; the run
/// awaits it once.
#[derive(Clone)]
pub struct Shutdown(Arc<std::sync::Mutex<Option<ShutdownFuture>>>);

type ShutdownFuture = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

impl Shutdown {
    /// The run stops when `signal` completes.
    pub fn new(signal: impl std::future::Future<Output = ()> + Send + 'static) -> Shutdown {
        Shutdown(Arc::new(std::sync::Mutex::new(Some(Box::pin(signal)))))
    }

    /// A channel whose value turns true when the shutdown future completes
    /// (never, without one).
    fn watch(opt: Option<&Shutdown>) -> tokio::sync::watch::Receiver<bool> {
        let (tx, rx) = tokio::sync::watch::channel(false);
        let fut = opt.and_then(|s| s.0.lock().ok().and_then(|mut g| g.take()));
        tokio::spawn(async move {
            match fut {
                Some(f) => {
                    f.await;
                    tracing::info!("shutdown requested: finishing in-flight work");
                    let _ = tx.send(true); // the receivers live as long as the run
                }
                // Keeps the sender (and the channel) alive for the run.
                None => tx.closed().await,
            }
        });
        rx
    }
}

impl std::fmt::Debug for Shutdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shutdown")
    }
}

/// A window on a running crawl for a status server: its counters and the
/// store handle it writes with (none while a store that could not write is
/// being reopened). Cheap to clone; create it before [`run`] and pass it in
/// [`RunOptions::observer`].
#[derive(Clone, Default)]
pub struct Observer {
    stats: Arc<Stats>,
    store: Arc<RwLock<Option<Store>>>,
    /// Set when a seed file changed (the API wrote one): read it now,
    /// not at the next poll.
    seeds_changed: Arc<std::sync::atomic::AtomicBool>,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

impl Observer {
    /// The run's counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The run's counters, to keep (a progress line's task).
    pub fn stats_handle(&self) -> Arc<Stats> {
        self.stats.clone()
    }

    /// The store the run writes with, while it can write.
    pub fn store(&self) -> Option<Store> {
        self.store.read().ok().and_then(|g| g.clone())
    }

    /// Asks the run to read its seed files at its next turn (one was
    /// written), instead of waiting for `crawl.seed_poll_secs`.
    pub fn seeds_changed(&self) {
        self.seeds_changed
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The flag [`Observer::seeds_changed`] sets, for the run's leases.
    pub(crate) fn seeds_flag(&self) -> Arc<std::sync::atomic::AtomicBool> {
        self.seeds_changed.clone()
    }

    fn publish(&self, store: Option<Store>) {
        if let Ok(mut g) = self.store.write() {
            *g = store;
        }
    }
}

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
pub async fn run_with(
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
    let tapping = taps::start(&opts.taps, move || published.store())
        .map_err(|e| CrawlError::Start(format!("the taps' thread: {e}")))?;
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
            Ok(s) => taps::finish(t, &s),
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
