//! Cluster mode's shared frontier on one PostgreSQL: how many frontier
//! operations it sustains and what it costs, at a given size.
//!
//! `cargo bench --bench cluster -- [URLS] [HOSTS] [WORKERS] [SECS] [BATCH]`
//! (defaults 10,000,000 URLs over 100,000 hosts, 8 simulated workers, 60 s,
//! ends committed 32 per transaction as the worker's writer does; 1: one by one).
//! Starts a throwaway PostgreSQL from Debian's package (like the tests;
//! `TRAWL_PG_FSYNC=on` for a durable one), loads URLS queued URLs in
//! batches of 1,000 (4 connections), then runs WORKERS simulated workers,
//! each on its own connection, doing what a worker does with no network:
//! claim 16 hosts, read up to 8 due URLs of each, finish each (an outcome,
//! a 1 KB record and 5 new links, most of them new URLs; BATCH ends per
//! commit), release. Prints
//! load rate, operation rates, and the database's size on disk.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use support::pg::Pg;
use trawl_crawl::cluster::{Conn, Finish, FinishEnd};
use trawl_crawl::store::{NewUrl, QueuedUrl, UrlKind};
use trawl_crawl::{PageOutcome, Record};

fn url(host: u64, path: &str) -> NewUrl {
    let host = format!("h{host}.bench");
    NewUrl {
        item: QueuedUrl {
            url: format!("http://{host}/{path}"),
            depth: 1,
            seed: 1,
            attempt: 0,
            kind: UrlKind::Page,
            priority: 0.5,
            features: None,
            revisit: None,
        },
        host,
    }
}

#[derive(Default, Debug, Clone, Copy)]
struct Counts {
    claims: u64,
    hosts: u64,
    dues: u64,
    finishes: u64,
    links: u64,
}

async fn worker(db: String, name: String, hosts: u64, until: Instant, batch: usize) -> Counts {
    let mut c = Conn::connect(&db).await.expect("connect");
    let mut n = Counts::default();
    let mut next = 0u64;
    let text = "word ".repeat(200);
    while Instant::now() < until {
        let claims = c
            .claim(&name, 16, Duration::from_secs(30))
            .await
            .expect("claim");
        n.claims += 1;
        if claims.is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        let mut ends = Vec::new();
        for h in &claims {
            n.hosts += 1;
            let due = c.due(h.id, 8).await.expect("due");
            n.dues += 1;
            for (hash, item) in due.urls {
                let links: Vec<(String, QueuedUrl)> = (0..5)
                    .map(|i| {
                        next += 1;
                        let target = (hash as u64).wrapping_add(i * 7919) % hosts;
                        let u = url(target, &format!("{name}-{next}"));
                        (u.host, u.item)
                    })
                    .collect();
                n.links += links.len() as u64;
                let f = Finish {
                    host_id: h.id,
                    epoch: h.epoch,
                    hash,
                    end: FinishEnd::Done {
                        outcome: PageOutcome {
                            url: item.url.clone(),
                            status: 200,
                            ..PageOutcome::default()
                        },
                        record: Some(Box::new(Record {
                            url: item.url.clone(),
                            text: text.clone(),
                            ..Record::default()
                        })),
                        counted: true,
                        simhash: Some(hash as u64),
                        again: None,
                        changed: Vec::new(),
                    },
                    links,
                    delay_ms: 0,
                };
                ends.push(f);
            }
        }
        for chunk in ends.chunks(batch) {
            c.finish_batch(&name, chunk).await.expect("finish");
            n.finishes += chunk.len() as u64;
        }
        for h in &claims {
            c.release(h, Duration::ZERO).await.expect("release");
        }
    }
    n
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut next = |d: u64| args.next().and_then(|a| a.parse().ok()).unwrap_or(d);
    let (n, hosts, workers, secs) = (next(10_000_000), next(100_000), next(8), next(60));
    let batch = next(32).max(1) as usize;
    let Some(pg) = Pg::start("bench") else {
        eprintln!("PostgreSQL is not installed: nothing measured");
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let url = pg.url();
    rt.block_on(async {
        // Load: batches of 1,000 new URLs, as links arrive, 4 connections.
        let start = Instant::now();
        let mut tasks = Vec::new();
        for t in 0..4u64 {
            let url = url.clone();
            tasks.push(tokio::spawn(async move {
                let mut c = Conn::connect(&url).await.expect("connect");
                let mut i = t * 1000;
                while i < n {
                    let batch: Vec<NewUrl> = (i..(i + 1000).min(n))
                        .map(|k| url_of(k, hosts))
                        .collect();
                    c.enqueue(&batch).await.expect("enqueue");
                    i += 4000;
                }
            }));
        }
        for t in tasks {
            t.await.expect("load task");
        }
        let load = start.elapsed().as_secs_f64();
        println!(
            "load: {n} URLs over {hosts} hosts in {load:.1} s = {:.0} URL inserts/s",
            n as f64 / load
        );
        println!("database after load: {}", pg.psql("SELECT pg_size_pretty(pg_database_size('postgres'))"));

        let until = Instant::now() + Duration::from_secs(secs);
        let start = Instant::now();
        let mut tasks = Vec::new();
        for w in 0..workers {
            tasks.push(tokio::spawn(worker(
                url.clone(),
                format!("w{w}"),
                hosts,
                until,
                batch,
            )));
        }
        let mut total = Counts::default();
        for t in tasks {
            let c = t.await.expect("worker");
            total.claims += c.claims;
            total.hosts += c.hosts;
            total.dues += c.dues;
            total.finishes += c.finishes;
            total.links += c.links;
        }
        let el = start.elapsed().as_secs_f64();
        println!(
            "steady state, {workers} workers, {el:.0} s: {:.0} completions/s (each: outcome + record + 5 links; {batch} per commit), \
             {:.0} claims/s ({:.1} hosts each), {:.0} due reads/s, {:.0} links offered/s",
            total.finishes as f64 / el,
            total.claims as f64 / el,
            total.hosts as f64 / total.claims.max(1) as f64,
            total.dues as f64 / el,
            total.links as f64 / el,
        );
    });
    println!(
        "database at the end: {} ({} URLs, {} hosts, {} records); urls table+indexes {}, records {}",
        pg.psql("SELECT pg_size_pretty(pg_database_size('postgres'))"),
        pg.psql("SELECT count(*) FROM trawl_urls"),
        pg.psql("SELECT count(*) FROM trawl_hosts"),
        pg.psql("SELECT count(*) FROM trawl_records"),
        pg.psql("SELECT pg_size_pretty(pg_total_relation_size('trawl_urls'))"),
        pg.psql("SELECT pg_size_pretty(pg_total_relation_size('trawl_records'))"),
    );
    println!(
        "postgres memory: shared_buffers {}, work_mem {}; all its processes' PSS: {} MB",
        pg.psql("SHOW shared_buffers"),
        pg.psql("SHOW work_mem"),
        postgres_pss_mb(),
    );
}

fn url_of(k: u64, hosts: u64) -> NewUrl {
    url(k % hosts, &format!("p{k}"))
}

/// Sum of the proportional set size (shared pages split between the
/// processes sharing them) of processes named postgres: this machine's
/// only ones are the bench's cluster while it runs.
fn postgres_pss_mb() -> u64 {
    let mut kb = 0;
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let status = std::fs::read_to_string(e.path().join("status")).unwrap_or_default();
            if status
                .lines()
                .next()
                .is_some_and(|l| l.ends_with("postgres"))
            {
                let smaps =
                    std::fs::read_to_string(e.path().join("smaps_rollup")).unwrap_or_default();
                kb += smaps
                    .lines()
                    .find(|l| l.starts_with("Pss:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    kb / 1024
}
