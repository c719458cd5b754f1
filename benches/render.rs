//! Rendering throughput and memory: HOSTS hosts on 127.0.4.x, PAGES app
//! shells each (an empty `#root`, a script that fetches the article as
//! JSON and draws it), crawled with `render.mode = "auto"` and politeness
//! delays off, once per tab count. Reports rendered pages per second, the
//! crawl process's peak RSS and the browser's peak memory (the PSS of all
//! its processes, sampled every 100 ms).
//!
//! `cargo bench --bench render -- [HOSTS] [PAGES] [TABS,TABS,…]`
//! (defaults 8, 25 and 1,2,4). Needs chromium.

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use support::{peak_rss_mb, run_daemon, Host, Reply};

const PROSE: &str = "The harbour wall was rebuilt in granite after the storm of the winter before, and the fishing boats came back within the month.";

fn site(ip: &str, pages: usize) -> Host {
    Host::start(ip, move |path, _| {
        match path {
        "/" => {
            let links: String = (0..pages)
                .map(|i| format!("<li><a href=\"/p/{i}\">Story {i} of the harbour and its boats</a></li>"))
                .collect();
            support::html(&format!(
                "<html><head><title>Index</title></head><body><h1>Stories</h1><ul>{links}</ul></body></html>"
            ))
        }
        "/app.js" => Reply::Status(
            200,
            vec![("Content-Type".into(), "application/javascript".into())],
            b"fetch('/api' + location.pathname + '.json').then(r => r.json()).then(d => {\
                document.getElementById('root').innerHTML = '<article><h1>' + d.title + '</h1>' +\
                d.paras.map(p => '<p>' + p + '</p>').join('') + '</article>'; });"
                .to_vec(),
        ),
        p if p.starts_with("/api/p/") => {
            let n = p.trim_start_matches("/api/p/").trim_end_matches(".json");
            let paras: Vec<String> = (0..6).map(|k| format!("{PROSE} Part {k} of story {n}.")).collect();
            let body = serde_json::json!({"title": format!("Story {n}"), "paras": paras});
            Reply::Status(
                200,
                vec![("Content-Type".into(), "application/json".into())],
                body.to_string().into_bytes(),
            )
        }
        p if p.starts_with("/p/") => support::html(
            "<!doctype html><html><head><title>Story</title><script src=\"/app.js\" defer></script></head>\
             <body><div id=\"root\"></div></body></html>",
        ),
        _ => support::status(404),
    }
    })
}

/// Proportional memory (PSS: shared pages split among the processes that
/// share them) of every process whose command line names `needle`, in MB.
fn rss_of(needle: &str) -> f64 {
    let mut kb = 0u64;
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let dir = e.path();
        let Ok(cmd) = std::fs::read(dir.join("cmdline")) else {
            continue;
        };
        if !String::from_utf8_lossy(&cmd).contains(needle) {
            continue;
        }
        let rollup = std::fs::read_to_string(dir.join("smaps_rollup")).unwrap_or_default();
        kb += rollup
            .lines()
            .find_map(|l| l.strip_prefix("Pss:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0);
    }
    kb as f64 / 1024.0
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let pages: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(25);
    let tabs: Vec<usize> = args
        .next()
        .unwrap_or_else(|| "1,2,4".into())
        .split(',')
        .filter_map(|t| t.parse().ok())
        .collect();
    if trawl_crawl::render::find_chromium("").is_err() {
        eprintln!("no chromium: apt-get install chromium");
        return;
    }
    let web: Vec<Host> = (0..hosts)
        .map(|h| site(&format!("127.0.4.{}", h + 1), pages))
        .collect();
    for t in tabs {
        let dir =
            std::env::temp_dir().join(format!("trawl-render-bench-{}-{t}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
        let seeds: String = web.iter().map(|h| h.url("/") + " depth=1\n").collect();
        std::fs::write(dir.join("seeds/web.txt"), seeds).expect("seeds");
        let cfg = format!(
            "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\nmin_delay_ms = 0\n\
             sitemaps = false\n[render]\nmode = \"auto\"\ntabs = {t}\nidle_ms = 200\n",
            dir.join("storage").display(),
            dir.join("seeds").display()
        );
        let (stop, peak) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicU64::new(0)),
        );
        let sampler = {
            let (stop, peak) = (stop.clone(), peak.clone());
            let needle = format!("trawl-browser/profile-{}-", std::process::id());
            std::thread::spawn(move || {
                while !stop.load(Relaxed) {
                    peak.fetch_max(rss_of(&needle) as u64, Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            })
        };
        let (snap, secs) = run_daemon(&cfg);
        stop.store(true, Relaxed);
        let _ = sampler.join();
        println!(
            "tabs {t}: {} pages fetched, {} rendered ({} failed, {} browser requests) in {secs:.1} s: \
             {:.1} rendered pages/s; peak RSS trawl {:.0} MB (process so far), browser {} MB (PSS, all its processes)",
            snap.fetched,
            snap.render.rendered,
            snap.render.failed,
            snap.render.requests,
            snap.render.rendered as f64 / secs,
            peak_rss_mb(),
            peak.load(Relaxed)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
