//! The status page at `/` (issue 38), loaded in a real headless browser
//! (Debian's chromium, as `.ci/run` installs it, driven over the DevTools
//! protocol) in the middle of a focused loopback crawl: while one request
//! is held by the server, the numbers the page shows are `/status`'s at that
//! moment, the host table counts the host's queued URLs, the harvest curve
//! is drawn and the page logs no error; once the request is let go, the page
//! refreshes itself to the crawl's end.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::cdp::{chromium, Browser};
use support::{config, free_port, html, scratch, spawn_crawl, status_json, Host};

/// Story pages answered before the one the server holds.
const BEFORE_HOLD: usize = 9;

/// A small magazine: half its pages about solar power, half about food.
/// The story request after the first [`BEFORE_HOLD`] is held until `gate`
/// opens (or 40 s pass): the crawl is caught mid-way, its numbers still.
fn site(gate: Arc<AtomicBool>) -> Host {
    let stories = Arc::new(AtomicUsize::new(0));
    Host::start("127.0.0.108", move |path, _| {
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
                Some(n) => {
                    if stories.fetch_add(1, Ordering::SeqCst) == BEFORE_HOLD {
                        let until = Instant::now() + Duration::from_secs(40);
                        while !gate.load(Ordering::SeqCst) && Instant::now() < until {
                            std::thread::sleep(Duration::from_millis(20));
                        }
                    }
                    html(&body(&format!("Story {n}"), topic(n), &[]))
                }
                None => support::status(404),
            },
        }
    })
}

/// What the page shows: its cards' values, the host table's cells, the
/// harvest line's points.
const SHOWN: &str = r##"(() => {
  const v = (id) => document.getElementById(id).dataset.value;
  const line = document.getElementById("harvest-line");
  return {
    fetched: v("fetched"), records: v("records"), queue: v("queue"),
    bytes: v("bytes"), inflight: v("inflight"),
    hosts: [...document.querySelectorAll("#hosts tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent)),
    types: [...document.querySelectorAll("#types tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent)),
    count: Number(line.dataset.count || 0),
    points: line.getAttribute("points").split(" ").filter((p) => p).length,
    plotted: line.getTotalLength() > 0,
    width: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  };
})()"##;

#[test]
fn the_status_page_shows_what_status_says_and_draws_the_harvest_curve() {
    let Some(exe) = chromium() else { return };
    let gate = Arc::new(AtomicBool::new(false));
    let host = site(gate.clone());
    let dir = scratch("status-page");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!(
            "status_addr = \"127.0.0.1:{port}\"\nmin_delay_ms = 20\ntimeout_secs = 60\n[focus]\n\
             keywords = {{ solar = 1.0, battery = 1.0, \"heat pump\" = 2.0 }}\nseries_every = 2\n"
        ),
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, host.url("/") + "\n").expect("seeds");
    let mut daemon = spawn_crawl(&cfg, &seeds, false);
    // The crawl is held: the story request is in flight, the rest queued,
    // and the host table has counted them.
    let deadline = Instant::now() + Duration::from_secs(30);
    let held = loop {
        let s = status_json(port);
        if let Some(s) = s.filter(|s| {
            s["fetched"].as_u64() == Some(1 + BEFORE_HOLD as u64)
                && s["inflight"] == 1
                && s["queue"].as_u64().is_some_and(|q| q > 0)
                && s["hosts"][0]["queued"]["urls"] == s["queue"]
        }) {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "the crawl was not held as planned: {:?}",
            status_json(port)
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let profile = dir.join("browser");
    let mut browser = Browser::launch(&exe, &profile, 390, 844);
    // A phone's screen.
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({ "width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true }),
    );
    browser.navigate(&format!("http://127.0.0.1:{port}/"));
    let rendered = browser.wait_for(
        "document.getElementById('fetched')?.dataset.value",
        Duration::from_secs(15),
    );
    assert!(rendered.is_some(), "the page never showed a number");
    let shown = browser.eval(SHOWN);
    let now = status_json(port).expect("status");
    let page_head = head_of_page(port);
    for key in ["fetched", "records", "queue", "bytes", "inflight"] {
        assert_eq!(
            shown[key].as_str(),
            Some(now[key].to_string().as_str()),
            "{key} differs from /status; shown {shown}, /status {now}, held at {held}"
        );
    }
    // The host table: the site, its queued URLs, its requests.
    let row = shown["hosts"]
        .as_array()
        .and_then(|rows| rows.first())
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(row[0], host.addr.to_string(), "{shown}");
    assert_eq!(row[1], now["queue"].to_string(), "queued cell: {shown}");
    assert_eq!(row[2], now["hosts"][0]["requests"].to_string(), "{shown}");
    // Records by type.
    assert!(
        shown["types"]
            .as_array()
            .is_some_and(|t| t.iter().any(|r| r[0] == "article")),
        "no records by type: {shown}"
    );
    // The harvest curve: one point per two judged pages, all drawn.
    let count = shown["count"].as_u64().unwrap_or(0);
    assert!(count >= 4, "the harvest curve has {count} points: {shown}");
    assert_eq!(shown["points"].as_u64(), Some(count), "every point drawn");
    assert_eq!(shown["plotted"], true, "the line has a length");
    assert_eq!(shown["viewport"], 390, "{shown}");
    assert!(
        shown["width"].as_u64().is_some_and(|w| w <= 390),
        "wider than a phone: {shown}"
    );
    // Let the crawl go on: the page follows it by itself.
    gate.store(true, Ordering::SeqCst);
    let ended = browser.wait_for(
        "document.getElementById('fetched').dataset.value === '13' && \
         document.getElementById('inflight').dataset.value === '0'",
        Duration::from_secs(20),
    );
    let errors = browser.errors();
    drop(browser);
    support::cluster::signal(&daemon, libc::SIGTERM);
    let _ = daemon.wait();
    assert!(
        ended.is_some(),
        "the page did not refresh to the crawl's end"
    );
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
    let _ = write!(c, "GET / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let mut s = Vec::new();
    let _ = c.read_to_end(&mut s);
    let s = String::from_utf8_lossy(&s).to_ascii_lowercase();
    s.split("\r\n\r\n").next().unwrap_or("").to_string()
}
