//! The sled store: everything the daemon must not lose.
//!
//! Trees and keys (all integers big-endian so byte order is numeric order):
//! - `queue`    host(8) ++ priority(2) ++ seq(8) → [`QueuedUrl`]: per-host queues,
//!   best priority first, FIFO within a priority.
//! - `inflight` same key → [`QueuedUrl`]: URLs handed to a fetcher. A crash leaves
//!   them here; [`Store::open`] puts them back in `queue`.
//! - `seen`     xxh3-128(url) → 1 byte: every URL ever queued (dedup).
//! - `hosts`    host(8) → host name: the hosts that ever had a queue.
//! - `pages`    xxh3-128(url) → [`PageOutcome`]: what happened to each fetch.
//! - `records`  seq(8) → exported JSON record; `seq` is the export cursor.
//! - `simhash`  band(1) ++ bits(2) ++ seq(8) → simhash(8): near-duplicate index.
//! - `robots`   host name → cached robots.txt.
//! - `seeds`    seed id(4) → seed options; `meta` → counters and seed file hashes.
//!
//! Completing a page (outcome, record, new links, lease release) is one
//! multi-tree transaction, so a `kill -9` at any moment leaves either all of
//! it or none of it; sled loses at most the last flush interval, and what it
//! loses is replayed from `inflight`. Nothing is stored or exported twice.

pub mod export;
pub mod simhash;

use std::path::Path;

use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::Transactional;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    #[error("cannot open the store at {path}: {source} (is another trawl process using it?)")]
    Open {
        path: String,
        #[source]
        source: sled::Error,
    },
    #[error("store: {0}")]
    Sled(#[from] sled::Error),
    #[error("store: corrupt value in {tree}: {message}")]
    Corrupt { tree: &'static str, message: String },
}

impl From<TransactionError<StoreError>> for StoreError {
    fn from(e: TransactionError<StoreError>) -> Self {
        match e {
            TransactionError::Abort(e) => e,
            TransactionError::Storage(e) => StoreError::Sled(e),
        }
    }
}

/// What kind of resource a queued URL is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UrlKind {
    Page,
    Sitemap,
}

/// A URL waiting in (or leased from) the frontier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueuedUrl {
    pub url: String,
    pub depth: u16,
    /// The seed line this URL descends from (its scope and budget).
    pub seed: u32,
    /// Failed attempts so far.
    pub attempt: u8,
    pub kind: UrlKind,
    /// Link priority in [0, 1]; higher is fetched first (the focus hook).
    pub priority: f32,
}

/// What happened when a URL was fetched.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PageOutcome {
    pub url: String,
    pub final_url: Option<String>,
    pub status: u16,
    /// Seconds since the Unix epoch.
    pub fetched_at: u64,
    pub bytes: u64,
    pub content_hash: Option<String>,
    pub error: Option<String>,
    pub redirects: Vec<String>,
    /// Sequence number of the exported record, if one was made.
    pub record: Option<u64>,
}

/// A new URL found on a page, to enqueue with the page's completion.
#[derive(Debug, Clone)]
pub struct NewUrl {
    pub host: String,
    pub item: QueuedUrl,
}

/// How a leased URL ends.
// One value per URL, moved once from the fetch task to the writer: boxing the
// large variant would add an allocation and buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Completion {
    /// Fetched (successfully or not, for good): outcome, optional record, links.
    Done {
        outcome: PageOutcome,
        record: Option<serde_json::Value>,
        simhash: Option<u64>,
        links: Vec<NewUrl>,
        /// (host, seed) whose page budgets this fetch counts against; `None`
        /// for URLs that were never fetched (robots, budget, scope).
        counted: Option<(String, u32)>,
    },
    /// Try again later (transient failure, host backing off, shutdown).
    Retry { item: QueuedUrl },
}

/// The store. Cheap to clone (sled trees are handles).
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    queue: sled::Tree,
    inflight: sled::Tree,
    seen: sled::Tree,
    hosts: sled::Tree,
    pages: sled::Tree,
    records: sled::Tree,
    simhash: sled::Tree,
    robots: sled::Tree,
    seeds: sled::Tree,
    meta: sled::Tree,
    /// URLs in `queue`, kept here because `Tree::len` walks the whole tree.
    queued: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// 8-byte host key.
pub fn host_hash(host: &str) -> [u8; 8] {
    xxhash_rust::xxh3::xxh3_64(host.as_bytes()).to_be_bytes()
}

/// 16-byte URL key.
pub fn url_hash(url: &str) -> [u8; 16] {
    xxhash_rust::xxh3::xxh3_128(url.as_bytes()).to_be_bytes()
}

/// Priority in [0,1] to a 2-byte key part where smaller sorts first.
fn priority_key(p: f32) -> [u8; 2] {
    let p = if p.is_finite() {
        p.clamp(0.0, 1.0)
    } else {
        0.0
    };
    (u16::MAX - (p * f32::from(u16::MAX)) as u16).to_be_bytes()
}

fn queue_key(host: &[u8; 8], priority: f32, seq: u64) -> [u8; 18] {
    let mut k = [0u8; 18];
    k[..8].copy_from_slice(host);
    k[8..10].copy_from_slice(&priority_key(priority));
    k[10..].copy_from_slice(&seq.to_be_bytes());
    k
}

fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    // Serializing our own plain structs to JSON cannot fail.
    serde_json::to_vec(v).unwrap_or_default()
}

fn decode<T: for<'a> Deserialize<'a>>(tree: &'static str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        tree,
        message: e.to_string(),
    })
}

type TxResult<T> = Result<T, ConflictableTransactionError<StoreError>>;

const RECORD_SEQ: &[u8] = b"record_seq";
const COUNT_TOTAL: &str = "n:total";

/// What a fetched-page counter counts.
#[derive(Debug, Clone, Copy)]
pub enum Counter<'a> {
    Total,
    Host(&'a str),
    Seed(u32),
}

impl Store {
    /// Opens (or creates) the store in `dir`, putting leased URLs of a
    /// previous run back in the queue.
    pub fn open(dir: &Path, cache_bytes: u64) -> Result<Store, StoreError> {
        let db = sled::Config::new()
            .path(dir)
            .cache_capacity(cache_bytes)
            .flush_every_ms(Some(500))
            .open()
            .map_err(|source| StoreError::Open {
                path: dir.display().to_string(),
                source,
            })?;
        let t = |name: &str| db.open_tree(name);
        let store = Store {
            queue: t("queue")?,
            inflight: t("inflight")?,
            seen: t("seen")?,
            hosts: t("hosts")?,
            pages: t("pages")?,
            records: t("records")?,
            simhash: t("simhash")?,
            robots: t("robots")?,
            seeds: t("seeds")?,
            meta: t("meta")?,
            queued: Default::default(),
            db,
        };
        store.release_all_leases()?;
        store.queued.store(
            store.queue.len() as u64,
            std::sync::atomic::Ordering::Relaxed,
        );
        Ok(store)
    }

    fn release_all_leases(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        for kv in self.inflight.iter() {
            let (k, v) = kv?;
            (&self.queue, &self.inflight).transaction(|(q, i)| {
                q.insert(&k, &v)?;
                i.remove(&k)?;
                Ok::<_, ConflictableTransactionError<StoreError>>(())
            })?;
            n += 1;
        }
        Ok(n)
    }

    /// Writes everything to disk (call at checkpoints and on shutdown).
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.db.flush_async().await?;
        Ok(())
    }

    pub fn flush_blocking(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    fn enqueue_tx(
        &self,
        seen: &TransactionalTree,
        queue: &TransactionalTree,
        hosts: &TransactionalTree,
        new: &NewUrl,
    ) -> TxResult<bool> {
        let h = url_hash(&new.item.url);
        if seen.get(h)?.is_some() {
            return Ok(false);
        }
        seen.insert(&h, &[1u8])?;
        let host = host_hash(&new.host);
        if hosts.get(host)?.is_none() {
            hosts.insert(&host, new.host.as_bytes())?;
        }
        let seq = seen.generate_id()?;
        queue.insert(&queue_key(&host, new.item.priority, seq), encode(&new.item))?;
        Ok(true)
    }

    /// Adds URLs not seen before; returns how many were new.
    pub fn enqueue(&self, urls: &[NewUrl]) -> Result<usize, StoreError> {
        let n = (&self.seen, &self.queue, &self.hosts).transaction(|(s, q, h)| {
            let mut n = 0;
            for u in urls {
                if self.enqueue_tx(s, q, h, u)? {
                    n += 1;
                }
            }
            Ok(n)
        })?;
        self.queued
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }

    /// URLs waiting in the queue (kept in memory; exact after `open`).
    pub fn queue_len_hint(&self) -> u64 {
        self.queued.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether a URL was ever queued.
    pub fn seen(&self, url: &str) -> Result<bool, StoreError> {
        Ok(self.seen.contains_key(url_hash(url))?)
    }

    /// Hosts that ever had a queue: (key, name).
    pub fn hosts(&self) -> Result<Vec<([u8; 8], String)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.hosts.iter() {
            let (k, v) = kv?;
            let mut key = [0u8; 8];
            if k.len() == 8 {
                key.copy_from_slice(&k);
                out.push((key, String::from_utf8_lossy(&v).into_owned()));
            }
        }
        Ok(out)
    }

    /// Whether a host has queued URLs.
    pub fn host_has_queue(&self, host: &[u8; 8]) -> Result<bool, StoreError> {
        Ok(self.queue.scan_prefix(host).next().transpose()?.is_some())
    }

    /// The best queued URL's priority for a host, if any.
    pub fn host_best_priority(&self, host: &[u8; 8]) -> Result<Option<f32>, StoreError> {
        match self.queue.scan_prefix(host).next().transpose()? {
            Some((_, v)) => Ok(Some(decode::<QueuedUrl>("queue", &v)?.priority)),
            None => Ok(None),
        }
    }

    /// Leases the host's best URL: it moves from `queue` to `inflight`.
    pub fn lease(&self, host: &[u8; 8]) -> Result<Option<(Vec<u8>, QueuedUrl)>, StoreError> {
        let Some((k, v)) = self.queue.scan_prefix(host).next().transpose()? else {
            return Ok(None);
        };
        (&self.queue, &self.inflight).transaction(|(q, i)| {
            q.remove(&k)?;
            i.insert(&k, &v)?;
            Ok::<_, ConflictableTransactionError<StoreError>>(())
        })?;
        self.queued
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Some((k.to_vec(), decode("queue", &v)?)))
    }

    /// Ends a lease. For `Done`, returns the record's sequence number if one
    /// was stored.
    pub fn complete(
        &self,
        lease: &[u8],
        completion: Completion,
    ) -> Result<Option<u64>, StoreError> {
        match completion {
            Completion::Retry { item } => {
                let mut host = [0u8; 8];
                host.copy_from_slice(lease.get(..8).unwrap_or(&[0; 8]));
                let seq = self.db.generate_id()?;
                let key = queue_key(&host, item.priority, seq);
                let value = encode(&item);
                (&self.queue, &self.inflight).transaction(|(q, i)| {
                    i.remove(lease)?;
                    q.insert(&key, value.as_slice())?;
                    Ok::<_, ConflictableTransactionError<StoreError>>(())
                })?;
                self.queued
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(None)
            }
            Completion::Done {
                mut outcome,
                record,
                simhash,
                links,
                counted,
            } => {
                let trees = (
                    &self.inflight,
                    &self.pages,
                    &self.records,
                    &self.meta,
                    &self.seen,
                    &self.queue,
                    &self.hosts,
                    &self.simhash,
                );
                let seq = trees.transaction(
                    |(inflight, pages, records, meta, seen, queue, hosts, sim)| {
                        inflight.remove(lease)?;
                        if let Some((host, seed)) = &counted {
                            for key in [
                                COUNT_TOTAL.to_string(),
                                format!("n:h:{host}"),
                                format!("n:s:{seed}"),
                            ] {
                                let n = meta
                                    .get(key.as_bytes())?
                                    .and_then(|v| {
                                        v.as_ref().try_into().ok().map(u64::from_be_bytes)
                                    })
                                    .unwrap_or(0);
                                meta.insert(key.as_bytes(), &(n + 1).to_be_bytes())?;
                            }
                        }
                        let mut seq = None;
                        if let Some(rec) = &record {
                            let next = meta
                                .get(RECORD_SEQ)?
                                .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
                                .unwrap_or(0)
                                + 1;
                            meta.insert(RECORD_SEQ, &next.to_be_bytes())?;
                            let mut rec = rec.clone();
                            if let serde_json::Value::Object(map) = &mut rec {
                                map.insert("seq".into(), next.into());
                            }
                            records.insert(&next.to_be_bytes(), encode(&rec))?;
                            if let Some(h) = simhash {
                                for (band, bits) in simhash::bands(h).into_iter().enumerate() {
                                    let mut key = Vec::with_capacity(11);
                                    key.push(band as u8);
                                    key.extend_from_slice(&bits.to_be_bytes());
                                    key.extend_from_slice(&next.to_be_bytes());
                                    sim.insert(key, &h.to_be_bytes())?;
                                }
                            }
                            seq = Some(next);
                        }
                        let mut out = outcome.clone();
                        out.record = seq;
                        pages.insert(&url_hash(&outcome.url), encode(&out))?;
                        let mut added = 0u64;
                        for link in &links {
                            if self.enqueue_tx(seen, queue, hosts, link)? {
                                added += 1;
                            }
                        }
                        Ok((seq, added))
                    },
                )?;
                let (seq, added) = seq;
                self.queued
                    .fetch_add(added, std::sync::atomic::Ordering::Relaxed);
                outcome.record = seq;
                Ok(seq)
            }
        }
    }

    /// A record with a near-identical text (SimHash within 3 bits), if any.
    pub fn near_duplicate(&self, hash: u64) -> Result<Option<u64>, StoreError> {
        for (band, bits) in simhash::bands(hash).into_iter().enumerate() {
            let mut prefix = vec![band as u8];
            prefix.extend_from_slice(&bits.to_be_bytes());
            for kv in self.simhash.scan_prefix(&prefix) {
                let (k, v) = kv?;
                let other = v
                    .as_ref()
                    .try_into()
                    .ok()
                    .map(u64::from_be_bytes)
                    .unwrap_or(!hash);
                if (other ^ hash).count_ones() <= 3 {
                    let seq = k
                        .get(3..11)
                        .and_then(|s| s.try_into().ok())
                        .map(u64::from_be_bytes);
                    return Ok(seq);
                }
            }
        }
        Ok(None)
    }

    /// A stored record.
    pub fn record(&self, seq: u64) -> Result<Option<serde_json::Value>, StoreError> {
        match self.records.get(seq.to_be_bytes())? {
            Some(v) => Ok(Some(decode("records", &v)?)),
            None => Ok(None),
        }
    }

    /// Records after `since`, in order, at most `limit`.
    pub fn records_after(
        &self,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, serde_json::Value)>, StoreError> {
        let start = (since.saturating_add(1)).to_be_bytes();
        let mut out = Vec::new();
        for kv in self.records.range(start..).take(limit) {
            let (k, v) = kv?;
            let seq = k
                .as_ref()
                .try_into()
                .ok()
                .map(u64::from_be_bytes)
                .unwrap_or(0);
            out.push((seq, decode("records", &v)?));
        }
        Ok(out)
    }

    /// A page outcome by URL.
    pub fn page(&self, url: &str) -> Result<Option<PageOutcome>, StoreError> {
        match self.pages.get(url_hash(url))? {
            Some(v) => Ok(Some(decode("pages", &v)?)),
            None => Ok(None),
        }
    }

    /// All page outcomes (for status and tests).
    pub fn pages(&self) -> impl Iterator<Item = Result<PageOutcome, StoreError>> + '_ {
        self.pages.iter().map(|kv| {
            let (_, v) = kv?;
            decode("pages", &v)
        })
    }

    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    pub fn inflight_len(&self) -> usize {
        self.inflight.len()
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    pub fn record_count(&self) -> usize {
        self.records.len()
    }

    /// Cached robots.txt of a host: (fetched at, status, body).
    pub fn robots(&self, host: &str) -> Result<Option<(u64, u16, String)>, StoreError> {
        match self.robots.get(host.as_bytes())? {
            Some(v) => Ok(Some(decode("robots", &v)?)),
            None => Ok(None),
        }
    }

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

    pub fn seeds<T: for<'a> Deserialize<'a>>(&self) -> Result<Vec<(u32, T)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.seeds.iter() {
            let (k, v) = kv?;
            let id = k
                .as_ref()
                .try_into()
                .ok()
                .map(u32::from_be_bytes)
                .unwrap_or(0);
            out.push((id, decode("seeds", &v)?));
        }
        Ok(out)
    }

    /// Pages fetched so far (for budgets).
    pub fn count(&self, c: Counter<'_>) -> Result<u64, StoreError> {
        let key = match c {
            Counter::Total => COUNT_TOTAL.to_string(),
            Counter::Host(h) => format!("n:h:{h}"),
            Counter::Seed(s) => format!("n:s:{s}"),
        };
        Ok(self
            .meta
            .get(key.as_bytes())?
            .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
            .unwrap_or(0))
    }

    /// The last record sequence number (the export cursor's upper end).
    pub fn last_record_seq(&self) -> Result<u64, StoreError> {
        Ok(self
            .meta
            .get(RECORD_SEQ)?
            .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
            .unwrap_or(0))
    }

    /// A small persistent value (seed file hashes, learned models, …).
    pub fn meta_get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.meta.get(key.as_bytes())?.map(|v| v.to_vec()))
    }

    pub fn meta_put(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.meta.insert(key.as_bytes(), value)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
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
            },
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
                "seen"
            );
            let h = host_hash("a.test");
            let (_lease, first) = s.lease(&h).expect("lease").expect("some");
            assert_eq!(first.url, "http://a.test/2", "higher priority first");
            assert_eq!(s.inflight_len(), 1);
            s.flush_blocking().expect("flush");
        }
        let s = Store::open(&dir, 1 << 20).expect("reopen");
        assert_eq!(s.inflight_len(), 0);
        assert_eq!(s.queue_len(), 2, "the leased URL is back in the queue");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn completion_is_atomic_and_numbers_records() {
        let dir = tmp("complete");
        let s = Store::open(&dir, 1 << 20).expect("open");
        s.enqueue(&[item("http://a.test/", 1.0)]).expect("enq");
        let (lease, q) = s.lease(&host_hash("a.test")).expect("lease").expect("some");
        let seq = s
            .complete(
                &lease,
                Completion::Done {
                    outcome: PageOutcome {
                        url: q.url.clone(),
                        status: 200,
                        ..PageOutcome::default()
                    },
                    record: Some(serde_json::json!({"url": q.url})),
                    simhash: Some(0xdead_beef),
                    links: vec![item("http://a.test/next", 0.5)],
                    counted: Some(("a.test".into(), 7)),
                },
            )
            .expect("complete");
        assert_eq!(seq, Some(1));
        assert_eq!(s.inflight_len(), 0);
        assert_eq!(s.queue_len(), 1);
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
}
