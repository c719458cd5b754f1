//! The JSONL export as a sink: one JSON object per line, records and
//! outcomes as the store's export writes them.

use std::io::Write;

use super::record_sink::{RecordSink, SinkError};
use crate::record::{PageOutcome, Record};

/// Writes each record and outcome as one line of JSON.
pub struct JsonlSink<W: Write> {
    out: W,
}

impl<W: Write> JsonlSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> Self {
        JsonlSink { out }
    }

    /// The writer, for what follows.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn line(&mut self, v: &impl serde::Serialize) -> Result<(), SinkError> {
        serde_json::to_writer(&mut self.out, v).map_err(|e| SinkError::Format(e.to_string()))?;
        self.out.write_all(b"\n")?;
        Ok(())
    }
}

impl<W: Write> RecordSink for JsonlSink<W> {
    fn record(&mut self, record: &Record) -> Result<(), SinkError> {
        self.line(record)
    }

    fn outcome(&mut self, outcome: &PageOutcome) -> Result<(), SinkError> {
        self.line(outcome)
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        Ok(self.out.flush()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_per_record_read_back_the_same() {
        let r = Record {
            title: Some("T \"q\"\n".into()),
            seq: 3,
            ..Record::default()
        };
        let mut s = JsonlSink::new(Vec::new());
        s.record(&r).unwrap();
        s.close().unwrap();
        let out = String::from_utf8(s.into_inner()).unwrap();
        assert_eq!(out.lines().count(), 1);
        let back: Record = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(back, r);
    }
}
