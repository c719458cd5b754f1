//! Revisits: a URL fetched before waits here until it is due again, then
//! goes back through the inbox into its host's queue (and its host's
//! schedule, like any URL). One entry per URL: the URL's outcome keeps when
//! it is due (`next_visit`), so a later schedule replaces the earlier one.
//!
//! Only entries that are due move: a daemon starting after a week away
//! offers what fell due meanwhile, not every URL it ever scheduled, and
//! one started right after a stop offers nothing early.
//!
//! Keys: `d` ++ due(8, seconds since the epoch, big-endian) ++
//! url-hash(16) → one inbox entry (host and the queued URL with its
//! revisit data).

use super::codec::{decode, encode};
use super::error::StoreError;
use super::handle::Store;
use super::layout::{key, url_hash, P};
use super::queue::{encode_inbox, RETRY};
use super::queued::{Again, Changed};
use super::queued::{QueuedUrl, Revisit};
use crate::record::PageOutcome;

pub(super) const D: u8 = b'd';

fn due_key(due: u64, url: &str) -> Vec<u8> {
    let mut rest = due.to_be_bytes().to_vec();
    rest.extend_from_slice(&url_hash(url));
    key(D, &rest)
}

impl Store {
    /// Schedules `again` in `batch`, replacing the URL's schedule due at
    /// `earlier` (from its outcome), if it had one.
    pub(super) fn schedule_into(
        batch: &mut sled::Batch,
        host: &str,
        again: &Again,
        earlier: Option<u64>,
    ) {
        if let Some(e) = earlier.filter(|&e| e != again.due) {
            batch.remove(due_key(e, &again.item.url));
        }
        batch.insert(
            due_key(again.due, &again.item.url),
            encode_inbox(&[(RETRY, host, &again.item)]),
        );
    }

    /// Removes the URL's schedule due at `due` in `batch` (it is queued
    /// now, or not revisited any more).
    pub(super) fn unschedule_into(batch: &mut sled::Batch, url: &str, due: u64) {
        batch.remove(due_key(due, url));
    }

    /// A conditional revisit, due `now`, in `batch`, of each known page in
    /// `changed` (but `hub`, the URL that said so) whose record was made
    /// before it changed and that is not due already (unknown pages are
    /// queued as links, elsewhere).
    pub(super) fn refresh_into(
        &self,
        batch: &mut sled::Batch,
        changed: &[Changed],
        hub: &str,
        now: u64,
    ) -> Result<(), StoreError> {
        for c in changed.iter().filter(|c| c.link.item.url != hub) {
            let page_key = key(P, &url_hash(&c.link.item.url));
            let Some(v) = self.kv.get(&page_key)? else {
                continue;
            };
            let mut o = decode::<PageOutcome>("pages", &v)?;
            let Some(record) = o.record else { continue };
            if o.fetched_at > c.at {
                continue;
            }
            if o.next_visit.is_some_and(|d| d <= now) {
                // Queued or under way: if that visit fetches the page
                // before the change, it completes with another at once.
                if o.changed_at.is_none_or(|t| t < c.at) {
                    o.changed_at = Some(c.at);
                    batch.insert(page_key, encode(&o));
                }
                continue;
            }
            let version = self.record(record)?.map_or(1, |r| r.version.unwrap_or(1));
            let again = check_now(&o, &c.link.item, record, version, now);
            Self::schedule_into(batch, &c.link.host, &again, o.next_visit);
            o.next_visit = Some(now);
            batch.insert(page_key, encode(&o));
        }
        Ok(())
    }

    /// URLs waiting for a revisit.
    pub fn revisits_len(&self) -> usize {
        self.kv.scan_prefix([D]).count()
    }

    /// When the earliest revisit is due (seconds since the epoch).
    pub fn next_revisit(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .kv
            .scan_prefix([D])
            .next()
            .transpose()?
            .and_then(|(k, _)| {
                k.get(1..9)
                    .and_then(|b| b.try_into().ok())
                    .map(u64::from_be_bytes)
            }))
    }

    /// Queues the revisits due at `now` or earlier; returns how many.
    pub fn due_revisits(&self, now: u64) -> Result<usize, StoreError> {
        self.offer_range(vec![D]..key(D, &now.saturating_add(1).to_be_bytes()))
    }
}

/// A conditional visit of `item`, due `now`, with the validators of its
/// last outcome `o` and its record `record` (at `version`).
pub(super) fn check_now(
    o: &PageOutcome,
    item: &QueuedUrl,
    record: u64,
    version: u32,
    now: u64,
) -> Again {
    Again {
        item: QueuedUrl {
            attempt: 0,
            revisit: Some(Box::new(Revisit {
                etag: o.etag.clone(),
                last_modified: o.last_modified.clone(),
                content_hash: o.content_hash.clone(),
                record: Some(record),
                version,
                visits: 1,
                ..Revisit::default()
            })),
            ..item.clone()
        },
        due: now,
    }
}

#[cfg(test)]
mod tests {
    use super::super::queued::{Completion, NewUrl, QueuedUrl, Revisit, UrlKind};
    use super::*;

    fn again(url: &str, due: u64) -> Again {
        Again {
            item: QueuedUrl {
                url: url.into(),
                depth: 0,
                seed: 0,
                attempt: 0,
                kind: UrlKind::Page,
                priority: 1.0,
                features: None,
                revisit: Some(Box::new(Revisit {
                    interval: 60,
                    ..Revisit::default()
                })),
            },
            due,
        }
    }

    #[test]
    fn revisits_move_to_the_queue_only_when_due_and_a_new_schedule_replaces_the_old() {
        let dir = std::env::temp_dir().join(format!("trawl-revisits-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, 1 << 20).expect("open");
        let mut batch = sled::Batch::default();
        Store::schedule_into(&mut batch, "a.test", &again("http://a.test/1", 100), None);
        Store::schedule_into(&mut batch, "a.test", &again("http://a.test/2", 200), None);
        store.kv.apply_batch(batch).expect("apply");
        // URL 2 rescheduled from 200 to 300: one entry.
        let mut batch = sled::Batch::default();
        Store::schedule_into(
            &mut batch,
            "a.test",
            &again("http://a.test/2", 300),
            Some(200),
        );
        store.kv.apply_batch(batch).expect("apply");
        assert_eq!(store.revisits_len(), 2);
        assert_eq!(store.next_revisit().expect("read"), Some(100));
        let queued = store.queue_len_hint();
        assert_eq!(store.due_revisits(99).expect("due"), 0, "not due yet");
        assert_eq!(store.due_revisits(250).expect("due"), 1);
        assert_eq!(store.queue_len_hint(), queued + 1);
        assert_eq!(store.next_revisit().expect("read"), Some(300));
        assert_eq!(store.due_revisits(300).expect("due"), 1);
        assert_eq!(store.revisits_len(), 0);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn page(url: &str) -> QueuedUrl {
        QueuedUrl {
            revisit: None,
            ..again(url, 0).item
        }
    }

    fn fetched(url: &str, at: u64, changed: Vec<Changed>, recheck: bool) -> Completion {
        Completion::Done {
            outcome: PageOutcome {
                url: url.into(),
                status: 200,
                fetched_at: at,
                etag: Some(format!("\"{at}\"")),
                ..PageOutcome::default()
            },
            record: (!recheck).then(|| {
                Box::new(crate::record::Record {
                    url: url.into(),
                    ..Default::default()
                })
            }),
            simhash: None,
            links: vec![],
            counted: None,
            again: None,
            changed,
            recheck: recheck.then(|| Box::new(page(url))),
        }
    }

    fn says(url: &str, at: u64) -> Vec<Changed> {
        let link = NewUrl {
            host: "a.test".into(),
            item: page(url),
        };
        vec![Changed { link, at }]
    }

    /// Regression (CI, 2026-11-27): an article's revisit fetched before a
    /// second edit, and written after the feed announcing that edit, kept
    /// the first edit's text for good; it now gets another visit at once.
    #[test]
    fn a_change_announced_while_a_visit_is_under_way_is_checked_after_it() {
        let dir = std::env::temp_dir().join(format!("trawl-recheck-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, 1 << 20).expect("open");
        let (art, feed) = ("http://a.test/art", "http://a.test/feed");
        store
            .complete(b"-", "a.test", &fetched(art, 100, vec![], false))
            .expect("first");
        // The feed says it changed at 150: a visit, due now.
        let hub = |at| fetched(feed, 1, says(art, at), false);
        store.complete(b"-", "a.test", &hub(150)).expect("feed");
        assert_eq!(store.revisits_len(), 1);
        assert_eq!(store.due_revisits(u64::MAX).expect("due"), 1);
        // Queued: the feed now says 200; nothing scheduled yet.
        store.complete(b"-", "a.test", &hub(200)).expect("feed");
        assert_eq!(store.revisits_len(), 0);
        // The visit fetched it at 180, before that change: another, at once.
        store
            .complete(b"-", "a.test", &fetched(art, 180, vec![], true))
            .expect("visit");
        assert_eq!(store.revisits_len(), 1, "checked again");
        let due = store.next_revisit().expect("read").expect("due");
        assert!(due <= crate::record::now_secs());
        assert_eq!(store.due_revisits(u64::MAX).expect("due"), 1);
        // A visit after the change ends the checks.
        store.complete(b"-", "a.test", &hub(300)).expect("feed");
        store
            .complete(b"-", "a.test", &fetched(art, 301, vec![], true))
            .expect("visit");
        assert_eq!(store.revisits_len(), 0, "fetched after the change");
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
