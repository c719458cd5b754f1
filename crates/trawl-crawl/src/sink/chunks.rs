//! Chunks for retrieval: each record's Markdown cut into pieces of at most
//! a budget of tokens ([`trawl_extract::chunk_markdown`]), one JSON line
//! per chunk: the page's URL and `seq`, the chunk's index, heading path,
//! Markdown, character range and tokens.

use std::io::Write;

use serde_json::Value;

use super::markdown::{page_markdown, page_url};
use super::record_sink::{RecordSink, SinkError};
use crate::record::Record;

/// One JSON line per chunk of `md`: the fields of `head` (what names the
/// page), then `chunk` (its index) and the chunk's own fields. Returns the
/// chunks written.
pub fn write_chunks(
    out: &mut dyn Write,
    head: Value,
    md: &str,
    budget: usize,
) -> std::io::Result<usize> {
    let chunks = trawl_extract::chunk_markdown(md, budget);
    for (i, c) in chunks.iter().enumerate() {
        let mut line = head.clone();
        if let (Some(fields), Ok(Value::Object(own))) =
            (line.as_object_mut(), serde_json::to_value(c))
        {
            fields.insert("chunk".into(), i.into());
            fields.extend(own);
        }
        writeln!(out, "{line}")?;
    }
    Ok(chunks.len())
}

/// Writes every record's chunks as JSONL.
pub struct ChunkSink<W: Write> {
    out: W,
    budget: usize,
    written: usize,
}

impl<W: Write> ChunkSink<W> {
    /// Chunks of at most `budget` tokens into `out`.
    pub fn new(out: W, budget: usize) -> Self {
        ChunkSink {
            out,
            budget,
            written: 0,
        }
    }

    /// Chunks written.
    pub fn count(&self) -> usize {
        self.written
    }
}

impl<W: Write> RecordSink for ChunkSink<W> {
    fn record(&mut self, r: &Record) -> Result<(), SinkError> {
        let head = serde_json::json!({"url": page_url(r), "seq": r.seq});
        self.written += write_chunks(&mut self.out, head, page_markdown(r), self.budget)?;
        Ok(())
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        Ok(self.out.flush()?)
    }
}
