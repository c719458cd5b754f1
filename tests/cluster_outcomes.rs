//! Cluster mode keeps the "nothing dropped" rules of one machine (issue
//! 34): the URLs of a host stopped by its error budget get a `host_stopped`
//! outcome and are set aside in the shared frontier (status 3), the workers
//! of a `--once` run still finish, and a worker that starts later offers
//! the set-aside URLs again. And the shared database's schema version:
//! an old database is migrated, a newer one refused (issue 35).

mod support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use support::pg::Pg;
use support::*;

fn worker(
    cfg: &std::path::Path,
    url: &str,
    name: &str,
    seeds: &std::path::Path,
) -> std::process::Child {
    let dir = cfg.parent().unwrap_or(std::path::Path::new("."));
    trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--cluster", url, "--worker", name])
        .args(["--data", &dir.join(name).to_string_lossy()])
        .args(["--seeds", &seeds.to_string_lossy()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn worker: {e}"))
}

fn wait(mut children: Vec<std::process::Child>, limit: Duration) {
    let deadline = Instant::now() + limit;
    for c in &mut children {
        loop {
            if let Ok(Some(code)) = c.try_wait() {
                assert!(code.success(), "worker failed: {}", stderr_of(c));
                break;
            }
            if Instant::now() > deadline {
                let _ = c.kill();
                panic!("a worker did not finish: {}", stderr_of(c));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Config and seed file in a scratch directory `name` for `host` (config
/// keys in `extra`), then two `--once` workers crawling it to the end.
fn crawl_with_two_workers(pg: &Pg, host: &Host, name: &str, extra: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let cfg = config(
        &dir,
        &format!("sitemaps = false\nmin_delay_ms = 5\n{extra}\n[cluster]\nlease_secs = 30\n"),
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/"))).unwrap_or_else(|e| panic!("{e}"));
    let url = pg.url();
    wait(
        vec![
            worker(&cfg, &url, "w1", &seeds),
            worker(&cfg, &url, "w2", &seeds),
        ],
        Duration::from_secs(90),
    );
    cfg
}

#[test]
fn a_stopped_hosts_urls_are_set_aside_with_an_outcome_across_workers() {
    let Some(pg) = Pg::start("outcomes") else {
        return;
    };
    let links: Vec<String> = (0..30).map(|i| format!("/broken/{i}")).collect();
    let host = Host::start("127.0.0.60", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Links", &links)),
        _ => status(501),
    });
    let cfg = crawl_with_two_workers(&pg, &host, "cluster-outcomes", "host_error_budget = 10");
    let (url, seeds) = (pg.url(), cfg.with_file_name("seeds.txt"));
    let broken = || {
        host.paths()
            .iter()
            .filter(|p| p.starts_with("/broken/"))
            .count()
    };
    assert_eq!(broken(), 10, "the host is stopped after its error budget");
    let count = |sql: &str| pg.psql(sql).trim().parse::<i64>().unwrap_or(-1);
    assert_eq!(
        count(
            "SELECT count(*) FROM trawl_urls WHERE status = 3 \
             AND outcome::json->>'outcome' = 'host_stopped'"
        ),
        20,
        "every URL not fetched has its outcome"
    );
    assert_eq!(count("SELECT sum(queued) FROM trawl_hosts"), 0);
    // A worker starting later offers them again (a fresh budget).
    wait(
        vec![worker(&cfg, &url, "w3", &seeds)],
        Duration::from_secs(90),
    );
    assert_eq!(broken(), 20, "set-aside URLs are offered again");
}

/// The PostgreSQL schema has a version (issue 35): a database made by an
/// older trawl (the first schema, no version) is migrated when a worker
/// connects; one a newer trawl made is refused with a clear error.
#[test]
fn an_old_schema_is_migrated_and_a_newer_one_refused() {
    let Some(pg) = Pg::start("schema") else {
        return;
    };
    // What the first cluster-mode trawl created: schema.sql as it stands.
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/trawl-crawl/src/cluster/schema.sql"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    pg.psql(&base);
    pg.psql(
        "INSERT INTO trawl_hosts (name, queued) VALUES ('a.test', 1);
         INSERT INTO trawl_urls (hash, host_id, url, priority, depth, seed, kind)
         VALUES (1, 1, 'http://a.test/', 1, 0, 1, 0)",
    );
    assert_eq!(pg.psql("SELECT to_regclass('trawl_schema') IS NULL"), "t");
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(trawl_crawl::cluster::Conn::connect(&pg.url()))
        .unwrap_or_else(|e| panic!("migrates: {e}"));
    assert_eq!(
        pg.psql("SELECT version FROM trawl_schema"),
        trawl_crawl::cluster::schema::VERSION.to_string()
    );
    assert_eq!(
        pg.psql("SELECT count(*) FROM pg_indexes WHERE indexname = 'trawl_urls_set_aside'"),
        "1"
    );
    assert_eq!(
        pg.psql("SELECT url FROM trawl_urls"),
        "http://a.test/",
        "data kept"
    );
    // Connecting again changes nothing.
    rt.block_on(trawl_crawl::cluster::Conn::connect(&pg.url()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pg.psql("SELECT count(*) FROM trawl_schema"), "1");
    // A database a newer trawl made is refused, naming both versions.
    pg.psql("UPDATE trawl_schema SET version = 99");
    let err = rt
        .block_on(trawl_crawl::cluster::Conn::connect(&pg.url()))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("99") && err.contains("newer"), "{err}");
}

/// Issue 34, finding 9 in cluster mode: a redirect to a URL the cluster
/// already knows is not fetched again, and a page reached through a
/// redirect is not fetched again when a link names it later.
#[test]
fn a_redirect_to_a_known_page_is_fetched_once_across_workers() {
    let Some(pg) = Pg::start("redirects") else {
        return;
    };
    let host = redirect_site("127.0.0.61");
    let cfg = crawl_with_two_workers(&pg, &host, "cluster-redirects", "");
    let records = export_lines(&cfg, &["--cluster", &pg.url()]);
    assert_fetched_and_stored_once(&host, &records);
    assert_eq!(
        pg.psql("SELECT outcome::json->>'outcome' FROM trawl_urls WHERE url LIKE '%/old-story'"),
        "redirected"
    );
}

/// Issue 53, items 1, 7 and 12 in cluster mode: robots directives read as
/// directives (`max-image-preview:none` is not `none`), a noindex page and
/// a challenge page end with their outcomes in the shared frontier and
/// never become records, a relative canonical is exported absolute.
#[test]
fn a_new_users_pages_end_the_same_across_workers() {
    let Some(pg) = Pg::start("newuser") else {
        return;
    };
    let doc = |title: &str, head: &str, links: &[&str]| {
        let a: String = links
            .iter()
            .map(|l| format!("<a href=\"{l}\">{l}</a> "))
            .collect();
        format!(
            "<html><head><title>{title}</title>{head}</head><body><article><h1>{title}</h1>\
             <p>{}</p><p>{a}</p></article></body></html>",
            "A paragraph of the story that says enough to be a page of text. ".repeat(8)
        )
    };
    let typed = |code: u16, extra: Vec<(&str, &str)>, body: String| {
        let mut h = vec![("Content-Type".to_string(), "text/html".to_string())];
        h.extend(
            extra
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        Reply::Status(code, h, body.into_bytes())
    };
    let host = Host::start("127.0.0.156", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&doc("Front", "", &["/seo", "/hidden", "/header", "/cf"])),
        "/seo" => html(&doc(
            "Seo",
            "<meta name=robots content=\"index, follow, max-image-preview:none\">\
             <link rel=canonical href=\"/seo-canonical\">",
            &["/from-seo"],
        )),
        "/hidden" => html(&doc(
            "Hidden",
            "<meta name=robots content=noindex>",
            &["/from-hidden"],
        )),
        "/header" => typed(
            200,
            vec![("X-Robots-Tag", "noindex, nofollow")],
            doc("Header", "", &["/from-header"]),
        ),
        "/cf" => typed(
            403,
            vec![("cf-mitigated", "challenge")],
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>\
             <noscript>Enable JavaScript and cookies to continue</noscript>\
             <script>window._cf_chl_opt={cvId:'3'};</script></body></html>"
                .to_string(),
        ),
        p => html(&doc(p, "", &[])),
    });
    let cfg = crawl_with_two_workers(&pg, &host, "cluster-newuser", "max_retries = 1");
    let outcome = |path: &str| {
        pg.psql(&format!(
            "SELECT outcome::json->>'outcome' FROM trawl_urls WHERE url = '{}'",
            host.url(path)
        ))
    };
    assert_eq!(outcome("/hidden"), "noindex");
    assert_eq!(outcome("/header"), "noindex");
    assert_eq!(outcome("/cf"), "blocked_by_site");
    let paths = host.paths();
    let fetched = |p: &str| paths.iter().any(|x| x == p);
    assert!(fetched("/from-seo") && fetched("/from-hidden"), "{paths:?}");
    assert!(!fetched("/from-header"), "nofollow kept its links out");
    let records = export_lines(&cfg, &["--cluster", &pg.url()]);
    let urls: Vec<&str> = records.iter().filter_map(|r| r["url"].as_str()).collect();
    for p in ["/hidden", "/header", "/cf"] {
        assert!(
            !urls.contains(&host.url(p).as_str()),
            "{p} stored: {urls:?}"
        );
    }
    let seo = records
        .iter()
        .find(|r| r["url"] == host.url("/seo"))
        .unwrap_or_else(|| panic!("max-image-preview:none is not none: {urls:?}"));
    assert_eq!(seo["canonical"], host.url("/seo-canonical"), "{seo}");
}

/// Issue 53, item 14 in cluster mode: a `--once` worker whose only host
/// never answers says what it waits for and ends after
/// `crawl.once_wait_secs`, its URLs left queued.
#[test]
fn a_once_worker_with_a_host_that_never_answers_says_so_and_ends() {
    let Some(pg) = Pg::start("oncewait") else {
        return;
    };
    let host = Host::start("127.0.0.157", |_, _| Reply::Hang);
    let dir = scratch("cluster-once-wait");
    let cfg = config(
        &dir,
        "sitemaps = false\ntimeout_secs = 1\nconnect_timeout_secs = 1\nonce_wait_secs = 3",
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/"))).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let out = support::cluster::run_once_output(&cfg, &pg, &dir, &seeds);
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(took < Duration::from_secs(45), "{took:?}: {err}");
    assert!(
        err.contains("no URL ended for crawl.once_wait_secs"),
        "{err}"
    );
    assert!(err.contains("robots.txt"), "says what it waits for: {err}");
    assert_eq!(
        pg.psql("SELECT count(*) FROM trawl_urls WHERE status = 0"),
        "1",
        "the seed stays queued"
    );
}

/// A port found free and taken before the server binds it (a parallel
/// test's socket) moves the cluster to another port instead of failing the
/// test (a regression test: `an_old_schema_is_migrated_and_a_newer_one_refused`
/// failed once in CI with "could not bind IPv4 address: Address already in
/// use").
#[test]
fn a_taken_port_moves_the_test_cluster_to_another() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let Some(pg) = Pg::start_at("taken-port", port) else {
        return;
    };
    assert_ne!(pg.port, port);
    assert!(std::net::TcpStream::connect(("127.0.0.1", pg.port)).is_ok());
}
