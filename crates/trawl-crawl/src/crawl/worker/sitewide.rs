//! What a cluster worker mirrors of the state all workers share, beyond the
//! frontier: its leases as a [`Fence`] and the page counts its budgets are
//! checked against (kept in `cluster::ClusterCounts`), which the shared
//! stages see through [`ClusterView`], the worker's `Backend`; and the
//! e-commerce templates of the sites it crawls (learned once per site, by
//! whichever worker gets there first, and read by the others when they
//! claim one of the site's hosts).

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, RwLock};
use std::time::Instant;

use crate::cluster::{ClusterCounts, ClusterError, Conn};
use crate::crawl::pipeline::shared::{self, Shared};
use crate::crawl::template::store::Templates;
use crate::frontier::url::site_of;

/// Cluster mode's last check before a request: until when each host this
/// worker has held may still be sent one (its lease, by the local clock).
/// A host never held is not fenced (a robots.txt redirect to another host).
#[derive(Clone, Default)]
pub(crate) struct Fence(Arc<RwLock<HashMap<String, Instant>>>);

impl Fence {
    /// Whether `host` may be sent a request now.
    pub(crate) fn allows(&self, host: &str) -> bool {
        self.0
            .read()
            .map(|m| m.get(host).is_none_or(|t| Instant::now() < *t))
            .unwrap_or(false)
    }

    /// Requests to `host` may be sent until `until` (a past instant: none).
    pub(crate) fn set(&self, host: &str, until: Instant) {
        if let Ok(mut m) = self.0.write() {
            m.insert(host.to_string(), until);
        }
    }
}

/// What the shared stages ask of a cluster worker: a request goes out only
/// while the host's lease surely lives (the fence), and budgets read the
/// cluster's page counts.
pub(in crate::crawl) struct ClusterView {
    pub fence: Fence,
    pub counts: Arc<ClusterCounts>,
    /// For redirect targets: is a URL known to the cluster (rare: redirects only).
    pub db: tokio::sync::Mutex<Conn>,
}

impl shared::Backend for ClusterView {
    fn may_send(&self, host: &str) -> bool {
        self.fence.allows(host)
    }

    fn count(&self, c: &crate::store::Counter) -> Option<u64> {
        self.counts.get(c)
    }

    fn known<'a>(&'a self, url: &'a str) -> shared::BoxFuture<'a, Option<bool>> {
        // A database that does not answer: follow the redirect, as before.
        Box::pin(async move { self.db.lock().await.known(url).await.ok() })
    }

    fn seeds_in_store(&self) -> bool {
        false
    }
}

/// Reads the budgets' counts from the database into `counts`: the
/// crawl's total when `max_pages` is set, and the seeds with a `max_pages`
/// of their own (nothing is read when no budget is set).
pub(in crate::crawl) async fn refresh_counts(
    db: &mut Conn,
    shared: &Shared,
    counts: &ClusterCounts,
) -> Result<(), ClusterError> {
    let seeds = shared.seeds.held_ids(|seed| seed.max_pages.is_some());
    let total = shared.max_pages > 0;
    if seeds.is_empty() && !total {
        return Ok(());
    }
    counts.refresh(db.page_counts(&seeds, total).await?);
    Ok(())
}

/// Versions of the templates the database holds, as this worker last saw
/// them, by (site, cluster).
#[derive(Debug, Default)]
pub(in crate::crawl) struct Published {
    versions: HashMap<(String, u32), u32>,
    /// Template mode's learned-templates count at the last complete push
    /// (`None`: none yet; the store may hold an earlier run's templates).
    learned: Option<u64>,
}

/// Takes the database's templates of the sites of `hosts` into the local
/// store where they are newer or differ at the same version (another
/// worker published first); template mode then reads those sites again.
pub(in crate::crawl) async fn pull_templates(
    db: &mut Conn,
    shared: &Shared,
    published: &mut Published,
    hosts: &[String],
) -> Result<(), ClusterError> {
    let (store, mode) = (&shared.store, &shared.template_mode);
    let mut sites: Vec<String> = hosts.iter().map(|h| site_of(h).to_string()).collect();
    sites.sort();
    sites.dedup();
    let book = Templates::of(store);
    for t in db.templates(&sites).await? {
        published
            .versions
            .insert((t.site.clone(), t.cluster), t.version);
        let local = book
            .list(Some(&t.site))
            .map_err(|e| ClusterError::Bad(e.to_string()))?
            .into_iter()
            .find(|l| l.cluster == t.cluster);
        let take = local
            .as_ref()
            .is_none_or(|l| l.version < t.version || (l.version == t.version && *l != t));
        if take {
            book.replace(&t)
                .map_err(|e| ClusterError::Bad(e.to_string()))?;
            mode.reload(&t.site);
            tracing::debug!(site = %t.site, cluster = t.cluster, version = t.version, "template taken from the cluster");
        }
    }
    Ok(())
}

/// Publishes the templates this worker learned (local versions above what
/// the database was seen to hold); a template another worker published
/// first at the same version is taken in its place.
pub(in crate::crawl) async fn push_templates(
    db: &mut Conn,
    shared: &Shared,
    published: &mut Published,
    worker: &str,
) -> Result<(), ClusterError> {
    // Only when template mode learned something since the last push.
    let learned = shared.stats.templates_learned.load(Relaxed);
    if published.learned == Some(learned) {
        return Ok(());
    }
    let local = Templates::of(&shared.store)
        .list(None)
        .map_err(|e| ClusterError::Bad(e.to_string()))?;
    let mut lost = Vec::new();
    for t in local {
        let key = (t.site.clone(), t.cluster);
        if published
            .versions
            .get(&key)
            .is_some_and(|v| *v >= t.version)
        {
            continue;
        }
        if db.publish_template(worker, &t).await? {
            tracing::info!(site = %t.site, cluster = t.cluster, version = t.version, "template published to the cluster");
            published.versions.insert(key, t.version);
        } else {
            lost.push(t.site.clone());
        }
    }
    if !lost.is_empty() {
        pull_templates(db, shared, published, &lost).await?;
    }
    published.learned = Some(learned);
    Ok(())
}
