//! The daemon's write endpoints (issue 57): seeds and URLs added to a
//! running crawl and kept across `kill -9`, extraction of posted HTML, all
//! behind a bearer token; the guard for what arrives through them; a
//! cluster worker's endpoint writing to the shared frontier.

mod support;

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use support::*;

const TOKEN: &str = "t0ken-for-tests";

/// `METHOD path` with `body` to the endpoint on `port` (HTTP/1.0); the
/// status code and the body. `token`: sent as a bearer token.
fn send(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    content_type: &str,
    body: &[u8],
) -> (u16, String) {
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n{auth}Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = c.write_all(head.as_bytes());
    let _ = c.write_all(body); // a refused body may be cut short
    let mut s = Vec::new();
    let _ = c.read_to_end(&mut s);
    let split = s
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(s.len());
    let head = String::from_utf8_lossy(&s[..split]).into_owned();
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = String::from_utf8_lossy(s.get(split + 4..).unwrap_or_default()).into_owned();
    (code, body)
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn story(title: &str, links: &[&str]) -> String {
    let a: String = links
        .iter()
        .map(|l| format!("<a href=\"{l}\">{l}</a> "))
        .collect();
    format!(
        "<html><head><title>{title}</title></head><body><article><h1>{title}</h1><p>{}</p>\
         <p>{a}</p></article></body></html>",
        "The lifeboat crew were called out twice in one night to the same stretch of coast. "
            .repeat(4)
    )
}

/// A daemon's files in the scratch directory `name`: a config whose
/// endpoint is on a free port (`extra`: more of it after the port) and a
/// seed file naming `host` at depth 0, which makes it a host a seed file
/// names (none: an empty file). Returns (dir, port, config, seeds).
fn daemon_files(
    name: &str,
    host: Option<&Host>,
    extra: &str,
) -> (
    std::path::PathBuf,
    u16,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let dir = scratch(name);
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("status_addr = \"127.0.0.1:{port}\"\n{extra}"),
    );
    let seeds = dir.join("seeds/s.txt");
    let line = host.map_or(String::new(), |h| format!("{} depth=0\n", h.url("/")));
    std::fs::write(&seeds, line).expect("seeds");
    (dir, port, cfg, seeds)
}

fn wait_for_endpoint(port: u16) {
    wait_until("the endpoint", Duration::from_secs(20), || {
        status_json(port).is_some()
    });
}

fn start(cfg: &std::path::Path, seeds: &std::path::Path, token: Option<&str>) -> KillOnDrop {
    let mut cmd = trawl();
    cmd.args(["--config", &cfg.to_string_lossy(), "crawl"])
        .args(["--seeds", &seeds.to_string_lossy()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match token {
        Some(t) => cmd.env("TRAWL_API_TOKEN", t),
        None => cmd.env_remove("TRAWL_API_TOKEN"),
    };
    KillOnDrop(cmd.spawn().expect("spawn daemon"))
}

#[test]
fn seeds_and_urls_added_through_the_api_are_crawled_and_kept() {
    let host = Host::start("127.0.0.163", |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&story("Front", &[])),
        "/a" => html(&story("A", &["/b"])),
        "/c" => html(&story("C", &["/d"])),
        p => html(&story(p, &[])),
    });
    let other = Host::start("127.0.0.164", |_, _| html(&story("Other", &[])));
    // The seed file names the host (depth 0: the API adds the rest).
    let (dir, port, cfg, seeds) = daemon_files(
        "api-seeds",
        Some(&host),
        "min_delay_ms = 20\nsitemaps = false",
    );
    let daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_for_endpoint(port);
    let seed_a = format!("{} depth=1\nnot a url\n* depth=2\n", host.url("/a"));
    // No token, a wrong one: 401 and nothing taken.
    for token in [None, Some("wrong"), Some("t0ken-for-testS")] {
        let (code, _) = send(
            port,
            "POST",
            "/seeds",
            token,
            "text/plain",
            seed_a.as_bytes(),
        );
        assert_eq!(code, 401, "{token:?}");
    }
    assert!(!dir.join("storage/api-seeds.txt").exists());
    let (code, body) = send(
        port,
        "POST",
        "/seeds",
        Some(TOKEN),
        "text/plain",
        seed_a.as_bytes(),
    );
    assert_eq!(code, 200, "{body}");
    let answer = json(&body);
    assert_eq!(answer["added"], 1, "{answer}");
    assert_eq!(answer["errors"], 2, "{answer}");
    assert_eq!(answer["lines"][0]["result"], "added");
    assert_eq!(answer["lines"][1]["line"], 2);
    assert_eq!(answer["lines"][2]["result"], "error");
    let fetched = |p: &str| host.paths().iter().any(|x| x == p);
    wait_until("/a and its link /b", Duration::from_secs(30), || {
        fetched("/a") && fetched("/b")
    });
    // URLs: fetched, their links not followed; a private host no seed file
    // names is refused by the guard.
    let urls = serde_json::to_string(&[host.url("/c"), other.url("/x")]).expect("json");
    let (code, body) = send(
        port,
        "POST",
        "/urls",
        Some(TOKEN),
        "application/json",
        urls.as_bytes(),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(json(&body)["added"], 2, "{body}");
    wait_until("/c", Duration::from_secs(30), || fetched("/c"));
    let x = other.url("/x");
    wait_until(
        "the guard's outcome for /x",
        Duration::from_secs(30),
        || {
            endpoint_get(port, "/export?outcomes=1")
                .is_some_and(|(_, b)| String::from_utf8_lossy(&b).contains(&x))
        },
    );
    let again = send(
        port,
        "POST",
        "/seeds",
        Some(TOKEN),
        "text/plain",
        seed_a.as_bytes(),
    );
    assert_eq!(json(&again.1)["known"], 1, "{}", again.1);
    // A seed stopped: no new links from it.
    let (code, body) = send(
        port,
        "DELETE",
        &format!("/seeds?url={}", host.url("/a")),
        Some(TOKEN),
        "text/plain",
        b"",
    );
    assert_eq!(code, 200, "{body}");
    let (_, list) = send(port, "GET", "/seeds", Some(TOKEN), "text/plain", b"");
    let list = json(&list);
    let a = list["seeds"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["url"] == host.url("/a")))
        .cloned()
        .unwrap_or_else(|| panic!("{list}"));
    assert_eq!(a["max_depth"], 0, "{a}");
    // kill -9, then a restart: the API's seeds are still there.
    drop(daemon);
    let kept = std::fs::read_to_string(dir.join("storage/api-seeds.txt")).unwrap_or_default();
    assert!(kept.contains(&host.url("/c")), "{kept}");
    let daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_for_endpoint(port);
    let (_, list) = send(port, "GET", "/seeds", Some(TOKEN), "text/plain", b"");
    assert_eq!(
        json(&list)["seeds"].as_array().map_or(0, Vec::len),
        3,
        "{list}"
    );
    drop(daemon);
    assert!(!fetched("/d"), "a URL's links are not followed");
    assert!(other.paths().is_empty(), "guarded: {:?}", other.paths());
    let outs = outcomes(&cfg);
    let x = outs
        .iter()
        .find(|o| o["url"] == other.url("/x"))
        .unwrap_or_else(|| panic!("{outs:?}"));
    assert_eq!(x["outcome"], "blocked_address", "{x}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn posted_html_is_extracted_and_bodies_are_bounded() {
    let (dir, port, cfg, seeds) = daemon_files(
        "api-extract",
        None,
        // Seed files read at start and when the API writes one, not polled.
        "seed_poll_secs = 3600\n[api]\nmax_body_bytes = 100000\nmax_lines = 100",
    );
    let page = story("Lifeboat called out twice", &[]);
    // Off without a token: said how to turn them on.
    {
        let _daemon = start(&cfg, &seeds, None);
        wait_for_endpoint(port);
        let (code, body) = send(port, "POST", "/extract", None, "text/html", page.as_bytes());
        assert_eq!(code, 404);
        assert!(body.contains("api.token"), "{body}");
    }
    let _daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_for_endpoint(port);
    let (code, body) = send(
        port,
        "POST",
        "/extract?url=http://news.example/lifeboat",
        Some(TOKEN),
        "text/html",
        page.as_bytes(),
    );
    assert_eq!(code, 200, "{body}");
    let rec = json(&body);
    assert_eq!(rec["title"], "Lifeboat called out twice", "{rec}");
    assert_eq!(rec["url"], "http://news.example/lifeboat");
    assert!(rec["markdown"]
        .as_str()
        .unwrap_or("")
        .contains("lifeboat crew"));
    let posted = serde_json::json!({"url": "http://news.example/x", "html": page}).to_string();
    let (code, body) = send(
        port,
        "POST",
        "/extract",
        Some(TOKEN),
        "application/json",
        posted.as_bytes(),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(json(&body)["url"], "http://news.example/x");
    let (code, _) = send(port, "POST", "/extract", None, "text/html", page.as_bytes());
    assert_eq!(code, 401);
    let big = vec![b'a'; 200_000];
    let (code, _) = send(port, "POST", "/extract", Some(TOKEN), "text/html", &big);
    assert_eq!(code, 413, "api.max_body_bytes");
    let many: String = (0..101)
        .map(|i| format!("http://news.example/{i}\n"))
        .collect();
    let (code, body) = send(
        port,
        "POST",
        "/urls",
        Some(TOKEN),
        "text/plain",
        many.as_bytes(),
    );
    assert_eq!(code, 413, "{body}");
    assert!(body.contains("api.max_lines"), "{body}");
    // The API's seed file stops at the size the crawl reads: a line past
    // it would be taken and never read.
    let file = dir.join("storage/api-seeds.txt");
    std::fs::File::create(&file)
        .and_then(|f| f.set_len(trawl_crawl::limits::MAX_SEED_FILE_BYTES - 10))
        .expect("a sparse file at the cap");
    let line = b"http://news.example/one-more depth=0\n";
    let (code, body) = send(port, "POST", "/seeds", Some(TOKEN), "text/plain", line);
    assert_eq!(code, 507, "{body}");
    assert!(body.contains("the most of a seed file"), "{body}");
    assert_eq!(
        std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0),
        trawl_crawl::limits::MAX_SEED_FILE_BYTES - 10
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cluster mode: seeds posted to a worker's endpoint reach the shared
/// frontier (the worker loads its API file into the database).
#[test]
fn a_cluster_workers_api_writes_to_the_shared_frontier() {
    let Some(pg) = support::pg::Pg::start("api") else {
        return;
    };
    let host = Host::start("127.0.0.165", |path, _| match path {
        "/robots.txt" => status(404),
        p => html(&story(p, &[])),
    });
    let (dir, port, cfg, seeds) = daemon_files(
        "api-cluster",
        Some(&host),
        "min_delay_ms = 20\nsitemaps = false",
    );
    let log = dir.join("w1.log");
    let worker = KillOnDrop(
        trawl()
            .args(["--config", &cfg.to_string_lossy(), "crawl"])
            .args(["--cluster", &pg.url(), "--worker", "w1"])
            .args(["--data", &dir.join("w1").to_string_lossy()])
            .args(["--seeds", &seeds.to_string_lossy()])
            .env("TRAWL_API_TOKEN", TOKEN)
            .env("RUST_LOG", "info")
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log"))
            .spawn()
            .expect("worker"),
    );
    // The worker's frontier is in the database once it has loaded its seeds.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !(status_json(port).is_some()
        && pg.psql("SELECT to_regclass('trawl_urls') IS NOT NULL") == "t"
        && pg.psql("SELECT count(*) FROM trawl_urls WHERE outcome IS NOT NULL") == "1")
    {
        assert!(
            Instant::now() < deadline,
            "{}",
            pg.psql("SELECT url, status, outcome FROM trawl_urls")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let line = format!("{} depth=0\n", host.url("/posted"));
    let (code, body) = send(
        port,
        "POST",
        "/seeds",
        Some(TOKEN),
        "text/plain",
        line.as_bytes(),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(json(&body)["accepted"], 1, "{body}");
    let sql = format!(
        "SELECT count(*) FROM trawl_urls WHERE url = '{}' \
         AND outcome::json->>'outcome' = 'fetched'",
        host.url("/posted")
    );
    wait_until(
        "the posted URL done in the database",
        Duration::from_secs(30),
        || pg.psql(&sql) == "1",
    );
    drop(worker);
    let _ = std::fs::remove_dir_all(&dir);
}
