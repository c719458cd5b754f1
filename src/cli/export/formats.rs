//! Export formats other than the records' JSONL. Every source (a stopped
//! store, a running daemon, a cluster) writes JSONL; [`LineSink`] reads it
//! back line by line and [`Typed`] hands each line, as a typed record or
//! outcome, to a [`RecordSink`] (CSV, Parquet, Markdown files, chunks), so
//! each format works with every source.

use std::io::Write;

use trawl_crawl::sink::{RecordSink, SinkError};
use trawl_crawl::{PageOutcome, Record};

/// A `Write` that hands each complete line to `f`.
pub struct LineSink<F: FnMut(&str) -> std::io::Result<()>> {
    buf: Vec<u8>,
    f: F,
}

impl<F: FnMut(&str) -> std::io::Result<()>> LineSink<F> {
    pub fn new(f: F) -> Self {
        LineSink { buf: Vec::new(), f }
    }
}

impl<F: FnMut(&str) -> std::io::Result<()>> Write for LineSink<F> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=nl).collect();
            let text = String::from_utf8_lossy(&line[..nl]);
            if !text.trim().is_empty() {
                (self.f)(&text)?;
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            let line = std::mem::take(&mut self.buf);
            let text = String::from_utf8_lossy(&line).into_owned();
            if !text.trim().is_empty() {
                (self.f)(&text)?;
            }
        }
        Ok(())
    }
}

/// Hands JSONL lines to a sink as records (or, with `outcomes`, outcomes).
pub struct Typed<'a> {
    pub sink: &'a mut dyn RecordSink,
    pub outcomes: bool,
}

fn io(e: SinkError) -> std::io::Error {
    match e {
        SinkError::Io(e) => e,
        other => std::io::Error::other(other.to_string()),
    }
}

impl Typed<'_> {
    pub fn line(&mut self, line: &str) -> std::io::Result<()> {
        let bad = |e: serde_json::Error| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a line of the export that is not a record: {e}"),
            )
        };
        if self.outcomes {
            let o: PageOutcome = serde_json::from_str(line).map_err(bad)?;
            self.sink.outcome(&o).map_err(io)
        } else {
            let r: Record = serde_json::from_str(line).map_err(bad)?;
            self.sink.record(&r).map_err(io)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_reach_the_sink_whole() {
        let mut got = Vec::new();
        {
            let mut sink = LineSink::new(|l: &str| {
                got.push(l.to_string());
                Ok(())
            });
            sink.write_all(b"{\"a\":1}\n{\"b\"").unwrap_or_default();
            sink.write_all(b":2}\n{\"c\":3}").unwrap_or_default();
            sink.flush().unwrap_or_default();
        }
        assert_eq!(got, ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]);
    }
}
