//! Loading the development datasets in ../shared/datasets: WCXB and
//! multilingual-dev (JSON ground truth with a main text; page types or
//! languages), CleanEval (gold text with paragraph markers) and
//! trafilatura-eval (JSON with snippets that must and must not be extracted).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::error::EvalError;

/// A page read into memory.
pub struct Loaded {
    pub case: Case,
    pub bytes: Result<Vec<u8>, String>,
}

/// One page with its truth.
#[derive(Debug, Clone)]
pub struct Case {
    /// Page id (file name up to the first dot).
    pub id: String,
    pub html: PathBuf,
    pub url: Option<String>,
    /// Page type label ("cleaneval" for CleanEval, the language for
    /// multilingual-dev, "snippets" for trafilatura-eval).
    pub kind: String,
    /// Main text (empty for snippet datasets).
    pub truth: String,
    /// Snippets the text must contain (trafilatura-eval).
    pub with: Vec<String>,
    /// Snippets the text must not contain (trafilatura-eval).
    pub without: Vec<String>,
    /// Also scored by characters (multilingual-dev: Chinese has no spaces).
    pub char_level: bool,
    /// The main content's structure as Markdown, when the truth has it
    /// (wcxb-dev's `main_content_markdown`; CleanEval's gold with its `<h>`
    /// headings and `<l>` list items written as Markdown).
    pub structure: Option<String>,
}

/// Which layout a dataset directory has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `ground-truth/ID.json` with a main text (WCXB, multilingual-dev).
    Wcxb,
    CleanEval,
    /// `ground-truth/ID.json` with `with`/`without` snippets (trafilatura-eval).
    Snippets,
}

pub fn layout(dir: &Path) -> Result<Layout, EvalError> {
    if !dir.is_dir() {
        return Err(EvalError::Missing(dir.to_path_buf()));
    }
    if dir.join("ground-truth").is_dir() && dir.join("html").is_dir() {
        let first = sorted_files(&dir.join("ground-truth"))?
            .into_iter()
            .find(|f| f.extension().is_some_and(|e| e == "json"));
        let snippets = first
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| v.get("with").is_some() && v.get("without").is_some());
        Ok(if snippets {
            Layout::Snippets
        } else {
            Layout::Wcxb
        })
    } else if dir.join("gold").is_dir() && dir.join("html").is_dir() {
        Ok(Layout::CleanEval)
    } else {
        Err(EvalError::UnknownLayout(dir.to_path_buf()))
    }
}

fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>, EvalError> {
    let rd = std::fs::read_dir(dir).map_err(|e| EvalError::BadFile {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    Ok(files)
}

fn stem(p: &Path) -> String {
    p.file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.split('.').next().unwrap_or(n).to_string())
        .unwrap_or_default()
}

/// Loads every case of a dataset, sorted by id.
pub fn load(dir: &Path) -> Result<Vec<Case>, EvalError> {
    match layout(dir)? {
        Layout::Wcxb => load_wcxb(dir),
        Layout::CleanEval => load_cleaneval(dir),
        Layout::Snippets => load_snippets(dir),
    }
}

fn html_for(dir: &Path, id: &str) -> PathBuf {
    let gz = dir.join("html").join(format!("{id}.html.gz"));
    if gz.exists() {
        gz
    } else {
        dir.join("html").join(format!("{id}.html"))
    }
}

/// Every `ground-truth/*.json` of a dataset, parsed, with its page id.
fn truth_files(dir: &Path) -> Result<Vec<(String, Value)>, EvalError> {
    let mut out = Vec::new();
    for f in sorted_files(&dir.join("ground-truth"))? {
        if f.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let bad = |message: String| EvalError::BadFile {
            path: f.clone(),
            message,
        };
        let text = std::fs::read_to_string(&f).map_err(|e| bad(e.to_string()))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        out.push((stem(&f), v));
    }
    Ok(out)
}

fn load_wcxb(dir: &Path) -> Result<Vec<Case>, EvalError> {
    let mut out = Vec::new();
    for (id, v) in truth_files(dir)? {
        let kind = match v.pointer("/_internal/page_type") {
            Some(Value::Object(o)) => o
                .get("primary")
                .and_then(Value::as_str)
                .unwrap_or("article"),
            Some(Value::String(s)) => s.as_str(),
            _ => "article",
        };
        let kind = if kind == "category" {
            "collection"
        } else {
            kind
        };
        // multilingual-dev: rows by language, as its scorer prints them.
        let kind = v.get("language").and_then(Value::as_str).unwrap_or(kind);
        let truth = v
            .pointer("/ground_truth/main_content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        out.push(Case {
            html: html_for(dir, &id),
            id,
            url: v.get("url").and_then(Value::as_str).map(str::to_string),
            kind: kind.to_string(),
            truth,
            with: Vec::new(),
            without: Vec::new(),
            char_level: v.get("language").is_some(),
            structure: v
                .pointer("/ground_truth/main_content_markdown")
                .and_then(Value::as_str)
                .filter(|m| !m.trim().is_empty())
                .map(str::to_string),
        });
    }
    Ok(out)
}

fn load_snippets(dir: &Path) -> Result<Vec<Case>, EvalError> {
    let mut out = Vec::new();
    for (id, v) in truth_files(dir)? {
        let list = |key: &str| -> Vec<String> {
            v.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        out.push(Case {
            html: html_for(dir, &id),
            id,
            url: v.get("url").and_then(Value::as_str).map(str::to_string),
            kind: "snippets".to_string(),
            truth: String::new(),
            with: list("with"),
            without: list("without"),
            char_level: false,
            structure: None,
        });
    }
    Ok(out)
}

fn load_cleaneval(dir: &Path) -> Result<Vec<Case>, EvalError> {
    let mut out = Vec::new();
    for f in sorted_files(&dir.join("gold"))? {
        if f.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let bytes = std::fs::read(&f).map_err(|e| EvalError::BadFile {
            path: f.clone(),
            message: e.to_string(),
        })?;
        let text = String::from_utf8_lossy(&bytes);
        let mut lines: Vec<&str> = text.lines().collect();
        let mut url = None;
        if let Some(first) = lines.first() {
            if let Some(u) = first.strip_prefix("URL:") {
                url = Some(u.trim().to_string());
                lines.remove(0);
            }
        }
        let structure = Some(cleaneval_markdown(&lines));
        let truth = lines
            .join("\n")
            .replace("<p>", " ")
            .replace("<h>", " ")
            .replace("<l>", " ");
        let id = stem(&f);
        out.push(Case {
            html: html_for(dir, &id),
            id,
            url,
            kind: "cleaneval".to_string(),
            truth,
            with: Vec::new(),
            without: Vec::new(),
            char_level: false,
            structure,
        });
    }
    Ok(out)
}

/// CleanEval's gold as Markdown: a `<h>` block a heading, a `<l>` block a
/// list item, a `<p>` block a paragraph (its markers are its structure;
/// the text is escaped so it reads as itself).
fn cleaneval_markdown(lines: &[&str]) -> String {
    let escape = |t: &str| {
        let mut s = String::new();
        for c in t.split_whitespace().collect::<Vec<_>>().join(" ").chars() {
            if "\\`*_[]<>#+-=|!~&.".contains(c) {
                s.push('\\');
            }
            s.push(c);
        }
        s
    };
    let text = lines.join("\n");
    let mut out = String::new();
    let mut blocks: Vec<(char, String)> = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(['<']) {
        let marker = ["<p>", "<h>", "<l>"]
            .iter()
            .find(|m| rest[at..].starts_with(**m));
        let Some(m) = marker else {
            let (head, tail) = rest.split_at(at + 1);
            if let Some(b) = blocks.last_mut() {
                b.1.push_str(head);
            }
            rest = tail;
            continue;
        };
        if let Some(b) = blocks.last_mut() {
            b.1.push_str(&rest[..at]);
        }
        blocks.push((m.as_bytes()[1] as char, String::new()));
        rest = &rest[at + 3..];
    }
    if let Some(b) = blocks.last_mut() {
        b.1.push_str(rest);
    }
    for (kind, body) in blocks {
        let body = escape(&body);
        if body.is_empty() {
            continue;
        }
        match kind {
            'h' => out.push_str(&format!("# {body}\n\n")),
            'l' => out.push_str(&format!("- {body}\n\n")),
            _ => out.push_str(&format!("{body}\n\n")),
        }
    }
    out
}
