//! The status page at `/` (issue 38), loaded in a real headless browser
//! (Debian's chromium, as `.ci/run` installs it) during a focused loopback
//! crawl: the numbers it shows are `/status`'s at that moment, the harvest
//! curve is drawn, and the page logs no script error.

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use support::{config, free_port, html, scratch, spawn_crawl, status_json, Host};

/// The browser: `TRAWL_CHROMIUM`, else `chromium` on the PATH.
fn chromium() -> Option<PathBuf> {
    let cands = [
        std::env::var("TRAWL_CHROMIUM").ok().map(PathBuf::from),
        Some(PathBuf::from("chromium")),
        Some(PathBuf::from("/usr/bin/chromium")),
    ];
    for c in cands.into_iter().flatten() {
        let ok = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    support::skip_or_fail(
        "chromium not installed (apt-get install chromium); the status page test is not run",
    );
    None
}

/// A small magazine: half its pages about solar power, half about food.
fn site() -> Host {
    Host::start("127.0.0.108", |path, _| {
        let topic = |n: u32| {
            if n % 2 == 0 {
                "Solar panels and a home battery store the afternoon sun; a heat pump runs on it at night."
            } else {
                "Slow-cooked beans with garlic, thyme and a splash of vinegar, served on toast."
            }
        };
        let body = |title: &str, text: &str, links: &[String]| {
            let a: String = links
                .iter()
                .map(|l| format!("<li><a href=\"{l}\">Story {l}</a></li>"))
                .collect();
            format!(
                "<!doctype html><html><head><title>{title}</title></head><body><article>\
                 <h1>{title}</h1><p>{text} {text} {text}</p></article><ul>{a}</ul></body></html>"
            )
        };
        match path {
            "/" => html(&body(
                "Front",
                "Stories about energy and food.",
                &(1..=12).map(|i| format!("/s/{i}")).collect::<Vec<_>>(),
            )),
            p => match p.strip_prefix("/s/").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => html(&body(&format!("Story {n}"), topic(n), &[])),
                None => support::status(404),
            },
        }
    })
}

/// Attribute `name` of the element with `id` in the dumped DOM.
fn attr(dom: &str, id: &str, name: &str) -> Option<String> {
    let at = dom.find(&format!("id=\"{id}\""))?;
    let tag = &dom[at..at + dom[at..].find('>')?];
    let v = tag.split(&format!("{name}=\"")).nth(1)?;
    Some(v[..v.find('"')?].to_string())
}

/// The `data-value` of the element with `id` in the dumped DOM.
fn value(dom: &str, id: &str) -> Option<String> {
    attr(dom, id, "data-value")
}

#[test]
fn the_status_page_shows_what_status_says_and_draws_the_harvest_curve() {
    let Some(browser) = chromium() else { return };
    let host = site();
    let dir = scratch("status-page");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!(
            "status_addr = \"127.0.0.1:{port}\"\nmin_delay_ms = 20\n[focus]\n\
             keywords = {{ solar = 1.0, battery = 1.0, \"heat pump\" = 2.0 }}\nseries_every = 2\n"
        ),
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, host.url("/") + "\n").expect("seeds");
    let mut daemon = spawn_crawl(&cfg, &seeds, false);
    // Wait until the crawl is idle: its numbers then stay put.
    let deadline = Instant::now() + Duration::from_secs(30);
    let idle = loop {
        let s = status_json(port);
        if let Some(s) =
            s.filter(|s| s["fetched"].as_u64() == Some(13) && s["queue"] == 0 && s["inflight"] == 0)
        {
            break s;
        }
        assert!(Instant::now() < deadline, "the crawl did not finish");
        std::thread::sleep(Duration::from_millis(200));
    };
    let out = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--window-size=390,844",
            "--virtual-time-budget=5000",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
        ])
        .arg(format!("http://127.0.0.1:{port}/"))
        .env("HOME", &dir)
        .output()
        .expect("run chromium");
    let now = status_json(port).expect("status");
    let page_head = head_of_page(port);
    support::cluster::signal(&daemon, libc::SIGTERM);
    let _ = daemon.wait();
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(dom.contains("<h1>trawl"), "no page: {dom}\n{log}");
    for (id, key) in [
        ("fetched", "fetched"),
        ("records", "records"),
        ("queue", "queue"),
        ("bytes", "bytes"),
    ] {
        assert_eq!(
            value(&dom, id),
            Some(now[key].to_string()),
            "{id} differs from /status ({key}); idle snapshot {idle}"
        );
    }
    // The host table lists the site, and the types table the records.
    assert!(dom.contains(&host.addr.to_string()), "no host row: {dom}");
    assert!(
        dom.contains("<td>article</td>"),
        "no records by type: {dom}"
    );
    // The harvest curve: one point per two judged pages.
    let count: usize = attr(&dom, "harvest-line", "data-count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    assert!(count >= 5, "the harvest curve has {count} points: {dom}");
    let points = attr(&dom, "harvest-line", "points").map_or(0, |p| p.split_whitespace().count());
    assert_eq!(points, count, "every point drawn");
    // No script error in the browser's console.
    let errors: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    assert!(errors.is_empty(), "console: {errors:?}");
    // Served with a policy that allows nothing from elsewhere.
    assert!(
        page_head.contains("content-security-policy: default-src 'none'"),
        "{page_head}"
    );
}

/// The status line and header fields the endpoint answers `GET /` with.
fn head_of_page(port: u16) -> String {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let _ = c.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = write!(c, "GET / HTTP/1.0\r\nHost: x\r\n\r\n");
    let mut s = Vec::new();
    let _ = c.read_to_end(&mut s);
    let s = String::from_utf8_lossy(&s).to_ascii_lowercase();
    s.split("\r\n\r\n").next().unwrap_or("").to_string()
}
