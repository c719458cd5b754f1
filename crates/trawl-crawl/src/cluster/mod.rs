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
mod error;
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
pub use error::ClusterError;
pub(crate) use export::committed_after;
pub use export::{write_jsonl, write_versions, Cursor};
pub use frontier::{Claimed, Due, Finish, FinishEnd, Written};
pub use schema::url_hash;
pub use status::{ClusterStatus, WorkerRow};
