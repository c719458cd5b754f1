//! Newer versions of a cluster's records: a record row is rewritten in
//! place with the newer record, under a new export cursor (this
//! transaction's id, the next row number), so an incremental export picks
//! it up and a plain export gives the latest. The record names the row
//! number it replaces (`previous`). A revisit that found the page changed
//! keeps the older version in `trawl_record_versions` (`export
//! --all-versions`); `trawl reextract --cluster` does not (the older one
//! stays in the worker's archive).

use super::conn::Conn;
use super::error::ClusterError;
use crate::record::Record;

impl Conn {
    /// Up to `limit` records with a row number above `after`, in order:
    /// (row number, record).
    pub async fn records_after(
        &mut self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<(i64, Record)>, ClusterError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT id, record FROM trawl_records WHERE id > $1 ORDER BY id LIMIT $2",
                &[&after, &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let id: i64 = r.get(0);
                let text: String = r.get(1);
                let mut rec: Record = serde_json::from_str(&text)
                    .map_err(|e| ClusterError::Bad(format!("record {id}: {e}")))?;
                rec.seq = id as u64;
                Ok((id, rec))
            })
            .collect()
    }

    /// The highest row number of the records.
    pub async fn last_record_id(&mut self) -> Result<i64, ClusterError> {
        let c = self.client().await?;
        let row = c
            .query_one("SELECT coalesce(max(id), 0) FROM trawl_records", &[])
            .await?;
        Ok(row.get(0))
    }

    /// Replaces record row `old` with `rec` (a newer version of the same
    /// page); returns its new row number, or `None` when the row changed
    /// meanwhile (replaced by another run).
    pub async fn replace_record(
        &mut self,
        old: i64,
        rec: &Record,
    ) -> Result<Option<i64>, ClusterError> {
        let simhash = crate::store::simhash::simhash(&rec.text);
        let mut rec = rec.clone();
        rec.previous = Some(old as u64);
        let text = serde_json::to_string(&rec).map_err(|e| ClusterError::Bad(e.to_string()))?;
        let c = self.client().await?;
        let row = c
            .query_opt(
                "UPDATE trawl_records
                    SET record = $2, simhash = $3, xid = pg_current_xact_id(),
                        id = nextval(pg_get_serial_sequence('trawl_records', 'id'))
                  WHERE id = $1
              RETURNING id",
                &[&old, &text, &simhash.map(|h| h as i64)],
            )
            .await?;
        Ok(row.map(|r| r.get(0)))
    }
}

/// Stores a revisit's new record (`text`, its JSON) as the newer version of
/// the URL's record row `prev`: the old row's record is kept in
/// `trawl_record_versions`, the row gets the new one under a new export
/// cursor. Nothing when the row moved on meanwhile (a replay).
pub(super) async fn new_version(
    tx: &tokio_postgres::Transaction<'_>,
    hash: i64,
    prev: i64,
    text: &str,
    simhash: Option<i64>,
) -> Result<bool, ClusterError> {
    let row = tx
        .query_opt(
            "WITH old AS (SELECT id, record FROM trawl_records
                          WHERE url_hash = $1 AND id = $2 FOR UPDATE),
                  new AS (UPDATE trawl_records
                             SET record = $3, simhash = $4, xid = pg_current_xact_id(),
                                 id = nextval(pg_get_serial_sequence('trawl_records', 'id'))
                           WHERE url_hash = $1 AND id = $2 RETURNING id)
             INSERT INTO trawl_record_versions (id, url_hash, record, replaced_by)
             SELECT old.id, $1, old.record, new.id FROM old, new
             ON CONFLICT (id) DO NOTHING RETURNING replaced_by",
            &[&hash, &prev, &text, &simhash],
        )
        .await?;
    Ok(row.is_some())
}
