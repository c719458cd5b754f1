//! Rendering pages that need JavaScript in headless Chromium, driven over
//! the DevTools protocol (chromiumoxide): a bounded pool of tabs in one
//! browser, started on first use and restarted every
//! [`Settings::restart_after`] pages or when it dies. trawl starts the
//! browser's process itself, so the process dies with trawl, even on
//! `kill -9` (the kernel's parent-death signal).
//!
//! The browser sends nothing by itself. Every request a page makes is
//! paused ([`tab`]): images, fonts, media, stylesheets, frames, beacons and
//! every method but GET are refused; the rest go to the [`Gate`] the
//! caller gives (the crawl's: robots.txt, the private-network guard, the
//! host's schedule, the archive), and the browser gets the gate's answer.
//! The page's own HTML is the one the crawl fetched, not fetched again.
//! The browser runs with a proxy that does not exist, so a request that
//! escaped interception would fail rather than go out.

mod browser;
mod memory;
mod netns;
mod tab;

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, Semaphore};

pub use browser::find_chromium;

/// How the pool renders.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The browser's executable.
    pub chromium: PathBuf,
    /// Pages rendered at once.
    pub tabs: usize,
    /// A page's whole render at most.
    pub timeout: Duration,
    /// The network is idle after this long without a request in flight.
    pub idle: Duration,
    /// Scrolls to the bottom for lazy content, at most.
    pub scrolls: u32,
    /// Pages one browser renders before it is restarted.
    pub restart_after: u64,
    /// A tab's JavaScript heap, in MiB.
    pub tab_memory_mb: u64,
    /// Where browser profiles are made (one directory per launch, removed
    /// when the browser is closed).
    pub profiles: PathBuf,
}

/// A page to render: the response the crawl fetched for `url`.
pub struct Job<'a> {
    /// The page's final URL (after redirects).
    pub url: &'a str,
    /// Its status.
    pub status: u16,
    /// Its header fields, as the browser should see them.
    pub headers: Vec<(String, String)>,
    /// Its body.
    pub body: &'a [u8],
}

/// The answer to one request of the browser's.
pub enum Answer {
    /// The response to give the page.
    Response {
        /// HTTP status.
        status: u16,
        /// Header fields.
        headers: Vec<(String, String)>,
        /// Body.
        body: Vec<u8>,
    },
    /// Not sent (robots.txt, the private-network guard, no answer): why.
    Refused(String),
}

/// A boxed future a [`Gate`] answers with.
pub type GateFuture = Pin<Box<dyn std::future::Future<Output = Answer> + Send>>;

/// Where the browser's requests go: the caller decides whether each may be
/// sent, sends it on the host's schedule and answers.
pub trait Gate: Send + Sync + 'static {
    /// A GET of `url` the page asks for.
    fn request(self: Arc<Self>, url: String) -> GateFuture;
}

/// A rendered page.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The DOM serialised after scripts ran (`<!DOCTYPE html>` and the
    /// document element's outer HTML).
    pub html: String,
    /// Requests the page made that the gate answered.
    pub requests: u32,
    /// Requests refused (by kind, method, robots.txt or the guard).
    pub refused: u32,
    /// Scrolls made for lazy content.
    pub scrolls: u32,
    /// Time the render took.
    pub took: Duration,
}

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No browser to start.
    #[error("no Chromium: {0}")]
    NoBrowser(String),
    /// The browser did not start.
    #[error("Chromium did not start: {0}")]
    Launch(String),
    /// The page did not settle in time (a script that never finishes).
    #[error("render timed out after {0:?}")]
    Timeout(Duration),
    /// The browser (or the tab) died or stopped answering.
    #[error("browser failed: {0}")]
    Crashed(String),
    /// The page could not be loaded into the tab.
    #[error("navigation failed: {0}")]
    Navigation(String),
    /// The tab's renderer grew past `render.tab_memory_mb` and was killed.
    #[error("memory: the page's renderer passed {0} MiB (render.tab_memory_mb) and was killed")]
    Memory(u64),
}

/// Counters of the pool's work, for the status page.
#[derive(Debug, Default)]
pub struct Counters {
    /// Pages rendered.
    pub rendered: AtomicU64,
    /// Renders that failed (timeouts included).
    pub failed: AtomicU64,
    /// Of those, timeouts.
    pub timeouts: AtomicU64,
    /// Browser requests the gate answered.
    pub requests: AtomicU64,
    /// Browser requests refused.
    pub refused: AtomicU64,
    /// Browsers started.
    pub launches: AtomicU64,
}

/// The pool: one browser (started on first use), at most `tabs` pages at once.
pub struct Renderer {
    settings: Settings,
    tabs: Semaphore,
    live: Mutex<Option<Arc<browser::Live>>>,
    /// What it did.
    pub counters: Arc<Counters>,
}

impl Renderer {
    /// A pool with `settings`; no browser runs until a page needs one.
    pub fn new(settings: Settings) -> Renderer {
        Renderer {
            tabs: Semaphore::new(settings.tabs.max(1)),
            settings,
            live: Mutex::new(None),
            counters: Arc::new(Counters::default()),
        }
    }

    /// The settings it renders with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Renders `job`, the page's requests answered by `gate`, within
    /// [`Settings::timeout`].
    pub async fn render(&self, job: Job<'_>, gate: Arc<dyn Gate>) -> Result<Rendered, RenderError> {
        let result = self.render_once(job, gate).await;
        let c = &self.counters;
        match &result {
            Ok(r) => {
                c.rendered.fetch_add(1, Relaxed);
                c.requests.fetch_add(u64::from(r.requests), Relaxed);
                c.refused.fetch_add(u64::from(r.refused), Relaxed);
            }
            Err(e) => {
                c.failed.fetch_add(1, Relaxed);
                if matches!(e, RenderError::Timeout(_)) {
                    c.timeouts.fetch_add(1, Relaxed);
                }
            }
        }
        result
    }

    async fn render_once(
        &self,
        job: Job<'_>,
        gate: Arc<dyn Gate>,
    ) -> Result<Rendered, RenderError> {
        let _tab = self
            .tabs
            .acquire()
            .await
            .map_err(|_| RenderError::Crashed("the pool is closed".into()))?;
        let live = self.live().await?;
        let page = match tokio::time::timeout(Duration::from_secs(10), live.new_page()).await {
            Ok(Ok(p)) => p,
            Ok(Err(e)) => {
                live.set_dead();
                return Err(RenderError::Crashed(format!("opening a tab: {e}")));
            }
            Err(_) => {
                live.set_dead();
                return Err(RenderError::Crashed("opening a tab timed out".into()));
            }
        };
        let kills = live.kills();
        let before = kills.load(Relaxed);
        let killed = async {
            while kills.load(Relaxed) == before {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        let result = tokio::select! {
            r = tokio::time::timeout(
                self.settings.timeout,
                tab::render(&page, &job, gate, &self.settings),
            ) => match r {
                Ok(r) => r,
                Err(_) => Err(RenderError::Timeout(self.settings.timeout)),
            },
            () = killed => Err(RenderError::Memory(self.settings.tab_memory_mb)),
        };
        if matches!(result, Err(RenderError::Crashed(_))) {
            live.set_dead();
        }
        // A hung page is closed from the browser's side; if even that does
        // not answer, the browser is replaced.
        let closed = tokio::time::timeout(Duration::from_secs(5), page.close()).await;
        if !matches!(closed, Ok(Ok(()))) {
            live.set_dead();
        }
        result
    }

    /// The running browser, started (or restarted) when needed.
    async fn live(&self) -> Result<Arc<browser::Live>, RenderError> {
        let mut slot = self.live.lock().await;
        if let Some(live) = slot.as_ref() {
            if !live.is_dead() && live.take_page() <= self.settings.restart_after {
                return Ok(live.clone());
            }
        }
        if let Some(old) = slot.take() {
            browser::retire(old);
        }
        let live = Arc::new(browser::Live::launch(&self.settings).await?);
        self.counters.launches.fetch_add(1, Relaxed);
        live.take_page();
        *slot = Some(live.clone());
        Ok(live)
    }

    /// Closes the browser (at the end of a run), waiting for it to exit.
    pub async fn close(&self) {
        let old = self.live.lock().await.take();
        if let Some(old) = old {
            browser::close(old).await;
        }
    }

    /// The running browser's process id (tests kill it to see the pool
    /// recover).
    pub async fn browser_pid(&self) -> Option<u32> {
        let live = self.live.lock().await.clone()?;
        live.pid().await
    }
}

/// A unique directory for one browser's profile under `root`.
fn profile_dir(root: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    root.join(format!(
        "profile-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Relaxed)
    ))
}
