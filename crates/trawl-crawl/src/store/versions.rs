//! Newer versions of a record (a revisit found the page changed, or
//! `trawl reextract`): a new record, numbered like any other so `export
//! --since` sees it, that names the one it replaces (`previous`); the old
//! record stays (the export's numbering has no gaps) but is marked
//! replaced, and a plain export skips it. One sled batch, so a crash
//! leaves both or neither.

use super::codec::{be_u64, decode, encode};
use super::error::StoreError;
use super::handle::Store;
use super::layout::{key, url_hash, M, P, R, RECORD_SEQ};
use super::records;
use crate::record::{PageOutcome, Record};

/// Keyspace: replaced record's seq → the seq that replaced it.
pub(super) const V: u8 = b'v';

impl Store {
    /// Stores `rec` as the newer version of record `old`; returns its number.
    pub fn add_version(&self, old: u64, rec: &Record) -> Result<u64, StoreError> {
        let _st = self.lock();
        let mut batch = sled::Batch::default();
        let url = rec.url.clone();
        // `rec` carries the version it replaces (a first record has none:
        // version 1), as a revisit's new version does.
        let rec = Record {
            previous: Some(old),
            version: Some(rec.version.unwrap_or(1).max(1) + 1),
            ..rec.clone()
        };
        let next = self.record_into(&mut batch, rec, Some(old))?;
        // The URL's outcome points at its latest record.
        let page_key = key(P, &url_hash(&url));
        if let Some(v) = self.kv.get(&page_key)? {
            let mut o = decode::<PageOutcome>("pages", &v)?;
            if o.record == Some(old) {
                o.record = Some(next);
                batch.insert(page_key, encode(&o));
            }
        }
        self.kv.apply_batch(batch)?;
        Ok(next)
    }

    /// Numbers `rec` next and writes it in `batch`, marking record `old`
    /// (when given) as replaced by it; returns its number. The caller holds
    /// the queue lock (record numbers are taken under it).
    pub(super) fn record_into(
        &self,
        batch: &mut sled::Batch,
        mut rec: Record,
        old: Option<u64>,
    ) -> Result<u64, StoreError> {
        let seq_key = key(M, RECORD_SEQ.as_bytes());
        let next = be_u64(self.kv.get(&seq_key)?) + 1;
        batch.insert(seq_key, &next.to_be_bytes());
        if let Some(old) = old {
            batch.insert(key(V, &old.to_be_bytes()), &next.to_be_bytes());
        }
        rec.seq = next;
        batch.insert(key(R, &next.to_be_bytes()), records::seal_value(&rec));
        Ok(next)
    }

    /// The record that replaced record `seq`, if one did.
    pub fn replaced_by(&self, seq: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .kv
            .get(key(V, &seq.to_be_bytes()))?
            .map(|v| be_u64(Some(v))))
    }
}

#[cfg(test)]
mod tests {
    use super::super::handle::Store;

    #[test]
    fn a_new_version_is_numbered_next_and_marks_the_old_one() {
        let dir = std::env::temp_dir().join(format!("trawl-versions-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, 8 << 20).expect("store");
        let rec = crate::record::Record {
            url: "http://a.test/".into(),
            text: "new text".into(),
            ..Default::default()
        };
        let n = store.add_version(7, &rec).expect("version");
        assert_eq!(n, store.last_record_seq().expect("seq"));
        assert_eq!(store.replaced_by(7).expect("read"), Some(n));
        assert_eq!(store.replaced_by(n).expect("read"), None);
        let got = store.record(n).expect("read").expect("record");
        assert_eq!((got.previous, got.text.as_str()), (Some(7), "new text"));
        // Regression (issue 53, item 2): reextract's versions had `previous`
        // but no `version`.
        assert_eq!(got.version, Some(2));
        let again = store.add_version(n, &got).expect("version");
        let got = store.record(again).expect("read").expect("record");
        assert_eq!((got.previous, got.version), (Some(n), Some(3)));
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
