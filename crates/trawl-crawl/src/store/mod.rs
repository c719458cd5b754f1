//! The sled store: everything the daemon must not lose.
//!
//! The crawl state lives in one sled tree, in key-prefixed ranges (integers
//! big-endian so byte order is numeric order):
//! - `n` seq(8) → inbox entry: newly found URLs, not yet scheduled.
//! - `q` host(8) ++ priority(2) ++ seq(8) → a block of one host's queued
//!   URLs, best priority first, FIFO within a priority (see `queue`).
//! - `s` bucket(4) → sorted URL hashes: every URL ever queued (see `seen`).
//! - `h` host(8) → host name: the hosts that ever had a queue.
//! - `p` xxh3-128(url) → [`PageOutcome`]: what happened to each fetch.
//! - `o` seq(8) → xxh3-128(url): outcomes in the order written (see
//!   `outcomes`).
//! - `r` seq(8) → exported JSON record; `seq` is the export cursor.
//! - `x` band(1) ++ bits(2) ++ seq(8) → simhash(8): near-duplicate index.
//! - `k` until(8) ++ xxh3-128(url) → a URL set aside with an outcome
//!   (host stopped, budget spent), offered again later (see `parked`).
//! - `d` due(8) ++ xxh3-128(url) → a URL waiting to be fetched again (see
//!   `revisits`).
//! - `v` seq(8) → seq(8): a record replaced by a newer version (see `versions`).
//! - `m` name → counters (records, page budgets, queue length), the store
//!   format and seed file hashes.
//!
//! Separate trees hold robots.txt copies and seed options.
//!
//! Why one tree: sled applies a batch to one tree atomically, so completing a
//! page (outcome, record, new links, its block's release) is one
//! `apply_batch` and a `kill -9` at any moment leaves all of it or none of
//! it. (sled's multi-tree transactions give the same guarantee but grew the
//! process to 840 MB in the frontier benchmark; batches keep it flat.)
//! Batches are built from reads made just before, under the queue lock. sled
//! loses at most the last flush interval, and what it loses is replayed from
//! the blocks; a URL that already has a record never gets a second one.
//! Nothing is stored or exported twice.

pub mod alloc;
pub mod export;
mod hosts;
pub(crate) mod queue;
pub(crate) mod records;
mod revisits;
pub(crate) mod seen;
pub(crate) mod simhash;
mod tree;
mod versions;

mod codec;
mod complete;
mod error;
mod handle;
mod layout;
mod outcomes;
mod parked;
mod queued;
pub mod raw;
mod readonly;
mod state;

pub use error::StoreError;
pub use handle::Store;
pub use layout::{host_hash, url_hash, Counter, DEFAULT_SEEN_FILTER, FORMAT, LINK_FEATURES};
pub use queue::Block;
pub use queued::{Again, Changed, Completion, NewUrl, QueuedUrl, Revisit, UrlKind, HUB_LINKS};
pub use records::CheckReport;
pub use state::QueueCap;
pub use tree::Tree;

use std::path::Path;

use serde::{Deserialize, Serialize};

use codec::{be_u64, decode, encode};
use layout::{key, H, M, P, R, RECORD_SEQ, X};

pub use crate::record::{PageOutcome, Record};

/// Whether opening failed only because another handle still holds the
/// directory's lock. sled wraps the `WouldBlock` of `flock` in an `Other`
/// error ("could not acquire lock on …"), so the cause is looked for inside.
fn lock_is_busy(e: &std::io::Error) -> bool {
    if e.kind() == std::io::ErrorKind::WouldBlock {
        return true;
    }
    let inner = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<std::io::Error>())
        .is_some_and(|inner| inner.kind() == std::io::ErrorKind::WouldBlock);
    inner || e.to_string().contains("could not acquire lock")
}

impl Store {
    /// Opens (or creates) the store in `dir` with the default seen filter.
    pub fn open(dir: &Path, cache_bytes: u64) -> Result<Store, StoreError> {
        Store::open_sized(dir, cache_bytes, DEFAULT_SEEN_FILTER)
    }

    /// Opens (or creates) the store in `dir`; `seen_filter_bytes` sizes the
    /// in-memory filter in front of the seen-set.
    pub fn open_sized(
        dir: &Path,
        cache_bytes: u64,
        seen_filter_bytes: u64,
    ) -> Result<Store, StoreError> {
        Store::open_at(dir, dir, cache_bytes, seen_filter_bytes, None)
    }

    /// Opens the sled database in `db_dir` as the store of `dir` (its name
    /// in messages, where its checkpoint is read). `copy`: `db_dir` is a
    /// private copy, removed with the store (see [`readonly`]).
    fn open_at(
        db_dir: &Path,
        dir: &Path,
        cache_bytes: u64,
        seen_filter_bytes: u64,
        copy: Option<std::sync::Arc<handle::Copy>>,
    ) -> Result<Store, StoreError> {
        let config = sled::Config::new()
            .path(db_dir)
            .cache_capacity(cache_bytes)
            .flush_every_ms(Some(500));
        // The lock of a store closed a moment ago (by this process or one
        // that just exited) can outlive it briefly while sled's flusher
        // thread stops: wait for it rather than fail.
        let mut tries = 0;
        let db = loop {
            match readonly::guard(dir, || config.open())? {
                Ok(db) => break db,
                Err(sled::Error::Io(e)) if lock_is_busy(&e) && tries < 40 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(sled::Error::Io(e)) if lock_is_busy(&e) => {
                    return Err(StoreError::Busy {
                        path: dir.display().to_string(),
                    })
                }
                Err(source) => {
                    return Err(StoreError::Open {
                        path: dir.display().to_string(),
                        source,
                    })
                }
            }
        };
        let store = Store {
            kv: db.open_tree("crawl")?,
            robots: db.open_tree("robots")?,
            seeds: db.open_tree("seeds")?,
            templates: db.open_tree("templates")?,
            host_times: db.open_tree("hosts")?,
            dir: dir.to_path_buf(),
            copy,
            state: std::sync::Arc::new(std::sync::Mutex::new(state::QueueState {
                seen: seen::Seen::new(seen_filter_bytes),
                inbox: 0,
                last_merge: std::time::Instant::now(),
                new_hosts: Vec::new(),
                known_hosts: Default::default(),
                open_blocks: Default::default(),
                session_seq: 0,
                queued: 0,
                cap: None,
                capped: 0,
            })),
            db,
        };
        let format_key = key(M, b"format");
        match store.kv.get(&format_key)? {
            Some(v) if be_u64(Some(v.clone())) == FORMAT => {}
            found => {
                if found.is_some() || store.kv.first()?.is_some() {
                    return Err(StoreError::Format {
                        path: dir.display().to_string(),
                        found: be_u64(found).max(1),
                    });
                }
                store.kv.insert(format_key, &FORMAT.to_be_bytes())?;
            }
        }
        store.number_old_outcomes()?;
        {
            let mut st = store.lock();
            if store.copy.is_some() {
                // A read-only view queues nothing: the counters are enough,
                // and the seen-set's layers (memory that grows with every
                // URL ever queued) are not built.
                store.load_counters(&mut st)?;
            } else {
                store.load_queue_state(&mut st)?;
                // Redo a merge a crash may have cut short (same entries, same keys).
                if st.inbox > 0 {
                    store.merge_locked(&mut st, queue::MERGE_AT)?;
                }
            }
        }
        Ok(store)
    }

    /// Writes everything to disk (call at checkpoints and on shutdown).
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.db.flush_async().await?;
        Ok(())
    }

    /// Makes every write so far durable (blocking).
    pub fn flush_blocking(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    /// Adds URLs not seen before; returns how many were new.
    pub fn enqueue(&self, urls: &[NewUrl]) -> Result<usize, StoreError> {
        let mut st = self.lock();
        let mut batch = sled::Batch::default();
        let (fresh, _) = self.enqueue_into(&mut st, &mut batch, urls, false)?;
        if fresh.is_empty() {
            return Ok(0);
        }
        Self::put_queued(&mut batch, st.queued + fresh.len() as u64);
        self.kv.apply_batch(batch)?;
        Self::note_enqueued(&mut st, &fresh);
        self.bound_inbox(&mut st)?;
        Ok(fresh.len())
    }

    /// Keeps the inbox (and the in-memory hashes of its URLs) bounded when
    /// URLs arrive faster than the scheduler merges them.
    fn bound_inbox(&self, st: &mut state::QueueState) -> Result<(), StoreError> {
        while st.inbox >= 2 * queue::MERGE_AT {
            self.merge_locked(st, queue::MERGE_AT)?;
        }
        Ok(())
    }

    /// URLs waiting in the queue (inbox and blocks).
    pub fn queue_len_hint(&self) -> u64 {
        self.lock().queued
    }

    /// Bounds the URLs each host may have queued through completions
    /// (`None`: unbounded, as a store opened without a crawl).
    pub fn set_queue_cap(&self, cap: Option<QueueCap>) {
        self.lock().cap = cap;
    }

    /// Links left out this run because their host had used its frontier room.
    pub fn capped_hint(&self) -> u64 {
        self.lock().capped
    }

    /// Hosts that ever had a queue: (key, name).
    pub fn hosts(&self) -> Result<Vec<([u8; 8], String)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.kv.scan_prefix([H]) {
            let (k, v) = kv?;
            if let Ok(host) = <[u8; 8]>::try_from(&k[1..]) {
                out.push((host, String::from_utf8_lossy(&v).into_owned()));
            }
        }
        Ok(out)
    }

    /// A record with a near-identical text (SimHash within 3 bits), if any.
    pub fn near_duplicate(&self, hash: u64) -> Result<Option<u64>, StoreError> {
        for (band, bits) in simhash::bands(hash).into_iter().enumerate() {
            let mut prefix = vec![X, band as u8];
            prefix.extend_from_slice(&bits.to_be_bytes());
            for kv in self.kv.scan_prefix(&prefix) {
                let (k, v) = kv?;
                let other = v
                    .as_ref()
                    .try_into()
                    .ok()
                    .map(u64::from_be_bytes)
                    .unwrap_or(!hash);
                if (other ^ hash).count_ones() <= 3 {
                    let seq = k
                        .get(4..12)
                        .and_then(|s| s.try_into().ok())
                        .map(u64::from_be_bytes);
                    return Ok(seq);
                }
            }
        }
        Ok(None)
    }

    /// A stored record.
    pub fn record(&self, seq: u64) -> Result<Option<Record>, StoreError> {
        match self.kv.get(key(R, &seq.to_be_bytes()))? {
            Some(v) => Ok(Some(decode("records", records::open(seq, &v)?)?)),
            None => Ok(None),
        }
    }

    /// The URL of a stored record, read without the rest of it (a
    /// near-duplicate's name: the text and Markdown are skipped, not built).
    pub fn record_url(&self, seq: u64) -> Result<Option<String>, StoreError> {
        #[derive(serde::Deserialize)]
        struct Url {
            url: String,
        }
        match self.kv.get(key(R, &seq.to_be_bytes()))? {
            Some(v) => Ok(Some(decode::<Url>("records", records::open(seq, &v)?)?.url)),
            None => Ok(None),
        }
    }

    /// Records after `since`, in order, at most `limit`.
    pub fn records_after(
        &self,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, Record)>, StoreError> {
        let start = key(R, &since.saturating_add(1).to_be_bytes());
        let mut out = Vec::new();
        for kv in self.kv.range(start..[R + 1].to_vec()).take(limit) {
            let (k, v) = kv?;
            let seq = k
                .get(1..9)
                .and_then(|s| s.try_into().ok())
                .map_or(0, u64::from_be_bytes);
            out.push((seq, decode("records", records::open(seq, &v)?)?));
        }
        Ok(out)
    }

    /// A page outcome by URL.
    pub fn page(&self, url: &str) -> Result<Option<PageOutcome>, StoreError> {
        match self.kv.get(key(P, &url_hash(url)))? {
            Some(v) => Ok(Some(decode("pages", &v)?)),
            None => Ok(None),
        }
    }

    /// All page outcomes.
    pub fn pages(&self) -> impl Iterator<Item = Result<PageOutcome, StoreError>> + '_ {
        self.kv.scan_prefix([P]).map(|kv| {
            let (_, v) = kv?;
            decode("pages", &v)
        })
    }

    /// Cached robots.txt of a host: (fetched at, status, body).
    pub fn robots(&self, host: &str) -> Result<Option<(u64, u16, String)>, StoreError> {
        match self.robots.get(host.as_bytes())? {
            Some(v) => Ok(Some(decode("robots", &v)?)),
            None => Ok(None),
        }
    }

    /// Caches a host's robots.txt (its body and when it was fetched).
    pub fn put_robots(
        &self,
        host: &str,
        fetched_at: u64,
        status: u16,
        body: &str,
    ) -> Result<(), StoreError> {
        self.robots
            .insert(host.as_bytes(), encode(&(fetched_at, status, body)))?;
        Ok(())
    }

    /// Seed options by id.
    pub fn put_seed<T: Serialize>(&self, id: u32, seed: &T) -> Result<(), StoreError> {
        self.seeds.insert(id.to_be_bytes(), encode(seed))?;
        Ok(())
    }

    /// Every registered seed, by id, one at a time (a million seeds are
    /// never all in memory).
    pub fn each_seed<T: for<'a> Deserialize<'a>>(
        &self,
        mut f: impl FnMut(u32, T),
    ) -> Result<(), StoreError> {
        for kv in self.seeds.iter() {
            let (k, v) = kv?;
            let id = k
                .as_ref()
                .try_into()
                .ok()
                .map(u32::from_be_bytes)
                .unwrap_or(0);
            f(id, decode("seeds", &v)?);
        }
        Ok(())
    }

    /// The seed registered as `id`.
    pub fn seed<T: for<'a> Deserialize<'a>>(&self, id: u32) -> Result<Option<T>, StoreError> {
        match self.seeds.get(id.to_be_bytes())? {
            Some(v) => Ok(Some(decode("seeds", &v)?)),
            None => Ok(None),
        }
    }

    /// Cluster mode's outbox: a worker's completions not yet committed to
    /// the shared database (the cluster worker owns its format).
    pub fn outbox(&self) -> Result<Tree, StoreError> {
        Ok(Tree::new(
            self.db.open_tree("cluster_outbox")?,
            "cluster_outbox",
        ))
    }

    /// The learned templates' keyspace (the crawl's shop owns its format).
    pub fn templates(&self) -> Tree {
        Tree::new(self.templates.clone(), "templates")
    }

    /// Pages fetched so far (for budgets).
    pub fn count(&self, c: Counter<'_>) -> Result<u64, StoreError> {
        Ok(be_u64(self.kv.get(key(M, c.key().as_bytes()))?))
    }

    /// The last record sequence number (the export cursor's upper end).
    pub fn last_record_seq(&self) -> Result<u64, StoreError> {
        Ok(be_u64(self.kv.get(key(M, RECORD_SEQ.as_bytes()))?))
    }

    /// A small persistent value (seed file hashes, learned models, …).
    pub fn meta_get(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.kv.get(key(M, name.as_bytes()))?.map(|v| v.to_vec()))
    }

    /// Stores a named value (model, examples, markers).
    pub fn meta_put(&self, name: &str, value: &[u8]) -> Result<(), StoreError> {
        self.kv.insert(key(M, name.as_bytes()), value)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::layout::N;
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("trawl-store-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d); // a leftover from an earlier run, if any
        d
    }

    fn item(url: &str, priority: f32) -> NewUrl {
        let host = url::Url::parse(url)
            .map(|u| crate::frontier::url::host_key(&u))
            .unwrap_or_default();
        NewUrl {
            host,
            item: QueuedUrl {
                url: url.into(),
                depth: 0,
                seed: 0,
                attempt: 0,
                kind: UrlKind::Page,
                priority,
                features: None,
                revisit: None,
            },
        }
    }

    /// Merges the inbox and leases the host's first URL, as the frontier does.
    fn lease(s: &Store, host: &str) -> Option<(Vec<u8>, QueuedUrl)> {
        s.maintain(true).expect("merge");
        let block = s.next_block(&host_hash(host)).expect("block")?;
        let first = block.items.first().cloned()?;
        Some((block.key, first))
    }

    fn done(url: &str, links: Vec<NewUrl>) -> Completion {
        Completion::Done {
            outcome: PageOutcome {
                url: url.into(),
                status: 200,
                ..PageOutcome::default()
            },
            record: Some(Box::new(Record {
                url: url.to_string(),
                ..Record::default()
            })),
            simhash: None,
            links,
            counted: Some(("a.test".into(), 1)),
            again: None,
            changed: Vec::new(),
            recheck: None,
        }
    }

    #[test]
    fn dedup_priority_and_leases_survive_reopen() {
        let dir = tmp("lease");
        {
            let s = Store::open(&dir, 1 << 20).expect("open");
            assert_eq!(
                s.enqueue(&[item("http://a.test/1", 0.5), item("http://a.test/2", 0.9)])
                    .expect("enq"),
                2
            );
            assert_eq!(
                s.enqueue(&[item("http://a.test/1", 0.5)]).expect("enq"),
                0,
                "seen while in the inbox"
            );
            let (_lease, first) = lease(&s, "a.test").expect("some");
            assert_eq!(first.url, "http://a.test/2", "higher priority first");
            assert_eq!(
                s.enqueue(&[item("http://a.test/2", 0.5)]).expect("enq"),
                0,
                "seen after the merge"
            );
            s.flush_blocking().expect("flush");
        }
        let s = Store::open(&dir, 1 << 20).expect("reopen");
        assert_eq!(s.queue_len_hint(), 2, "the leased URL is still queued");
        assert_eq!(s.enqueue(&[item("http://a.test/1", 0.5)]).expect("enq"), 0);
        let (_, first) = lease(&s, "a.test").expect("some");
        assert_eq!(first.url, "http://a.test/2", "the lease is replayed");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn the_inbox_survives_a_crash_unmerged() {
        let dir = tmp("inbox");
        {
            let s = Store::open(&dir, 1 << 20).expect("open");
            s.enqueue(&[item("http://a.test/x", 0.5)]).expect("enq");
            s.flush_blocking().expect("flush");
        }
        let s = Store::open(&dir, 1 << 20).expect("reopen");
        assert_eq!(s.inbox_len(), 0, "merged at open");
        assert_eq!(s.queue_len_hint(), 1);
        assert_eq!(s.enqueue(&[item("http://a.test/x", 0.5)]).expect("enq"), 0);
        let (_, first) = lease(&s, "a.test").expect("some");
        assert_eq!(first.url, "http://a.test/x");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn a_block_is_removed_with_its_last_url_and_replays_skip_done_urls() {
        let dir = tmp("blocks");
        {
            let s = Store::open(&dir, 1 << 20).expect("open");
            s.enqueue(&[item("http://a.test/1", 0.9), item("http://a.test/2", 0.5)])
                .expect("enq");
            let (block, first) = lease(&s, "a.test").expect("some");
            s.complete(&block, "a.test", &done(&first.url, vec![]))
                .expect("complete");
            assert_eq!(s.queue_len_hint(), 1);
            s.flush_blocking().expect("flush");
            // "Crash" with /2 leased and the block still in sled.
        }
        let s = Store::open(&dir, 1 << 20).expect("reopen");
        let block = s
            .next_block(&host_hash("a.test"))
            .expect("next")
            .expect("block");
        let urls: Vec<&str> = block.items.iter().map(|i| i.url.as_str()).collect();
        assert_eq!(urls, ["http://a.test/2"], "the done URL is skipped");
        s.complete(&block.key, "a.test", &done("http://a.test/2", vec![]))
            .expect("complete");
        assert_eq!(s.queue_len_hint(), 0);
        assert!(s.next_block(&host_hash("a.test")).expect("next").is_none());
        assert!(!s.host_has_queue(&host_hash("a.test")).expect("queue"));
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn a_merge_cut_short_is_redone_without_duplicates() {
        let dir = tmp("redo");
        {
            let s = Store::open(&dir, 1 << 20).expect("open");
            let urls: Vec<NewUrl> = (0..40)
                .map(|i| item(&format!("http://a.test/{i}"), 0.5))
                .collect();
            s.enqueue(&urls).expect("enq");
            let inbox: Vec<(sled::IVec, sled::IVec)> =
                s.kv.scan_prefix([N]).filter_map(Result::ok).collect();
            s.maintain(true).expect("merge");
            // As if the process died after the blocks were written but
            // before the inbox entries were removed.
            for (k, v) in inbox {
                s.kv.insert(k, v).expect("restore");
            }
            s.flush_blocking().expect("flush");
        }
        let s = Store::open(&dir, 1 << 20).expect("reopen");
        assert_eq!(s.inbox_len(), 0);
        let mut urls = Vec::new();
        while let Some(b) = s.next_block(&host_hash("a.test")).expect("next") {
            urls.extend(b.items.into_iter().map(|i| i.url));
        }
        let n = urls.len();
        urls.sort();
        urls.dedup();
        assert_eq!((n, urls.len()), (40, 40), "each URL queued once");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn opening_waits_for_a_handle_that_is_closing() {
        // Regression: sled reports a held lock as `Other` wrapping
        // `WouldBlock`, so the wait never ran and a reopen right after a
        // close failed ("could not acquire lock") when the flusher lagged.
        let dir = tmp("busy");
        let s = Store::open(&dir, 1 << 20).expect("open");
        let closer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            drop(s);
        });
        let again = Store::open(&dir, 1 << 20);
        closer.join().expect("closer");
        assert!(again.is_ok(), "{:?}", again.err());
        drop(again);
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn lock_errors_are_recognised_through_sleds_wrapping() {
        let inner = std::io::Error::from(std::io::ErrorKind::WouldBlock);
        let wrapped = std::io::Error::other(inner);
        assert!(lock_is_busy(&wrapped));
        let text = std::io::Error::other("could not acquire lock on \"x/db\"");
        assert!(lock_is_busy(&text));
        assert!(!lock_is_busy(&std::io::Error::from(
            std::io::ErrorKind::PermissionDenied
        )));
    }

    #[test]
    fn a_retry_goes_back_through_the_inbox() {
        let dir = tmp("retry");
        let s = Store::open(&dir, 1 << 20).expect("open");
        s.enqueue(&[item("http://a.test/r", 0.9)]).expect("enq");
        let (block, mut first) = lease(&s, "a.test").expect("some");
        first.attempt = 1;
        s.complete(&block, "a.test", &Completion::Retry { item: first })
            .expect("retry");
        assert_eq!(s.queue_len_hint(), 1);
        let (_, again) = lease(&s, "a.test").expect("requeued");
        assert_eq!((again.url.as_str(), again.attempt), ("http://a.test/r", 1));
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn an_old_store_is_refused_by_name() {
        let dir = tmp("format");
        {
            let db = sled::open(&dir).expect("sled");
            let t = db.open_tree("crawl").expect("tree");
            t.insert(b"i\x00", b"old").expect("insert");
            db.flush().expect("flush");
        }
        let err = Store::open(&dir, 1 << 20).err().expect("refused");
        assert!(err.to_string().contains("older trawl"), "{err}");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn a_replayed_page_keeps_its_first_record() {
        // A crash after the completion but before the lease left the flush
        // window replays the URL; the second completion must not add a record.
        let dir = tmp("replay");
        let s = Store::open(&dir, 1 << 20).expect("open");
        s.enqueue(&[item("http://a.test/", 1.0)]).expect("enq");
        let (lease, q) = lease(&s, "a.test").expect("some");
        let done = || Completion::Done {
            outcome: PageOutcome {
                url: q.url.clone(),
                status: 200,
                ..PageOutcome::default()
            },
            record: Some(Box::new(Record {
                url: q.url.clone(),
                ..Record::default()
            })),
            simhash: None,
            links: vec![],
            counted: Some(("a.test".into(), 1)),
            again: None,
            changed: Vec::new(),
            recheck: None,
        };
        assert_eq!(
            s.complete(&lease, "a.test", &done()).expect("first"),
            Some(1)
        );
        assert_eq!(
            s.complete(&lease, "a.test", &done()).expect("replay"),
            Some(1)
        );
        assert_eq!(s.records_after(0, 10).expect("records").len(), 1);
        assert_eq!(s.count(Counter::Total).expect("count"), 1);
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn completion_is_atomic_and_numbers_records() {
        let dir = tmp("complete");
        let s = Store::open(&dir, 1 << 20).expect("open");
        s.enqueue(&[item("http://a.test/", 1.0)]).expect("enq");
        let (lease, q) = lease(&s, "a.test").expect("some");
        let seq = s
            .complete(
                &lease,
                "a.test",
                &Completion::Done {
                    outcome: PageOutcome {
                        url: q.url.clone(),
                        status: 200,
                        ..PageOutcome::default()
                    },
                    record: Some(Box::new(Record {
                        url: q.url.clone(),
                        ..Record::default()
                    })),
                    simhash: Some(0xdead_beef),
                    links: vec![item("http://a.test/next", 0.5)],
                    counted: Some(("a.test".into(), 7)),
                    again: None,
                    changed: Vec::new(),
                    recheck: None,
                },
            )
            .expect("complete");
        assert_eq!(seq, Some(1));
        assert_eq!(s.queue_len_hint(), 1);
        assert_eq!(s.records_after(0, 10).expect("records").len(), 1);
        assert!(s.records_after(1, 10).expect("records").is_empty());
        assert_eq!(s.near_duplicate(0xdead_beef ^ 0b101).expect("sim"), Some(1));
        assert_eq!(s.near_duplicate(!0xdead_beef).expect("sim"), None);
        assert_eq!(
            s.page(&q.url).expect("page").map(|p| p.record),
            Some(Some(1))
        );
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    /// Issue 53, item 3: a store that lost records while sled still opens
    /// it is not vouched for (`status` said "12,000 records" of a store
    /// holding 4,710).
    #[test]
    fn lost_records_are_noticed_without_reading_them() {
        let dir = tmp("present");
        let s = Store::open(&dir, 1 << 20).expect("open");
        let urls = ["http://a.test/1", "http://a.test/2", "http://a.test/3"];
        s.enqueue(&urls.map(|u| item(u, 0.5))).expect("enq");
        s.maintain(true).expect("merge");
        let block = s.next_block(&host_hash("a.test")).expect("block");
        for q in block.iter().flat_map(|b| &b.items) {
            let key = &block.as_ref().expect("leased").key;
            s.complete(key, "a.test", &done(&q.url, vec![]))
                .expect("complete");
        }
        assert_eq!(s.last_record_seq().expect("seq"), 3);
        s.verify_records_present().expect("all there");
        let mut k = vec![R];
        k.extend(2u64.to_be_bytes());
        s.kv.remove(k).expect("remove");
        let e = s.verify_records_present().expect_err("one lost");
        assert!(
            e.to_string().contains("counted 3 records and holds 2"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }
}
