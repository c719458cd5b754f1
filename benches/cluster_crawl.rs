//! Cluster mode end to end: WORKERS cluster workers (in this process, each
//! with its own store and runtime) crawl the crawl bench's generated web
//! (HOSTS hosts on 127.0.4.x, PAGES pages each) through one throwaway
//! PostgreSQL, politeness delays off, until the cluster is out of work.
//! Measures the whole worker pipeline: claims, due URLs, fetch, extract,
//! the outbox and the fenced commits.
//!
//! `cargo bench --bench cluster_crawl -- [HOSTS] [PAGES] [WORKERS]`
//! (defaults 100, 100 and 2).

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use support::pg::Pg;
use support::web::generated_web;
use trawl_crawl::fetch::{Fetcher, HttpFetcher};
use trawl_crawl::worker::{self, ClusterOptions};
use trawl_crawl::Config;
use trawl_crawl::RunOptions;

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let pages: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let workers: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let Some(pg) = Pg::start("bench-cluster-crawl") else {
        return;
    };
    let web = generated_web("127.0.4", hosts, pages);
    let dir = std::env::temp_dir().join(format!("trawl-cluster-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
    std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
    let seeds = dir.join("seeds/web.txt");
    let lines: String = web.iter().map(|h| h.url("/") + "\n").collect();
    std::fs::write(&seeds, lines).expect("seeds");
    let start = Instant::now();
    let runs: Vec<_> = (0..workers)
        .map(|w| {
            let (dir, seeds, url) = (dir.clone(), seeds.clone(), pg.url());
            std::thread::spawn(move || {
                let text = format!(
                    "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\n\
                     min_delay_ms = 0\nmax_concurrent = 64\nmax_depth = 1000\nsitemaps = false\n",
                    dir.join(format!("w{w}")).display(),
                    dir.join("none").display(),
                );
                let cfg = Config::parse(&text, std::path::Path::new("bench.toml"))
                    .unwrap_or_else(|e| panic!("config: {e}"));
                let fetcher: Arc<dyn Fetcher> = Arc::new(
                    HttpFetcher::new(&cfg.fetch_config()).unwrap_or_else(|e| panic!("client: {e}")),
                );
                let cluster = ClusterOptions {
                    url,
                    worker: format!("w{w}"),
                    lease: Duration::from_secs(30),
                    max_hosts: 64,
                    batch: 32,
                };
                let opts = RunOptions {
                    extra_seeds: vec![seeds],
                    exit_when_idle: true,
                    ..Default::default()
                };
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()
                    .unwrap_or_else(|e| panic!("runtime: {e}"));
                rt.block_on(worker::run(cfg, opts, fetcher, cluster))
                    .unwrap_or_else(|e| panic!("worker w{w}: {e}"))
            })
        })
        .collect();
    let snaps: Vec<_> = runs
        .into_iter()
        .map(|r| r.join().unwrap_or_else(|_| panic!("a worker panicked")))
        .collect();
    let secs = start.elapsed().as_secs_f64();
    let fetched: u64 = snaps.iter().map(|s| s.fetched).sum();
    let records: u64 = snaps.iter().map(|s| s.records).sum();
    let each: Vec<String> = snaps.iter().map(|s| s.fetched.to_string()).collect();
    println!(
        "cluster: {fetched} pages ({records} records) from {hosts} hosts x {pages} pages by \
         {workers} workers ({}) in {secs:.1} s: {:.0} pages/s end to end",
        each.join(" + "),
        fetched as f64 / secs
    );
    let _ = std::fs::remove_dir_all(&dir);
}
