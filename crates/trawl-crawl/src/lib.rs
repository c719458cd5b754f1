//! trawl-crawl: the crawl daemon as a library.
//!
//! ```text
//! seeds ─► frontier (sled queues, seen-set) ─► politeness (robots, clock)
//!       ─► fetch (reqwest) ─► trawl_extract ─► store (records, outcomes)
//!                                 └─► focus (link priorities) ─► frontier
//! ```
//!
//! **The facade.** What an embedding program needs is at the top: a
//! [`Config`], [`run`] with its [`RunOptions`] (a [`Shutdown`] future, an
//! [`Observer`] window, [`Tap`]s that feed a [`RecordSink`] of your own),
//! the [`Snapshot`] it returns, the typed [`Record`]s and [`PageOutcome`]s,
//! and the [`Store`] to read them back. A crawl of one seed whose records
//! come out through a channel:
//!
//! ```
//! # use std::io::{Read, Write};
//! # let site = std::net::TcpListener::bind("127.0.0.1:0")?;
//! # let port = site.local_addr()?.port();
//! # std::thread::spawn(move || for mut s in site.incoming().flatten() {
//! #     let mut req = [0u8; 4096];
//! #     let n = s.read(&mut req).unwrap_or(0);
//! #     let page = if req[..n].starts_with(b"GET / ") { "<title>Tide pools</title><p>The tide pools stay full of life all winter long, under the ice.</p>" } else { "" };
//! #     let status = if page.is_empty() { "404 Not Found" } else { "200 OK" };
//! #     let _ = write!(s, "HTTP/1.1 {status}\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}", page.len());
//! # });
//! # let dir = std::env::temp_dir().join(format!("trawl-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let seeds = dir.join("seeds.txt");
//! # std::fs::write(&seeds, format!("http://127.0.0.1:{port}/ depth=0\n"))?;
//! # let data = dir.join("storage").display().to_string();
//! use std::sync::mpsc::{channel, Sender};
//! use trawl_crawl::{run, Config, Record, RecordSink, RunOptions, SinkError, Tap};
//!
//! struct Channel(Sender<Record>);
//! impl RecordSink for Channel {
//!     fn record(&mut self, r: &Record) -> Result<(), SinkError> {
//!         self.0.send(r.clone()).map_err(|e| SinkError::Format(e.to_string()))
//!     }
//! }
//!
//! let config = Config::parse(&format!("[crawl]\ndata_dir = {data:?}"), "inline".as_ref())?;
//! let (tx, rx) = channel();
//! let opts = RunOptions {
//!     extra_seeds: vec![seeds],
//!     exit_when_idle: true,
//!     taps: vec![Tap::new("mine", Channel(tx))],
//!     ..RunOptions::default()
//! };
//! tokio::runtime::Runtime::new()?.block_on(run(config, opts))?;
//! let titles: Vec<String> = rx.try_iter().filter_map(|r| r.title).collect();
//! assert_eq!(titles, ["Tide pools"]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Faces of their own**, for what a program does besides crawling:
//! [`store`] (reading, exporting, checking and salvaging a stopped store),
//! [`sink`] (the export formats as sinks), [`cluster`] (the shared
//! PostgreSQL database) with [`worker`] (a cluster worker's run), [`seeds`]
//! (seed files and the API's seed registry), [`render`] (the headless
//! browser) and [`warc`] (WARC files). The rest (the frontier, politeness,
//! fetching, focus, the pipeline's stages) is internal; the few of its
//! items the `trawl` binary reads are re-exported below the facade.

#![deny(missing_docs)]
#![warn(unreachable_pub)]

pub mod cluster;
mod config;
mod crawl;
#[doc(hidden)]
pub mod fetch;
mod focus;
#[doc(hidden)]
pub mod frontier;
mod limits;
mod politeness;
mod record;
pub mod render;
pub mod seeds;
pub mod sink;
pub mod store;
pub mod warc;

// The facade: a crawl, where its records go, and the store to read them.
pub use config::{Config, ConfigError};
pub use crawl::{run, CrawlError, Observer, RunOptions, Shutdown, Snapshot, Tap};
pub use record::{Outcome, PageOutcome, Record, RecordKind, RenderNote, WarcLocation};
pub use sink::{RecordSink, SinkError};
pub use store::{Store, StoreError};

// A cluster worker's run, beside one machine's [`run`].
pub use crawl::worker;

// What the `trawl` binary reads besides (its commands, status page and API).
pub use crawl::harvest::HarvestSnapshot;
pub use crawl::stats::COUNTERS_KEY;
#[doc(hidden)]
pub use crawl::PageHook;
pub use crawl::{parse_seed_lines, templates::Templates, Stats};
pub use fetch::{has_tls_provider, install_tls_provider, HttpFetcher};
pub use focus::{LinkModel, Strategy, MODEL_KEY};
pub use limits::{read_capped, MAX_SEED_FILE_BYTES};
pub use record::{iso_time, now_secs};

/// The README's Rust examples, compiled by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;
