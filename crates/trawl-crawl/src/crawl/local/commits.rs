//! The single-machine daemon's commits: one sled transaction per URL.
//!
//! A write that fails (disk full, an I/O error) must neither lose the page
//! nor make the daemon fetch it again. sled acknowledges a write before it
//! is on disk, and after an I/O error it refuses every later operation
//! until the database is reopened. So each completed page is kept in
//! memory until a checkpoint (flush) after it succeeds; when a write or a
//! checkpoint fails the store is marked down (fetching pauses, `/status`
//! and the progress line say so), writing stops, and everything not known
//! to be on disk goes back to the daemon, which reopens the store, replays
//! it ([`replay`]; completions are idempotent) and resumes.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::crawl::pipeline::shared::Visit;
use crate::crawl::pipeline::{Commits, Committed};
use crate::crawl::stats::Stats;
use crate::store::{Completion, Store, StoreError};

/// How often the writer makes its writes durable.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// sled transactions as the pipeline's [`Commits`].
pub(in crate::crawl) struct LocalCommits {
    store: Store,
    stats: Arc<Stats>,
    /// Completed pages not yet known to be on disk.
    unflushed: Vec<Visit>,
    down: bool,
    last_record: u64,
    last_checkpoint: Instant,
}

impl LocalCommits {
    pub(in crate::crawl) fn new(store: Store, stats: Arc<Stats>) -> LocalCommits {
        LocalCommits {
            last_record: store.last_record_seq().unwrap_or(0),
            store,
            stats,
            unflushed: Vec::new(),
            down: false,
            last_checkpoint: Instant::now(),
        }
    }

    fn fail(&mut self, what: String) {
        if !self.down {
            tracing::error!(
                "{what}; fetching is paused and the daemon will reopen the store and \
                 retry (the pages fetched meanwhile are kept in memory, not fetched again)"
            );
        }
        self.stats.store_error(what);
        self.down = true;
    }

    fn checkpoint(&mut self) {
        // The counters go with the checkpoint: a restart (even after
        // `kill -9`) goes on from them.
        if let Ok(json) = serde_json::to_vec(&self.stats.snapshot()) {
            if let Err(e) = self
                .store
                .meta_put(super::super::stats::COUNTERS_KEY, &json)
            {
                self.fail(format!("store write failed: {e}"));
            }
        }
        match self.store.checkpoint() {
            Ok(()) => self.unflushed.clear(),
            Err(e) => self.fail(format!("store flush failed: {e}")),
        }
        self.last_checkpoint = Instant::now();
    }
}

impl Commits for LocalCommits {
    /// What waits is written together: one archive sync for all of it (a
    /// group commit), each page still its own sled transaction.
    fn batch(&self) -> usize {
        256
    }

    fn writable(&self) -> bool {
        !self.down
    }

    async fn commit(&mut self, msgs: Vec<Visit>) -> Committed {
        for msg in msgs {
            if !self.down {
                match self
                    .store
                    .complete(&msg.lease.key, &msg.lease.host, &msg.completion)
                {
                    Ok(seq) => {
                        if let Some(seq) = seq.filter(|&s| s > self.last_record) {
                            self.last_record = seq;
                            self.stats.records.fetch_add(1, Relaxed);
                        }
                    }
                    Err(e) => self.fail(format!("store write failed: {e}")),
                }
                self.stats.queue.store(self.store.queue_len_hint(), Relaxed);
                self.stats
                    .over_host_cap
                    .store(self.store.capped_hint(), Relaxed);
            }
            if matches!(msg.completion, Completion::Done { .. }) {
                self.unflushed.push(msg);
            }
        }
        if !self.down && self.last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
            self.checkpoint();
        }
        Committed {
            now: true,
            earlier: vec![],
        }
    }

    async fn close(mut self) -> Vec<Visit> {
        if !self.down {
            self.checkpoint();
        }
        if self.down {
            self.unflushed
        } else {
            Vec::new()
        }
    }
}

/// Applies completions kept from a session whose store went down, then
/// checkpoints. Completions are idempotent: one already on disk changes nothing.
pub(in crate::crawl) fn replay(store: &Store, backlog: &[Visit]) -> Result<(), StoreError> {
    for msg in backlog {
        store.complete(&msg.lease.key, &msg.lease.host, &msg.completion)?;
    }
    store.checkpoint()
}
