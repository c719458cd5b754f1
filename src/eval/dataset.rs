//! Loading the development datasets in ../shared/datasets: WCXB (JSON ground
//! truth with page types) and CleanEval (gold text with paragraph markers).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::eval::EvalError;

/// One page with its truth.
#[derive(Debug, Clone)]
pub struct Case {
    /// Page id (file name up to the first dot).
    pub id: String,
    pub html: PathBuf,
    pub url: Option<String>,
    /// Page type label ("cleaneval" for CleanEval).
    pub kind: String,
    pub truth: String,
}

/// Which layout a dataset directory has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Wcxb,
    CleanEval,
}

pub fn layout(dir: &Path) -> Result<Layout, EvalError> {
    if !dir.is_dir() {
        return Err(EvalError::Missing(dir.to_path_buf()));
    }
    if dir.join("ground-truth").is_dir() && dir.join("html").is_dir() {
        Ok(Layout::Wcxb)
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

fn load_wcxb(dir: &Path) -> Result<Vec<Case>, EvalError> {
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
        let truth = v
            .pointer("/ground_truth/main_content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let id = stem(&f);
        out.push(Case {
            html: html_for(dir, &id),
            id,
            url: v.get("url").and_then(Value::as_str).map(str::to_string),
            kind: kind.to_string(),
            truth,
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
        });
    }
    Ok(out)
}
