//! One URL's state and one seed, read by URL for the daemon's API (a
//! `/scrape` waits for its page's outcome; a URL given to `/urls` takes a
//! seed's options), so a worker answers for the whole cluster.

use super::conn::Conn;
use super::error::ClusterError;
use super::schema::url_hash;
use crate::record::{PageOutcome, Record};
use crate::seeds::Seed;

impl Conn {
    /// What became of `url` (normalised) so far: its outcome, once it was
    /// fetched or refused, and its record, if one was made.
    pub async fn page(
        &mut self,
        url: &str,
    ) -> Result<Option<(PageOutcome, Option<Record>)>, ClusterError> {
        let c = self.client().await?;
        let row = c
            .query_opt(
                "SELECT u.outcome, r.record FROM trawl_urls u
                 LEFT JOIN trawl_records r ON r.url_hash = u.hash
                 WHERE u.hash = $1 AND u.outcome IS NOT NULL",
                &[&url_hash(url)],
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let bad = |e: serde_json::Error| ClusterError::Bad(format!("{url}: {e}"));
        let outcome: String = row.get(0);
        let outcome = serde_json::from_str(&outcome).map_err(bad)?;
        let record = match row.get::<_, Option<String>>(1) {
            Some(text) => Some(serde_json::from_str(&text).map_err(bad)?),
            None => None,
        };
        Ok(Some((outcome, record)))
    }

    /// The seed registered for `url` (normalised), if any.
    pub async fn seed(&mut self, url: &str) -> Result<Option<Seed>, ClusterError> {
        let c = self.client().await?;
        let row = c
            .query_opt("SELECT seed FROM trawl_seeds WHERE url = $1", &[&url])
            .await?;
        match row {
            Some(r) => serde_json::from_str(&r.get::<_, String>(0))
                .map(Some)
                .map_err(|e| ClusterError::Bad(format!("seed {url}: {e}"))),
            None => Ok(None),
        }
    }
}
