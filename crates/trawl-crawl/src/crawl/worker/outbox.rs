//! A cluster worker's commits: each completion goes into a sled outbox,
//! then into the database (links, then the URL's end under the host's
//! epoch), and leaves the outbox. While the database is away the outbox
//! grows and is replayed, in order, when it is back (also after a crash).
//! A completion refused because another worker took the host over is
//! dropped: that worker fetches the URL again.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::leases::{from_lease_key, lease_key};
use crate::cluster::{ClusterCounts, Conn, Finish, FinishEnd, Written};
use crate::crawl::pipeline::shared::Visit;
use crate::crawl::pipeline::{Commits, Committed};
use crate::crawl::stats::Stats;
use crate::crawl::CrawlError;
use crate::store::{Completion, NewUrl, Store, Tree};

/// How long the writer waits before trying the database again.
const RETRY: Duration = Duration::from_secs(1);

/// What the outbox works with.
pub(super) struct OutboxCtx {
    pub conn: Conn,
    pub worker: String,
    pub store: Store,
    pub stats: Arc<Stats>,
    /// Completions in the outbox.
    pub pending: Arc<AtomicUsize>,
    pub refused: Arc<AtomicU64>,
    pub counts: Arc<ClusterCounts>,
    /// Completions per transaction.
    pub batch: usize,
}

/// The outbox as the pipeline's [`Commits`].
pub(super) struct Outbox {
    w: OutboxCtx,
    tree: Tree,
    next_key: u64,
    retry_at: Option<Instant>,
}

/// An outbox entry: the completion and the host it belongs to.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    host: String,
    /// The URL's seed (its page counts).
    #[serde(default)]
    seed: u32,
    finish: Finish,
}

impl Outbox {
    /// Opens the outbox; entries an earlier run left are committed first.
    pub(super) fn open(w: OutboxCtx) -> Result<Outbox, CrawlError> {
        let tree = w.store.outbox()?;
        let next_key = match tree.scan::<Entry>(b"") {
            Ok(entries) => {
                w.pending.store(entries.len(), Relaxed);
                if !entries.is_empty() {
                    tracing::info!(
                        completions = entries.len(),
                        "replaying the outbox of an earlier run"
                    );
                }
                entries
                    .last()
                    .and_then(|(k, _)| k.as_slice().try_into().ok().map(u64::from_be_bytes))
                    .map_or(0, |k| k + 1)
            }
            Err(e) => {
                tracing::error!(error = %e, "the outbox does not read; its completions are fetched again by the cluster");
                0
            }
        };
        // Left entries: tried at the writer's first turn.
        let retry_at = (w.pending.load(Relaxed) > 0).then(Instant::now);
        Ok(Outbox {
            w,
            tree,
            next_key,
            retry_at,
        })
    }

    /// Commits the outbox in order, a batch per transaction; true when it
    /// is empty. Entries that reached the database are added to `landed`.
    async fn drain(&mut self, landed: &mut Vec<(String, Vec<u8>)>) -> bool {
        let entries = match self.tree.scan::<Entry>(b"") {
            Ok(e) => e,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the outbox");
                return false;
            }
        };
        for chunk in entries.chunks(self.w.batch.max(1)) {
            let finishes: Vec<Finish> = chunk.iter().map(|(_, e)| e.finish.clone()).collect();
            match self.w.conn.finish_batch(&self.w.worker, &finishes).await {
                Ok(written) => {
                    for ((key, entry), written) in chunk.iter().zip(written) {
                        self.landed(key, entry, written, landed);
                    }
                    self.w
                        .stats
                        .over_host_cap
                        .store(self.w.conn.capped(), Relaxed);
                }
                Err(e) if e.is_transient() => {
                    self.w.conn.reset();
                    self.w.stats.store_error(format!("cluster database: {e}"));
                    return false;
                }
                // A statement that cannot succeed: one by one, to find it.
                Err(_) => {
                    for (key, entry) in chunk {
                        match self.w.conn.finish(&self.w.worker, &entry.finish).await {
                            Ok(written) => self.landed(key, entry, written, landed),
                            Err(e) if e.is_transient() => {
                                self.w.conn.reset();
                                self.w.stats.store_error(format!("cluster database: {e}"));
                                return false;
                            }
                            Err(e) => {
                                // Dropped rather than block the outbox
                                // forever; the URL stays queued.
                                tracing::error!(error = %e, "a completion cannot be committed; dropped (its URL is fetched again)");
                                if self.tree.remove(key).unwrap_or(false) {
                                    self.w.pending.fetch_sub(1, Relaxed);
                                }
                            }
                        }
                    }
                }
            }
        }
        true
    }

    /// An outbox entry reached the database: counted, removed, reported.
    fn landed(
        &self,
        key: &[u8],
        entry: &Entry,
        written: Written,
        landed: &mut Vec<(String, Vec<u8>)>,
    ) {
        let w = &self.w;
        match written {
            Written::Applied { record, counted } => {
                if record {
                    w.stats.records.fetch_add(1, Relaxed);
                }
                if counted {
                    w.counts.fetched(&entry.host, entry.seed);
                }
            }
            Written::Refused => {
                w.refused.fetch_add(1, Relaxed);
                tracing::warn!(host = %entry.host, "a completion was refused: another worker holds the host now and fetches the URL again");
            }
        }
        if self.tree.remove(key).unwrap_or(false) {
            w.pending.fetch_sub(1, Relaxed);
        }
        let f = &entry.finish;
        landed.push((entry.host.clone(), lease_key(f.host_id, f.epoch, f.hash)));
    }

    /// Drains now, or sets the retry timer.
    async fn try_drain(&mut self) -> Committed {
        let mut earlier = Vec::new();
        let now = self.drain(&mut earlier).await;
        self.retry_at = (!now).then(|| Instant::now() + RETRY);
        Committed { now, earlier }
    }
}

impl Commits for Outbox {
    fn batch(&self) -> usize {
        self.w.batch.max(1)
    }

    fn writable(&self) -> bool {
        true
    }

    async fn commit(&mut self, msgs: Vec<Visit>) -> Committed {
        for msg in msgs {
            let Some(entry) = to_entry(msg) else {
                continue;
            };
            let key = self.next_key.to_be_bytes();
            self.next_key += 1;
            if let Err(e) = self.tree.put(&key, &entry) {
                tracing::error!(error = %e, "cannot write the outbox");
            } else {
                self.w.pending.fetch_add(1, Relaxed);
            }
        }
        // Older entries first: while a retry timer runs, the new ones wait too.
        if self.retry_at.is_some_and(|t| t > Instant::now()) {
            return Committed::default();
        }
        self.try_drain().await
    }

    fn retry_at(&self) -> Option<Instant> {
        (self.w.pending.load(Relaxed) > 0)
            .then(|| self.retry_at.unwrap_or_else(|| Instant::now() + RETRY))
    }

    async fn retry(&mut self) -> Committed {
        self.try_drain().await
    }

    async fn close(mut self) -> Vec<Visit> {
        // Last tries before the worker ends; what stays is committed next start.
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut landed = Vec::new();
        while self.w.pending.load(Relaxed) > 0
            && Instant::now() < deadline
            && !self.drain(&mut landed).await
        {
            tokio::time::sleep(RETRY).await;
        }
        let _ = self.w.store.flush().await;
        Vec::new()
    }
}

/// A completion as an outbox entry (`None`: not a cluster lease).
fn to_entry(msg: Visit) -> Option<Entry> {
    let (host_id, epoch, hash) = from_lease_key(&msg.lease.key)?;
    let links = |links: Vec<NewUrl>| links.into_iter().map(|n| (n.host, n.item)).collect();
    let now = Instant::now();
    let (end, links) = match msg.completion {
        Completion::Done {
            outcome,
            record,
            links: l,
            counted,
            again,
            simhash,
            changed,
            // The shared frontier keeps the URL's row: it needs no copy.
            recheck: _,
        } => (
            FinishEnd::Done {
                outcome,
                record,
                counted: counted.is_some(),
                simhash,
                again,
                changed: changed
                    .into_iter()
                    .map(|c| (c.link.item.url, c.at))
                    .collect(),
            },
            links(l),
        ),
        Completion::Retry { item } => (
            FinishEnd::Retry {
                attempt: item.attempt,
                wait_ms: msg
                    .hold
                    .map_or(0, |t| t.saturating_duration_since(now).as_millis() as u64),
            },
            vec![],
        ),
        Completion::Park { outcome, until, .. } => (
            FinishEnd::Park {
                outcome,
                wait_ms: (until != u64::MAX).then(|| {
                    until
                        .saturating_sub(crate::record::now_secs())
                        .saturating_mul(1000)
                }),
            },
            vec![],
        ),
    };
    let delay_ms = msg
        .hold
        .map_or(msg.delay, |t| {
            t.saturating_duration_since(now).max(msg.delay)
        })
        .as_millis() as u64;
    Some(Entry {
        host: msg.lease.host,
        seed: msg.lease.item.seed,
        finish: Finish {
            host_id,
            epoch,
            hash,
            end,
            links,
            delay_ms,
        },
    })
}
