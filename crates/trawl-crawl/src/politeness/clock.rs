//! The per-host request clock: every request trawl sends to a host — a page,
//! each hop of its redirects, a retry, robots.txt (and its redirects), a
//! sitemap, a focus example URL — first takes a turn here. A turn is booked
//! under a lock (so two tasks never get the same slot) and then waited for;
//! it comes the host's delay, as known when booking (Crawl-delay once
//! robots.txt is read), after the host's previous request ended (its
//! response read or its failure seen), as StormCrawler and Heritrix count it.
//! Counting from the end, not from the booked start, keeps the gap the server
//! sees at least the delay even when a request reaches it late (a slow
//! connect, a busy machine).
//!
//! The frontier hands out URLs only when their host is due, so a page's
//! first request rarely waits; what waits here are the requests the
//! frontier does not see (hops, robots.txt before the page).
//!
//! Booked times are written to the store (wall-clock milliseconds), so
//! spacing holds across restarts. sled makes a write durable only at its
//! next flush, so after a crash the last booking of a host may be missing or
//! early by up to a flush interval: a start after an unclean stop treats
//! every host as contacted at the start at the latest.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::store::Store;

/// Hosts kept in memory before finished turns are dropped (they stay in the store).
const KEEP_HOSTS: usize = 100_000;

fn wall_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// When each host was last sent a request (or has one booked).
pub(crate) struct Clock {
    last: Mutex<HashMap<String, Instant>>,
    store: Store,
    /// Set after an unclean stop: stored times may be a flush interval early.
    unclean: bool,
    started: Instant,
}

impl Clock {
    /// `clean_start`: the store was closed by a clean shutdown last time.
    pub(crate) fn new(store: Store, clean_start: bool) -> Clock {
        Clock {
            last: Mutex::new(HashMap::new()),
            store,
            unclean: !clean_start,
            started: Instant::now(),
        }
    }

    /// The host's last request as stored by an earlier run (`None`: none).
    fn stored(&self, host: &str) -> Option<Instant> {
        let now = Instant::now();
        match self.store.host_time(host) {
            Ok(Some((last_ms, _))) => {
                let wall = wall_ms();
                let t = if last_ms >= wall {
                    now + Duration::from_millis(last_ms - wall)
                } else {
                    now.checked_sub(Duration::from_millis(wall - last_ms))
                        .unwrap_or(self.started)
                };
                // After a crash the last flush interval of bookings may be
                // lost: a host may have been sent a request just before the
                // start, whatever the store says.
                Some(if self.unclean { t.max(self.started) } else { t })
            }
            // Unknown: after a crash it may have been contacted just before.
            _ if self.unclean => Some(self.started),
            _ => None,
        }
    }

    /// Waits for the host's next turn: `delay` (the host's delay as known
    /// now, Crawl-delay included) after its last request.
    pub(crate) async fn turn(&self, host: &str, delay: Duration) {
        let at = self.book(host, delay);
        tokio::time::sleep_until(at.into()).await;
    }

    /// Books a turn without waiting (the caller waits until the returned instant).
    pub(crate) fn book(&self, host: &str, delay: Duration) -> Instant {
        let now = Instant::now();
        let known = self.last.lock().ok().and_then(|m| m.get(host).copied());
        let previous = known.or_else(|| self.stored(host));
        let at = {
            let Ok(mut map) = self.last.lock() else {
                return previous.map_or(now, |p| (p + delay).max(now));
            };
            if map.len() >= KEEP_HOSTS {
                // Old turns are in the store; only recent ones matter here.
                map.retain(|_, t| *t + Duration::from_secs(3600) > now);
            }
            let at = match map.get(host).copied().or(previous) {
                Some(last) => (last + delay).max(now),
                None => now,
            };
            map.insert(host.to_string(), at);
            at
        };
        self.persist(host, at, now, delay);
        at
    }

    /// Marks the end of a request to the host (response read, or failed):
    /// the next turn comes `delay` after now, or after the booked start if
    /// that is later (a turn booked by a request per host beyond the first).
    pub(crate) fn finished(&self, host: &str, delay: Duration) {
        let now = Instant::now();
        let Ok(mut map) = self.last.lock() else {
            return;
        };
        let at = map.get(host).map_or(now, |t| (*t).max(now));
        map.insert(host.to_string(), at);
        drop(map);
        self.persist(host, at, now, delay);
    }

    /// Stores the host's last (or booked) request time, so spacing holds
    /// across restarts.
    fn persist(&self, host: &str, at: Instant, now: Instant, delay: Duration) {
        let when_ms = wall_ms().saturating_add(at.duration_since(now).as_millis() as u64);
        let delay_ms = u32::try_from(delay.as_millis()).unwrap_or(u32::MAX);
        if let Err(e) = self.store.put_host_time(host, when_ms, delay_ms) {
            // Spacing still holds in this run; only a restart could come early.
            tracing::warn!(host, error = %e, "host request time not stored");
        }
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
        let booked = {
            let store = Store::open(&dir, 1 << 20).expect("open");
            let c = Clock::new(store.clone(), true);
            let t0 = Instant::now();
            let a = c.book("a.test", ms(100));
            let b = c.book("a.test", ms(300));
            let other = c.book("b.test", ms(300));
            assert!(a <= t0 + ms(20), "first turn now");
            assert!(
                b.duration_since(a) >= ms(300),
                "the second waits the delay known now"
            );
            assert!(other <= t0 + ms(20), "hosts are independent");
            store.flush_blocking().expect("flush");
            b
        };
        let store = Store::open(&dir, 1 << 20).expect("reopen");
        let c = Clock::new(store, true);
        // Regression (CI, seventieth session): measured from the reopen,
        // the bound failed when closing and reopening the store took over
        // 100 ms on a busy machine. The turn booked before the restart is
        // what the next one waits behind (less the store's millisecond
        // rounding).
        assert!(
            c.book("a.test", ms(300)) >= booked + ms(298),
            "the booked second turn holds after a restart"
        );
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
        let unclean = Clock::new(Store::open(&tmp("unclean"), 1 << 20).expect("open"), false);
        assert!(
            unclean.book("new.test", ms(100)) >= unclean.started + ms(100),
            "unknown hosts wait after a crash"
        );
    }

    /// Regression (CI, stop 29): a request that reached the server late
    /// left the next one, booked from its start, less than the delay behind
    /// it. The next turn now counts from the end of the request.
    #[test]
    fn the_next_turn_counts_from_the_end_of_the_request() {
        let c = Clock::new(Store::open(&tmp("end"), 1 << 20).expect("open"), true);
        let ms = Duration::from_millis;
        let start = c.book("a.test", ms(100));
        std::thread::sleep(ms(60)); // the request is slow to send and answer
        let end = Instant::now();
        c.finished("a.test", ms(100));
        let next = c.book("a.test", ms(100));
        assert!(
            next >= end + ms(100),
            "next turn {:?} after the end, want ≥ 100ms (start + delay would be {:?})",
            next.duration_since(end),
            (start + ms(100)).saturating_duration_since(end)
        );
        // A turn booked later than the end (a second request in flight) stays.
        let later = c.book("b.test", ms(100));
        let booked = c.book("b.test", ms(100));
        c.finished("b.test", ms(100));
        assert!(booked >= later + ms(100));
        assert!(c.book("b.test", ms(100)) >= booked + ms(100));
    }
}
