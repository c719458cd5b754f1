//! The single-machine daemon's leases: the sled frontier, the seed files
//! polled every `crawl.seed_poll_secs`, and set-aside URLs offered again
//! when due.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::crawl::options::{CrawlError, RunOptions};
use crate::crawl::pipeline::seeding;
use crate::crawl::pipeline::shared::Fetching;
use crate::crawl::pipeline::{Finished, Health, Leases};
use crate::crawl::stats::Queued;
use crate::frontier::{Frontier, Next};
use crate::record::now_secs;
use crate::seeds::SeedDefaults;

/// The sled frontier as the pipeline's [`Leases`].
pub(in crate::crawl) struct LocalLeases {
    frontier: Frontier,
    shared: Arc<Fetching>,
    defaults: SeedDefaults,
    seed_files: seeding::SeedFiles,
    seed_poll: Duration,
    next_seed_poll: Instant,
    next_revisit_check: Instant,
    next_queued_count: Instant,
    /// Seed files being streamed into the frontier.
    loader: seeding::SeedLoader,
}

/// Time spent reading seed lines at start (a small file is read whole
/// before the first fetch), and per scheduler turn after (a large one is
/// read between fetches, the stop signal heard between turns).
const SEED_READ_AT_START: Duration = Duration::from_secs(1);
const SEED_READ_PER_TURN: Duration = Duration::from_millis(100);

/// How often due revisits are moved to the queue.
const REVISIT_CHECK: Duration = Duration::from_secs(1);
/// How often the host table's queued URLs are counted.
pub(in crate::crawl) const QUEUED_COUNT_EVERY: Duration = Duration::from_secs(2);
/// Blocks read per host when counting its queued URLs (up to 32 URLs each).
const QUEUED_COUNT_BLOCKS: usize = 64;

impl LocalLeases {
    /// Offers set-aside URLs again, loads the seed files, and says so.
    pub(in crate::crawl) fn start(
        cfg: &Config,
        opts: &RunOptions,
        shared: &Arc<Fetching>,
        mut frontier: Frontier,
    ) -> Result<LocalLeases, CrawlError> {
        let c = &cfg.crawl;
        let store = &shared.store;
        let defaults = seeding::seed_defaults(cfg);
        // URLs set aside last time (a stopped host, a spent budget) are offered again.
        let offered = store.unpark(now_secs(), true)?;
        // Revisits that fell due while the daemon was away (only those).
        let due = store.due_revisits(now_secs())?;
        let seed_files = seeding::SeedFiles::new(cfg, opts);
        let files = seed_files.list();
        let mut loader = seeding::SeedLoader::default();
        let added = loader.step(shared, &files, &defaults, &mut frontier, SEED_READ_AT_START)?;
        tracing::info!(
            new_urls = added,
            set_aside_offered_again = offered,
            revisits_due = due,
            next_revisit = store
                .next_revisit()
                .ok()
                .flatten()
                .map(crate::record::iso_time)
                .unwrap_or_default(),
            queue = store.queue_len_hint(),
            "crawl starting"
        );
        let seed_poll = Duration::from_secs(c.seed_poll_secs);
        Ok(LocalLeases {
            frontier,
            shared: shared.clone(),
            defaults,
            seed_files,
            seed_poll,
            next_seed_poll: Instant::now() + seed_poll,
            next_revisit_check: Instant::now() + REVISIT_CHECK,
            next_queued_count: Instant::now(),
            loader,
        })
    }
}

impl LocalLeases {
    /// Counts the queued URLs of the hosts the status page's table shows.
    fn count_queued(&self) {
        let stats = &self.shared.stats;
        let counts: Vec<(String, Queued)> = stats
            .shown_hosts()
            .into_iter()
            .filter_map(|host| {
                let (urls, more) = self.frontier.queued(&host, QUEUED_COUNT_BLOCKS).ok()?;
                Some((host, Queued { urls, more }))
            })
            .collect();
        stats.set_queued(counts);
    }
}

impl Leases for LocalLeases {
    async fn tick(&mut self, now: Instant) {
        let stats = &self.shared.stats;
        let (waiting, known) = self.frontier.host_counts(now);
        stats.hosts_waiting.store(waiting as u64, Relaxed);
        stats.hosts_known.store(known as u64, Relaxed);
        let store = &self.shared.store;
        if now >= self.next_revisit_check {
            if let Err(e) = store.due_revisits(now_secs()) {
                stats.store_error(format!("queuing due revisits: {e}"));
            }
            self.next_revisit_check = now + REVISIT_CHECK;
        }
        if now >= self.next_queued_count {
            self.count_queued();
            self.next_queued_count = now + QUEUED_COUNT_EVERY;
        }
        let changed = self.seed_files.changed();
        if now < self.next_seed_poll && !self.loader.busy() && !changed {
            return;
        }
        let files = self.seed_files.list();
        let loaded = self.loader.step(
            &self.shared,
            &files,
            &self.defaults,
            &mut self.frontier,
            SEED_READ_PER_TURN,
        );
        if let Err(e) = loaded {
            stats.store_error(format!("loading seeds: {e}"));
        }
        if self.loader.busy() {
            return;
        }
        // A stopped host's URLs come back when its cool-down has passed.
        if let Err(e) = store.unpark(now_secs(), false) {
            stats.store_error(format!("offering set-aside URLs again: {e}"));
        }
        self.next_seed_poll = now + self.seed_poll;
    }

    async fn next(&mut self, now: Instant) -> Next {
        match self.frontier.next(now) {
            Ok(next) => next,
            Err(e) => {
                // Marks the store down; the scheduler drains and ends.
                self.shared
                    .stats
                    .store_error(format!("store read failed: {e}"));
                Next::Wait(now)
            }
        }
    }

    fn next_tick(&self, now: Instant) -> Instant {
        if self.loader.busy() {
            return now;
        }
        self.next_seed_poll.min(self.next_revisit_check)
    }

    fn idle(&mut self) -> impl std::future::Future<Output = bool> + Send {
        std::future::ready(!self.loader.busy())
    }

    fn finished(&mut self, f: Finished) {
        if let Some(until) = f.hold {
            self.frontier.hold(&f.host, until);
        }
        if let Err(e) = self.frontier.finished(&f.host, f.delay) {
            self.shared
                .stats
                .store_error(format!("store read failed: {e}"));
        }
    }

    fn health(&self) -> Health {
        let stats = &self.shared.stats;
        if stats.store_down.load(Relaxed) {
            Health::Down
        } else if stats.archive_down.load(Relaxed) {
            Health::Paused
        } else {
            Health::Up
        }
    }
}
