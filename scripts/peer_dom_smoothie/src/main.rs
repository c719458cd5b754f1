//! dom_smoothie's Markdown of a dataset's pages, as JSONL lines
//! `{"source", "markdown"}` for `trawl eval --structure --structure-peer`,
//! the same lines `scripts/peer_markdown.py` writes for the Python peers.
//! One thread, in file order (the speed comparison times this whole
//! process against `trawl extract --threads 1` on the same files).
//!
//! Usage: peer-dom-smoothie DATASET OUT.jsonl     (wcxb-dev or cleaneval)
//!        peer-dom-smoothie --files OUT.jsonl FILE.html.gz ...

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use dom_smoothie::{Config, Readability, TextMode};

/// Pages as the datasets' harness hands them to peers: UTF-8 when valid,
/// else Latin-1 (dom_smoothie takes a `&str`).
fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) => raw.iter().map(|&b| b as char).collect(),
    }
}

fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

/// (page, URL) of a dataset: wcxb-dev's ground truth names the URL;
/// CleanEval's gold files name the pages.
fn cases(dir: &Path) -> Vec<(PathBuf, Option<String>)> {
    let mut out = Vec::new();
    let truth = dir.join("ground-truth");
    let (list, with_url) = if truth.is_dir() {
        (truth, true)
    } else {
        (dir.join("gold"), false)
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&list)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.sort();
    for g in names {
        let Some(stem) = g.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let url = with_url
            .then(|| std::fs::read_to_string(&g).ok())
            .flatten()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v.get("url").and_then(|u| u.as_str()).map(str::to_string));
        out.push((dir.join("html").join(format!("{stem}.html.gz")), url));
    }
    out
}

fn markdown(html: &str, url: Option<&str>) -> String {
    let cfg = Config {
        text_mode: TextMode::Markdown,
        ..Default::default()
    };
    match Readability::new(html, url, Some(cfg)).and_then(|mut r| r.parse()) {
        Ok(article) => article.text_content.to_string(),
        Err(_) => String::new(),
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (pages, out) = match args.as_slice() {
        [flag, out, files @ ..] if flag == "--files" => (
            files.iter().map(|f| (PathBuf::from(f), None)).collect(),
            out,
        ),
        [dir, out] => (cases(Path::new(dir)), out),
        _ => {
            eprintln!("usage: peer-dom-smoothie DATASET OUT.jsonl | --files OUT.jsonl FILE...");
            std::process::exit(2);
        }
    };
    let mut w = BufWriter::new(std::fs::File::create(out)?);
    for (path, url) in pages {
        let md = markdown(&decode(&read(&path)?), url.as_deref());
        let line = serde_json::json!({"source": path.to_string_lossy(), "markdown": md});
        writeln!(w, "{line}")?;
    }
    w.flush()
}
