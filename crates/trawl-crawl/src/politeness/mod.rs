//! Politeness: robots.txt rules and per-host delays. The frontier enforces
//! the schedule; this module decides the numbers: the delay between two
//! fetches of a host (the configured minimum, raised by Crawl-delay up to a
//! cap), and how long to back off after 429/503 or transient failures.

pub(crate) mod budget;
pub(crate) mod clock;
pub(crate) mod robots;

use std::time::Duration;

/// Delay settings.
#[derive(Debug, Clone)]
pub(crate) struct DelayRules {
    pub min_delay: Duration,
    pub max_crawl_delay: Duration,
    pub retry_base: Duration,
    pub retry_max: Duration,
}

impl DelayRules {
    /// Delay between fetches of a host with this Crawl-delay, at least
    /// `min_delay` (`crawl.min_delay_ms`, or a seed's own `delay=`).
    pub(crate) fn host_delay_from(
        &self,
        min_delay: Duration,
        crawl_delay: Option<f64>,
    ) -> Duration {
        let cd = crawl_delay
            .filter(|d| d.is_finite() && *d > 0.0)
            .map(|d| Duration::from_secs_f64(d.min(86_400.0)))
            .unwrap_or(Duration::ZERO);
        min_delay.max(cd.min(self.max_crawl_delay))
    }

    /// Exponential backoff for the n-th failed attempt (1-based).
    pub(crate) fn backoff(&self, attempt: u8) -> Duration {
        let factor = 1u32 << u32::from(attempt.saturating_sub(1)).min(16);
        self.retry_base.saturating_mul(factor).min(self.retry_max)
    }

    /// How long to hold a host after 429/503, honouring Retry-After (capped).
    pub(crate) fn retry_after(&self, header: Option<u64>, attempt: u8) -> Duration {
        match header {
            Some(s) => Duration::from_secs(s)
                .min(self.retry_max)
                .max(self.min_delay),
            None => self.backoff(attempt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays() {
        let r = DelayRules {
            min_delay: Duration::from_secs(1),
            max_crawl_delay: Duration::from_secs(10),
            retry_base: Duration::from_secs(2),
            retry_max: Duration::from_secs(60),
        };
        assert_eq!(r.host_delay_from(r.min_delay, None), Duration::from_secs(1));
        assert_eq!(
            r.host_delay_from(r.min_delay, Some(0.2)),
            Duration::from_secs(1)
        );
        assert_eq!(
            r.host_delay_from(r.min_delay, Some(5.0)),
            Duration::from_secs(5)
        );
        assert_eq!(
            r.host_delay_from(r.min_delay, Some(1e9)),
            Duration::from_secs(10)
        );
        // A seed's own minimum, slower or faster than the crawl's.
        let slow = Duration::from_millis(2500);
        assert_eq!(r.host_delay_from(slow, Some(0.2)), slow);
        assert_eq!(r.host_delay_from(Duration::ZERO, None), Duration::ZERO);
        assert_eq!(r.backoff(1), Duration::from_secs(2));
        assert_eq!(r.backoff(3), Duration::from_secs(8));
        assert_eq!(r.backoff(30), Duration::from_secs(60));
        assert_eq!(r.retry_after(Some(3), 1), Duration::from_secs(3));
        assert_eq!(r.retry_after(Some(99_999), 1), Duration::from_secs(60));
    }
}
