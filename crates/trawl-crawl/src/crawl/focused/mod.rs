//! A focused crawl's wiring: the topic's example pages (fetched once, kept
//! in the store), the focus with the link model earlier runs learned, and
//! what each judged page teaches it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::options::{CrawlError, RunOptions};
use super::stats::Stats;
use crate::config::Config;
use crate::fetch::Fetcher;
use crate::focus::{Focus, LinkModel};
use crate::frontier::url::host_key;
use crate::frontier::Lease;
use crate::politeness::clock::Clock;
use crate::record::PageOutcome;
use crate::store::Store;

/// Feeds a judged page to the harvest rate and, through the link that led to
/// it, to the link model (stored every 50 updates and at shutdown).
pub(super) fn learn(f: &Focus, store: &Store, stats: &Stats, lease: &Lease, outcome: &PageOutcome) {
    let Some(relevant) = outcome.relevant else {
        return;
    };
    if let Some(h) = stats.harvest.get() {
        h.judge(&lease.host, relevant);
    }
    if let Some(q) = &lease.item.features {
        let label = if relevant { 1.0 } else { 0.0 };
        if f.learn(q, label) % 50 == 0 {
            save_model(f, store);
        }
    }
}

pub(super) fn save_model(f: &Focus, store: &Store) {
    if let Err(e) = store.meta_put(crate::focus::MODEL_KEY, &f.model_json()) {
        tracing::warn!(error = %e, "link model not saved");
    }
}

/// Main texts of the topics' example URLs: fetched once, each on its host's
/// schedule (`clock`, the crawl's own), then kept in the store (a restart,
/// even offline, judges pages the same way). A URL that cannot be fetched is
/// logged and left out.
pub(super) async fn example_texts(
    cfg: &Config,
    store: &Store,
    fetcher: &dyn Fetcher,
    clock: &Clock,
) -> Result<HashMap<String, String>, CrawlError> {
    let delay = Duration::from_millis(cfg.crawl.min_delay_ms);
    let mut out = HashMap::new();
    for url in cfg.focus.example_urls() {
        let key = format!("example_url:{url}");
        if let Some(text) = store.meta_get(&key)? {
            out.insert(url, String::from_utf8_lossy(&text).into_owned());
            continue;
        }
        let Ok(parsed) = Url::parse(&url) else {
            tracing::warn!(url, "focus example URL is not a URL");
            continue;
        };
        let host = host_key(&parsed);
        // The config names it: it may be a private address.
        if let Some(g) = fetcher.guard() {
            g.allow(&host);
        }
        clock.turn(&host, delay).await;
        let r = fetcher.get(&url).await;
        clock.finished(&host, delay);
        if r.is_transport_error() || !(200..=299).contains(&r.status) {
            tracing::warn!(url, status = r.status, error = ?r.error, "focus example URL not fetched");
            continue;
        }
        match trawl_extract::extract(&r.body, &cfg.extract_options().with_url(url.clone())) {
            Ok(ex) if !ex.text.trim().is_empty() => {
                store.meta_put(&key, ex.text.as_bytes())?;
                out.insert(url, ex.text);
            }
            Ok(_) => tracing::warn!(url, "focus example URL has no main text"),
            Err(e) => tracing::warn!(url, error = %e, "focus example URL not extracted"),
        }
    }
    Ok(out)
}

/// The crawl's focus, with the link model learned by earlier runs.
pub(super) fn build_focus(
    cfg: &Config,
    opts: &RunOptions,
    store: &Store,
    fetched: &HashMap<String, String>,
) -> Result<Option<Arc<Focus>>, CrawlError> {
    let topic = cfg.focus.topic(fetched)?;
    let topics = cfg.focus.named_topics(fetched)?;
    if topic.is_none() && topics.is_empty() {
        return Ok(None);
    }
    let f = &cfg.focus;
    let strategy = opts.strategy.unwrap_or(f.strategy);
    let model = store
        .meta_get(crate::focus::MODEL_KEY)?
        .and_then(|b| LinkModel::from_json(&b, f.learning_rate))
        .unwrap_or_else(|| LinkModel::new(f.learning_rate));
    Ok(Some(Arc::new(Focus::new(
        topic,
        topics,
        strategy,
        f.threshold,
        model,
    ))))
}
