//! `trawl eval`: extraction quality and speed on a dataset with ground truth,
//! with the metric the peers were measured with, so the numbers compare.
//! Speed is the summed per-page extraction time (decode, parse, extract,
//! render) of pages read beforehand, i.e. per-core throughput.

pub mod dataset;
mod error;
pub mod losses;
pub mod markdown;
pub mod metadata;
pub mod products;
pub mod score;
pub mod shown;
pub mod structure;
pub mod swde;
pub mod types;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

pub use dataset::{Case, Loaded};
pub use error::EvalError;
pub use score::{char_prf, prf, Prf, Snippets};
use trawl_extract::read_input;
use trawl_extract::{extract, Algorithm, Options, PageType};

/// One page's result.
#[derive(Debug, Clone)]
pub struct PageResult {
    pub id: String,
    pub kind: String,
    pub predicted_type: Option<&'static str>,
    /// The dataset's per-page score: word F1, or for a snippet dataset the
    /// page's snippet P/R/F1.
    pub score: Prf,
    /// Character-level scores (datasets with languages).
    pub chars: Option<Prf>,
    /// Snippet counts (snippet datasets).
    pub snippets: Option<Snippets>,
    pub text: String,
    pub error: Option<String>,
}

/// Aggregates of one row of the report.
#[derive(Debug, Clone, Default)]
pub struct Row {
    pub n: usize,
    pub p: f64,
    pub r: f64,
    pub f1: f64,
}

impl Row {
    fn add(&mut self, s: Prf) {
        self.n += 1;
        self.p += s.p;
        self.r += s.r;
        self.f1 += s.f1;
    }

    fn mean(&self) -> Row {
        let n = self.n.max(1) as f64;
        Row {
            n: self.n,
            p: self.p / n,
            r: self.r / n,
            f1: self.f1 / n,
        }
    }
}

/// The outcome of evaluating one algorithm on one dataset.
#[derive(Debug, Clone)]
pub struct Report {
    pub algorithm: Algorithm,
    pub all: Row,
    pub by_kind: BTreeMap<String, Row>,
    /// Character-level rows by kind, "all" included (datasets with languages).
    pub chars: BTreeMap<String, Row>,
    /// Summed snippet counts (snippet datasets).
    pub snippets: Option<Snippets>,
    pub pages: Vec<PageResult>,
    pub bytes: u64,
    /// Summed per-page extraction time.
    pub busy: Duration,
    pub errors: usize,
}

impl Report {
    pub fn pages_per_sec(&self) -> f64 {
        self.pages.len() as f64 / self.busy.as_secs_f64().max(1e-9)
    }

    pub fn mb_per_sec(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.busy.as_secs_f64().max(1e-9)
    }
}

/// Reads a dataset's pages (and truth) into memory.
pub fn load(dir: &Path, limit: Option<usize>) -> Result<Vec<Loaded>, EvalError> {
    let mut cases = dataset::load(dir)?;
    if let Some(l) = limit {
        cases.truncate(l);
    }
    Ok(cases
        .into_par_iter()
        .map(|case| {
            let bytes =
                read_input(&case.html.to_string_lossy(), 64 << 20).map_err(|e| e.to_string());
            Loaded { case, bytes }
        })
        .collect())
}

/// Evaluates one algorithm on loaded pages with `threads` workers. With
/// `oracle_types` the dataset's page type is given to the extractor instead
/// of the classifier's guess (to measure extraction apart from typing);
/// `markdown` off leaves the records' Markdown unwritten (to time its cost).
pub fn run(
    pages: &[Loaded],
    algorithm: Algorithm,
    threads: usize,
    oracle_types: bool,
    markdown: bool,
) -> Report {
    let types = |case: &Case| {
        if oracle_types {
            PageType::parse(&case.kind)
        } else {
            None
        }
    };
    let base = Options::default()
        .with_algorithm(algorithm)
        .with_markdown(markdown);
    run_typed(pages, &base, threads, &types)
}

/// [`run`] with a page type chosen per page (`None`: classify).
pub fn run_typed(
    pages: &[Loaded],
    base: &Options,
    threads: usize,
    types: &(dyn Fn(&Case) -> Option<PageType> + Sync),
) -> Report {
    let algorithm = base.algorithm;
    let work = || -> Vec<(PageResult, Duration, u64)> {
        pages
            .par_iter()
            .map(|page| {
                let case = &page.case;
                let mut opts = base.clone();
                opts.page_type = types(case);
                opts.url = case.url.clone();
                let (text, ptype, error, took, size) = match &page.bytes {
                    Ok(bytes) => {
                        let start = Instant::now();
                        let res = extract(bytes, &opts);
                        let took = start.elapsed();
                        match res {
                            Ok(rec) => (
                                rec.text,
                                Some(rec.page_type.name()),
                                None,
                                took,
                                bytes.len() as u64,
                            ),
                            Err(e) => (
                                String::new(),
                                None,
                                Some(e.to_string()),
                                took,
                                bytes.len() as u64,
                            ),
                        }
                    }
                    Err(e) => (String::new(), None, Some(e.clone()), Duration::ZERO, 0),
                };
                let snippets = (!case.with.is_empty() || !case.without.is_empty())
                    .then(|| Snippets::of(&text, &case.with, &case.without));
                let score = snippets.map_or_else(|| prf(&text, &case.truth), |s| s.prf());
                let chars = case.char_level.then(|| char_prf(&text, &case.truth));
                (
                    PageResult {
                        id: case.id.clone(),
                        kind: case.kind.clone(),
                        predicted_type: ptype,
                        score,
                        chars,
                        snippets,
                        text,
                        error,
                    },
                    took,
                    size,
                )
            })
            .collect()
    };
    let results = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    };
    let mut all = Row::default();
    let mut by_kind: BTreeMap<String, Row> = BTreeMap::new();
    let mut busy = Duration::ZERO;
    let mut bytes = 0;
    let mut errors = 0;
    let mut chars: BTreeMap<String, Row> = BTreeMap::new();
    let mut snippets: Option<Snippets> = None;
    let mut out = Vec::with_capacity(results.len());
    for (r, took, size) in results {
        all.add(r.score);
        by_kind.entry(r.kind.clone()).or_default().add(r.score);
        if let Some(c) = r.chars {
            chars.entry("all".into()).or_default().add(c);
            chars.entry(r.kind.clone()).or_default().add(c);
        }
        if let Some(s) = r.snippets {
            snippets.get_or_insert_with(Snippets::default).add(s);
        }
        busy += took;
        bytes += size;
        errors += usize::from(r.error.is_some());
        out.push(r);
    }
    Report {
        algorithm,
        all: all.mean(),
        by_kind: by_kind.into_iter().map(|(k, v)| (k, v.mean())).collect(),
        chars: chars.into_iter().map(|(k, v)| (k, v.mean())).collect(),
        snippets,
        pages: out,
        bytes,
        busy,
        errors,
    }
}

/// Formats a report as a table.
pub fn format(report: &Report, dataset: &str) -> String {
    let mut s = format!(
        "{dataset} · {}: {} pages, {} errors, {:.1} pages/s, {:.1} MB/s per core\n",
        report.algorithm.name(),
        report.pages.len(),
        report.errors,
        report.pages_per_sec(),
        report.mb_per_sec()
    );
    if let Some(c) = &report.snippets {
        // trafilatura's metric: counts summed over pages, not a mean.
        s.push_str(&format!(
            "{:>7}{:>7}{:>7}{:>7}{:>6}{:>6}{:>6}{:>6}\n",
            "P", "R", "acc", "F1", "tp", "fp", "fn", "tn"
        ));
        s.push_str(&format!(
            "{:>7.3}{:>7.3}{:>7.3}{:>7.3}{:>6}{:>6}{:>6}{:>6}\n",
            c.precision(),
            c.recall(),
            c.accuracy(),
            c.f1(),
            c.tp,
            c.fp,
            c.fn_,
            c.tn
        ));
        return s;
    }
    let table = |s: &mut String, all: Option<&Row>, rows: &BTreeMap<String, Row>| {
        s.push_str(&format!(
            "{:<16}{:>6}{:>8}{:>8}{:>8}\n",
            "type", "n", "F1", "P", "R"
        ));
        let mut line = |label: &str, r: &Row| {
            s.push_str(&format!(
                "{label:<16}{:>6}{:>8.3}{:>8.3}{:>8.3}\n",
                r.n, r.f1, r.p, r.r
            ));
        };
        if let Some(a) = all {
            line("all", a);
        }
        for (k, r) in rows {
            line(k, r);
        }
    };
    table(&mut s, Some(&report.all), &report.by_kind);
    if !report.chars.is_empty() {
        s.push_str("character-level (non-space characters):\n");
        let mut rows = report.chars.clone();
        let all = rows.remove("all");
        table(&mut s, all.as_ref(), &rows);
    }
    s
}
