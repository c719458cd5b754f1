//! Salvage without sled: whatever sled says of a damaged database (it
//! cannot open it, it stops at "corrupted data", or it opens and silently
//! holds less), its records can still be found in the raw files. Every
//! record is stored sealed (a marker byte, the xxh3-64 of its JSON, the
//! JSON; see `records`), and sled keeps values as they are (in `db`, or in
//! `blobs/` for large nodes), so a scan for sealed JSON whose checksum holds
//! finds each intact record. Several copies of a record (sled rewrites
//! pages) are given once, by `seq`: a record never changes once written.
//! The files are read in windows, so memory stays bounded by the window,
//! not the store.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::record::Record;

/// What a raw scan read and found.
#[derive(Debug, Default)]
pub struct RawScan {
    /// Intact records given (each `seq` once).
    pub found: u64,
    /// Bytes of the files scanned.
    pub bytes: u64,
    /// The lowest `seq` given.
    pub first: u64,
    /// The highest `seq` given.
    pub last: u64,
}

/// The sequence numbers seen, as a bit set (records are numbered densely
/// from 1).
#[derive(Debug, Default)]
pub struct SeqSet(Vec<u64>);

impl SeqSet {
    /// Adds `seq`; false if it was there.
    pub fn insert(&mut self, seq: u64) -> bool {
        let (word, bit) = ((seq / 64) as usize, seq % 64);
        if word >= self.0.len() {
            self.0.resize(word + 1, 0);
        }
        let had = self.0[word] & (1 << bit) != 0;
        self.0[word] |= 1 << bit;
        !had
    }
}

/// How the files are read: `size` bytes at a time; a sealed record is
/// looked for across a window's end up to `max_record` bytes (what is left
/// of a window past `size - max_record` is read again with the next).
#[derive(Clone, Copy)]
struct Window {
    size: usize,
    max_record: usize,
}

const WINDOW: Window = Window {
    size: 64 << 20,
    max_record: 16 << 20,
};

/// The files of the store in `dir` that can hold records: `db`, then
/// `blobs/*`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.join("db")];
    if let Ok(blobs) = std::fs::read_dir(dir.join("blobs")) {
        let mut b: Vec<PathBuf> = blobs.flatten().map(|e| e.path()).collect();
        b.sort();
        out.extend(b);
    }
    out
}

/// Scans the files of the store in `dir` for intact records and gives each
/// one not in `seen` to `each` (adding it to `seen`), in the order found.
pub fn scan(
    dir: &Path,
    seen: &mut SeqSet,
    mut each: impl FnMut(&Record) -> std::io::Result<()>,
) -> std::io::Result<RawScan> {
    let mut out = RawScan::default();
    let mut bytes = 0u64;
    for (i, path) in files(dir).into_iter().enumerate() {
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            // A blob that went away is nothing to read; the database is.
            Err(_) if i > 0 => continue,
            Err(e) => return Err(e),
        };
        scan_file(file, WINDOW, &mut bytes, &mut |rec| {
            if rec.seq == 0 || !seen.insert(rec.seq) {
                return Ok(());
            }
            if out.found == 0 || rec.seq < out.first {
                out.first = rec.seq;
            }
            out.last = out.last.max(rec.seq);
            out.found += 1;
            each(rec)
        })?;
    }
    out.bytes = bytes;
    Ok(out)
}

/// Scans one file, window by window.
fn scan_file(
    mut file: std::fs::File,
    w: Window,
    read: &mut u64,
    each: &mut dyn FnMut(&Record) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let kept = buf.len();
        buf.resize(kept + w.size, 0);
        let mut filled = kept;
        while filled < buf.len() {
            match file.read(&mut buf[filled..])? {
                0 => break,
                n => filled += n,
            }
        }
        buf.truncate(filled);
        *read += (filled - kept) as u64;
        let end_of_file = filled < kept + w.size;
        // Records starting before `stop` are read from this window; the
        // rest (maybe cut at its end) start the next.
        let stop = if end_of_file {
            buf.len()
        } else {
            buf.len().saturating_sub(w.max_record)
        };
        let resume = scan_bytes(&buf, stop, each)?;
        if end_of_file {
            return Ok(());
        }
        buf.drain(..resume.min(buf.len()));
    }
}

/// Reads the sealed records that start in `bytes[..stop]`; returns where
/// the next window should start.
fn scan_bytes(
    bytes: &[u8],
    stop: usize,
    each: &mut dyn FnMut(&Record) -> std::io::Result<()>,
) -> std::io::Result<usize> {
    let mut i = 0;
    while let Some(at) = next_marker(bytes, i).filter(|&at| at < stop) {
        i = at + 1;
        let Some(sum) = bytes.get(at + 1..at + 9) else {
            break;
        };
        let mut stream =
            serde_json::Deserializer::from_slice(&bytes[at + 9..]).into_iter::<Record>();
        let Some(Ok(record)) = stream.next() else {
            continue;
        };
        let end = at + 9 + stream.byte_offset();
        let sum = u64::from_be_bytes(sum.try_into().unwrap_or_default());
        if xxhash_rust::xxh3::xxh3_64(&bytes[at + 9..end]) == sum {
            each(&record)?;
            i = end;
        }
    }
    Ok(i.max(stop))
}

/// The next sealed-record marker followed by a checksum and `{`, from `from`.
fn next_marker(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 9 < bytes.len() {
        let at = i + bytes[i..].iter().position(|&b| b == 1)?;
        if bytes.get(at + 9) == Some(&b'{') {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_records_are_found_among_garbage() {
        let dir = std::env::temp_dir().join(format!("trawl-raw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let rec = |seq| Record {
            seq,
            url: format!("http://a.test/{seq}"),
            text: "Body".into(),
            ..Record::default()
        };
        let mut file = vec![1u8, 7, 7, b'{', b'x'];
        for seq in [1, 2, 2] {
            let json = serde_json::to_vec(&rec(seq)).expect("json");
            file.extend(super::super::records::seal(&json));
            file.extend([0u8, 1, 2, 3]);
        }
        let mut bad = super::super::records::seal(&serde_json::to_vec(&rec(3)).expect("json"));
        let last = bad.len() - 3;
        bad[last] ^= 0x20; // a flipped bit: the checksum fails
        file.extend(bad);
        std::fs::write(dir.join("db"), &file).expect("write");
        let mut got = Vec::new();
        let found = scan(&dir, &mut SeqSet::default(), |r| {
            got.push(r.seq);
            Ok(())
        })
        .expect("scan");
        assert_eq!(got, vec![1, 2]);
        assert_eq!((found.found, found.first, found.last), (2, 1, 2));
        // Those seen already (read through sled) are not given again.
        let mut seen = SeqSet::default();
        seen.insert(1);
        let mut again = Vec::new();
        scan(&dir, &mut seen, |r| {
            again.push(r.seq);
            Ok(())
        })
        .expect("scan");
        assert_eq!(again, vec![2]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Records cut by a window's end are read whole from the next window.
    #[test]
    fn records_across_windows_are_found() {
        let mut file = Vec::new();
        for seq in 1..=40u64 {
            let rec = Record {
                seq,
                url: format!("http://a.test/{seq}"),
                ..Record::default()
            };
            file.extend(super::super::records::seal(
                &serde_json::to_vec(&rec).expect("json"),
            ));
            file.extend(std::iter::repeat_n(7u8, seq as usize % 13));
        }
        let dir = std::env::temp_dir().join(format!("trawl-raw-w-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("db");
        std::fs::write(&path, &file).expect("write");
        let mut got = Vec::new();
        let mut read = 0;
        let one = serde_json::to_vec(&Record::default()).expect("json").len() + 60;
        let w = Window {
            size: 3 * one,
            max_record: 2 * one,
        };
        let f = std::fs::File::open(&path).expect("open");
        scan_file(f, w, &mut read, &mut |r| {
            got.push(r.seq);
            Ok(())
        })
        .expect("scan");
        assert_eq!(got, (1..=40).collect::<Vec<_>>());
        assert_eq!(read, file.len() as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
