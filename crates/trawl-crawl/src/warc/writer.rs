//! Writing WARC files: `.warc.gz` files of one gzip member per record,
//! each opened by a `warcinfo` record, rotated at a size, named so that the
//! workers of a cluster never clash (`trawl-<UTC time>-<n>-<writer>.warc.gz`).
//!
//! Appends are made durable with [`WarcWriter::sync`] (the daemon's writer
//! calls it before it commits the pages the records belong to). A file cut
//! by a crash ends in a torn member; [`WarcWriter::open`] cuts every file it
//! finds back to its last whole record, so each reads from start to end.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;

use super::record::{new_id, warc_date, Kind, Record};

/// Where a record is: its file (name, in the WARC directory) and offset.
pub use crate::record::WarcLocation as Location;

/// An open WARC directory and its current file.
pub struct WarcWriter {
    dir: PathBuf,
    writer: String,
    max_bytes: u64,
    software: String,
    seq: u32,
    current: Option<Current>,
}

struct Current {
    file: File,
    name: String,
    len: u64,
}

impl std::fmt::Debug for WarcWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcWriter")
            .field("dir", &self.dir)
            .field("file", &self.current.as_ref().map(|c| &c.name))
            .finish()
    }
}

/// A file name part from a writer's name: letters, digits, `-` and `_`.
fn clean(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if s.is_empty() {
        "trawl".into()
    } else {
        s
    }
}

/// `20261125050504` for a moment (seconds since the epoch).
fn stamp(secs: u64) -> String {
    crate::record::iso_time(secs)
        .chars()
        .filter(char::is_ascii_digit)
        .collect()
}

impl WarcWriter {
    /// Opens `dir` (creating it) for a writer named `writer` (a cluster
    /// worker's name, or the machine's), rotating files at `max_bytes`.
    /// Files left by a crash are repaired first.
    pub fn open(dir: &Path, writer: &str, max_bytes: u64) -> std::io::Result<WarcWriter> {
        std::fs::create_dir_all(dir)?;
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.to_string_lossy().ends_with(".warc.gz") {
                let cut = repair(&path)?;
                if cut > 0 {
                    tracing::warn!(file = %path.display(), bytes = cut, "WARC file ended in a torn record (a crash); cut back to its last whole record");
                }
            }
        }
        Ok(WarcWriter {
            dir: dir.to_path_buf(),
            writer: clean(writer),
            max_bytes: max_bytes.max(1 << 20),
            software: format!("trawl/{}", env!("CARGO_PKG_VERSION")),
            seq: 0,
            current: None,
        })
    }

    /// The directory's path.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Starts a new file with its warcinfo record.
    fn rotate(&mut self) -> std::io::Result<()> {
        let now = crate::record::now_secs();
        let (name, path) = loop {
            let name = format!(
                "trawl-{}-{:05}-{}.warc.gz",
                stamp(now),
                self.seq,
                self.writer
            );
            self.seq += 1;
            let path = self.dir.join(&name);
            if !path.exists() {
                break (name, path);
            }
        };
        let mut file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&path)?;
        let info = format!(
            "software: {}\r\nformat: WARC File Format 1.1\r\nconformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\nrobots: obey\r\n",
            self.software
        );
        let member = Record {
            kind: Kind::Warcinfo,
            id: new_id(),
            date: warc_date(now),
            target: None,
            ip: None,
            concurrent_to: None,
            refers_to: None,
            filename: Some(&name),
            content_type: "application/warc-fields",
            truncated: false,
            payload_at: None,
            block: info.as_bytes(),
        }
        .to_gzip();
        file.write_all(&member)?;
        self.current = Some(Current {
            file,
            name,
            len: member.len() as u64,
        });
        Ok(())
    }

    /// Appends gzip members (one or more whole records); returns the file
    /// and the offset of the first byte. A new file is started when this
    /// one would pass the size limit.
    pub fn append(&mut self, members: &[u8]) -> std::io::Result<Location> {
        let full = self
            .current
            .as_ref()
            .is_none_or(|c| c.len + members.len() as u64 > self.max_bytes && c.len > 0);
        if full {
            if let Some(c) = self.current.as_mut() {
                c.file.sync_data()?;
            }
            self.rotate()?;
        }
        let Some(c) = self.current.as_mut() else {
            return Err(std::io::Error::other("no WARC file open"));
        };
        let offset = c.len;
        if let Err(e) = c.file.write_all(members) {
            // A partial write (a full disk) is cut off again, so the file
            // stays whole.
            let _ = c.file.set_len(offset);
            return Err(e);
        }
        c.len += members.len() as u64;
        Ok(Location {
            file: c.name.clone(),
            offset,
        })
    }

    /// Makes every append so far durable.
    pub fn sync(&mut self) -> std::io::Result<()> {
        match self.current.as_mut() {
            Some(c) => c.file.sync_data(),
            None => Ok(()),
        }
    }
}

/// Cuts a `.warc.gz` file back to its last whole gzip member; returns the
/// bytes cut (0 when it was whole).
pub fn repair(path: &Path) -> std::io::Result<u64> {
    let total = std::fs::metadata(path)?.len();
    let good = whole_prefix(path)?;
    if good < total {
        let f = OpenOptions::new().write(true).open(path)?;
        f.set_len(good)?;
        f.sync_all()?;
    }
    Ok(total - good)
}

/// The length of the file's prefix made of whole gzip members.
fn whole_prefix(path: &Path) -> std::io::Result<u64> {
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(0))?;
    let mut src = BufReader::with_capacity(1 << 16, Counted { inner: f, n: 0 });
    let mut good = 0u64;
    let mut sink = [0u8; 1 << 16];
    loop {
        use std::io::BufRead;
        if src.fill_buf()?.is_empty() {
            return Ok(good);
        }
        let mut dec = GzDecoder::new(&mut src);
        let ok = loop {
            match dec.read(&mut sink) {
                Ok(0) => break true,
                Ok(_) => {}
                Err(_) => break false,
            }
        };
        if !ok {
            return Ok(good);
        }
        good = src.get_ref().n - src.buffer().len() as u64;
    }
}

struct Counted<R> {
    inner: R,
    n: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n += k as u64;
        Ok(k)
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::gzip;
    use super::super::Reader;
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("trawl-warc-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn member(i: usize) -> Vec<u8> {
        // Text that does not compress away: the files must reach their limit.
        let mut x = i as u64 + 1;
        let noise: String = (0..5000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (x >> 59) as u8 % 26)
            })
            .collect();
        let block = format!("HTTP/1.1 200 OK\r\n\r\npage {i} {noise}");
        Record {
            kind: Kind::Response,
            id: new_id(),
            date: warc_date(1),
            target: Some(&format!("http://a.test/{i}")),
            ip: None,
            concurrent_to: None,
            refers_to: None,
            filename: None,
            content_type: "application/http; msgtype=response",
            truncated: false,
            payload_at: Some(19),
            block: block.as_bytes(),
        }
        .to_gzip()
    }

    #[test]
    fn files_rotate_each_opens_with_warcinfo_and_locations_resolve() {
        let dir = scratch("rotate");
        let mut w = WarcWriter::open(&dir, "w/1", 1 << 20).expect("open");
        let mut locs = Vec::new();
        for i in 0..400 {
            locs.push(w.append(&member(i)).expect("append"));
        }
        w.sync().expect("sync");
        let files: std::collections::BTreeSet<_> = locs.iter().map(|l| l.file.clone()).collect();
        assert!(files.len() >= 2, "{files:?}");
        assert!(
            files.iter().all(|f| f.ends_with("-w_1.warc.gz")),
            "{files:?}"
        );
        for f in &files {
            let recs: Vec<_> = Reader::new(File::open(dir.join(f)).expect("file"))
                .map(|r| r.expect("record"))
                .collect();
            assert_eq!(recs[0].kind(), "warcinfo");
        }
        for (i, l) in locs.iter().enumerate().step_by(37) {
            let mut f = File::open(dir.join(&l.file)).expect("file");
            f.seek(SeekFrom::Start(l.offset)).expect("seek");
            let r = Reader::new(f).next().expect("one").expect("record");
            assert_eq!(r.target(), Some(format!("http://a.test/{i}").as_str()));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_torn_last_record_is_cut_off_on_open() {
        let dir = scratch("torn");
        let name = {
            let mut w = WarcWriter::open(&dir, "w", 1 << 30).expect("open");
            w.append(&member(1)).expect("append");
            let l = w.append(&member(2)).expect("append");
            w.sync().expect("sync");
            l.file
        };
        let path = dir.join(&name);
        let whole = std::fs::metadata(&path).expect("meta").len();
        // A crash halfway through a third record.
        let third = member(3);
        let mut f = OpenOptions::new().append(true).open(&path).expect("file");
        f.write_all(&third[..third.len() / 2]).expect("write");
        drop(f);
        let _w = WarcWriter::open(&dir, "w", 1 << 30).expect("reopen");
        assert_eq!(std::fs::metadata(&path).expect("meta").len(), whole);
        let recs: Vec<_> = Reader::new(File::open(&path).expect("file")).collect();
        assert!(
            recs.iter().all(|r| r.is_ok()) && recs.len() == 3,
            "{recs:?}"
        );
        let _ = gzip(b"");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
