//! `[render]`: pages that need JavaScript, rendered in headless Chromium.
//! Read once with the rest of the file; ranges checked in
//! [`super::Config::ranges`].

use serde::Deserialize;

use crate::seeds::RenderMode;

/// `[render]`: when and how pages are rendered in a headless browser.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RenderConfig {
    /// When pages are rendered (a seed line's `render=` overrides it).
    pub mode: RenderMode,
    /// The browser: a path, or empty to look for `chromium`,
    /// `chromium-browser`, `google-chrome` on the PATH.
    pub chromium: String,
    /// Pages rendered at once (tabs of one browser).
    pub tabs: usize,
    /// A page's whole render, from navigation to its DOM, at most.
    pub timeout_secs: u64,
    /// The network counts as idle after this long without a request.
    pub idle_ms: u64,
    /// Scrolls to the bottom to load lazy content, at most.
    pub scrolls: u32,
    /// The browser is restarted after this many pages (memory stays flat).
    pub restart_after: u64,
    /// JavaScript heap of a tab, in MiB.
    pub tab_memory_mb: u64,
}

impl Default for RenderConfig {
    fn default() -> Self {
        RenderConfig {
            mode: RenderMode::Auto,
            chromium: String::new(),
            tabs: 2,
            timeout_secs: 30,
            idle_ms: 500,
            scrolls: 5,
            restart_after: 200,
            tab_memory_mb: 512,
        }
    }
}

impl RenderConfig {
    /// Keys, values and allowed ranges.
    pub(super) fn ranges(&self) -> [(&'static str, u64, u64, u64); 6] {
        [
            ("render.tabs", self.tabs as u64, 1, 64),
            ("render.timeout_secs", self.timeout_secs, 1, 600),
            ("render.idle_ms", self.idle_ms, 50, 60_000),
            ("render.scrolls", u64::from(self.scrolls), 0, 100),
            ("render.restart_after", self.restart_after, 1, 1_000_000),
            ("render.tab_memory_mb", self.tab_memory_mb, 64, 16_384),
        ]
    }
}
