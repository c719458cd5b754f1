//! The `trawl` binary end to end: output order, JSONL fields, and bad input
//! (each gives one clear error line naming the input; the rest is still
//! processed; the exit code says something failed).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/trawl-extract/tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A scratch directory unique to one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("trawl-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn trawl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run trawl: {e}"))
}

fn jsonl(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

#[test]
fn jsonl_keeps_input_order_and_fields() {
    let files = [
        fixture("list.html"),
        fixture("article_en.html"),
        fixture("forum.html"),
        fixture("article_zh.html"),
    ];
    let mut args = vec!["extract", "--jsonl", "-j", "2"];
    args.extend(files.iter().map(String::as_str));
    let out = trawl(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = jsonl(&out);
    assert_eq!(recs.len(), 4);
    for (rec, file) in recs.iter().zip(&files) {
        assert_eq!(rec["source"], file.as_str());
        for key in [
            "url",
            "title",
            "author",
            "date",
            "language",
            "page_type",
            "algorithm",
            "text",
        ] {
            assert!(rec.get(key).is_some(), "field {key} missing in {rec}");
        }
        assert_eq!(rec["algorithm"], "auto");
    }
    assert_eq!(recs[1]["title"], "How Tide Pools Survive Winter");
}

#[test]
fn algorithm_flag_and_unknown_algorithm() {
    let out = trawl(&[
        "extract",
        "--jsonl",
        "--algorithm",
        "cc",
        &fixture("forum.html"),
    ]);
    assert!(out.status.success());
    assert_eq!(jsonl(&out)[0]["algorithm"], "cc");
    let out = trawl(&["extract", "--algorithm", "magic", &fixture("forum.html")]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("magic") && err.contains("cetd-tpc"), "{err}");
}

#[test]
fn stdin_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(["extract", "--jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn: {e}"));
    let html = std::fs::read(fixture("article_en.html")).unwrap_or_default();
    if let Some(mut stdin) = child.stdin.take() {
        std::io::Write::write_all(&mut stdin, &html).unwrap_or_else(|e| panic!("write: {e}"));
    }
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    assert!(out.status.success());
    let recs = jsonl(&out);
    assert_eq!(recs[0]["source"], "-");
    assert!(recs[0]["text"]
        .as_str()
        .unwrap_or("")
        .contains("winter storms"));
}

/// More inputs than the pages kept in flight (four per thread), a bad one
/// among them: every record still comes out in input order, written as the
/// window slides on (a chunk of 256 results used to wait in memory).
#[test]
fn many_inputs_stream_out_in_order_past_a_bad_one() {
    let dir = scratch("many");
    let kinds = [
        "list.html",
        "article_en.html",
        "forum.html",
        "article_zh.html",
    ];
    let missing = dir.join("nope.html").to_string_lossy().into_owned();
    let files: Vec<String> = (0..30)
        .map(|i| match i {
            13 => missing.clone(),
            _ => fixture(kinds[i % kinds.len()]),
        })
        .collect();
    let mut args = vec!["extract", "--jsonl", "-j", "2"];
    args.extend(files.iter().map(String::as_str));
    let out = trawl(&args);
    assert_eq!(out.status.code(), Some(1), "exit code");
    let sources: Vec<String> = jsonl(&out)
        .iter()
        .map(|r| r["source"].as_str().unwrap_or("").to_string())
        .collect();
    let want: Vec<&String> = files.iter().filter(|f| **f != missing).collect();
    assert_eq!(sources.iter().collect::<Vec<_>>(), want);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nope.html"), "{err}");
}

#[test]
fn an_archive_streams_out_in_order_past_a_garbled_line() {
    let dir = scratch("archive");
    let kinds = ["list.html", "article_en.html", "forum.html"];
    let mut lines = String::new();
    for i in 0..60 {
        if i == 25 {
            lines.push_str("not a JSON object\n");
        }
        let html = std::fs::read_to_string(fixture(kinds[i % kinds.len()]))
            .unwrap_or_else(|e| panic!("{e}"));
        let line = serde_json::json!({"url": format!("http://a.test/p{i}"), "html": html});
        lines.push_str(&format!("{line}\n"));
    }
    let file = dir.join("pages.jsonl");
    std::fs::write(&file, lines).unwrap_or_else(|e| panic!("{e}"));
    let out = trawl(&["extract", "--jsonl", "-j", "2", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "exit code");
    let recs = jsonl(&out);
    let urls: Vec<&str> = recs.iter().filter_map(|r| r["url"].as_str()).collect();
    let want: Vec<String> = (0..60).map(|i| format!("http://a.test/p{i}")).collect();
    assert_eq!(urls, want.iter().map(String::as_str).collect::<Vec<_>>());
    // JSONL lines are numbered from 1: the garbled one is the 26th.
    let lines: Vec<u64> = recs.iter().filter_map(|r| r["line"].as_u64()).collect();
    assert_eq!(lines[24..27], [25, 27, 28]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 26"), "{err}");
    assert!(err.contains("60 pages extracted"), "{err}");
}

/// Runs one bad input between two good ones: the good ones still come out,
/// stderr names the bad one, the exit code is 1.
fn bad_input_between_good_ones(bad: &str, expect_in_error: &str) {
    let good = fixture("article_en.html");
    let out = trawl(&["extract", "--jsonl", &good, bad, &good]);
    assert_eq!(out.status.code(), Some(1), "exit code");
    assert_eq!(jsonl(&out).len(), 2, "the good inputs are still processed");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one error line: {err}");
    assert!(lines[0].contains(bad), "error names the input: {err}");
    assert!(lines[0].to_lowercase().contains(expect_in_error), "{err}");
}

#[test]
fn missing_file() {
    let dir = scratch("missing");
    let path = dir.join("nope.html");
    bad_input_between_good_ones(&path.to_string_lossy(), "no such file");
}

#[test]
fn empty_file() {
    let dir = scratch("empty");
    let path = dir.join("empty.html");
    std::fs::write(&path, b"").unwrap_or_else(|e| panic!("{e}"));
    bad_input_between_good_ones(&path.to_string_lossy(), "empty");
}

#[test]
fn binary_file() {
    let dir = scratch("binary");
    let path = dir.join("image.html");
    let bytes: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
    bad_input_between_good_ones(&path.to_string_lossy(), "binary");
}

#[test]
fn fifty_megabyte_page_is_refused_with_a_clear_error() {
    let dir = scratch("huge");
    let path = dir.join("huge.html");
    let para = "<p>Some words in a paragraph that repeats until the page is enormous.</p>\n";
    let body = para.repeat(50 * 1024 * 1024 / para.len());
    std::fs::write(&path, format!("<html><body>{body}</body></html>"))
        .unwrap_or_else(|e| panic!("{e}"));
    bad_input_between_good_ones(&path.to_string_lossy(), "limit");
    // Best-effort cleanup of 50 MB of scratch.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deep_nesting_and_invalid_utf8_still_extract() {
    let dir = scratch("deep");
    let deep = dir.join("deep.html");
    let html = format!(
        "<html><body>{}deep text{}",
        "<div>".repeat(100_000),
        "</div>".repeat(100_000)
    );
    std::fs::write(&deep, html).unwrap_or_else(|e| panic!("{e}"));
    let broken = dir.join("broken.html");
    let mut bytes = b"<html><body><p>valid start ".to_vec();
    bytes.extend([0xff, 0xfe, 0xc3]);
    bytes.extend(b" and a valid end of the paragraph</p></body></html>");
    std::fs::write(&broken, bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = trawl(&[
        "extract",
        "--jsonl",
        &deep.to_string_lossy(),
        &broken.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = jsonl(&out);
    assert!(recs[0]["text"].as_str().unwrap_or("").contains("deep text"));
    let text = recs[1]["text"].as_str().unwrap_or("");
    assert!(
        text.contains("valid start") && text.contains("valid end"),
        "{text}"
    );
}

#[test]
fn lying_meta_charset() {
    let dir = scratch("lying");
    let path = dir.join("lying.html");
    // Declares UTF-8, is windows-1252.
    let (bytes, _, _) = encoding_rs::WINDOWS_1252
        .encode("<meta charset=\"utf-8\"><body><p>Crème brûlée à la française, déjà servie au café.</p></body>");
    std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = trawl(&["extract", "--jsonl", &path.to_string_lossy()]);
    assert!(out.status.success());
    let rec = &jsonl(&out)[0];
    assert!(
        rec["text"].as_str().unwrap_or("").contains("Crème brûlée"),
        "{rec}"
    );
}

#[test]
fn bad_config_names_the_key() {
    let dir = scratch("config");
    let cfg = dir.join("bad.toml");
    std::fs::write(&cfg, "[extract]\nmax_depht = 10\n").unwrap_or_else(|e| panic!("{e}"));
    let out = trawl(&[
        "--config",
        &cfg.to_string_lossy(),
        "extract",
        &fixture("list.html"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("max_depht"), "{err}");
}

#[test]
fn help_explains_commands() {
    let out = trawl(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("extract") && text.contains("eval"), "{text}");
}

#[test]
fn operator_errors_are_said_once_and_name_the_key_or_range() {
    let dir = scratch("operator");
    let not_dir = dir.join("file");
    std::fs::write(&not_dir, "x").unwrap_or_else(|e| panic!("{e}"));
    // Regression: the cause was printed twice, with "is another trawl process using it?".
    let out = trawl(&["export", "--data", &not_dir.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("Not a directory").count(), 1, "{err}");
    assert!(!err.contains("another trawl process"), "{err}");
    // Regression: numbers that overflow panicked or aborted.
    for (key, value) in [
        ("seed_poll_secs", "18446744073709551615"),
        ("shutdown_grace_secs", "9223372036854775807"),
        ("seen_filter_mb", "4000000"),
    ] {
        let cfg = dir.join(format!("{key}.toml"));
        std::fs::write(&cfg, format!("[crawl]\n{key} = {value}\n"))
            .unwrap_or_else(|e| panic!("{e}"));
        let out = trawl(&["--config", &cfg.to_string_lossy(), "crawl", "--once"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(key) && !err.contains("panicked"), "{err}");
    }
    let out = trawl(&["export", "--type", "nonsense"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("article"),
        "the allowed types are listed: {err}"
    );
}

/// `-s SECTION.KEY=VALUE` changes one setting for a run, checked like the
/// file: a bad value or an unknown key is an error that names the key.
#[test]
fn settings_overrides_are_checked_like_the_file() {
    let dir = scratch("overrides");
    let data = dir.join("none");
    let data = data.to_string_lossy();
    let out = trawl(&["-s", "crawl.min_delay_ms=-5", "status", "--data", &data]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("crawl.min_delay_ms"), "{err}");
    let out = trawl(&["-s", "crawl.max_concurrent=0", "status", "--data", &data]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("crawl.max_concurrent") && err.contains("allowed"),
        "{err}"
    );
    let out = trawl(&["--set", "crawl.no_such_key=1", "status", "--data", &data]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("no_such_key"),
        "{err}"
    );
    // A good one goes through (the command then says there is no store).
    let out = trawl(&["-s", "crawl.min_delay_ms=200", "status", "--data", &data]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("min_delay_ms"), "{err}");
}
