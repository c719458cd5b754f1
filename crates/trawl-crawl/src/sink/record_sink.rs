//! The one thing every place records go implements: [`RecordSink`], and
//! why a sink could not take a record ([`SinkError`]).

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
