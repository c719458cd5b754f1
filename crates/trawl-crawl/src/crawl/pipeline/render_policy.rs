//! When pages are rendered, and with what: the run's render policy
//! (`render.mode`, a seed's `render=`, the browser pool), which the CPU stage
//! asks about each page before the render stage sees it.

use std::sync::Arc;
use std::time::Duration;

use crate::render::Renderer;
use crate::seeds::{RenderMode, Seed};

/// When pages are rendered, and with what.
pub(in crate::crawl) struct RenderPolicy {
    /// `render.mode` (a seed's `render=` overrides it).
    pub mode: RenderMode,
    /// The pool (`None`: no browser was found).
    pub renderer: Option<Arc<Renderer>>,
    /// Why there is no pool.
    pub missing: Option<String>,
}

impl RenderPolicy {
    /// Why the page (of `seed`, extracted as `ex`) should be rendered, if it
    /// should: `always`, or under `auto` what the fetched HTML showed. A
    /// page kept out of the index (`noindex`) is not rendered; under `auto`
    /// without a browser the fetched HTML is extracted as it is.
    pub(crate) fn reason(
        &self,
        seed: &Seed,
        ex: Option<&trawl_extract::Extracted>,
        noindex: bool,
    ) -> Option<String> {
        if noindex {
            return None;
        }
        match seed.render.unwrap_or(self.mode) {
            RenderMode::Never => None,
            RenderMode::Always => Some("always".into()),
            RenderMode::Auto => {
                let need = ex?.needs_script?;
                self.renderer.as_ref()?;
                Some(need.name().into())
            }
        }
    }
}

/// The run's policy: `render.mode`, and a pool when any page may need it.
/// No browser found: an error when `always` is asked for (the setting or a
/// seed's `render=always`), else a warning, and pages are extracted as
/// fetched.
pub(super) fn policy(
    cfg: &crate::config::Config,
    seed_modes: &[RenderMode],
    stats: &crate::crawl::stats::Stats,
) -> Result<RenderPolicy, crate::crawl::options::CrawlError> {
    let r = &cfg.render;
    let modes = || std::iter::once(r.mode).chain(seed_modes.iter().copied());
    let always = modes().any(|m| m == RenderMode::Always);
    if !modes().any(|m| m != RenderMode::Never) {
        return Ok(RenderPolicy {
            mode: r.mode,
            renderer: None,
            missing: Some("render.mode = \"never\"".into()),
        });
    }
    let chromium = match crate::render::find_chromium(&r.chromium) {
        Ok(path) => path,
        Err(why) if always => {
            return Err(crate::crawl::options::CrawlError::Start(format!(
                "rendering is asked for (render.mode = \"always\" or a seed's render=always) \
                 but there is no browser: {why}"
            )))
        }
        Err(why) => {
            tracing::warn!(
                "render.mode = \"auto\" but there is no browser ({why}): pages that need \
                 JavaScript are extracted as fetched"
            );
            return Ok(RenderPolicy {
                mode: r.mode,
                renderer: None,
                missing: Some(why),
            });
        }
    };
    let renderer = Arc::new(Renderer::new(crate::render::Settings {
        chromium,
        tabs: r.tabs.max(1),
        timeout: Duration::from_secs(r.timeout_secs),
        idle: Duration::from_millis(r.idle_ms),
        scrolls: r.scrolls,
        restart_after: r.restart_after,
        tab_memory_mb: r.tab_memory_mb,
        profiles: std::env::temp_dir().join("trawl-browser"),
    }));
    let _ = stats.render.set(renderer.counters.clone()); // set once per run
    Ok(RenderPolicy {
        mode: r.mode,
        renderer: Some(renderer),
        missing: None,
    })
}
