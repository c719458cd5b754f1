//! `trawl export --format csv|parquet|markdown` from each source (a stopped
//! store, a running daemon and its `/export`, a cluster), each file read
//! back by a reader no one here wrote: Python's csv module, pyarrow for
//! Parquet, PyYAML for the Markdown files' front matter. The tables must
//! hold what the JSONL export holds.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::*;

/// Articles whose titles need quoting in CSV and escaping in YAML.
fn site(ip: &str) -> Host {
    Host::start(ip, |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page(
            "Index of the tide pool notes",
            &["/a".into(), "/b".into(), "/c".into()],
        )),
        p if p.len() == 2 => {
            let n = &p[1..];
            let body = format!(
                "Notes {n} on tide pools, rocky shores and the animals living between the tides. "
            )
            .repeat(12);
            html(&format!(
                "<html><head><title>Notes {n}, \"quoted\": a: b</title>\
                 <meta name=\"author\" content=\"Ann {n}\">\
                 <meta property=\"article:published_time\" content=\"2025-03-0{}T10:00:00Z\">\
                 </head><body><article><h1>Notes {n}, \"quoted\": a: b</h1>\
                 <p>{body}</p><p>Second, paragraph with a <a href=\"/\">link</a>.</p>\
                 </article></body></html>",
                n.len() + 1
            ))
        }
        _ => status(404),
    })
}

/// Reads what the formats wrote: argv = csv file, parquet file, Markdown
/// directory (or `-`).
const READ: &str = r#"
import csv, glob, json, os, sys
import pyarrow.parquet as pq
import yaml
out = {}
with open(sys.argv[1], newline='', encoding='utf-8') as f:
    r = csv.DictReader(f)
    out['csv_fields'] = r.fieldnames
    out['csv'] = list(r)
t = pq.read_table(sys.argv[2])
out['parquet_fields'] = t.column_names
out['parquet_types'] = {f.name: str(f.type) for f in t.schema}
out['parquet'] = t.to_pylist()
md = []
if sys.argv[3] != '-':
    for p in sorted(glob.glob(os.path.join(sys.argv[3], '*.md'))):
        text = open(p, encoding='utf-8').read()
        _, front, body = text.split('---\n', 2)
        md.append({'front': yaml.safe_load(front), 'body': body})
out['md'] = md
print(json.dumps(out, default=str))
"#;

fn export_to(cfg: &Path, args: &[&str]) -> std::process::Output {
    trawl()
        .args(["--config", &cfg.to_string_lossy(), "export"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn export_ok(cfg: &Path, args: &[&str]) {
    let out = export_to(cfg, args);
    assert!(
        out.status.success(),
        "export {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// csv, parquet and markdown exports into `dir` (`extra`: the source).
fn three_formats(cfg: &Path, dir: &Path, extra: &[&str]) -> [PathBuf; 3] {
    std::fs::create_dir_all(dir).expect("out dir");
    let outs = [dir.join("r.csv"), dir.join("r.parquet"), dir.join("md")];
    for (format, out) in ["csv", "parquet", "markdown"].iter().zip(&outs) {
        let mut args = extra.to_vec();
        let out = out.to_string_lossy();
        args.extend(["--format", format, "--out", &out]);
        export_ok(cfg, &args);
    }
    outs
}

fn by_url<'a>(rows: &'a [Value], url: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["url"].as_str() == Some(url))
        .unwrap_or_else(|| panic!("no row for {url}: {rows:?}"))
}

/// The tables and files agree with the JSONL records, field by field.
fn assert_same(records: &[Value], read: &Value, md: bool) {
    let csv = read["csv"].as_array().expect("csv rows");
    let parquet = read["parquet"].as_array().expect("parquet rows");
    assert_eq!(csv.len(), records.len(), "{read}");
    assert_eq!(parquet.len(), records.len());
    for r in records {
        let url = r["url"].as_str().unwrap_or_default();
        let (c, p) = (by_url(csv, url), by_url(parquet, url));
        for f in ["title", "author", "date", "text"] {
            let want = r[f].as_str().unwrap_or_default();
            assert_eq!(c[f].as_str(), Some(want), "csv {f} of {url}");
            assert_eq!(
                p[f].as_str().unwrap_or_default(),
                want,
                "parquet {f} of {url}"
            );
        }
        assert_eq!(c["seq"].as_str(), Some(r["seq"].to_string().as_str()));
        assert_eq!(p["seq"], r["seq"]);
        assert_eq!(p["markdown"], r["markdown"]);
        assert_eq!(p["status"], r["status"]);
    }
    assert!(records.iter().any(|r| r["title"]
        .as_str()
        .is_some_and(|t| t.contains(", \"quoted\""))));
    let types = &read["parquet_types"];
    assert_eq!(types["seq"], "int64", "{types}");
    assert_eq!(types["title"], "string", "{types}");
    assert_eq!(types["relevance"], "double", "{types}");
    if md {
        let files = read["md"].as_array().expect("md");
        assert_eq!(files.len(), records.len());
        for f in files {
            let front = &f["front"];
            let url = front["url"].as_str().unwrap_or_default();
            let r = records
                .iter()
                .find(|r| r["final_url"].as_str() == Some(url))
                .unwrap_or_else(|| panic!("no record for {front}"));
            assert_eq!(front["title"], r["title"]);
            assert_eq!(front["seq"], r["seq"]);
            let body = f["body"].as_str().unwrap_or_default();
            assert_eq!(
                body.trim(),
                r["markdown"].as_str().unwrap_or_default().trim()
            );
        }
    }
}

fn reader() -> Option<PathBuf> {
    python_with(&["pyarrow", "yaml"])
}

#[test]
fn every_format_from_the_stopped_store_reads_back() {
    let Some(python) = reader() else { return };
    let host = site("127.0.0.151");
    let dir = scratch("formats-store");
    let cfg = config(&dir, "min_delay_ms = 0");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=1\n", host.url("/"))).expect("seeds");
    crawl_once(&cfg, &seeds);
    let records = export_lines(&cfg, &[]);
    assert_eq!(records.len(), 4, "{records:?}");

    let [csv, pq, md] = three_formats(&cfg, &dir, &[]);
    let read = python_json(&python, READ, &[&csv, &pq, &md]);
    assert_eq!(
        read["csv_fields"],
        serde_json::json!([
            "seq",
            "url",
            "final_url",
            "status",
            "page_type",
            "title",
            "author",
            "date",
            "language",
            "description",
            "text"
        ])
    );
    let all = read["parquet_fields"].as_array().expect("fields");
    assert_eq!(all.len(), 37, "every field of a record: {all:?}");
    assert_same(&records, &read, true);

    // Chosen fields, in order; links as JSON text; outcomes as tables.
    let (csv2, pq2) = (dir.join("f.csv"), dir.join("o.parquet"));
    export_ok(
        &cfg,
        &[
            "--format",
            "csv",
            "--fields",
            "url,links,title",
            "--links",
            "--out",
            &csv2.to_string_lossy(),
        ],
    );
    export_ok(
        &cfg,
        &[
            "--outcomes",
            "--format",
            "parquet",
            "--out",
            &pq2.to_string_lossy(),
        ],
    );
    let read = python_json(&python, READ, &[&csv2, &pq2, Path::new("-")]);
    assert_eq!(
        read["csv_fields"],
        serde_json::json!(["url", "links", "title"])
    );
    let index = by_url(read["csv"].as_array().expect("rows"), &host.url("/"));
    let links: Vec<String> =
        serde_json::from_str(index["links"].as_str().unwrap_or_default()).expect("links JSON");
    assert!(links.contains(&host.url("/a")), "{links:?}");
    let outcomes = support::outcomes(&cfg);
    let rows = read["parquet"].as_array().expect("outcome rows");
    assert_eq!(rows.len(), outcomes.len());
    assert!(rows
        .iter()
        .all(|r| r["status"].is_number() && r["outcome"].is_string()));

    // Combinations that make nothing are refused, with the reason.
    for (args, says) in [
        (vec!["--fields", "url"], "--fields"),
        (
            vec!["--format", "csv", "--fields", "url,titel"],
            "\"titel\"",
        ),
        (
            vec!["--format", "markdown", "--outcomes", "--out", "x"],
            "outcomes",
        ),
        (vec!["--format", "markdown"], "--out"),
        (vec!["--format", "csv", "--chunks", "50"], "--chunks"),
    ] {
        let out = export_to(&cfg, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(says),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn the_running_daemon_serves_every_format() {
    let Some(python) = reader() else { return };
    let host = site("127.0.0.152");
    let dir = scratch("formats-daemon");
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("min_delay_ms = 0\nstatus_addr = \"127.0.0.1:{port}\""),
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=1\n", host.url("/"))).expect("seeds");
    let mut child = KillOnDrop(spawn_crawl(&cfg, &seeds, false));
    let start = Instant::now();
    while status_json(port).and_then(|s| s["records"].as_u64()) != Some(4) {
        if let Ok(Some(code)) = child.0.try_wait() {
            panic!("daemon exited ({code:?}): {}", stderr_of(&mut child.0));
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "crawl did not finish"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let records = export_lines(&cfg, &[]);
    // The endpoint itself, as a table.
    let (line, body) = endpoint_get(port, "/export?format=csv").unwrap_or_default();
    assert!(line.contains(" 200 "), "{line}");
    let csv = dir.join("d.csv");
    std::fs::write(&csv, body).expect("csv");
    let (line, body) = endpoint_get(port, "/export?format=parquet").unwrap_or_default();
    assert!(line.contains(" 200 "), "{line}");
    let pq = dir.join("d.parquet");
    std::fs::write(&pq, body).expect("parquet");
    assert_same(
        &records,
        &python_json(&python, READ, &[&csv, &pq, Path::new("-")]),
        false,
    );
    for bad in [
        "/export?format=markdown",
        "/export?format=xml",
        "/export?format=csv&fields=url,nope",
    ] {
        let (line, _) = endpoint_get(port, bad).unwrap_or_default();
        assert!(line.contains(" 400 "), "{bad}: {line}");
    }
    // trawl export through the daemon (it holds the store).
    let [csv, pq, md] = three_formats(&cfg, &dir.join("cli"), &[]);
    assert_same(
        &records,
        &python_json(&python, READ, &[&csv, &pq, &md]),
        true,
    );
}

#[test]
fn cluster_records_export_in_every_format() {
    use support::cluster::{wait_all, Cluster};
    let Some(python) = reader() else { return };
    let Some(pg) = support::pg::Pg::start("formats") else {
        return;
    };
    let hosts = vec![site("127.0.0.153")];
    let c = Cluster::custom("formats-cluster", &pg, &hosts, "", |_| "depth=1".into());
    let mut workers = vec![c.worker("w1")];
    wait_all(&mut workers, Duration::from_secs(120));
    let records = c.export();
    assert_eq!(records.len(), 4, "{records:?}");
    let [csv, pq, md] = three_formats(&c.cfg, &c.dir, &["--cluster", &c.url]);
    assert_same(
        &records,
        &python_json(&python, READ, &[&csv, &pq, &md]),
        true,
    );
}
