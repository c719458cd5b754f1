//! Freshness (issue 37): a daemon left running on a news site (the
//! simulator in `support/news.rs`: a front page, sections, an RSS feed, a
//! sitemap, a new article every two seconds, an older one edited every
//! five) finds the new articles within two hub intervals, stores each
//! once, stores an edited article's new text as a new version, is answered
//! 304 for what did not change, and keeps every host's spacing. On one
//! machine and with two cluster workers; a restart keeps the schedule.

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use support::cluster::{signal, spawn_worker, stop};
use support::news::{Hit, NewsSite};
use support::{config, export_lines, scratch, spawn_crawl};

/// The hub interval the tests configure, and the spacing.
const HUBS_SECS: u64 = 2;
const DELAY_MS: u64 = 50;

fn revisit_config(dir: &Path, extra: &str) -> std::path::PathBuf {
    config(
        dir,
        &format!(
            "min_delay_ms = {DELAY_MS}\n{extra}\n[revisit]\nhubs = \"{HUBS_SECS}s\"\n\
             pages = \"4s\"\nmin = 1\nmax = \"8s\"\n[warc]\nenabled = false\n"
        ),
    )
}

/// Everything the freshness checks assert, from the site's log and the
/// records exported with every version.
fn assert_fresh(site: &NewsSite, records: &[serde_json::Value], started: Instant, ended: Instant) {
    let hits = site.hits();
    let articles = site.articles();
    let first_fetch: HashMap<String, Instant> =
        hits.iter().rev().fold(HashMap::new(), |mut m, h| {
            if h.status == 200 {
                m.insert(h.path.clone(), h.at);
            }
            m
        });
    // New articles, found within two hub intervals of appearing.
    let window = Duration::from_secs(2 * HUBS_SECS);
    let new: Vec<_> = articles
        .iter()
        .filter(|a| a.published > started && a.published + window + Duration::from_secs(1) < ended)
        .collect();
    assert!(new.len() >= 8, "only {} articles appeared", new.len());
    let late: Vec<(usize, Option<Duration>)> = new
        .iter()
        .filter_map(|a| {
            let got = first_fetch
                .get(&format!("/article/{}", a.id))
                .map(|t| t.saturating_duration_since(a.published));
            // Half a second of slack for a loaded machine's scheduling: one
            // article 24 ms late failed a CI run under load.
            (got.is_none_or(|d| d > window + Duration::from_millis(500))).then_some((a.id, got))
        })
        .collect();
    let found = new.len() - late.len();
    assert!(
        found * 100 >= new.len() * 95,
        "{found} of {} new articles found within {window:?}; late or missing: {late:?}",
        new.len()
    );
    // Each article's first record once; edits as versions.
    let mut firsts: HashMap<String, usize> = HashMap::new();
    let mut versions: HashMap<String, Vec<&serde_json::Value>> = HashMap::new();
    for r in records {
        let url = r["url"].as_str().unwrap_or("").to_string();
        if r.get("version").is_none() {
            *firsts.entry(url.clone()).or_default() += 1;
        }
        versions.entry(url).or_default().push(r);
    }
    for a in &articles {
        let url = site.url(&format!("/article/{}", a.id));
        assert!(
            firsts.get(&url).copied().unwrap_or(0) <= 1,
            "{url} first stored {} times",
            firsts[&url]
        );
    }
    let edited: Vec<_> = articles
        .iter()
        .filter(|a| {
            a.edited
                .is_some_and(|t| t + Duration::from_secs(10) < ended)
        })
        .collect();
    assert!(!edited.is_empty(), "no article was edited in time");
    for a in &edited {
        let url = site.url(&format!("/article/{}", a.id));
        let vs = versions.get(&url).cloned().unwrap_or_default();
        let newest = vs
            .iter()
            .max_by_key(|r| r["seq"].as_u64().unwrap_or(0))
            .unwrap_or_else(|| panic!("{url}: no record"));
        assert!(
            newest["version"].as_u64().unwrap_or(1) >= 2 && newest["previous"].is_u64(),
            "{url}, edited {} times, has no new version: {vs:?}",
            a.edits
        );
        assert!(
            newest["text"]
                .as_str()
                .is_some_and(|t| !t.contains("Revision 0 ")),
            "{url}: the newest version has the old text"
        );
    }
    // What did not change is answered 304, and never stored again.
    let not_modified = hits.iter().filter(|h| h.status == 304).count();
    assert!(
        not_modified >= 10,
        "only {not_modified} answers were 304 ({} requests)",
        hits.len()
    );
    for a in articles.iter().filter(|a| a.edits == 0) {
        let path = format!("/article/{}", a.id);
        let full: Vec<&Hit> = hits
            .iter()
            .filter(|h| h.path == path && h.conditional && h.status == 200)
            .collect();
        assert!(
            full.is_empty(),
            "{path} never changed but was sent again: {full:?}"
        );
        let url = site.url(&path);
        assert!(
            versions.get(&url).map_or(0, Vec::len) <= 1,
            "{url} never changed but has several records"
        );
    }
    let conditional = hits.iter().filter(|h| h.conditional).count();
    eprintln!(
        "news site: {} requests ({conditional} conditional, {not_modified} answered 304), \
         {} articles ({} new while running, {found} found within {window:?}), {} edited in time, \
         {} records with every version",
        hits.len(),
        articles.len(),
        new.len(),
        edited.len(),
        records.len()
    );
    // The feed, found from the pages' <link rel="alternate">, is revisited.
    let feed_reads = hits.iter().filter(|h| h.path == "/feed.xml").count();
    assert!(feed_reads >= 3, "the feed was read {feed_reads} times");
    // Per-host spacing on every request.
    let mut times: Vec<Instant> = hits.iter().map(|h| h.at).collect();
    times.sort();
    let gap = times
        .windows(2)
        .map(|w| w[1].duration_since(w[0]))
        .min()
        .unwrap_or(Duration::MAX);
    assert!(
        gap >= Duration::from_millis(DELAY_MS - 5),
        "two requests {gap:?} apart (spacing {DELAY_MS} ms)"
    );
}

#[test]
fn a_daemon_on_a_news_site_stays_fresh() {
    let site = NewsSite::start(
        "127.0.0.93",
        6,
        Duration::from_secs(2),
        Duration::from_secs(5),
    );
    let dir = scratch("fresh-news");
    let cfg = revisit_config(&dir, "");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=3\n", site.url("/"))).expect("seeds");
    let started = Instant::now();
    let child = spawn_crawl(&cfg, &seeds, false);
    std::thread::sleep(Duration::from_secs(40));
    let ended = Instant::now();
    let log = stop(child);
    site.freeze();
    let records = export_lines(&cfg, &["--all-versions"]);
    assert_fresh(&site, &records, started, ended);
    // A plain export gives each page's latest version only.
    let latest = export_lines(&cfg, &[]);
    let mut urls: Vec<&str> = latest.iter().filter_map(|r| r["url"].as_str()).collect();
    let n = urls.len();
    urls.sort();
    urls.dedup();
    assert_eq!(urls.len(), n, "a plain export repeats a URL");
    assert!(!log.contains("panicked"), "{log}");
}

/// Requests the site saw in `[from, to)`.
fn hits_between(site: &NewsSite, from: Instant, to: Instant) -> Vec<Hit> {
    site.hits()
        .into_iter()
        .filter(|h| h.at >= from && h.at < to)
        .collect()
}

#[test]
fn a_restart_keeps_the_schedule_without_a_burst_of_revisits() {
    // No news: every page is fetched once, then revisited every 6 s.
    let site = NewsSite::start(
        "127.0.0.94",
        8,
        Duration::from_secs(10_000),
        Duration::from_secs(10_000),
    );
    let dir = scratch("fresh-restart");
    let cfg = config(
        &dir,
        "min_delay_ms = 20\n[revisit]\nhubs = \"6s\"\npages = \"6s\"\nmin = 1\nmax = \"6s\"\n\
         [warc]\nenabled = false\n",
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=3\n", site.url("/"))).expect("seeds");
    let t0 = Instant::now();
    let child = spawn_crawl(&cfg, &seeds, false);
    std::thread::sleep(Duration::from_secs(2));
    let mut child = Some(child);
    let first = site.hits().len();
    assert!(first >= 12, "the first run fetched {first} URLs");
    // Stopped by SIGTERM, then by kill -9; each time the next start makes
    // nothing early, and the revisits when they are due.
    for (how, sig) in [("SIGTERM", libc::SIGTERM), ("kill -9", libc::SIGKILL)] {
        if let Some(mut c) = child.take() {
            signal(&c, sig);
            let _ = c.wait();
        }
        // The last visit before the stop: every page is due 6 s after its own.
        let last_visit = site.hits().iter().map(|h| h.at).max().unwrap_or(t0);
        let again = Instant::now();
        child = Some(spawn_crawl(&cfg, &seeds, false));
        std::thread::sleep(Duration::from_secs(2));
        let burst = hits_between(&site, again, Instant::now());
        assert!(
            burst.is_empty(),
            "after a stop by {how}, requests before anything was due: {burst:?}"
        );
        // Due 6 s after the last visit, moved to the queue by a check once a
        // second, and a second to fetch them all. (Counted from t0, 6 s and
        // 12 s, this failed whenever the first revisits had come late in
        // their second: the pages were due again just past the window.)
        let due_by = last_visit + Duration::from_secs(6 + 1 + 1);
        std::thread::sleep(due_by.saturating_duration_since(Instant::now()));
        let later = hits_between(&site, again, Instant::now());
        assert!(
            later.len() >= 8 && later.iter().all(|h| h.conditional && h.status == 304),
            "after a stop by {how}, the revisits were not made as scheduled: {later:?}"
        );
    }
    if let Some(c) = child {
        stop(c);
    }
}

#[test]
fn two_cluster_workers_keep_a_news_site_fresh() {
    let Some(pg) = support::pg::Pg::start("fresh-cluster") else {
        return;
    };
    let site = NewsSite::start(
        "127.0.0.95",
        6,
        Duration::from_secs(2),
        Duration::from_secs(5),
    );
    let dir = scratch("fresh-cluster");
    let cfg = revisit_config(&dir, "");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=3\n", site.url("/"))).expect("seeds");
    let worker = |name: &str| spawn_worker(&cfg, &pg.url(), name, &dir, &seeds);
    let started = Instant::now();
    let (a, b) = (worker("w1"), worker("w2"));
    std::thread::sleep(Duration::from_secs(40));
    let ended = Instant::now();
    let (la, lb) = (stop(a), stop(b));
    site.freeze();
    let records = export_lines(&cfg, &["--cluster", &pg.url(), "--all-versions"]);
    assert_fresh(&site, &records, started, ended);
    assert!(
        !la.contains("panicked") && !lb.contains("panicked"),
        "{la}\n{lb}"
    );
}

#[test]
fn a_feed_named_as_a_seed_queues_its_entries_newest_first() {
    let site = NewsSite::start(
        "127.0.0.96",
        14,
        Duration::from_secs(10_000),
        Duration::from_secs(10_000),
    );
    let dir = scratch("fresh-feed-seed");
    let cfg = config(&dir, "[warc]\nenabled = false\n");
    let seeds = dir.join("seeds.txt");
    std::fs::write(
        &seeds,
        format!("{} depth=1 sitemaps=false\n", site.url("/feed.xml")),
    )
    .expect("seeds");
    support::crawl_once(&cfg, &seeds);
    let records = export_lines(&cfg, &[]);
    let mut urls: Vec<String> = records
        .iter()
        .filter_map(|r| r["url"].as_str().map(str::to_string))
        .collect();
    urls.sort();
    // The feed lists the ten newest of fourteen articles.
    let want: Vec<String> = {
        let mut w: Vec<String> = (4..14)
            .map(|i| site.url(&format!("/article/{i}")))
            .collect();
        w.sort();
        w
    };
    assert_eq!(urls, want, "the feed's entries, and nothing else");
    // Fetched newest first: the entries' dates set their priority.
    let order: Vec<usize> = site
        .hits()
        .iter()
        .filter_map(|h| h.path.strip_prefix("/article/")?.parse().ok())
        .collect();
    let mut newest_first = order.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(order, newest_first, "articles not fetched newest first");
    let outcomes = support::outcomes(&cfg);
    let feed = outcomes
        .iter()
        .find(|o| o["url"].as_str() == Some(site.url("/feed.xml").as_str()))
        .expect("the feed's outcome");
    assert_eq!(feed["outcome"], "feed", "{feed}");
    assert!(feed["next_visit"].is_u64(), "a feed is revisited: {feed}");
}
