//! Seeds into the frontier: seed files are read when they change, each seed
//! is registered (its number and options kept in the store) and its URL
//! queued unless known.

use std::path::PathBuf;

use super::shared::Shared;
use crate::config::Config;
use crate::frontier::Frontier;
use crate::seeds::{self, Registry, SeedDefaults};
use crate::store::{NewUrl, QueuedUrl, Store, StoreError, UrlKind};

pub(super) fn seed_defaults(cfg: &Config) -> SeedDefaults {
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
pub(super) fn load_seeds(
    store: &Store,
    shared: &Shared,
    files: &[PathBuf],
    defaults: &SeedDefaults,
    frontier: &mut Frontier,
) -> Result<usize, StoreError> {
    let mut added = 0;
    for file in files {
        let text = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                tracing::warn!(file = %file.display(), error = %e, "cannot read seed file");
                continue;
            }
        };
        let registry = Registry::of(store);
        if registry.file_unchanged(file, &text)? {
            continue;
        }
        let (seeds, errors) =
            seeds::parse(&text, &file.display().to_string(), defaults, &shared.rules);
        for e in &errors {
            tracing::warn!("bad seed line skipped: {e}");
        }
        for seed in seeds {
            let id = registry.register(&seed)?;
            if let Ok(mut s) = shared.seeds.write() {
                s.insert(id, seed.clone());
            }
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
                },
            };
            let n = store.enqueue(&[new])?;
            if n > 0 {
                frontier.host_has_work(&seed.host);
                added += n;
            }
        }
        registry.file_read(file, &text)?;
        tracing::info!(file = %file.display(), bad_lines = errors.len(), "seed file loaded");
    }
    Ok(added)
}
