//! One Chromium process: found, started with the flags that keep it quiet
//! and bounded, and retired (closed once its last tab is done, its profile
//! removed).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::browser::Browser;
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::Page;
use futures_util::StreamExt;
use tokio::sync::RwLock;

use super::job::{RenderError, Settings};

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
    /// Its process, started by us: it dies with trawl (even on `kill -9`:
    /// the kernel sends it SIGKILL when trawl's thread that started it is
    /// gone) and is killed when dropped.
    child: tokio::sync::Mutex<tokio::process::Child>,
    handler: tokio::task::JoinHandle<()>,
    pages: AtomicU64,
    dead: Arc<AtomicBool>,
    profile: PathBuf,
    /// Measures its renderers and kills one past `render.tab_memory_mb`.
    watchdog: tokio::task::JoinHandle<()>,
    /// The DevTools relay into the browser's network namespace, if it has
    /// one of its own.
    relay: Option<tokio::task::JoinHandle<()>>,
    /// Renderers the watchdog killed.
    kills: Arc<AtomicU64>,
}

/// How long a starting browser may take to print its DevTools address. A
/// busy 2-core machine starting several took more than 20 s (CI, stop 63);
/// waiting longer costs nothing when the browser is quick.
const LAUNCH: Duration = Duration::from_secs(60);

/// Flags for a quiet, bounded headless browser.
const FLAGS: [&str; 25] = [
    "--headless",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-breakpad",
    "--disable-component-update",
    "--disable-client-side-phishing-detection",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-hang-monitor",
    "--no-first-run",
    "--mute-audio",
    "--hide-scrollbars",
    "--dns-prefetch-disable",
    "--blink-settings=imagesEnabled=false",
    "--window-size=1280,900",
    // WebRTC sends UDP (STUN, TURN, ICE) past request interception: only
    // through the proxy, which does not exist, so not at all.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--enforce-webrtc-ip-permission-check",
    // Requests not paused and answered by trawl go nowhere.
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
];

impl Live {
    /// Starts the browser and connects to it.
    pub(super) async fn launch(s: &Settings) -> Result<Live, RenderError> {
        remove_stale_profiles(&s.profiles);
        let profile = profile_dir(&s.profiles);
        std::fs::create_dir_all(&profile)
            .map_err(|e| RenderError::Launch(format!("profile {}: {e}", profile.display())))?;
        let mut cmd = tokio::process::Command::new(&s.chromium);
        cmd.args(FLAGS)
            .arg(format!(
                "--js-flags=--max-old-space-size={}",
                s.tab_memory_mb
            ))
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("--remote-debugging-port=0")
            .env("HOME", &profile)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        // As root the sandbox cannot start (Debian's chromium says so).
        // SAFETY: geteuid has no preconditions and cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            cmd.arg("--no-sandbox");
        }
        cmd.arg("about:blank");
        let isolated = super::netns::available();
        // SAFETY: prctl(PR_SET_PDEATHSIG) and `isolate`'s system calls are
        // async-signal-safe and touch no memory of the parent.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if isolated {
                    super::netns::isolate()?;
                }
                Ok(())
            });
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| RenderError::Launch(format!("{}: {e}", s.chromium.display())))?;
        let ws = match tokio::time::timeout(LAUNCH, devtools_url(&mut child)).await {
            Ok(Ok(ws)) => ws,
            Ok(Err(e)) => {
                let _ = child.kill().await;
                return Err(RenderError::Launch(e));
            }
            Err(_) => {
                let _ = child.kill().await;
                return Err(RenderError::Launch(format!(
                    "no DevTools address after {} s",
                    LAUNCH.as_secs()
                )));
            }
        };
        // In a namespace of its own, DevTools is reached through a relay.
        let (ws, relay) = if isolated {
            match super::netns::relay(child.id().unwrap_or(0), &ws).await {
                Ok((url, task)) => (url, Some(task)),
                Err(e) => {
                    let _ = child.kill().await;
                    return Err(RenderError::Launch(format!("DevTools relay: {e}")));
                }
            }
        } else {
            (ws, None)
        };
        let config = HandlerConfig {
            request_intercept: true,
            cache_enabled: false,
            request_timeout: Duration::from_secs(20),
            ..HandlerConfig::default()
        };
        let (browser, mut handler) = match Browser::connect_with_config(ws, config).await {
            Ok(b) => b,
            Err(e) => {
                let _ = child.kill().await;
                return Err(RenderError::Launch(e.to_string()));
            }
        };
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
        let kills = Arc::new(AtomicU64::new(0));
        let watchdog = tokio::spawn(super::memory::watch(
            child.id().unwrap_or(0),
            s.tab_memory_mb,
            kills.clone(),
        ));
        Ok(Live {
            relay,
            watchdog,
            kills,
            browser: RwLock::new(browser),
            child: tokio::sync::Mutex::new(child),
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

    /// Renderers killed for their memory so far.
    pub(super) fn kills(&self) -> Arc<AtomicU64> {
        self.kills.clone()
    }

    pub(super) async fn pid(&self) -> Option<u32> {
        self.child.lock().await.id()
    }
}

/// Reads the browser's standard error until it says where DevTools listens.
async fn devtools_url(child: &mut tokio::process::Child) -> Result<String, String> {
    use tokio::io::AsyncBufReadExt;
    let Some(err) = child.stderr.take() else {
        return Err("no standard error to read".into());
    };
    let mut lines = tokio::io::BufReader::new(err).lines();
    let mut said = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(at) = line.find("ws://") {
            let url = line[at..].trim().to_string();
            // The rest of its output is not read: drained so it never blocks.
            tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
            return Ok(url);
        }
        if said.len() < 5 {
            said.push(line);
        }
    }
    Err(format!("the browser exited: {}", said.join(" | ")))
}

/// Profiles left by a trawl that was killed (`profile-PID-N` of a PID
/// that no longer runs).
fn remove_stale_profiles(root: &Path) {
    let Ok(dir) = std::fs::read_dir(root) else {
        return;
    };
    for e in dir.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix("profile-")
            .and_then(|r| r.split('-').next())
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid {
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
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
        let closed = {
            let mut b = old.browser.write().await;
            tokio::time::timeout(Duration::from_secs(5), b.close()).await
        };
        let mut child = old.child.lock().await;
        let exited = matches!(closed, Ok(Ok(_)))
            && tokio::time::timeout(Duration::from_secs(5), child.wait())
                .await
                .is_ok();
        if !exited {
            let _ = child.kill().await;
        }
    }
    old.handler.abort();
    old.watchdog.abort();
    if let Some(r) = &old.relay {
        r.abort();
    }
    let _ = std::fs::remove_dir_all(&old.profile);
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
