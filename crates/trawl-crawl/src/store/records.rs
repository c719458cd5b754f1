//! How a record is kept: its JSON behind a marker byte and an xxh3
//! checksum, so a damaged record is found and named instead of exported
//! half-read or skipped. Records written before checksums (plain JSON,
//! starting with `{`) are still read.
//!
//! The store's own counters can be rolled back with the data when sled
//! discards a damaged tail of its log, so the record count is also written
//! beside the store, in `checkpoint` (see [`Checkpoint`]), after every
//! successful flush: a store holding fewer records than its checkpoint
//! lost some, and says so.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::error::StoreError;

const SEALED: u8 = 1;

/// `SEALED` ++ xxh3-64(json) ++ json: the form [`seal_value`] writes,
/// from JSON already written (tests build stores' files with it).
#[cfg(test)]
pub(super) fn seal(json: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(json.len() + 9);
    v.push(SEALED);
    v.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(json).to_be_bytes());
    v.extend_from_slice(json);
    v
}

/// `SEALED` ++ xxh3-64(json) ++ json of `v`, the JSON written once,
/// straight after the marker and the checksum's place, into a buffer the
/// thread keeps: a record's JSON grown by doubling and then copied behind
/// its header cost three copies of every record the crawl stores.
pub(super) fn seal_value<T: Serialize>(v: &T) -> sled::IVec {
    thread_local! {
        static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    BUF.with_borrow_mut(|buf| {
        buf.clear();
        buf.push(SEALED);
        buf.extend_from_slice(&[0; 8]);
        // Serializing our own plain structs to JSON cannot fail; were it
        // to, the JSON is empty, as `codec::encode` gives it.
        if serde_json::to_writer(&mut *buf, v).is_err() {
            buf.truncate(9);
        }
        let sum = xxhash_rust::xxh3::xxh3_64(&buf[9..]);
        buf[1..9].copy_from_slice(&sum.to_be_bytes());
        let sealed = sled::IVec::from(&buf[..]);
        if buf.capacity() > KEPT_BUFFER {
            *buf = Vec::new();
        }
        sealed
    })
}

/// Largest buffer [`seal_value`] keeps for the thread's next record.
const KEPT_BUFFER: usize = 4 << 20;

/// The JSON of a stored record, checked.
pub(super) fn open(seq: u64, v: &[u8]) -> Result<&[u8], StoreError> {
    match v.first() {
        Some(&SEALED) => {
            let sum = v.get(1..9).and_then(|s| <[u8; 8]>::try_from(s).ok());
            let json = v.get(9..).unwrap_or_default();
            match sum {
                Some(sum) if u64::from_be_bytes(sum) == xxhash_rust::xxh3::xxh3_64(json) => {
                    Ok(json)
                }
                _ => Err(StoreError::Corrupt {
                    tree: "records",
                    message: format!("record {seq} fails its checksum"),
                }),
            }
        }
        Some(b'{') => Ok(v),
        _ => Err(StoreError::Corrupt {
            tree: "records",
            message: format!("record {seq} is not a record ({} bytes)", v.len()),
        }),
    }
}

/// What the store held at its last successful flush, kept in a small file
/// beside it (written to a temporary file, then renamed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    /// The last record's sequence number (records are numbered 1..=N).
    pub records: u64,
}

impl Checkpoint {
    /// The checkpoint file of the store in `dir`.
    pub(crate) fn path(dir: &Path) -> PathBuf {
        dir.join("checkpoint")
    }

    /// The checkpoint of the store in `dir` (`None`: none written yet).
    pub(crate) fn read(dir: &Path) -> Option<Checkpoint> {
        let text = std::fs::read_to_string(Self::path(dir)).ok()?;
        let records = text
            .lines()
            .find_map(|l| l.strip_prefix("records "))
            .and_then(|v| v.trim().parse().ok())?;
        Some(Checkpoint { records })
    }

    /// Writes the checkpoint (to a temporary file, then renamed).
    pub(crate) fn write(&self, dir: &Path) -> std::io::Result<()> {
        let tmp = dir.join("checkpoint.tmp");
        std::fs::write(&tmp, format!("records {}\n", self.records))?;
        std::fs::rename(tmp, Self::path(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_sealed_in_place_is_what_sealing_its_json_gives() {
        let rec = serde_json::json!({"url": "https://a.test/", "text": "x".repeat(70_000)});
        let json = serde_json::to_vec(&rec).expect("json");
        // Twice: the second reuses the thread's buffer.
        for _ in 0..2 {
            assert_eq!(&seal_value(&rec)[..], &seal(&json)[..]);
        }
        let small = serde_json::json!({"url": "b"});
        let json = serde_json::to_vec(&small).expect("json");
        assert_eq!(&seal_value(&small)[..], &seal(&json)[..]);
    }

    #[test]
    fn sealed_records_open_and_damage_is_named() {
        let v = seal(br#"{"url":"x"}"#);
        assert_eq!(open(7, &v).ok(), Some(&br#"{"url":"x"}"#[..]));
        let mut bad = v.clone();
        let last = bad.len() - 2;
        bad[last] ^= 0x20;
        let err = open(7, &bad)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("record 7 fails its checksum"), "{err}");
        assert!(open(1, br#"{"legacy":true}"#).is_ok());
        assert!(open(1, b"\xff\x00").is_err());
    }
}

/// What `trawl store check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Records the store's counter says it has (1..=N).
    pub expected: u64,
    /// What the checkpoint beside the store says (at its last flush).
    pub checkpoint: Option<u64>,
    /// Records read back intact.
    pub intact: u64,
    /// Records missing or failing their checksum, by sequence number.
    pub damaged: Vec<u64>,
    /// Page outcomes read, and those that could not be decoded.
    pub outcomes: u64,
    /// Outcomes that could not be decoded.
    pub bad_outcomes: u64,
    /// A read error that stopped the walk (sled could not read further).
    pub stopped_by: Option<String>,
}

impl CheckReport {
    /// Whether everything the store should hold was read back intact.
    pub fn is_clean(&self) -> bool {
        self.damaged.is_empty()
            && self.bad_outcomes == 0
            && self.stopped_by.is_none()
            && self.checkpoint.is_none_or(|c| c <= self.expected)
            && self.intact == self.expected
    }
}

impl super::handle::Store {
    /// Flushes, then writes the checkpoint beside the store.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.flush_blocking()?;
        if self.copy.is_some() {
            return Ok(()); // a read-only view writes nothing beside the store
        }
        let cp = Checkpoint {
            records: self.last_record_seq()?,
        };
        cp.write(&self.dir).map_err(|e| StoreError::Checkpoint {
            path: Checkpoint::path(&self.dir).display().to_string(),
            source: e,
        })
    }

    /// Errors when the store holds fewer records than its checkpoint says
    /// it had: part of the database was lost (a damaged file).
    pub fn verify_checkpoint(&self) -> Result<(), StoreError> {
        let Some(cp) = Checkpoint::read(&self.dir) else {
            return Ok(());
        };
        let found = self.last_record_seq()?;
        if found < cp.records {
            return Err(StoreError::Damaged {
                path: self.db_file(),
                message: format!(
                    "it held {} records at its last checkpoint and now holds {found}",
                    cp.records
                ),
            });
        }
        Ok(())
    }

    /// Errors when fewer records are present than the store's counter says
    /// it made (part of the database lost while sled still opens it): a
    /// walk over the record keys, not a read of each record (that is
    /// `trawl store check`).
    pub fn verify_records_present(&self) -> Result<(), StoreError> {
        let counted = self.last_record_seq()?;
        let mut present = 0u64;
        for k in self.kv.scan_prefix([super::layout::R]).keys() {
            k?;
            present += 1;
        }
        if present < counted {
            return Err(StoreError::Damaged {
                path: self.db_file(),
                message: format!("it counted {counted} records and holds {present}"),
            });
        }
        Ok(())
    }

    /// The database file, for messages.
    pub fn db_file(&self) -> String {
        self.dir.join("db").display().to_string()
    }

    /// Reads every record and page outcome back (`trawl store check`).
    /// Stops at the first error sled reports while walking (a damaged page
    /// of the file), naming it.
    pub fn check(&self, mut intact: impl FnMut(u64, &crate::record::Record)) -> CheckReport {
        let mut r = CheckReport {
            expected: self.guarded(|s| s.last_record_seq()).unwrap_or(0),
            checkpoint: Checkpoint::read(&self.dir).map(|c| c.records),
            ..CheckReport::default()
        };
        r.expected = r.expected.max(r.checkpoint.unwrap_or(0));
        let mut next = 1u64;
        // sled may panic on a damaged page it walks into: that stops the
        // walk as its errors do.
        let walked = super::readonly::guard(&self.dir, || {
            self.check_records(&mut r, &mut next, &mut intact)
        });
        if let Err(StoreError::Damaged { message, .. }) = walked {
            r.stopped_by = Some(message);
        }
        if r.stopped_by.is_none() {
            r.damaged.extend(next..=r.expected);
        }
        let walked = super::readonly::guard(&self.dir, || self.check_outcomes(&mut r));
        if let Err(StoreError::Damaged { message, .. }) = walked {
            r.stopped_by.get_or_insert(message);
        }
        r
    }

    /// The record walk of [`Store::check`]: `next` is the `seq` after the
    /// last one seen.
    fn check_records(
        &self,
        r: &mut CheckReport,
        next: &mut u64,
        intact: &mut impl FnMut(u64, &crate::record::Record),
    ) {
        for kv in self.kv.scan_prefix([super::layout::R]) {
            let (k, v) = match kv {
                Ok(kv) => kv,
                Err(e) => {
                    r.stopped_by = Some(e.to_string());
                    break;
                }
            };
            let seq = k
                .get(1..9)
                .and_then(|s| s.try_into().ok())
                .map_or(0, u64::from_be_bytes);
            r.damaged.extend(*next..seq.min(r.expected + 1));
            *next = (*next).max(seq + 1);
            match open(seq, &v)
                .and_then(|j| super::codec::decode::<crate::record::Record>("records", j))
            {
                Ok(rec) => {
                    r.intact += 1;
                    intact(seq, &rec);
                }
                Err(_) => r.damaged.push(seq),
            }
        }
    }

    /// The page-outcome walk of [`Store::check`].
    fn check_outcomes(&self, r: &mut CheckReport) {
        for kv in self.kv.scan_prefix([super::layout::P]) {
            match kv {
                Ok((_, v)) => {
                    r.outcomes += 1;
                    if super::codec::decode::<crate::record::PageOutcome>("pages", &v).is_err() {
                        r.bad_outcomes += 1;
                    }
                }
                Err(e) => {
                    r.stopped_by.get_or_insert_with(|| e.to_string());
                    break;
                }
            }
        }
    }
}
