//! Why an evaluation could not run: a dataset missing or laid out unlike
//! any known one, a file that does not read.

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    #[error("dataset directory {0} not found")]
    Missing(std::path::PathBuf),
    #[error("{0}: not a known dataset layout (expected wcxb-dev, cleaneval, multilingual-dev, trafilatura-eval or swde-book)")]
    UnknownLayout(std::path::PathBuf),
    #[error("{path}: {message}")]
    BadFile {
        path: std::path::PathBuf,
        message: String,
    },
    #[error(transparent)]
    Input(#[from] trawl_extract::InputError),
}
