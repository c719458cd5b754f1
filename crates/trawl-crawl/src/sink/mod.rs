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

pub use self::csv::CsvSink;
pub use self::parquet::ParquetSink;
pub use chunks::ChunkSink;
pub use columns::{Column, Kind, Rows};
pub use jsonl::JsonlSink;
pub use markdown::{file_name, MarkdownFiles};

use crate::record::{PageOutcome, Record};

/// Why a sink could not take a record.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// Writing failed (a full disk, a closed pipe).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A field list that names no field, or a field twice.
    #[error("{0}")]
    Field(String),
    /// The format could not hold the value, or the input was not a record.
    #[error("{0}")]
    Format(String),
}

/// Takes records and page outcomes as the crawl commits them.
///
/// Calls come in commit order from one thread; a call that blocks holds
/// the caller back. After [`close`](RecordSink::close) nothing more is
/// sent. Sinks that keep only records leave [`outcome`](RecordSink::outcome)
/// as it is (ignored).
pub trait RecordSink {
    /// One record.
    fn record(&mut self, record: &Record) -> Result<(), SinkError>;

    /// One page outcome.
    fn outcome(&mut self, _outcome: &PageOutcome) -> Result<(), SinkError> {
        Ok(())
    }

    /// Makes what was taken so far durable or visible, as the sink can.
    fn flush(&mut self) -> Result<(), SinkError> {
        Ok(())
    }

    /// Ends the output (a Parquet file's footer); flushes first.
    fn close(&mut self) -> Result<(), SinkError> {
        self.flush()
    }
}

impl<S: RecordSink + ?Sized> RecordSink for Box<S> {
    fn record(&mut self, record: &Record) -> Result<(), SinkError> {
        (**self).record(record)
    }
    fn outcome(&mut self, outcome: &PageOutcome) -> Result<(), SinkError> {
        (**self).outcome(outcome)
    }
    fn flush(&mut self) -> Result<(), SinkError> {
        (**self).flush()
    }
    fn close(&mut self) -> Result<(), SinkError> {
        (**self).close()
    }
}

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
