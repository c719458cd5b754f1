//! The seeds a run looks up while it crawls: every queued URL carries its
//! seed's number, and each fetch needs that seed's options. A seed file of
//! a million lines must not mean a million seeds in memory, so on one
//! machine the book holds the seeds in use in a bounded cache over the
//! store's registry (two generations: a seed not used while the newer one
//! filled is dropped, and read again from the store when asked for). In
//! cluster mode the seeds come from the shared database, not the store,
//! and the book holds them all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::registry::Registry;
use super::seed::Seed;
use crate::store::Store;

/// Seeds held by one generation of a backed book, at most.
pub(super) const GENERATION: usize = 8192;

/// The seeds of a run, by number.
pub struct Book {
    /// Where a seed not held is read from; `None`: every seed is held.
    store: Option<Store>,
    held: Mutex<Generations>,
}

#[derive(Default)]
struct Generations {
    new: HashMap<u32, Arc<Seed>>,
    old: HashMap<u32, Arc<Seed>>,
}

impl Book {
    /// A book over `store`'s registry, holding the seeds in use.
    pub fn backed(store: Store) -> Book {
        Book {
            store: Some(store),
            held: Mutex::default(),
        }
    }

    /// A book that holds every seed added to it (cluster mode).
    pub fn holding_all() -> Book {
        Book {
            store: None,
            held: Mutex::default(),
        }
    }

    /// The seed numbered `id`, if it is registered (a store that fails to
    /// read it is logged, and the seed is unknown).
    pub fn get(&self, id: u32) -> Option<Arc<Seed>> {
        if let Some(seed) = self.held.lock().ok()?.find(id) {
            return Some(seed);
        }
        let store = self.store.as_ref()?;
        let seed = match Registry::of(store).get(id) {
            Ok(seed) => Arc::new(seed?),
            Err(e) => {
                tracing::warn!(seed = id, error = %e, "reading a seed from the store");
                return None;
            }
        };
        self.insert(id, seed.clone());
        Some(seed)
    }

    /// Adds (or replaces) seed `id`.
    pub fn insert(&self, id: u32, seed: Arc<Seed>) {
        if let Ok(mut g) = self.held.lock() {
            g.old.remove(&id);
            g.new.insert(id, seed);
            if self.store.is_some() && g.new.len() >= GENERATION {
                g.old = std::mem::take(&mut g.new);
            }
        }
    }

    /// The numbers of the seeds held that `keep` accepts (all of them in
    /// cluster mode).
    pub fn held_ids(&self, keep: impl Fn(&Seed) -> bool) -> Vec<u32> {
        let Ok(g) = self.held.lock() else {
            return vec![];
        };
        let mut ids: Vec<u32> = g
            .new
            .iter()
            .chain(g.old.iter())
            .filter(|(_, s)| keep(s))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// How many seeds are in memory.
    pub fn held(&self) -> usize {
        self.held.lock().map_or(0, |g| g.new.len() + g.old.len())
    }
}

impl Generations {
    /// A held seed; one found in the old generation moves to the new one.
    fn find(&mut self, id: u32) -> Option<Arc<Seed>> {
        if let Some(s) = self.new.get(&id) {
            return Some(s.clone());
        }
        let s = self.old.remove(&id)?;
        self.new.insert(id, s.clone());
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(url: &str) -> Seed {
        Seed {
            url: url.into(),
            ..Seed::bare("a.test")
        }
    }

    #[test]
    fn a_backed_book_holds_a_bounded_number_and_reads_the_rest_again() {
        let dir = std::env::temp_dir().join(format!("trawl-book-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
        let store = Store::open(&dir, 1 << 20).expect("store");
        let registry = Registry::of(&store);
        let book = Book::backed(store.clone());
        let n = 3 * GENERATION;
        let ids: Vec<u32> = (0..n)
            .map(|i| {
                let s = seed(&format!("http://a.test/{i}"));
                let id = registry.register(&s).expect("register");
                book.insert(id, Arc::new(s));
                id
            })
            .collect();
        assert!(book.held() <= 2 * GENERATION, "{}", book.held());
        for (i, id) in ids.iter().enumerate() {
            let s = book.get(*id).expect("every seed is found");
            assert_eq!(s.url, format!("http://a.test/{i}"));
            assert!(book.held() <= 2 * GENERATION);
        }
        assert!(book.get(u32::MAX).is_none());
        drop(store);
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn a_book_holding_all_keeps_every_seed() {
        let book = Book::holding_all();
        for id in 0..(3 * GENERATION) as u32 {
            let mut s = seed("http://a.test/");
            s.max_pages = Some(u64::from(id % 2));
            book.insert(id, Arc::new(s));
        }
        assert_eq!(book.held(), 3 * GENERATION);
        assert_eq!(
            book.held_ids(|s| s.max_pages == Some(1)).len(),
            3 * GENERATION / 2
        );
        assert!(book.get(7).is_some());
    }
}
