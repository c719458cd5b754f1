//! Edits found with the default revisit settings (issue 53, item 5): a
//! daemon seeded with `revisit=2s` (its hubs: the front page, the feed, the
//! sitemap) and `[revisit] pages = "never"` (the default: an article is not
//! refetched on a timer) stores a new version of every edited article of
//! three news sites, each announcing its edits in one place only: the
//! sitemap's `<lastmod>`, the feed's entry dates, or the front page's list
//! of what changed last. Before, it stored none (new articles: all; 304s:
//! all). On one machine and with two cluster workers.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use support::cluster::{spawn_worker, stop};
use support::news::{Announce, NewsSite};
use support::{config, export_lines, scratch, spawn_crawl};

/// How long the daemon runs.
const RUN: Duration = Duration::from_secs(30);
/// An edit made this long before the end must have been found.
const FOUND_WITHIN: Duration = Duration::from_secs(9);

fn sites(ips: [&str; 3]) -> Vec<(Announce, NewsSite)> {
    [Announce::Sitemap, Announce::Feed, Announce::Front]
        .into_iter()
        .zip(ips)
        .map(|(a, ip)| {
            let site =
                NewsSite::announcing(ip, 12, Duration::from_secs(4), Duration::from_secs(3), a);
            (a, site)
        })
        .collect()
}

/// The defaults but for the spacing (the sites are small) and the archive.
fn edits_config(dir: &Path) -> std::path::PathBuf {
    config(dir, "min_delay_ms = 50\n[warc]\nenabled = false\n")
}

fn seeds_file(dir: &Path, sites: &[(Announce, NewsSite)]) -> std::path::PathBuf {
    let seeds = dir.join("seeds.txt");
    let lines: String = sites
        .iter()
        .map(|(_, s)| format!("{} depth=3 revisit=2s\n", s.url("/")))
        .collect();
    std::fs::write(&seeds, lines).expect("seeds");
    seeds
}

/// Every article edited `FOUND_WITHIN` before `ended` has a newer version
/// with the new text; an article never edited has one record.
fn assert_edits_found(
    sites: &[(Announce, NewsSite)],
    records: &[serde_json::Value],
    ended: Instant,
) {
    for (announce, site) in sites {
        let articles = site.articles();
        let edited: Vec<_> = articles
            .iter()
            .filter(|a| a.edited.is_some_and(|t| t + FOUND_WITHIN < ended))
            .collect();
        assert!(
            edited.len() >= 3,
            "{announce:?}: only {} edits",
            edited.len()
        );
        let mut missed = Vec::new();
        for a in &edited {
            let url = site.url(&format!("/article/{}", a.id));
            let newest = records
                .iter()
                .filter(|r| r["url"].as_str() == Some(url.as_str()))
                .max_by_key(|r| r["seq"].as_u64().unwrap_or(0));
            let fresh = newest.is_some_and(|r| {
                r["version"].as_u64().unwrap_or(1) >= 2
                    && r["text"]
                        .as_str()
                        .is_some_and(|t| t.contains(&format!("Revision {} ", a.edits)))
            });
            if !fresh {
                missed.push(a.id);
            }
        }
        assert!(
            missed.is_empty(),
            "{announce:?}: {} of {} edited articles have no new version: {missed:?}\n{}",
            missed.len(),
            edited.len(),
            what_was_asked(site, &missed, records, ended)
        );
        for a in articles.iter().filter(|a| a.edits == 0) {
            let url = site.url(&format!("/article/{}", a.id));
            let n = records
                .iter()
                .filter(|r| r["url"].as_str() == Some(url.as_str()))
                .count();
            assert!(n <= 1, "{url} never changed but has {n} records");
        }
        // The checks are conditional: what did not change is answered 304.
        let hits = site.hits();
        let refetched_unchanged = hits
            .iter()
            .filter(|h| h.path.starts_with("/article/") && h.conditional && h.status == 200)
            .filter(|h| {
                let id: usize = h.path[9..].parse().unwrap_or(usize::MAX);
                articles.get(id).is_some_and(|a| a.edits == 0)
            })
            .count();
        assert_eq!(
            refetched_unchanged, 0,
            "{announce:?}: an unchanged article sent again"
        );
        eprintln!(
            "{announce:?}: {} edited in time, all found; {} requests, {} answered 304",
            edited.len(),
            hits.len(),
            hits.iter().filter(|h| h.status == 304).count()
        );
    }
}

/// For a miss (rare: once in many runs), what the site was asked and
/// when, against its edits, and the records kept: seconds before the end.
fn what_was_asked(
    site: &NewsSite,
    missed: &[usize],
    records: &[serde_json::Value],
    ended: Instant,
) -> String {
    let before = |t: Instant| ended.saturating_duration_since(t).as_secs_f64();
    let articles = site.articles();
    let mut out = String::new();
    for &id in missed {
        let path = format!("/article/{id}");
        if let Some(a) = articles.iter().find(|a| a.id == id) {
            let edited = a.edited.map(before);
            out.push_str(&format!(
                "{path}: {} edits, the last {edited:?} s before the end\n",
                a.edits
            ));
        }
        for h in site
            .hits()
            .iter()
            .filter(|h| h.path == path || !h.path.starts_with("/article/"))
        {
            out.push_str(&format!(
                "  {:>6.2} s before: {} {}{}\n",
                before(h.at),
                h.path,
                h.status,
                if h.conditional { " (conditional)" } else { "" }
            ));
        }
        let url = site.url(&path);
        for r in records
            .iter()
            .filter(|r| r["url"].as_str() == Some(url.as_str()))
        {
            out.push_str(&format!(
                "  record seq {} version {}\n",
                r["seq"], r["version"]
            ));
        }
    }
    out
}

#[test]
fn edits_announced_by_a_sitemap_a_feed_or_a_front_page_are_found() {
    let sites = sites(["127.0.0.131", "127.0.0.132", "127.0.0.133"]);
    let dir = scratch("edits-one");
    let cfg = edits_config(&dir);
    let seeds = seeds_file(&dir, &sites);
    let child = spawn_crawl(&cfg, &seeds, false);
    std::thread::sleep(RUN);
    let ended = Instant::now();
    let log = stop(child);
    for (_, s) in &sites {
        s.freeze();
    }
    let records = export_lines(&cfg, &["--all-versions"]);
    assert_edits_found(&sites, &records, ended);
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn two_cluster_workers_find_the_announced_edits() {
    let Some(pg) = support::pg::Pg::start("edits-cluster") else {
        return;
    };
    let sites = sites(["127.0.0.134", "127.0.0.135", "127.0.0.136"]);
    let dir = scratch("edits-cluster");
    let cfg = edits_config(&dir);
    let seeds = seeds_file(&dir, &sites);
    let worker = |name: &str| spawn_worker(&cfg, &pg.url(), name, &dir, &seeds);
    let (a, b) = (worker("w1"), worker("w2"));
    std::thread::sleep(RUN);
    let ended = Instant::now();
    let (la, lb) = (stop(a), stop(b));
    for (_, s) in &sites {
        s.freeze();
    }
    let records = export_lines(&cfg, &["--cluster", &pg.url(), "--all-versions"]);
    assert_edits_found(&sites, &records, ended);
    assert!(
        !la.contains("panicked") && !lb.contains("panicked"),
        "{la}\n{lb}"
    );
}
