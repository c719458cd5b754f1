//! URLs set aside with an outcome but not given up: a URL of a host that
//! was stopped (its error budget spent) or of a spent page budget leaves the
//! queue with its own outcome line (`host_stopped`, `budget_spent`) and
//! waits here until it is offered again: at the next start, or once its
//! cool-down has passed. Nothing leaves the frontier without a trace, and
//! nothing set aside is lost.
//!
//! Keys: `k` ++ until(8, seconds since the epoch, big-endian) ++
//! url-hash(16) → one inbox entry (host and queued URL). `until` is
//! `u64::MAX` for URLs offered again only at the next start.

use super::codec::encode;
use super::error::StoreError;
use super::handle::Store;
use super::layout::{key, url_hash, P};
use super::queue::RETRY;
use super::queued::QueuedUrl;
use crate::record::PageOutcome;

pub(super) const K: u8 = b'k';

fn parked_key(until: u64, url: &str) -> Vec<u8> {
    let mut rest = until.to_be_bytes().to_vec();
    rest.extend_from_slice(&url_hash(url));
    key(K, &rest)
}

impl Store {
    /// Writes `outcome` and sets `item` aside until `until` (seconds since
    /// the epoch; `u64::MAX`: the next start), in `batch`.
    pub(super) fn park_into(
        &self,
        batch: &mut sled::Batch,
        host: &str,
        item: &QueuedUrl,
        mut outcome: PageOutcome,
        until: u64,
    ) -> Result<(), StoreError> {
        let page_key = key(P, &url_hash(&outcome.url));
        let earlier = self.outcome_seq_of(&page_key)?;
        self.number_outcome(batch, &mut outcome, earlier)?;
        batch.insert(page_key, encode(&outcome));
        batch.insert(
            parked_key(until, &item.url),
            super::queue::encode_inbox(&[(RETRY, host, item)]),
        );
        Ok(())
    }

    /// URLs set aside, in all.
    pub fn parked_len(&self) -> usize {
        self.kv.scan_prefix([K]).count()
    }

    /// Offers the URLs set aside until `now` or earlier (all of them with
    /// `all`) to the queue again; returns how many. They were queued
    /// before, so the seen-set is not asked.
    pub fn unpark(&self, now: u64, all: bool) -> Result<usize, StoreError> {
        let end = if all {
            vec![K + 1]
        } else {
            key(K, &now.saturating_add(1).to_be_bytes())
        };
        self.offer_range(vec![K]..end)
    }

    /// Moves the inbox entries kept in `range` (set-aside URLs, due
    /// revisits) to the inbox, in one batch; returns how many.
    pub(super) fn offer_range(&self, range: std::ops::Range<Vec<u8>>) -> Result<usize, StoreError> {
        let mut st = self.lock();
        let mut batch = sled::Batch::default();
        let mut n = 0u64;
        for kv in self.kv.range(range) {
            let (k, v) = kv?;
            batch.remove(k);
            batch.insert(
                key(super::layout::N, &self.db.generate_id()?.to_be_bytes()),
                v,
            );
            n += 1;
        }
        if n == 0 {
            return Ok(0);
        }
        Self::put_queued(&mut batch, st.queued + n);
        self.kv.apply_batch(batch)?;
        st.queued += n;
        st.inbox += n;
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::super::queued::UrlKind;
    use super::*;
    use crate::record::Outcome;

    #[test]
    fn set_aside_urls_come_back_when_due_or_at_the_next_start() {
        let dir = std::env::temp_dir().join(format!("trawl-parked-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, 1 << 20).expect("open");
        let mut batch = sled::Batch::default();
        for (url, until) in [("http://a.test/1", 100), ("http://a.test/2", u64::MAX)] {
            let item = QueuedUrl {
                url: url.into(),
                depth: 1,
                seed: 0,
                attempt: 0,
                kind: UrlKind::Page,
                priority: 0.5,
                features: None,
                revisit: None,
            };
            let outcome = PageOutcome {
                url: url.into(),
                outcome: Outcome::HostStopped,
                ..PageOutcome::default()
            };
            let _queue = store.lock();
            store
                .park_into(&mut batch, "a.test", &item, outcome, until)
                .expect("park");
            store
                .kv
                .apply_batch(std::mem::take(&mut batch))
                .expect("apply");
        }
        assert_eq!(store.parked_len(), 2);
        let page = store
            .page("http://a.test/1")
            .expect("read")
            .expect("outcome");
        assert_eq!(page.outcome, Outcome::HostStopped);
        assert_eq!(page.seq, 1, "outcomes are numbered");
        let after = store.outcomes_after(1, 10).expect("outcomes");
        assert_eq!(after.len(), 1);
        assert_eq!(
            (after[0].seq, after[0].url.as_str()),
            (2, "http://a.test/2")
        );
        let queued = store.queue_len_hint();
        assert_eq!(store.unpark(99, false).expect("unpark"), 0, "not due yet");
        assert_eq!(store.unpark(100, false).expect("unpark"), 1, "due");
        assert_eq!(store.queue_len_hint(), queued + 1);
        assert_eq!(
            store.unpark(1_000, false).expect("unpark"),
            0,
            "next start only"
        );
        assert_eq!(store.unpark(0, true).expect("unpark"), 1, "the next start");
        assert_eq!(store.parked_len(), 0);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
