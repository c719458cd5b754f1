//! The WARC archive of a crawl, checked with warcio (the reference reader):
//! every exchange (pages, redirect hops, robots.txt) is a request and a
//! response record, every file passes `warcio check`, and every record's
//! WARC location resolves to its page's response.

mod support;

use std::process::Command;

use support::{
    config, crawl_redirect_site, export, export_lines, scratch, trawl, warc_files, warcio,
    warcio_check,
};
use trawl_crawl::warc::{http_parts, Reader};

#[test]
fn every_exchange_is_archived_and_warcio_reads_every_file() {
    let Some(warcio) = warcio() else { return };
    let (site, dir, cfg) = crawl_redirect_site("127.0.0.82", "warc-crawl", "");
    let files = warc_files(&dir.join("storage"));
    assert!(!files.is_empty(), "no WARC file written");
    let mut targets: Vec<(String, String)> = Vec::new();
    for f in &files {
        warcio_check(&warcio, f);
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
    // Outcomes carry the headers users filter on.
    let outs = support::outcomes(&cfg);
    let home = outs
        .iter()
        .find(|o| o["url"] == site.url("/"))
        .expect("outcome of /");
    assert!(
        home["content_type"]
            .as_str()
            .is_some_and(|c| c.contains("text/html")),
        "{home}"
    );
    assert!(
        home["content_length"].as_u64().is_some_and(|n| n > 0),
        "{home}"
    );
    // Extracting from the archive gives the crawl's own records.
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "extract", "--jsonl"])
        .args(&files)
        .output()
        .expect("extract");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    for r in &records {
        let from_warc = lines
            .iter()
            .find(|l| l["url"] == r["final_url"])
            .unwrap_or_else(|| panic!("{} not extracted from the archive", r["final_url"]));
        assert_eq!(from_warc["text"], r["text"]);
        assert_eq!(from_warc["title"], r["title"]);
        assert!(from_warc["warc_record_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("<urn:uuid:")));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Common Crawl-style file: warcinfo, request, response (Latin-1, its
/// charset only in the Content-Type), metadata, one gzip member each; a
/// garbled member in the middle; a redirect and an image that are skipped.
#[test]
fn extract_reads_a_common_crawl_style_file() {
    use std::io::Write;
    let dir = scratch("warc-cc");
    let gz = |text: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).expect("gzip");
        e.finish().expect("gzip")
    };
    let record = |kind: &str, uri: &str, ct: &str, block: &[u8]| {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
             WARC-Record-ID: <urn:uuid:{:08x}-0000-4000-8000-000000000000>\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n",
            uri.len() + kind.len(),
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        gz(&r)
    };
    let http = |status: &str, ct: &str, body: &[u8]| {
        let mut b = format!("HTTP/1.1 {status}\r\nContent-Type: {ct}\r\n\r\n").into_bytes();
        b.extend_from_slice(body);
        b
    };
    let mut latin = b"<html><head><title>Caf\xe9 du port</title></head><body><article><h1>Caf\xe9 du port</h1><p>".to_vec();
    latin.extend_from_slice(
        b"Le caf\xe9 ouvre \xe0 six heures, quand les p\xeacheurs rentrent du large avec la mar\xe9e et que le march\xe9 s'installe sur le quai.",
    );
    latin.extend_from_slice(b"</p></article></body></html>");
    let page = "http://cafe.example/port";
    let mut file = Vec::new();
    file.extend(record(
        "warcinfo",
        "",
        "application/warc-fields",
        b"software: cc-like\r\n",
    ));
    file.extend(record(
        "request",
        page,
        "application/http; msgtype=request",
        b"GET /port HTTP/1.1\r\nHost: cafe.example\r\n\r\n",
    ));
    let mut garbled = record(
        "response",
        "http://bad.example/",
        "application/http; msgtype=response",
        &http("200 OK", "text/html", b"<p>lost</p>"),
    );
    let mid = garbled.len() / 2;
    garbled[mid] ^= 0x55;
    file.extend(garbled);
    file.extend(record(
        "response",
        page,
        "application/http; msgtype=response",
        &http("200 OK", "text/html; charset=iso-8859-1", &latin),
    ));
    file.extend(record(
        "response",
        "http://cafe.example/old",
        "application/http; msgtype=response",
        &http("301 Moved", "text/html", b""),
    ));
    file.extend(record(
        "response",
        "http://cafe.example/a.png",
        "application/http; msgtype=response",
        &http("200 OK", "image/png", b"\x89PNG"),
    ));
    file.extend(record(
        "metadata",
        page,
        "application/warc-fields",
        b"fetchTimeMs: 12\r\n",
    ));
    let path = dir.join("cc.warc.gz");
    std::fs::write(&path, &file).expect("write");
    let out = trawl()
        .args(["extract", "--jsonl"])
        .arg(&path)
        .output()
        .expect("extract");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a garbled record is an error: {stderr}"
    );
    assert!(stderr.contains("offset"), "{stderr}");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["url"], page);
    assert_eq!(lines[0]["title"], "Café du port");
    assert!(
        lines[0]["text"].as_str().unwrap_or("").contains("pêcheurs"),
        "{}",
        lines[0]
    );
    // JSONL input: one page per line, with its URL.
    let jsonl = dir.join("pages.jsonl");
    let html = String::from_utf8_lossy(&latin).replace('\u{fffd}', "e");
    std::fs::write(
        &jsonl,
        format!(
            "{}\n\n{}\n",
            serde_json::json!({"url": page, "html": html}),
            "not json"
        ),
    )
    .expect("write");
    let out = trawl()
        .args(["extract", "--jsonl"])
        .arg(&jsonl)
        .output()
        .expect("extract");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(page), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 3"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn warc_off_writes_nothing() {
    let (_site, dir, cfg) =
        crawl_redirect_site("127.0.0.83", "warc-off", "[warc]\nenabled = false");
    assert!(warc_files(&dir.join("storage")).is_empty());
    let records = export(&cfg);
    assert!(!records.is_empty());
    assert!(records.iter().all(|r| r.get("warc").is_none()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `trawl reextract` reads the archive, not the network: with the same
/// extractor nothing changes; with another one every changed record gets a
/// newer version that names the old one, a plain export gives the latest,
/// and a second pass over the new versions changes nothing.
#[test]
fn reextract_makes_new_versions_from_the_archive_alone() {
    let (site, dir, cfg) = crawl_redirect_site("127.0.0.85", "reextract", "");
    let before = export(&cfg);
    let requests = site.paths().len();
    let run = |cfg: &std::path::Path| {
        let out = trawl()
            .args(["--config", &cfg.to_string_lossy(), "reextract"])
            .output()
            .expect("reextract");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let said = run(&cfg);
    assert!(said.contains("0 records re-extracted"), "{said}");
    assert_eq!(export(&cfg), before, "the same extractor changes nothing");
    // Another algorithm stands in for a better extractor. A pass that
    // stopped after record 2 continues from there.
    {
        let store = trawl_crawl::store::Store::open(&dir.join("storage"), 8 << 20).expect("store");
        store
            .meta_put(
                "reextract_pass",
                br#"{"target": 4, "done": 2, "finished": false}"#,
            )
            .expect("meta");
        store.flush_blocking().expect("flush");
    }
    let other = config(&dir, "[extract]\nalgorithm = \"list-rank\"");
    let said = run(&other);
    assert!(
        said.contains("continuing the interrupted pass after record 2"),
        "{said}"
    );
    let all = export_lines(&cfg, &["--all-versions"]);
    let resumed: Vec<u64> = all.iter().filter_map(|r| r["previous"].as_u64()).collect();
    assert!(
        !resumed.is_empty() && resumed.iter().all(|&p| p > 2),
        "{resumed:?}"
    );
    // The next pass covers every record not yet replaced.
    let said = run(&other);
    assert_eq!(site.paths().len(), requests, "no request sent");
    let latest = export(&cfg);
    assert_eq!(latest.len(), before.len(), "one record per page: {said}");
    let all = export_lines(&cfg, &["--all-versions"]);
    let newer: Vec<&serde_json::Value> = all.iter().filter(|r| r["previous"].is_u64()).collect();
    assert!(newer.len() > resumed.len(), "{said}");
    for r in &newer {
        assert_eq!(r["algorithm"], "list-rank");
        assert!(r["extractor"]
            .as_str()
            .is_some_and(|e| e.starts_with("trawl-extract ")));
        let old = before
            .iter()
            .find(|o| o["seq"] == r["previous"])
            .expect("the replaced record");
        assert_eq!(old["url"], r["url"]);
        assert_eq!(old["warc"], r["warc"]);
        assert!(latest.iter().any(|l| l["seq"] == r["seq"]));
        assert!(!latest.iter().any(|l| l["seq"] == old["seq"]));
    }
    let said = run(&other);
    assert!(
        said.contains("0 records re-extracted"),
        "a third pass: {said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
