//! The cluster's page counts as a worker's budgets read them: the
//! database's sums, refreshed by the worker, plus the worker's own pages
//! committed since (the crawl's stages read them through `Shared`).

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::RwLock;

use super::budgets::PageCounts;
use crate::store::Counter;

/// Page counts of the whole cluster, as the budgets read them: the
/// database's sums, refreshed by the scheduler, plus this worker's pages
/// committed since. A held host's count is exact (no one else fetches it);
/// the crawl's and a seed's may lag by the other workers' last second.
#[derive(Debug, Default)]
pub struct ClusterCounts {
    total: AtomicU64,
    seeds: RwLock<HashMap<u32, u64>>,
    hosts: RwLock<HashMap<String, u64>>,
}

impl ClusterCounts {
    /// The count behind `c`; `None` for counters kept locally (focus).
    pub fn get(&self, c: &Counter) -> Option<u64> {
        match c {
            Counter::Total => Some(self.total.load(Relaxed)),
            Counter::Seed(s) => Some(
                self.seeds
                    .read()
                    .map_or(0, |m| m.get(s).copied().unwrap_or(0)),
            ),
            Counter::Host(h) => Some(
                self.hosts
                    .read()
                    .map_or(0, |m| m.get(*h).copied().unwrap_or(0)),
            ),
            _ => None,
        }
    }

    /// This worker committed a fetched page of `host` under `seed`.
    pub fn fetched(&self, host: &str, seed: u32) {
        self.total.fetch_add(1, Relaxed);
        if let Ok(mut m) = self.seeds.write() {
            *m.entry(seed).or_default() += 1;
        }
        if let Ok(mut m) = self.hosts.write() {
            *m.entry(host.to_string()).or_default() += 1;
        }
    }

    /// A claimed host's count, as the database has it.
    pub fn set_host(&self, host: &str, fetched: u64) {
        if let Ok(mut m) = self.hosts.write() {
            m.insert(host.to_string(), fetched);
        }
    }

    /// Forgets a host this worker no longer holds.
    pub fn drop_host(&self, host: &str) {
        if let Ok(mut m) = self.hosts.write() {
            m.remove(host);
        }
    }

    /// The database's sums (never lowering a count: this worker's own
    /// commits may be newer than the read).
    pub fn refresh(&self, c: PageCounts) {
        if let Some(t) = c.total {
            self.total.fetch_max(t, Relaxed);
        }
        if let Ok(mut m) = self.seeds.write() {
            for (s, n) in c.seeds {
                let e = m.entry(s).or_default();
                *e = (*e).max(n);
            }
        }
    }
}
