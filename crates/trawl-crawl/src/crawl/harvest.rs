//! The harvest rate: the share of judged pages that are relevant.
//!
//! The measure of a focused crawl. Kept overall, over the last
//! [`WINDOW`] pages (how the crawl is doing now) and per host, served in
//! `/status`, and appended every `focus.series_every` judged pages to
//! `<data_dir>/harvest.jsonl` so a run's curve can be plotted afterwards.
//! With `focus.stop_below`, it also says when the crawl stopped paying: the
//! harvest over the last [`WINDOW`] pages judged in this run fell below it.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;

/// Pages in the recent window.
pub(crate) const WINDOW: usize = 200;
/// Hosts listed in a snapshot (the most judged first).
const TOP_HOSTS: usize = 20;

#[derive(Debug, Default)]
struct Inner {
    judged: u64,
    relevant: u64,
    recent: VecDeque<bool>,
    hosts: HashMap<String, (u64, u64)>,
    /// Series points of this run: (judged, rate), every `series_every`.
    curve: Vec<(u64, f64)>,
}

/// Points of the curve kept in memory; past it every other one is dropped.
const CURVE_POINTS: usize = 400;

#[derive(Debug)]
/// The harvest rate of a focused crawl: overall, recent, per host, and its series file.
pub(crate) struct Harvest {
    inner: Mutex<Inner>,
    series: Option<PathBuf>,
    every: u64,
    /// `focus.stop_below` (0: never).
    stop_below: f32,
    /// Why the crawl stopped paying, once it did: read on every fetch and
    /// scheduler turn, so without the lock.
    stopped: OnceLock<String>,
}

/// Harvest figures at one moment.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize, PartialEq)]
#[serde(default)]
pub struct HarvestSnapshot {
    /// Pages judged for relevance.
    pub judged: u64,
    /// Pages judged relevant.
    pub relevant: u64,
    /// `relevant / judged`.
    pub rate: f64,
    /// Over the last `WINDOW` judged pages.
    pub recent_rate: f64,
    /// The most judged hosts: (host, judged, relevant, rate).
    pub hosts: Vec<(String, u64, u64, f64)>,
    /// The harvest rate's curve in this run: (judged, rate) every
    /// `focus.series_every` judged pages (thinned past 400 points).
    pub curve: Vec<(u64, f64)>,
    /// Why the crawl stopped fetching new pages (`focus.stop_below`), if it did.
    pub stopped: Option<String>,
}

fn rate(rel: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        rel as f64 / n as f64
    }
}

impl Harvest {
    /// `judged`/`relevant`: totals of earlier runs (from the store), so the
    /// overall rate continues across restarts.
    pub(crate) fn new(series: Option<PathBuf>, every: u64, judged: u64, relevant: u64) -> Harvest {
        Harvest {
            inner: Mutex::new(Inner {
                judged,
                relevant,
                ..Inner::default()
            }),
            series,
            every: every.max(1),
            stop_below: 0.0,
            stopped: OnceLock::new(),
        }
    }

    /// Stops the crawl once the harvest over the last [`WINDOW`] pages
    /// judged in this run is below `floor` (0: never).
    pub(crate) fn with_stop_below(mut self, floor: f32) -> Harvest {
        self.stop_below = floor;
        self
    }

    /// How well a host's judged pages paid in this run: the
    /// Laplace-smoothed share that were relevant (0.5 before any).
    pub(crate) fn host_weight(&self, host: &str) -> f32 {
        let (n, r) = self
            .inner
            .lock()
            .ok()
            .and_then(|g| g.hosts.get(host).copied())
            .unwrap_or((0, 0));
        (r as f32 + 1.0) / (n as f32 + 2.0)
    }

    /// Why the crawl stopped paying, once it did.
    pub(crate) fn stopped(&self) -> Option<&str> {
        self.stopped.get().map(String::as_str)
    }

    /// Counts a judged page; appends a series point when one is due.
    pub(crate) fn judge(&self, host: &str, relevant: bool) {
        let point = {
            let Ok(mut g) = self.inner.lock() else {
                return;
            };
            g.judged += 1;
            g.relevant += u64::from(relevant);
            g.recent.push_back(relevant);
            if g.recent.len() > WINDOW {
                g.recent.pop_front();
            }
            let h = g.hosts.entry(host.to_string()).or_default();
            h.0 += 1;
            h.1 += u64::from(relevant);
            if self.stop_below > 0.0 && self.stopped.get().is_none() && g.recent.len() >= WINDOW {
                let recent = rate(
                    g.recent.iter().filter(|r| **r).count() as u64,
                    WINDOW as u64,
                );
                if recent < f64::from(self.stop_below) {
                    let why = format!(
                        "focus stopped paying: harvest {recent:.3} over the last {WINDOW} judged \
                         pages is below focus.stop_below = {}",
                        self.stop_below
                    );
                    tracing::warn!(
                        judged = g.judged,
                        "{why}; no new pages are fetched (queued URLs are kept for the next start)"
                    );
                    let _ = self.stopped.set(why); // set once, under the lock
                }
            }
            let due = g.judged % self.every == 0;
            if due {
                let point = (g.judged, rate(g.relevant, g.judged));
                g.curve.push(point);
                if g.curve.len() > CURVE_POINTS {
                    let thinned = g.curve.iter().copied().step_by(2).collect();
                    g.curve = thinned;
                }
            }
            due.then(|| self.snap(&g))
        };
        if let (Some(p), Some(path)) = (point, &self.series) {
            let line = serde_json::json!({
                "at": crate::record::now_secs(),
                "judged": p.judged,
                "relevant": p.relevant,
                "rate": p.rate,
                "recent_rate": p.recent_rate,
                "hosts": p.hosts,
            });
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| writeln!(f, "{line}"));
            if let Err(e) = written {
                tracing::warn!(path = %path.display(), error = %e, "harvest series not written");
            }
        }
    }

    fn snap(&self, g: &Inner) -> HarvestSnapshot {
        let mut hosts: Vec<_> = g
            .hosts
            .iter()
            .map(|(h, &(n, r))| (h.clone(), n, r, rate(r, n)))
            .collect();
        hosts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        hosts.truncate(TOP_HOSTS);
        let recent = g.recent.iter().filter(|r| **r).count() as u64;
        HarvestSnapshot {
            judged: g.judged,
            relevant: g.relevant,
            rate: rate(g.relevant, g.judged),
            recent_rate: rate(recent, g.recent.len() as u64),
            hosts,
            curve: g.curve.clone(),
            stopped: self.stopped.get().cloned(),
        }
    }

    /// The figures now (`None` before the first judged page).
    pub(crate) fn snapshot(&self) -> Option<HarvestSnapshot> {
        self.inner.lock().ok().map(|g| self.snap(&g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_overall_recent_per_host_and_a_series() {
        let dir = std::env::temp_dir().join(format!("trawl-harvest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("harvest.jsonl");
        let h = Harvest::new(Some(path.clone()), 2, 10, 5);
        h.judge("a.test", true);
        h.judge("b.test", false);
        h.judge("a.test", true);
        let s = h.snapshot().expect("snapshot");
        assert_eq!((s.judged, s.relevant), (13, 7));
        assert!((s.recent_rate - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.hosts[0], ("a.test".into(), 2, 2, 1.0));
        let series = std::fs::read_to_string(&path).expect("series");
        assert_eq!(series.lines().count(), 1, "one point at 12 judged");
        assert!(series.contains("\"judged\":12"), "{series}");
        assert_eq!(s.curve, vec![(12, 6.0 / 12.0)], "the curve in memory");
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn a_crawl_that_stops_paying_says_so_once_the_window_is_full() {
        let h = Harvest::new(None, 100, 0, 0).with_stop_below(0.1);
        for i in 0..WINDOW {
            h.judge("a.test", i % 5 == 0); // 0.2: paying
        }
        assert_eq!(h.stopped(), None);
        for _ in 0..WINDOW - 10 {
            h.judge("a.test", false);
        }
        let why = h.stopped().expect("stopped");
        assert!(why.contains("focus.stop_below = 0.1"), "{why}");
        assert_eq!(h.snapshot().and_then(|s| s.stopped).as_deref(), Some(why));
        let never = Harvest::new(None, 100, 0, 0);
        for _ in 0..WINDOW {
            never.judge("a.test", false);
        }
        assert_eq!(never.stopped(), None, "0: never stops");
    }
}
