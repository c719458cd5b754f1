//! Taps: record sinks an embedding program (or `trawl crawl --feed`) puts
//! next to the store. A tap follows the committed records in commit order
//! from its own cursor, kept in the run's store: the sink is flushed
//! first, then the cursor saved, so after a crash (even `kill -9`) the
//! records since the last saved cursor are handed over again: at least
//! once, never lost; dedupe by `seq`. The store stays the one exactly-once
//! exit; a tap reads what was committed and never holds the crawl back (a
//! slow sink falls behind and catches up).
//!
//! On one machine a tap follows the sled store's records ([`StoreSource`]);
//! on a cluster worker it follows the cluster's records in PostgreSQL,
//! every worker's, as `trawl export --cluster` reads them
//! ([`ClusterSource`]), its cursor kept in the worker's own store.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cluster::{ClusterError, Conn, Cursor};
use crate::record::Record;
use crate::sink::{RecordSink, SinkError};
use crate::store::{Store, StoreError};

/// A named sink fed with every record the run commits. The name keys its
/// cursor in the store: the same name resumes where it stopped.
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
}

#[derive(Debug, thiserror::Error)]
pub(super) enum TapError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error(transparent)]
    Sink(#[from] SinkError),
    #[error("the run has no store open")]
    NoStore,
}

/// Where taps read committed records from, in commit order.
pub(super) trait Source {
    /// A place in the commit order (the start is the default).
    type Cursor: Copy + Default + PartialOrd;
    /// Whether records can be read now (a store being reopened cannot).
    fn ready(&mut self) -> bool;
    /// The tap `name`'s saved place.
    fn load(&mut self, name: &str) -> Result<Self::Cursor, TapError>;
    /// Saves the tap `name`'s place.
    fn save(&mut self, name: &str, at: Self::Cursor) -> Result<(), TapError>;
    /// Up to `n` records after `at`, each with its place.
    fn after(
        &mut self,
        at: Self::Cursor,
        n: usize,
    ) -> Result<Vec<(Self::Cursor, Record)>, TapError>;
}

/// One machine: the records of the run's sled store, by `seq`.
pub(super) struct StoreSource(Box<dyn Fn() -> Option<Store> + Send>);

impl StoreSource {
    /// The store `current` gives while the run has one open.
    pub(super) fn new(current: impl Fn() -> Option<Store> + Send + 'static) -> StoreSource {
        StoreSource(Box::new(current))
    }

    fn store(&self) -> Result<Store, TapError> {
        (self.0)().ok_or(TapError::NoStore)
    }
}

impl Source for StoreSource {
    type Cursor = u64;

    fn ready(&mut self) -> bool {
        (self.0)().is_some()
    }

    fn load(&mut self, name: &str) -> Result<u64, TapError> {
        Ok(self
            .store()?
            .meta_get(&format!("tap/{name}"))?
            .and_then(|v| v.try_into().ok())
            .map_or(0, u64::from_be_bytes))
    }

    fn save(&mut self, name: &str, at: u64) -> Result<(), TapError> {
        Ok(self
            .store()?
            .meta_put(&format!("tap/{name}"), &at.to_be_bytes())?)
    }

    fn after(&mut self, at: u64, n: usize) -> Result<Vec<(u64, Record)>, TapError> {
        let batch = self.store()?.records_after(at, n)?;
        Ok(batch
            .into_iter()
            .map(|(seq, mut r)| {
                r.seq = seq;
                (seq, r)
            })
            .collect())
    }
}

/// A cluster worker: the cluster's records in PostgreSQL, each tap's
/// cursor in the worker's own store. Its own connection and a small
/// runtime, on the taps' thread.
pub(super) struct ClusterSource {
    store: Store,
    conn: Conn,
    rt: tokio::runtime::Runtime,
}

impl ClusterSource {
    /// Follows the cluster at `url`, cursors kept in `store`.
    pub(super) fn new(store: Store, url: &str) -> Result<ClusterSource, String> {
        let conn = Conn::new(url).map_err(|e| e.to_string())?;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("the taps' runtime: {e}"))?;
        Ok(ClusterSource { store, conn, rt })
    }
}

impl Source for ClusterSource {
    type Cursor = Cursor;

    fn ready(&mut self) -> bool {
        true
    }

    fn load(&mut self, name: &str) -> Result<Cursor, TapError> {
        let saved = self.store.meta_get(&format!("tap/cluster/{name}"))?;
        Ok(saved
            .and_then(|v| String::from_utf8(v).ok())
            .and_then(|s| s.parse().ok())
            .unwrap_or_default())
    }

    fn save(&mut self, name: &str, at: Cursor) -> Result<(), TapError> {
        let key = format!("tap/cluster/{name}");
        Ok(self.store.meta_put(&key, at.to_string().as_bytes())?)
    }

    fn after(&mut self, at: Cursor, n: usize) -> Result<Vec<(Cursor, Record)>, TapError> {
        let (rt, conn) = (&self.rt, &mut self.conn);
        Ok(rt.block_on(crate::cluster::committed_after(conn, at, n))?)
    }
}

/// One tap's progress: the place of the last record handed over, and of
/// the last saved.
struct Follower<C> {
    tap: Tap,
    cursor: Option<C>,
    saved: C,
    since_save: Instant,
}

/// How often a following tap is flushed and its cursor saved.
const SAVE_EVERY: Duration = Duration::from_secs(1);
/// How long a caught-up tap waits before looking again.
const IDLE: Duration = Duration::from_millis(200);

impl<C: Copy + Default + PartialOrd> Follower<C> {
    fn new(tap: Tap) -> Self {
        Follower {
            tap,
            cursor: None,
            saved: C::default(),
            since_save: Instant::now(),
        }
    }

    /// Hands over the records after the cursor (at most `batches` × 1,024);
    /// saves the cursor when `save` or a second has passed. Returns how
    /// many were handed over.
    fn step<S: Source<Cursor = C>>(
        &mut self,
        source: &mut S,
        batches: usize,
        save: bool,
    ) -> Result<usize, TapError> {
        let mut cursor = match self.cursor {
            Some(c) => c,
            None => {
                let c = source.load(&self.tap.name)?;
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
            let batch = source.after(cursor, 1024)?;
            if batch.is_empty() {
                break;
            }
            for (at, record) in batch {
                sink.record(&record)?;
                cursor = at;
                given += 1;
            }
        }
        self.cursor = Some(cursor);
        if cursor > self.saved && (save || self.since_save.elapsed() >= SAVE_EVERY) {
            sink.flush()?;
            source.save(&self.tap.name, cursor)?;
            self.saved = cursor;
            self.since_save = Instant::now();
        }
        Ok(given)
    }

    /// After a failed step: what was not saved is handed over again.
    fn rewind(&mut self) {
        self.cursor = None;
    }

    /// The last records, the cursor saved, the sink closed.
    fn finish<S: Source<Cursor = C>>(mut self, source: &mut S) {
        let result = self.step(source, usize::MAX, true).and_then(|_| {
            let mut sink = self
                .tap
                .sink
                .lock()
                .map_err(|_| SinkError::Format("a tap's sink panicked".into()))?;
            Ok(sink.close()?)
        });
        if let Err(e) = result {
            tracing::warn!(tap = %self.tap.name, error = %e, "a tap could not be finished; its records are handed over again on the next start");
        }
    }
}

/// The thread following the run's taps.
pub(super) struct Tapping<S: Source> {
    stop: Arc<AtomicBool>,
    /// Where the last records are read when the run ends (`None`: the
    /// thread's own source).
    last: Arc<Mutex<Option<S>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl<S: Source> Drop for Tapping<S> {
    /// A run that ends early (an error before [`finish`]) still stops its
    /// taps: the thread hands them what is left and closes them.
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
    }
}

/// Starts following `taps` (none: no thread) in `source`.
pub(super) fn start<S>(taps: &[Tap], mut source: S) -> Result<Option<Tapping<S>>, std::io::Error>
where
    S: Source + Send + 'static,
    S::Cursor: Send,
{
    if taps.is_empty() {
        return Ok(None);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let last: Arc<Mutex<Option<S>>> = Arc::new(Mutex::new(None));
    let (flag, given) = (stop.clone(), last.clone());
    let mut followers: Vec<Follower<S::Cursor>> = taps.iter().cloned().map(Follower::new).collect();
    let thread = std::thread::Builder::new()
        .name("trawl-taps".into())
        .spawn(move || {
            while !flag.load(Relaxed) {
                let mut busy = false;
                if source.ready() {
                    for f in &mut followers {
                        match f.step(&mut source, 16, false) {
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
            let mut source = given.lock().ok().and_then(|mut g| g.take()).unwrap_or(source);
            for f in followers {
                f.finish(&mut source);
            }
        })?;
    Ok(Some(Tapping {
        stop,
        last,
        thread: Some(thread),
    }))
}

/// Stops following: the taps' thread hands them what is left (read
/// through `last`, or its own source when `None`), saves their cursors and
/// closes their sinks.
pub(super) fn finish<S: Source>(mut tapping: Tapping<S>, last: Option<S>) {
    if let Ok(mut g) = tapping.last.lock() {
        *g = last;
    }
    tapping.stop.store(true, Relaxed);
    let joined = tapping.thread.take().map(|t| t.join());
    if matches!(joined, Some(Err(_))) {
        tracing::warn!(
            "the taps' thread panicked; their records are handed over on the next start"
        );
    }
}
