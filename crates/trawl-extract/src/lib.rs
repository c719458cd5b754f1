//! trawl-extract: main content, metadata, page type and product fields from
//! HTML pages. It is trawl's extractor stage, and works on its own: no
//! network, no storage, no async runtime.
//!
//! ```text
//! page bytes ─► charset (BOM, declared, <meta>, chardetng)
//!            ─► Doc      (html5ever into a flat, document-order arena)
//!            ─► PageType (article, forum, product, collection, listing, …)
//!            ─► Extractor (auto, cetd-tpc, cc, article-std, list-rank, segment)
//!            ─► Extracted (text + metadata)
//! ```
//!
//! One call does it all:
//!
//! ```
//! let html = b"<title>Hi</title><article><p>The tide pools stay full of life all winter long.</p></article>";
//! let rec = trawl_extract::extract(html, &trawl_extract::Options::default())?;
//! assert_eq!(rec.text, "The tide pools stay full of life all winter long.");
//! # Ok::<(), trawl_extract::ExtractError>(())
//! ```
//!
//! [`Page`] splits it in two (parse, then extract) for callers that also
//! want the page's links or robots directives; [`Template`] learns a shop's
//! product template from a few of its pages and reads the fields of the
//! rest; [`Extractor`] is the trait the algorithms share.
#![deny(missing_docs)]
#![warn(unreachable_pub)]

mod archive;
mod chunks;
mod error;
mod extract;
mod html;
mod input;
mod page;
mod template;
#[cfg(feature = "training")]
mod training;

/// This extractor's version: records say which one made them, and a
/// release that changes what it extracts raises it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// For the tokenizer's differential fuzz target (`fuzz/`) and tests: not a
/// stable API.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::html::differential::tree_dumps;
}

pub use archive::{
    archived_page, http_parts, warc_pages, ArchivedPage, HttpParts, Reader as WarcReader,
    WarcError, WarcRecord, MAX_RECORD_BYTES,
};
pub use chunks::{chunk_markdown, Chunk};
pub use error::{ExtractError, InputError};
pub use extract::metadata::normalize_date;
pub use extract::product_record::{
    read_from as read_product, stated as stated_product, Availability, Price, Product, Source,
    Sources as ProductSources, Variant,
};
pub use extract::shell::ScriptNeed;
pub use extract::written_dates::civil_from_days;
pub use extract::{Algorithm, Charset, DateKind, Extracted, Extractor, Options, PageType};
pub use html::{render, Doc, Selection};
pub use input::read_input;
pub use page::{extract, html_to_markdown, Link, Page, RobotsMeta};
pub use template::{
    clean_value, kept_texts, Applied, Check, FieldCheck, FieldRule, Learning, Pruning, Template,
    TemplateError,
};
/// Training the page-type model (`training` feature; trawl's `eval --train-types`).
#[cfg(feature = "training")]
pub use training::{train_page_types, TypeReport, TypeSample};
