//! Library error types, one enum per domain. The binary turns them into
//! messages and exit codes; the library never prints.

use std::path::PathBuf;

/// Why a page could not be extracted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    #[error("page is empty")]
    Empty,
    #[error("page looks binary, not HTML ({0})")]
    Binary(String),
    #[error("page too large: {0}")]
    TooLarge(String),
    #[error("parsing took longer than the time limit")]
    Timeout,
    #[error("unknown algorithm {0:?} (known: {1})")]
    UnknownAlgorithm(String, String),
    #[error("unknown charset {0:?}")]
    UnknownCharset(String),
}

/// Why an input file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not valid gzip: {source}")]
    Gzip {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: larger than the {limit}-byte input limit")]
    TooLarge { path: PathBuf, limit: u64 },
}

/// Why a configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: key `{key}`: {message}")]
    Invalid {
        path: PathBuf,
        key: String,
        message: String,
    },
}

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    #[error("dataset directory {0} not found")]
    Missing(PathBuf),
    #[error("{0}: not a known dataset layout (expected wcxb-dev, cleaneval or swde-book)")]
    UnknownLayout(PathBuf),
    #[error("{path}: {message}")]
    BadFile { path: PathBuf, message: String },
    #[error(transparent)]
    Input(#[from] InputError),
}
