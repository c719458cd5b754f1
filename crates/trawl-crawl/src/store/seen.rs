//! The seen-set: every URL ever queued, so none is queued twice.
//!
//! Ten million URLs must fit in a few hundred MB with sled underneath, and
//! sled's memory grows with the number of keys written (a key per URL took
//! the process to gigabytes; see docs/BENCHMARKS.md). So the set is kept in
//! three layers:
//! - a Bloom filter in memory, sized by configuration, that answers "never
//!   seen" for almost every new URL without touching the disk;
//! - the hashes of URLs still in the inbox (queued but not yet merged), in
//!   memory and bounded by the merge threshold;
//! - 2^14 sled buckets (`s` ++ bucket(4)) of sorted 64-bit URL hashes, the
//!   durable set, rewritten in bulk when the inbox is merged. Few, larger
//!   writes: sled holds on to memory per write when writes come fast, so a
//!   merge of 200,000 URLs costs at most 16,384 writes however large the
//!   crawl (buckets are ~5 KB at 10 million URLs).
//!
//! A Bloom hit is confirmed against the other two layers, so the set is
//! exact up to 64-bit hash collisions (about one URL in 3,700 crawls of 100
//! million URLs).

use std::collections::HashSet;

/// Bits in the bucket number.
pub(crate) const BUCKET_BITS: u32 = 14;

/// The 64-bit hash a URL is known by in the seen-set.
pub(crate) fn url_key(url: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(url.as_bytes())
}

/// The bucket a hash lives in.
pub(crate) fn bucket_of(hash: u64) -> u32 {
    (hash >> (64 - BUCKET_BITS)) as u32
}

/// A plain Bloom filter over 64-bit hashes (double hashing, 7 probes).
pub(crate) struct Bloom {
    bits: Vec<u64>,
    mask: u64,
}

const PROBES: u64 = 7;

impl Bloom {
    /// A filter of at most `bytes` bytes (rounded down to a power of two,
    /// at least 1 KiB).
    pub(crate) fn new(bytes: u64) -> Bloom {
        let bits = (bytes.max(1024) * 8).next_power_of_two();
        let bits = if bits / 8 > bytes.max(1024) {
            bits / 2
        } else {
            bits
        };
        Bloom {
            bits: vec![0; (bits / 64) as usize],
            mask: bits - 1,
        }
    }

    fn probes(&self, hash: u64) -> [u64; PROBES as usize] {
        // A second, independent hash from the first (splitmix64 finaliser).
        let mut h2 = hash.wrapping_add(0x9e37_79b9_7f4a_7c15);
        h2 = (h2 ^ (h2 >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h2 = (h2 ^ (h2 >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h2 = (h2 ^ (h2 >> 31)) | 1;
        let mut out = [0; PROBES as usize];
        for (i, p) in out.iter_mut().enumerate() {
            *p = hash.wrapping_add((i as u64).wrapping_mul(h2)) & self.mask;
        }
        out
    }

    /// Adds a URL hash.
    pub(crate) fn insert(&mut self, hash: u64) {
        for p in self.probes(hash) {
            self.bits[(p / 64) as usize] |= 1 << (p % 64);
        }
    }

    /// Whether the hash may have been added (never false for one that was).
    pub(crate) fn may_contain(&self, hash: u64) -> bool {
        self.probes(hash)
            .into_iter()
            .all(|p| self.bits[(p / 64) as usize] & (1 << (p % 64)) != 0)
    }
}

/// A bucket's hashes from its stored bytes (sorted, big-endian u64s).
pub(crate) fn decode_bucket(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .filter_map(|c| c.try_into().ok().map(u64::from_be_bytes))
        .collect()
}

/// Whether a stored bucket holds `hash` (binary search on the bytes).
pub(crate) fn bucket_contains(bytes: &[u8], hash: u64) -> bool {
    let n = bytes.len() / 8;
    let at = |i: usize| {
        bytes
            .get(i * 8..i * 8 + 8)
            .and_then(|c| c.try_into().ok())
            .map_or(0, u64::from_be_bytes)
    };
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match at(mid).cmp(&hash) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
        }
    }
    false
}

/// `old` (stored bytes) merged with `new` (sorted, deduplicated) as bytes.
pub(crate) fn merge_bucket(old: &[u8], new: &[u64]) -> Vec<u8> {
    let old = decode_bucket(old);
    let mut out = Vec::with_capacity((old.len() + new.len()) * 8);
    let (mut i, mut j) = (0, 0);
    let mut last = None;
    while i < old.len() || j < new.len() {
        let v = match (old.get(i), new.get(j)) {
            (Some(&a), Some(&b)) if a <= b => {
                i += 1;
                a
            }
            (_, Some(&b)) => {
                j += 1;
                b
            }
            (Some(&a), None) => {
                i += 1;
                a
            }
            (None, None) => break,
        };
        if last != Some(v) {
            out.extend_from_slice(&v.to_be_bytes());
            last = Some(v);
        }
    }
    out
}

/// How many bucket answers [`Seen::hot`] keeps (about 1 MB) before it
/// starts again.
const HOT_MAX: usize = 1 << 16;

/// The in-memory layers.
pub(crate) struct Seen {
    /// The Bloom filter over every URL seen.
    pub bloom: Bloom,
    /// Hashes of URLs in the inbox, not yet in the buckets.
    pub pending: HashSet<u64>,
    /// Hashes a bucket said were seen, lately: a site's navigation links
    /// come back on every page, and each would read its bucket again. The
    /// set only grows, so an answer kept never goes stale.
    hot: HashSet<u64>,
}

impl Seen {
    /// Empty layers with a filter of `filter_bytes`.
    pub(crate) fn new(filter_bytes: u64) -> Seen {
        Seen {
            bloom: Bloom::new(filter_bytes),
            pending: HashSet::new(),
            hot: HashSet::new(),
        }
    }

    /// Whether a bucket already said `hash` was seen.
    pub(crate) fn is_hot(&self, hash: u64) -> bool {
        self.hot.contains(&hash)
    }

    /// Keeps a bucket's "seen" for `hash` (bounded: full, it starts again).
    pub(crate) fn keep_hot(&mut self, hash: u64) {
        if self.hot.len() >= HOT_MAX {
            self.hot.clear();
        }
        self.hot.insert(hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bloom_has_no_false_negatives_and_few_false_positives() {
        let mut b = Bloom::new(64 << 10);
        for i in 0..20_000u64 {
            b.insert(url_key(&format!("http://a.test/{i}")));
        }
        assert!((0..20_000u64).all(|i| b.may_contain(url_key(&format!("http://a.test/{i}")))));
        let fp = (0..20_000u64)
            .filter(|i| b.may_contain(url_key(&format!("http://b.test/{i}"))))
            .count();
        // 512 Ki bits for 20k keys: about 0.02% expected.
        assert!(fp < 40, "{fp} false positives");
    }

    #[test]
    fn the_hot_answers_stay_bounded() {
        let mut seen = Seen::new(1024);
        for h in 0..HOT_MAX as u64 {
            seen.keep_hot(h);
        }
        assert!(seen.is_hot(0) && seen.is_hot(HOT_MAX as u64 - 1));
        assert!(!seen.is_hot(HOT_MAX as u64));
        // Full, it starts again rather than grow.
        seen.keep_hot(HOT_MAX as u64);
        assert_eq!(seen.hot.len(), 1);
        assert!(seen.is_hot(HOT_MAX as u64) && !seen.is_hot(0));
    }

    #[test]
    fn buckets_merge_sorted_and_deduplicated() {
        let a = merge_bucket(&[], &[1, 5, 9]);
        let b = merge_bucket(&a, &[0, 5, 10]);
        assert_eq!(decode_bucket(&b), vec![0, 1, 5, 9, 10]);
        for v in [0, 1, 5, 9, 10] {
            assert!(bucket_contains(&b, v));
        }
        for v in [2, 6, 11, u64::MAX] {
            assert!(!bucket_contains(&b, v));
        }
        assert!(!bucket_contains(&[], 0));
    }

    #[test]
    fn bloom_size_is_a_power_of_two_within_the_budget() {
        let b = Bloom::new(3 << 20);
        assert_eq!(b.bits.len() * 8, 2 << 20);
        assert_eq!(Bloom::new(0).bits.len() * 8, 1024);
    }
}
