//! Near-duplicate records across the cluster: a record's SimHash is kept
//! with it, indexed by its four 16-bit bands, so a page is marked
//! `duplicate_of` an earlier record of any worker within 3 differing bits
//! (the single-machine store's rule, `store::simhash`).

use tokio_postgres::Transaction;

use super::error::ClusterError;
use crate::store::simhash::bands;

/// Candidates read per lookup: a band shared by very many records (pages
/// of one boilerplate) is not read to its end.
const CANDIDATES: i64 = 256;

/// The URL of an earlier record within 3 bits of `simhash` (not `own`).
pub(super) async fn duplicate_of(
    tx: &Transaction<'_>,
    simhash: u64,
    own: &str,
) -> Result<Option<String>, ClusterError> {
    let b = bands(simhash).map(i64::from);
    let rows = tx
        .query(
            "SELECT r.simhash, u.url FROM trawl_records r JOIN trawl_urls u ON u.hash = r.url_hash
             WHERE ((r.simhash >> 48) & 65535) = $1 OR ((r.simhash >> 32) & 65535) = $2
                OR ((r.simhash >> 16) & 65535) = $3 OR (r.simhash & 65535) = $4
             LIMIT $5",
            &[&b[0], &b[1], &b[2], &b[3], &CANDIDATES],
        )
        .await?;
    Ok(rows.iter().find_map(|r| {
        let (h, url): (i64, String) = (r.get(0), r.get(1));
        ((h as u64 ^ simhash).count_ones() <= 3 && url != own).then_some(url)
    }))
}
