//! Parquet export: one typed, optional column per chosen field (text as
//! UTF-8 strings, lists and objects as their JSON text), Snappy-compressed.
//! Rows are buffered into row groups of at most [`GROUP_ROWS`] rows or
//! [`GROUP_BYTES`] bytes of text, so memory stays bounded however many
//! records pass.

use std::io::Write;
use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use super::columns::{cell, object, Cell, Column, Kind, Rows};
use super::record_sink::{RecordSink, SinkError};
use crate::record::{PageOutcome, Record};

/// Rows in a row group at most.
pub(super) const GROUP_ROWS: usize = 10_000;
/// Bytes of text buffered for a row group at most.
pub(super) const GROUP_BYTES: usize = 64 << 20;

fn pq(e: ParquetError) -> SinkError {
    SinkError::Format(format!("parquet: {e}"))
}

/// One column's buffered values (only the present ones) and its
/// definition levels (1: present, 0: null), one per row.
enum Values {
    Text(Vec<ByteArray>),
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bool(Vec<bool>),
}

struct Buffer {
    column: Column,
    values: Values,
    defs: Vec<i16>,
}

/// Writes rows of `columns` as a Parquet file.
pub struct ParquetSink<W: Write + Send> {
    writer: Option<SerializedFileWriter<W>>,
    buffers: Vec<Buffer>,
    rows: Rows,
    buffered_rows: usize,
    buffered_bytes: usize,
}

fn schema(columns: &[Column]) -> Result<Type, ParquetError> {
    let mut fields = Vec::with_capacity(columns.len());
    for c in columns {
        let (physical, logical) = match c.kind {
            Kind::Text | Kind::Json => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
            Kind::Int => (Physical::INT64, None),
            Kind::Float => (Physical::DOUBLE, None),
            Kind::Bool => (Physical::BOOLEAN, None),
        };
        let t = Type::primitive_type_builder(c.name, physical)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(logical)
            .build()?;
        fields.push(Arc::new(t));
    }
    Type::group_type_builder("trawl")
        .with_fields(fields)
        .build()
}

impl<W: Write + Send> ParquetSink<W> {
    /// A sink writing `rows` with `columns` into `out` (which need not
    /// seek: the footer is written by [`RecordSink::close`]).
    pub fn new(out: W, rows: Rows, columns: Vec<Column>) -> Result<Self, SinkError> {
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("trawl {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer = SerializedFileWriter::new(
            out,
            Arc::new(schema(&columns).map_err(pq)?),
            Arc::new(props),
        )
        .map_err(pq)?;
        let buffers = columns
            .into_iter()
            .map(|column| Buffer {
                values: match column.kind {
                    Kind::Text | Kind::Json => Values::Text(Vec::new()),
                    Kind::Int => Values::Int(Vec::new()),
                    Kind::Float => Values::Float(Vec::new()),
                    Kind::Bool => Values::Bool(Vec::new()),
                },
                column,
                defs: Vec::new(),
            })
            .collect();
        Ok(ParquetSink {
            writer: Some(writer),
            buffers,
            rows,
            buffered_rows: 0,
            buffered_bytes: 0,
        })
    }

    fn push(&mut self, v: &impl serde::Serialize) -> Result<(), SinkError> {
        if self.writer.is_none() {
            return Err(SinkError::Format("the Parquet file is closed".into()));
        }
        let fields = object(v)?;
        for b in &mut self.buffers {
            let c = cell(&fields, &b.column);
            let present = match (&mut b.values, c) {
                (Values::Text(v), Some(Cell::Text(s))) => {
                    self.buffered_bytes += s.len();
                    v.push(ByteArray::from(s.into_bytes()));
                    true
                }
                (Values::Int(v), Some(Cell::Int(i))) => {
                    v.push(i);
                    true
                }
                (Values::Float(v), Some(Cell::Float(f))) => {
                    v.push(f);
                    true
                }
                (Values::Float(v), Some(Cell::Int(i))) => {
                    v.push(i as f64);
                    true
                }
                (Values::Bool(v), Some(Cell::Bool(x))) => {
                    v.push(x);
                    true
                }
                // Absent, null, or a value of another type: null.
                _ => false,
            };
            b.defs.push(i16::from(present));
        }
        self.buffered_rows += 1;
        if self.buffered_rows >= GROUP_ROWS || self.buffered_bytes >= GROUP_BYTES {
            self.write_group()?;
        }
        Ok(())
    }

    /// Writes the buffered rows as one row group.
    fn write_group(&mut self) -> Result<(), SinkError> {
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        if self.buffered_rows == 0 {
            return Ok(());
        }
        let mut group = writer.next_row_group().map_err(pq)?;
        for b in &mut self.buffers {
            let Some(mut col) = group.next_column().map_err(pq)? else {
                return Err(SinkError::Format(
                    "parquet: fewer columns than the schema".into(),
                ));
            };
            let defs = Some(&b.defs[..]);
            match &mut b.values {
                Values::Text(v) => {
                    col.typed::<ByteArrayType>()
                        .write_batch(v, defs, None)
                        .map_err(pq)?;
                    v.clear();
                }
                Values::Int(v) => {
                    col.typed::<Int64Type>()
                        .write_batch(v, defs, None)
                        .map_err(pq)?;
                    v.clear();
                }
                Values::Float(v) => {
                    col.typed::<DoubleType>()
                        .write_batch(v, defs, None)
                        .map_err(pq)?;
                    v.clear();
                }
                Values::Bool(v) => {
                    col.typed::<BoolType>()
                        .write_batch(v, defs, None)
                        .map_err(pq)?;
                    v.clear();
                }
            }
            b.defs.clear();
            col.close().map_err(pq)?;
        }
        group.close().map_err(pq)?;
        self.buffered_rows = 0;
        self.buffered_bytes = 0;
        Ok(())
    }
}

impl<W: Write + Send> RecordSink for ParquetSink<W> {
    fn record(&mut self, record: &Record) -> Result<(), SinkError> {
        match self.rows {
            Rows::Records => self.push(record),
            Rows::Outcomes => Ok(()),
        }
    }

    fn outcome(&mut self, outcome: &PageOutcome) -> Result<(), SinkError> {
        match self.rows {
            Rows::Outcomes => self.push(outcome),
            Rows::Records => Ok(()),
        }
    }

    /// Parquet is written in row groups: the rows so far become one (a
    /// file of many small groups reads slower; flush when it matters).
    fn flush(&mut self) -> Result<(), SinkError> {
        self.write_group()
    }

    fn close(&mut self) -> Result<(), SinkError> {
        self.write_group()?;
        if let Some(w) = self.writer.take() {
            w.close().map_err(pq)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    #[test]
    fn rows_come_back_from_the_file() {
        let cols = Rows::Records
            .columns("seq,title,relevance,links", None)
            .unwrap();
        let mut out = Vec::new();
        {
            let mut s = ParquetSink::new(&mut out, Rows::Records, cols).unwrap();
            for i in 0..(GROUP_ROWS + 5) {
                let r = Record {
                    seq: i as u64,
                    title: (i % 2 == 0).then(|| format!("t{i}")),
                    relevance: Some(0.5),
                    ..Record::default()
                };
                s.record(&r).unwrap();
            }
            s.close().unwrap();
            assert!(s.record(&Record::default()).is_err());
        }
        let path = std::env::temp_dir().join(format!("trawl-sink-{}.parquet", std::process::id()));
        std::fs::write(&path, out).unwrap();
        let file = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let meta = file.metadata();
        assert_eq!(meta.file_metadata().num_rows(), (GROUP_ROWS + 5) as i64);
        assert_eq!(meta.num_row_groups(), 2);
        let rows: Vec<_> = file.get_row_iter(None).unwrap().take(2).collect();
        let first = rows[0].as_ref().unwrap().to_string();
        let second = rows[1].as_ref().unwrap().to_string();
        assert!(
            first.contains("seq: 0") && first.contains("title: \"t0\""),
            "{first}"
        );
        assert!(
            second.contains("title: null") && second.contains("links: null"),
            "{second}"
        );
        let _ = std::fs::remove_file(&path);
    }
}
