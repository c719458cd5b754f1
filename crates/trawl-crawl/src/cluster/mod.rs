//! Cluster mode's shared state: the frontier many workers crawl from, kept
//! in PostgreSQL (plain SQL, [`schema.sql`](../../src/cluster/schema.sql)).
//!
//! Workers claim *hosts*, not URLs: a claim takes ready hosts with
//! `FOR UPDATE SKIP LOCKED`, gives them a lease that expires on the
//! database's clock and bumps the host's epoch (a fencing token). Every
//! write a worker makes for a host carries the epoch it claimed with and is
//! refused once another worker has claimed the host since, so a worker that
//! stalled past its lease cannot write after the takeover. One host is
//! fetched by one worker at a time, which keeps politeness cluster-wide;
//! the host's next allowed request time is written with every completion
//! and a claim only takes hosts whose time has come.
//!
//! URLs are deduplicated by a unique key on the hash of the normalised URL;
//! records go to one table that `trawl export --cluster` streams with a
//! resumable cursor. The daemon side (what a worker does with its hosts) is
//! in `crawl::worker`; this module is the data layer.

mod budgets;
mod conn;
mod counts;
mod export;
mod frontier;
mod lookups;
mod near_dup;
mod revisits;
pub mod schema;
mod status;
mod templates;
mod versions;

pub use budgets::PageCounts;
pub use conn::Conn;
pub use counts::ClusterCounts;
pub use export::{write_jsonl, write_versions, Cursor};
pub use frontier::{Claimed, Due, Finish, FinishEnd, Written};
pub use status::{ClusterStatus, WorkerRow};

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

/// The cluster key of a normalised URL: its xxh3-64 hash as a signed
/// 64-bit integer (PostgreSQL's `bigint`). Collisions are about one in
/// 10^6 at 10 M URLs (a colliding URL is taken as seen).
pub fn url_hash(url: &str) -> i64 {
    xxhash_rust::xxh3::xxh3_64(url.as_bytes()) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_hash_is_stable_and_signed() {
        assert_eq!(url_hash("http://a.test/"), url_hash("http://a.test/"));
        assert_ne!(url_hash("http://a.test/"), url_hash("http://a.test/b"));
    }
}
