//! trawl-crawl: the crawl daemon as a library.
//!
//! ```text
//! seeds ─► frontier (sled queues, seen-set) ─► politeness (robots, clock)
//!       ─► fetch (reqwest) ─► trawl_extract ─► store (records, outcomes)
//!                                 └─► focus (link priorities) ─► frontier
//! ```
//!
//! The daemon is [`run`] (one machine, sled) or [`crawl::worker::run`] (a
//! cluster worker, PostgreSQL); both run the same pipeline. What an
//! embedding program needs is re-exported here: the [`Config`], the run's
//! [`RunOptions`] with its [`Shutdown`] future and [`Observer`], the
//! [`Store`] and the typed [`Record`]s and [`PageOutcome`]s it keeps. The
//! modules stay public for the parts the binary, the tests and the
//! benchmarks reach into (the frontier, the cluster's data layer);
//! politeness and the pipeline's stages are internal.

#![deny(missing_docs)]

pub mod cluster;
pub mod config;
pub mod crawl;
pub mod fetch;
pub mod focus;
pub mod frontier;
pub mod limits;
mod politeness;
pub mod record;
pub mod render;
pub mod seeds;
pub mod sink;
pub mod store;
pub mod warc;

pub use config::{Config, ConfigError};
pub use crawl::{run, CrawlError, Observer, RunOptions, Shutdown, Snapshot};
pub use record::{Outcome, PageOutcome, Record};
pub use sink::{RecordSink, SinkError};
pub use store::{Store, StoreError};

/// The README's Rust examples, compiled by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;
