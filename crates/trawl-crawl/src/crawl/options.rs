//! How a crawl is run and watched: its [`RunOptions`], the [`Shutdown`]
//! future that stops it, the [`Observer`] window a status server reads,
//! and the errors it stops with ([`CrawlError`]). The pipeline and both
//! backends read them; [`run`](super::run) takes them.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use super::stats::Stats;
use super::taps::Tap;
use crate::store::{Store, StoreError};

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
    /// Sinks fed with every record the run commits, in commit order, at
    /// least once across crashes ([`Tap`]); on a cluster worker, every
    /// worker's records (what `trawl export --cluster` reads).
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
    pub(super) fn watch(opt: Option<&Shutdown>) -> tokio::sync::watch::Receiver<bool> {
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
/// being reopened). Cheap to clone; create it before [`run`](super::run) and pass it in
/// [`RunOptions::observer`].
#[derive(Clone, Default)]
pub struct Observer {
    pub(super) stats: Arc<Stats>,
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

    pub(super) fn publish(&self, store: Option<Store>) {
        if let Ok(mut g) = self.store.write() {
            *g = store;
        }
    }
}

/// A function called with each page's URL in the CPU stage, before
/// extraction: a test hook (a panicking extractor) — `None` in real crawls.
#[derive(Clone)]
pub struct PageHook(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for PageHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageHook")
    }
}
