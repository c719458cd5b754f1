//! WARC archives (ISO 28500, WARC 1.1): every HTTP exchange the crawl makes
//! kept as a `request` and a `response` record, so a crawl can be replayed,
//! audited, shared, and extracted again when the extractor improves.
//!
//! [`record`] builds records (digests, ids, one gzip member each),
//! [`writer`] appends them to rotating `.warc.gz` files and repairs a file
//! torn by a crash, [`reader`] streams records back from any WARC file
//! (plain or gzip, Common Crawl's included).

pub mod reader;
pub mod record;
pub mod writer;

pub use reader::{http_parts, HttpParts, Reader, WarcError, WarcRecord};
pub use writer::{Location, WarcWriter};
