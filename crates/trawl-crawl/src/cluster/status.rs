//! `trawl status --cluster`: every worker, the hosts it holds and its
//! rate, and the shared frontier's totals, read from the database.

use std::fmt;

use super::conn::Conn;
use super::error::ClusterError;

/// One worker as its last heartbeat left it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct WorkerRow {
    /// The worker's name (`cluster.worker`).
    pub name: String,
    /// Seconds since its last heartbeat.
    pub seen_secs_ago: f64,
    /// Seconds since it started.
    pub up_secs: f64,
    /// Pages it fetched since it started.
    pub fetched: i64,
    /// Writes refused because another worker took the host over.
    pub refused: i64,
    /// Hosts it holds a live lease on now.
    pub hosts: i64,
    /// It said goodbye (a clean stop).
    pub stopped: bool,
}

/// The cluster at a glance.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ClusterStatus {
    /// Every worker that ever beat its heart, most recent first.
    pub workers: Vec<WorkerRow>,
    /// Hosts known to the cluster.
    pub hosts: i64,
    /// Hosts a worker holds a live lease on.
    pub hosts_leased: i64,
    /// URLs waiting to be fetched.
    pub urls_queued: i64,
    /// URLs fetched or ended for good.
    pub urls_done: i64,
    /// Records stored.
    pub records: i64,
}

impl Conn {
    /// The URLs queued in the cluster for each of `hosts` (hosts the
    /// database does not know are left out).
    pub async fn hosts_queued(
        &mut self,
        hosts: &[String],
    ) -> Result<Vec<(String, u64)>, ClusterError> {
        if hosts.is_empty() {
            return Ok(Vec::new());
        }
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT name, GREATEST(queued, 0)::bigint FROM trawl_hosts WHERE name = ANY($1)",
                &[&hosts],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1) as u64))
            .collect())
    }

    /// Reads the cluster's status.
    pub async fn status(&mut self) -> Result<ClusterStatus, ClusterError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT w.name, EXTRACT(EPOCH FROM now() - w.seen)::float8,
                        EXTRACT(EPOCH FROM now() - w.started)::float8, w.fetched, w.refused,
                        (SELECT count(*) FROM trawl_hosts h
                          WHERE h.lease_owner = w.name AND h.lease_until > now()),
                        w.stopped
                 FROM trawl_workers w ORDER BY w.name",
                &[],
            )
            .await?;
        let workers = rows
            .iter()
            .map(|r| WorkerRow {
                name: r.get(0),
                seen_secs_ago: r.get(1),
                up_secs: r.get(2),
                fetched: r.get(3),
                refused: r.get(4),
                hosts: r.get(5),
                stopped: r.get(6),
            })
            .collect();
        let t = c
            .query_one(
                "SELECT (SELECT count(*) FROM trawl_hosts),
                        (SELECT count(*) FROM trawl_hosts WHERE lease_until > now()),
                        (SELECT COALESCE(sum(queued), 0)::bigint FROM trawl_hosts),
                        (SELECT count(*) FROM trawl_urls WHERE status <> 0),
                        (SELECT count(*) FROM trawl_records)",
                &[],
            )
            .await?;
        Ok(ClusterStatus {
            workers,
            hosts: t.get(0),
            hosts_leased: t.get(1),
            urls_queued: t.get(2),
            urls_done: t.get(3),
            records: t.get(4),
        })
    }
}

impl fmt::Display for ClusterStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "cluster: {} hosts ({} leased), {} URLs queued, {} done, {} records",
            self.hosts, self.hosts_leased, self.urls_queued, self.urls_done, self.records
        )?;
        writeln!(
            f,
            "{:<24} {:>8} {:>10} {:>8} {:>7} {:>10}  state",
            "worker", "hosts", "fetched", "pages/s", "refused", "last seen"
        )?;
        for w in &self.workers {
            let rate = if w.up_secs > 0.0 {
                w.fetched as f64 / w.up_secs
            } else {
                0.0
            };
            let state = if w.stopped {
                "stopped"
            } else if w.seen_secs_ago > 60.0 {
                "silent (dead?)"
            } else {
                "running"
            };
            writeln!(
                f,
                "{:<24} {:>8} {:>10} {:>8.1} {:>7} {:>9.0}s  {state}",
                w.name, w.hosts, w.fetched, rate, w.refused, w.seen_secs_ago
            )?;
        }
        Ok(())
    }
}
