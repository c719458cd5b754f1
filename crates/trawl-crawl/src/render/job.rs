//! What a render takes and gives: the pool's [`Settings`], a page to
//! render ([`Job`]), the [`Gate`] the browser's requests go through and its
//! [`Answer`], the [`Rendered`] page, and why a render failed
//! ([`RenderError`]).

use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

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
