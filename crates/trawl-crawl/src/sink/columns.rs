//! The columns a table format (CSV, Parquet) can hold: every field of a
//! [`Record`](crate::Record) and of a [`PageOutcome`](crate::PageOutcome)
//! with its type, the `--fields` a user names, and a row's cells read off
//! the value's JSON form, so a table holds what the JSONL export holds.

use serde_json::{Map, Value};

use super::record_sink::SinkError;

/// A column's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UTF-8 text.
    Text,
    /// A whole number (64-bit signed).
    Int,
    /// A number with a fraction (64-bit float).
    Float,
    /// `true` or `false`.
    Bool,
    /// A list or an object, as its JSON text.
    Json,
}

/// One column: a field's JSON name and its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The field's name, as the JSONL export spells it.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
}

const fn col(name: &'static str, kind: Kind) -> Column {
    Column { name, kind }
}

/// Every field of a record, in the order tables hold them.
pub const RECORD_COLUMNS: &[Column] = &[
    col("seq", Kind::Int),
    col("url", Kind::Text),
    col("final_url", Kind::Text),
    col("status", Kind::Int),
    col("fetched_at", Kind::Int),
    col("depth", Kind::Int),
    col("page_type", Kind::Text),
    col("type", Kind::Text),
    col("title", Kind::Text),
    col("author", Kind::Text),
    col("date", Kind::Text),
    col("date_published", Kind::Text),
    col("date_modified", Kind::Text),
    col("date_kind", Kind::Text),
    col("language", Kind::Text),
    col("site_name", Kind::Text),
    col("description", Kind::Text),
    col("canonical", Kind::Text),
    col("text", Kind::Text),
    col("markdown", Kind::Text),
    col("html", Kind::Text),
    col("text_source", Kind::Text),
    col("content_hash", Kind::Text),
    col("algorithm", Kind::Text),
    col("extractor", Kind::Text),
    col("relevance", Kind::Float),
    col("duplicate_of", Kind::Text),
    col("version", Kind::Int),
    col("previous", Kind::Int),
    col("template", Kind::Text),
    col("template_version", Kind::Int),
    col("template_match", Kind::Float),
    col("fields", Kind::Json),
    col("product", Kind::Json),
    col("links", Kind::Json),
    col("rendered", Kind::Json),
    col("warc", Kind::Json),
];

/// A record's columns when `--fields` names none (CSV): what a reader
/// of the pages wants first.
pub const DEFAULT_RECORD_FIELDS: &[&str] = &[
    "seq",
    "url",
    "final_url",
    "status",
    "page_type",
    "title",
    "author",
    "date",
    "language",
    "description",
    "text",
];

/// Every field of a page outcome.
pub const OUTCOME_COLUMNS: &[Column] = &[
    col("seq", Kind::Int),
    col("url", Kind::Text),
    col("final_url", Kind::Text),
    col("status", Kind::Int),
    col("outcome", Kind::Text),
    col("fetched_at", Kind::Int),
    col("bytes", Kind::Int),
    col("content_hash", Kind::Text),
    col("error", Kind::Text),
    col("redirects", Kind::Json),
    col("record", Kind::Int),
    col("content_type", Kind::Text),
    col("content_length", Kind::Int),
    col("last_modified", Kind::Text),
    col("etag", Kind::Text),
    col("relevance", Kind::Float),
    col("relevant", Kind::Bool),
    col("next_visit", Kind::Int),
];

/// What a table's rows are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Records.
    Records,
    /// Page outcomes.
    Outcomes,
}

impl Rows {
    /// Every column these rows have.
    pub fn all(self) -> &'static [Column] {
        match self {
            Rows::Records => RECORD_COLUMNS,
            Rows::Outcomes => OUTCOME_COLUMNS,
        }
    }

    /// The columns named in `fields` (comma-separated, in that order), or
    /// `default` when it is empty (`None`: every column). An unknown name
    /// is an error that lists the known ones.
    pub fn columns(self, fields: &str, default: Option<&[&str]>) -> Result<Vec<Column>, SinkError> {
        let all = self.all();
        let names: Vec<&str> = fields
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect();
        let names: Vec<&str> = match (names.is_empty(), default) {
            (false, _) => names,
            (true, Some(d)) => d.to_vec(),
            (true, None) => return Ok(all.to_vec()),
        };
        let mut out: Vec<Column> = Vec::with_capacity(names.len());
        for name in names {
            let Some(c) = all.iter().find(|c| c.name == name) else {
                let known: Vec<&str> = all.iter().map(|c| c.name).collect();
                return Err(SinkError::Field(format!(
                    "unknown field {name:?}; the fields are {}",
                    known.join(",")
                )));
            };
            if out.contains(c) {
                return Err(SinkError::Field(format!("field {name:?} named twice")));
            }
            out.push(*c);
        }
        Ok(out)
    }
}

/// One cell's value, typed by its column; `None` for a field the row does
/// not have (or null).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text (and lists or objects as JSON).
    Text(String),
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// A flag.
    Bool(bool),
}

/// The value's JSON form as an object (what every record and outcome is).
pub fn object(value: &impl serde::Serialize) -> Result<Map<String, Value>, SinkError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(SinkError::Format("a row that is not a JSON object".into())),
        Err(e) => Err(SinkError::Format(e.to_string())),
    }
}

/// The cell of `column` in the row `fields`.
pub fn cell(fields: &Map<String, Value>, column: &Column) -> Option<Cell> {
    let v = fields.get(column.name)?;
    match (column.kind, v) {
        (_, Value::Null) => None,
        (Kind::Int, Value::Number(n)) => n
            .as_i64()
            .or_else(|| n.as_u64().map(|u| i64::try_from(u).unwrap_or(i64::MAX)))
            .map(Cell::Int),
        (Kind::Float, Value::Number(n)) => n.as_f64().map(Cell::Float),
        (Kind::Bool, Value::Bool(b)) => Some(Cell::Bool(*b)),
        (_, Value::String(s)) => Some(Cell::Text(s.clone())),
        (_, other) => Some(Cell::Text(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{PageOutcome, Record, RenderNote, WarcLocation};

    /// A record with every optional field set.
    fn full() -> Record {
        Record {
            author: Some("A".into()),
            canonical: Some("c".into()),
            date: Some("2024".into()),
            date_published: Some("2024".into()),
            date_modified: Some("2024".into()),
            date_kind: Some(trawl_extract::DateKind::Published),
            description: Some("d".into()),
            duplicate_of: Some("u".into()),
            extractor: Some("e".into()),
            fields: Some(Default::default()),
            html: Some("<p>".into()),
            language: Some("en".into()),
            links: Some(vec!["l".into()]),
            previous: Some(1),
            product: Some(Default::default()),
            relevance: Some(0.5),
            rendered: Some(RenderNote::default()),
            site_name: Some("s".into()),
            template: Some("t".into()),
            template_match: Some(0.9),
            template_version: Some(2),
            text_source: Some("json-ld".into()),
            title: Some("T".into()),
            kind: Some(crate::record::RecordKind::Product),
            version: Some(2),
            warc: Some(WarcLocation {
                file: "f".into(),
                offset: 1,
            }),
            ..Record::default()
        }
    }

    #[test]
    fn the_tables_name_every_field_once() {
        let keys = |m: Map<String, Value>| {
            let mut k: Vec<String> = m.keys().cloned().collect();
            k.sort();
            k
        };
        let names = |c: &[Column]| {
            let mut k: Vec<String> = c.iter().map(|c| c.name.to_string()).collect();
            k.sort();
            k
        };
        assert_eq!(keys(object(&full()).unwrap()), names(RECORD_COLUMNS));
        let outcome = PageOutcome {
            content_type: Some("x".into()),
            content_length: Some(1),
            last_modified: Some("x".into()),
            etag: Some("x".into()),
            relevance: Some(0.1),
            relevant: Some(true),
            next_visit: Some(1),
            ..PageOutcome::default()
        };
        assert_eq!(keys(object(&outcome).unwrap()), names(OUTCOME_COLUMNS));
        for d in DEFAULT_RECORD_FIELDS {
            assert!(RECORD_COLUMNS.iter().any(|c| c.name == *d), "{d}");
        }
    }

    #[test]
    fn fields_are_checked_and_kept_in_order() {
        let c = Rows::Records.columns("title, url", None).unwrap();
        assert_eq!(
            c.iter().map(|c| c.name).collect::<Vec<_>>(),
            ["title", "url"]
        );
        let e = Rows::Records.columns("url,titel", None).unwrap_err();
        assert!(e.to_string().contains("\"titel\"") && e.to_string().contains("title"));
        assert!(Rows::Records.columns("url,url", None).is_err());
        assert_eq!(
            Rows::Outcomes.columns("", None).unwrap().len(),
            OUTCOME_COLUMNS.len()
        );
        assert_eq!(
            Rows::Records
                .columns("", Some(DEFAULT_RECORD_FIELDS))
                .unwrap()
                .len(),
            DEFAULT_RECORD_FIELDS.len()
        );
    }

    #[test]
    fn cells_are_typed_by_their_column() {
        let m = object(&full()).unwrap();
        let get = |n: &str| {
            let c = RECORD_COLUMNS.iter().find(|c| c.name == n).unwrap();
            cell(&m, c)
        };
        assert_eq!(get("title"), Some(Cell::Text("T".into())));
        assert_eq!(get("version"), Some(Cell::Int(2)));
        assert_eq!(get("relevance"), Some(Cell::Float(0.5)));
        assert_eq!(get("links"), Some(Cell::Text("[\"l\"]".into())));
        let bare = object(&Record::default()).unwrap();
        let title = RECORD_COLUMNS.iter().find(|c| c.name == "title").unwrap();
        assert_eq!(cell(&bare, title), None);
    }
}
