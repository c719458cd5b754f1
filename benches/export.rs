//! Export at scale: a store of N records (default 1,000,000; about 1.4 KB of
//! text and Markdown each), then `trawl export` in every format from the
//! stopped store, reporting time, output size and the exporting process's
//! peak RSS (wait4's `ru_maxrss`). Memory must stay flat: what one record
//! or one Parquet row group holds, not the store.
//!
//! `cargo bench --bench export -- [N]`; `STORE=DIR` reuses the store
//! there, or fills one there and keeps it.

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use trawl_crawl::frontier::{Frontier, Next};
use trawl_crawl::store::{Completion, NewUrl, PageOutcome, QueuedUrl, Store, UrlKind};
use trawl_crawl::Record;

const WORDS: &str = "Tide pools hold anemones, crabs and small fish between the tides; \
                     the rocks keep them wet while the sea is out. ";

/// Enqueues `n` URLs over 1,000 hosts and completes each with a record.
fn fill(dir: &Path, n: u64) {
    let store = Store::open(dir, 64 << 20).expect("open store");
    let mut i = 0u64;
    while i < n {
        let urls: Vec<NewUrl> = (i..(i + 1000).min(n))
            .map(|k| {
                let host = format!("h{}.example", k % 1000);
                NewUrl {
                    item: QueuedUrl {
                        url: format!("http://{host}/story/{k}.html"),
                        depth: 1,
                        seed: 1,
                        attempt: 0,
                        kind: UrlKind::Page,
                        priority: 1.0,
                        features: None,
                        revisit: None,
                    },
                    host,
                }
            })
            .collect();
        store.enqueue(&urls).expect("enqueue");
        i += 1000;
    }
    let mut frontier = Frontier::new(store.clone(), 1).expect("frontier");
    let far = Instant::now() + Duration::from_secs(3600);
    let mut done = 0u64;
    while let Next::Url(lease) = frontier.next(far).expect("next") {
        let url = lease.item.url.clone();
        let text = format!("Story {done}. {}", WORDS.repeat(6));
        let record = Record {
            url: url.clone(),
            final_url: url.clone(),
            status: 200,
            title: Some(format!("Story {done}, \"the tides\"")),
            author: Some("Ann Lee".into()),
            date: Some("2025-03-01".into()),
            markdown: format!("# Story {done}\n\n{text}"),
            text,
            ..Record::default()
        };
        let outcome = PageOutcome {
            url,
            status: 200,
            ..PageOutcome::default()
        };
        store
            .complete(
                &lease.key,
                &lease.host,
                &Completion::Done {
                    outcome,
                    record: Some(Box::new(record)),
                    simhash: None,
                    links: Vec::new(),
                    counted: None,
                    again: None,
                    changed: Vec::new(),
                    recheck: None,
                },
            )
            .expect("complete");
        frontier
            .finished(&lease.host, Duration::ZERO)
            .expect("finished");
        done += 1;
    }
    store.flush_blocking().expect("flush");
    store.checkpoint().expect("checkpoint");
}

/// Runs `trawl export` with `args`; returns (seconds, peak RSS in MiB).
#[allow(clippy::zombie_processes)] // wait4 reaps it, for its rusage
fn run(config: &Path, args: &[&str]) -> (f64, f64) {
    let start = Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_trawl"))
        .arg("--config")
        .arg(config)
        .arg("export")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn trawl");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on the child this function started, with valid pointers.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert!(
        pid > 0 && status == 0,
        "trawl export {args:?} failed ({status})"
    );
    (
        start.elapsed().as_secs_f64(),
        usage.ru_maxrss as f64 / 1024.0,
    )
}

fn main() {
    let n: u64 = std::env::args()
        .skip(1)
        .find(|a| a != "--bench")
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let tmp = std::env::temp_dir().join(format!("trawl-export-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("tmp");
    // STORE=DIR: the store there is reused, or filled there and kept.
    let store = match std::env::var("STORE") {
        Ok(s) => std::path::PathBuf::from(s),
        Err(_) => tmp.join("store"),
    };
    if !store.join("db").exists() {
        let start = Instant::now();
        fill(&store, n);
        println!(
            "store of {n} records in {:.0} s: {}",
            start.elapsed().as_secs_f64(),
            store.display()
        );
    }
    let config = tmp.join("config.toml");
    std::fs::write(&config, "").expect("config");
    let data = store.to_string_lossy().to_string();
    println!("| format | seconds | records/s | output MB | peak RSS MiB |");
    println!("|---|---|---|---|---|");
    let formats: [(&str, &[&str]); 5] = [
        ("jsonl", &[]),
        ("csv", &["--format", "csv"]),
        ("parquet", &["--format", "parquet"]),
        ("markdown", &["--format", "markdown"]),
        ("chunks 300", &["--chunks", "300"]),
    ];
    for (name, extra) in formats {
        let out = tmp.join(format!("out-{}", name.replace(' ', "-")));
        let out_s = out.to_string_lossy().to_string();
        let mut args = vec!["--data", &data, "--out", &out_s];
        args.extend_from_slice(extra);
        let (secs, rss) = run(&config, &args);
        let bytes = size(&out);
        println!(
            "| {name} | {secs:.1} | {:.0} | {:.0} | {rss:.0} |",
            n as f64 / secs,
            bytes as f64 / 1e6
        );
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_file(&out);
    }
    if std::env::var("STORE").is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
}

/// Bytes in a file, or in every file under a directory.
fn size(p: &Path) -> u64 {
    if p.is_dir() {
        std::fs::read_dir(p)
            .map(|d| d.flatten().map(|e| size(&e.path())).sum())
            .unwrap_or(0)
    } else {
        p.metadata().map_or(0, |m| m.len())
    }
}
