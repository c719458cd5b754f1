//! `trawl eval --metadata`: the record's title, author and publish date
//! against a dataset's ground truth (wcxb-dev and trafilatura-eval have
//! all three, multilingual-dev dates and authors of its Chinese pages), per
//! page type, each page extracted with its URL as in a crawl. Scored as the
//! issue that asked for it measured trafilatura: exact match after
//! lower-casing and removing punctuation, "contained" when one holds the
//! other, and for dates the same day.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;
use serde_json::Value;

use crate::eval::{EvalError, Loaded};
use trawl_extract::{extract, Options};

/// The three fields scored.
pub const FIELDS: [&str; 3] = ["date", "title", "author"];

/// One page's truth and what the extractor gave.
#[derive(Debug, Clone)]
pub struct MetaPage {
    pub id: String,
    pub kind: String,
    /// Truth and prediction per field (in [`FIELDS`] order).
    pub truth: [Option<String>; 3],
    pub ours: [Option<String>; 3],
}

/// Counts of one field over some pages.
#[derive(Debug, Clone, Copy, Default)]
pub struct FieldScore {
    /// Pages whose truth has the field.
    pub n: usize,
    pub exact: usize,
    /// One contains the other (titles and authors; dates: the same as exact).
    pub contained: usize,
    /// We gave nothing.
    pub missing: usize,
    /// Pages whose truth lacks the field where we gave one.
    pub extra: usize,
}

impl FieldScore {
    pub fn exact_rate(&self) -> f64 {
        self.exact as f64 / self.n.max(1) as f64
    }

    pub fn contained_rate(&self) -> f64 {
        self.contained as f64 / self.n.max(1) as f64
    }
}

/// Lower-cased, punctuation removed, spaces collapsed.
pub fn norm(s: &str) -> String {
    s.to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The day of a date (`YYYY-MM-DD`), read as the extractor reads dates.
fn day(s: &str) -> Option<String> {
    let d = trawl_extract::normalize_date(s)?;
    d.get(..10).map(str::to_string)
}

/// (exact, contained) for one field.
pub fn matches(field: &str, truth: &str, ours: &str) -> (bool, bool) {
    if field == "date" {
        let same = day(truth).is_some_and(|t| day(ours).is_some_and(|o| o == t));
        return (same, same);
    }
    let (t, o) = (norm(truth), norm(ours));
    if t.is_empty() || o.is_empty() {
        return (false, false);
    }
    (t == o, t.contains(&o) || o.contains(&t))
}

/// The truth's title, author and date of `ground-truth/ID.json`.
fn truth_of(dir: &Path, id: &str) -> [Option<String>; 3] {
    let path = dir.join("ground-truth").join(format!("{id}.json"));
    let v: Value = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    // wcxb-dev and multilingual-dev: under ground_truth; trafilatura-eval:
    // at the top level, the date as `date`.
    let field = |keys: &[&str]| {
        keys.iter().find_map(|k| {
            [&v["ground_truth"][*k], &v[*k]].into_iter().find_map(|x| {
                x.as_str()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
            })
        })
    };
    [
        field(&["publish_date", "date"]),
        field(&["title"]),
        field(&["author"]),
    ]
}

/// Extracts every page (with its URL) and pairs the metadata with the truth.
pub fn run(dir: &Path, pages: &[Loaded], threads: usize) -> Result<Vec<MetaPage>, EvalError> {
    if !dir.join("ground-truth").is_dir() {
        return Err(EvalError::UnknownLayout(dir.to_path_buf()));
    }
    let work = || -> Vec<MetaPage> {
        pages
            .par_iter()
            .map(|page| {
                let case = &page.case;
                let mut opts = Options::default();
                opts.url = case.url.clone();
                let rec = page
                    .bytes
                    .as_ref()
                    .ok()
                    .and_then(|b| extract(b, &opts).ok());
                let ours = match rec {
                    Some(r) => [r.date, r.title, r.author],
                    None => [None, None, None],
                };
                MetaPage {
                    id: case.id.clone(),
                    kind: case.kind.clone(),
                    truth: truth_of(dir, &case.id),
                    ours,
                }
            })
            .collect()
    };
    Ok(
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        },
    )
}

/// Scores per field: "all" and each page type.
pub fn score(pages: &[MetaPage]) -> [BTreeMap<String, FieldScore>; 3] {
    let mut out: [BTreeMap<String, FieldScore>; 3] = Default::default();
    for p in pages {
        for (f, field) in FIELDS.iter().enumerate() {
            let Some(truth) = &p.truth[f] else {
                if p.ours[f].is_some() {
                    for key in ["all", p.kind.as_str()] {
                        out[f].entry(key.to_string()).or_default().extra += 1;
                    }
                }
                continue;
            };
            let (exact, contained) = p.ours[f]
                .as_deref()
                .map_or((false, false), |o| matches(field, truth, o));
            for key in ["all", p.kind.as_str()] {
                let s = out[f].entry(key.to_string()).or_default();
                s.n += 1;
                s.exact += usize::from(exact);
                s.contained += usize::from(contained);
                s.missing += usize::from(p.ours[f].is_none());
            }
        }
    }
    out
}

/// The report: a table per field, then up to `worst` misses per field.
pub fn format(pages: &[MetaPage], dataset: &str, worst: usize) -> String {
    let scores = score(pages);
    let mut s = format!(
        "{dataset} · metadata (each page with its URL): {} pages\n",
        pages.len()
    );
    for (f, field) in FIELDS.iter().enumerate() {
        s.push_str(&format!(
            "{field:<16}{:>6}{:>8}{:>11}{:>9}{:>7}\n",
            "n", "exact", "contained", "missing", "extra"
        ));
        let rows = &scores[f];
        let all = "all".to_string();
        for k in std::iter::once(&all).chain(rows.keys().filter(|k| *k != "all")) {
            let Some(r) = rows.get(k) else { continue };
            s.push_str(&format!(
                "  {k:<14}{:>6}{:>8.3}{:>11.3}{:>9}{:>7}\n",
                r.n,
                r.exact_rate(),
                r.contained_rate(),
                r.missing,
                r.extra
            ));
        }
        if worst > 0 {
            let misses = pages.iter().filter(|p| {
                p.truth[f]
                    .as_deref()
                    .is_some_and(|t| !p.ours[f].as_deref().is_some_and(|o| matches(field, t, o).0))
            });
            for p in misses.take(worst) {
                s.push_str(&format!(
                    "    miss {} {:<14} truth {:?} ours {:?}\n",
                    p.id,
                    p.kind,
                    p.truth[f].as_deref().unwrap_or(""),
                    p.ours[f].as_deref().unwrap_or("-")
                ));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_match_as_the_issue_scores_them() {
        assert_eq!(
            matches("title", "Hello, World!", "hello world"),
            (true, true)
        );
        assert_eq!(
            matches("title", "Hello World", "Hello World | Site"),
            (false, true)
        );
        assert_eq!(matches("author", "Ann Lee", ""), (false, false));
        assert_eq!(
            matches("date", "2025-09-04", "2025-09-04T10:00:00+02:00"),
            (true, true)
        );
        assert_eq!(matches("date", "2025-09-04", "2025-09-05"), (false, false));
    }
}
