//! The crawl daemon end to end, as a real child process against real HTTP
//! servers on loopback (127.0.0.2, 127.0.0.3, … are separate hosts).

mod support;

use std::collections::HashSet;
use std::time::Duration;

use support::*;

fn seeds_file(dir: &std::path::Path, lines: &[String]) -> std::path::PathBuf {
    let p = dir.join("my-seeds.txt");
    std::fs::write(&p, lines.join("\n")).unwrap_or_else(|e| panic!("{e}"));
    p
}

#[test]
fn crawls_a_site_obeying_robots_and_exports_records() {
    let host = Host::start("127.0.0.2", |path, _| match path {
        "/robots.txt" => Reply::Status(
            200,
            vec![],
            b"User-agent: *\nDisallow: /private/\n".to_vec(),
        ),
        "/" => html(&page(
            "Home",
            &[
                "/a".into(),
                "/b".into(),
                "/private/secret".into(),
                "/a#frag".into(),
            ],
        )),
        "/a" => html(&page("Alpha", &["/b".into(), "/".into()])),
        "/b" => html(&page("Beta", &["/a?utm_source=x".into()])),
        "/private/secret" => html(&page("Secret", &[])),
        _ => status(404),
    });
    let dir = scratch("basic");
    let cfg = config(&dir, "");
    let seeds = seeds_file(&dir, &[host.url("/")]);
    let out = crawl_once(&cfg, &seeds);
    // The run ends with its table, as Scrapy prints its stats.
    let end = String::from_utf8_lossy(&out.stderr);
    assert!(end.contains("trawl: crawl ended after"), "{end}");
    assert!(end.contains("pages fetched    3 (2xx 3)"), "{end}");
    assert!(end.contains("records          3 ("), "{end}");
    assert!(end.contains("robots.txt denied 1"), "{end}");
    let paths = host.paths();
    assert!(
        !paths.iter().any(|p| p.starts_with("/private")),
        "robots.txt obeyed: {paths:?}"
    );
    let pages: Vec<&String> = paths
        .iter()
        .filter(|p| !p.starts_with("/robots") && !p.starts_with("/sitemap"))
        .collect();
    assert_eq!(
        pages.len(),
        3,
        "each page once (fragment and utm_ stripped): {paths:?}"
    );
    let recs = export(&cfg);
    let titles: HashSet<String> = recs
        .iter()
        .filter_map(|r| r["title"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        titles,
        ["Home", "Alpha", "Beta"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    for r in &recs {
        assert!(
            r["text"]
                .as_str()
                .unwrap_or("")
                .contains("is the page called"),
            "{r}"
        );
        assert_eq!(r["status"], 200);
        assert!(r["seq"].as_u64().is_some() && r["content_hash"].is_string());
    }
}

#[test]
fn crawl_delay_and_min_delay_spacing_measured_by_the_server() {
    let links: Vec<String> = (0..5).map(|i| format!("/p{i}")).collect();
    let l2 = links.clone();
    let host = Host::start("127.0.0.3", move |path, _| match path {
        "/robots.txt" => Reply::Status(200, vec![], b"User-agent: *\nCrawl-delay: 0.4\n".to_vec()),
        "/" => html(&page("Index", &l2)),
        _ => html(&page(path, &[])),
    });
    let dir = scratch("delay");
    let cfg = config(&dir, "sitemaps = false");
    let seeds = seeds_file(&dir, &[host.url("/")]);
    crawl_once(&cfg, &seeds);
    let gap = host.min_gap().unwrap_or_default();
    assert!(host.paths().len() >= 6, "{:?}", host.paths());
    assert!(
        gap >= Duration::from_millis(380),
        "Crawl-delay 0.4 s honoured, smallest gap {gap:?}"
    );
}

#[test]
fn retry_after_on_429_then_success() {
    let host = Host::start("127.0.0.4", |path, n| match (path, n) {
        ("/robots.txt", _) => status(404),
        ("/", 0) => Reply::Status(429, vec![("Retry-After".into(), "1".into())], vec![]),
        ("/", _) => html(&page("Finally", &[])),
        _ => status(404),
    });
    let dir = scratch("429");
    let cfg = config(&dir, "sitemaps = false");
    let seeds = seeds_file(&dir, &[host.url("/")]);
    crawl_once(&cfg, &seeds);
    let reqs: Vec<_> = host
        .requests()
        .into_iter()
        .filter(|(p, _)| p == "/")
        .collect();
    assert_eq!(reqs.len(), 2, "{:?}", host.paths());
    assert!(
        reqs[1].1.duration_since(reqs[0].1) >= Duration::from_millis(950),
        "Retry-After honoured"
    );
    assert_eq!(export(&cfg).len(), 1);
}

#[test]
fn redirect_chains_loops_traps_and_bad_bodies() {
    let host = Host::start("127.0.0.5", |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page(
            "Start",
            &[
                "/r1".into(),
                "/loop1".into(),
                "/a/b/a/b/a/b/".into(),
                "/bin".into(),
                "/img.png".into(),
                "/latin".into(),
                "/gone".into(),
            ],
        )),
        "/r1" => redirect("/r2"),
        "/r2" => redirect("/final"),
        "/final" => html(&page("Final", &[])),
        "/loop1" => redirect("/loop2"),
        "/loop2" => redirect("/loop1"),
        "/bin" => Reply::Status(
            200,
            vec![("Content-Type".into(), "text/html".into())],
            (0..30_000u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
                .collect(),
        ),
        "/latin" => {
            // Declared UTF-8, actually windows-1252.
            let text = page("Crème brûlée déjà vu", &[]);
            let bytes = encoding_rs::WINDOWS_1252.encode(&text).0.into_owned();
            Reply::Status(
                200,
                vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
                bytes,
            )
        }
        "/gone" => status(410),
        _ => status(404),
    });
    let dir = scratch("redirects");
    let cfg = config(&dir, "sitemaps = false");
    let seeds = seeds_file(&dir, &[host.url("/")]);
    crawl_once(&cfg, &seeds);
    let paths = host.paths();
    assert!(
        !paths.iter().any(|p| p.starts_with("/a/b/a")),
        "trap not followed: {paths:?}"
    );
    assert!(!paths.iter().any(|p| p == "/img.png"), "images not fetched");
    assert_eq!(
        paths.iter().filter(|p| *p == "/loop1").count(),
        1,
        "loop fetched once: {paths:?}"
    );
    let recs = export(&cfg);
    let by_url = |suffix: &str| {
        recs.iter()
            .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with(suffix)))
            .cloned()
    };
    let fin = by_url("/r1").unwrap_or_else(|| panic!("redirected page stored: {recs:?}"));
    assert!(fin["final_url"].as_str().unwrap_or("").ends_with("/final"));
    assert_eq!(fin["title"], "Final");
    let latin = by_url("/latin").unwrap_or_else(|| panic!("latin page stored"));
    assert!(
        latin["title"]
            .as_str()
            .unwrap_or("")
            .contains("Crème brûlée"),
        "{latin}"
    );
    assert!(by_url("/loop1").is_none() && by_url("/bin").is_none() && by_url("/gone").is_none());
}

#[test]
fn dead_and_huge_servers_do_not_stall_the_crawl() {
    let slow = Host::start("127.0.0.6", |path, _| match path {
        "/robots.txt" => status(404),
        _ => Reply::Hang,
    });
    let huge = Host::start("127.0.0.7", |path, _| match path {
        "/robots.txt" => status(404),
        _ => Reply::Huge(200 * 1024 * 1024),
    });
    let fine = Host::start("127.0.0.8", |path, _| match path {
        "/robots.txt" => status(404),
        _ => html(&page("Fine", &[])),
    });
    let dir = scratch("dead");
    let cfg = config(
        &dir,
        "sitemaps = false\nmax_retries = 1\nmax_body_bytes = 1048576",
    );
    let seeds = seeds_file(
        &dir,
        &[
            slow.url("/"),
            huge.url("/"),
            fine.url("/"),
            "not a url".into(),
            "ftp://x/".into(),
        ],
    );
    let out = crawl_once(&cfg, &seeds);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("my-seeds.txt:4"),
        "bad seed line reported with file:line: {err}"
    );
    let recs = export(&cfg);
    assert!(recs.iter().any(|r| r["title"] == "Fine"));
    assert!(!recs.iter().any(|r| r["url"]
        .as_str()
        .is_some_and(|u| u.contains("127.0.0.7") || u.contains("127.0.0.6"))));
    let outs = outcomes(&cfg);
    let of = |ip: &str| {
        outs.iter()
            .find(|o| o["url"].as_str().is_some_and(|u| u.contains(ip)))
            .cloned()
    };
    let big = of("127.0.0.7").unwrap_or_else(|| panic!("outcome for the 200 MB page: {outs:?}"));
    assert!(
        big["error"]
            .as_str()
            .unwrap_or("")
            .contains("max_body_bytes"),
        "{big}"
    );
    let dead = of("127.0.0.6").unwrap_or_else(|| panic!("outcome for the dead server: {outs:?}"));
    assert!(
        dead["error"]
            .as_str()
            .unwrap_or("")
            .contains("after 2 attempts"),
        "{dead}"
    );
}

#[test]
fn sitemaps_feed_the_frontier() {
    // A page no link points to, listed in a sitemap index declared in
    // robots.txt (index -> gzip'd sitemap -> page).
    let target = Host::start("127.0.0.9", |path, _| match path {
        "/robots.txt" => status(404),
        "/only-in-sitemap" => html(&page("Hidden gem", &[])),
        _ => html(&page("Other", &[])),
    });
    let gem = target.url("/only-in-sitemap");
    let host = Host::start("127.0.0.10", move |path, _| match path {
        "/robots.txt" => Reply::Status(
            200,
            vec![],
            b"User-agent: *\nAllow: /\nSitemap: /declared.xml\n".to_vec(),
        ),
        "/declared.xml" => Reply::Status(
            200,
            vec![],
            b"<sitemapindex><sitemap><loc>/not-absolute.xml</loc></sitemap></sitemapindex>"
                .to_vec(),
        ),
        "/sitemap.xml" => {
            let xml = format!("<urlset><url><loc>{gem}</loc></url></urlset>");
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut enc, xml.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            Reply::Status(200, vec![], enc.finish().unwrap_or_default())
        }
        "/" => html(&page("Home", &[])),
        _ => status(404),
    });
    let dir = scratch("sitemaps");
    // The sitemap lists a loopback host no seed names: the guard would
    // refuse it (tests/guard.rs); this test is about sitemaps.
    let cfg = config(&dir, "scope = \"any\"\nmax_depth = 1\nallow_private = true");
    let seeds = seeds_file(&dir, &[host.url("/")]);
    crawl_once(&cfg, &seeds);
    let paths = host.paths();
    assert!(
        paths.contains(&"/declared.xml".to_string()),
        "robots-declared sitemap read: {paths:?}"
    );
    assert!(
        paths.contains(&"/sitemap.xml".to_string()),
        "/sitemap.xml read: {paths:?}"
    );
    assert!(
        target.paths().contains(&"/only-in-sitemap".to_string()),
        "sitemap URL fetched: {:?}",
        target.paths()
    );
    assert!(export(&cfg).iter().any(|r| r["title"] == "Hidden gem"));
}

#[test]
fn near_duplicates_are_marked() {
    let article = |title: &str| {
        format!(
            "<html><head><title>{title}</title></head><body><article><p>{}</p></article></body></html>",
            "The committee met on Tuesday to discuss the new harbour plan, which would add two piers, \
             a ferry terminal and a small park by the water. Residents asked about parking and noise. "
                .repeat(4)
        )
    };
    let a = Host::start("127.0.0.14", move |path, _| match path {
        "/robots.txt" => status(404),
        _ => html(&article("Harbour plan")),
    });
    let b = Host::start("127.0.0.15", move |path, _| match path {
        "/robots.txt" => status(404),
        _ => html(&article("Harbour plan (syndicated)")),
    });
    let dir = scratch("dups");
    let cfg = config(&dir, "sitemaps = false\nmax_concurrent = 1");
    let seeds = seeds_file(&dir, &[a.url("/"), b.url("/")]);
    crawl_once(&cfg, &seeds);
    let recs = export(&cfg);
    assert_eq!(recs.len(), 2);
    let marked: Vec<_> = recs
        .iter()
        .filter(|r| r["duplicate_of"].is_string())
        .collect();
    assert_eq!(
        marked.len(),
        1,
        "the later copy points at the first: {recs:?}"
    );
}

#[test]
fn seed_files_added_while_running_are_picked_up() {
    let first = Host::start("127.0.0.16", |path, _| match path {
        "/robots.txt" => status(404),
        _ => html(&page("First", &[])),
    });
    let later = Host::start("127.0.0.17", |path, _| match path {
        "/robots.txt" => status(404),
        _ => html(&page("Later", &[])),
    });
    let dir = scratch("hotseeds");
    let cfg = config(&dir, "sitemaps = false");
    std::fs::write(dir.join("seeds/a.txt"), first.url("/") + "\n")
        .unwrap_or_else(|e| panic!("{e}"));
    // No --seeds: the seeds directory is the source.
    let mut child = trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn trawl: {e}"));
    let start = std::time::Instant::now();
    while !first.paths().iter().any(|p| p == "/") {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "first seed not crawled"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // A new file, and the old one again with a known URL: only the new URL is fetched.
    std::fs::write(
        dir.join("seeds/b.txt"),
        format!("{}\n{}\n", later.url("/"), first.url("/")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    while !later.paths().iter().any(|p| p == "/") {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "seed file added while running not picked up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let _ = child.kill(); // done with the daemon
    let _ = child.wait();
    assert_eq!(
        first.paths().iter().filter(|p| *p == "/").count(),
        1,
        "known URL not fetched again"
    );
}

/// Regression (issue 34, finding 9): a redirect to a page already fetched
/// fetched it again and stored it twice (the second marked `duplicate_of`).
#[test]
fn a_redirect_to_a_known_page_does_not_fetch_or_store_it_twice() {
    let host = redirect_site("127.0.0.6");
    let dir = scratch("redirect-known");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 5");
    crawl_once(&cfg, &seeds_file(&dir, &[host.url("/")]));
    let recs = export(&cfg);
    assert_fetched_and_stored_once(&host, &recs);
    assert!(recs.iter().all(|r| r["duplicate_of"].is_null()), "{recs:?}");
    let outs = outcomes(&cfg);
    let old = outs
        .iter()
        .find(|o| o["url"].as_str().is_some_and(|u| u.ends_with("/old-story")))
        .unwrap_or_else(|| panic!("an outcome for the redirect: {outs:?}"));
    assert_eq!(old["outcome"], "redirected", "{old}");
}

/// Regression (issue 34, finding 2): `export --outcomes` ignored `--since`
/// and `--limit`, and printed a wrong cursor.
#[test]
fn outcomes_export_resumes_from_its_cursor() {
    let links: Vec<String> = (0..9).map(|i| format!("/p{i}")).collect();
    let host = Host::start("127.0.0.7", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Index", &links)),
        p if p.starts_with("/p") => html(&page(&format!("Page {p}"), &[])),
        _ => status(404),
    });
    let dir = scratch("outcome-cursor");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 0");
    crawl_once(&cfg, &seeds_file(&dir, &[host.url("/")]));
    let all = export_lines(&cfg, &["--outcomes"]);
    assert_eq!(all.len(), 10, "{all:?}");
    let run = |extra: &[&str]| {
        let out = trawl()
            .args(["--config", &cfg.to_string_lossy(), "export", "--outcomes"])
            .args(extra)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(out.status.success());
        let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        (lines, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (first, err) = run(&["--limit", "4"]);
    assert_eq!(first.len(), 4);
    let cursor = first[3]["seq"].as_u64().unwrap_or(0);
    assert!(
        err.contains(&format!("--outcomes --since {cursor}")),
        "next cursor: {err}"
    );
    let since = cursor.to_string();
    let (rest, _) = run(&["--since", &since]);
    assert_eq!(rest.len(), 6, "{rest:?}");
    let mut urls: Vec<&str> = first
        .iter()
        .chain(&rest)
        .filter_map(|o| o["url"].as_str())
        .collect();
    urls.sort_unstable();
    urls.dedup();
    assert_eq!(urls.len(), 10, "no outcome twice, none missing");
    let (none, err) = run(&["--since", &rest[5]["seq"].to_string()]);
    assert!(none.is_empty(), "{none:?}");
    assert!(err.contains("exported 0 outcomes"), "{err}");
}

/// Records keep their outgoing links (every link of the page, resolved and
/// normalised); `export --links` shows them, a plain export does not.
#[test]
fn export_links_gives_each_records_outgoing_links() {
    let (site, dir, cfg) = crawl_redirect_site("127.0.0.84", "export-links", "");
    assert!(export(&cfg).iter().all(|r| r.get("links").is_none()));
    let with = export_lines(&cfg, &["--links"]);
    let home = with
        .iter()
        .find(|r| r["url"] == site.url("/"))
        .expect("the home page's record");
    let links: Vec<&str> = home["links"]
        .as_array()
        .expect("links")
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    assert_eq!(
        links,
        [site.url("/story"), site.url("/old-story")],
        "{home}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// URL patterns: the crawl's `exclude` and a seed's `include=` decide which
/// links are queued; an excluded URL is never fetched; a bad pattern on a
/// seed line is that line's error.
#[test]
fn include_and_exclude_patterns_decide_what_is_queued() {
    let site = Host::start("127.0.0.86", |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page(
            "Front",
            &[
                "/news/2026/a".into(),
                "/news/2025/b".into(),
                "/tag/rivers".into(),
                "/news/2026/tag/c".into(),
            ],
        )),
        p => html(&page(&format!("Page {p}"), &[])),
    });
    let dir = scratch("patterns");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(
        &seeds,
        format!(
            "{} include=/news/2026/ include=/$\n{} include=(\n",
            site.url("/"),
            site.url("/x")
        ),
    )
    .expect("seeds");
    let cfg = config(&dir, "exclude = [\"/tag/\"]");
    let out = crawl_once(&cfg, &seeds);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("regular expression"),
        "the bad line is reported: {err}"
    );
    let mut paths = site.paths();
    paths.retain(|p| p != "/robots.txt" && p != "/sitemap.xml");
    paths.sort();
    assert_eq!(paths, ["/", "/news/2026/a"], "{paths:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A page that shows only "Posted 2 days ago" is dated against the time the
/// crawl fetched it (issue 41); a saved copy of unknown age is not dated.
#[test]
fn a_relative_date_is_read_against_the_fetch_time() {
    let body = relative_date_story();
    let page = body.clone();
    let host = Host::start("127.0.0.124", move |path, _| match path {
        "/robots.txt" => status(404),
        "/story" => html(&page),
        _ => status(404),
    });
    let dir = scratch("relative-date");
    let cfg = config(&dir, "");
    let seeds = seeds_file(&dir, &[host.url("/story")]);
    crawl_once(&cfg, &seeds);
    let records = export(&cfg);
    let r = records
        .iter()
        .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/story")))
        .unwrap_or_else(|| panic!("no record: {records:?}"));
    let expected = days_before_fetch(r, 2);
    assert_eq!(r["date"].as_str(), expected.as_deref(), "{r}");
    // The same page extracted as a saved file: no fetch time, no date.
    let file = dir.join("story.html");
    std::fs::write(&file, &body).unwrap_or_else(|e| panic!("{e}"));
    let out = trawl()
        .args(["extract", "--jsonl", &file.to_string_lossy()])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let saved: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved["date"], serde_json::Value::Null, "{saved}");
}
