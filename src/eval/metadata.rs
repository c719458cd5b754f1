//! `trawl eval --metadata`: the record's title, author and publish date
//! against a dataset's ground truth (wcxb-dev and trafilatura-eval have
//! all three, multilingual-dev dates and authors of its Chinese pages), per
//! page type, each page extracted with its URL as in a crawl. Scored as the
//! issue that asked for it measured trafilatura: exact match after
//! lower-casing and removing punctuation, "contained" when one holds the
//! other, and for dates the same day.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rayon::prelude::*;
use serde_json::Value;

use crate::eval::dataset::Loaded;
use crate::eval::error::EvalError;
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

/// The truth's date at the precision the annotator wrote it: a day
/// (`YYYY-MM-DD`), else a month (`YYYY-MM`) or a year (`YYYY`).
/// multilingual-dev writes `2005-5-7 21:23:57`, `2003-5` and `2018`,
/// which the extractor's ISO reading leaves out: every such page counted
/// as a miss, whatever the record said.
fn truth_day(s: &str) -> Option<String> {
    if let Some(d) = day(s) {
        return Some(month_second(d));
    }
    let head = s.split_whitespace().next()?;
    let parts: Vec<&str> = head.split(['-', '/', '.']).collect();
    let digits =
        |p: &str, max: usize| (1..=max).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    let ok = parts.len() <= 3
        && parts.first().is_some_and(|y| y.len() == 4 && digits(y, 4))
        && parts[1..].iter().all(|p| digits(p, 2));
    if !ok {
        return None;
    }
    let mut out = parts[0].to_string();
    for p in &parts[1..] {
        out.push_str(&format!("-{p:0>2}"));
    }
    Some(out)
}

/// A truth day written year, day, month by a slip of the annotator
/// (trafilatura-eval's `2022-29-11`, `2022-25-10`: no month 29 or 25) read
/// in the only order it can mean.
fn month_second(d: String) -> String {
    let num = |r: std::ops::Range<usize>| d.get(r).and_then(|x| x.parse::<u32>().ok());
    match (num(5..7), num(8..10)) {
        (Some(m), Some(day)) if m > 12 && (1..=12).contains(&day) => {
            format!("{}-{day:02}-{m:02}", &d[..4])
        }
        _ => d,
    }
}

/// (exact, contained) for one field.
pub fn matches(field: &str, truth: &str, ours: &str) -> (bool, bool) {
    if field == "date" {
        // Same day; a truth that names only a month or a year is met by a
        // day within it.
        let same = truth_day(truth).is_some_and(|t| {
            day(ours).is_some_and(|o| o == t || (t.len() < 10 && o.starts_with(&format!("{t}-"))))
        });
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

/// A peer's title, author and date per page id, from a JSONL file
/// (`source`, `title`, `author`, `date`; the id is the source's file name
/// up to its first dot, as in `--losses`).
pub fn read_peer(path: &Path) -> Result<HashMap<String, [Option<String>; 3]>, EvalError> {
    #[derive(serde::Deserialize)]
    struct Line {
        #[serde(default)]
        source: String,
        date: Option<String>,
        title: Option<String>,
        author: Option<String>,
    }
    let keep = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
    Ok(crate::eval::losses::read_jsonl::<Line>(path)?
        .into_iter()
        .map(|l| {
            let id = crate::eval::losses::page_id(&l.source);
            (id, [keep(l.date), keep(l.title), keep(l.author)])
        })
        .collect())
}

/// Scores per field: "all" and each page type.
pub fn score(pages: &[MetaPage]) -> [BTreeMap<String, FieldScore>; 3] {
    let ours: Vec<&[Option<String>; 3]> = pages.iter().map(|p| &p.ours).collect();
    score_of(pages, &ours)
}

/// Scores per field of one side's values (ours, or a peer's), one per page.
fn score_of(
    pages: &[MetaPage],
    side: &[&[Option<String>; 3]],
) -> [BTreeMap<String, FieldScore>; 3] {
    let mut out: [BTreeMap<String, FieldScore>; 3] = Default::default();
    for (p, values) in pages.iter().zip(side) {
        for (f, field) in FIELDS.iter().enumerate() {
            let Some(truth) = &p.truth[f] else {
                if values[f].is_some() {
                    for key in ["all", p.kind.as_str()] {
                        out[f].entry(key.to_string()).or_default().extra += 1;
                    }
                }
                continue;
            };
            let (exact, contained) = values[f]
                .as_deref()
                .map_or((false, false), |o| matches(field, truth, o));
            for key in ["all", p.kind.as_str()] {
                let s = out[f].entry(key.to_string()).or_default();
                s.n += 1;
                s.exact += usize::from(exact);
                s.contained += usize::from(contained);
                s.missing += usize::from(values[f].is_none());
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

/// Ours beside a peer's (`peer`: page id → date, title, author), per
/// field and page type, then up to `worst` pages per field that the peer
/// gets right and we miss ("where we lose"). Pages the peer file lacks
/// count as the peer giving nothing.
pub fn format_vs_peer(
    pages: &[MetaPage],
    peer: &HashMap<String, [Option<String>; 3]>,
    dataset: &str,
    worst: usize,
) -> String {
    let none: [Option<String>; 3] = Default::default();
    let theirs_by_page: Vec<&[Option<String>; 3]> = pages
        .iter()
        .map(|p| peer.get(&p.id).unwrap_or(&none))
        .collect();
    let ours = score(pages);
    let theirs = score_of(pages, &theirs_by_page);
    let mut s = format!(
        "{dataset} · metadata, ours vs peer (each page with its URL): {} pages, {} in the peer's file\n",
        pages.len(),
        pages.iter().filter(|p| peer.contains_key(&p.id)).count()
    );
    for (f, field) in FIELDS.iter().enumerate() {
        s.push_str(&format!(
            "{field:<16}{:>6}{:>8}{:>8}{:>11}{:>11}{:>9}{:>9}\n",
            "n", "exact", "peer", "contained", "peer", "missing", "peer"
        ));
        let all = "all".to_string();
        for k in std::iter::once(&all).chain(ours[f].keys().filter(|k| *k != "all")) {
            let (Some(o), Some(t)) = (ours[f].get(k), theirs[f].get(k)) else {
                continue;
            };
            s.push_str(&format!(
                "  {k:<14}{:>6}{:>8.3}{:>8.3}{:>11.3}{:>11.3}{:>9}{:>9}\n",
                o.n,
                o.exact_rate(),
                t.exact_rate(),
                o.contained_rate(),
                t.contained_rate(),
                o.missing,
                t.missing
            ));
        }
        let right = |v: &[Option<String>; 3], t: &str| {
            v[f].as_deref().is_some_and(|o| matches(field, t, o).0)
        };
        let both = || pages.iter().zip(theirs_by_page.iter().copied());
        let losses: Vec<(&MetaPage, &[Option<String>; 3])> = both()
            .filter(|(p, v)| {
                p.truth[f]
                    .as_deref()
                    .is_some_and(|t| right(v, t) && !right(&p.ours, t))
            })
            .collect();
        let wins = both()
            .filter(|(p, v)| {
                p.truth[f]
                    .as_deref()
                    .is_some_and(|t| right(&p.ours, t) && !right(v, t))
            })
            .count();
        s.push_str(&format!(
            "  we alone right on {wins} pages, the peer alone on {}\n",
            losses.len()
        ));
        for (p, v) in losses.iter().take(worst) {
            s.push_str(&format!(
                "    lose {} {:<14} truth {:?} ours {:?} peer {:?}\n",
                p.id,
                p.kind,
                p.truth[f].as_deref().unwrap_or(""),
                p.ours[f].as_deref().unwrap_or("-"),
                v[f].as_deref().unwrap_or("-")
            ));
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
        // The truth as multilingual-dev's annotators wrote it.
        assert!(matches("date", "2005-5-7 21:23:57", "2005-05-07").0);
        assert!(!matches("date", "2005-5-7 21:23:57", "2005-07-05").0);
        assert!(matches("date", "2003-5", "2003-05-29").0);
        assert!(!matches("date", "2003-5", "2003-06-01").0);
        assert!(!matches("date", "2003-1", "2003-10-01").0);
        assert!(matches("date", "2018", "2018-08-23").0);
        assert!(!matches("date", "2018", "-").0);
        // A truth written year, day, month where no other reading exists.
        assert!(matches("date", "2022-29-11", "2022-11-29").0);
        assert!(!matches("date", "2022-11-10", "2022-10-11").0);
    }

    #[test]
    fn a_peer_is_scored_beside_us_and_its_wins_are_listed() {
        let page = |id: &str, truth: &str, ours: &str| MetaPage {
            id: id.into(),
            kind: "article".into(),
            truth: [Some(truth.into()), None, None],
            ours: [Some(ours.into()), None, None],
        };
        let pages = [
            page("0001", "2025-01-02", "2025-01-02"),
            page("0002", "2024-05-06", "2025-11-30"),
        ];
        let dir = std::env::temp_dir().join(format!("trawl-peer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_default();
        let file = dir.join("peer.jsonl");
        std::fs::write(
            &file,
            "{\"source\": \"html/0001.html.gz\", \"date\": \"2025-01-03\", \"title\": null}\n\
             {\"source\": \"html/0002.html.gz\", \"date\": \"2024-05-06\", \"author\": \"\"}\n",
        )
        .unwrap_or_default();
        let peer = read_peer(&file).unwrap_or_default();
        std::fs::remove_dir_all(&dir).unwrap_or_default();
        assert_eq!(peer.len(), 2);
        assert_eq!(peer["0002"][2], None, "an empty author is none");
        let report = format_vs_peer(&pages, &peer, "set", 5);
        assert!(
            report.contains("we alone right on 1 pages, the peer alone on 1"),
            "{report}"
        );
        assert!(
            report.contains("lose 0002 article        truth \"2024-05-06\" ours \"2025-11-30\" peer \"2024-05-06\""),
            "{report}"
        );
        // The per-type row: ours 1 of 2, the peer's 1 of 2.
        assert!(
            report.contains("  all                2   0.500   0.500"),
            "{report}"
        );
    }
}
