//! One Chromium process: found, started with the flags that keep it quiet
//! and bounded, and retired (closed once its last tab is done, its profile
//! removed).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::Page;
use futures_util::StreamExt;
use tokio::sync::RwLock;

use super::{profile_dir, RenderError, Settings};

/// The browser `configured` names (a path, or a name on the PATH), else the
/// first of `chromium`, `chromium-browser`, `google-chrome` on the PATH.
pub fn find_chromium(configured: &str) -> Result<PathBuf, String> {
    let names: Vec<&str> = if configured.trim().is_empty() {
        vec!["chromium", "chromium-browser", "google-chrome"]
    } else {
        vec![configured.trim()]
    };
    for name in &names {
        let p = Path::new(name);
        if p.components().count() > 1 {
            if p.is_file() {
                return Ok(p.to_path_buf());
            }
            continue;
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        for dir in std::env::split_paths(&path) {
            let c = dir.join(name);
            if c.is_file() {
                return Ok(c);
            }
        }
    }
    Err(if configured.trim().is_empty() {
        "none of chromium, chromium-browser, google-chrome is on the PATH \
         (Debian: apt-get install chromium; or set render.chromium)"
            .into()
    } else {
        format!("render.chromium = {configured:?} is not a file or a program on the PATH")
    })
}

/// A running browser.
pub(super) struct Live {
    browser: RwLock<Browser>,
    handler: tokio::task::JoinHandle<()>,
    pages: AtomicU64,
    dead: Arc<AtomicBool>,
    profile: PathBuf,
}

impl Live {
    /// Starts the browser.
    pub(super) async fn launch(s: &Settings) -> Result<Live, RenderError> {
        let profile = profile_dir(&s.profiles);
        std::fs::create_dir_all(&profile)
            .map_err(|e| RenderError::Launch(format!("profile {}: {e}", profile.display())))?;
        let mut cfg = BrowserConfig::builder()
            .chrome_executable(&s.chromium)
            .user_data_dir(&profile)
            .enable_request_intercept()
            .launch_timeout(Duration::from_secs(20))
            .request_timeout(Duration::from_secs(20))
            .window_size(1280, 900)
            .args([
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-default-apps",
                "--no-first-run",
                "--mute-audio",
                "--dns-prefetch-disable",
                "--blink-settings=imagesEnabled=false",
                // Requests not paused and answered by trawl go nowhere.
                "--proxy-server=http://127.0.0.1:9",
                "--proxy-bypass-list=<-loopback>",
            ])
            .arg(format!(
                "--js-flags=--max-old-space-size={}",
                s.tab_memory_mb
            ))
            .arg(format!("--renderer-process-limit={}", s.tabs.max(1) + 1))
            .env("HOME", profile.display().to_string());
        // As root the sandbox cannot start (Debian's chromium says so).
        // SAFETY: geteuid has no preconditions and cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            cfg = cfg.no_sandbox();
        }
        let cfg = cfg.build().map_err(RenderError::Launch)?;
        let (browser, mut handler) = Browser::launch(cfg)
            .await
            .map_err(|e| RenderError::Launch(e.to_string()))?;
        let dead = Arc::new(AtomicBool::new(false));
        let flag = dead.clone();
        let handler = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                if let Err(e) = event {
                    if is_fatal(&e) {
                        tracing::warn!(error = %e, "the browser connection broke");
                        break;
                    }
                }
            }
            flag.store(true, Relaxed);
        });
        tracing::info!(chromium = %s.chromium.display(), "browser started");
        Ok(Live {
            browser: RwLock::new(browser),
            handler,
            pages: AtomicU64::new(0),
            dead,
            profile,
        })
    }

    /// Counts a page; returns how many it has now.
    pub(super) fn take_page(&self) -> u64 {
        self.pages.fetch_add(1, Relaxed) + 1
    }

    pub(super) fn is_dead(&self) -> bool {
        self.dead.load(Relaxed)
    }

    pub(super) fn set_dead(&self) {
        self.dead.store(true, Relaxed);
    }

    pub(super) async fn new_page(&self) -> Result<Page, chromiumoxide::error::CdpError> {
        self.browser.read().await.new_page("about:blank").await
    }

    pub(super) async fn pid(&self) -> Option<u32> {
        self.browser
            .write()
            .await
            .get_mut_child()
            .and_then(|c| c.inner.id())
    }
}

/// Whether a handler error means the connection is gone.
fn is_fatal(e: &chromiumoxide::error::CdpError) -> bool {
    use chromiumoxide::error::CdpError;
    matches!(
        e,
        CdpError::Ws(_) | CdpError::Io(_) | CdpError::ChannelSendError(_)
    )
}

/// Closes `old` in the background once no render holds it (a restart).
pub(super) fn retire(old: Arc<Live>) {
    tokio::spawn(close(old));
}

/// Closes `old` once no render holds it (killing it if it does not close),
/// then removes its profile.
pub(super) async fn close(old: Arc<Live>) {
    while Arc::strong_count(&old) > 1 {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    {
        let mut b = old.browser.write().await;
        let closed = tokio::time::timeout(Duration::from_secs(5), b.close()).await;
        if !matches!(closed, Ok(Ok(_))) {
            let _ = b.kill().await;
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), b.wait()).await;
    }
    old.handler.abort();
    let _ = std::fs::remove_dir_all(&old.profile);
}
