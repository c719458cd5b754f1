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
mod learning;
mod links;
mod process;
mod schedule;
mod seeding;
mod session;
mod shared;
pub mod shop;
mod sitemap;
pub mod sitewide;
pub mod stats;
pub mod templates;
pub mod worker;
mod writer;

pub use shared::PageHook;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use crate::config::Config;
use crate::fetch::{FetchConfig, Fetcher, HttpFetcher};
use crate::store::{Store, StoreError};
use shared::WriterMsg;
pub use stats::{Snapshot, Stats};

/// Why the daemon stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Client(#[from] crate::fetch::ClientError),
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
    #[doc(hidden)]
    pub page_hook: Option<PageHook>,
}

/// A window on a running crawl for a status server: its counters and the
/// store handle it writes with (none while a store that could not write is
/// being reopened). Cheap to clone; create it before [`run`] and pass it in
/// [`RunOptions::observer`].
#[derive(Clone, Default)]
pub struct Observer {
    stats: Arc<Stats>,
    store: Arc<RwLock<Option<Store>>>,
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

    /// The store the run writes with, while it can write.
    pub fn store(&self) -> Option<Store> {
        self.store.read().ok().and_then(|g| g.clone())
    }

    fn publish(&self, store: Option<Store>) {
        if let Ok(mut g) = self.store.write() {
            *g = store;
        }
    }
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
    let observer = opts.observer.clone().unwrap_or_default();
    let stats = observer.stats.clone();
    let store = open_store(&cfg)?;
    let dir = std::fs::canonicalize(&c.data_dir).unwrap_or_else(|_| c.data_dir.clone());
    let _ = stats.data_dir.set(dir.display().to_string()); // set once, here

    // The progress line and signals outlive sessions.
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
        observer.publish(Some(current.clone()));
        let end = session::session(
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
    progress_task.abort();
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
