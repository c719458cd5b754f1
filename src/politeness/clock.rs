//! The per-host request clock: every request trawl sends to a host — a page,
//! each hop of its redirects, a retry, robots.txt (and its redirects), a
//! sitemap — first takes a turn here. A turn is booked under a lock (so two
//! tasks never get the same slot) and then waited for; the next turn of the
//! host comes `delay` after it.
//!
//! The frontier hands out URLs only when their host is due, so a page's
//! first request rarely waits; what waits here are the requests the
//! frontier does not see (hops, robots.txt before the page).
//!
//! Booked times are written to the store (wall-clock milliseconds), so
//! spacing holds across restarts. sled makes a write durable only at its
//! next flush, so after a crash the last booking of a host may be missing or
//! early by up to a flush interval: a start after an unclean stop adds that
//! margin to every stored time and, for hosts with none, waits the minimum
//! delay from the start.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::store::Store;

/// sled's flush interval: what a crash can lose.
pub const FLUSH_MARGIN: Duration = Duration::from_millis(600);

/// Hosts kept in memory before finished turns are dropped (they stay in the store).
const KEEP_HOSTS: usize = 100_000;

fn wall_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// When each host may be sent its next request.
pub struct Clock {
    next: Mutex<HashMap<String, Instant>>,
    store: Store,
    min_delay: Duration,
    /// Set after an unclean stop: stored times may be a flush interval early.
    margin: Duration,
    started: Instant,
}

impl Clock {
    /// `clean_start`: the store was closed by a clean shutdown last time.
    pub fn new(store: Store, min_delay: Duration, clean_start: bool) -> Clock {
        Clock {
            next: Mutex::new(HashMap::new()),
            store,
            min_delay,
            margin: if clean_start {
                Duration::ZERO
            } else {
                FLUSH_MARGIN
            },
            started: Instant::now(),
        }
    }

    /// When `host` may be sent a request, from the store when not in memory.
    pub fn due(&self, host: &str) -> Instant {
        if let Some(at) = self.next.lock().ok().and_then(|m| m.get(host).copied()) {
            return at;
        }
        self.stored(host)
    }

    fn stored(&self, host: &str) -> Instant {
        let now = Instant::now();
        match self.store.host_time(host) {
            Ok(Some((last_ms, delay_ms))) => {
                let due_ms = last_ms.saturating_add(u64::from(delay_ms));
                let ahead = Duration::from_millis(due_ms.saturating_sub(wall_ms()));
                if self.margin.is_zero() {
                    now + ahead
                } else {
                    now + ahead + self.margin
                }
            }
            // Unknown: after a crash it may have been contacted just before.
            _ if !self.margin.is_zero() => self.started + self.min_delay + self.margin,
            _ => now,
        }
    }

    /// Books the host's next turn, waits for it, and returns; the turn after
    /// comes `delay` later.
    pub async fn turn(&self, host: &str, delay: Duration) {
        let at = self.book(host, delay);
        tokio::time::sleep_until(at.into()).await;
    }

    /// Books a turn without waiting (the caller waits until the returned instant).
    pub fn book(&self, host: &str, delay: Duration) -> Instant {
        let now = Instant::now();
        let known = self.next.lock().ok().and_then(|m| m.get(host).copied());
        let due = known.unwrap_or_else(|| self.stored(host));
        let at = {
            let Ok(mut map) = self.next.lock() else {
                return now.max(due);
            };
            if map.len() >= KEEP_HOSTS {
                map.retain(|_, t| *t > now);
            }
            let slot = map.entry(host.to_string()).or_insert(due);
            let at = (*slot).max(now);
            *slot = at + delay;
            at
        };
        let when_ms = wall_ms().saturating_add(at.duration_since(now).as_millis() as u64);
        let delay_ms = u32::try_from(delay.as_millis()).unwrap_or(u32::MAX);
        if let Err(e) = self.store.put_host_time(host, when_ms, delay_ms) {
            // Spacing still holds in this run; only a restart could come early.
            tracing::warn!(host, error = %e, "host request time not stored");
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("trawl-clock-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d); // leftovers of an earlier run
        d
    }

    #[test]
    fn turns_are_spaced_and_survive_a_reopen() {
        let dir = tmp("spacing");
        let ms = Duration::from_millis;
        {
            let store = Store::open(&dir, 1 << 20).expect("open");
            let c = Clock::new(store.clone(), ms(100), true);
            let t0 = Instant::now();
            let a = c.book("a.test", ms(300));
            let b = c.book("a.test", ms(300));
            let other = c.book("b.test", ms(300));
            assert!(a <= t0 + ms(20), "first turn now");
            assert!(b.duration_since(a) >= ms(300), "second waits the delay");
            assert!(other <= t0 + ms(20), "hosts are independent");
            store.flush_blocking().expect("flush");
        }
        let store = Store::open(&dir, 1 << 20).expect("reopen");
        let c = Clock::new(store, ms(100), true);
        let due = c.due("a.test");
        assert!(
            due > Instant::now() + ms(300),
            "the booked second turn and its delay hold after a restart"
        );
        let unclean = Clock::new(
            Store::open(&tmp("unclean"), 1 << 20).expect("open"),
            ms(100),
            false,
        );
        assert!(
            unclean.due("new.test") >= unclean.started + ms(100),
            "unknown hosts wait after a crash"
        );
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }
}
