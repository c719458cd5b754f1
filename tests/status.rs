//! The running daemon's status endpoint: `/status`, `/metrics`, and a
//! streamed `/export` that `trawl export` reads while the daemon holds the
//! store (sled lets one process open it).

mod support;

use std::time::{Duration, Instant};

use support::*;

/// Records of a few KiB each, so 150 of them span several 64 KiB chunks.
fn site() -> Host {
    Host::start("127.0.0.31", |path, _| {
        if path == "/robots.txt" {
            return status(404);
        }
        let n: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
        let links: Vec<String> = (n + 1..(n + 4).min(150))
            .map(|i| format!("/p{i}"))
            .collect();
        let words = format!("Page {n} talks about tide pools and rocky shores. ").repeat(60);
        html(&page(&format!("Page {n} {words}"), &links))
    })
}

#[test]
fn export_streams_from_the_running_daemon() {
    let host = site();
    let dir = scratch("status-export");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("sitemaps = false\nmin_delay_ms = 0\nmax_depth = 200\nstatus_addr = \"127.0.0.1:{port}\""),
    );
    let seeds = dir.join("s.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/p0"))).unwrap_or_else(|e| panic!("{e}"));
    // Without --once the daemon keeps running (and keeps the store) after the crawl.
    let mut child = KillOnDrop(spawn_crawl(&cfg, &seeds, false));
    let start = Instant::now();
    loop {
        let records = status_json(port).and_then(|s| s["records"].as_u64());
        if records == Some(150) {
            break;
        }
        if let Ok(Some(code)) = child.0.try_wait() {
            panic!("daemon exited ({code:?}): {}", stderr_of(&mut child.0));
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "crawl did not finish: {records:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (line, metrics) = endpoint_get(port, "/metrics").unwrap_or_default();
    assert!(line.contains(" 200 "), "{line}");
    assert!(
        String::from_utf8_lossy(&metrics).contains("trawl_"),
        "prometheus text"
    );
    let (line, _) = endpoint_get(port, "/nothing").unwrap_or_default();
    assert!(line.contains(" 404 "), "{line}");
    let (line, _) = endpoint_get(port, "/export?since=abc").unwrap_or_default();
    assert!(line.contains(" 400 "), "{line}");

    // trawl export goes through the daemon: the store is locked to it.
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "export"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.len() > 4 * 65536,
        "spans several chunks: {} bytes",
        stdout.len()
    );
    let seqs: Vec<u64> = stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .map(|r| r["seq"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(
        seqs,
        (1..=150).collect::<Vec<_>>(),
        "every record once, in order"
    );
    assert!(
        stderr.contains("exported 150 records; next: trawl export --since 150"),
        "{stderr}"
    );

    let out = trawl()
        .args([
            "--config",
            &cfg.to_string_lossy(),
            "export",
            "--since",
            "140",
            "--limit",
            "5",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("exported 5 records; next: trawl export --since 145"),
        "{stderr}"
    );

    let outcomes = trawl()
        .args(["--config", &cfg.to_string_lossy(), "export", "--outcomes"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&outcomes.stdout);
    assert_eq!(
        text.lines().count(),
        150,
        "{}",
        String::from_utf8_lossy(&outcomes.stderr)
    );
    assert!(
        text.lines().all(|l| l.contains(r#""outcome":"fetched""#)),
        "typed outcomes"
    );
}

/// Regression (issue 34, finding 5): a robots.txt answering 5xx held its
/// host with nothing said: no 5xx counted, `last_error` null, no reason.
#[test]
fn a_robots_txt_answering_5xx_holds_its_host_and_says_so() {
    let host = Host::start("127.0.0.32", |path, _| match path {
        "/robots.txt" => status(503),
        _ => html(&page("Never fetched", &[])),
    });
    let dir = scratch("status-robots-5xx");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("sitemaps = false\nstatus_addr = \"127.0.0.1:{port}\""),
    );
    let seeds = dir.join("s.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/"))).unwrap_or_else(|e| panic!("{e}"));
    let mut child = KillOnDrop(spawn_crawl(&cfg, &seeds, false));
    let start = Instant::now();
    let snap = loop {
        if let Some(s) =
            status_json(port).filter(|s| s["held_hosts"].as_array().is_some_and(|h| !h.is_empty()))
        {
            break s;
        }
        if let Ok(Some(code)) = child.0.try_wait() {
            panic!("daemon exited ({code:?}): {}", stderr_of(&mut child.0));
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no held host: {:?}",
            status_json(port)
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(snap["status_5xx"].as_u64() >= Some(1), "{snap}");
    let err = snap["last_error"].as_str().unwrap_or_default();
    assert!(err.contains("robots.txt") && err.contains("503"), "{snap}");
    let held = &snap["held_hosts"][0];
    assert_eq!(
        held["host"].as_str(),
        Some(host.addr.to_string().as_str()),
        "{snap}"
    );
    assert!(
        held["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("robots.txt"),
        "{snap}"
    );
    assert!(held["until"].as_u64() > held["since"].as_u64(), "{snap}");
    // The human view says it too.
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "status"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("held") && text.contains("robots.txt"),
        "{text}"
    );
    // One JSON document while the daemon runs, as when it does not.
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "status", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(doc["running"], true, "{doc}");
    assert!(
        !doc["held_hosts"].as_array().is_none_or(Vec::is_empty),
        "{doc}"
    );
    assert!(
        host.paths().iter().all(|p| p == "/robots.txt"),
        "{:?}",
        host.paths()
    );
}

/// Regressions (issue 34, findings 6, 7, 8, 10): `trawl status` printed a
/// line before the JSON while a daemon ran and another format when it did
/// not, ignored `--metrics` on a stopped store and panicked on a closed
/// pipe; a missing `--seeds` file only warned; bad `--charset`/`--algorithm`
/// values exited 1; a TOML file was extracted as a "service" page.
#[test]
fn status_is_one_command_and_usage_errors_say_so() {
    let host = site();
    let dir = scratch("status-one");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 0\nmax_pages = 5");
    let seeds = dir.join("s.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/p0"))).unwrap_or_else(|e| panic!("{e}"));
    crawl_once(&cfg, &seeds);
    let cfg_s = cfg.to_string_lossy().into_owned();
    let run = |args: &[&str]| {
        trawl()
            .args(["--config", &cfg_s])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let out = run(&["status", "--json"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON document: {e}: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(doc["running"], false);
    assert_eq!(doc["fetched"], 5);
    assert!(
        doc["held_hosts"].is_array() && doc["status_4xx"].is_u64(),
        "{doc}"
    );
    let out = run(&["status", "--metrics"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("trawl_pages_total"),
        "{text}"
    );
    let out = run(&["status"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("daemon not running") && text.contains("pages fetched 5"),
        "{text}"
    );
    // A reader that hung up: no panic, a quiet exit.
    for args in [vec!["status"], vec!["status", "--json"], vec!["export"]] {
        let mut child = trawl()
            .args(["--config", &cfg_s])
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    }
    // A seed file that is not there is an error, not an idle daemon.
    let out = run(&["crawl", "--once", "--seeds", "missing.txt"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("missing.txt"), "{err}");
    // Usage errors exit 2.
    let page = dir.join("page.html");
    std::fs::write(&page, page_html()).unwrap_or_else(|e| panic!("{e}"));
    let page_s = page.to_string_lossy().into_owned();
    for args in [
        vec!["extract", "--charset", "klingon", &page_s],
        vec!["extract", "-a", "bogus", &page_s],
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("klingon") || err.contains("bogus"), "{err}");
    }
    // A file that is not a web page says so.
    let out = run(&["extract", &cfg_s]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("not HTML"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn page_html() -> String {
    page("A page", &[])
}
