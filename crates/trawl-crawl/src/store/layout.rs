//! How the store's one sled tree is laid out: the range prefixes, the
//! keys built from hashes and priorities, the counters' names and the
//! format number. Every file of the store reads them; they read nothing
//! of the store.

/// Bytes of link features a focused crawl keeps with a queued URL (the
/// focus layer defines what they mean).
pub const LINK_FEATURES: usize = 8;

/// The store layout this build reads and writes.
pub const FORMAT: u64 = 2;
/// Default size of the in-memory seen filter.
pub const DEFAULT_SEEN_FILTER: u64 = 32 << 20;

/// 8-byte host key.
pub fn host_hash(host: &str) -> [u8; 8] {
    xxhash_rust::xxh3::xxh3_64(host.as_bytes()).to_be_bytes()
}

/// 16-byte URL key.
pub fn url_hash(url: &str) -> [u8; 16] {
    xxhash_rust::xxh3::xxh3_128(url.as_bytes()).to_be_bytes()
}

/// Priority in [0,1] to a 2-byte key part where smaller sorts first.
pub(super) fn priority_key(p: f32) -> [u8; 2] {
    let p = if p.is_finite() {
        p.clamp(0.0, 1.0)
    } else {
        0.0
    };
    (u16::MAX - (p * f32::from(u16::MAX)) as u16).to_be_bytes()
}

/// The lease/queue key without its range prefix.
pub(super) fn queue_key(host: &[u8; 8], priority: f32, seq: u64) -> [u8; 18] {
    let mut k = [0u8; 18];
    k[..8].copy_from_slice(host);
    k[8..10].copy_from_slice(&priority_key(priority));
    k[10..].copy_from_slice(&seq.to_be_bytes());
    k
}

pub(super) const N: u8 = b'n';
pub(super) const Q: u8 = b'q';
pub(super) const S: u8 = b's';
pub(super) const H: u8 = b'h';
pub(super) const P: u8 = b'p';
pub(super) const R: u8 = b'r';
pub(super) const X: u8 = b'x';
pub(super) const M: u8 = b'm';

pub(super) fn key(prefix: u8, rest: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(rest.len() + 1);
    k.push(prefix);
    k.extend_from_slice(rest);
    k
}

pub(super) const RECORD_SEQ: &str = "record_seq";
pub(super) const COUNT_TOTAL: &str = "n:total";

/// What a fetched-page counter counts.
#[derive(Debug, Clone, Copy)]
pub enum Counter<'a> {
    /// Pages of the whole crawl.
    Total,
    /// Pages of one host.
    Host(&'a str),
    /// Pages of one seed.
    Seed(u32),
    /// Pages judged for relevance (focused crawls).
    Judged,
    /// Pages judged relevant, in all and per host.
    Relevant,
    /// Pages of one host judged relevant.
    RelevantHost(&'a str),
    /// URLs of one host ever queued (what `QueueCap` bounds).
    Queued(&'a str),
}

impl Counter<'_> {
    pub(super) fn key(&self) -> String {
        match self {
            Counter::Total => COUNT_TOTAL.to_string(),
            Counter::Host(h) => format!("n:h:{h}"),
            Counter::Seed(s) => format!("n:s:{s}"),
            Counter::Judged => "n:judged".to_string(),
            Counter::Relevant => "n:relevant".to_string(),
            Counter::RelevantHost(h) => format!("n:r:{h}"),
            Counter::Queued(h) => format!("n:q:{h}"),
        }
    }
}
