//! `trawl export --cluster`: the shared records as JSON lines, with a
//! resumable cursor like the single-machine export. A record's place is
//! (transaction id, row id). Row ids alone would not do: a transaction that
//! took id 10 may commit after id 11 is visible, and a cursor past 11 would
//! skip it. So the export reads only records of transactions older than
//! every transaction still running (`pg_snapshot_xmin`), in (xid, id)
//! order: nothing can commit behind the cursor later.

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use super::conn::Conn;
use super::error::ClusterError;
use crate::record::Record;

/// Where an export stopped: `XID.ID` (`0` is the start).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cursor {
    /// The PostgreSQL transaction id the row was written under.
    pub xid: u64,
    /// The row's id within that transaction's rows.
    pub id: i64,
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Cursor::default() {
            f.write_str("0")
        } else {
            write!(f, "{}.{}", self.xid, self.id)
        }
    }
}

impl FromStr for Cursor {
    type Err = String;

    fn from_str(s: &str) -> Result<Cursor, String> {
        let bad = || {
            format!("bad cluster cursor {s:?}: expected 0 or XID.ID as printed by the last export")
        };
        match s.split_once('.') {
            None if s == "0" => Ok(Cursor::default()),
            None => Err(bad()),
            Some((x, i)) => Ok(Cursor {
                xid: x.parse().map_err(|_| bad())?,
                id: i.parse().map_err(|_| bad())?,
            }),
        }
    }
}

/// Writes the records after `since` (at most `limit`, 0 = all) as JSON
/// lines; returns (records written, the cursor to pass next time).
pub async fn write_jsonl(
    conn: &mut Conn,
    since: Cursor,
    limit: usize,
    links: bool,
    out: &mut impl Write,
) -> Result<(usize, Cursor), ClusterError> {
    let mut cursor = since;
    let mut written = 0;
    loop {
        let batch = if limit == 0 {
            1000
        } else {
            (limit - written).min(1000)
        };
        if batch == 0 {
            break;
        }
        let rows = committed_after(conn, cursor, batch).await?;
        if rows.is_empty() {
            break;
        }
        for (at, rec) in rows {
            write_record(out, rec, links)?;
            written += 1;
            cursor = at;
        }
    }
    out.flush()?;
    Ok((written, cursor))
}

/// The records after `since`, at most `limit`, each with its place (the
/// cursor after it) and numbered by its row (`seq`): one query. What an
/// export writes and a cluster worker's tap hands over.
pub(crate) async fn committed_after(
    conn: &mut Conn,
    since: Cursor,
    limit: usize,
) -> Result<Vec<(Cursor, Record)>, ClusterError> {
    let c = conn.client().await?;
    let rows = c
        .query(
            // Qualified names: an output column called `xid` (text)
            // would otherwise be what ORDER BY sorts, as text.
            "SELECT r.xid::text AS xid_text, r.id, r.record FROM trawl_records r
             WHERE (r.xid, r.id) > ($1::text::xid8, $2)
               AND r.xid < pg_snapshot_xmin(pg_current_snapshot())
             ORDER BY r.xid, r.id LIMIT $3",
            &[&since.xid.to_string(), &since.id, &(limit as i64)],
        )
        .await?;
    rows.iter()
        .map(|r| {
            let xid: String = r.get(0);
            let id: i64 = r.get(1);
            let at = Cursor {
                xid: xid
                    .parse()
                    .map_err(|_| ClusterError::Bad(format!("xid {xid:?}")))?,
                id,
            };
            Ok((at, decode(id, &r.get::<_, String>(2))?))
        })
        .collect()
}

/// Writes the older versions of changed pages (`export --all-versions`
/// from the start): each as it was stored, its row number as `seq`, in
/// row order. They come before the live records; an incremental export
/// gave each of them when it was the latest.
pub async fn write_versions(
    conn: &mut Conn,
    links: bool,
    out: &mut impl Write,
) -> Result<usize, ClusterError> {
    let c = conn.client().await?;
    let rows = c
        .query(
            "SELECT id, record FROM trawl_record_versions ORDER BY id",
            &[],
        )
        .await?;
    for r in &rows {
        write_record(out, decode(r.get(0), &r.get::<_, String>(1))?, links)?;
    }
    Ok(rows.len())
}

/// A stored record, numbered by its row (`seq`).
fn decode(id: i64, text: &str) -> Result<Record, ClusterError> {
    let mut rec: Record =
        serde_json::from_str(text).map_err(|e| ClusterError::Bad(format!("record {id}: {e}")))?;
    rec.seq = id as u64;
    Ok(rec)
}

/// Writes one record as a JSON line, its outgoing links only with `links`.
fn write_record(out: &mut impl Write, mut rec: Record, links: bool) -> Result<(), ClusterError> {
    if !links {
        rec.links = None;
    }
    serde_json::to_writer(&mut *out, &rec).map_err(|e| ClusterError::Io(e.into()))?;
    out.write_all(b"\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_print_and_parse() {
        let c = Cursor { xid: 812, id: 44 };
        assert_eq!(c.to_string(), "812.44");
        assert_eq!("812.44".parse::<Cursor>(), Ok(c));
        assert_eq!("0".parse::<Cursor>(), Ok(Cursor::default()));
        assert!("12".parse::<Cursor>().is_err());
        assert!("a.b".parse::<Cursor>().is_err());
    }
}
