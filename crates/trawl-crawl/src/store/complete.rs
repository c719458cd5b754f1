//! Completing a leased URL: its outcome, its record (numbered, once), its
//! near-duplicate index entries, the links it found and its counters, in
//! one sled batch, so a `kill -9` leaves all of it or none of it.

use super::codec::{be_u64, decode, encode};
use super::error::StoreError;
use super::handle::Store;
use super::layout::{key, url_hash, Counter, M, P, X};
use super::queued::Completion;
use super::revisits::check_now;
use super::simhash;
use crate::record::PageOutcome;

impl Store {
    /// Ends a lease of a URL of `host` from `block` (the lease key). For
    /// `Done`, returns the record's sequence number if one was stored.
    pub fn complete(
        &self,
        block: &[u8],
        host: &str,
        completion: &Completion,
    ) -> Result<Option<u64>, StoreError> {
        let mut st = self.lock();
        let mut batch = sled::Batch::default();
        let (left, _) = Self::finish_in_block(&mut st, &mut batch, block);
        match completion {
            Completion::Park {
                item,
                outcome,
                until,
            } => {
                // A completion replayed twice sets the URL aside once.
                if left {
                    self.park_into(&mut batch, host, item, outcome.clone(), *until)?;
                    self.kv.apply_batch(batch)?;
                }
                Ok(None)
            }
            Completion::Retry { item } => {
                self.requeue_into(&mut batch, host, item)?;
                Self::put_queued(&mut batch, st.queued + 1);
                self.kv.apply_batch(batch)?;
                st.queued += 1;
                st.inbox += 1;
                Ok(None)
            }
            Completion::Done {
                outcome,
                record,
                simhash,
                links,
                counted,
                again,
                changed,
                recheck,
            } => {
                let mut outcome = outcome.clone();
                let page_key = key(P, &url_hash(&outcome.url));
                // A page replayed after a crash keeps its first record.
                let (earlier, earlier_seq, scheduled, changed_at) = match self.kv.get(&page_key)? {
                    Some(v) => {
                        let o = decode::<PageOutcome>("pages", &v)?;
                        (o.record, Some(o.seq), o.next_visit, o.changed_at)
                    }
                    None => (None, None, None, None),
                };
                if let Some((host, seed)) = counted {
                    if earlier.is_none() {
                        let mut counters =
                            vec![Counter::Total, Counter::Host(host), Counter::Seed(*seed)];
                        if let Some(relevant) = outcome.relevant {
                            counters.push(Counter::Judged);
                            if relevant {
                                counters.extend([Counter::Relevant, Counter::RelevantHost(host)]);
                            }
                        }
                        for c in counters {
                            let k = key(M, c.key().as_bytes());
                            let n = be_u64(self.kv.get(&k)?) + 1;
                            batch.insert(k, &n.to_be_bytes());
                        }
                    }
                }
                let mut seq = earlier;
                // A page's first record, or a newer version of the record
                // a revisit started from (a replayed one finds the URL's
                // record moved on, and stores nothing).
                let store_it = record.as_ref().filter(|rec| match earlier {
                    None => true,
                    Some(e) => rec.previous == Some(e),
                });
                if let Some(rec) = store_it {
                    // An older version is marked replaced (a plain export skips it).
                    let next = self.record_into(&mut batch, (**rec).clone(), earlier)?;
                    if let Some(h) = simhash {
                        for (band, bits) in simhash::bands(*h).into_iter().enumerate() {
                            let mut k = vec![X, band as u8];
                            k.extend_from_slice(&bits.to_be_bytes());
                            k.extend_from_slice(&next.to_be_bytes());
                            batch.insert(k, &h.to_be_bytes());
                        }
                    }
                    seq = Some(next);
                }
                outcome.record = seq;
                let mut again = again.clone();
                // A hub said the page changed after this visit fetched it.
                if let (true, Some(rec_seq)) =
                    (changed_at.is_some_and(|t| t >= outcome.fetched_at), seq)
                {
                    let now = crate::record::now_secs();
                    match (again.as_mut(), recheck) {
                        (Some(a), _) => a.due = now,
                        (None, Some(item)) => {
                            let version = match store_it {
                                Some(rec) => rec.version.unwrap_or(1),
                                None => self.record(rec_seq)?.map_or(1, |r| r.version.unwrap_or(1)),
                            };
                            again = Some(check_now(&outcome, item, rec_seq, version, now));
                        }
                        (None, None) => {}
                    }
                }
                match again {
                    Some(mut a) => {
                        if let Some(r) = a.item.revisit.as_mut() {
                            r.record = seq;
                        }
                        Self::schedule_into(&mut batch, host, &a, scheduled);
                        outcome.next_visit = Some(a.due);
                    }
                    None => {
                        if let Some(due) = scheduled {
                            Self::unschedule_into(&mut batch, &outcome.url, due);
                        }
                        outcome.next_visit = None;
                    }
                }
                self.number_outcome(&mut batch, &mut outcome, earlier_seq)?;
                batch.insert(page_key, encode(&outcome));
                // The URL a stored page was reached at through redirects is
                // not queued again when a later page links to it.
                let seen_only = match (&outcome.final_url, record) {
                    (Some(final_url), Some(_)) => {
                        self.seen_only_into(&mut st, &mut batch, host, final_url)?
                    }
                    _ => None,
                };
                let (fresh, capped) = self.enqueue_into(&mut st, &mut batch, links, true)?;
                self.refresh_into(&mut batch, changed, &outcome.url, crate::record::now_secs())?;
                if !fresh.is_empty() {
                    Self::put_queued(&mut batch, st.queued + fresh.len() as u64);
                }
                self.kv.apply_batch(batch)?;
                st.capped += capped;
                Self::note_enqueued(&mut st, &fresh);
                if let Some(h) = seen_only {
                    Self::note_seen_only(&mut st, h);
                }
                self.bound_inbox(&mut st)?;
                Ok(seq)
            }
        }
    }
}
