//! Freshness on the news site simulator (`tests/support/news.rs`): the
//! daemon runs SECONDS on a site where a new article appears every two
//! seconds and an older one is edited every five, once with conditional
//! requests and once without. Reports what each new article found cost:
//! requests and bytes the site sent, and how many answers were 304.
//!
//! `cargo bench --bench freshness -- [SECONDS]` (default 60).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use support::news::NewsSite;

fn main() {
    let secs: u64 = std::env::args()
        .skip(1)
        .find(|a| a != "--bench")
        .and_then(|a| a.parse().ok())
        .unwrap_or(60);
    println!(
        "| conditional | requests | 304 | bytes sent | new articles found | requests per new article | bytes per new article | records (all versions) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (i, conditional) in [true, false].into_iter().enumerate() {
        let site = NewsSite::start(
            &format!("127.0.5.{}", i + 1),
            6,
            Duration::from_secs(2),
            Duration::from_secs(5),
        );
        let dir = std::env::temp_dir().join(format!(
            "trawl-fresh-bench-{}-{conditional}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
        let cfg = support::config(
            &dir,
            &format!(
                "min_delay_ms = 50\n[revisit]\nhubs = \"2s\"\npages = \"4s\"\nmin = 1\n\
                 max = \"8s\"\nconditional = {conditional}\n[warc]\nenabled = false\n"
            ),
        );
        let seeds = dir.join("seeds.txt");
        std::fs::write(&seeds, format!("{} depth=3\n", site.url("/"))).expect("seeds");
        let started = Instant::now();
        let mut child = support::spawn_crawl(&cfg, &seeds, false);
        std::thread::sleep(Duration::from_secs(secs));
        support::cluster::signal(&child, libc::SIGTERM);
        let _ = child.wait();
        site.freeze();
        let hits = site.hits();
        let found = site
            .articles()
            .iter()
            .filter(|a| a.published > started)
            .filter(|a| {
                let path = format!("/article/{}", a.id);
                hits.iter().any(|h| h.path == path && h.status == 200)
            })
            .count()
            .max(1);
        let bytes: usize = hits.iter().map(|h| h.bytes).sum();
        let records = support::export_lines(&cfg, &["--all-versions"]).len();
        println!(
            "| {conditional} | {} | {} | {bytes} | {found} | {:.1} | {:.0} | {records} |",
            hits.len(),
            hits.iter().filter(|h| h.status == 304).count(),
            hits.len() as f64 / found as f64,
            bytes as f64 / found as f64,
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
