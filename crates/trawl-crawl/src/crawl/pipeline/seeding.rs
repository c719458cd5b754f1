//! Seeds into the frontier: seed files are read when they change, each seed
//! is registered (its number and options kept in the store) and its URL
//! queued unless known.

use std::path::{Path, PathBuf};

use super::shared::Shared;
use crate::config::Config;
use crate::frontier::Frontier;
use crate::seeds::{self, Registry, SeedDefaults};
use crate::store::{NewUrl, QueuedUrl, Store, StoreError, UrlKind};

pub(in crate::crawl) fn seed_defaults(cfg: &Config) -> SeedDefaults {
    SeedDefaults {
        max_depth: cfg.crawl.max_depth,
        scope: cfg.crawl.scope,
        sitemaps: cfg.crawl.sitemaps,
        mode: cfg.crawl.mode,
        topics: cfg.focus.topics.keys().cloned().collect(),
    }
}

/// Reads seed files that changed since the last look; registers their seeds
/// and queues their URLs (known URLs are not queued again).
pub(in crate::crawl) fn load_seeds(
    store: &Store,
    shared: &Shared,
    files: &[PathBuf],
    defaults: &SeedDefaults,
    frontier: &mut Frontier,
) -> Result<usize, StoreError> {
    let mut added = 0;
    for file in files {
        let Some(ChangedFile { text, seeds, bad }) =
            changed_file(store, file, defaults, &shared.rules)?
        else {
            continue;
        };
        let registry = Registry::of(store);
        for seed in seeds {
            let id = registry.register(&seed)?;
            shared.add_seeds([(id, seed.clone())]);
            let new = NewUrl {
                host: seed.host.clone(),
                item: QueuedUrl {
                    url: seed.url.clone(),
                    depth: 0,
                    seed: id,
                    attempt: 0,
                    kind: UrlKind::Page,
                    priority: 1.0,
                    features: None,
                    revisit: None,
                },
            };
            let n = store.enqueue(&[new])?;
            if n > 0 {
                frontier.host_has_work(&seed.host);
                added += n;
            }
        }
        registry.file_read(file, &text)?;
        tracing::info!(file = %file.display(), bad_lines = bad, "seed file loaded");
    }
    Ok(added)
}

/// A seed file that changed since it was last read.
pub(in crate::crawl) struct ChangedFile {
    pub text: String,
    pub seeds: Vec<crate::seeds::Seed>,
    /// Bad lines (each logged and skipped).
    pub bad: usize,
}

/// Reads `file` if it changed since [`Registry::file_read`] last saw it
/// (an unreadable file is logged and skipped), parses its seeds and logs
/// its bad lines.
pub(in crate::crawl) fn changed_file(
    store: &Store,
    file: &Path,
    defaults: &SeedDefaults,
    rules: &crate::frontier::url::UrlRules,
) -> Result<Option<ChangedFile>, StoreError> {
    let text = match crate::limits::read_capped(file, crate::limits::MAX_SEED_FILE_BYTES) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read seed file");
            return Ok(None);
        }
    };
    if Registry::of(store).file_unchanged(file, &text)? {
        return Ok(None);
    }
    let (seeds, errors) = seeds::parse(&text, &file.display().to_string(), defaults, rules);
    for e in &errors {
        tracing::warn!("bad seed line skipped: {e}");
    }
    Ok(Some(ChangedFile {
        text,
        seeds,
        bad: errors.len(),
    }))
}
