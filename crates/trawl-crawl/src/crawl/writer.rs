//! The store writer: the one thread that completes leases in the store.
//!
//! A write that fails (disk full, an I/O error) must neither lose the page
//! nor make the daemon fetch it again. sled acknowledges a write before it
//! is on disk, and after an I/O error it refuses every later operation
//! until the database is reopened. So the writer keeps each completed page
//! in memory until a checkpoint (flush) after it succeeds; when a write or a
//! checkpoint fails it marks the store down (fetching pauses, `/status` and
//! the progress line say so), stops writing, and hands everything not known
//! to be on disk back to the daemon, which reopens the store, replays it
//! (completions are idempotent) and resumes.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::learning::{learn, save_model};
use super::shared::{Sched, WriterMsg};
use super::stats::Stats;
use crate::focus::Focus;
use crate::store::{Completion, Store};

/// How often the writer makes its writes durable.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Runs the writer until `rx` closes. Returns the completed pages that are
/// not known to be on disk when the store went down (empty otherwise).
pub(super) fn run(
    store: Store,
    focus: Option<Arc<Focus>>,
    stats: Arc<Stats>,
    sched: mpsc::UnboundedSender<Sched>,
    mut rx: mpsc::Receiver<WriterMsg>,
) -> Vec<WriterMsg> {
    let mut unflushed: Vec<WriterMsg> = Vec::new();
    let mut down = false;
    let mut last_record = store.last_record_seq().unwrap_or(0);
    let mut last_checkpoint = Instant::now();
    let fail = |what: String, down: &mut bool| {
        if !*down {
            tracing::error!(
                "{what}; fetching is paused and the daemon will reopen the store and \
                 retry (the pages fetched meanwhile are kept in memory, not fetched again)"
            );
        }
        stats.store_error(what);
        *down = true;
    };
    while let Some(msg) = rx.blocking_recv() {
        if !down {
            if let (Some(f), Completion::Done { outcome, .. }) = (&focus, &msg.completion) {
                learn(f, &store, &stats, &msg.lease, outcome);
            }
            match store.complete(&msg.lease.key, &msg.lease.host, &msg.completion) {
                Ok(seq) => {
                    if let Some(seq) = seq.filter(|&s| s > last_record) {
                        last_record = seq;
                        stats.records.fetch_add(1, Relaxed);
                    }
                }
                Err(e) => fail(format!("store write failed: {e}"), &mut down),
            }
            stats.queue.store(store.queue_len_hint(), Relaxed);
        }
        // The scheduler may be gone during shutdown; nothing to tell then.
        let _ = sched.send(Sched::Finished {
            host: msg.lease.host.clone(),
            delay: msg.delay,
            hold: msg.hold,
        });
        if matches!(msg.completion, Completion::Done { .. }) {
            unflushed.push(msg);
        }
        if !down && last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
            match store.checkpoint() {
                Ok(()) => unflushed.clear(),
                Err(e) => fail(format!("store flush failed: {e}"), &mut down),
            }
            last_checkpoint = Instant::now();
        }
    }
    if let Some(f) = focus.as_ref().filter(|_| !down) {
        save_model(f, &store);
    }
    if !down {
        match store.checkpoint() {
            Ok(()) => unflushed.clear(),
            Err(e) => fail(format!("store flush failed: {e}"), &mut down),
        }
    }
    if down {
        unflushed
    } else {
        Vec::new()
    }
}

/// Applies completions kept from a session whose store went down, then
/// checkpoints. Completions are idempotent: one already on disk changes nothing.
pub(super) fn replay(store: &Store, backlog: &[WriterMsg]) -> Result<(), crate::store::StoreError> {
    for msg in backlog {
        store.complete(&msg.lease.key, &msg.lease.host, &msg.completion)?;
    }
    store.checkpoint()
}
