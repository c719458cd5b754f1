//! Taps: record sinks an embedding program (or `trawl crawl --feed`) puts
//! next to the store. A tap follows the store's records in `seq` order
//! from its own cursor, kept in the store: the sink is flushed first, then
//! the cursor saved, so after a crash (even `kill -9`) the records since the
//! last saved cursor are handed over again: at least once, never lost;
//! dedupe by `seq`. The store stays the one exactly-once exit; a tap reads
//! what it committed and never holds the crawl back (a slow sink falls
//! behind and catches up).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::sink::{RecordSink, SinkError};
use crate::store::{Store, StoreError};

/// A named sink fed with every record the run's store commits. The name
/// keys its cursor in the store: the same name resumes where it stopped.
#[derive(Clone)]
pub struct Tap {
    name: String,
    sink: Arc<Mutex<dyn RecordSink + Send>>,
}

impl std::fmt::Debug for Tap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tap").field("name", &self.name).finish()
    }
}

impl Tap {
    /// A tap called `name` feeding `sink`.
    pub fn new(name: impl Into<String>, sink: impl RecordSink + Send + 'static) -> Tap {
        Tap {
            name: name.into(),
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    fn cursor_key(&self) -> String {
        format!("tap/{}", self.name)
    }
}

#[derive(Debug, thiserror::Error)]
enum TapError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Sink(#[from] SinkError),
}

/// One tap's progress: the last `seq` handed over, and the last saved.
struct Follower {
    tap: Tap,
    cursor: Option<u64>,
    saved: u64,
    since_save: Instant,
}

/// How often a following tap is flushed and its cursor saved.
const SAVE_EVERY: Duration = Duration::from_secs(1);
/// How long a caught-up tap waits before looking again.
const IDLE: Duration = Duration::from_millis(200);

impl Follower {
    fn new(tap: Tap) -> Self {
        Follower {
            tap,
            cursor: None,
            saved: 0,
            since_save: Instant::now(),
        }
    }

    /// Hands over the records after the cursor (at most `batches` × 1,024);
    /// saves the cursor when `save` or a second has passed. Returns how
    /// many were handed over.
    fn step(&mut self, store: &Store, batches: usize, save: bool) -> Result<usize, TapError> {
        let mut cursor = match self.cursor {
            Some(c) => c,
            None => {
                let c = store
                    .meta_get(&self.tap.cursor_key())?
                    .and_then(|v| v.try_into().ok())
                    .map_or(0, u64::from_be_bytes);
                self.saved = c;
                c
            }
        };
        let mut given = 0;
        let mut sink = self
            .tap
            .sink
            .lock()
            .map_err(|_| SinkError::Format("a tap's sink panicked".into()))?;
        for _ in 0..batches {
            let batch = store.records_after(cursor, 1024)?;
            if batch.is_empty() {
                break;
            }
            for (seq, mut record) in batch {
                record.seq = seq;
                sink.record(&record)?;
                cursor = seq;
                given += 1;
            }
        }
        self.cursor = Some(cursor);
        if cursor > self.saved && (save || self.since_save.elapsed() >= SAVE_EVERY) {
            sink.flush()?;
            store.meta_put(&self.tap.cursor_key(), &cursor.to_be_bytes())?;
            self.saved = cursor;
            self.since_save = Instant::now();
        }
        Ok(given)
    }

    /// After a failed step: what was not saved is handed over again.
    fn rewind(&mut self) {
        self.cursor = None;
    }
}

/// The thread following the run's taps, while the run's store is open.
pub(super) struct Tapping {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Vec<Follower>>,
}

/// Starts following `taps` (none: no thread) in the store `current` gives
/// while the run has one open.
pub(super) fn start(
    taps: &[Tap],
    current: impl Fn() -> Option<Store> + Send + 'static,
) -> Result<Option<Tapping>, std::io::Error> {
    if taps.is_empty() {
        return Ok(None);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let mut followers: Vec<Follower> = taps.iter().cloned().map(Follower::new).collect();
    let thread = std::thread::Builder::new()
        .name("trawl-taps".into())
        .spawn(move || {
            while !flag.load(Relaxed) {
                let mut busy = false;
                if let Some(store) = current() {
                    for f in &mut followers {
                        match f.step(&store, 16, false) {
                            Ok(n) => busy |= n > 0,
                            Err(e) => {
                                tracing::warn!(tap = %f.tap.name, error = %e, "a tap failed; it starts again from its saved cursor");
                                f.rewind();
                            }
                        }
                    }
                }
                if !busy {
                    std::thread::sleep(IDLE);
                }
            }
            followers
        })?;
    Ok(Some(Tapping { stop, thread }))
}

/// Stops following, hands the taps what is left in `store`, saves their
/// cursors and closes their sinks.
pub(super) fn finish(tapping: Tapping, store: &Store) {
    tapping.stop.store(true, Relaxed);
    let Ok(followers) = tapping.thread.join() else {
        tracing::warn!(
            "the taps' thread panicked; their records are handed over on the next start"
        );
        return;
    };
    for mut f in followers {
        let result = f.step(store, usize::MAX, true).and_then(|_| {
            let mut sink = f
                .tap
                .sink
                .lock()
                .map_err(|_| SinkError::Format("a tap's sink panicked".into()))?;
            Ok(sink.close()?)
        });
        if let Err(e) = result {
            tracing::warn!(tap = %f.tap.name, error = %e, "a tap could not be finished; its records are handed over again on the next start");
        }
    }
}
