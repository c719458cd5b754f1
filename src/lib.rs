//! trawl: a focused web crawler with built-in content extraction.
//!
//! The pipeline, and the module that owns each step:
//!
//! ```text
//! page bytes ─► html::charset (BOM, declared, <meta>, chardetng)
//!            ─► html::dom     (html5ever into a flat, document-order arena)
//!            ─► extract       (page type, then an Extractor: cetd-tpc, cc,
//!                              article-std, list-rank, segment, auto)
//!            ─► html::render  (readable text) + extract::metadata
//! ```
//!
//! `eval` scores extractors on labelled datasets; `config` reads
//! `config.toml`; `cli` holds the command-line glue.

pub mod cli;
pub mod config;
pub mod error;
pub mod eval;
pub mod extract;
pub mod html;
pub mod input;

pub use error::{ConfigError, EvalError, ExtractError, InputError};
pub use extract::{extract_bytes, Algorithm, Extracted, Extractor, Options, PageType};
pub mod crawl;
pub mod fetch;
pub mod focus;
pub mod frontier;
pub mod politeness;
pub mod store;
pub mod template;
