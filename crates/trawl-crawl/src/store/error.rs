//! Why the store failed: one error type for every store operation, with
//! messages that say what to do (another process, an old format, damage).

use super::FORMAT;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    #[error("cannot open the store at {path}: {source}")]
    Open {
        path: String,
        #[source]
        source: sled::Error,
    },
    #[error("cannot open the store at {path}: another trawl process is using it")]
    Busy { path: String },
    #[error("the store's database {path} is damaged: {message}; run `trawl store check` to see what is intact and `trawl store salvage` to export it")]
    Damaged { path: String, message: String },
    #[error("cannot write the checkpoint {path}: {source}")]
    Checkpoint {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("store: {0}")]
    Sled(#[from] sled::Error),
    #[error("store: corrupt value in {tree}: {message}")]
    Corrupt { tree: &'static str, message: String },
    #[error("the store at {path} was written by an older trawl (format {found}, this one reads {FORMAT}); move it away or point --data elsewhere")]
    Format { path: String, found: u64 },
}
