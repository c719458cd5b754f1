//! Files a user names (config, cookie jars, focus examples, seed files) are
//! read with a size cap, so a path that names `/dev/zero` or a runaway log
//! is a clear error naming the path instead of memory exhausted; the caps
//! themselves are here, one place to read them.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest config file read (config.toml, `--config`, overrides).
pub(crate) const MAX_CONFIG_BYTES: u64 = 4 << 20;
/// Largest cookie file read (`[[site]] cookies`).
pub(crate) const MAX_COOKIE_BYTES: u64 = 16 << 20;
/// Largest focus example file read (`[focus] example_files`).
pub(crate) const MAX_EXAMPLE_BYTES: u64 = 16 << 20;
/// Largest seed file read (`seeds/*.txt`, `--seeds`): a few million lines.
pub const MAX_SEED_FILE_BYTES: u64 = 256 << 20;
/// Most `header=` options on one seed line.
pub(crate) const MAX_SEED_HEADERS: usize = 64;

/// Why a capped file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is larger than its cap (or endless, as /dev/zero).
    #[error("{} is larger than {max} bytes, the most trawl reads for it", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap.
        max: u64,
    },
}

/// The bytes of `path`, at most `max` of them: a longer file is an error,
/// never read past `max + 1` bytes.
pub fn read_capped(path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let f = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    f.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            max,
        });
    }
    Ok(bytes)
}

/// The text of `path` (UTF-8), at most `max` bytes.
pub(crate) fn read_capped_text(path: &Path, max: u64) -> Result<String, FileError> {
    let bytes = read_capped(path, max)?;
    String::from_utf8(bytes).map_err(|e| FileError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_an_error_naming_it() {
        let e = read_capped(Path::new("/dev/zero"), 1024).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { max: 1024, .. }), "{e}");
        assert!(e.to_string().contains("/dev/zero"), "{e}");
        let e = read_capped(Path::new("/no/such/file"), 10).unwrap_err();
        assert!(e.to_string().contains("/no/such/file"), "{e}");
    }

    #[test]
    fn a_file_at_the_cap_is_read() {
        let dir = std::env::temp_dir().join(format!("trawl-limits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("f");
        std::fs::write(&p, "abcd").unwrap();
        assert_eq!(read_capped_text(&p, 4).unwrap(), "abcd");
        assert!(read_capped(&p, 3).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
