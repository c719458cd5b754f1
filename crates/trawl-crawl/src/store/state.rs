//! The queue's in-memory state, behind the store's one lock, and the room
//! a host has earned in the frontier.

use std::collections::HashMap;
use std::time::Instant;

use super::seen;

/// The frontier room a host has earned: it may have had `floor +
/// per_page × (its pages fetched)` URLs queued in all (`crawl.max_queued_per_host`,
/// `crawl.queued_per_page`), so a site that links every page to thousands of
/// new ones cannot fill the frontier faster than it is crawled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueCap {
    /// URLs any host may have queued before it has earned more.
    pub floor: u64,
    /// More for each page of the host fetched.
    pub per_page: u64,
}

impl QueueCap {
    /// The URLs a host with `fetched` pages may have had queued.
    pub fn room(&self, fetched: u64) -> u64 {
        self.floor
            .saturating_add(self.per_page.saturating_mul(fetched))
    }
}

/// Queue state shared by the writer and the scheduler, behind one lock.
pub(super) struct QueueState {
    pub seen: seen::Seen,
    /// URLs in the inbox.
    pub inbox: u64,
    pub last_merge: Instant,
    /// Hosts that got blocks since the scheduler last asked.
    pub new_hosts: Vec<String>,
    pub known_hosts: std::collections::HashSet<[u8; 8]>,
    /// Blocks handed to the scheduler → URLs in them not completed yet.
    pub open_blocks: HashMap<Vec<u8>, u32>,
    /// Blocks with a sequence number below this were written by an earlier
    /// run and may hold URLs that were completed before a crash.
    pub session_seq: u64,
    /// URLs in the inbox and blocks.
    pub queued: u64,
    /// How many URLs a host may have had queued (`None`: no bound).
    pub cap: Option<QueueCap>,
    /// URLs left out this run because their host had used its room.
    pub capped: u64,
}
