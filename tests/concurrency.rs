//! Requests in flight per host (issue 38): a seed line's `concurrency=`
//! for its own host, a `[[site]]` table's `concurrency` for its hosts, and
//! `crawl.max_per_host` for the rest, measured on the servers: each counts
//! the page requests it is answering at once. On one machine and with a
//! cluster worker.

mod support;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use support::{config, html, page, scratch, status, Host};

/// Story pages per site; each answer takes [`SLOW`].
const PAGES: usize = 9;
const SLOW: Duration = Duration::from_millis(300);

/// A site whose story pages are slow to answer, and the most of them it
/// was answering at once.
fn slow_site(ip: &str) -> (Host, Arc<AtomicUsize>) {
    let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let seen = most.clone();
    let host = Host::start(ip, move |path, _| match path {
        "/" => html(&page(
            "Front",
            &(1..=PAGES).map(|i| format!("/p/{i}")).collect::<Vec<_>>(),
        )),
        p if p.starts_with("/p/") => {
            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(SLOW);
            now.fetch_sub(1, Ordering::SeqCst);
            html(&page(p, &[]))
        }
        _ => status(404),
    });
    (host, seen)
}

/// Three sites: `a` with a seed's `concurrency=3`, `b` with a table's
/// `concurrency = 2`, `c` with neither (`crawl.max_per_host` = 1).
fn setup(name: &str, ips: [&str; 3]) -> (Vec<(Host, Arc<AtomicUsize>)>, PathBuf, PathBuf) {
    let sites: Vec<_> = ips.iter().map(|ip| slow_site(ip)).collect();
    let dir = scratch(name);
    let cfg = config(
        &dir,
        &format!(
            "min_delay_ms = 0\ntimeout_secs = 20\nsitemaps = false\n\
             [[site]]\nhost = \"{}\"\nconcurrency = 2\n",
            sites[1].0.addr
        ),
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(
        &seeds,
        format!(
            "{} concurrency=3\n{}\n{}\n",
            sites[0].0.url("/"),
            sites[1].0.url("/"),
            sites[2].0.url("/")
        ),
    )
    .expect("seeds");
    (sites, cfg, seeds)
}

fn assert_most_at_once(sites: &[(Host, Arc<AtomicUsize>)]) {
    let most: Vec<usize> = sites
        .iter()
        .map(|(_, m)| m.load(Ordering::SeqCst))
        .collect();
    assert_eq!(
        most,
        vec![3, 2, 1],
        "page requests answered at once (seed's 3, table's 2, the crawl's 1)"
    );
    for (h, _) in sites {
        let stories = h.paths().iter().filter(|p| p.starts_with("/p/")).count();
        assert_eq!(stories, PAGES, "every story fetched once from {}", h.addr);
    }
}

#[test]
fn seed_and_site_concurrency_set_requests_in_flight_per_host() {
    let (sites, cfg, seeds) = setup("concurrency", ["127.0.0.111", "127.0.0.112", "127.0.0.113"]);
    let out = support::crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_most_at_once(&sites);
    assert_eq!(support::export(&cfg).len(), 3 * (PAGES + 1));
}

#[test]
fn a_cluster_worker_keeps_each_hosts_concurrency() {
    let Some(pg) = support::pg::Pg::start("concurrency-cluster") else {
        return;
    };
    let (sites, cfg, seeds) = setup(
        "concurrency-cluster",
        ["127.0.0.114", "127.0.0.115", "127.0.0.116"],
    );
    let dir = cfg.parent().expect("dir").to_path_buf();
    support::cluster::run_once(&cfg, &pg, &dir, &seeds);
    assert_most_at_once(&sites);
    let records = support::export_lines(&cfg, &["--cluster", &pg.url()]);
    assert_eq!(records.len(), 3 * (PAGES + 1));
}
