//! Frontier at scale: enqueue N URLs over many hosts, then lease and complete
//! them all through the host-fair scheduler, reporting rates and peak RSS.
//!
//! `cargo bench --bench frontier -- [N] [HOSTS]` (defaults 10,000,000 and 20,000).
//! Uses a temporary sled store under $TMPDIR (several GB for 10M URLs).
//! A dequeue is a lease and its release (the URL leaves the queue); with
//! `OUTCOMES=1` it is the daemon's full path instead: lease, then complete
//! with a page outcome, one more sled write per URL. `CACHE_MB` sets sled's
//! cache (default 16, the daemon's default).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use support::peak_rss_mb;

use trawl_crawl::frontier::{Frontier, Next};
use trawl_crawl::store::{Completion, NewUrl, PageOutcome, QueuedUrl, Store, UrlKind};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let n: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let hosts: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let dir = std::env::temp_dir().join(format!("trawl-frontier-bench-{}", std::process::id()));
    let cache_mb: u64 = std::env::var("CACHE_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    trawl_crawl::store::alloc::tune_allocator(); // as the daemon does
    let store = Store::open(&dir, cache_mb << 20).expect("open store");

    let start = Instant::now();
    let batch = 1000u64;
    let mut i = 0u64;
    while i < n {
        let urls: Vec<NewUrl> = (i..(i + batch).min(n))
            .map(|k| {
                let host = format!("h{}.example", k % hosts);
                NewUrl {
                    item: QueuedUrl {
                        url: format!("http://{host}/section/{}/page-{k}.html", k % 97),
                        depth: (k % 5) as u16,
                        seed: 1,
                        attempt: 0,
                        kind: UrlKind::Page,
                        priority: 1.0 / (1.0 + (k % 5) as f32),
                        features: None,
                        revisit: None,
                    },
                    host,
                }
            })
            .collect();
        store.enqueue(&urls).expect("enqueue");
        i += batch;
    }
    store.flush_blocking().expect("flush");
    let enq = start.elapsed();
    println!(
        "enqueued {n} URLs over {hosts} hosts in {:.1} s: {:.0} URLs/s, peak RSS {:.0} MB",
        enq.as_secs_f64(),
        n as f64 / enq.as_secs_f64(),
        peak_rss_mb()
    );

    let mut frontier = Frontier::new(store.clone(), 1).expect("frontier");
    let start = Instant::now();
    let mut done = 0u64;
    let now = Instant::now() + Duration::from_secs(3600);
    let outcomes = std::env::var("OUTCOMES").is_ok_and(|v| v == "1");
    while let Next::Url(lease) = frontier.next(now).expect("next") {
        if !outcomes {
            store.release(&lease.key).expect("release");
            frontier
                .finished(&lease.host, Duration::ZERO)
                .expect("finished");
            done += 1;
            continue;
        }
        store
            .complete(
                &lease.key,
                &lease.host,
                &Completion::Done {
                    outcome: PageOutcome {
                        url: lease.item.url.clone(),
                        status: 200,
                        ..PageOutcome::default()
                    },
                    record: None,
                    simhash: None,
                    links: Vec::new(),
                    counted: None,
                    again: None,
                    changed: Vec::new(),
                    recheck: None,
                },
            )
            .expect("complete");
        frontier
            .finished(&lease.host, Duration::ZERO)
            .expect("finished");
        done += 1;
    }
    let deq = start.elapsed();
    println!(
        "dequeued {done} URLs in {:.1} s: {:.0} URLs/s, peak RSS {:.0} MB",
        deq.as_secs_f64(),
        done as f64 / deq.as_secs_f64(),
        peak_rss_mb()
    );
    println!(
        "enqueue+dequeue: {:.0} operations/s overall",
        (n + done) as f64 / (enq + deq).as_secs_f64()
    );
    drop(frontier);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir); // the bench's scratch store
}
