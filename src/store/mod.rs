//! The sled store: everything the daemon must not lose.
//!
//! The crawl state lives in one sled tree, in key-prefixed ranges (integers
//! big-endian so byte order is numeric order):
//! - `q` host(8) ++ priority(2) ++ seq(8) → [`QueuedUrl`]: per-host queues,
//!   best priority first, FIFO within a priority.
//! - `i` same key → [`QueuedUrl`]: URLs handed to a fetcher. A crash leaves
//!   them here; [`Store::open`] puts them back under `q`.
//! - `s` xxh3-128(url) → 1 byte: every URL ever queued (dedup).
//! - `h` host(8) → host name: the hosts that ever had a queue.
//! - `p` xxh3-128(url) → [`PageOutcome`]: what happened to each fetch.
//! - `r` seq(8) → exported JSON record; `seq` is the export cursor.
//! - `x` band(1) ++ bits(2) ++ seq(8) → simhash(8): near-duplicate index.
//! - `m` name → counters (records, page budgets) and seed file hashes.
//!
//! Separate trees hold robots.txt copies and seed options.
//!
//! Why one tree: sled applies a batch to one tree atomically, so completing a
//! page (outcome, record, new links, lease release) is one `apply_batch` and
//! a `kill -9` at any moment leaves all of it or none of it. (sled's
//! multi-tree transactions give the same guarantee but grew the process to
//! 840 MB in the frontier benchmark; batches keep it flat.) Batches are built
//! from reads made just before, which is safe because one writer thread
//! completes pages. sled loses at most the last flush interval, and what it
//! loses is replayed from `i`; a URL that already has a record never gets a
//! second one. Nothing is stored or exported twice.

pub mod export;
pub mod simhash;

use std::path::Path;

use serde::{Deserialize, Serialize};

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

impl QueuedUrl {
    /// Compact form for the queue: depth(2) seed(4) attempt(1) kind(1)
    /// priority(4) url — a third of the JSON size, and the queue is the
    /// biggest thing in the store.
    fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(12 + self.url.len());
        b.extend_from_slice(&self.depth.to_be_bytes());
        b.extend_from_slice(&self.seed.to_be_bytes());
        b.push(self.attempt);
        b.push(match self.kind {
            UrlKind::Page => 0,
            UrlKind::Sitemap => 1,
        });
        b.extend_from_slice(&self.priority.to_be_bytes());
        b.extend_from_slice(self.url.as_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Result<QueuedUrl, StoreError> {
        let corrupt = || StoreError::Corrupt {
            tree: "queue",
            message: format!("{} bytes is not a queued URL", b.len()),
        };
        if b.len() < 12 {
            return Err(corrupt());
        }
        let depth = u16::from_be_bytes([b[0], b[1]]);
        let seed = u32::from_be_bytes([b[2], b[3], b[4], b[5]]);
        let kind = match b[7] {
            0 => UrlKind::Page,
            1 => UrlKind::Sitemap,
            _ => return Err(corrupt()),
        };
        let priority = f32::from_be_bytes([b[8], b[9], b[10], b[11]]);
        let url = std::str::from_utf8(&b[12..])
            .map_err(|_| corrupt())?
            .to_string();
        Ok(QueuedUrl {
            url,
            depth,
            seed,
            attempt: b[6],
            kind,
            priority,
        })
    }
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
    kv: sled::Tree,
    robots: sled::Tree,
    seeds: sled::Tree,
    /// URLs under `q`, kept here because counting walks the whole range.
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

/// The lease/queue key without its range prefix.
fn queue_key(host: &[u8; 8], priority: f32, seq: u64) -> [u8; 18] {
    let mut k = [0u8; 18];
    k[..8].copy_from_slice(host);
    k[8..10].copy_from_slice(&priority_key(priority));
    k[10..].copy_from_slice(&seq.to_be_bytes());
    k
}

const Q: u8 = b'q';
const I: u8 = b'i';
const S: u8 = b's';
const H: u8 = b'h';
const P: u8 = b'p';
const R: u8 = b'r';
const X: u8 = b'x';
const M: u8 = b'm';

fn key(prefix: u8, rest: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(rest.len() + 1);
    k.push(prefix);
    k.extend_from_slice(rest);
    k
}

fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    // Serializing our own plain structs to JSON cannot fail.
    serde_json::to_vec(v).unwrap_or_default()
}

fn decode<T: for<'a> Deserialize<'a>>(range: &'static str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        tree: range,
        message: e.to_string(),
    })
}

fn be_u64(v: Option<sled::IVec>) -> u64 {
    v.and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
        .unwrap_or(0)
}

const RECORD_SEQ: &str = "record_seq";
const COUNT_TOTAL: &str = "n:total";

/// What a fetched-page counter counts.
#[derive(Debug, Clone, Copy)]
pub enum Counter<'a> {
    Total,
    Host(&'a str),
    Seed(u32),
}

impl Counter<'_> {
    fn key(&self) -> String {
        match self {
            Counter::Total => COUNT_TOTAL.to_string(),
            Counter::Host(h) => format!("n:h:{h}"),
            Counter::Seed(s) => format!("n:s:{s}"),
        }
    }
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
        let store = Store {
            kv: db.open_tree("crawl")?,
            robots: db.open_tree("robots")?,
            seeds: db.open_tree("seeds")?,
            queued: Default::default(),
            db,
        };
        store.release_all_leases()?;
        let queued = store.kv.scan_prefix([Q]).count() as u64;
        store
            .queued
            .store(queued, std::sync::atomic::Ordering::Relaxed);
        Ok(store)
    }

    fn release_all_leases(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        for kv in self.kv.scan_prefix([I]) {
            let (k, v) = kv?;
            let mut batch = sled::Batch::default();
            batch.insert(key(Q, &k[1..]), v);
            batch.remove(k);
            self.kv.apply_batch(batch)?;
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

    /// Adds the inserts for URLs not seen before to `batch`; returns how many.
    fn enqueue_into(&self, batch: &mut sled::Batch, urls: &[NewUrl]) -> Result<u64, StoreError> {
        let mut fresh = std::collections::HashSet::new();
        let mut new_hosts = std::collections::HashSet::new();
        let mut n = 0;
        for u in urls {
            let h = url_hash(&u.item.url);
            let sk = key(S, &h);
            if !fresh.insert(h) || self.kv.contains_key(&sk)? {
                continue;
            }
            batch.insert(sk, &[1u8]);
            let host = host_hash(&u.host);
            if new_hosts.insert(host) && !self.kv.contains_key(key(H, &host))? {
                batch.insert(key(H, &host), u.host.as_bytes());
            }
            let seq = self.db.generate_id()?;
            batch.insert(
                key(Q, &queue_key(&host, u.item.priority, seq)),
                u.item.to_bytes(),
            );
            n += 1;
        }
        Ok(n)
    }

    /// Adds URLs not seen before; returns how many were new.
    pub fn enqueue(&self, urls: &[NewUrl]) -> Result<usize, StoreError> {
        let mut batch = sled::Batch::default();
        let n = self.enqueue_into(&mut batch, urls)?;
        self.kv.apply_batch(batch)?;
        self.queued
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(n as usize)
    }

    /// URLs waiting in the queue (kept in memory; exact after `open`).
    pub fn queue_len_hint(&self) -> u64 {
        self.queued.load(std::sync::atomic::Ordering::Relaxed)
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

    /// Whether a host has queued URLs.
    pub fn host_has_queue(&self, host: &[u8; 8]) -> Result<bool, StoreError> {
        Ok(self
            .kv
            .scan_prefix(key(Q, host))
            .next()
            .transpose()?
            .is_some())
    }

    /// Leases the host's best URL: it moves from the queue to the in-flight range.
    pub fn lease(&self, host: &[u8; 8]) -> Result<Option<(Vec<u8>, QueuedUrl)>, StoreError> {
        let Some((k, v)) = self.kv.scan_prefix(key(Q, host)).next().transpose()? else {
            return Ok(None);
        };
        let mut batch = sled::Batch::default();
        batch.insert(key(I, &k[1..]), v.clone());
        batch.remove(k.clone());
        self.kv.apply_batch(batch)?;
        self.queued
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Some((k[1..].to_vec(), QueuedUrl::from_bytes(&v)?)))
    }

    /// Ends a lease. For `Done`, returns the record's sequence number if one
    /// was stored.
    pub fn complete(
        &self,
        lease: &[u8],
        completion: Completion,
    ) -> Result<Option<u64>, StoreError> {
        let mut batch = sled::Batch::default();
        batch.remove(key(I, lease));
        match completion {
            Completion::Retry { item } => {
                let host: [u8; 8] = lease
                    .get(..8)
                    .and_then(|h| h.try_into().ok())
                    .unwrap_or([0; 8]);
                let seq = self.db.generate_id()?;
                batch.insert(
                    key(Q, &queue_key(&host, item.priority, seq)),
                    item.to_bytes(),
                );
                self.kv.apply_batch(batch)?;
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
                let page_key = key(P, &url_hash(&outcome.url));
                // A page replayed after a crash keeps its first record.
                let earlier = match self.kv.get(&page_key)? {
                    Some(v) => decode::<PageOutcome>("pages", &v)?.record,
                    None => None,
                };
                if let Some((host, seed)) = &counted {
                    if earlier.is_none() {
                        for c in [Counter::Total, Counter::Host(host), Counter::Seed(*seed)] {
                            let k = key(M, c.key().as_bytes());
                            let n = be_u64(self.kv.get(&k)?) + 1;
                            batch.insert(k, &n.to_be_bytes());
                        }
                    }
                }
                let mut seq = earlier;
                if let (Some(rec), None) = (&record, earlier) {
                    let seq_key = key(M, RECORD_SEQ.as_bytes());
                    let next = be_u64(self.kv.get(&seq_key)?) + 1;
                    batch.insert(seq_key, &next.to_be_bytes());
                    let mut rec = rec.clone();
                    if let serde_json::Value::Object(map) = &mut rec {
                        map.insert("seq".into(), next.into());
                    }
                    batch.insert(key(R, &next.to_be_bytes()), encode(&rec));
                    if let Some(h) = simhash {
                        for (band, bits) in simhash::bands(h).into_iter().enumerate() {
                            let mut k = vec![X, band as u8];
                            k.extend_from_slice(&bits.to_be_bytes());
                            k.extend_from_slice(&next.to_be_bytes());
                            batch.insert(k, &h.to_be_bytes());
                        }
                    }
                    seq = Some(next);
                }
                outcome.record = seq;
                batch.insert(page_key, encode(&outcome));
                let added = self.enqueue_into(&mut batch, &links)?;
                self.kv.apply_batch(batch)?;
                self.queued
                    .fetch_add(added, std::sync::atomic::Ordering::Relaxed);
                Ok(seq)
            }
        }
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
    pub fn record(&self, seq: u64) -> Result<Option<serde_json::Value>, StoreError> {
        match self.kv.get(key(R, &seq.to_be_bytes()))? {
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
        let start = key(R, &since.saturating_add(1).to_be_bytes());
        let mut out = Vec::new();
        for kv in self.kv.range(start..[R + 1].to_vec()).take(limit) {
            let (k, v) = kv?;
            let seq = k
                .get(1..9)
                .and_then(|s| s.try_into().ok())
                .map_or(0, u64::from_be_bytes);
            out.push((seq, decode("records", &v)?));
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

    /// In-flight leases (walks the range; for tests and status).
    pub fn inflight_len(&self) -> usize {
        self.kv.scan_prefix([I]).count()
    }

    /// Stored records (walks the range; for `trawl status`).
    pub fn record_count(&self) -> usize {
        self.kv.scan_prefix([R]).count()
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

    pub fn meta_put(&self, name: &str, value: &[u8]) -> Result<(), StoreError> {
        self.kv.insert(key(M, name.as_bytes()), value)?;
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
        assert_eq!(s.queue_len_hint(), 2, "the leased URL is back in the queue");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn queued_url_round_trips_and_rejects_garbage() {
        let q = item("http://a.test/ü?x=1", 0.25).item;
        assert_eq!(QueuedUrl::from_bytes(&q.to_bytes()).ok(), Some(q));
        assert!(QueuedUrl::from_bytes(b"short").is_err());
        assert!(QueuedUrl::from_bytes(&[0u8, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0]).is_err());
    }

    #[test]
    fn a_replayed_page_keeps_its_first_record() {
        // A crash after the completion but before the lease left the flush
        // window replays the URL; the second completion must not add a record.
        let dir = tmp("replay");
        let s = Store::open(&dir, 1 << 20).expect("open");
        s.enqueue(&[item("http://a.test/", 1.0)]).expect("enq");
        let (lease, q) = s.lease(&host_hash("a.test")).expect("lease").expect("some");
        let done = || Completion::Done {
            outcome: PageOutcome {
                url: q.url.clone(),
                status: 200,
                ..PageOutcome::default()
            },
            record: Some(serde_json::json!({"url": q.url})),
            simhash: None,
            links: vec![],
            counted: Some(("a.test".into(), 1)),
        };
        assert_eq!(s.complete(&lease, done()).expect("first"), Some(1));
        assert_eq!(s.complete(&lease, done()).expect("replay"), Some(1));
        assert_eq!(s.records_after(0, 10).expect("records").len(), 1);
        assert_eq!(s.count(Counter::Total).expect("count"), 1);
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
}
