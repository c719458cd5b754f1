//! What can go wrong talking to the shared database, told apart by whether
//! retrying may help ([`ClusterError::is_transient`]).

/// What can go wrong talking to the shared database.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// The database could not be reached or the connection broke: callers
    /// back off and retry (the worker keeps its completions meanwhile).
    #[error("cluster database unreachable: {0}")]
    Unreachable(String),
    /// Another session was in the way (a lock held too long, a deadlock):
    /// retrying soon may succeed.
    #[error("cluster database busy: {0}")]
    Busy(String),
    /// A statement failed for another reason (a bug, a schema mismatch).
    #[error("cluster database error: {0}")]
    Db(String),
    /// A stored value does not read back (JSON of a seed or record).
    #[error("cluster database holds a bad value: {0}")]
    Bad(String),
    /// Writing the export failed.
    #[error("export: {0}")]
    Io(#[from] std::io::Error),
}

impl From<tokio_postgres::Error> for ClusterError {
    fn from(e: tokio_postgres::Error) -> Self {
        let code = e.code().map(|c| c.code().to_string());
        match code.as_deref() {
            // No SQLSTATE: the connection broke. 08xxx: connection
            // exceptions; 57Pxx: the server shutting down or restarting.
            None => ClusterError::Unreachable(full_message(&e)),
            Some(c) if c.starts_with("08") || c.starts_with("57P") => {
                ClusterError::Unreachable(full_message(&e))
            }
            // A serialization failure, a deadlock victim, a lock or idle
            // transaction timeout: another session was in the way.
            Some("40001" | "40P01" | "55P03" | "25P03") => ClusterError::Busy(full_message(&e)),
            Some(_) if e.is_closed() => ClusterError::Unreachable(full_message(&e)),
            Some(_) => ClusterError::Db(full_message(&e)),
        }
    }
}

impl ClusterError {
    /// Whether retrying later may succeed (the database is away or busy).
    pub fn is_transient(&self) -> bool {
        matches!(self, ClusterError::Unreachable(_) | ClusterError::Busy(_))
    }
}

/// The error with its causes ("db error: ERROR: ...").
fn full_message(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let more = c.to_string();
        if !s.contains(&more) {
            s.push_str(": ");
            s.push_str(&more);
        }
        cur = c.source();
    }
    s
}
