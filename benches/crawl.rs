//! End-to-end crawl throughput on a generated local web: HOSTS hosts on
//! 127.0.2.x, PAGES pages each (~7 KB of generated HTML: navigation,
//! article text, related links), politeness delays off. Measures trawl's
//! whole pipeline (fetch, extract, store) and, side by side, a plain
//! spider-crate crawl of the same web (fetch and link discovery only).
//!
//! `cargo bench --bench crawl -- [HOSTS] [PAGES] [WARC] [WEB]` (defaults
//! 200, 250, `on`: the WARC archive written, `off` to compare; and
//! `generated`). WEB `real` serves the text datasets' saved pages instead
//! (wcxb-dev, trafilatura-eval, cleaneval, multilingual-dev from
//! `../shared/datasets` or `$TRAWL_SHARED/datasets`, cycled; their own links
//! made inert, the generated links put in).
//!
//! With `TRAWL_BENCH_PEER=PYTHON` (a Python with scrapy and trafilatura),
//! Scrapy + trafilatura crawls the same web after trawl
//! (`scripts/peer_scrapy.py`), and both run at the setting the speed issue
//! names: 64 requests in flight, 2 per host (else trawl runs 128, 1 per
//! host, as in the bench's history). trafilatura writes Markdown with
//! metadata, as trawl's records hold; `TRAWL_BENCH_PEER_FORMAT=txt` asks
//! for its plain default instead.

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::Instant;

use support::web::{generated_web, page, real_web};
use support::{peak_rss_mb, run_daemon, Host};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let pages: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(250);
    let warc = args.next().is_none_or(|a| a != "off");
    let real = args.next().is_some_and(|a| a == "real");
    let peer = std::env::var_os("TRAWL_BENCH_PEER");
    let (in_flight, per_host) = if peer.is_some() { (64, 2) } else { (128, 1) };
    // The daemon's allocator settings (`trawl crawl` sets them first): the
    // bench measures the daemon, not a default glibc.
    trawl_crawl::store::alloc::tune_allocator();
    let (web, avg_kb) = start_web(hosts, pages, real);
    let dir = std::env::temp_dir().join(format!("trawl-crawl-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
    std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
    let seeds: String = web.iter().map(|h| h.url("/") + "\n").collect();
    std::fs::write(dir.join("seeds/web.txt"), seeds).expect("seeds");
    // Saved pages' scripts name real sites: never rendered here.
    let render = if real { "never" } else { "auto" };
    let cfg_text = format!(
        "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\nmin_delay_ms = 0\nmax_concurrent = {in_flight}\n\
         max_per_host = {per_host}\nmax_depth = 1000\nsitemaps = false\n[warc]\nenabled = {warc}\n\
         [render]\nmode = \"{render}\"\n",
        dir.join("storage").display(),
        dir.join("seeds").display(),
    );
    println!(
        "{} web, {in_flight} requests in flight, {per_host} per host, WARC {}",
        if real { "real-page" } else { "generated" },
        if warc { "on" } else { "off" }
    );
    let (snap, secs) = run_daemon(&cfg_text);
    let trawl_rate = snap.fetched as f64 / secs;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    println!(
        "trawl: {} pages ({} records) from {hosts} hosts x {pages} pages (~{avg_kb:.0} KB each) in {secs:.1} s: \
         {:.0} pages/s end to end (fetch, extract, store); peak RSS {:.0} MB{}; rendered under render.mode {render}: {}",
        snap.fetched,
        snap.records,
        trawl_rate,
        peak_rss_mb(),
        if real { " (the served pages' copy in memory included)" } else { "" },
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
    if let Some(python) = peer {
        scrapy_peer(&python, &dir, trawl_rate);
    }
    // `TRAWL_BENCH_KEEP_WARC=DIR` keeps the archive (the extract-from-WARC bench reads it).
    if let Some(keep) = std::env::var_os("TRAWL_BENCH_KEEP_WARC") {
        let _ = std::fs::rename(dir.join("storage/warc"), keep);
    }
    if std::env::var_os("KEEPDIR").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The web to crawl and its pages' mean size in KB.
fn start_web(hosts: usize, pages: usize, real: bool) -> (Vec<Host>, f64) {
    if !real {
        let avg_kb = page(0, 1, pages).len() as f64 / 1024.0;
        return (generated_web("127.0.2", hosts, pages), avg_kb);
    }
    let saved = saved_pages();
    assert!(
        !saved.is_empty(),
        "no saved pages under the datasets: see the bench's header"
    );
    let avg_kb = saved.iter().map(Vec::len).sum::<usize>() as f64 / saved.len() as f64 / 1024.0;
    println!("{} saved pages, cycled", saved.len());
    (real_web("127.0.2", hosts, pages, saved), avg_kb)
}

/// The text datasets' saved pages, gunzipped, in file-name order.
fn saved_pages() -> Vec<Vec<u8>> {
    use std::io::Read;
    let shared = std::env::var_os("TRAWL_SHARED").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        std::path::PathBuf::from,
    );
    let mut out = Vec::new();
    for set in [
        "wcxb-dev",
        "trafilatura-eval",
        "cleaneval",
        "multilingual-dev",
    ] {
        let Ok(dir) = std::fs::read_dir(shared.join("datasets").join(set).join("html")) else {
            continue;
        };
        let mut files: Vec<_> = dir.filter_map(|e| Some(e.ok()?.path())).collect();
        files.sort();
        for f in files {
            let Ok(gz) = std::fs::read(&f) else { continue };
            let mut page = Vec::new();
            if flate2::read::GzDecoder::new(&gz[..])
                .read_to_end(&mut page)
                .is_ok()
            {
                out.push(page);
            }
        }
    }
    out
}

/// Scrapy + trafilatura over the same seeds, and trawl's pages/s against it.
fn scrapy_peer(python: &std::ffi::OsStr, dir: &std::path::Path, trawl_rate: f64) {
    let out = dir.join("scrapy.jsonl");
    // `TRAWL_BENCH_PEER_FORMAT=txt`: trafilatura's plain default output.
    let format = std::env::var("TRAWL_BENCH_PEER_FORMAT").unwrap_or_else(|_| "markdown".into());
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/peer_scrapy.py");
    let start = Instant::now();
    let status = std::process::Command::new(python)
        .arg(script)
        .arg(dir.join("seeds/web.txt"))
        .arg(&out)
        .args(["--in-flight", "64", "--per-host", "2", "--format", &format])
        .status();
    let secs = start.elapsed().as_secs_f64();
    match status {
        Ok(s) if s.success() => {
            let pages = std::fs::read_to_string(&out).map_or(0, |t| t.lines().count());
            let rate = pages as f64 / secs;
            println!(
                "Scrapy + trafilatura ({format}): {pages} pages in {secs:.1} s: {rate:.1} pages/s; \
                 trawl {:.1}x as many pages/s",
                trawl_rate / rate.max(f64::MIN_POSITIVE)
            );
        }
        other => println!("Scrapy + trafilatura did not run: {other:?}"),
    }
}
