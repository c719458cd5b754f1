//! `POST /scrape` and Firecrawl's `/v1/scrape` and `/v2/scrape` on the
//! daemon (issue 57): a page fetched in its host's turn and answered with
//! its record, stored once; a deadline answered 504 while the fetch goes
//! on; the guard's refusals for private targets and redirects into them;
//! Firecrawl's own Python client pointed at the daemon; a cluster worker
//! answering from the shared database.

mod support;

use std::time::{Duration, Instant};

use support::api::*;
use support::*;

fn scrape(port: u16, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
    post_json(port, path, &body)
}

fn shop(ip: &str, away: String) -> Host {
    Host::start(ip, move |path, _| match path {
        "/robots.txt" => status(404),
        "/missing" => status(404),
        "/away" => redirect(&away),
        "/slow" => {
            std::thread::sleep(Duration::from_millis(1500));
            html(&story("Slow", &[]))
        }
        p if p.starts_with("/held/") => {
            std::thread::sleep(Duration::from_millis(2500));
            html(&story("Held", &[]))
        }
        p => html(&story(
            &format!("Page {}", p.trim_start_matches('/')),
            &["/linked"],
        )),
    })
}

#[test]
fn a_scrape_is_fetched_in_its_hosts_turn_answered_and_stored_once() {
    let elsewhere = Host::start("127.0.0.167", |_, _| html(&story("Elsewhere", &[])));
    let host = shop("127.0.0.166", elsewhere.url("/x"));
    let (dir, port, cfg, seeds) = daemon_files(
        "scrape",
        Some(&host),
        "min_delay_ms = 1000\nsitemaps = false\n[api]\nmax_scrapes = 3",
    );
    let _daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_for_endpoint(port);
    let (code, _) = send(port, "POST", "/scrape", None, "application/json", b"{}");
    assert_eq!(code, 401);
    // Three at once: each waits its turn in the host's schedule.
    let asks: Vec<_> = ["/p1", "/p2", "/p3"]
        .iter()
        .map(|p| {
            let body = serde_json::json!({"url": host.url(p), "formats": ["markdown", "text"]});
            std::thread::spawn(move || scrape(port, "/scrape", body))
        })
        .collect();
    for (ask, p) in asks.into_iter().zip(["p1", "p2", "p3"]) {
        let (code, rec) = ask.join().expect("scrape");
        assert_eq!(code, 200, "{rec}");
        assert_eq!(rec["metadata"]["title"], format!("Page {p}"), "{rec}");
        assert_eq!(rec["cached"], false, "{rec}");
        let md = rec["markdown"].as_str().unwrap_or("");
        assert!(md.contains("lifeboat crew"), "{rec}");
        assert!(rec["text"].as_str().unwrap_or("").contains("lifeboat crew"));
    }
    let gap = host.min_gap().expect("requests");
    assert!(gap >= Duration::from_millis(900), "politeness: {gap:?}");
    // Three waiting (each has written its line before it waits, and the
    // first of their pages takes 2.5 s): a fourth is past api.max_scrapes.
    let held: Vec<_> = (1..=3)
        .map(|i| {
            let body =
                serde_json::json!({"url": host.url(&format!("/held/{i}")), "timeout": 20000});
            std::thread::spawn(move || scrape(port, "/scrape", body))
        })
        .collect();
    let file = dir.join("storage/api-seeds.txt");
    wait_until("three scrapes waiting", Duration::from_secs(20), || {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        (1..=3).all(|i| text.contains(&format!("/held/{i} ")))
    });
    let (code, out) = scrape(port, "/scrape", serde_json::json!({"url": host.url("/p4")}));
    assert_eq!(code, 429, "{out}");
    for h in held {
        assert_eq!(h.join().expect("scrape").0, 200);
    }
    // Asked again: answered from the store, not fetched again.
    let (code, rec) = scrape(port, "/scrape", serde_json::json!({"url": host.url("/p1")}));
    assert_eq!(
        (code, &rec["cached"]),
        (200, &serde_json::json!(true)),
        "{rec}"
    );
    assert_eq!(host.paths().iter().filter(|p| *p == "/p1").count(), 1);
    // An error status and a redirect to a private host no seed file names.
    let (code, out) = scrape(
        port,
        "/scrape",
        serde_json::json!({"url": host.url("/missing")}),
    );
    assert_eq!((code, out["status"].as_u64()), (422, Some(404)), "{out}");
    let (code, out) = scrape(
        port,
        "/scrape",
        serde_json::json!({"url": host.url("/away")}),
    );
    assert_eq!(
        (code, &out["outcome"]),
        (422, &serde_json::json!("blocked_address")),
        "{out}"
    );
    // Private targets: loopback, link-local, a name for loopback.
    for url in [
        elsewhere.url("/direct"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        format!("http://localhost:{}/", host.addr.port()),
    ] {
        let (code, out) = scrape(port, "/scrape", serde_json::json!({ "url": url }));
        assert_eq!(code, 422, "{url}: {out}");
        assert_eq!(out["outcome"], "blocked_address", "{url}: {out}");
    }
    assert!(elsewhere.paths().is_empty(), "{:?}", elsewhere.paths());
    // A deadline: 504, and the fetch still completes into the store.
    let started = Instant::now();
    let (code, out) = scrape(
        port,
        "/scrape",
        serde_json::json!({"url": host.url("/slow"), "timeout": 300}),
    );
    assert_eq!(code, 504, "{out}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let (code, rec) = scrape(
        port,
        "/scrape",
        serde_json::json!({"url": host.url("/slow")}),
    );
    assert_eq!(code, 200, "{rec}");
    assert_eq!(rec["metadata"]["title"], "Slow");
    let (code, out) = scrape(port, "/scrape", serde_json::json!({"url": "not a url"}));
    assert_eq!(code, 400, "{out}");
    // A URL cannot carry seed options (a cookie file, a header) into its line.
    for url in [
        format!("{} cookies=/etc/hostname", host.url("/x")),
        format!("{}\theader=X-A:b", host.url("/x")),
        format!("{}\"", host.url("/x")),
    ] {
        let (code, out) = scrape(port, "/scrape", serde_json::json!({ "url": url }));
        assert_eq!(code, 400, "{url}: {out}");
    }
    assert!(!host.paths().iter().any(|p| p == "/x"));
    drop(_daemon);
    let records = export(&cfg);
    for p in ["/p1", "/slow"] {
        let n = records.iter().filter(|r| r["url"] == host.url(p)).count();
        assert_eq!(n, 1, "{p} stored once");
    }
    assert!(!host.paths().iter().any(|p| p == "/linked"), "depth 0");
    let _ = std::fs::remove_dir_all(&dir);
}

const FIRECRAWL: &str = r#"
import json, sys
from firecrawl import Firecrawl
port, token, page, refused = sys.argv[1:5]
fc = Firecrawl(api_key=token, api_url=f"http://127.0.0.1:{port}")
doc = fc.scrape(page, formats=["markdown", "html"])
v1 = fc.v1.scrape_url(page, formats=["markdown"])
try:
    fc.scrape(refused, formats=["markdown"])
    error = None
except Exception as e:
    error = str(e)
try:
    Firecrawl(api_key="wrong", api_url=f"http://127.0.0.1:{port}").scrape(page)
    unauthorized = None
except Exception as e:
    unauthorized = str(e)
print(json.dumps({
    "markdown": doc.markdown,
    "title": doc.metadata.title,
    "status": doc.metadata.status_code,
    "source": doc.metadata.source_url,
    "warning": doc.warning,
    "v1_markdown": v1.markdown,
    "v1_title": (v1.metadata or {}).get("title"),
    "error": error,
    "unauthorized": unauthorized,
}))
"#;

/// Regression: a scrape that reached the API before the daemon had opened
/// its store was refused 503 "the crawl is starting"; it now waits for the
/// store within its own deadline. The test holds the store's lock for a
/// moment (the daemon waits up to 2 s for a busy lock), so the scrape
/// arrives while the store is not open yet.
#[test]
fn a_scrape_sent_as_the_daemon_starts_waits_for_its_store() {
    let elsewhere = Host::start("127.0.0.175", |_, _| html(&story("Elsewhere", &[])));
    let host = shop("127.0.0.174", elsewhere.url("/x"));
    let (dir, port, cfg, seeds) = daemon_files("scrape-early", Some(&host), "sitemaps = false");
    let held = trawl_crawl::store::Store::open(&dir.join("storage"), 1 << 20).expect("store");
    let _daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_until("the port", Duration::from_secs(20), || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        drop(held);
    });
    let (code, rec) = scrape(
        port,
        "/scrape",
        serde_json::json!({"url": host.url("/early")}),
    );
    assert_eq!(code, 200, "{rec}");
    assert_eq!(rec["metadata"]["title"], "Page early", "{rec}");
    release.join().expect("lock released");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn firecrawls_python_client_scrapes_through_the_daemon() {
    let Some(python) = python_with(&["firecrawl"]) else {
        return;
    };
    let elsewhere = Host::start("127.0.0.169", |_, _| html(&story("Elsewhere", &[])));
    let host = shop("127.0.0.168", elsewhere.url("/x"));
    let (dir, port, cfg, seeds) = daemon_files("scrape-firecrawl", Some(&host), "sitemaps = false");
    let _daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_for_endpoint(port);
    let out = std::process::Command::new(&python)
        .args(["-c", FIRECRAWL, &port.to_string(), TOKEN])
        .args([host.url("/story"), elsewhere.url("/private")])
        .output()
        .expect("python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let md = got["markdown"].as_str().unwrap_or("");
    assert!(md.contains("lifeboat crew"), "{got}");
    assert_eq!(got["title"], "Page story", "{got}");
    assert_eq!(got["status"], 200, "{got}");
    assert_eq!(got["source"], host.url("/story"), "{got}");
    assert!(
        got["warning"]
            .as_str()
            .unwrap_or("")
            .contains("extract.html"),
        "{got}"
    );
    assert_eq!(got["v1_markdown"], got["markdown"], "{got}");
    assert_eq!(got["v1_title"], "Page story", "{got}");
    let error = got["error"].as_str().unwrap_or("");
    assert!(error.contains("private") || error.contains("403"), "{got}");
    assert!(got["unauthorized"].as_str().is_some(), "{got}");
    assert!(elsewhere.paths().is_empty());
    assert_eq!(host.paths().iter().filter(|p| *p == "/story").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cluster mode: a worker's `/scrape` gives the URL to the shared frontier
/// and answers from the database once the lease holder fetched it.
#[test]
fn a_cluster_workers_scrape_answers_from_the_shared_database() {
    let Some(pg) = support::pg::Pg::start("scrape") else {
        return;
    };
    let host = shop("127.0.0.170", String::new());
    let (dir, port, cfg, seeds) = daemon_files(
        "scrape-cluster",
        Some(&host),
        "min_delay_ms = 20\nsitemaps = false",
    );
    let _worker = KillOnDrop(
        trawl()
            .args(["--config", &cfg.to_string_lossy(), "crawl"])
            .args(["--cluster", &pg.url(), "--worker", "w1"])
            .args(["--data", &dir.join("w1").to_string_lossy()])
            .args(["--seeds", &seeds.to_string_lossy()])
            .env("TRAWL_API_TOKEN", TOKEN)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("worker"),
    );
    wait_for_endpoint(port);
    let (code, rec) = scrape(port, "/scrape", serde_json::json!({"url": host.url("/c1")}));
    assert_eq!(code, 200, "{rec}");
    assert_eq!(rec["metadata"]["title"], "Page c1", "{rec}");
    let (code, doc) = scrape(
        port,
        "/v2/scrape",
        serde_json::json!({"url": host.url("/c1")}),
    );
    assert_eq!(code, 200, "{doc}");
    assert_eq!(doc["data"]["metadata"]["cacheState"], "hit", "{doc}");
    let sql = format!("SELECT count(*) FROM trawl_records r JOIN trawl_urls u ON u.hash = r.url_hash WHERE u.url = '{}'", host.url("/c1"));
    assert_eq!(pg.psql(&sql), "1");
    let _ = std::fs::remove_dir_all(&dir);
}
