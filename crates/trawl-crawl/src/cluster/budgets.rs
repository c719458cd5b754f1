//! Page counts the whole cluster shares, for the page budgets: how many
//! pages each seed has had fetched, summed over the workers' own rows
//! (each worker adds to its rows in the transaction that ends the URL).

use std::collections::HashMap;

use super::conn::Conn;
use super::error::ClusterError;

/// Pages fetched cluster-wide, as the budgets read them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageCounts {
    /// All pages (when asked for).
    pub total: Option<u64>,
    /// Pages per seed, for the seeds asked about (absent: none yet).
    pub seeds: HashMap<u32, u64>,
}

impl Conn {
    /// The counts of `seeds`, and the crawl's total when `total`.
    pub async fn page_counts(
        &mut self,
        seeds: &[u32],
        total: bool,
    ) -> Result<PageCounts, ClusterError> {
        let c = self.client().await?;
        let mut out = PageCounts::default();
        if total {
            let row = c
                .query_one(
                    "SELECT COALESCE(sum(fetched), 0)::bigint FROM trawl_counts",
                    &[],
                )
                .await?;
            out.total = Some(row.get::<_, i64>(0).max(0) as u64);
        }
        if !seeds.is_empty() {
            let ids: Vec<i32> = seeds.iter().map(|s| *s as i32).collect();
            let rows = c
                .query(
                    "SELECT seed, sum(fetched)::bigint FROM trawl_counts
                     WHERE seed = ANY($1) GROUP BY seed",
                    &[&ids],
                )
                .await?;
            for r in rows {
                out.seeds
                    .insert(r.get::<_, i32>(0) as u32, r.get::<_, i64>(1).max(0) as u64);
            }
        }
        Ok(out)
    }
}
