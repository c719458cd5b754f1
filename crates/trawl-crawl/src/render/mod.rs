//! Rendering pages that need JavaScript in headless Chromium, driven over
//! the DevTools protocol (chromiumoxide): a bounded pool of tabs in one
//! browser, started on first use and restarted every
//! [`Settings::restart_after`] pages or when it dies. trawl starts the
//! browser's process itself, so the process dies with trawl, even on
//! `kill -9` (the kernel's parent-death signal).
//!
//! The browser sends nothing by itself. Every request a page makes is
//! paused (`tab`): images, fonts, media, stylesheets, frames, beacons and
//! every method but GET are refused; the rest go to the [`Gate`] the
//! caller gives (the crawl's: robots.txt, the private-network guard, the
//! host's schedule, the archive), and the browser gets the gate's answer.
//! The page's own HTML is the one the crawl fetched, not fetched again.
//! The browser runs with a proxy that does not exist, so a request that
//! escaped interception would fail rather than go out.

mod browser;
mod job;
mod memory;
mod netns;
mod tab;

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, Semaphore};

pub use browser::find_chromium;
pub use job::{Answer, Gate, GateFuture, Job, RenderError, Rendered, Settings};

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
