//! Reading a store without writing to it. sled has no read-only mode: it
//! writes while it opens (recovery, a new snapshot) and takes a write lock,
//! so `trawl status`, `export`, `store check` and `store salvage` on a
//! stopped store read a private copy of its database in the temporary
//! directory (`TMPDIR`), removed when the store is dropped. The store itself
//! is never written, and a read-only mount works.
//!
//! Also the store's boundary against sled's panics: a damaged file can make
//! sled panic instead of returning an error, at the open or only when a
//! read reaches the damaged page; [`guard`] (the open) and
//! [`Store::guarded`] (the reads of `status`, `export` and `store check`)
//! turn that into a [`StoreError::Damaged`] naming the store and the way out.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::error::StoreError;
use super::handle::{Copy, Store};

/// Runs `f`, turning a panic inside it (sled on a damaged file) into an
/// error naming the store `dir`.
pub(super) fn guard<T>(dir: &Path, f: impl FnOnce() -> T) -> Result<T, StoreError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        StoreError::Damaged {
            path: dir.join("db").display().to_string(),
            message: format!("the database library failed reading it ({what})"),
        }
    })
}

impl Store {
    /// Runs `read` on this store, a panic of the database library inside
    /// it becoming a [`StoreError::Damaged`] naming the store: sled may
    /// open a damaged file and panic only when a read reaches the damaged
    /// page, so commands that read a stopped store run their reads here,
    /// not only the open.
    pub fn guarded<T, E: From<StoreError>>(
        &self,
        read: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        guard(&self.dir, || read(self)).unwrap_or_else(|damaged| Err(E::from(damaged)))
    }
}

/// Copies what sled keeps in `from` (conf, db, blobs/, snap.*) to `to`.
fn copy_database(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let name_str = name.to_string_lossy();
        let path = entry.path();
        if name_str == "blobs" && path.is_dir() {
            let blobs = to.join("blobs");
            std::fs::create_dir_all(&blobs)?;
            for blob in std::fs::read_dir(&path)? {
                let blob = blob?;
                std::fs::copy(blob.path(), blobs.join(blob.file_name()))?;
            }
        } else if name_str == "conf" || name_str == "db" || name_str.starts_with("snap.") {
            std::fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}

impl Store {
    /// Opens the store in `dir` for reading only: a private copy of its
    /// database is opened, so nothing in `dir` is written (a read-only
    /// mount works). Fails when `dir` holds no store.
    pub fn open_read_only(dir: &Path, cache_bytes: u64) -> Result<Store, StoreError> {
        static N: AtomicU64 = AtomicU64::new(0);
        let open_error = |source: std::io::Error| StoreError::Open {
            path: dir.display().to_string(),
            source: sled::Error::Io(source),
        };
        std::fs::read_dir(dir).map_err(open_error)?;
        if !dir.join("db").is_file() {
            return Err(open_error(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no store database (db) there",
            )));
        }
        let copy_dir = std::env::temp_dir().join(format!(
            "trawl-read-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let copy = Arc::new(Copy {
            dir: copy_dir.clone(),
        });
        copy_database(dir, &copy_dir).map_err(|e| {
            open_error(std::io::Error::new(
                e.kind(),
                format!(
                    "cannot copy it to {} to read it without writing to it: {e}",
                    copy_dir.display()
                ),
            ))
        })?;
        // The smallest seen filter: a read-only view never asks it.
        Store::open_at(&copy_dir, dir, cache_bytes, 0, Some(copy))
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::StoreError;
    use super::super::handle::Store;

    #[test]
    fn a_panic_in_a_guarded_read_is_a_damaged_store_naming_it() {
        let dir = std::env::temp_dir().join(format!("trawl-guarded-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, 8 << 20).expect("store");
        assert_eq!(store.guarded(|s| s.last_record_seq()).expect("read"), 0);
        // Regression (session 45): reads after the open were not guarded,
        // so a damaged page sled met while walking ended `trawl export` in
        // a panic (exit 101) with no message.
        let got: Result<u64, StoreError> = store.guarded(|_| panic!("corrupted page"));
        match got {
            Err(StoreError::Damaged { path, message }) => {
                assert!(path.starts_with(&dir.display().to_string()), "{path}");
                assert!(message.contains("corrupted page"), "{message}");
            }
            other => panic!("not a damaged store: {other:?}"),
        }
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
