//! Reading pages from disk or stdin: plain `.html`, gzip'd `.html.gz`, or `-`.
//! Sizes are capped while reading, so a huge or endless input cannot exhaust
//! memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use flate2::{Crc, Decompress, FlushDecompress, Status};

use crate::error::InputError;

mod whole;

use whole::{recorded_len, MAX_RATIO};

/// Reads one input. `-` is stdin; a `.gz` suffix (or gzip magic) is inflated.
pub fn read_input(path: &str, max_bytes: u64) -> Result<Vec<u8>, InputError> {
    let p = PathBuf::from(path);
    let io_err = |source: io::Error| InputError::Io {
        path: p.clone(),
        source,
    };
    if path == "-" {
        let stdin = io::stdin();
        return read_capped(stdin.lock(), max_bytes, &p)
            .and_then(|b| maybe_gunzip(b, max_bytes, &p));
    }
    let file = File::open(&p).map_err(io_err)?;
    let hint = file.metadata().map_or(0, |m| m.len());
    let bytes = read_capped_sized(file, max_bytes, &p, hint)?;
    maybe_gunzip(bytes, max_bytes, &p)
}

fn read_capped(r: impl Read, max: u64, path: &Path) -> Result<Vec<u8>, InputError> {
    read_capped_sized(r, max, path, 0)
}

/// Reads at most `max + 1` bytes; `hint` (a file's length) sizes the buffer
/// once instead of doubling it.
fn read_capped_sized(
    r: impl Read,
    max: u64,
    path: &Path,
    hint: u64,
) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::with_capacity(hint.min(max).saturating_add(1) as usize);
    r.take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|source| InputError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if buf.len() as u64 > max {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            limit: max,
        });
    }
    Ok(buf)
}

fn maybe_gunzip(bytes: Vec<u8>, max: u64, path: &Path) -> Result<Vec<u8>, InputError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    if let Some(out) = whole::gunzip(&bytes, max) {
        return Ok(out);
    }
    match gunzip(&bytes, max) {
        Ok(Some(out)) => Ok(out),
        Ok(None) => Err(InputError::TooLarge {
            path: path.to_path_buf(),
            limit: max,
        }),
        Err(source) => Err(InputError::Gzip {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Inflates every gzip member of `bytes` (RFC 1952) into one buffer, each
/// member's CRC checked; `None` when the output would pass `max` bytes.
/// This is the streaming path: [`whole::gunzip`] takes the common case (one
/// member whose trailer tells its length) first, a third faster. The
/// buffer is sized once from the length the last member records, and
/// inflated into directly: reading through `io::Read` zeroed and regrew it,
/// 2-3% of an extraction run.
fn gunzip(bytes: &[u8], max: u64) -> io::Result<Option<Vec<u8>>> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
    let cap = max.saturating_add(1);
    let recorded = recorded_len(bytes).unwrap_or(0);
    let plausible = recorded.min(bytes.len() as u64 * MAX_RATIO);
    let mut out: Vec<u8> = Vec::with_capacity(plausible.saturating_add(1).min(cap) as usize);
    let mut rest = bytes;
    while !rest.is_empty() {
        let start = header_len(rest).ok_or_else(|| bad("invalid gzip header"))?;
        let member_out = out.len();
        let mut inflate = Decompress::new(false);
        loop {
            if out.len() as u64 >= cap {
                return Ok(None);
            }
            if out.len() == out.capacity() {
                let more = (out.capacity() as u64)
                    .max(64 << 10)
                    .min(cap - out.len() as u64);
                out.reserve_exact(more as usize);
            }
            let read = inflate.total_in() as usize;
            let input = rest.get(start + read..).unwrap_or_default();
            let (was_in, was_out) = (inflate.total_in(), inflate.total_out());
            let status = inflate
                .decompress_vec(input, &mut out, FlushDecompress::None)
                .map_err(|e| bad(&format!("corrupt deflate stream: {e}")))?;
            if status == Status::StreamEnd {
                break;
            }
            let stalled = inflate.total_in() == was_in && inflate.total_out() == was_out;
            if stalled && out.len() < out.capacity() {
                return Err(bad("gzip stream ends early"));
            }
        }
        let end = start + inflate.total_in() as usize;
        let trailer = rest
            .get(end..end + 8)
            .ok_or_else(|| bad("gzip trailer missing"))?;
        let mut crc = Crc::new();
        crc.update(&out[member_out..]);
        let want = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        if crc.sum() != want {
            return Err(bad("gzip checksum does not match"));
        }
        rest = &rest[end + 8..];
    }
    if out.len() as u64 > max {
        return Ok(None);
    }
    Ok(Some(out))
}

/// The length of a gzip member's header, or `None` when `b` opens none.
fn header_len(b: &[u8]) -> Option<usize> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if b.len() < 10 || b[..3] != [0x1f, 0x8b, 8] {
        return None;
    }
    let flags = b[3];
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let len = b.get(at..at + 2)?;
        at += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for field in [FNAME, FCOMMENT] {
        if flags & field != 0 {
            at += b.get(at..)?.iter().position(|&c| c == 0)? + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    (at <= b.len()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn the_whole_file_path_agrees_with_the_streaming_one_or_steps_aside() {
        let page = repeated(b"<p>abc </p>\n", 300_000);
        let one = gz(&page);
        assert_eq!(whole::gunzip(&one, 1 << 20), Some(page.clone()));
        assert_eq!(whole::gunzip(&gz(b""), 10), Some(Vec::new()));
        // Over the cap, two members, a lying length, trailing bytes or a bad
        // checksum: the streaming path decides.
        assert_eq!(whole::gunzip(&one, 299_999), None);
        let mut two = gz(b"<p>same</p>");
        two.extend(gz(b"<p>same</p>"));
        assert_eq!(whole::gunzip(&two, 1000), None);
        assert_eq!(
            read_input_bytes(two),
            b"<p>same</p><p>same</p>".to_vec(),
            "two equal members are both read"
        );
        let mut lying = one.clone();
        let n = lying.len();
        lying[n - 4..].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(whole::gunzip(&lying, 1 << 20), None);
        let mut trailing = one.clone();
        trailing.extend(b"junk");
        assert_eq!(whole::gunzip(&trailing, 1 << 20), None);
        let mut crc = one.clone();
        crc[n - 8] ^= 1;
        assert_eq!(whole::gunzip(&crc, 1 << 20), None);
    }

    fn read_input_bytes(bytes: Vec<u8>) -> Vec<u8> {
        maybe_gunzip(bytes, 1 << 20, Path::new("t")).expect("inflates")
    }

    #[test]
    fn reads_gzip_and_caps_size() {
        let dir = std::env::temp_dir().join(format!("trawl-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let gz = dir.join("a.html.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"<p>hello</p>").expect("gzip");
        std::fs::write(&gz, enc.finish().expect("gzip")).expect("write");
        let got = read_input(gz.to_str().unwrap_or_default(), 1000).expect("reads");
        assert_eq!(got, b"<p>hello</p>");
        assert!(matches!(
            read_input(gz.to_str().unwrap_or_default(), 5),
            Err(InputError::TooLarge { .. })
        ));
        assert!(matches!(
            read_input(dir.join("missing.html").to_str().unwrap_or_default(), 5),
            Err(InputError::Io { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup of a temp dir
    }

    /// `n` bytes of `pattern` over and over.
    fn repeated(pattern: &[u8], n: usize) -> Vec<u8> {
        pattern.iter().copied().cycle().take(n).collect()
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::GzBuilder::new()
            .filename("page.html")
            .comment("a comment")
            .extra(vec![1, 2, 3])
            .write(Vec::new(), flate2::Compression::default());
        enc.write_all(data).expect("gzip");
        enc.finish().expect("gzip")
    }

    #[test]
    fn inflates_members_with_optional_header_fields() {
        let page = repeated(b"<p>ab </p>", 200_000);
        let one = gz(&page);
        assert_eq!(gunzip(&one, 1 << 20).expect("inflates"), Some(page.clone()));
        // Two members read as one stream, as `zcat` reads them.
        let mut two = gz(b"<p>first</p>");
        two.extend(gz(b"<p>second</p>"));
        let got = gunzip(&two, 1000).expect("inflates");
        assert_eq!(got.as_deref(), Some(&b"<p>first</p><p>second</p>"[..]));
        // The cap holds whatever the member records as its length.
        assert_eq!(gunzip(&one, 199_999).expect("inflates"), None);
        assert_eq!(
            gunzip(&one, 200_000).expect("inflates").map(|v| v.len()),
            Some(200_000)
        );
        let mut lying = one.clone();
        let n = lying.len();
        lying[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(gunzip(&lying, 1 << 20).expect("inflates"), Some(page));
    }

    #[test]
    fn corrupt_gzip_is_an_error_not_a_panic() {
        let good = gz(b"<p>hello there, a page</p>");
        let mut crc = good.clone();
        let n = crc.len();
        crc[n - 8] ^= 0xff;
        let cut = good[..good.len() - 12].to_vec();
        let mut garbage = good.clone();
        garbage.extend(b"not gzip at all");
        for (name, bytes) in [
            ("checksum", crc),
            ("cut", cut),
            ("trailing garbage", garbage),
            ("header only", good[..10].to_vec()),
            ("short", vec![0x1f, 0x8b, 8]),
        ] {
            assert!(gunzip(&bytes, 1 << 20).is_err(), "{name}");
        }
    }
}
