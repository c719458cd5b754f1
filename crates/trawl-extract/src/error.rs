//! The crate's error types, one enum per domain. The library never prints;
//! callers turn these into messages.

use std::path::PathBuf;

/// Why a page could not be extracted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// No bytes, or nothing but whitespace.
    #[error("page is empty")]
    Empty,
    /// Control bytes where text should be (an image, a PDF, a gzip stream).
    #[error("page looks binary, not HTML ({0})")]
    Binary(String),
    /// Over [`crate::Options::max_bytes`] or [`crate::Options::max_nodes`].
    #[error("page too large: {0}")]
    TooLarge(String),
    /// Parsing ran past [`crate::Options::time_limit`].
    #[error("parsing took longer than the time limit")]
    Timeout,
    /// A name that is no [`crate::Algorithm`]; the second field lists the known ones.
    #[error("unknown algorithm {0:?} (known: {1})")]
    UnknownAlgorithm(String, String),
    /// A label that names no encoding.
    #[error("unknown charset {0:?}")]
    UnknownCharset(String),
}

/// Why an input file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// It starts like gzip but does not inflate.
    #[error("{path}: not valid gzip: {source}")]
    Gzip {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        #[source]
        source: std::io::Error,
    },
    /// Larger than the caller's limit (inflated size for gzip).
    #[error("{path}: larger than the {limit}-byte input limit")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
}
