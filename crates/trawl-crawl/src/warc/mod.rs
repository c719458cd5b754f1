//! WARC archives (ISO 28500, WARC 1.1): every HTTP exchange the crawl makes
//! kept as a `request` and a `response` record, so a crawl can be replayed,
//! audited, shared, and extracted again when the extractor improves.
//!
//! [`record`] builds records (digests, ids, one gzip member each),
//! [`writer`] appends them to rotating `.warc.gz` files and repairs a file
//! torn by a crash. Reading records back (any WARC file, plain or gzip,
//! Common Crawl's included) is trawl-extract's, re-exported here.

pub mod record;
pub mod writer;

pub use trawl_extract::{http_parts, HttpParts, WarcError, WarcReader as Reader, WarcRecord};
pub use writer::{Location, WarcWriter};
