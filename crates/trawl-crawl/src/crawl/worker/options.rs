//! How a worker joins the cluster: the database, its name, how long and how
//! many hosts it holds, and its batch size, from `[cluster]`.

use std::time::Duration;

use crate::config::Config;

/// How this worker joins the cluster.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// `postgres://…` of the shared database.
    pub url: String,
    /// This worker's name (unique in the cluster).
    pub worker: String,
    /// How long a claimed host stays this worker's without a renewal.
    pub lease: Duration,
    /// The most hosts this worker holds at once.
    pub max_hosts: usize,
    /// Due URLs read, and completions committed, per round trip.
    pub batch: usize,
}

impl ClusterOptions {
    /// From `[cluster]` (the URL must be set), naming the worker
    /// `HOSTNAME-PID` when `cluster.worker` is empty.
    pub fn from_config(cfg: &Config) -> ClusterOptions {
        let k = &cfg.cluster;
        let worker = if k.worker.is_empty() {
            let host = std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "worker".into());
            format!("{host}-{}", std::process::id())
        } else {
            k.worker.clone()
        };
        ClusterOptions {
            url: k.url.clone(),
            worker,
            lease: Duration::from_secs(k.lease_secs),
            max_hosts: k.max_hosts,
            batch: k.batch,
        }
    }
}
