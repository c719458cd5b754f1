//! JSONL export with a resumable cursor. Every record has a sequence number;
//! `--since N` emits the records after N, and the cursor to pass next time is
//! the last `seq` written, so consecutive exports never repeat a record.
//! The records go to a [`RecordSink`] (any export format); JSONL is
//! [`write_jsonl`].

use std::io::Write;

use crate::sink::{JsonlSink, RecordSink, SinkError};

use trawl_extract::PageType;

use super::error::StoreError;
use super::handle::Store;

/// Export filters.
#[derive(Debug, Clone, Default)]
pub struct ExportQuery {
    /// Emit records with `seq > since`.
    pub since: u64,
    /// Only records of this page type.
    pub page_type: Option<PageType>,
    /// At most this many records (0 = all).
    pub limit: usize,
    /// Include each record's outgoing links (`links`).
    pub links: bool,
    /// Include records a newer version replaced (`trawl reextract`).
    pub all_versions: bool,
}

/// Writes matching records as JSON lines; returns (records written, cursor).
pub fn write_jsonl(
    store: &Store,
    q: &ExportQuery,
    out: &mut impl Write,
) -> Result<(usize, u64), ExportError> {
    let mut sink = JsonlSink::new(out);
    let done = export_records(store, q, &mut sink)?;
    sink.flush()?;
    Ok(done)
}

/// Hands matching records to `sink`, in `seq` order; returns (records
/// given, cursor). The sink is not closed: more may follow.
pub fn export_records(
    store: &Store,
    q: &ExportQuery,
    sink: &mut dyn RecordSink,
) -> Result<(usize, u64), ExportError> {
    let mut cursor = q.since;
    let mut written = 0;
    loop {
        let batch = store.guarded(|s| s.records_after(cursor, 1024))?;
        if batch.is_empty() {
            break;
        }
        for (seq, rec) in batch {
            // Records are numbered 1..=N without gaps: a gap is lost data.
            if seq > cursor + 1 {
                return Err(ExportError::Store(StoreError::Damaged {
                    path: store.db_file(),
                    message: format!("records {} to {} are missing", cursor + 1, seq - 1),
                }));
            }
            cursor = seq;
            let matches = q.page_type.is_none_or(|t| rec.page_type == t)
                && (q.all_versions || store.guarded(|s| s.replaced_by(seq))?.is_none());
            if matches {
                let mut rec = rec;
                if !q.links {
                    rec.links = None;
                }
                sink.record(&rec)?;
                written += 1;
                if q.limit > 0 && written >= q.limit {
                    return Ok((written, cursor));
                }
            }
        }
    }
    let last = store.guarded(Store::last_record_seq)?;
    if cursor < last && (q.limit == 0 || written < q.limit) {
        return Err(ExportError::Store(StoreError::Damaged {
            path: store.db_file(),
            message: format!("records {} to {last} are missing", cursor + 1),
        }));
    }
    Ok((written, cursor))
}

/// Writes the page outcomes numbered after `q.since` (one per URL fetched
/// or set aside, in the order written) as JSON lines, at most `q.limit`
/// (0 = all); returns (outcomes written, cursor: the last `seq` written, or
/// `since`). `q.page_type` does not apply to outcomes.
pub fn write_outcomes(
    store: &Store,
    q: &ExportQuery,
    out: &mut impl Write,
) -> Result<(usize, u64), ExportError> {
    let mut sink = JsonlSink::new(out);
    let done = export_outcomes(store, q, &mut sink)?;
    sink.flush()?;
    Ok(done)
}

/// Hands the page outcomes after `q.since` to `sink` (as
/// [`write_outcomes`] writes them); returns (outcomes given, cursor).
pub fn export_outcomes(
    store: &Store,
    q: &ExportQuery,
    sink: &mut dyn RecordSink,
) -> Result<(usize, u64), ExportError> {
    let mut cursor = q.since;
    let mut written = 0;
    loop {
        let want = if q.limit > 0 {
            (q.limit - written).min(1024)
        } else {
            1024
        };
        if want == 0 {
            break;
        }
        let batch = store.guarded(|s| s.outcomes_after(cursor, want))?;
        if batch.is_empty() {
            break;
        }
        for page in batch {
            cursor = cursor.max(page.seq);
            sink.outcome(&page)?;
            written += 1;
        }
    }
    Ok((written, cursor))
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
/// Why an export stopped.
pub enum ExportError {
    #[error(transparent)]
    /// The store could not be read.
    Store(#[from] StoreError),
    #[error("writing the export: {0}")]
    /// The output could not be written.
    Io(#[from] std::io::Error),
    #[error("writing the export: {0}")]
    /// The sink refused a record.
    Sink(SinkError),
}

impl From<SinkError> for ExportError {
    fn from(e: SinkError) -> Self {
        match e {
            SinkError::Io(e) => ExportError::Io(e),
            other => ExportError::Sink(other),
        }
    }
}
