//! The WARC archive of a crawl, checked with warcio (the reference reader):
//! every exchange (pages, redirect hops, robots.txt) is a request and a
//! response record, every file passes `warcio check`, and every record's
//! WARC location resolves to its page's response.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{config, crawl_once, export, redirect_site, scratch, skip_or_fail};
use trawl_crawl::warc::{http_parts, Reader};

/// warcio's command: `TRAWL_WARCIO`, else `warcio` on the PATH.
fn warcio() -> Option<PathBuf> {
    let cands = [
        std::env::var("TRAWL_WARCIO").ok().map(PathBuf::from),
        Some(PathBuf::from("warcio")),
    ];
    for c in cands.into_iter().flatten() {
        if Command::new(&c)
            .arg("--help")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(c);
        }
    }
    skip_or_fail("warcio not installed (python3 -m venv V && V/bin/pip install warcio; TRAWL_WARCIO=V/bin/warcio)");
    None
}

fn warc_files(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("warc"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.to_string_lossy().ends_with(".warc.gz"));
    files.sort();
    files
}

#[test]
fn every_exchange_is_archived_and_warcio_reads_every_file() {
    let Some(warcio) = warcio() else { return };
    let site = redirect_site("127.0.0.82");
    let dir = scratch("warc-crawl");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, site.url("/") + "\n").expect("seeds");
    let cfg = config(&dir, "");
    let out = crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = warc_files(&dir.join("storage"));
    assert!(!files.is_empty(), "no WARC file written");
    let mut targets: Vec<(String, String)> = Vec::new();
    for f in &files {
        let check = Command::new(&warcio)
            .args(["check", "-v"])
            .arg(f)
            .output()
            .expect("warcio check");
        assert!(
            check.status.success(),
            "warcio check {}: {}{}",
            f.display(),
            String::from_utf8_lossy(&check.stdout),
            String::from_utf8_lossy(&check.stderr)
        );
        let index = Command::new(&warcio)
            .args(["index", "-f", "warc-type,warc-target-uri,offset"])
            .arg(f)
            .output()
            .expect("warcio index");
        assert!(index.status.success());
        for line in String::from_utf8_lossy(&index.stdout).lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("index line");
            targets.push((
                v["warc-type"].as_str().unwrap_or("").to_string(),
                v["warc-target-uri"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    assert_eq!(targets.first().map(|t| t.0.as_str()), Some("warcinfo"));
    // robots.txt, the pages, and each redirect hop: a request and a response each.
    for path in [
        "/robots.txt",
        "/",
        "/old-story",
        "/story",
        "/moved",
        "/fresh",
        "/later",
    ] {
        let url = site.url(path);
        for kind in ["request", "response"] {
            assert!(
                targets.iter().any(|(k, t)| k == kind && *t == url),
                "no {kind} record for {url}: {targets:?}"
            );
        }
    }
    // Each record names its page's response.
    let records = export(&cfg);
    assert!(records.len() >= 4, "{records:?}");
    for r in &records {
        let file = r["warc"]["file"].as_str().expect("warc.file");
        let offset = r["warc"]["offset"].as_u64().expect("warc.offset");
        let mut f = std::fs::File::open(dir.join("storage/warc").join(file)).expect("file");
        std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(offset)).expect("seek");
        let rec = Reader::new(f).next().expect("a record").expect("readable");
        assert_eq!(rec.kind(), "response");
        assert_eq!(rec.target(), r["final_url"].as_str());
        let http = http_parts(&rec.block).expect("an HTTP response");
        assert_eq!(http.status, 200);
        let title = r["title"].as_str().unwrap_or("");
        assert!(
            String::from_utf8_lossy(&rec.block[http.body_at..]).contains(title),
            "{title} not in the archived body"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn warc_off_writes_nothing() {
    let site = redirect_site("127.0.0.83");
    let dir = scratch("warc-off");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, site.url("/") + "\n").expect("seeds");
    let cfg = config(&dir, "[warc]\nenabled = false");
    let out = crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(warc_files(&dir.join("storage")).is_empty());
    let records = export(&cfg);
    assert!(!records.is_empty());
    assert!(records.iter().all(|r| r.get("warc").is_none()));
    let _ = std::fs::remove_dir_all(&dir);
}
