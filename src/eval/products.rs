//! Single-page product fields scored against a product truth file (JSONL):
//! per field precision, recall and F1, overall and per fold, the folds
//! keeping each site's pages together.
//!
//! A truth line: `id` (the page file's name up to its first dot, looked up as
//! `DIR/html/ID.*` or `DIR/ID.*`) or `file` (a path, relative to the truth
//! file), optionally `url`, then per field (`name`, `price`, `currency`,
//! `sku`, `gtin`, `brand`): a value or a list of accepted values; `[]` when
//! the page shows none (any extracted value is then a false positive);
//! `null` or absent when the field is not scored. `tests/data/products/`
//! has the labelled wcxb-dev product pages in this form.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::eval::error::EvalError;
use trawl_extract::{Options, Page, Product};

/// Fields scored, in report order.
pub const FIELDS: [&str; 6] = ["name", "price", "currency", "sku", "gtin", "brand"];

/// Number of folds sites are split into.
pub const FOLDS: usize = 5;

/// Accepted values: one, several, or a list.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Values {
    One(String),
    Number(f64),
    Many(Vec<String>),
}

impl Values {
    fn list(self) -> Vec<String> {
        match self {
            Values::One(s) => vec![s],
            Values::Number(n) => vec![n.to_string()],
            Values::Many(v) => v,
        }
    }
}

#[derive(Debug, Deserialize)]
struct Line {
    id: Option<String>,
    file: Option<PathBuf>,
    url: Option<String>,
    #[serde(default)]
    name: Option<Values>,
    #[serde(default)]
    price: Option<Values>,
    #[serde(default)]
    currency: Option<Values>,
    #[serde(default)]
    sku: Option<Values>,
    #[serde(default)]
    gtin: Option<Values>,
    #[serde(default)]
    brand: Option<Values>,
}

/// One labelled page.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub html: PathBuf,
    pub url: Option<String>,
    /// Per field: `None` not scored, `Some([])` the page has none.
    pub truth: BTreeMap<&'static str, Option<Vec<String>>>,
}

fn bad(path: &Path, message: impl Into<String>) -> EvalError {
    EvalError::BadFile {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

fn find_page(dir: &Path, id: &str) -> Option<PathBuf> {
    for base in [dir.join("html"), dir.to_path_buf()] {
        for ext in ["html.gz", "htm.gz", "html", "htm"] {
            let p = base.join(format!("{id}.{ext}"));
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Reads a truth file; pages are looked up under `pages`.
pub fn load(truth: &Path, pages: &Path) -> Result<Vec<Case>, EvalError> {
    let text = std::fs::read_to_string(truth).map_err(|e| bad(truth, e.to_string()))?;
    let base = truth.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line =
            serde_json::from_str(raw).map_err(|e| bad(truth, format!("line {}: {e}", n + 1)))?;
        let (id, html) = match (&line.id, &line.file) {
            (_, Some(f)) => (
                line.id.clone().unwrap_or_else(|| f.display().to_string()),
                base.join(f),
            ),
            (Some(id), None) => (
                id.clone(),
                find_page(pages, id).ok_or_else(|| {
                    bad(pages, format!("line {}: no page for id {id} (looked for html/{id}.html.gz, {id}.html, …)", n + 1))
                })?,
            ),
            (None, None) => {
                return Err(bad(truth, format!("line {}: needs `id` or `file`", n + 1)))
            }
        };
        let mut t = BTreeMap::new();
        for (field, v) in [
            ("name", line.name),
            ("price", line.price),
            ("currency", line.currency),
            ("sku", line.sku),
            ("gtin", line.gtin),
            ("brand", line.brand),
        ] {
            t.insert(field, v.map(Values::list));
        }
        out.push(Case {
            id,
            html,
            url: line.url,
            truth: t,
        });
    }
    Ok(out)
}

fn words(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether an extracted value matches an accepted one.
pub fn matches(field: &str, got: &str, want: &str) -> bool {
    match field {
        "price" => match (got.trim().parse::<f64>(), want.trim().parse::<f64>()) {
            (Ok(a), Ok(b)) => (a - b).abs() < 0.005,
            _ => false,
        },
        "gtin" => {
            let d = |s: &str| {
                s.chars()
                    .filter(char::is_ascii_digit)
                    .collect::<String>()
                    .trim_start_matches('0')
                    .to_string()
            };
            d(got) == d(want) && !d(want).is_empty()
        }
        "currency" | "sku" | "mpn" | "availability" => got.trim().eq_ignore_ascii_case(want.trim()),
        _ => words(got) == words(want),
    }
}

/// The value a record gives for a field.
pub fn value(p: &Product, field: &str) -> Option<String> {
    match field {
        "name" => p.name.clone(),
        "price" => p.price.as_ref().map(|x| x.amount.clone()),
        "currency" => p
            .price
            .as_ref()
            .and_then(|x| x.currency.clone())
            .or_else(|| p.currency.clone()),
        "sku" => p.sku.clone(),
        "gtin" => p.gtin.clone(),
        "brand" => p.brand.clone(),
        "mpn" => p.mpn.clone(),
        "availability" => p
            .availability
            .and_then(|a| serde_json::to_value(a).ok())
            .and_then(|v| v.as_str().map(str::to_string)),
        _ => None,
    }
}

/// Counts of one field.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
    pub scored: usize,
}

impl Counts {
    pub fn p(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    pub fn r(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// One page's outcome per field: (extracted, correct).
#[derive(Debug, Clone)]
pub struct PageOutcome {
    pub id: String,
    pub host: String,
    pub record: bool,
    pub fields: BTreeMap<&'static str, (Option<String>, Option<bool>)>,
}

/// The evaluation.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub pages: Vec<PageOutcome>,
    pub all: BTreeMap<&'static str, Counts>,
    pub folds: Vec<BTreeMap<&'static str, Counts>>,
}

pub(crate) fn host(url: Option<&str>, id: &str) -> String {
    url.and_then(|u| u.split("://").nth(1))
        .and_then(|rest| rest.split(['/', '?', '#']).next())
        .map(|h| h.trim_start_matches("www.").to_ascii_lowercase())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| id.to_string())
}

/// A site's fold: a stable hash of its host.
pub(crate) fn fold_of(host: &str) -> usize {
    let h = host.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    (h % FOLDS as u64) as usize
}

impl Report {
    /// An empty report with its folds.
    pub fn new() -> Report {
        Report {
            folds: vec![BTreeMap::new(); FOLDS],
            ..Report::default()
        }
    }

    /// Counts one field of one page in fold `fold`: right is a matching
    /// value, or nothing where the page has none (`want` empty).
    pub fn tally(
        &mut self,
        fold: usize,
        field: &'static str,
        got: Option<&str>,
        want: &[String],
    ) -> bool {
        let ok = if want.is_empty() {
            got.is_none()
        } else {
            got.is_some_and(|g| want.iter().any(|w| matches(field, g, w)))
        };
        for counts in [
            self.all.entry(field).or_default(),
            self.folds[fold % FOLDS].entry(field).or_default(),
        ] {
            counts.scored += 1;
            if ok {
                counts.tp += usize::from(!want.is_empty());
            } else {
                if got.is_some() {
                    counts.fp += 1;
                }
                if !want.is_empty() {
                    counts.fn_ += 1;
                }
            }
        }
        ok
    }
}

/// Extracts every page and scores it.
pub fn run(cases: &[Case]) -> Result<Report, EvalError> {
    let mut report = Report::new();
    for c in cases {
        let bytes = trawl_extract::read_input(&c.html.to_string_lossy(), 1 << 28)?;
        let opts = Options::default().with_url_opt(c.url.clone());
        let product = Page::parse(&bytes, &opts)
            .ok()
            .and_then(|p| p.extract(&opts).product);
        let h = host(c.url.as_deref(), &c.id);
        let fold = fold_of(&h);
        let mut fields = BTreeMap::new();
        for field in FIELDS {
            let got = product.as_ref().and_then(|p| value(p, field));
            let Some(Some(want)) = c.truth.get(field) else {
                fields.insert(field, (got, None));
                continue;
            };
            let ok = report.tally(fold, field, got.as_deref(), want);
            fields.insert(field, (got, Some(ok)));
        }
        report.pages.push(PageOutcome {
            id: c.id.clone(),
            host: h,
            record: product.is_some(),
            fields,
        });
    }
    Ok(report)
}

/// The report as a table.
pub fn format(report: &Report, name: &str, worst: usize) -> String {
    format_fields(report, name, worst, &FIELDS)
}

/// [`format`] for the given fields.
pub fn format_fields(report: &Report, name: &str, worst: usize, fields: &[&str]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let records = report.pages.iter().filter(|p| p.record).count();
    let hosts: std::collections::BTreeSet<&str> =
        report.pages.iter().map(|p| p.host.as_str()).collect();
    let _ = writeln!(
        s,
        "{name}: {} pages from {} sites, {records} with a product record",
        report.pages.len(),
        hosts.len()
    );
    let _ = writeln!(
        s,
        "{:<12} {:>6} {:>6} {:>6} {:>6}   F1 per fold ({FOLDS}, sites kept together)   min",
        "field", "scored", "P", "R", "F1"
    );
    for field in fields.iter().copied() {
        let Some(c) = report.all.get(field) else {
            continue;
        };
        let per: Vec<f64> = report
            .folds
            .iter()
            .filter_map(|f| f.get(field))
            .filter(|c| c.scored > 0)
            .map(Counts::f1)
            .collect();
        let min = per.iter().copied().fold(f64::INFINITY, f64::min);
        let folds: Vec<String> = per.iter().map(|f| format!("{f:.3}")).collect();
        let _ = writeln!(
            s,
            "{:<12} {:>6} {:>6.3} {:>6.3} {:>6.3}   {:<40} {:.3}",
            field,
            c.scored,
            c.p(),
            c.r(),
            c.f1(),
            folds.join(" "),
            if min.is_finite() { min } else { 0.0 }
        );
    }
    if worst > 0 {
        let _ = writeln!(s, "misses:");
        for p in report
            .pages
            .iter()
            .filter(|p| p.fields.values().any(|(_, ok)| *ok == Some(false)))
            .take(worst)
        {
            let wrong: Vec<String> = p
                .fields
                .iter()
                .filter(|(_, (_, ok))| *ok == Some(false))
                .map(|(f, (got, _))| format!("{f}={}", got.as_deref().unwrap_or("-")))
                .collect();
            let _ = writeln!(s, "  {} {:<28} {}", p.id, p.host, wrong.join("  "));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_rules() {
        assert!(matches("price", "1646.00", "1646"));
        assert!(!matches("price", "16.46", "1646"));
        assert!(matches(
            "name",
            "Men’s Quarter Socks",
            "Men's Quarter Socks"
        ));
        assert!(!matches(
            "name",
            "Men's Quarter Socks 2-pack",
            "Men's Quarter Socks"
        ));
        assert!(matches("gtin", "0851552005025", "851552005025"));
        assert!(matches("currency", "eur", "EUR"));
    }

    #[test]
    fn empty_truth_counts_a_value_as_false_positive() {
        let dir = std::env::temp_dir().join(format!("trawl-products-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a.html"),
            "<html><head><script type=\"application/ld+json\">{\"@type\":\"Product\",\"name\":\"Mug\",\
             \"offers\":{\"price\":\"12.00\",\"priceCurrency\":\"USD\"}}</script></head>\
             <body><h1>Mug</h1><p class=price>$12.00</p></body></html>",
        )
        .unwrap();
        std::fs::write(
            dir.join("t.jsonl"),
            r#"{"file":"a.html","name":"Mug","price":[],"currency":null}"#,
        )
        .unwrap();
        let cases = load(&dir.join("t.jsonl"), &dir).unwrap();
        let r = run(&cases).unwrap();
        let price = r.all["price"];
        assert_eq!(
            (price.tp, price.fp, price.fn_),
            (0, usize::from(r.pages[0].record), 0)
        );
        assert!(!r.all.contains_key("currency"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
