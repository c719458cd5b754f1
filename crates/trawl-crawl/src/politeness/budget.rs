//! The per-host error budget: a host whose pages keep failing (404s from
//! links resolved wrongly, a site gone, a trap of dead URLs) must not keep
//! a crawler busy. After `budget` page fetches in a row that failed (4xx,
//! 5xx or no answer, after retries), the host is stopped for the rest of
//! the run: its queued URLs are dropped unfetched and links to it are not
//! queued. One success resets the count. Kept in memory: a restart gives
//! every host a fresh budget.

use std::collections::HashMap;
use std::sync::Mutex;

/// Consecutive failures per host.
pub struct ErrorBudget {
    failures: Mutex<HashMap<String, u32>>,
    /// 0: no budget.
    budget: u32,
}

impl ErrorBudget {
    pub fn new(budget: u32) -> ErrorBudget {
        ErrorBudget {
            failures: Mutex::new(HashMap::new()),
            budget,
        }
    }

    /// Counts a page fetch of `host`. Returns true when this one spent the
    /// budget (the caller reports it, once).
    pub fn record(&self, host: &str, ok: bool) -> bool {
        if self.budget == 0 {
            return false;
        }
        let Ok(mut map) = self.failures.lock() else {
            return false;
        };
        if ok {
            map.remove(host);
            return false;
        }
        let n = map.entry(host.to_string()).or_insert(0);
        *n = n.saturating_add(1);
        *n == self.budget
    }

    /// Whether `host` has spent its budget.
    pub fn stopped(&self, host: &str) -> bool {
        self.budget > 0
            && self
                .failures
                .lock()
                .ok()
                .and_then(|m| m.get(host).copied())
                .is_some_and(|n| n >= self.budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_failures_stops_a_host_and_a_success_resets_it() {
        let b = ErrorBudget::new(3);
        assert!(!b.record("a", false));
        assert!(!b.record("a", false));
        assert!(!b.record("a", true), "reset");
        assert!(!b.record("a", false) && !b.record("a", false));
        assert!(!b.stopped("a"));
        assert!(b.record("a", false), "the third in a row spends it");
        assert!(b.stopped("a") && !b.stopped("b"));
        assert!(!b.record("a", false), "reported once");
        let off = ErrorBudget::new(0);
        for _ in 0..10 {
            off.record("a", false);
        }
        assert!(!off.stopped("a"));
    }
}
