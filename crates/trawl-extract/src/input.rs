//! Reading pages from disk or stdin: plain `.html`, gzip'd `.html.gz`, or `-`.
//! Sizes are capped while reading, so a huge or endless input cannot exhaust
//! memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::error::InputError;

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
    let bytes = read_capped(file, max_bytes, &p)?;
    maybe_gunzip(bytes, max_bytes, &p)
}

fn read_capped(r: impl Read, max: u64, path: &Path) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::new();
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
    let mut out = Vec::new();
    MultiGzDecoder::new(&bytes[..])
        .take(max + 1)
        .read_to_end(&mut out)
        .map_err(|source| InputError::Gzip {
            path: path.to_path_buf(),
            source,
        })?;
    if out.len() as u64 > max {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            limit: max,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
}
