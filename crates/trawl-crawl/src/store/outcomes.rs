//! Page outcomes in the order they were written, so `trawl export
//! --outcomes --since N` gives what came after N, as records do. Each
//! outcome carries its number (`seq`); a URL whose outcome is written again
//! (a retry that ended, a set-aside URL fetched later) moves to the end.
//!
//! Keys: `o` seq(8) → xxh3-128(url) of the outcome at `p`.
//! Stores written before outcomes were numbered get their numbers, in key
//! order, the first time a daemon opens them.

use super::codec::{be_u64, decode};
use super::error::StoreError;
use super::handle::Store;
use super::layout::{key, url_hash, M, P};
use crate::record::PageOutcome;

pub(super) const O: u8 = b'o';
const OUTCOME_SEQ: &str = "outcome_seq";

impl Store {
    /// Gives `outcome` the next number in `batch`, and drops the index entry
    /// of the URL's `earlier` outcome number. Callers hold the queue lock.
    pub(super) fn number_outcome(
        &self,
        batch: &mut sled::Batch,
        outcome: &mut PageOutcome,
        earlier: Option<u64>,
    ) -> Result<(), StoreError> {
        let counter = key(M, OUTCOME_SEQ.as_bytes());
        let next = be_u64(self.kv.get(&counter)?) + 1;
        batch.insert(counter, &next.to_be_bytes());
        if let Some(e) = earlier.filter(|&e| e > 0) {
            batch.remove(key(O, &e.to_be_bytes()));
        }
        batch.insert(key(O, &next.to_be_bytes()), &url_hash(&outcome.url));
        outcome.seq = next;
        Ok(())
    }

    /// The number of the URL's stored outcome, if it has one.
    pub(super) fn outcome_seq_of(&self, page_key: &[u8]) -> Result<Option<u64>, StoreError> {
        Ok(match self.kv.get(page_key)? {
            Some(v) => Some(decode::<PageOutcome>("pages", &v)?.seq),
            None => None,
        })
    }

    /// Outcomes numbered after `since`, in order, at most `limit`.
    pub fn outcomes_after(&self, since: u64, limit: usize) -> Result<Vec<PageOutcome>, StoreError> {
        let start = key(O, &since.saturating_add(1).to_be_bytes());
        let mut out = Vec::new();
        for kv in self.kv.range(start..vec![O + 1]) {
            if out.len() >= limit {
                break;
            }
            let (_, hash) = kv?;
            if let Some(v) = self.kv.get(key(P, &hash))? {
                out.push(decode::<PageOutcome>("pages", &v)?);
            }
        }
        Ok(out)
    }

    /// Numbers the outcomes of a store written before they were numbered.
    pub(super) fn number_old_outcomes(&self) -> Result<(), StoreError> {
        let counter = key(M, OUTCOME_SEQ.as_bytes());
        if self.kv.get(&counter)?.is_some() || self.kv.scan_prefix([P]).next().is_none() {
            return Ok(());
        }
        let mut n = 0u64;
        let mut batch = sled::Batch::default();
        for kv in self.kv.scan_prefix([P]) {
            let (k, v) = kv?;
            let mut outcome: PageOutcome = decode("pages", &v)?;
            n += 1;
            outcome.seq = n;
            batch.insert(k.clone(), super::codec::encode(&outcome));
            batch.insert(key(O, &n.to_be_bytes()), &k[1..]);
            if n % 10_000 == 0 {
                self.kv.apply_batch(std::mem::take(&mut batch))?;
            }
        }
        batch.insert(counter, &n.to_be_bytes());
        self.kv.apply_batch(batch)?;
        Ok(())
    }
}
