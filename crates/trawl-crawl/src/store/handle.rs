//! The store's handle: the sled trees and the in-memory queue state that
//! every file of the store adds methods to. It sits below them all.

use super::state::QueueState;

/// The store. Cheap to clone (sled trees are handles).
#[derive(Clone)]
pub struct Store {
    pub(super) db: sled::Db,
    pub(super) kv: sled::Tree,
    pub(super) robots: sled::Tree,
    pub(super) seeds: sled::Tree,
    /// Learned extraction templates: site ++ 0 ++ cluster(4) → JSON.
    pub(super) templates: sled::Tree,
    /// Per-host politeness state (see `hosts`).
    pub(super) host_times: sled::Tree,
    /// The store's directory (the checkpoint file lives beside the database).
    pub(super) dir: std::path::PathBuf,
    /// Set when this is a read-only view: the database is a private copy.
    pub(super) copy: Option<std::sync::Arc<Copy>>,
    /// The queue's in-memory state (seen filter, open blocks, counters).
    pub(super) state: std::sync::Arc<std::sync::Mutex<QueueState>>,
}

/// A private copy of a store's database, removed on drop.
pub(super) struct Copy {
    pub(super) dir: std::path::PathBuf,
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
