//! Taps: sinks beside the store. `trawl crawl --feed FILE` appends every
//! committed record to a JSONL file; killed with `kill -9` in the middle and
//! started again, the store has each page once and the feed, deduplicated
//! by `seq`, has exactly the store's records. An embedding program's own
//! sink (a channel) gets every record of an in-process run.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::*;

/// A chain of 120 pages, a few KiB each.
fn site(ip: &str) -> Host {
    Host::start(ip, |path, _| {
        if path == "/robots.txt" {
            return status(404);
        }
        let n: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
        let links: Vec<String> = (n + 1..(n + 3).min(120))
            .map(|i| format!("/p{i}"))
            .collect();
        let words = format!("Page {n} is about tide pools and the shore. ").repeat(30);
        html(&page(&format!("Page {n} {words}"), &links))
    })
}

/// The feed's lines; while a crawl writes it, the last may be unfinished
/// (`whole`: every line must be whole).
fn feed_lines(path: &Path, whole: bool) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let done = if whole {
        assert!(text.is_empty() || text.ends_with('\n'), "a torn last line");
        &text[..]
    } else {
        text.rsplit_once('\n').map_or("", |(d, _)| d)
    };
    done.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn crawl_with_feed(cfg: &Path, seeds: &Path, feed: &Path, once: bool) -> std::process::Child {
    let mut c = trawl();
    c.args(["--config", &cfg.to_string_lossy(), "crawl"]);
    if once {
        c.arg("--once");
    }
    c.args([
        "--seeds",
        &seeds.to_string_lossy(),
        "--feed",
        &feed.to_string_lossy(),
    ])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_killed_crawl_loses_no_record_of_its_feed() {
    let host = site("127.0.0.154");
    let dir = scratch("feed-kill");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 20");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=200\n", host.url("/p0"))).expect("seeds");
    let feed = dir.join("feed.jsonl");

    let mut child = KillOnDrop(crawl_with_feed(&cfg, &seeds, &feed, false));
    let start = Instant::now();
    while feed_lines(&feed, false).len() < 30 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the feed stayed short: {}",
            stderr_of(&mut child.0)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on the crawl this test started.
    unsafe { libc::kill(child.0.id() as i32, libc::SIGKILL) };
    let _ = child.0.wait();
    let before = feed_lines(&feed, false).len();
    assert!(before < 120, "killed before the end: {before}");
    // A line the crash cut short (as a kill in mid-write leaves) is cut off
    // at the next start; its record comes again.
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&feed)
            .expect("feed");
        f.write_all(b"{\"algorithm\":\"au").expect("torn line");
    }

    let mut again = crawl_with_feed(&cfg, &seeds, &feed, true);
    let status = again.wait().expect("wait");
    assert!(status.success(), "{}", stderr_of(&mut again));

    let records = export(&cfg);
    let mut urls: Vec<&str> = records.iter().filter_map(|r| r["url"].as_str()).collect();
    urls.sort_unstable();
    urls.dedup();
    assert_eq!(
        (records.len(), urls.len()),
        (120, 120),
        "every page once in the store"
    );
    let lines = feed_lines(&feed, true);
    let mut by_seq: BTreeMap<u64, &Value> = BTreeMap::new();
    for l in &lines {
        let seq = l["seq"].as_u64().expect("seq");
        if let Some(old) = by_seq.insert(seq, l) {
            assert_eq!(old, l, "a record handed over twice is the same record");
        }
    }
    let store: BTreeMap<u64, &Value> = records
        .iter()
        .map(|r| (r["seq"].as_u64().unwrap_or(0), r))
        .collect();
    assert_eq!(
        by_seq.keys().collect::<Vec<_>>(),
        store.keys().collect::<Vec<_>>(),
        "the feed, deduplicated by seq, is the store ({} lines)",
        lines.len()
    );
    for (seq, r) in &store {
        assert_eq!(by_seq[seq]["url"], r["url"]);
        assert_eq!(by_seq[seq]["text"], r["text"]);
    }
    // A third start with nothing new writes nothing more.
    let n = feed_lines(&feed, true).len();
    let mut idle = crawl_with_feed(&cfg, &seeds, &feed, true);
    assert!(idle.wait().expect("wait").success());
    assert_eq!(feed_lines(&feed, true).len(), n);
}

/// An embedding program's sink: every record into a channel.
struct Channel(std::sync::mpsc::Sender<trawl_crawl::Record>);

impl trawl_crawl::RecordSink for Channel {
    fn record(&mut self, r: &trawl_crawl::Record) -> Result<(), trawl_crawl::SinkError> {
        self.0
            .send(r.clone())
            .map_err(|e| trawl_crawl::SinkError::Format(e.to_string()))
    }
}

#[test]
fn an_embedding_programs_sink_gets_every_record() {
    let host = site("127.0.0.155");
    let dir = scratch("feed-channel");
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 0");
    std::fs::write(
        dir.join("seeds/s.txt"),
        format!("{} depth=200\n", host.url("/p0")),
    )
    .expect("seeds");
    let cfg = trawl_crawl::Config::load(&cfg).expect("config");
    let (tx, rx) = std::sync::mpsc::channel();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let snap = rt
        .block_on(trawl_crawl::run(
            cfg,
            trawl_crawl::RunOptions {
                exit_when_idle: true,
                taps: vec![trawl_crawl::Tap::new("channel", Channel(tx))],
                ..Default::default()
            },
        ))
        .expect("crawl");
    assert_eq!(snap.records, 120);
    let got: Vec<trawl_crawl::Record> = rx.try_iter().collect();
    let seqs: Vec<u64> = got.iter().map(|r| r.seq).collect();
    assert_eq!(
        seqs,
        (1..=120).collect::<Vec<_>>(),
        "each record once, in order"
    );
}
