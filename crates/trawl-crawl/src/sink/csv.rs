//! CSV export: a header row naming the chosen fields, then one row per
//! record (or outcome), quoted as RFC 4180 says; lists and objects as
//! their JSON text, absent fields empty.

use std::io::Write;

use super::columns::{cell, object, Cell, Column, Rows};
use super::record_sink::{RecordSink, SinkError};
use crate::record::{PageOutcome, Record};

/// Writes rows of `columns` as CSV.
pub struct CsvSink<W: Write> {
    out: csv::Writer<W>,
    columns: Vec<Column>,
    rows: Rows,
    row: Vec<String>,
}

fn csv_error(e: csv::Error) -> SinkError {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => SinkError::Io(e),
        other => SinkError::Format(format!("{other:?}")),
    }
}

impl<W: Write> CsvSink<W> {
    /// A sink writing `rows` with `columns` into `out`; the header row is
    /// written now.
    pub fn new(out: W, rows: Rows, columns: Vec<Column>) -> Result<Self, SinkError> {
        let mut out = csv::WriterBuilder::new().from_writer(out);
        out.write_record(columns.iter().map(|c| c.name))
            .map_err(csv_error)?;
        Ok(CsvSink {
            out,
            columns,
            rows,
            row: Vec::new(),
        })
    }

    fn write(&mut self, v: &impl serde::Serialize) -> Result<(), SinkError> {
        let fields = object(v)?;
        self.row.clear();
        for c in &self.columns {
            self.row.push(match cell(&fields, c) {
                None => String::new(),
                Some(Cell::Text(s)) => s,
                Some(Cell::Int(i)) => i.to_string(),
                Some(Cell::Float(f)) => f.to_string(),
                Some(Cell::Bool(b)) => b.to_string(),
            });
        }
        self.out.write_record(&self.row).map_err(csv_error)
    }
}

impl<W: Write> RecordSink for CsvSink<W> {
    fn record(&mut self, record: &Record) -> Result<(), SinkError> {
        match self.rows {
            Rows::Records => self.write(record),
            Rows::Outcomes => Ok(()),
        }
    }

    fn outcome(&mut self, outcome: &PageOutcome) -> Result<(), SinkError> {
        match self.rows {
            Rows::Outcomes => self.write(outcome),
            Rows::Records => Ok(()),
        }
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        Ok(self.out.flush()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_quotes_and_newlines() {
        let cols = Rows::Records
            .columns("seq,title,links,author", None)
            .unwrap();
        let mut out = Vec::new();
        {
            let mut s = CsvSink::new(&mut out, Rows::Records, cols).unwrap();
            let r = Record {
                seq: 7,
                title: Some("a, \"b\"\nc".into()),
                links: Some(vec!["x".into()]),
                ..Record::default()
            };
            s.record(&r).unwrap();
            s.outcome(&PageOutcome::default()).unwrap();
            s.close().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "seq,title,links,author\n7,\"a, \"\"b\"\"\nc\",\"[\"\"x\"\"]\",\n"
        );
    }
}
