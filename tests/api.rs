//! The daemon's write endpoints (issue 57): seeds and URLs added to a
//! running crawl and kept across `kill -9`, extraction of posted HTML, all
//! behind a bearer token; the guard for what arrives through them; a
//! cluster worker's endpoint writing to the shared frontier.

mod support;

use std::time::{Duration, Instant};

use support::*;

use support::api::*;

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
    let x_exported = || {
        endpoint_get(port, "/export?outcomes=1")
            .is_some_and(|(_, b)| String::from_utf8_lossy(&b).contains(&x))
    };
    wait_until(
        "the guard's outcome for /x",
        Duration::from_secs(30),
        x_exported,
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
    // What the kill took inside sled's last flush interval is replayed
    // from its block after the restart (regression: CI killed the restarted
    // daemon before the replay and /x's outcome was missing).
    wait_until(
        "the guard's outcome for /x after the restart",
        Duration::from_secs(30),
        x_exported,
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
        .and_then(|f| f.set_len(trawl_crawl::MAX_SEED_FILE_BYTES - 10))
        .expect("a sparse file at the cap");
    let line = b"http://news.example/one-more depth=0\n";
    let (code, body) = send(port, "POST", "/seeds", Some(TOKEN), "text/plain", line);
    assert_eq!(code, 507, "{body}");
    assert!(body.contains("the most of a seed file"), "{body}");
    assert_eq!(
        std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0),
        trawl_crawl::MAX_SEED_FILE_BYTES - 10
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

/// `POST /urls` with a seed: the URLs take its options (its user agent
/// here) when they are in its scope, and the priority asked.
#[test]
fn urls_take_a_seeds_options_in_its_scope_and_a_priority() {
    let host = Host::start("127.0.0.171", |path, _| match path {
        "/robots.txt" => status(404),
        p => html(&story(p, &[])),
    });
    host.keep_headers();
    let other = Host::start("127.0.0.172", |_, _| html(&story("Other", &[])));
    let (dir, port, cfg, seeds) = daemon_files("api-urls-scoped", None, "sitemaps = false");
    let line = format!(
        "{} depth=0 user_agent=\"ScopedBot/2.0 (+test)\"\n",
        host.url("/")
    );
    std::fs::write(&seeds, line).expect("seeds");
    let _daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_for_endpoint(port);
    let post = |path: &str, body: serde_json::Value| post_json(port, path, &body);
    // The seed is known once the crawl has read its file.
    wait_until("the seed", Duration::from_secs(30), || {
        host.paths().iter().any(|p| p == "/")
    });
    let seed = host.url("/");
    let (code, answer) = post(
        "/urls",
        serde_json::json!({"urls": [host.url("/u1"), other.url("/u2")], "seed": seed, "priority": 0.3}),
    );
    assert_eq!(code, 200, "{answer}");
    assert_eq!(answer["lines"][0]["result"], "added", "{answer}");
    assert_eq!(answer["lines"][1]["result"], "error", "{answer}");
    let why = answer["lines"][1]["error"].as_str().unwrap_or("");
    assert!(why.contains("not in the scope of seed"), "{answer}");
    let (code, answer) = post(
        "/urls",
        serde_json::json!({"urls": [host.url("/u3")], "seed": other.url("/")}),
    );
    assert_eq!(code, 404, "{answer}");
    let (code, answer) = post("/urls?priority=2", serde_json::json!([host.url("/u4")]));
    assert_eq!(code, 400, "{answer}");
    wait_until("/u1", Duration::from_secs(30), || {
        host.paths().iter().any(|p| p == "/u1")
    });
    let heads = host.heads();
    let ua = heads
        .iter()
        .find(|(p, _)| p == "/u1")
        .and_then(|(_, h)| h.iter().find(|(k, _)| k == "user-agent"))
        .map(|(_, v)| v.clone());
    assert_eq!(ua.as_deref(), Some("ScopedBot/2.0 (+test)"));
    let (_, list) = send(port, "GET", "/seeds", Some(TOKEN), "text/plain", b"");
    let list = json(&list);
    let u1 = list["seeds"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["url"] == host.url("/u1")))
        .cloned()
        .unwrap_or_else(|| panic!("{list}"));
    let priority = u1["priority"].as_f64().unwrap_or(0.0);
    assert!((priority - 0.3).abs() < 1e-6, "{u1}");
    assert_eq!(u1["max_depth"], 0, "{u1}");
    assert!(other.paths().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Off loopback the endpoint needs the token on every route, the read-only
/// ones included; without a token it does not start.
#[test]
fn off_loopback_every_route_needs_the_token() {
    let host = Host::start("127.0.0.173", |path, _| match path {
        "/robots.txt" => status(404),
        p => html(&story(p, &[])),
    });
    let dir = scratch("api-off-loopback");
    let port = free_port();
    let cfg = config(&dir, &format!("status_addr = \"0.0.0.0:{port}\""));
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, format!("{} depth=0\n", host.url("/"))).expect("seeds");
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--seeds", &seeds.to_string_lossy()])
        .env_remove("TRAWL_API_TOKEN")
        .output()
        .expect("trawl");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("crawl.status_addr") && err.contains("api.token"),
        "{err}"
    );
    assert!(host.paths().is_empty(), "nothing crawled");
    let _daemon = start(&cfg, &seeds, Some(TOKEN));
    wait_until("the endpoint", Duration::from_secs(20), || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    let (code, _) = send(port, "GET", "/status", Some(TOKEN), "text/plain", b"");
    assert_eq!(code, 200);
    for path in ["/", "/status", "/metrics", "/export?since=0"] {
        let (code, _) = send(port, "GET", path, None, "text/plain", b"");
        assert_eq!(code, 401, "{path}");
        let (code, _) = send(port, "GET", path, Some("wrong"), "text/plain", b"");
        assert_eq!(code, 401, "{path}");
    }
    wait_until("the seed's record", Duration::from_secs(20), || {
        let (_, body) = send(
            port,
            "GET",
            "/export?since=0",
            Some(TOKEN),
            "text/plain",
            b"",
        );
        body.contains(&host.url("/"))
    });
    // `trawl export` asks the daemon, with the token, since it has the store.
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "export"])
        .env("TRAWL_API_TOKEN", TOKEN)
        .output()
        .expect("export");
    let lines = String::from_utf8_lossy(&out.stdout);
    assert!(
        lines.contains(&host.url("/")),
        "{lines} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // ... which only the token lets it do: without it, status reads a copy
    // of the store and says the daemon is not running.
    let status = trawl()
        .args(["--config", &cfg.to_string_lossy(), "status", "--json"])
        .env("TRAWL_API_TOKEN", TOKEN)
        .output()
        .expect("status");
    let snap: serde_json::Value = serde_json::from_slice(&status.stdout).expect("status json");
    assert_eq!(snap["running"], true, "{snap}");
    let _ = std::fs::remove_dir_all(&dir);
}
