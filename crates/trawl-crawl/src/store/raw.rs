//! Salvage without sled: when the database is too damaged for sled to open,
//! its records can still be found in the raw file. Every record is stored
//! sealed (a marker byte, the xxh3-64 of its JSON, the JSON; see
//! `records`), and sled keeps small values as they are,
//! so a scan for sealed JSON whose checksum holds finds each intact record.
//! Several copies of a record (sled rewrites pages) are kept once, by `seq`.

use std::collections::BTreeMap;
use std::path::Path;

use super::Record;

/// What a raw scan found.
#[derive(Debug, Default)]
pub struct RawScan {
    /// Intact records by sequence number.
    pub records: BTreeMap<u64, Record>,
    /// Bytes of the file scanned.
    pub bytes: u64,
}

/// Scans the database file of the store in `dir` for intact records.
pub fn scan(dir: &Path) -> std::io::Result<RawScan> {
    let bytes = std::fs::read(dir.join("db"))?;
    let mut out = RawScan {
        bytes: bytes.len() as u64,
        ..RawScan::default()
    };
    let mut i = 0;
    while let Some(at) = next_marker(&bytes, i) {
        i = at + 1;
        let Some(sum) = bytes.get(at + 1..at + 9) else {
            break;
        };
        if bytes.get(at + 9) != Some(&b'{') {
            continue;
        }
        let mut stream =
            serde_json::Deserializer::from_slice(&bytes[at + 9..]).into_iter::<Record>();
        let Some(Ok(record)) = stream.next() else {
            continue;
        };
        let end = at + 9 + stream.byte_offset();
        let sum = u64::from_be_bytes(sum.try_into().unwrap_or_default());
        if xxhash_rust::xxh3::xxh3_64(&bytes[at + 9..end]) == sum && record.seq > 0 {
            out.records.entry(record.seq).or_insert(record);
            i = end;
        }
    }
    Ok(out)
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
        let found = scan(&dir).expect("scan");
        assert_eq!(
            found.records.keys().copied().collect::<Vec<_>>(),
            vec![1, 2]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
