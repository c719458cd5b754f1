//! Where records go. A [`RecordSink`] takes the crawl's typed records and
//! page outcomes, in commit order, one call at a time (a slow sink slows
//! its caller: that is the back-pressure), and is flushed and closed
//! explicitly. The export formats are sinks: [`JsonlSink`], [`CsvSink`],
//! [`ParquetSink`], [`MarkdownFiles`] and [`ChunkSink`]; an embedding
//! program writes its own (a channel, a callback) the same way.
//!
//! ```
//! use trawl_crawl::sink::{RecordSink, SinkError};
//! use trawl_crawl::Record;
//!
//! /// Keeps the titles.
//! struct Titles(Vec<String>);
//!
//! impl RecordSink for Titles {
//!     fn record(&mut self, r: &Record) -> Result<(), SinkError> {
//!         self.0.extend(r.title.clone());
//!         Ok(())
//!     }
//! }
//!
//! let mut t = Titles(Vec::new());
//! t.record(&Record { title: Some("Hello".into()), ..Record::default() })?;
//! t.close()?;
//! assert_eq!(t.0, ["Hello"]);
//! # Ok::<(), SinkError>(())
//! ```

pub mod chunks;
pub mod columns;
mod csv;
mod jsonl;
mod markdown;
mod parquet;
mod record_sink;

pub use self::csv::CsvSink;
pub use self::parquet::ParquetSink;
pub use chunks::ChunkSink;
pub use columns::{Column, Kind, Rows};
pub use jsonl::JsonlSink;
pub use markdown::{file_name, MarkdownFiles};
pub use record_sink::{RecordSink, SinkError};

/// An export format's name, as `--format` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line, every field.
    Jsonl,
    /// One `.md` file per record, with YAML front matter.
    Markdown,
    /// Comma-separated values, a header row, chosen fields.
    Csv,
    /// Apache Parquet, one typed column per field.
    Parquet,
}

impl Format {
    /// The names `--format` takes.
    pub const NAMES: [&'static str; 4] = ["jsonl", "markdown", "csv", "parquet"];

    /// The format called `name`.
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "jsonl" => Some(Format::Jsonl),
            "markdown" => Some(Format::Markdown),
            "csv" => Some(Format::Csv),
            "parquet" => Some(Format::Parquet),
            _ => None,
        }
    }
}
