//! The crawl frontier: which URL to fetch next.
//!
//! URLs live in the store (an inbox and per-host blocks in sled, so memory
//! stays flat however large the crawl); this module keeps a small in-memory
//! schedule of hosts: when each may be fetched again (politeness), how many
//! of its fetches are in flight, and the rest of the block it is serving
//! (at most 32 URLs). `next` hands out the best-priority URL of a ready host;
//! hosts take turns, so one slow or huge host never starves the others.

pub(crate) mod url;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::time::{Duration, Instant};

use crate::store::{host_hash, QueuedUrl, Store, StoreError};

/// Scheduling state of one host.
#[derive(Debug, Clone)]
pub struct HostSlot {
    /// Host key.
    pub name: String,
    /// No request before this.
    pub next_allowed: Instant,
    /// Its URLs being fetched now.
    pub inflight: usize,
    /// Whether it is in one of the heaps (it has, or may have, queued URLs).
    scheduled: bool,
    /// In the priority heap (allowed now), under this generation; older
    /// entries of the host there are stale.
    in_best: bool,
    generation: u64,
    /// Priority ranks of its fetches in flight, oldest first.
    flying: Vec<u16>,
    /// Rank of its best queued URL as last read (page budget only).
    head: Option<u16>,
    /// The block being served and its URLs not handed out yet.
    block: Vec<u8>,
    cursor: VecDeque<QueuedUrl>,
}

/// A leased URL.
#[derive(Debug, Clone)]
pub struct Lease {
    /// The store block it came from (passed back to [`Store::complete`]).
    pub key: Vec<u8>,
    /// Host key.
    pub host: String,
    /// The URL and its queue data.
    pub item: QueuedUrl,
}

/// What `next` found.
#[derive(Debug)]
pub enum Next {
    /// A URL to fetch now.
    Url(Lease),
    /// Nothing ready now; the earliest host is ready at this instant.
    Wait(Instant),
    /// No host has queued URLs and nothing is in flight elsewhere.
    Empty,
}

/// How long a patient frontier waits before looking again (completions
/// wake the scheduler sooner).
const PATIENCE_WAIT: Duration = Duration::from_millis(20);

/// With pages as the budget, a host held off longer than this (a
/// `Retry-After`, a stopped host) does not hold the others back.
const HEAD_HORIZON: Duration = Duration::from_secs(60);

/// The single-machine frontier: per-host queues in the store, served by priority as each host's politeness allows.
pub struct Frontier {
    store: Store,
    hosts: HashMap<[u8; 8], HostSlot>,
    /// Hosts waiting for their next allowed fetch time, soonest first.
    waiting: BinaryHeap<Reverse<(Instant, u64, [u8; 8])>>,
    /// Hosts allowed now, by the priority of their best URL, then FIFO.
    best: BinaryHeap<(u16, Reverse<u64>, [u8; 8], u64)>,
    tick: u64,
    max_inflight_per_host: usize,
    /// A host's own limit of fetches in flight (see [`Frontier::set_limits`]).
    limits: Option<HostLimits>,
    /// Priority ranks of all fetches in flight → count.
    flying: std::collections::BTreeMap<u16, usize>,
    /// See [`Frontier::set_patience`].
    patience: f32,
    /// See [`Frontier::set_page_budget`]: hosts by the rank of their best
    /// queued URL (empty when time is the budget).
    page_budget: bool,
    heads: std::collections::BTreeSet<(u16, [u8; 8])>,
    /// See [`Frontier::set_host_weights`].
    weights: Option<HostWeights>,
}

/// Fetches in flight a host may have at once, by host key.
pub type HostLimits = Box<dyn Fn(&str) -> usize + Send + Sync>;

/// How well a host has paid so far, in (0, 1], by host key (page budget).
pub type HostWeights = Box<dyn Fn(&str) -> f32 + Send + Sync>;

fn rank_of(p: f32) -> u16 {
    (p.clamp(0.0, 1.0) * f32::from(u16::MAX)) as u16
}

impl Frontier {
    /// Rebuilds the schedule from the store's hosts.
    pub fn new(store: Store, max_inflight_per_host: usize) -> Result<Frontier, StoreError> {
        let mut f = Frontier {
            store,
            hosts: HashMap::new(),
            waiting: BinaryHeap::new(),
            best: BinaryHeap::new(),
            tick: 0,
            max_inflight_per_host: max_inflight_per_host.max(1),
            limits: None,
            flying: Default::default(),
            patience: 0.0,
            page_budget: false,
            heads: Default::default(),
            weights: None,
        };
        let now = Instant::now();
        for (key, name) in f.store.hosts()? {
            if f.store.host_has_queue(&key)? {
                f.slot(key, &name);
                f.schedule(key, now);
            }
        }
        Ok(f)
    }

    /// Each host's own limit of fetches in flight (a seed's or a site's
    /// `concurrency`), in place of the one given to [`Frontier::new`].
    pub fn set_limits(&mut self, limits: HostLimits) {
        self.limits = Some(limits);
    }

    fn slot(&mut self, key: [u8; 8], name: &str) -> &mut HostSlot {
        self.hosts.entry(key).or_insert_with(|| HostSlot {
            name: name.to_string(),
            next_allowed: Instant::now(),
            inflight: 0,
            scheduled: false,
            in_best: false,
            generation: 0,
            flying: Vec::new(),
            head: None,
            block: Vec::new(),
            cursor: VecDeque::new(),
        })
    }

    fn schedule(&mut self, key: [u8; 8], at: Instant) {
        if let Some(slot) = self.hosts.get_mut(&key) {
            if !slot.scheduled {
                slot.scheduled = true;
                self.tick += 1;
                self.waiting
                    .push(Reverse((at.max(slot.next_allowed), self.tick, key)));
            }
        }
    }

    /// Priority of the URL a host would serve next (`None`: nothing
    /// queued), weighted by how the host has paid (page budget).
    fn host_priority(&self, key: &[u8; 8]) -> Result<Option<f32>, StoreError> {
        let slot = self.hosts.get(key);
        let p = match slot.and_then(|s| s.cursor.front()) {
            Some(item) => Some(item.priority),
            None => self.store.peek_priority(key)?,
        };
        Ok(p.map(|p| p * self.weight(slot.map(|s| s.name.as_str()))))
    }

    /// A host's weight: 1 unless pages are the budget and weights are set.
    fn weight(&self, host: Option<&str>) -> f32 {
        match (&self.weights, host) {
            (Some(w), Some(h)) if self.page_budget => w(h).clamp(0.0, 1.0),
            _ => 1.0,
        }
    }

    /// Puts an allowed host in the priority heap (again, if its priority
    /// may have changed), or drops it from the schedule if it has nothing.
    fn rank(&mut self, key: [u8; 8]) -> Result<(), StoreError> {
        let p = self.host_priority(&key)?;
        self.note_head(key, p);
        self.tick += 1;
        let tick = self.tick;
        let Some(slot) = self.hosts.get_mut(&key) else {
            return Ok(());
        };
        match p {
            Some(p) => {
                slot.generation += 1;
                slot.in_best = true;
                slot.scheduled = true;
                self.best
                    .push((rank_of(p), Reverse(tick), key, slot.generation));
            }
            None => {
                slot.in_best = false;
                slot.scheduled = false; // drained; rescheduled by host_has_work
            }
        }
        Ok(())
    }

    /// With patience p in (0, 1], a URL is handed out only if its priority
    /// is at least p times the best priority in flight (or nothing is in
    /// flight): a focused crawl waits for promising pages' links instead of
    /// spending its budget on unpromising ones. 0 (the default) fills every
    /// free slot.
    pub fn set_patience(&mut self, p: f32) {
        self.patience = if p.is_finite() {
            p.clamp(0.0, 1.0)
        } else {
            0.0
        };
    }

    /// Pages as the budget (`focus.budget = "pages"`): patience compares a
    /// URL with the best URL queued at any host — hosts waiting for their
    /// politeness delay or busy with their fetches in flight included — not
    /// only with the fetches in flight. A fetch slot then stays idle rather
    /// than go to a host with nothing near as good as the best hosts hold.
    pub fn set_page_budget(&mut self, on: bool) {
        self.page_budget = on;
        if !on {
            self.heads.clear();
        }
    }

    /// With pages as the budget, hosts are served by their URLs' priority
    /// times the host's weight (how well its judged pages paid so far), so
    /// a host whose pages keep failing the relevance test gets fewer fetches.
    pub fn set_host_weights(&mut self, weights: HostWeights) {
        self.weights = Some(weights);
    }

    /// Records the rank of a host's best queued URL (page budget only).
    fn note_head(&mut self, key: [u8; 8], p: Option<f32>) {
        if !self.page_budget {
            return;
        }
        let Some(slot) = self.hosts.get_mut(&key) else {
            return;
        };
        let new = p.map(rank_of);
        if slot.head != new {
            if let Some(old) = slot.head {
                self.heads.remove(&(old, key));
            }
            if let Some(r) = new {
                self.heads.insert((r, key));
            }
            slot.head = new;
        }
    }

    /// What patience compares a URL with: the best rank in flight and, with
    /// pages as the budget, the best queued at a host that may be sent a
    /// request within [`HEAD_HORIZON`].
    fn reference(&self, now: Instant) -> Option<u16> {
        let flying = self.flying.last_key_value().map(|(&r, _)| r);
        let horizon = now + HEAD_HORIZON;
        let queued = self
            .heads
            .iter()
            .rev()
            .find(|(_, k)| self.hosts.get(k).is_some_and(|s| s.next_allowed <= horizon))
            .map(|&(r, _)| r);
        flying.max(queued)
    }

    /// Tells the frontier that `host` got new URLs.
    pub fn host_has_work(&mut self, host: &str) {
        let key = host_hash(host);
        if self.page_budget {
            if let Ok(p) = self.host_priority(&key) {
                self.slot(key, host);
                self.note_head(key, p);
            }
        }
        let slot = self.slot(key, host);
        if slot.in_best {
            // Its best URL may be better now; a failed read only leaves the
            // old rank, which is still a valid (stale) entry.
            let _ = self.rank(key);
        } else {
            let at = slot.next_allowed;
            self.schedule(key, at);
        }
    }

    /// The next URL to fetch. Merges newly found URLs into the schedule
    /// when due, and always before reporting that nothing is ready.
    pub fn next(&mut self, now: Instant) -> Result<Next, StoreError> {
        let (hosts, mut due) = self.store.maintain(false)?;
        for h in hosts {
            self.host_has_work(&h);
        }
        let mut merged = false;
        loop {
            let found = self.next_ready(now)?;
            if matches!(found, Next::Url(_)) || merged || due.is_none() {
                return Ok(match (found, due) {
                    (Next::Wait(at), Some(d)) => Next::Wait(at.min(d.max(now))),
                    (Next::Empty, Some(d)) => Next::Wait(d.max(now)),
                    (found, _) => found,
                });
            }
            // Nothing ready: schedule what the inbox holds, then look again.
            let (hosts, d) = self.store.maintain(true)?;
            for h in hosts {
                self.host_has_work(&h);
            }
            due = d;
            merged = true;
        }
    }

    fn next_ready(&mut self, now: Instant) -> Result<Next, StoreError> {
        // Hosts whose wait is over join the priority heap.
        while let Some(Reverse((at, _, key))) = self.waiting.peek().copied() {
            if at > now {
                break;
            }
            self.waiting.pop();
            let Some(slot) = self.hosts.get_mut(&key) else {
                continue;
            };
            if slot.next_allowed > now {
                slot.scheduled = false;
                let at = slot.next_allowed;
                self.schedule(key, at);
                continue;
            }
            self.rank(key)?;
        }
        while let Some(entry) = self.best.pop() {
            let (rank, _, key, generation) = entry;
            let Some(slot) = self.hosts.get(&key) else {
                continue;
            };
            if !slot.in_best || slot.generation != generation {
                continue; // a stale entry
            }
            // Patience: rather than spend a fetch on a URL far below what is
            // in flight (or, with pages as the budget, queued elsewhere),
            // wait for those fetches' links or for those hosts' turns.
            if let Some(top) = self.reference(now) {
                if f32::from(rank) < self.patience * f32::from(top) {
                    self.best.push(entry);
                    return Ok(Next::Wait(now + PATIENCE_WAIT));
                }
            }
            let w = self.weight(Some(&slot.name));
            let Some(slot) = self.hosts.get_mut(&key) else {
                continue;
            };
            slot.in_best = false;
            slot.scheduled = false;
            if slot.next_allowed > now {
                let at = slot.next_allowed;
                self.schedule(key, at);
                continue;
            }
            let limit = self
                .limits
                .as_ref()
                .map_or(self.max_inflight_per_host, |f| f(&slot.name).max(1));
            if slot.inflight >= limit {
                // Rescheduled when a fetch of this host finishes.
                continue;
            }
            if slot.cursor.is_empty() {
                match self.store.next_block(&key)? {
                    Some(block) => {
                        slot.block = block.key;
                        slot.cursor = block.items.into();
                    }
                    None => continue, // drained; rescheduled by host_has_work
                }
            }
            let Some(item) = slot.cursor.pop_front() else {
                continue;
            };
            slot.inflight += 1;
            let r = rank_of(item.priority * w);
            slot.flying.push(r);
            *self.flying.entry(r).or_default() += 1;
            let lease = Lease {
                key: slot.block.clone(),
                host: slot.name.clone(),
                item,
            };
            if slot.inflight < limit {
                // More fetches of this host may run at once: it stays ranked.
                self.rank(key)?;
            } else if self.page_budget {
                let p = self.host_priority(&key)?;
                self.note_head(key, p);
            }
            return Ok(Next::Url(lease));
        }
        if let Some(Reverse((at, _, _))) = self.waiting.peek() {
            return Ok(Next::Wait(*at));
        }
        Ok(if self.hosts.values().any(|s| s.inflight > 0) {
            Next::Wait(now + Duration::from_millis(50))
        } else {
            Next::Empty
        })
    }

    /// A fetch of `host` finished; it may go again after `delay` (measured
    /// from now). Reschedules the host if it still has queued URLs.
    pub fn finished(&mut self, host: &str, delay: Duration) -> Result<(), StoreError> {
        let key = host_hash(host);
        let now = Instant::now();
        let slot = self.slot(key, host);
        slot.inflight = slot.inflight.saturating_sub(1);
        if !slot.flying.is_empty() {
            let r = slot.flying.remove(0);
            if let std::collections::btree_map::Entry::Occupied(mut e) = self.flying.entry(r) {
                *e.get_mut() -= 1;
                if *e.get() == 0 {
                    e.remove();
                }
            }
        }
        let slot = self.slot(key, host);
        slot.next_allowed = slot.next_allowed.max(now + delay);
        if !slot.cursor.is_empty() || self.store.host_has_queue(&key)? {
            let at = self.hosts.get(&key).map_or(now, |s| s.next_allowed);
            self.schedule(key, at);
        }
        Ok(())
    }

    /// Holds a host off until `until` (robots 5xx, 429, 503).
    pub fn hold(&mut self, host: &str, until: Instant) {
        let key = host_hash(host);
        let slot = self.slot(key, host);
        slot.next_allowed = slot.next_allowed.max(until);
    }

    /// URLs of `host` not done yet (in flight, the rest of the block being
    /// served and its other blocks, as the crawl's `queue` counts them),
    /// reading up to `max_blocks` blocks, and whether it has more than that.
    pub fn queued(&self, host: &str, max_blocks: usize) -> Result<(u64, bool), StoreError> {
        let key = host_hash(host);
        let serving = self
            .hosts
            .get(&key)
            .map_or(0, |s| (s.cursor.len() + s.inflight) as u64);
        let (n, more) = self.store.host_queued(&key, max_blocks)?;
        Ok((n + serving, more))
    }

    /// Hosts waiting for their politeness delay, and hosts known.
    pub fn host_counts(&self, now: Instant) -> (usize, usize) {
        let waiting = self.hosts.values().filter(|s| s.next_allowed > now).count();
        (waiting, self.hosts.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{NewUrl, QueuedUrl, UrlKind};

    fn new_url(host: &str, path: &str, priority: f32) -> NewUrl {
        NewUrl {
            item: QueuedUrl {
                url: format!("http://{host}{path}"),
                depth: 1,
                seed: 1,
                attempt: 0,
                kind: UrlKind::Page,
                priority,
                features: None,
                revisit: None,
            },
            host: host.to_string(),
        }
    }

    /// A rich host waits for its politeness delay; a poor one is free. With
    /// time as the budget the free slot goes to the poor host; with pages as
    /// the budget it stays idle until the rich host's turn.
    #[test]
    fn with_pages_as_the_budget_a_slot_waits_for_the_best_hosts_turn() {
        for page_budget in [false, true] {
            let dir = std::env::temp_dir().join(format!(
                "trawl-frontier-budget-{}-{page_budget}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
            let store = Store::open(&dir, 8 << 20).expect("store");
            let urls = [
                new_url("rich.test", "/1", 0.9),
                new_url("rich.test", "/2", 0.8),
                new_url("poor.test", "/1", 0.1),
            ];
            store.enqueue(&urls).expect("enqueue");
            let mut f = Frontier::new(store.clone(), 1).expect("frontier");
            f.set_patience(0.5);
            f.set_page_budget(page_budget);
            // A second on: hosts are scheduled from when they are first seen.
            let now = Instant::now() + Duration::from_secs(1);
            let Ok(Next::Url(first)) = f.next(now) else {
                panic!("a URL first");
            };
            assert_eq!(first.host, "rich.test");
            store.release(&first.key).expect("release");
            f.finished("rich.test", Duration::from_secs(5))
                .expect("finished");
            match f.next(now).expect("next") {
                Next::Url(l) => {
                    assert!(!page_budget, "page budget served {}", l.item.url);
                    assert_eq!(l.host, "poor.test");
                }
                Next::Wait(_) => assert!(page_budget, "time budget left a slot idle"),
                Next::Empty => panic!("URLs are queued"),
            }
            // Once the rich host may go again, it is served.
            let later = Instant::now() + Duration::from_secs(7);
            if page_budget {
                let Ok(Next::Url(l)) = f.next(later) else {
                    panic!("the rich host's turn");
                };
                assert_eq!(l.item.url, "http://rich.test/2");
            }
            drop(f);
            drop(store);
            let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
        }
    }
}
