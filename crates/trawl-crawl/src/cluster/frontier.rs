//! The shared frontier's operations: enqueue URLs (deduplicated by hash),
//! claim and renew host leases, read a held host's due URLs, and finish a
//! URL under the host's epoch (refused after a takeover).
//!
//! Lock order, the same in every transaction so two workers cannot
//! deadlock: host rows are inserted in name order, URL rows in hash order,
//! host rows locked in id order. A finish locks only its own host row and
//! touches only that host's URL. PostgreSQL still aborts a transaction it
//! finds in a deadlock; callers treat that as transient and retry.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::conn::Conn;
use super::error::ClusterError;
use super::schema::url_hash;
use crate::record::{PageOutcome, Record};
use crate::seeds::Seed;
use crate::store::{Again, NewUrl, QueueCap, QueuedUrl, Revisit, UrlKind, LINK_FEATURES};

/// A host this worker now holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Claimed {
    /// The host's row id in `trawl_hosts`.
    pub id: i64,
    /// Its host key (`name[:port]`).
    pub name: String,
    /// The fencing token every write for this host must carry.
    pub epoch: i64,
    /// Pages of the host fetched so far, by any worker (its page budget).
    pub fetched: u64,
}

/// A held host's URLs that may be fetched now.
#[derive(Debug, Default)]
pub struct Due {
    /// (hash, URL), highest priority first.
    pub urls: Vec<(i64, QueuedUrl)>,
    /// When nothing is due: how long until the earliest queued URL is
    /// (`None`: the host has nothing queued).
    pub next_in: Option<Duration>,
}

/// How one leased URL ended, as the worker commits it (and keeps it in its
/// outbox until committed).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finish {
    /// The host's row id.
    pub host_id: i64,
    /// The epoch the host was claimed under (the fencing token).
    pub epoch: i64,
    /// The URL's hash (its row key).
    pub hash: i64,
    /// How it ended.
    pub end: FinishEnd,
    /// Links found, each with its host key.
    pub links: Vec<(String, QueuedUrl)>,
    /// The host's next request no sooner than this long after the commit.
    pub delay_ms: u64,
}

/// The end of a leased URL.
#[derive(Debug, Clone, Serialize, Deserialize)]
// One value per URL, moved once; boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum FinishEnd {
    /// Fetched for good (or given up): its outcome and record.
    Done {
        /// The fetch's outcome.
        outcome: PageOutcome,
        /// The record made from the page, if any.
        record: Option<Box<Record>>,
        /// Whether it counts as a fetched page of the host.
        counted: bool,
        /// SimHash of the record's text (near-duplicates across workers).
        #[serde(default)]
        simhash: Option<u64>,
        /// The URL's next visit, when it is revisited (status 4 until due).
        #[serde(default)]
        again: Option<Again>,
        /// Known pages the hub says changed, and when (seconds since the
        /// epoch): each fetched before gets a conditional revisit now.
        #[serde(default)]
        changed: Vec<(String, u64)>,
    },
    /// Try again after `wait_ms`, as attempt `attempt`.
    Retry {
        /// The attempt it will be.
        attempt: u8,
        /// Milliseconds before it is due again.
        wait_ms: u64,
    },
    /// Not fetched now, with an outcome saying why: set aside (status 3)
    /// and queued again after `wait_ms` (a stopped host's cool-down) or,
    /// without a wait (a spent page budget), when a worker starts.
    Park {
        /// Why it was not fetched.
        outcome: PageOutcome,
        /// Milliseconds before it is queued again (`None`: when a worker starts).
        wait_ms: Option<u64>,
    },
    /// Left the queue without an outcome: what an older trawl wrote to its
    /// outbox (read back after an upgrade, applied as it meant).
    Drop,
}

/// What a finish did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// Committed; `record`: a new record was stored; `counted`: a fetched
    /// page was added to the host's and the seed's counts.
    Applied {
        /// A new record was stored.
        record: bool,
        /// A fetched page was added to the host's and the seed's counts.
        counted: bool,
    },
    /// Another worker claimed the host since: nothing written.
    Refused,
}

fn kind_code(k: UrlKind) -> i16 {
    match k {
        UrlKind::Page => 0,
        UrlKind::Sitemap => 1,
        UrlKind::Feed => 2,
    }
}

fn json<T: Serialize>(v: &T) -> Result<String, ClusterError> {
    serde_json::to_string(v).map_err(|e| ClusterError::Bad(e.to_string()))
}

fn millis(d: u64) -> f64 {
    d as f64 / 1000.0
}

impl Conn {
    /// Numbers seeds cluster-wide (a seed URL keeps its number; its options
    /// are replaced) and returns their numbers in order.
    pub async fn register_seeds(&mut self, seeds: &[Seed]) -> Result<Vec<u32>, ClusterError> {
        let c = self.client().await?;
        let mut ids = Vec::with_capacity(seeds.len());
        for s in seeds {
            let row = c
                .query_one(
                    "INSERT INTO trawl_seeds (url, seed) VALUES ($1, $2)
                     ON CONFLICT (url) DO UPDATE SET seed = EXCLUDED.seed RETURNING id",
                    &[&s.url, &json(s)?],
                )
                .await?;
            let id: i32 = row.get(0);
            ids.push(id as u32);
        }
        Ok(ids)
    }

    /// Every registered seed by number.
    pub async fn seeds(&mut self) -> Result<Vec<(u32, Seed)>, ClusterError> {
        let c = self.client().await?;
        let rows = c.query("SELECT id, seed FROM trawl_seeds", &[]).await?;
        rows.iter()
            .map(|r| {
                let id: i32 = r.get(0);
                let text: String = r.get(1);
                serde_json::from_str(&text)
                    .map(|s| (id as u32, s))
                    .map_err(|e| ClusterError::Bad(format!("seed {id}: {e}")))
            })
            .collect()
    }

    /// Queues URLs not seen before; returns how many were new.
    pub async fn enqueue(&mut self, urls: &[NewUrl]) -> Result<u64, ClusterError> {
        self.enqueue_capped(urls, None).await
    }

    /// [`Conn::enqueue`], each host held to `cap`: a host may have had
    /// [`QueueCap::room`] URLs queued in all (its row's `admitted`), the
    /// rest are left out and counted in [`Conn::capped`].
    async fn enqueue_capped(
        &mut self,
        urls: &[NewUrl],
        cap: Option<QueueCap>,
    ) -> Result<u64, ClusterError> {
        if urls.is_empty() {
            return Ok(0);
        }
        let mut by_hash: BTreeMap<i64, &NewUrl> = BTreeMap::new();
        for u in urls {
            by_hash.entry(url_hash(&u.item.url)).or_insert(u);
        }
        let mut names: Vec<&str> = by_hash.values().map(|u| u.host.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "INSERT INTO trawl_hosts (name) SELECT n FROM unnest($1::text[]) AS n ORDER BY n
             ON CONFLICT (name) DO NOTHING",
            &[&names],
        )
        .await?;
        let rows = tx
            .query(
                "SELECT name, id FROM trawl_hosts WHERE name = ANY($1)",
                &[&names],
            )
            .await?;
        let host_ids: BTreeMap<String, i64> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let mut capped = 0;
        if let Some(cap) = cap {
            capped = cap_by_room(&tx, cap, &host_ids, &mut by_hash).await?;
        }
        let (mut hashes, mut hosts, mut texts, mut prios) = (vec![], vec![], vec![], vec![]);
        let (mut depths, mut seeds, mut kinds, mut feats) = (vec![], vec![], vec![], vec![]);
        for (h, u) in &by_hash {
            let Some(&host) = host_ids.get(&u.host) else {
                continue;
            };
            hashes.push(*h);
            hosts.push(host);
            texts.push(u.item.url.as_str());
            prios.push(u.item.priority);
            depths.push(u.item.depth as i16);
            seeds.push(u.item.seed as i32);
            kinds.push(kind_code(u.item.kind));
            feats.push(u.item.features.map(|f| f.to_vec()));
        }
        let inserted = tx
            .query(
                "INSERT INTO trawl_urls (hash, host_id, url, priority, depth, seed, kind, features)
                 SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::real[],
                                      $5::smallint[], $6::int[], $7::smallint[], $8::bytea[])
                 ON CONFLICT (hash) DO NOTHING RETURNING host_id, priority",
                &[
                    &hashes, &hosts, &texts, &prios, &depths, &seeds, &kinds, &feats,
                ],
            )
            .await?;
        let mut per_host: BTreeMap<i64, (i32, f32)> = BTreeMap::new();
        for r in &inserted {
            let e = per_host.entry(r.get(0)).or_insert((0, 0.0));
            e.0 += 1;
            e.1 = e.1.max(r.get::<_, f32>(1));
        }
        if !per_host.is_empty() {
            let ids: Vec<i64> = per_host.keys().copied().collect();
            let ns: Vec<i32> = per_host.values().map(|v| v.0).collect();
            let ps: Vec<f32> = per_host.values().map(|v| v.1).collect();
            tx.execute(
                "SELECT 1 FROM trawl_hosts WHERE id = ANY($1) ORDER BY id FOR UPDATE",
                &[&ids],
            )
            .await?;
            tx.execute(
                "UPDATE trawl_hosts h SET queued = h.queued + d.n, best = GREATEST(h.best, d.p),
                 admitted = h.admitted + d.n
                 FROM unnest($1::bigint[], $2::int[], $3::real[]) AS d(id, n, p)
                 WHERE h.id = d.id",
                &[&ids, &ns, &ps],
            )
            .await?;
        }
        tx.commit().await?;
        self.capped += capped;
        Ok(inserted.len() as u64)
    }

    /// Claims up to `n` ready hosts (work queued, their time come, no live
    /// lease) for `worker`, for `lease` on the database's clock.
    pub async fn claim(
        &mut self,
        worker: &str,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<Claimed>, ClusterError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "WITH ready AS (
                    SELECT id FROM trawl_hosts
                    WHERE queued > 0 AND next_fetch <= now()
                      AND (lease_until IS NULL OR lease_until < now())
                    ORDER BY best DESC, next_fetch
                    LIMIT $2 FOR UPDATE SKIP LOCKED)
                 UPDATE trawl_hosts h
                 SET lease_owner = $1, lease_until = now() + make_interval(secs => $3),
                     epoch = h.epoch + 1
                 FROM ready WHERE h.id = ready.id
                 RETURNING h.id, h.name, h.epoch, h.fetched",
                &[&worker, &(n as i64), &lease.as_secs_f64()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| Claimed {
                id: r.get(0),
                name: r.get(1),
                epoch: r.get(2),
                fetched: r.get::<_, i64>(3).max(0) as u64,
            })
            .collect())
    }

    /// Extends the leases `worker` still holds; returns the ids it holds
    /// (a host missing from the answer was taken over: stop fetching it).
    pub async fn renew(
        &mut self,
        worker: &str,
        held: &[(i64, i64)],
        lease: Duration,
    ) -> Result<Vec<i64>, ClusterError> {
        if held.is_empty() {
            return Ok(vec![]);
        }
        let ids: Vec<i64> = held.iter().map(|h| h.0).collect();
        let epochs: Vec<i64> = held.iter().map(|h| h.1).collect();
        let c = self.client().await?;
        let rows = c
            .query(
                "UPDATE trawl_hosts h SET lease_until = now() + make_interval(secs => $3)
                 FROM unnest($1::bigint[], $2::bigint[]) AS t(id, epoch)
                 WHERE h.id = t.id AND h.epoch = t.epoch AND h.lease_owner = $4
                 RETURNING h.id",
                &[&ids, &epochs, &lease.as_secs_f64(), &worker],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Up to `limit` URLs of a held host that may be fetched now.
    pub async fn due(&mut self, host_id: i64, limit: usize) -> Result<Due, ClusterError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT u.hash, u.url, u.priority, u.depth, u.seed, u.attempt, u.kind, u.features,
                        u.revisit, r.id
                 FROM trawl_urls u LEFT JOIN trawl_records r ON r.url_hash = u.hash
                 WHERE u.host_id = $1 AND u.status = 0 AND u.not_before <= now()
                 ORDER BY u.priority DESC, u.hash LIMIT $2",
                &[&host_id, &(limit as i64)],
            )
            .await?;
        let urls: Vec<(i64, QueuedUrl)> = rows
            .iter()
            .map(|r| {
                let features: Option<Vec<u8>> = r.get(7);
                (
                    r.get(0),
                    QueuedUrl {
                        url: r.get(1),
                        priority: r.get(2),
                        depth: r.get::<_, i16>(3) as u16,
                        seed: r.get::<_, i32>(4) as u32,
                        attempt: r.get::<_, i16>(5).clamp(0, 255) as u8,
                        kind: match r.get::<_, i16>(6) {
                            1 => UrlKind::Sitemap,
                            2 => UrlKind::Feed,
                            _ => UrlKind::Page,
                        },
                        features: features
                            .and_then(|f| <[u8; LINK_FEATURES]>::try_from(f.as_slice()).ok()),
                        revisit: r
                            .get::<_, Option<String>>(8)
                            .and_then(|j| serde_json::from_str::<Revisit>(&j).ok())
                            .map(|mut v| {
                                v.record = r.get::<_, Option<i64>>(9).map(|id| id as u64);
                                Box::new(v)
                            }),
                    },
                )
            })
            .collect();
        let next_in = if urls.is_empty() {
            let row = c
                .query_one(
                    "SELECT EXTRACT(EPOCH FROM min(not_before) - now())::float8
                     FROM trawl_urls WHERE host_id = $1 AND status = 0",
                    &[&host_id],
                )
                .await?;
            row.get::<_, Option<f64>>(0)
                .map(|s| Duration::from_secs_f64(s.max(0.0)))
        } else {
            None
        };
        Ok(Due { urls, next_in })
    }

    /// Commits how a URL ended (its links first, in their own transaction:
    /// queuing is idempotent), fenced by the host's epoch.
    pub async fn finish(&mut self, worker: &str, f: &Finish) -> Result<Written, ClusterError> {
        let mut w = self.finish_batch(worker, std::slice::from_ref(f)).await?;
        w.pop()
            .ok_or_else(|| ClusterError::Db("a finish wrote nothing".into()))
    }

    /// Commits several ends at once, in order: all their links in one
    /// transaction, then every end in a second, each fenced by its host's
    /// epoch (the host rows locked in id order). One answer per finish;
    /// a refused one changes nothing, the others commit together.
    pub async fn finish_batch(
        &mut self,
        worker: &str,
        fs: &[Finish],
    ) -> Result<Vec<Written>, ClusterError> {
        let links: Vec<NewUrl> = fs
            .iter()
            .flat_map(|f| {
                f.links.iter().map(|(host, item)| NewUrl {
                    host: host.clone(),
                    item: item.clone(),
                })
            })
            .collect();
        self.enqueue_capped(&links, self.queue_cap).await?;
        let mut ids: Vec<i64> = fs.iter().map(|f| f.host_id).collect();
        ids.sort_unstable();
        ids.dedup();
        let c = self.client().await?;
        let tx = c.transaction().await?;
        let epochs: HashMap<i64, i64> = tx
            .query(
                "SELECT id, epoch FROM trawl_hosts WHERE id = ANY($1) ORDER BY id FOR UPDATE",
                &[&ids],
            )
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let mut out = Vec::with_capacity(fs.len());
        for f in fs {
            if epochs.get(&f.host_id) == Some(&f.epoch) {
                out.push(apply(&tx, worker, f).await?);
            } else {
                out.push(Written::Refused);
            }
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Gives a held host back; its next request no sooner than `delay` from
    /// now, nor before its earliest queued URL is due.
    pub async fn release(&mut self, host: &Claimed, delay: Duration) -> Result<bool, ClusterError> {
        let c = self.client().await?;
        let n = c
            .execute(
                "UPDATE trawl_hosts SET lease_owner = NULL, lease_until = NULL,
                 next_fetch = GREATEST(next_fetch, now() + make_interval(secs => $3),
                    COALESCE((SELECT min(not_before) FROM trawl_urls
                              WHERE host_id = $1 AND status = 0), now()))
                 WHERE id = $1 AND epoch = $2",
                &[&host.id, &host.epoch, &delay.as_secs_f64()],
            )
            .await?;
        Ok(n == 1)
    }

    /// Whether `url` (normalised) was ever queued in the cluster or fetched
    /// as a redirect target.
    pub async fn known(&mut self, url: &str) -> Result<bool, ClusterError> {
        let c = self.client().await?;
        let row = c
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM trawl_urls WHERE hash = $1)",
                &[&url_hash(url)],
            )
            .await?;
        Ok(row.get(0))
    }

    /// Queues again the URLs set aside (status 3) whose wait has ended, or
    /// all of them with `all` (a worker starting), and the revisits (status
    /// 4) that are due (only those: no burst at a start); returns how many.
    pub async fn unpark(&mut self, all: bool) -> Result<u64, ClusterError> {
        let c = self.client().await?;
        let row = c
            .query_one(
                "WITH u AS (
                    UPDATE trawl_urls SET status = 0, not_before = now()
                    WHERE (status = 3 AND ($1 OR not_before <= now()))
                       OR (status = 4 AND not_before <= now()) RETURNING host_id
                 ), n AS (SELECT host_id, count(*)::int AS k FROM u GROUP BY host_id),
                 h AS (UPDATE trawl_hosts SET queued = queued + n.k FROM n
                       WHERE trawl_hosts.id = n.host_id RETURNING n.k)
                 SELECT coalesce(sum(k), 0)::bigint FROM h",
                &[&all],
            )
            .await?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    /// Whether the whole cluster is out of work: nothing queued or due, no host leased.
    pub async fn idle(&mut self) -> Result<bool, ClusterError> {
        let c = self.client().await?;
        let row = c
            .query_one(
                "SELECT NOT EXISTS (SELECT 1 FROM trawl_hosts
                                    WHERE queued > 0 OR lease_until > now())",
                &[],
            )
            .await?;
        Ok(row.get(0))
    }

    /// Publishes a worker's counters (`trawl status --cluster` reads them).
    pub async fn heartbeat(
        &mut self,
        worker: &str,
        fetched: u64,
        refused: u64,
        hosts: usize,
        stopped: bool,
    ) -> Result<(), ClusterError> {
        let c = self.client().await?;
        c.execute(
            "INSERT INTO trawl_workers (name, fetched, refused, hosts, stopped)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (name) DO UPDATE SET seen = now(), fetched = EXCLUDED.fetched,
                refused = EXCLUDED.refused, hosts = EXCLUDED.hosts, stopped = EXCLUDED.stopped",
            &[
                &worker,
                &(fetched as i64),
                &(refused as i64),
                &(hosts as i32),
                &stopped,
            ],
        )
        .await?;
        Ok(())
    }
}

/// A record's JSON as stored: marked a near-duplicate of an earlier
/// record of the cluster when its SimHash finds one.
async fn record_text(
    tx: &tokio_postgres::Transaction<'_>,
    rec: &Record,
    simhash: Option<u64>,
) -> Result<String, ClusterError> {
    let duplicate_of = match simhash {
        Some(h) => super::near_dup::duplicate_of(tx, h, &rec.url).await?,
        None => None,
    };
    // The record is copied only to mark it a duplicate.
    match duplicate_of {
        Some(of) => json(&Record {
            duplicate_of: Some(of),
            ..rec.clone()
        }),
        None => json(rec),
    }
}

/// Leaves out of `by_hash` the new URLs past their host's room (the host
/// rows locked, in id order, as every writer of them locks them); returns
/// how many. URLs already known cost no room and are left in (the insert
/// skips them).
async fn cap_by_room(
    tx: &tokio_postgres::Transaction<'_>,
    cap: QueueCap,
    host_ids: &BTreeMap<String, i64>,
    by_hash: &mut BTreeMap<i64, &NewUrl>,
) -> Result<u64, ClusterError> {
    let ids: Vec<i64> = host_ids.values().copied().collect();
    let rooms: HashMap<i64, u64> = tx
        .query(
            "SELECT id, admitted, fetched FROM trawl_hosts WHERE id = ANY($1) ORDER BY id
             FOR UPDATE",
            &[&ids],
        )
        .await?
        .iter()
        .map(|r| {
            let (admitted, fetched) = (r.get::<_, i64>(1).max(0), r.get::<_, i64>(2).max(0));
            (
                r.get(0),
                cap.room(fetched as u64).saturating_sub(admitted as u64),
            )
        })
        .collect();
    let hashes: Vec<i64> = by_hash.keys().copied().collect();
    let known: std::collections::HashSet<i64> = tx
        .query(
            "SELECT hash FROM trawl_urls WHERE hash = ANY($1)",
            &[&hashes],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let mut used: HashMap<i64, u64> = HashMap::new();
    let mut capped = 0;
    by_hash.retain(|h, u| {
        if known.contains(h) {
            return true;
        }
        let Some(id) = host_ids.get(&u.host) else {
            return true;
        };
        let n = used.entry(*id).or_insert(0);
        if *n >= rooms.get(id).copied().unwrap_or(0) {
            capped += 1;
            return false;
        }
        *n += 1;
        true
    });
    Ok(capped)
}

/// Writes one end under an open transaction whose host row is locked.
async fn apply(
    tx: &tokio_postgres::Transaction<'_>,
    worker: &str,
    f: &Finish,
) -> Result<Written, ClusterError> {
    let delay = millis(f.delay_ms);
    let mut record_written = false;
    let mut page_counted = false;
    match &f.end {
        FinishEnd::Done { .. } => {
            (record_written, page_counted) = apply_done(tx, worker, f, delay).await?;
        }
        FinishEnd::Retry { attempt, wait_ms } => {
            tx.execute(
                "UPDATE trawl_urls SET attempt = $2,
                 not_before = now() + make_interval(secs => $3)
                 WHERE hash = $1 AND status = 0",
                &[&f.hash, &i16::from(*attempt), &millis(*wait_ms)],
            )
            .await?;
            tx.execute(
                "UPDATE trawl_hosts SET
                 next_fetch = GREATEST(next_fetch, now() + make_interval(secs => $2))
                 WHERE id = $1",
                &[&f.host_id, &delay],
            )
            .await?;
        }
        FinishEnd::Park { outcome, wait_ms } => {
            // Set aside (status 3) with its outcome until its wait ends (a
            // spent budget: until a worker starts), then queued again.
            // No wait: ten years, until a worker starts and offers it again.
            let wait = wait_ms.map_or(315_360_000.0, millis);
            let n = tx
                .execute(
                    "UPDATE trawl_urls SET status = 3, outcome = $3, attempt = 0, done_by = $2,
                     done_at = now(), not_before = now() + make_interval(secs => $4)
                     WHERE hash = $1 AND status = 0",
                    &[&f.hash, &worker, &json(outcome)?, &wait],
                )
                .await?;
            tx.execute(
                "UPDATE trawl_hosts SET queued = queued - $2::int WHERE id = $1",
                &[&f.host_id, &(n as i32)],
            )
            .await?;
        }
        FinishEnd::Drop => {
            let n = tx
                .execute(
                    "UPDATE trawl_urls SET status = 2, done_by = $2, done_at = now()
                     WHERE hash = $1 AND status = 0",
                    &[&f.hash, &worker],
                )
                .await?;
            tx.execute(
                "UPDATE trawl_hosts SET queued = queued - $2::int WHERE id = $1",
                &[&f.host_id, &(n as i32)],
            )
            .await?;
        }
    }
    Ok(Written::Applied {
        record: record_written,
        counted: page_counted,
    })
}

/// Writes a fetched URL's end (outcome, record, revisit); returns whether
/// a record was written and whether the page counted against its budgets.
async fn apply_done(
    tx: &tokio_postgres::Transaction<'_>,
    worker: &str,
    f: &Finish,
    delay: f64,
) -> Result<(bool, bool), ClusterError> {
    let FinishEnd::Done {
        outcome,
        record,
        counted,
        simhash,
        again,
        changed,
    } = &f.end
    else {
        return Ok((false, false));
    };
    let mut record_written = false;
    super::revisits::refresh(tx, &outcome.url, changed).await?;
    // Revisited: status 4 until due, with what the visit needs.
    let (status, due, revisit) = match again {
        Some(a) => (
            4i16,
            Some(a.due as f64),
            a.item.revisit.as_deref().map(json).transpose()?,
        ),
        None => (1, None, None),
    };
    let ended = tx
        .query_opt(
            "WITH old AS (SELECT changed_at FROM trawl_urls WHERE hash = $1)
             UPDATE trawl_urls SET status = $4, outcome = $2, done_by = $3, done_at = now(),
             not_before = coalesce(to_timestamp($5), not_before), revisit = $6, attempt = 0,
             changed_at = NULL
             WHERE hash = $1 AND status = 0 RETURNING seed, (SELECT changed_at FROM old)",
            &[&f.hash, &json(outcome)?, &worker, &status, &due, &revisit],
        )
        .await?;
    let n = u64::from(ended.is_some());
    let page_counted = n == 1 && *counted;
    if let (Some(row), true) = (&ended, page_counted) {
        // The worker's own row of the seed: no other session writes it.
        tx.execute(
            "INSERT INTO trawl_counts (seed, worker, fetched) VALUES ($1, $2, 1)
             ON CONFLICT (seed, worker) DO UPDATE SET fetched = trawl_counts.fetched + 1",
            &[&row.get::<_, i32>(0), &worker],
        )
        .await?;
    }
    tx.execute(
        "UPDATE trawl_hosts SET queued = queued - $2::int, fetched = fetched + $3::int,
         next_fetch = GREATEST(next_fetch, now() + make_interval(secs => $4))
         WHERE id = $1",
        &[&f.host_id, &(n as i32), &i32::from(page_counted), &delay],
    )
    .await?;
    // The URL a stored page was reached at through redirects is
    // known from now on: a link to it later queues nothing.
    if let (1, Some(_), Some(target)) = (n, record, &outcome.final_url) {
        if let Some(row) = &ended {
            tx.execute(
                "INSERT INTO trawl_urls (hash, host_id, url, status, priority, depth,
                                         seed, kind, done_by, done_at)
                 VALUES ($1, $2, $3, 1, 0, 0, $4, 0, $5, now())
                 ON CONFLICT (hash) DO NOTHING",
                &[
                    &url_hash(target),
                    &f.host_id,
                    target,
                    &row.get::<_, i32>(0),
                    &worker,
                ],
            )
            .await?;
        }
    }
    if let (1, Some(rec)) = (n, record) {
        let text = record_text(tx, rec, *simhash).await?;
        let simhash = simhash.map(|h| h as i64);
        record_written = match rec.previous {
            // A revisit found the page changed: its row gets the new version.
            Some(prev) => {
                super::versions::new_version(tx, f.hash, prev as i64, &text, simhash).await?
            }
            None => {
                tx.execute(
                    "INSERT INTO trawl_records (url_hash, record, simhash) VALUES ($1, $2, $3)
                     ON CONFLICT (url_hash) DO NOTHING",
                    &[&f.hash, &text, &simhash],
                )
                .await?
                    == 1
            }
        };
    }
    // A hub said the page changed after this visit fetched it.
    let changed_at = ended.as_ref().and_then(|r| r.get::<_, Option<f64>>(1));
    if let Some(at) = changed_at.filter(|&t| t >= outcome.fetched_at as f64) {
        super::revisits::refresh(tx, "", &[(outcome.url.clone(), at as u64)]).await?;
    }
    Ok((record_written, page_counted))
}
