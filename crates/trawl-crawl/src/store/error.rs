//! Why the store failed: one error type for every store operation, with
//! messages that say what to do (another process, an old format, damage).

use super::layout::FORMAT;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    #[error("cannot open the store at {path}: {source}")]
    /// sled could not open the database.
    Open {
        /// The store directory.
        path: String,
        #[source]
        /// sled's error.
        source: sled::Error,
    },
    #[error("cannot open the store at {path}: another trawl process is using it")]
    /// Another process holds the store.
    Busy {
        /// The store directory.
        path: String,
    },
    #[error("the store's database {path} is damaged: {message}; run `trawl store check` to see what is intact and `trawl store salvage` to export it")]
    /// The database is damaged.
    Damaged {
        /// The store directory.
        path: String,
        /// What sled said.
        message: String,
    },
    #[error("cannot write the checkpoint {path}: {source}")]
    /// The checkpoint file could not be written.
    Checkpoint {
        /// The checkpoint file.
        path: String,
        #[source]
        /// Why.
        source: std::io::Error,
    },
    #[error("store: {0}")]
    /// A sled operation failed (an I/O error, a full disk).
    Sled(#[from] sled::Error),
    #[error("store: corrupt value in {tree}: {message}")]
    /// A stored value does not decode.
    Corrupt {
        /// The keyspace it is in.
        tree: &'static str,
        /// What is wrong.
        message: String,
    },
    #[error("the store at {path} was written by an older trawl (format {found}, this one reads {FORMAT}); move it away or point --data elsewhere")]
    /// The store was written by an older trawl.
    Format {
        /// The store directory.
        path: String,
        /// Its format number.
        found: u64,
    },
}
