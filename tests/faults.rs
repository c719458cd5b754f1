//! The daemon under faults: hostile servers, politeness on every request,
//! restarts between requests, a panicking extractor, a corrupted store and a
//! full disk. Each test runs the real binary (or the library in-process)
//! against loopback servers and asserts on the servers' own request logs
//! (spacing, counts) and on the export (nothing lost, nothing twice).

mod support;

use std::time::{Duration, Instant};

use support::*;

fn seeds_file(dir: &std::path::Path, lines: &[String]) -> std::path::PathBuf {
    let p = dir.join("my-seeds.txt");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    p
}

/// Gaps between consecutive requests of a server, every request counted.
fn gaps(host: &Host) -> Vec<(String, Duration)> {
    let r = host.requests();
    r.windows(2)
        .map(|w| (w[1].0.clone(), w[1].1.duration_since(w[0].1)))
        .collect()
}

fn assert_spaced(host: &Host, min: Duration) {
    for (path, gap) in gaps(host) {
        assert!(
            gap >= min,
            "{path} came {gap:?} after the previous request (want ≥ {min:?}): {:?}",
            host.paths()
        );
    }
}

#[test]
fn redirect_hops_retries_and_robots_redirects_each_wait_their_turn() {
    let host = Host::start("127.0.0.40", |path, _| match path {
        // robots.txt redirects twice; the rules it ends at disallow /private.
        "/robots.txt" => redirect("/r/robots1"),
        "/r/robots1" => redirect("/r/robots2"),
        "/r/robots2" => Reply::Status(
            200,
            vec![("Content-Type".into(), "text/plain".into())],
            b"User-agent: *\nDisallow: /private\n".to_vec(),
        ),
        "/" => html(&page(
            "Home",
            &["/h1".into(), "/private".into(), "/cut".into()],
        )),
        "/h1" => redirect("/h2"),
        "/h2" => redirect("/h3"),
        "/h3" => html(&page("End of chain", &[])),
        "/cut" => Reply::CutOff,
        _ => status(404),
    });
    let dir = scratch("hops");
    let cfg = config(
        &dir,
        "sitemaps = false\nmin_delay_ms = 300\nmax_retries = 1\nretry_base_ms = 100",
    );
    crawl_once(&cfg, &seeds_file(&dir, &[host.url("/")]));
    let paths = host.paths();
    assert!(!paths.iter().any(|p| p == "/private"), "{paths:?}");
    assert!(
        paths.iter().any(|p| p == "/r/robots2"),
        "robots redirects followed: {paths:?}"
    );
    // Every request — robots hops, the page, redirect hops, retries — is spaced.
    assert_spaced(&host, Duration::from_millis(290));
    // A response cut off mid-body is one request per attempt (1 + 1 retry),
    // never a second request sent behind the crawler's back.
    assert_eq!(
        paths.iter().filter(|p| *p == "/cut").count(),
        2,
        "{paths:?}"
    );
    let recs = export(&cfg);
    let chain = recs
        .iter()
        .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/h1")))
        .unwrap_or_else(|| panic!("chain stored: {recs:?}"));
    assert_eq!(chain["title"], "End of chain");
    assert!(
        !recs
            .iter()
            .any(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/cut"))),
        "a cut-off body is not a record"
    );
    let outs = outcomes(&cfg);
    let cut = outs
        .iter()
        .find(|o| o["url"].as_str().is_some_and(|u| u.ends_with("/cut")))
        .unwrap_or_else(|| panic!("outcome of /cut: {outs:?}"));
    assert!(
        cut["error"]
            .as_str()
            .unwrap_or("")
            .contains("after 2 attempts"),
        "{cut}"
    );
}

#[test]
fn a_dripping_body_is_a_failed_fetch_not_a_record() {
    let host = Host::start("127.0.0.41", |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Home", &["/drip".into()])),
        "/drip" => Reply::Drip(100),
        _ => status(404),
    });
    let dir = scratch("drip");
    let cfg = config(
        &dir,
        "sitemaps = false\ntimeout_secs = 2\nmax_retries = 1\nretry_base_ms = 100",
    );
    crawl_once(&cfg, &seeds_file(&dir, &[host.url("/")]));
    let recs = export(&cfg);
    assert!(
        !recs
            .iter()
            .any(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/drip"))),
        "a body cut by the time limit was stored: {recs:?}"
    );
    let outs = outcomes(&cfg);
    let drip = outs
        .iter()
        .find(|o| o["url"].as_str().is_some_and(|u| u.ends_with("/drip")))
        .unwrap_or_else(|| panic!("outcome of /drip: {outs:?}"));
    let err = drip["error"].as_str().unwrap_or("");
    assert!(
        err.contains("after 2 attempts"),
        "retried, then failed: {drip}"
    );
    assert_eq!(host.paths().iter().filter(|p| *p == "/drip").count(), 2);
}

#[test]
fn base_href_resolves_links() {
    // The pages use <base href="/docs/">: their relative links live under
    // /docs/. Resolved against the page URL they would all be 404s.
    let base_site = Host::start("127.0.0.42", |path, _| {
        match path {
        "/robots.txt" => status(404),
        "/" => html(
            "<html><head><base href=\"/docs/\"><title>Home</title></head><body>\
             <a href=\"a.html\">A</a> <a href=\"b.html\">B</a><p>Welcome to the documentation home page with enough words.</p></body></html>",
        ),
        "/docs/a.html" | "/docs/b.html" => html(&page("Doc", &[])),
        _ => status(404),
    }
    });
    let dir = scratch("base");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 5");
    crawl_once(&cfg, &seeds_file(&dir, &[base_site.url("/")]));
    let paths = base_site.paths();
    assert!(paths.iter().any(|p| p == "/docs/a.html"), "{paths:?}");
    assert!(!paths.iter().any(|p| p == "/a.html"), "{paths:?}");
}

/// Regression (issue 34, finding 1): 404s spent the error budget, so a site
/// whose index links 60 missing pages before its good one lost the good one,
/// and the URLs of a stopped host vanished without an outcome.
#[test]
fn missing_pages_do_not_stop_a_host_and_a_stopped_host_loses_nothing() {
    let mut links: Vec<String> = (0..60).map(|i| format!("/missing/{i}.html")).collect();
    links.push("/good.html".into());
    let site = Host::start("127.0.0.44", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Index", &links)),
        "/good.html" => html(&page("Good", &[])),
        _ => status(404),
    });
    // A host whose 300 linked pages all answer 501 (a failure, not retried).
    let broken_links: Vec<String> = (0..300).map(|i| format!("/broken/{i}")).collect();
    let broken = Host::start("127.0.0.43", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Links", &broken_links)),
        _ => status(501),
    });
    let dir = scratch("budget");
    let cfg = config(
        &dir,
        "sitemaps = false\nmin_delay_ms = 5\nhost_error_budget = 20",
    );
    let seeds = seeds_file(&dir, &[site.url("/"), broken.url("/")]);
    let out = crawl_once(&cfg, &seeds);
    assert!(
        site.paths().iter().any(|p| p == "/good.html"),
        "a 404 is an answer, not a failure: {:?}",
        site.paths()
    );
    let count = |host: &Host| {
        host.paths()
            .iter()
            .filter(|p| p.starts_with("/broken/"))
            .count()
    };
    assert_eq!(
        count(&broken),
        20,
        "the host is stopped after its error budget"
    );
    // Every URL has an outcome: 20 failed fetches, 280 set aside.
    let outs = outcomes(&cfg);
    let of = |kind: &str| {
        outs.iter()
            .filter(|o| o["url"].as_str().is_some_and(|u| u.contains("/broken/")))
            .filter(|o| o["outcome"] == kind)
            .count()
    };
    assert_eq!(of("http_error"), 20, "{outs:?}");
    assert_eq!(of("host_stopped"), 280);
    let stopped = outs
        .iter()
        .find(|o| o["outcome"] == "host_stopped")
        .and_then(|o| o["error"].as_str())
        .unwrap_or_default();
    assert!(stopped.contains("error budget"), "{stopped}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("host stopped"), "{err}");
    // The next start offers the set-aside URLs again (a fresh budget).
    crawl_once(&cfg, &seeds);
    assert_eq!(count(&broken), 40, "set-aside URLs are offered again");
}

#[test]
fn spacing_holds_across_restarts() {
    let links: Vec<String> = (0..40).map(|i| format!("/p{i}")).collect();
    let host = Host::start("127.0.0.44", move |path, _| match path {
        "/robots.txt" => Reply::Status(200, vec![], b"User-agent: *\nCrawl-delay: 1\n".to_vec()),
        "/" => html(&page("Home", &links)),
        p => html(&page(p, &[])),
    });
    let dir = scratch("restarts");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 200");
    let seeds = seeds_file(&dir, &[host.url("/")]);
    // Stop the daemon right after a request, four times: twice with SIGTERM,
    // twice with SIGKILL, and start it again at once.
    for round in 0..4 {
        let mut child = spawn_crawl(&cfg, &seeds, true);
        let before = host.requests().len();
        let start = Instant::now();
        while host.requests().len() < before + 2 && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        if round % 2 == 0 {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
        } else {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
    crawl_once(&cfg, &seeds);
    assert_spaced(&host, Duration::from_millis(990));
    let recs = export(&cfg);
    let mut urls: Vec<&str> = recs.iter().filter_map(|r| r["url"].as_str()).collect();
    let n = urls.len();
    urls.sort();
    urls.dedup();
    assert_eq!((n, urls.len()), (41, 41), "every page once");
}

#[test]
fn a_panicking_extractor_costs_one_page_not_the_host() {
    let host = Host::start("127.0.0.45", |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Home", &["/boom".into(), "/after".into()])),
        p => html(&page(p, &[])),
    });
    let dir = scratch("panic");
    let cfg_text = format!(
        "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\nmin_delay_ms = 5\nsitemaps = false\n",
        dir.join("storage").display(),
        dir.join("seeds").display()
    );
    std::fs::write(dir.join("seeds/s.txt"), host.url("/") + "\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = trawl_crawl::Config::parse(&cfg_text, std::path::Path::new("t.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let hook = trawl_crawl::PageHook(std::sync::Arc::new(|url: &str| {
        if url.ends_with("/boom") {
            panic!("extractor bug on a hostile page");
        }
    }));
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    let snap = rt
        .block_on(trawl_crawl::run(
            cfg,
            trawl_crawl::RunOptions {
                exit_when_idle: true,
                page_hook: Some(hook),
                ..Default::default()
            },
        ))
        .unwrap_or_else(|e| panic!("crawl: {e}"));
    assert_eq!(snap.panics, 1);
    assert_eq!(snap.records, 2, "the other pages are stored");
    let store = trawl_crawl::store::Store::open(&dir.join("storage"), 1 << 20)
        .unwrap_or_else(|e| panic!("{e}"));
    let boom = store
        .page(&host.url("/boom"))
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|| panic!("an outcome for the page that panicked"));
    assert!(
        boom.error
            .as_deref()
            .unwrap_or("")
            .contains("internal error"),
        "{boom:?}"
    );
    assert!(
        host.paths().iter().any(|p| p == "/after"),
        "the host goes on"
    );
}

/// Runs `trawl ARGS` with a deadline; a hang is a failure.
fn run_bounded(args: &[&str]) -> std::process::Output {
    let child = trawl()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let id = child.id();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(60));
        // Still running after a minute: kill it so the test fails instead of hanging.
        let _ = std::process::Command::new("kill")
            .args(["-9", &id.to_string()])
            .status();
    });
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    drop(watchdog);
    assert!(
        out.status.code().is_some(),
        "trawl {args:?} hung or crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn a_corrupted_store_is_reported_never_silently_short() {
    let links: Vec<String> = (0..50).map(|i| format!("/p{i}")).collect();
    let host = Host::start("127.0.0.46", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Home", &links)),
        p => html(&page(&format!("Page {p} with its own words"), &[])),
    });
    let dir = scratch("corrupt");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 1");
    crawl_once(&cfg, &seeds_file(&dir, &[host.url("/")]));
    assert_eq!(export(&cfg).len(), 51);
    // Random bytes over the middle of the database file of the stopped store.
    let db = dir.join("storage/db");
    let mut bytes = std::fs::read(&db).unwrap_or_else(|e| panic!("{e}"));
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let (from, to) = (bytes.len() / 4, bytes.len() * 3 / 4);
    for b in &mut bytes[from..to] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = x as u8;
    }
    std::fs::write(&db, bytes).unwrap_or_else(|e| panic!("{e}"));
    let cfg_s = cfg.to_string_lossy().into_owned();
    for args in [
        vec!["--config", &cfg_s, "export"],
        vec!["--config", &cfg_s, "status"],
        vec!["--config", &cfg_s, "store", "check"],
    ] {
        let out = run_bounded(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let exported = stdout.lines().filter(|l| l.starts_with('{')).count();
        if out.status.success() && args[2] == "export" {
            assert_eq!(exported, 51, "export succeeded, so it must be whole");
        }
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("storage") && err.lines().filter(|l| l.contains("error")).count() == 1,
                "{args:?}: the error names the store, once: {err}"
            );
        }
    }
    // The way out: salvage what is intact, whatever the damage.
    let saved = dir.join("saved.jsonl");
    let out = run_bounded(&[
        "--config",
        &cfg_s,
        "store",
        "salvage",
        "--out",
        &saved.to_string_lossy(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.success() {
        assert!(text.contains("no damage found"), "{text}");
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("damaged") || err.contains("cannot open"),
            "{err}"
        );
    }
}

fn prlimit_fsize(pid: u32, limit: &str) {
    let ok = std::process::Command::new("prlimit")
        .args(["--pid", &pid.to_string(), &format!("--fsize={limit}")])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "prlimit --fsize={limit} failed");
}

#[test]
fn a_full_disk_pauses_fetching_and_loses_or_refetches_nothing() {
    if std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_err()
    {
        skip_or_fail("prlimit (util-linux) is not installed");
        return;
    }
    let links: Vec<String> = (0..400).map(|i| format!("/p{i}")).collect();
    let host = Host::start("127.0.0.47", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Home", &links)),
        p => html(&page(
            &format!("Page {p} {}", "with words ".repeat(200)),
            &[],
        )),
    });
    let dir = scratch("diskfull");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("sitemaps = false\nmin_delay_ms = 10\nstatus_addr = \"127.0.0.1:{port}\""),
    );
    let mut child = KillOnDrop(spawn_crawl(&cfg, &seeds_file(&dir, &[host.url("/")]), true));
    let pid = child.0.id();
    let start = Instant::now();
    while host.paths().len() < 60 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "crawl did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The disk is "full": the daemon may not grow any file beyond its size now.
    let db_len = std::fs::metadata(dir.join("storage/db")).map_or(0, |m| m.len());
    prlimit_fsize(pid, &format!("{db_len}:unlimited"));
    let mut down = false;
    while start.elapsed() < Duration::from_secs(60) {
        if status_json(port).is_some_and(|s| s["store_down"] == true) {
            down = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(down, "the store's failure is reported in /status");
    std::thread::sleep(Duration::from_millis(500)); // in-flight work arrives
    let paused_at = host.paths().len();
    std::thread::sleep(Duration::from_secs(2));
    let s = status_json(port).unwrap_or_default();
    assert_eq!(
        host.paths().len(),
        paused_at,
        "no fetches while the store cannot write"
    );
    assert!(s["store_errors"].as_u64().unwrap_or(0) > 0, "{s}");
    assert!(
        s["last_error"].as_str().unwrap_or("").contains("store"),
        "{s}"
    );
    // Space returns: the daemon resumes by itself and finishes.
    prlimit_fsize(pid, "unlimited:unlimited");
    let status = child.0.wait().unwrap_or_else(|e| panic!("{e}"));
    let err = stderr_of(&mut child.0);
    assert!(status.success(), "{err}");
    assert!(
        err.contains("store write failed") || err.contains("store flush failed"),
        "said loudly: {err}"
    );
    let recs = export(&cfg);
    let mut urls: Vec<&str> = recs.iter().filter_map(|r| r["url"].as_str()).collect();
    let n = urls.len();
    urls.sort();
    urls.dedup();
    assert_eq!((n, urls.len()), (401, 401), "every page stored once");
    // The archive went through the full disk too: whole files, and every
    // record's response in them.
    if let Some(w) = warcio() {
        assert_warc_whole(&w, &dir.join("storage"), &recs);
    }
    let mut paths = host.paths();
    paths.retain(|p| p != "/robots.txt");
    let fetched = paths.len();
    paths.sort();
    paths.dedup();
    assert_eq!(
        fetched,
        paths.len(),
        "no page fetched again because its write failed"
    );
}

/// A seed's `delay=` sets its host's spacing, slower than the crawl's
/// `crawl.min_delay_ms` here, while another seed's host keeps the crawl's.
#[test]
fn a_seeds_delay_spaces_its_host_only() {
    let chain = |ip: &'static str| {
        Host::start(ip, move |path, _| {
            if path == "/robots.txt" {
                return status(404);
            }
            let n: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
            let next: Vec<String> = (n < 5)
                .then(|| format!("/p{}", n + 1))
                .into_iter()
                .collect();
            html(&page(&format!("Page {n} of {ip}"), &next))
        })
    };
    let (slow, fast) = (chain("127.0.0.91"), chain("127.0.0.92"));
    let dir = scratch("seed-delay");
    let seeds = seeds_file(
        &dir,
        &[format!("{} delay=400", slow.url("/")), fast.url("/")],
    );
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 50");
    let out = crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(slow.paths().len() >= 6 && fast.paths().len() >= 6);
    assert_spaced(&slow, Duration::from_millis(380));
    assert_spaced(&fast, Duration::from_millis(40));
    let quickest = gaps(&fast)
        .into_iter()
        .map(|(_, g)| g)
        .min()
        .unwrap_or_default();
    assert!(
        quickest < Duration::from_millis(380),
        "the other host kept the crawl's delay: {quickest:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
