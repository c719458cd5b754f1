//! The seeds a store knows: each seed URL gets a number once (queued URLs
//! carry it: their scope and page budget), its options are kept by number,
//! and each seed file's hash says whether it changed since it was read.
//! Callers see seeds and files; the store keys are this file's business
//! (they are the keys stores written before this type existed use).

use std::path::Path;

use super::seed::Seed;
use crate::store::{Store, StoreError};

/// Seeds of one store.
pub struct Registry<'a> {
    store: &'a Store,
}

const NEXT_ID: &str = "seed_next";

fn id_key(url: &str) -> String {
    format!("seedid:{url}")
}

fn file_key(file: &Path) -> String {
    format!("seedfile:{}", file.display())
}

fn file_hash(text: &str) -> [u8; 8] {
    xxhash_rust::xxh3::xxh3_64(text.as_bytes()).to_be_bytes()
}

fn be_u32(v: &[u8]) -> Option<u32> {
    v.try_into().ok().map(u32::from_be_bytes)
}

impl<'a> Registry<'a> {
    /// The registry kept in `store`.
    pub fn of(store: &'a Store) -> Registry<'a> {
        Registry { store }
    }

    /// Every registered seed with its number, one at a time.
    pub fn each(&self, f: impl FnMut(u32, Seed)) -> Result<(), StoreError> {
        self.store.each_seed(f)
    }

    /// The number of the seed whose URL is `url`, if it is registered.
    pub fn id_of(&self, url: &str) -> Result<Option<u32>, StoreError> {
        Ok(self
            .store
            .meta_get(&id_key(url))?
            .as_deref()
            .and_then(be_u32))
    }

    /// The seed registered as `id`.
    pub fn get(&self, id: u32) -> Result<Option<Seed>, StoreError> {
        self.store.seed(id)
    }

    /// Registers a seed (its options replace earlier ones for the same
    /// URL) and returns its number, the same for the URL forever.
    pub fn register(&self, seed: &Seed) -> Result<u32, StoreError> {
        let key = id_key(&seed.url);
        let id = match self.store.meta_get(&key)?.as_deref().and_then(be_u32) {
            Some(id) => id,
            None => {
                let next = self
                    .store
                    .meta_get(NEXT_ID)?
                    .as_deref()
                    .and_then(be_u32)
                    .unwrap_or(1);
                self.store.meta_put(NEXT_ID, &(next + 1).to_be_bytes())?;
                self.store.meta_put(&key, &next.to_be_bytes())?;
                next
            }
        };
        self.store.put_seed(id, seed)?;
        Ok(id)
    }

    /// Whether `file`'s bytes had this hash when it was last read.
    pub fn hash_unchanged(&self, file: &Path, hash: &[u8; 8]) -> Result<bool, StoreError> {
        Ok(self.store.meta_get(&file_key(file))?.as_deref() == Some(&hash[..]))
    }

    /// Notes that `file` was read whole with these bytes' hash.
    pub fn hash_read(&self, file: &Path, hash: &[u8; 8]) -> Result<(), StoreError> {
        self.store.meta_put(&file_key(file), hash)
    }

    /// Whether `file` had this text when it was last read.
    pub fn file_unchanged(&self, file: &Path, text: &str) -> Result<bool, StoreError> {
        Ok(self.store.meta_get(&file_key(file))?.as_deref() == Some(&file_hash(text)[..]))
    }

    /// Notes that `file` was read with this text.
    pub fn file_read(&self, file: &Path, text: &str) -> Result<(), StoreError> {
        self.store.meta_put(&file_key(file), &file_hash(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(url: &str, depth: u16) -> Seed {
        Seed {
            url: url.into(),
            max_depth: depth,
            ..Seed::bare("a.test")
        }
    }

    #[test]
    fn a_seed_keeps_its_number_and_takes_new_options() {
        let dir = std::env::temp_dir().join(format!("trawl-registry-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
        let store = Store::open(&dir, 1 << 20).expect("store");
        let r = Registry::of(&store);
        let a = r.register(&seed("http://a.test/", 1)).expect("a");
        let b = r.register(&seed("http://a.test/b", 1)).expect("b");
        assert_ne!(a, b);
        assert_eq!(r.register(&seed("http://a.test/", 4)).expect("again"), a);
        assert_eq!(r.get(a).expect("get").map(|s| s.max_depth), Some(4));
        let mut ids = vec![];
        r.each(|id, _| ids.push(id)).expect("each");
        assert_eq!(ids, vec![a, b]);
        assert!(r.get(b + 1).expect("get").is_none());
        assert_eq!(r.id_of("http://a.test/b").expect("id"), Some(b));
        assert_eq!(r.id_of("http://a.test/c").expect("id"), None);
        let f = Path::new("seeds/x.txt");
        assert!(!r.file_unchanged(f, "one").expect("read"));
        r.file_read(f, "one").expect("write");
        assert!(r.file_unchanged(f, "one").expect("read"));
        assert!(!r.file_unchanged(f, "two").expect("read"));
        drop(store);
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }
}
