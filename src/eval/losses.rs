//! "Where we lose": two prediction files on one dataset, side by side, page
//! by page, with the metric of the dataset; the pages with the largest gap
//! in the peer's favour first, and for snippet data the snippets that made
//! it (boilerplate kept, text missed). Drives work by measured losses.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::dataset::{self, Case};
use super::error::EvalError;
use super::score::{char_prf, prf, Prf, Snippets};

/// Reads a predictions JSONL (`source`, `text`) into page id → text, the
/// id being the source's file name up to its first dot (as score.py).
pub fn read_predictions(path: &Path) -> Result<HashMap<String, String>, EvalError> {
    #[derive(serde::Deserialize)]
    struct Line {
        #[serde(default)]
        source: String,
        #[serde(default)]
        text: Option<String>,
    }
    Ok(read_jsonl::<Line>(path)?
        .into_iter()
        .map(|l| (page_id(&l.source), l.text.unwrap_or_default()))
        .collect())
}

/// Every non-blank line of a JSONL file (read as UTF-8, lossily), parsed;
/// a line that does not parse is an error naming its number.
pub(crate) fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, EvalError> {
    let bad = |message: String| EvalError::BadFile {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    String::from_utf8_lossy(&text)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| bad(format!("line {}: {e}", i + 1)))
        })
        .collect()
}

/// A prediction's page id: its source's file name up to the first dot.
pub(crate) fn page_id(source: &str) -> String {
    let name = Path::new(source)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    name.split('.').next().unwrap_or(name).to_string()
}

/// One page of both files.
struct Side {
    ours: Prf,
    peer: Prf,
    case: Case,
    ours_text: String,
    peer_text: String,
}

/// The page's score by the dataset's metric (character F1 where the
/// dataset has languages: the fair one for Chinese).
fn score(case: &Case, text: &str) -> Prf {
    if !case.with.is_empty() || !case.without.is_empty() {
        Snippets::of(text, &case.with, &case.without).prf()
    } else if case.char_level {
        char_prf(text, &case.truth)
    } else {
        prf(text, &case.truth)
    }
}

fn short(s: &str) -> String {
    let s = super::score::squeeze(s);
    if s.chars().count() > 70 {
        format!("{}…", s.chars().take(70).collect::<String>())
    } else {
        s
    }
}

/// The report: totals, then the `top` pages the peer wins by most.
pub fn report(dir: &Path, ours: &Path, peer: &Path, top: usize) -> Result<String, EvalError> {
    let cases = dataset::load(dir)?;
    let (a, b) = (read_predictions(ours)?, read_predictions(peer)?);
    let mut sides: Vec<Side> = cases
        .into_iter()
        .map(|case| {
            let ours_text = a.get(&case.id).cloned().unwrap_or_default();
            let peer_text = b.get(&case.id).cloned().unwrap_or_default();
            Side {
                ours: score(&case, &ours_text),
                peer: score(&case, &peer_text),
                case,
                ours_text,
                peer_text,
            }
        })
        .collect();
    let n = sides.len().max(1) as f64;
    let mean = |f: &dyn Fn(&Side) -> f64| sides.iter().map(f).sum::<f64>() / n;
    let (wins, ties, losses) = sides.iter().fold((0, 0, 0), |(w, t, l), s| {
        let d = s.ours.f1 - s.peer.f1;
        if d > 1e-9 {
            (w + 1, t, l)
        } else if d < -1e-9 {
            (w, t, l + 1)
        } else {
            (w, t + 1, l)
        }
    });
    let mut out = String::new();
    let metric = match sides.first().map(|s| &s.case) {
        Some(c) if !c.with.is_empty() || !c.without.is_empty() => "snippet F1 per page",
        Some(c) if c.char_level => "character F1",
        _ => "word F1",
    };
    let _ = writeln!(
        out,
        "{} pages, {metric}: ours {:.3} (P {:.3} R {:.3}), peer {:.3} (P {:.3} R {:.3}); \
         ours better on {wins}, equal on {ties}, worse on {losses}",
        sides.len(),
        mean(&|s| s.ours.f1),
        mean(&|s| s.ours.p),
        mean(&|s| s.ours.r),
        mean(&|s| s.peer.f1),
        mean(&|s| s.peer.p),
        mean(&|s| s.peer.r),
    );
    sides.sort_by(|x, y| (y.peer.f1 - y.ours.f1).total_cmp(&(x.peer.f1 - x.ours.f1)));
    let _ = writeln!(
        out,
        "{:<40}{:<12}{:>7}{:>7}{:>7}{:>7}{:>7}{:>7}{:>7}",
        "page", "kind", "gap", "ours", "P", "R", "peer", "P", "R"
    );
    for s in sides.iter().take(top).filter(|s| s.peer.f1 > s.ours.f1) {
        let _ = writeln!(
            out,
            "{:<40}{:<12}{:>7.3}{:>7.3}{:>7.3}{:>7.3}{:>7.3}{:>7.3}{:>7.3}",
            s.case.id,
            s.case.kind,
            s.peer.f1 - s.ours.f1,
            s.ours.f1,
            s.ours.p,
            s.ours.r,
            s.peer.f1,
            s.peer.p,
            s.peer.r
        );
        let (ours, peer) = (
            super::score::squeeze(&s.ours_text),
            super::score::squeeze(&s.peer_text),
        );
        for w in &s.case.without {
            let w2 = super::score::squeeze(w);
            if ours.contains(&w2) && !peer.contains(&w2) {
                let _ = writeln!(out, "    kept (must not): {}", short(w));
            }
        }
        for w in &s.case.with {
            let w2 = super::score::squeeze(w);
            if !ours.contains(&w2) && peer.contains(&w2) {
                let _ = writeln!(out, "    missed (must):   {}", short(w));
            }
        }
    }
    Ok(out)
}
