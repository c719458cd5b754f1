//! The records' Markdown end to end: a loopback site crawled, its records
//! holding the main content as Markdown (headings, lists, tables, code,
//! links made absolute), exported as Markdown files with front matter and
//! as chunks, and filled by `trawl reextract`.

mod support;

use support::{config, crawl_once, export_lines, html, scratch, status, trawl, Host};

const GUIDE: &str = r#"<html><head><title>Install guide</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Install guide</h1>
<p>This guide shows how to install the tool on a fresh machine, step by step, with the commands to type and what they print.</p>
<h2>On Debian</h2>
<ol><li>Update the package index.</li><li>Install the <code>tool</code> package.</li></ol>
<pre><code class="language-sh">sudo apt-get update

sudo apt-get install tool</code></pre>
<h2>Options</h2>
<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose output</td></tr><tr><td>-q</td><td>quiet output</td></tr></table>
<p>Read the <a href="/docs/faq.html">questions people ask</a> before filing a bug.</p>
</article><footer>Copyright 2026</footer></body></html>"#;

fn site(ip: &str) -> Host {
    Host::start(ip, |path, _| match path {
        "/" => html(GUIDE),
        _ => status(404),
    })
}

#[test]
fn records_hold_markdown_and_export_writes_files_and_chunks() {
    let host = site("127.0.0.141");
    let dir = scratch("markdown-export");
    let cfg = config(&dir, "");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} depth=0\n", host.url("/"))).expect("seeds");
    crawl_once(&cfg, &seeds);
    let records = export_lines(&cfg, &[]);
    assert_eq!(records.len(), 1, "{records:?}");
    let md = records[0]["markdown"].as_str().unwrap_or_default();
    let faq = host.url("/docs/faq.html");
    for want in [
        "## On Debian",
        "1. Update the package index.",
        "2. Install the `tool` package.",
        "```sh\nsudo apt-get update\n\nsudo apt-get install tool\n```",
        "| Flag | Meaning |\n| --- | --- |\n| \\-v | verbose output |",
        &format!("[questions people ask]({faq})"),
    ] {
        assert!(md.contains(want), "{want:?} not in:\n{md}");
    }
    assert!(!md.contains("Copyright") && !md.contains("About"), "{md}");

    // One file per record, named from the URL, with front matter.
    let out = dir.join("md");
    let run = trawl()
        .args([
            "--config",
            &cfg.to_string_lossy(),
            "export",
            "--format",
            "markdown",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("export");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let files: Vec<_> = std::fs::read_dir(&out).expect("dir").flatten().collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].path()).expect("file");
    assert!(
        text.starts_with("---\nurl: \"http://127.0.0.141:"),
        "{text}"
    );
    assert!(
        text.contains("title: \"Install guide\"\n") && text.contains("page_type: "),
        "{text}"
    );
    assert!(text.ends_with(&format!("---\n\n{md}\n")), "{text}");
    // Without a directory it says so (never a flag accepted and ignored).
    let run = trawl()
        .args([
            "--config",
            &cfg.to_string_lossy(),
            "export",
            "--format",
            "markdown",
        ])
        .output()
        .expect("export");
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("--out DIR"));

    // Chunks: each under its headings, each citing its range.
    let chunks = export_lines(&cfg, &["--chunks", "25"]);
    assert!(chunks.len() >= 3, "{chunks:?}");
    let chars: Vec<char> = md.chars().collect();
    for c in &chunks {
        let (s, e) = (
            c["start"].as_u64().unwrap_or(0) as usize,
            c["end"].as_u64().unwrap_or(0) as usize,
        );
        let range: String = chars[s..e].iter().collect();
        assert_eq!(c["markdown"].as_str(), Some(range.as_str()));
        assert!(
            c["tokens"].as_u64().unwrap_or(99) <= 25
                || c["markdown"].as_str().is_some_and(|m| m.starts_with("```"))
        );
    }
    assert!(
        chunks
            .iter()
            .any(|c| c["headings"] == serde_json::json!(["On Debian"])),
        "{chunks:?}"
    );
}

#[test]
fn extract_prints_markdown_and_refuses_a_flag_it_would_ignore() {
    let dir = scratch("markdown-extract");
    let page = dir.join("guide.html");
    std::fs::write(&page, GUIDE).expect("page");
    let out = trawl()
        .args([
            "extract",
            "--format",
            "markdown",
            "--url",
            "https://docs.example/guide/",
        ])
        .arg(&page)
        .output()
        .expect("extract");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("[questions people ask](https://docs.example/docs/faq.html)"),
        "{md}"
    );
    let out = trawl()
        .args(["extract", "--format", "html"])
        .arg(&page)
        .output()
        .expect("extract");
    let h = String::from_utf8_lossy(&out.stdout);
    assert!(
        h.contains("<h2>On Debian</h2>") && h.contains("<td>verbose output</td>"),
        "{h}"
    );
    let out = trawl()
        .args(["extract", "--jsonl", "--format", "markdown"])
        .arg(&page)
        .output()
        .expect("extract");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
