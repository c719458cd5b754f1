//! Crash safety with a real child process: SIGTERM stops cleanly and the
//! next start resumes; `kill -9` at several moments loses no queued URL and
//! stores or exports no page twice.

mod support;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use support::*;

/// Two hosts, 40 pages each, every page linking to the next five.
fn site(ip: &'static str) -> Host {
    Host::start(ip, move |path, _| {
        if path == "/robots.txt" {
            return status(404);
        }
        let n: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
        let links: Vec<String> = (n + 1..(n + 6).min(40)).map(|i| format!("/p{i}")).collect();
        html(&page(&format!("Page {n} of {ip}"), &links))
    })
}

fn status_fetched(port: u16) -> Option<u64> {
    status_json(port)?["fetched"].as_u64()
}

fn wait_for_pages(port: u16, n: u64, child: &mut std::process::Child) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if status_fetched(port).is_some_and(|f| f >= n) {
            return;
        }
        if let Ok(Some(code)) = child.try_wait() {
            panic!("daemon exited early ({code:?}): {}", stderr_of(child));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill(); // the test failed; make sure the child does not linger
    panic!(
        "daemon did not fetch {n} pages in 30 s: {}",
        stderr_of(child)
    );
}

fn check_complete(cfg: &std::path::Path, hosts: &[&Host]) {
    let recs = export(cfg);
    let mut count: HashMap<String, usize> = HashMap::new();
    for r in &recs {
        *count
            .entry(r["url"].as_str().unwrap_or("").to_string())
            .or_default() += 1;
    }
    let dups: Vec<_> = count.iter().filter(|(_, &n)| n > 1).collect();
    assert!(dups.is_empty(), "pages stored twice: {dups:?}");
    let want: HashSet<String> = hosts
        .iter()
        .flat_map(|h| std::iter::once(h.url("/")).chain((1..40).map(|i| h.url(&format!("/p{i}")))))
        .collect();
    let got: HashSet<String> = count.keys().cloned().collect();
    let missing: Vec<_> = want.difference(&got).collect();
    assert!(
        missing.is_empty(),
        "{} pages lost: {missing:?}",
        missing.len()
    );
    let seqs: Vec<u64> = recs.iter().filter_map(|r| r["seq"].as_u64()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "export cursor order");
}

#[test]
fn sigterm_stops_cleanly_and_the_next_start_resumes() {
    let (a, b) = (site("127.0.0.20"), site("127.0.0.21"));
    let dir = scratch("sigterm");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("sitemaps = false\nmax_depth = 50\nstatus_addr = \"127.0.0.1:{port}\""),
    );
    let seeds = dir.join("s.txt");
    std::fs::write(&seeds, format!("{}\n{}\n", a.url("/"), b.url("/")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut child = spawn_crawl(&cfg, &seeds, false);
    wait_for_pages(port, 10, &mut child);
    let sent = Instant::now();
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill -TERM");
    let code = loop {
        if let Ok(Some(s)) = child.try_wait() {
            break s;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(10),
            "no exit within 10 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        code.success(),
        "exit code after SIGTERM: {code:?} {}",
        stderr_of(&mut child)
    );
    let partial = export(&cfg).len();
    assert!(
        (10..80).contains(&partial),
        "stopped part-way: {partial} records"
    );
    crawl_once(&cfg, &seeds);
    check_complete(&cfg, &[&a, &b]);
}

#[test]
fn kill_9_at_random_moments_loses_and_duplicates_nothing() {
    let (a, b) = (site("127.0.0.22"), site("127.0.0.23"));
    let dir = scratch("kill9");
    let cfg = config(&dir, "sitemaps = false\nmax_depth = 50\nmin_delay_ms = 80");
    let seeds = dir.join("s.txt");
    std::fs::write(&seeds, format!("{}\n{}\n", a.url("/"), b.url("/")))
        .unwrap_or_else(|e| panic!("{e}"));
    // Moments spread over the crawl (a fixed pseudo-random sequence keeps it
    // reproducible). 40 pages per host 80 ms apart take at least 3.2 s, more
    // than all kill windows together, so every kill lands mid-crawl.
    for (round, ms) in [170u64, 420, 90, 650, 310].into_iter().enumerate() {
        let mut child = spawn_crawl(&cfg, &seeds, true);
        std::thread::sleep(Duration::from_millis(ms));
        if child.try_wait().ok().flatten().is_none() {
            child
                .kill()
                .unwrap_or_else(|e| panic!("round {round}: kill -9: {e}"));
        }
        // Reap it; killed before it made its store (a loaded machine, 90 ms),
        // it has nothing to count yet.
        let _ = child.wait();
        if dir.join("storage").exists() {
            eprintln!("after kill round {round}: {} records", export(&cfg).len());
        }
    }
    let before = export(&cfg).len();
    assert!(
        before < 80,
        "the kills must land while work remains ({before} of 80 done)"
    );
    crawl_once(&cfg, &seeds);
    check_complete(&cfg, &[&a, &b]);
    // The archive too: every file whole after the kills (a torn last record
    // is cut off at the next start), every record's response in it.
    if let Some(w) = warcio() {
        assert_warc_whole(&w, &dir.join("storage"), &export(&cfg));
    }
    let outs = outcomes(&cfg);
    let urls: HashSet<&str> = outs.iter().filter_map(|o| o["url"].as_str()).collect();
    assert_eq!(urls.len(), outs.len(), "one outcome per URL");
}

/// The library does not own the process (issue 35): an embedding program
/// stops a run with its own shutdown future, no signal involved, and the
/// run returns with the store flushed; the next run resumes.
#[test]
fn an_embedding_program_stops_the_run_with_its_own_future() {
    let host = site("127.0.0.15");
    let dir = scratch("shutdown-future");
    let cfg_path = config(&dir, "sitemaps = false\nmin_delay_ms = 200\nmax_depth = 20");
    std::fs::write(dir.join("seeds/s.txt"), format!("{}\n", host.url("/p0")))
        .unwrap_or_else(|e| panic!("{e}"));
    let cfg = trawl_crawl::Config::load(&cfg_path).unwrap_or_else(|e| panic!("{e}"));
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let snap = rt
        .block_on(async {
            // In the runtime: a timer needs one.
            let stop = tokio::time::sleep(Duration::from_millis(1500));
            let opts = trawl_crawl::RunOptions {
                shutdown: Some(trawl_crawl::Shutdown::new(stop)),
                ..Default::default()
            };
            trawl_crawl::run(cfg, opts).await
        })
        .unwrap_or_else(|e| panic!("crawl: {e}"));
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "stopped by the future: {took:?}"
    );
    assert!(
        snap.fetched > 0 && snap.fetched < 40,
        "stopped midway: {}",
        snap.fetched
    );
    drop(rt);
    // The next start resumes where it stopped: all 40 pages, none twice.
    crawl_once(&cfg_path, &dir.join("seeds/s.txt"));
    let records = export(&cfg_path);
    let urls: HashSet<&str> = records.iter().filter_map(|r| r["url"].as_str()).collect();
    assert_eq!((records.len(), urls.len()), (40, 40));
}
