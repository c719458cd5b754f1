//! The persistent frontier queue: an inbox and per-host blocks in sled.
//!
//! sled's memory grows with every key written, so a key per queued URL
//! cannot hold ten million URLs in a few hundred MB. URLs are written in
//! groups instead:
//! - `n` seq(8) → an inbox entry: the new URLs of one completion (or one
//!   `enqueue` call), written in the same atomic batch as the page that
//!   found them. One key per page, whatever its host mix.
//! - `q` host(8) ++ priority(2) ++ seq(8) → a block: up to [`BLOCK_ITEMS`]
//!   URLs of one host, best first. Blocks of a host are served in key order:
//!   best priority first, oldest first within a priority.
//!
//! A merge moves inbox entries into blocks (grouped by host and priority
//! band) and their hashes into the seen buckets, in one atomic batch. It runs
//! when the inbox is large, when the scheduler has nothing else to do, or
//! once a second, so new links reach the schedule quickly.
//!
//! Leasing does not write: the scheduler takes a block's URLs into memory and
//! the block stays in sled until every URL in it has completed; the
//! completion of the last one deletes it in the same batch. After a crash,
//! blocks written by an earlier run are replayed and URLs that already have
//! a page outcome are skipped, so nothing is lost and nothing done is
//! fetched again. (One exception: a URL that was being retried when the
//! process died may be fetched once more; the store keeps its first record.)

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use super::error::StoreError;
use super::handle::Store;
use super::layout::{host_hash, key, H, M, N, P, Q, S};
use super::queued::{NewUrl, QueuedUrl};
use super::seen::{self, bucket_of, url_key};
use super::state::QueueState;

/// URLs per block at most (a few KB: the size sled handles best).
pub(crate) const BLOCK_ITEMS: usize = 32;
/// Merge once the inbox holds this many URLs (a merge holds them in memory:
/// ~30 MB).
pub(crate) const MERGE_AT: u64 = 200_000;
/// URLs per inbox entry at most (~16 KB).
const INBOX_ITEMS: usize = 128;
/// Merge at least this often while the inbox is not empty.
pub(crate) const MERGE_EVERY: Duration = Duration::from_secs(1);
/// Priority bands a merge groups URLs by (blocks are sorted within).
const BANDS: u16 = 64;

pub(super) const RETRY: u8 = 1;
/// An inbox entry that only adds its URL to the seen-set (a redirect
/// target fetched through its chain): it is never queued.
pub(super) const SEEN_ONLY: u8 = 2;
pub(super) const QUEUED: &str = "queued";

/// A block handed to the scheduler.
#[derive(Debug)]
pub struct Block {
    /// The block's key without its range prefix; leases carry it.
    pub key: Vec<u8>,
    /// The block's URLs.
    pub items: Vec<QueuedUrl>,
}

fn put_u16(b: &mut Vec<u8>, v: usize) {
    b.extend_from_slice(&(v.min(usize::from(u16::MAX)) as u16).to_be_bytes());
}

fn put_u32(b: &mut Vec<u8>, v: usize) {
    b.extend_from_slice(&(v.min(u32::MAX as usize) as u32).to_be_bytes());
}

/// A reader over length-prefixed parts.
struct Parts<'a> {
    b: &'a [u8],
    tree: &'static str,
}

impl<'a> Parts<'a> {
    fn corrupt(&self) -> StoreError {
        StoreError::Corrupt {
            tree: self.tree,
            message: "truncated entry".into(),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], StoreError> {
        if self.b.len() < n {
            return Err(self.corrupt());
        }
        let (head, rest) = self.b.split_at(n);
        self.b = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, StoreError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<usize, StoreError> {
        let b = self.take(2)?;
        Ok(usize::from(u16::from_be_bytes([b[0], b[1]])))
    }

    fn u32(&mut self) -> Result<usize, StoreError> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
}

/// An inbox entry: flags(1) host_len(2) host item_len(4) item, repeated.
pub(super) fn encode_inbox(items: &[(u8, &str, &QueuedUrl)]) -> Vec<u8> {
    let mut b = Vec::new();
    for (flags, host, item) in items {
        let bytes = item.to_bytes();
        b.push(*flags);
        put_u16(&mut b, host.len());
        b.extend_from_slice(&host.as_bytes()[..host.len().min(usize::from(u16::MAX))]);
        put_u32(&mut b, bytes.len());
        b.extend_from_slice(&bytes);
    }
    b
}

fn decode_inbox(b: &[u8]) -> Result<Vec<(u8, String, QueuedUrl)>, StoreError> {
    let mut p = Parts { b, tree: "inbox" };
    let mut out = Vec::new();
    while !p.b.is_empty() {
        let flags = p.u8()?;
        let n = p.u16()?;
        let host = String::from_utf8_lossy(p.take(n)?).into_owned();
        let n = p.u32()?;
        let item = QueuedUrl::from_bytes(p.take(n)?)?;
        out.push((flags, host, item));
    }
    Ok(out)
}

/// A block: item_len(4) item, repeated.
fn encode_block(items: &[QueuedUrl]) -> Vec<u8> {
    let mut b = Vec::new();
    for item in items {
        let bytes = item.to_bytes();
        put_u32(&mut b, bytes.len());
        b.extend_from_slice(&bytes);
    }
    b
}

/// How many URLs a block holds (read from its length prefixes alone).
fn block_len(b: &[u8]) -> Result<u64, StoreError> {
    let mut p = Parts { b, tree: "queue" };
    let mut n = 0;
    while !p.b.is_empty() {
        let len = p.u32()?;
        p.take(len)?;
        n += 1;
    }
    Ok(n)
}

fn decode_block(b: &[u8]) -> Result<Vec<QueuedUrl>, StoreError> {
    let mut p = Parts { b, tree: "queue" };
    let mut out = Vec::new();
    while !p.b.is_empty() {
        let n = p.u32()?;
        out.push(QueuedUrl::from_bytes(p.take(n)?)?);
    }
    Ok(out)
}

/// Writes applied in batches of at most [`WRITE_BATCH`] entries.
struct Writes<'a> {
    store: &'a Store,
    batch: sled::Batch,
    len: usize,
}

const WRITE_BATCH: usize = 512;

impl<'a> Writes<'a> {
    fn new(store: &'a Store) -> Writes<'a> {
        Writes {
            store,
            batch: sled::Batch::default(),
            len: 0,
        }
    }

    fn insert(&mut self, k: Vec<u8>, v: Vec<u8>) -> Result<(), StoreError> {
        self.batch.insert(k, v);
        self.len += 1;
        if self.len >= WRITE_BATCH {
            self.finish()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), StoreError> {
        if self.len > 0 {
            self.store.kv.apply_batch(std::mem::take(&mut self.batch))?;
            self.len = 0;
        }
        Ok(())
    }
}

/// The sequence number at the end of a key; for blocks, the sequence number
/// of the first inbox entry of the merge that wrote them.
fn block_seq(k: &[u8]) -> u64 {
    k.get(k.len().saturating_sub(8)..)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_be_bytes)
}

impl Store {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        // A panic while holding the lock leaves plain data behind; go on with it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Rebuilds the in-memory seen layers and counters from the store.
    pub(super) fn load_queue_state(&self, st: &mut QueueState) -> Result<(), StoreError> {
        for kv in self.kv.scan_prefix([S]) {
            let (_, v) = kv?;
            for h in seen::decode_bucket(&v) {
                st.seen.bloom.insert(h);
            }
        }
        for kv in self.kv.scan_prefix([N]) {
            let (_, v) = kv?;
            for (flags, _, item) in decode_inbox(&v)? {
                st.inbox += 1;
                if flags & RETRY == 0 {
                    let h = url_key(&item.url);
                    st.seen.bloom.insert(h);
                    st.seen.pending.insert(h);
                }
            }
        }
        for kv in self.kv.scan_prefix([H]) {
            let (k, _) = kv?;
            if let Ok(h) = <[u8; 8]>::try_from(&k[1..]) {
                st.known_hosts.insert(h);
            }
        }
        self.load_counters(st)
    }

    /// The queue's counters alone (a read-only view needs no more).
    pub(super) fn load_counters(&self, st: &mut QueueState) -> Result<(), StoreError> {
        st.queued = super::codec::be_u64(self.kv.get(key(M, QUEUED.as_bytes()))?);
        st.session_seq = self.db.generate_id()?;
        Ok(())
    }

    /// Whether a URL was ever queued (exact up to 64-bit collisions).
    fn seen(&self, st: &mut QueueState, h: u64) -> Result<bool, StoreError> {
        if st.seen.is_hot(h) {
            return Ok(true);
        }
        if !st.seen.bloom.may_contain(h) {
            return Ok(false);
        }
        if st.seen.pending.contains(&h) {
            return Ok(true);
        }
        let mut k = vec![S];
        k.extend_from_slice(&bucket_of(h).to_be_bytes());
        let found = self
            .kv
            .get(k)?
            .is_some_and(|b| seen::bucket_contains(&b, h));
        if found {
            st.seen.keep_hot(h);
        }
        Ok(found)
    }

    /// Adds an inbox entry with the URLs not seen before to `batch`.
    /// Returns their hashes, to record with [`Store::note_enqueued`] once the
    /// batch is applied.
    ///
    /// With `capped`, each host's [`QueueCap`] holds: a URL past its host's
    /// room is left out, and counted in the second value returned. Seeds
    /// are queued without it.
    pub(super) fn enqueue_into(
        &self,
        st: &mut QueueState,
        batch: &mut sled::Batch,
        urls: &[NewUrl],
        capped: bool,
    ) -> Result<(Vec<u64>, u64), StoreError> {
        let mut fresh = Vec::new();
        // A page may list the same URL many times (a 50,000-URL sitemap).
        let mut batch_seen = std::collections::HashSet::new();
        let mut items = Vec::new();
        // Per host: URLs queued in all so far, and the room it has earned.
        let mut rooms: HashMap<&str, (u64, u64, bool)> = HashMap::new();
        let mut left_out = 0;
        let cap = st.cap.filter(|_| capped);
        for u in urls {
            let h = url_key(&u.item.url);
            if !batch_seen.insert(h) || self.seen(st, h)? {
                continue;
            }
            if let Some(cap) = cap {
                let room = match rooms.entry(u.host.as_str()) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let queued = self.count(super::layout::Counter::Queued(&u.host))?;
                        let fetched = self.count(super::layout::Counter::Host(&u.host))?;
                        e.insert((queued, cap.room(fetched), false))
                    }
                };
                if room.0 >= room.1 {
                    left_out += 1;
                    continue;
                }
                room.0 += 1;
                room.2 = true;
            }
            fresh.push(h);
            items.push((0, u.host.as_str(), &u.item));
        }
        for (host, (queued, _, changed)) in rooms {
            if changed {
                let k = key(
                    super::layout::M,
                    super::layout::Counter::Queued(host).key().as_bytes(),
                );
                batch.insert(k, &queued.to_be_bytes());
            }
        }
        for chunk in items.chunks(INBOX_ITEMS) {
            batch.insert(
                key(N, &self.db.generate_id()?.to_be_bytes()),
                encode_inbox(chunk),
            );
        }
        Ok((fresh, left_out))
    }

    /// Whether `url` was ever queued (or fetched as a redirect target).
    pub fn known(&self, url: &str) -> Result<bool, StoreError> {
        let mut st = self.lock();
        self.seen(&mut st, url_key(url))
    }

    /// Adds `url` to the seen-set without queueing it, in `batch`, if it is
    /// not there; returns its hash for [`Store::note_seen_only`].
    pub(super) fn seen_only_into(
        &self,
        st: &mut QueueState,
        batch: &mut sled::Batch,
        host: &str,
        url: &str,
    ) -> Result<Option<u64>, StoreError> {
        let h = url_key(url);
        if self.seen(st, h)? {
            return Ok(None);
        }
        // Only the URL matters: a seen-only entry is never queued.
        let item = QueuedUrl {
            url: url.to_string(),
            depth: 0,
            seed: 0,
            attempt: 0,
            kind: super::queued::UrlKind::Page,
            priority: 0.0,
            features: None,
            revisit: None,
        };
        batch.insert(
            key(N, &self.db.generate_id()?.to_be_bytes()),
            encode_inbox(&[(SEEN_ONLY, host, &item)]),
        );
        Ok(Some(h))
    }

    /// Records a seen-only entry after its batch was applied.
    pub(super) fn note_seen_only(st: &mut QueueState, h: u64) {
        st.seen.bloom.insert(h);
        st.seen.pending.insert(h);
        st.inbox += 1;
    }

    /// Puts a URL back through the inbox (it is already in the seen-set).
    pub(super) fn requeue_into(
        &self,
        batch: &mut sled::Batch,
        host: &str,
        item: &QueuedUrl,
    ) -> Result<(), StoreError> {
        batch.insert(
            key(N, &self.db.generate_id()?.to_be_bytes()),
            encode_inbox(&[(RETRY, host, item)]),
        );
        Ok(())
    }

    /// Records enqueued hashes after their batch was applied.
    pub(super) fn note_enqueued(st: &mut QueueState, hashes: &[u64]) {
        for &h in hashes {
            st.seen.bloom.insert(h);
            st.seen.pending.insert(h);
        }
        st.inbox += hashes.len() as u64;
        st.queued += hashes.len() as u64;
    }

    /// Sets the persistent queue counter in `batch`.
    pub(super) fn put_queued(batch: &mut sled::Batch, queued: u64) {
        batch.insert(key(M, QUEUED.as_bytes()), &queued.to_be_bytes());
    }

    /// Merges the oldest inbox entries (at least one, about `max_urls` URLs)
    /// into blocks and the seen buckets. Returns the URLs merged.
    ///
    /// Written in small batches (sled holds a large batch's writes in memory
    /// many times over: one 36,000-write batch took 1.1 GB), so a merge is
    /// made idempotent instead of atomic: bucket merges are unions, block
    /// keys derive from the first inbox entry merged, and the inbox entries
    /// go last, in one batch. A merge cut short by a crash is redone with the
    /// same entries at the next open, rewriting the same keys.
    pub(super) fn merge_locked(
        &self,
        st: &mut QueueState,
        max_urls: u64,
    ) -> Result<u64, StoreError> {
        let mut consumed = sled::Batch::default();
        let mut first_seq = None;
        let mut entries = Vec::new();
        for kv in self.kv.scan_prefix([N]) {
            let (k, v) = kv?;
            first_seq.get_or_insert_with(|| block_seq(&k));
            consumed.remove(k);
            entries.extend(decode_inbox(&v)?);
            if entries.len() as u64 >= max_urls {
                break;
            }
        }
        st.last_merge = Instant::now();
        let Some(first_seq) = first_seq else {
            st.inbox = 0;
            return Ok(0);
        };
        let mut writes = Writes::new(self);
        // Seen buckets, in key order.
        let mut buckets: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        let mut merged_hashes = Vec::new();
        for (flags, _, item) in &entries {
            if flags & RETRY == 0 {
                let h = url_key(&item.url);
                buckets.entry(bucket_of(h)).or_default().push(h);
                merged_hashes.push(h);
            }
        }
        for (bucket, mut hashes) in buckets {
            hashes.sort_unstable();
            hashes.dedup();
            let mut k = vec![S];
            k.extend_from_slice(&bucket.to_be_bytes());
            let old = self.kv.get(&k)?;
            writes.insert(
                k,
                seen::merge_bucket(old.as_deref().unwrap_or(&[]), &hashes),
            )?;
        }
        // Blocks by host and priority band, in a fixed order so a redone
        // merge writes the same blocks under the same keys.
        let n = entries.len() as u64;
        let mut groups: BTreeMap<([u8; 8], u16), (String, Vec<QueuedUrl>)> = BTreeMap::new();
        for (flags, host, item) in entries {
            if flags & SEEN_ONLY != 0 {
                continue;
            }
            let band = u16::from(super::layout::priority_key(item.priority)[0]) * BANDS / 256;
            groups
                .entry((host_hash(&host), band))
                .or_insert_with(|| (host, Vec::new()))
                .1
                .push(item);
        }
        let mut hosts = Vec::new();
        for ((hkey, _), (host, mut items)) in groups {
            items.sort_by(|a, b| b.priority.total_cmp(&a.priority));
            for (i, chunk) in items.chunks(BLOCK_ITEMS).enumerate() {
                let seq = (first_seq << 16) | (i as u64 & 0xffff);
                let best = chunk.first().map_or(0.0, |i| i.priority);
                writes.insert(
                    key(Q, &super::layout::queue_key(&hkey, best, seq)),
                    encode_block(chunk),
                )?;
            }
            if st.known_hosts.insert(hkey) {
                writes.insert(key(H, &hkey), host.as_bytes().to_vec())?;
            }
            hosts.push(host);
        }
        writes.finish()?;
        Self::put_queued(&mut consumed, st.queued);
        self.kv.apply_batch(consumed)?;
        for h in merged_hashes {
            st.seen.pending.remove(&h);
        }
        st.inbox = st.inbox.saturating_sub(n);
        hosts.sort();
        hosts.dedup();
        st.new_hosts.extend(hosts);
        Ok(n)
    }

    /// Merges the inbox if it is due: large, a second old, or `idle` (the
    /// scheduler has nothing ready). Returns the hosts that got URLs, and
    /// when the next merge falls due if the inbox is not empty.
    pub fn maintain(&self, idle: bool) -> Result<(Vec<String>, Option<Instant>), StoreError> {
        let mut st = self.lock();
        let now = Instant::now();
        if st.inbox > 0 && (idle || st.inbox >= MERGE_AT || now >= st.last_merge + MERGE_EVERY) {
            while st.inbox > 0 {
                self.merge_locked(&mut st, MERGE_AT)?;
                if !idle {
                    break;
                }
            }
        }
        let due = (st.inbox > 0).then(|| st.last_merge + MERGE_EVERY);
        Ok((std::mem::take(&mut st.new_hosts), due))
    }

    /// URLs in the inbox (not yet schedulable).
    pub fn inbox_len(&self) -> u64 {
        self.lock().inbox
    }

    /// Whether a host has a block not handed out yet.
    pub fn host_has_queue(&self, host: &[u8; 8]) -> Result<bool, StoreError> {
        let st = self.lock();
        for kv in self.kv.scan_prefix(key(Q, host)) {
            let (k, _) = kv?;
            if !st.open_blocks.contains_key(&k[1..]) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// URLs of the host's blocks not handed out yet, reading at most
    /// `max_blocks` blocks, and whether it has more blocks than that. URLs
    /// in the inbox are not counted until merged (a second at most).
    pub fn host_queued(
        &self,
        host: &[u8; 8],
        max_blocks: usize,
    ) -> Result<(u64, bool), StoreError> {
        let st = self.lock();
        let mut n = 0;
        for (i, kv) in self.kv.scan_prefix(key(Q, host)).enumerate() {
            if i >= max_blocks {
                return Ok((n, true));
            }
            let (k, v) = kv?;
            if !st.open_blocks.contains_key(&k[1..]) {
                n += block_len(&v)?;
            }
        }
        Ok((n, false))
    }

    /// Priority of the host's best block not handed out yet.
    pub fn peek_priority(&self, host: &[u8; 8]) -> Result<Option<f32>, StoreError> {
        let st = self.lock();
        for kv in self.kv.scan_prefix(key(Q, host)) {
            let (k, _) = kv?;
            if st.open_blocks.contains_key(&k[1..]) {
                continue;
            }
            let p = k.get(9..11).map_or(0, |b| u16::from_be_bytes([b[0], b[1]]));
            return Ok(Some(f32::from(u16::MAX - p) / f32::from(u16::MAX)));
        }
        Ok(None)
    }

    /// Hands out the host's best block not handed out yet. URLs of blocks
    /// from an earlier run that already have an outcome are dropped.
    pub fn next_block(&self, host: &[u8; 8]) -> Result<Option<Block>, StoreError> {
        let mut st = self.lock();
        let mut emptied = Vec::new();
        let mut found = None;
        for kv in self.kv.scan_prefix(key(Q, host)) {
            let (k, v) = kv?;
            if st.open_blocks.contains_key(&k[1..]) {
                continue;
            }
            let mut items = decode_block(&v)?;
            if block_seq(&k) >> 16 < st.session_seq {
                let before = items.len();
                let mut kept = Vec::with_capacity(before);
                for item in items {
                    if !self
                        .kv
                        .contains_key(key(P, &super::layout::url_hash(&item.url)))?
                    {
                        kept.push(item);
                    }
                }
                st.queued = st.queued.saturating_sub((before - kept.len()) as u64);
                items = kept;
            }
            if items.is_empty() {
                emptied.push(k);
                continue;
            }
            found = Some(Block {
                key: k[1..].to_vec(),
                items,
            });
            break;
        }
        if !emptied.is_empty() {
            let mut batch = sled::Batch::default();
            for k in emptied {
                batch.remove(k);
            }
            Self::put_queued(&mut batch, st.queued);
            self.kv.apply_batch(batch)?;
        }
        if let Some(b) = &found {
            st.open_blocks.insert(b.key.clone(), b.items.len() as u32);
        }
        Ok(found)
    }

    /// Counts one URL of an open block as done: it leaves the queue. Adds
    /// the block's removal to `batch` when it was the last. Returns (left the
    /// queue, block removed); the first is false for a completion replayed
    /// twice.
    pub(super) fn finish_in_block(
        st: &mut QueueState,
        batch: &mut sled::Batch,
        block: &[u8],
    ) -> (bool, bool) {
        let Some(left) = st.open_blocks.get_mut(block) else {
            return (false, false);
        };
        *left = left.saturating_sub(1);
        st.queued = st.queued.saturating_sub(1);
        if *left == 0 {
            st.open_blocks.remove(block);
            batch.remove(key(Q, block));
            // The persistent count is kept with writes that happen anyway;
            // after a crash it can be off by the URLs of one block per host.
            Self::put_queued(batch, st.queued);
            return (true, true);
        }
        (true, false)
    }

    /// Ends a lease without a page outcome: the URL leaves the queue, and a
    /// replay after a crash may hand it out again. For tools and benchmarks
    /// that drive the frontier alone; the daemon completes every lease with
    /// [`Store::complete`].
    pub fn release(&self, block: &[u8]) -> Result<(), StoreError> {
        let mut st = self.lock();
        let mut batch = sled::Batch::default();
        if Self::finish_in_block(&mut st, &mut batch, block).1 {
            self.kv.apply_batch(batch)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::queued::UrlKind;
    use super::*;

    fn q(url: &str) -> QueuedUrl {
        QueuedUrl {
            url: url.into(),
            depth: 1,
            seed: 2,
            attempt: 0,
            kind: UrlKind::Page,
            priority: 0.5,
            features: None,
            revisit: None,
        }
    }

    #[test]
    fn entries_round_trip_and_truncation_is_an_error() {
        let a = q("http://a.test/1");
        let b = q("http://b.test/ü");
        let bytes = encode_inbox(&[(0, "a.test", &a), (RETRY, "b.test", &b)]);
        let back = decode_inbox(&bytes).expect("decode");
        assert_eq!(back.len(), 2);
        assert_eq!(
            (back[1].0, back[1].1.as_str(), &back[1].2),
            (RETRY, "b.test", &b)
        );
        assert!(decode_inbox(&bytes[..bytes.len() - 1]).is_err());
        let block = encode_block(&[a.clone(), b.clone()]);
        assert_eq!(decode_block(&block).expect("block"), vec![a, b]);
        assert!(decode_block(&block[..5]).is_err());
    }
}
