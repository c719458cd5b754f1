//! The per-host error budget: a host that keeps failing (a site gone, a
//! server throwing 5xx, a trap of URLs that time out) must not keep a
//! crawler busy. What counts is what says the host is unwell: transport
//! errors, timeouts, 5xx and 429, after retries. A 404 or 410 is an
//! answer, not a failure, and resets the count like a success. After
//! `budget` such fetches in a row the host is stopped for a cool-down: its
//! queued URLs are set aside with a `host_stopped` outcome (see
//! `store::parked`) and offered again when the cool-down ends. Kept in
//! memory: a restart gives every host a fresh budget.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::record::now_secs;

/// Why a host is stopped, for outcomes and the status views.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stop {
    /// Failures in a row that spent the budget.
    pub failures: u32,
    /// Seconds since the epoch: stopped at, and until.
    pub since: u64,
    pub until: u64,
}

#[derive(Default)]
struct HostHealth {
    failures: u32,
    stopped: Option<(Instant, Stop)>,
}

/// Consecutive failures per host.
pub(crate) struct ErrorBudget {
    hosts: Mutex<HashMap<String, HostHealth>>,
    /// 0: no budget.
    budget: u32,
    cooldown: Duration,
}

impl ErrorBudget {
    pub(crate) fn new(budget: u32, cooldown: Duration) -> ErrorBudget {
        ErrorBudget {
            hosts: Mutex::new(HashMap::new()),
            budget,
            cooldown,
        }
    }

    /// How long a stopped host stays stopped (also how long a URL waits
    /// that robots.txt kept unreachable).
    pub(crate) fn cooldown(&self) -> Duration {
        self.cooldown
    }

    /// Counts a page fetch of `host` (`failed`: transport error, timeout,
    /// 5xx or 429). Returns the stop when this one spent the budget (the
    /// caller reports it, once).
    pub(crate) fn record(&self, host: &str, failed: bool) -> Option<Stop> {
        if self.budget == 0 {
            return None;
        }
        let mut map = self.hosts.lock().ok()?;
        if !failed {
            map.remove(host);
            return None;
        }
        let h = map.entry(host.to_string()).or_default();
        h.failures = h.failures.saturating_add(1);
        if h.failures != self.budget || h.stopped.is_some() {
            return None;
        }
        let since = now_secs();
        let stop = Stop {
            failures: h.failures,
            since,
            until: since.saturating_add(self.cooldown.as_secs()),
        };
        h.stopped = Some((Instant::now() + self.cooldown, stop.clone()));
        Some(stop)
    }

    /// Why `host` is stopped, if it is; a host whose cool-down has passed
    /// starts over with a fresh budget.
    pub(crate) fn stopped(&self, host: &str) -> Option<Stop> {
        if self.budget == 0 {
            return None;
        }
        let mut map = self.hosts.lock().ok()?;
        let (until, stop) = map.get(host)?.stopped.clone()?;
        if Instant::now() >= until {
            map.remove(host);
            return None;
        }
        Some(stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_failures_stops_a_host_and_a_success_resets_it() {
        let b = ErrorBudget::new(3, Duration::from_secs(600));
        assert!(b.record("a", true).is_none());
        assert!(b.record("a", true).is_none());
        assert!(b.record("a", false).is_none(), "reset");
        assert!(b.record("a", true).is_none() && b.record("a", true).is_none());
        assert!(b.stopped("a").is_none());
        let stop = b.record("a", true).expect("the third in a row spends it");
        assert_eq!(stop.failures, 3);
        assert!(stop.until >= stop.since + 600);
        assert_eq!(b.stopped("a"), Some(stop));
        assert!(b.stopped("b").is_none());
        assert!(b.record("a", true).is_none(), "reported once");
        let off = ErrorBudget::new(0, Duration::from_secs(600));
        for _ in 0..10 {
            off.record("a", true);
        }
        assert!(off.stopped("a").is_none());
    }

    #[test]
    fn a_stopped_host_starts_over_after_its_cool_down() {
        let b = ErrorBudget::new(2, Duration::from_millis(50));
        b.record("a", true);
        assert!(b.record("a", true).is_some());
        assert!(b.stopped("a").is_some());
        std::thread::sleep(Duration::from_millis(80));
        assert!(b.stopped("a").is_none(), "cooled down");
        assert!(b.record("a", true).is_none(), "a fresh budget");
    }
}
