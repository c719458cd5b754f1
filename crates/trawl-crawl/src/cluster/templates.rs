//! E-commerce templates kept once per site for the whole cluster: a worker
//! that learns one publishes it, a worker that claims a host of the site
//! reads it, so a site is learned once however many workers crawl it.
//! Versions decide: a template replaces the stored one only with a higher
//! version (two workers relearning at once: the first stays, the second
//! takes it when it next reads).

use trawl_extract::Template;

use super::conn::Conn;
use super::error::ClusterError;

impl Conn {
    /// The templates of `sites`, by site and cluster.
    pub async fn templates(&mut self, sites: &[String]) -> Result<Vec<Template>, ClusterError> {
        if sites.is_empty() {
            return Ok(vec![]);
        }
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT template FROM trawl_templates WHERE site = ANY($1) ORDER BY site, cluster",
                &[&sites],
            )
            .await?;
        rows.iter()
            .map(|r| {
                serde_json::from_str::<Template>(r.get(0))
                    .map_err(|e| ClusterError::Bad(format!("stored template: {e}")))
            })
            .collect()
    }

    /// Publishes a template learned by `worker`; false when the database
    /// already holds this site and cluster at the same or a higher version.
    pub async fn publish_template(
        &mut self,
        worker: &str,
        t: &Template,
    ) -> Result<bool, ClusterError> {
        let json = serde_json::to_string(t).map_err(|e| ClusterError::Bad(e.to_string()))?;
        let c = self.client().await?;
        let n = c
            .execute(
                "INSERT INTO trawl_templates (site, cluster, version, template, learned_by)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (site, cluster) DO UPDATE SET version = EXCLUDED.version,
                    template = EXCLUDED.template, learned_by = EXCLUDED.learned_by,
                    learned_at = now()
                 WHERE trawl_templates.version < EXCLUDED.version",
                &[
                    &t.site,
                    &(t.cluster as i32),
                    &(t.version as i32),
                    &json,
                    &worker,
                ],
            )
            .await?;
        Ok(n == 1)
    }
}
