//! `trawl fetch URL…` (issue 57): one page now, as the crawl would fetch it
//! (robots.txt, redirects, politeness, the guard), printed as a record; exit
//! 1 with the reason on stderr when a URL gives no record, 2 on bad usage.
//! Rendering is tested in `tests/render.rs` (it takes the browser's turn).

mod support;

use support::*;

const STORY: &str = "The harbour master said the new pontoon would open in May, once the \
                     divers had checked the old piles and the council had signed off the \
                     last of the repairs to the sea wall.";

fn site(ip: &str) -> Host {
    Host::start(ip, |path, _| match path {
        "/robots.txt" => Reply::Status(
            200,
            vec![("Content-Type".into(), "text/plain".into())],
            b"User-agent: *\nDisallow: /private/\n".to_vec(),
        ),
        "/story" => html(&format!(
            "<html><head><title>Pontoon opens in May</title>\
             <meta name=author content=\"Ann Lee\"></head><body><nav><a href=/>Home</a></nav>\
             <article><h1>Pontoon opens in May</h1><p>{STORY}</p><p>{STORY}</p></article>\
             <a href=/other>Other</a></body></html>"
        )),
        "/old" => redirect("/older"),
        "/older" => redirect("/story"),
        "/private/page" => html("<html><body><p>secret</p></body></html>"),
        "/data.json" => Reply::Status(
            200,
            vec![("Content-Type".into(), "application/json".into())],
            b"{\"a\": 1}".to_vec(),
        ),
        _ => status(404),
    })
}

fn fetch(cfg: &std::path::Path, args: &[&str]) -> std::process::Output {
    trawl()
        .args(["--config", &cfg.to_string_lossy(), "fetch"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("trawl fetch: {e}"))
}

#[test]
fn fetch_prints_the_record_of_a_page_through_its_redirects() {
    let host = site("127.0.0.158");
    let dir = scratch("fetch-record");
    let cfg = config(&dir, "min_delay_ms = 300");
    let warc = dir.join("out.warc.gz");
    let out = fetch(
        &cfg,
        &["--warc", &warc.to_string_lossy(), &host.url("/old")],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(rec["title"], "Pontoon opens in May");
    assert_eq!(rec["author"], "Ann Lee");
    assert_eq!(rec["final_url"], host.url("/story"));
    assert!(rec["markdown"]
        .as_str()
        .unwrap_or("")
        .contains("the council had signed off"));
    // robots.txt first, each hop in turn, the host's delay between them.
    let paths = host.paths();
    assert_eq!(
        paths,
        ["/robots.txt", "/old", "/older", "/story"],
        "{paths:?}"
    );
    let gap = host.min_gap().unwrap_or_default();
    assert!(gap >= std::time::Duration::from_millis(280), "{gap:?}");
    assert!(!paths.iter().any(|p| p == "/other"), "no link followed");
    // The WARC has every exchange.
    let bytes = std::fs::read(&warc).unwrap_or_default();
    let mut text = String::new();
    use std::io::Read;
    let _ = flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_string(&mut text);
    for p in ["/robots.txt", "/old", "/older", "/story"] {
        let target = format!("WARC-Target-URI: {}", host.url(p));
        assert!(text.contains(&target), "{target} missing");
    }
    if let Some(warcio) = warcio() {
        warcio_check(&warcio, &warc);
    }
    // Markdown and text, as `trawl extract` prints them.
    let md = fetch(&cfg, &["--format", "markdown", &host.url("/story")]);
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.starts_with("The harbour master") && !md.contains("Home"),
        "{md}"
    );
    let text = fetch(&cfg, &["--format", "text", &host.url("/story")]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("Title: Pontoon opens in May\nAuthor: Ann Lee\n"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fetch_says_why_a_url_gave_no_record_and_exits_1() {
    let host = site("127.0.0.159");
    let dir = scratch("fetch-errors");
    let cfg = config(&dir, "min_delay_ms = 20");
    let out = fetch(
        &cfg,
        &[
            &host.url("/private/page"),
            &host.url("/missing"),
            &host.url("/data.json"),
            &host.url("/story"),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("/private/page: robots_denied"), "{err}");
    assert!(err.contains("/missing: http_error (HTTP 404)"), "{err}");
    assert!(err.contains("/data.json: not_html"), "{err}");
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout)
        .unwrap_or("")
        .lines()
        .collect();
    assert_eq!(lines.len(), 1, "only the story has a record: {lines:?}");
    assert!(!host.paths().iter().any(|p| p == "/private/page"));
    // Usage: a URL that is not one, exit 2, nothing fetched.
    let before = host.paths().len();
    let bad = fetch(&cfg, &["not a url"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a url"));
    assert_eq!(host.paths().len(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fetch_refuses_a_redirect_to_a_private_address_the_url_did_not_name() {
    let target = Host::start("127.0.0.161", |_, _| html("<p>admin</p>"));
    let admin = target.url("/admin");
    let host = Host::start("127.0.0.160", move |path, _| match path {
        "/robots.txt" => status(404),
        _ => redirect(&admin),
    });
    let dir = scratch("fetch-guard");
    let cfg = config(&dir, "min_delay_ms = 20");
    let out = fetch(&cfg, &[&host.url("/go")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("blocked_address"), "{err}");
    assert!(target.paths().is_empty(), "{:?}", target.paths());
    let _ = std::fs::remove_dir_all(&dir);
}
