//! End-to-end crawl throughput on a generated local web: HOSTS hosts on
//! 127.0.2.x, PAGES pages each (~7 KB of generated HTML: navigation,
//! article text, related links), politeness delays off. Measures trawl's
//! whole pipeline (fetch, extract, store) and, side by side, a plain
//! spider-crate crawl of the same web (fetch and link discovery only).
//!
//! `cargo bench --bench crawl -- [HOSTS] [PAGES]` (defaults 200 and 250).

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::Instant;

use support::{html, peak_rss_mb, run_daemon, status, Host};

const WORDS: &[&str] = &[
    "river", "market", "engine", "garden", "winter", "signal", "harbor", "village", "theory",
    "copper", "forest", "ticket", "mirror", "planet", "silver", "window", "bridge", "castle",
    "pepper", "rocket", "the", "of", "and", "a", "to", "in", "is", "that", "for", "with", "as",
    "on", "was", "by",
];

fn words(seed: u64, n: usize) -> String {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            WORDS[(x % WORDS.len() as u64) as usize]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn page(host: usize, i: usize, pages: usize) -> String {
    let nav: String = (0..15)
        .map(|k| {
            format!(
                "<li><a href=\"/p{}\">Section {k}</a></li>",
                (k * 17) % pages
            )
        })
        .collect();
    let related: String = (1..=8)
        .map(|k| {
            format!(
                "<li><a href=\"/p{}\">{}</a></li>",
                (i + k * k) % pages,
                words((host * 1000 + i + k) as u64, 6)
            )
        })
        .collect();
    let paras: String = (0..9)
        .map(|k| {
            format!(
                "<p>{}.</p>",
                words((host * 100_000 + i * 10 + k) as u64, 110)
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Page {i} of site {host}</title>\
         <meta name=description content=\"{}\"><style>body{{font:16px serif}}</style></head><body>\
         <header class=site-header><a href=/>Site {host}</a><nav><ul>{nav}</ul></nav></header>\
         <main><article><h1>Page {i} of site {host}</h1><p class=byline>By Writer {}</p>{paras}</article>\
         <aside class=related><h2>Related</h2><ul>{related}</ul></aside></main>\
         <footer class=site-footer><p>Copyright site {host}</p><a href=/privacy>Privacy</a></footer></body></html>",
        words(i as u64, 12),
        host % 7
    )
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let pages: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(250);
    let web: Vec<Host> = (0..hosts)
        .map(|h| {
            let ip = format!("127.0.2.{}", h + 1);
            Host::start(&ip, move |path, _| {
                if path == "/robots.txt" {
                    return status(404);
                }
                let i: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
                if path != "/" && !path.starts_with("/p") || i >= pages {
                    return status(404);
                }
                html(&page(h, i, pages))
            })
        })
        .collect();
    let avg_kb = page(0, 1, pages).len() as f64 / 1024.0;
    let dir = std::env::temp_dir().join(format!("trawl-crawl-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
    std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
    let seeds: String = web.iter().map(|h| h.url("/") + "\n").collect();
    std::fs::write(dir.join("seeds/web.txt"), seeds).expect("seeds");
    let cfg_text = format!(
        "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\nmin_delay_ms = 0\nmax_concurrent = 128\n\
         max_depth = 1000\nsitemaps = false\n",
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
         {:.0} pages/s end to end (fetch, extract, store); peak RSS {:.0} MB",
        snap.fetched,
        snap.records,
        snap.fetched as f64 / secs,
        peak_rss_mb()
    );

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
    let _ = std::fs::remove_dir_all(&dir); // the bench's scratch store
}
