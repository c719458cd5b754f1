//! End-to-end crawl throughput on a generated local web: HOSTS hosts on
//! 127.0.2.x, PAGES pages each (~7 KB of generated HTML: navigation,
//! article text, related links), politeness delays off. Measures trawl's
//! whole pipeline (fetch, extract, store) and, side by side, a plain
//! spider-crate crawl of the same web (fetch and link discovery only).
//!
//! `cargo bench --bench crawl -- [HOSTS] [PAGES] [WARC]` (defaults 200, 250
//! and `on`: the WARC archive written; `off` to compare).

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::Instant;

use support::web::{generated_web, page};
use support::{peak_rss_mb, run_daemon};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let pages: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(250);
    let warc = args.next().is_none_or(|a| a != "off");
    let web = generated_web("127.0.2", hosts, pages);
    let avg_kb = page(0, 1, pages).len() as f64 / 1024.0;
    let dir = std::env::temp_dir().join(format!("trawl-crawl-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
    std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
    let seeds: String = web.iter().map(|h| h.url("/") + "\n").collect();
    std::fs::write(dir.join("seeds/web.txt"), seeds).expect("seeds");
    let cfg_text = format!(
        "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\nmin_delay_ms = 0\nmax_concurrent = 128\n\
         max_depth = 1000\nsitemaps = false\n[warc]\nenabled = {warc}\n",
        dir.join("storage").display(),
        dir.join("seeds").display()
    );
    let (snap, secs) = run_daemon(&cfg_text);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    println!(
        "trawl: {} pages ({} records) from {hosts} hosts x {pages} pages (~{avg_kb:.0} KB each) in {secs:.1} s: \
         {:.0} pages/s end to end (fetch, extract, store); peak RSS {:.0} MB; rendered under render.mode auto: {}",
        snap.fetched,
        snap.records,
        snap.fetched as f64 / secs,
        peak_rss_mb(),
        snap.render.rendered
    );

    if warc {
        let bytes: u64 = std::fs::read_dir(dir.join("storage/warc"))
            .map(|d| {
                d.filter_map(|e| e.ok()?.metadata().ok())
                    .map(|m| m.len())
                    .sum()
            })
            .unwrap_or(0);
        println!(
            "WARC archive: {:.1} MB, {:.1} KB per page",
            bytes as f64 / 1e6,
            bytes as f64 / 1e3 / snap.fetched.max(1) as f64
        );
    }

    // The same web through spider's own crawl loop (fetch + links, no extraction, no store).
    let start = Instant::now();
    let fetched = rt.block_on(async {
        let total = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for h in &web {
            let url = h.url("/");
            let total = total.clone();
            tasks.push(tokio::spawn(async move {
                let mut site = spider::website::Website::new(&url);
                site.crawl().await;
                total.fetch_add(site.get_links().len(), std::sync::atomic::Ordering::Relaxed);
            }));
        }
        for t in tasks {
            let _ = t.await; // a failed site shows up as fewer pages
        }
        total.load(std::sync::atomic::Ordering::Relaxed)
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "spider (fetch only): {fetched} pages in {secs:.1} s: {:.0} pages/s",
        fetched as f64 / secs
    );
    // `TRAWL_BENCH_KEEP_WARC=DIR` keeps the archive (the extract-from-WARC bench reads it).
    if let Some(keep) = std::env::var_os("TRAWL_BENCH_KEEP_WARC") {
        let _ = std::fs::rename(dir.join("storage/warc"), keep);
    }
    let _ = std::fs::remove_dir_all(&dir); // the bench's scratch store
}
