//! Template learning measured on SWDE-layout data (swde-book: one site, 2,000
//! pages; any site in the same layout, e.g. a held-out SWDE site or a shop
//! saved the same way).
//!
//! Learn a template from the first n pages, apply it to all the others, and
//! score each field by precision, recall and F1 over values (a page's values
//! against its truth values, pooled over pages). Values are compared after
//! whitespace normalisation and without a leading `:` (SWDE keeps the colon
//! that follows a row label, "ISBN-13: 978…", in its values). Also reported:
//! paper 003's pruning rate and its coverage (the share of the sample pages'
//! truth values still among the kept leaves or their blocks).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::eval::error::EvalError;
use trawl_extract::{clean_value, kept_texts, Applied, Learning, Options, Page, Template};

/// The template field an SWDE attribute corresponds to (the eight SWDE
/// verticals' attributes; any other attribute is looked up by its own name,
/// as a labelled row would be named).
pub fn field_of(attr: &str) -> String {
    match attr {
        "title" | "name" | "model" => "name",
        "isbn_13" | "isbn" => "gtin",
        "publication_date" | "date_posted" => "date",
        "manufacturer" | "company" | "brand" => "brand",
        other => other,
    }
    .to_string()
}

/// The dataset: one site's pages and, per attribute, per page, the truth values.
pub struct Swde {
    /// The site's name (its directory).
    pub site: String,
    /// SWDE attribute and the template field it is scored against.
    pub fields: Vec<(String, String)>,
    pub pages: Vec<Page>,
    pub truth: HashMap<String, Vec<Vec<String>>>,
}

/// Finds the SWDE layout in `dir`: a `groundtruth/` directory of
/// `VERTICAL-SITE-ATTRIBUTE.txt` files and a `SITE/` directory of pages.
/// Returns the vertical, the site (the first, by name, if there are several)
/// and its attributes.
pub fn detect(dir: &Path) -> Option<(String, String, Vec<String>)> {
    let mut found: Vec<(String, String, String)> = std::fs::read_dir(dir.join("groundtruth"))
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let stem = name.strip_suffix(".txt")?;
            let (vertical, rest) = stem.split_once('-')?;
            let (site, attr) = rest.rsplit_once('-')?;
            dir.join(site)
                .is_dir()
                .then(|| (vertical.to_string(), site.to_string(), attr.to_string()))
        })
        .collect();
    found.sort();
    let (vertical, site, _) = found.first()?.clone();
    let mut attrs: Vec<String> = found
        .into_iter()
        .filter(|(v, s, _)| *v == vertical && *s == site)
        .map(|(_, _, a)| a)
        .collect();
    // The item's name first, as SWDE lists it.
    attrs.sort_by_key(|a| field_of(a) != "name");
    Some((vertical, site, attrs))
}

fn norm(s: &str) -> String {
    clean_value(s).to_lowercase()
}

fn io(path: &Path, e: std::io::Error) -> EvalError {
    EvalError::BadFile {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Loads an SWDE-layout directory (e.g. `swde-book`: `booksamillion/` and
/// `groundtruth/`): pages `NNNN.htm[.gz]` numbered from 0, truth per attribute.
pub fn load(dir: &Path, limit: Option<usize>) -> Result<Swde, EvalError> {
    let (vertical, site_name, attrs) =
        detect(dir).ok_or_else(|| EvalError::UnknownLayout(dir.to_path_buf()))?;
    let site = dir.join(&site_name);
    let mut files: Vec<_> = std::fs::read_dir(&site)
        .map_err(|e| io(&site, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.to_string_lossy();
            n.ends_with(".htm.gz") || n.ends_with(".htm") || n.ends_with(".html")
        })
        .collect();
    files.sort();
    files.truncate(limit.unwrap_or(usize::MAX));
    let mut pages = Vec::with_capacity(files.len());
    for f in &files {
        let html = trawl_extract::read_input(&f.to_string_lossy(), 1 << 28)?;
        let page = Page::parse(&html, &Options::default()).map_err(|e| EvalError::BadFile {
            path: f.to_path_buf(),
            message: e.to_string(),
        })?;
        pages.push(page);
    }
    let mut truth = HashMap::new();
    let fields: Vec<(String, String)> = attrs.iter().map(|a| (a.clone(), field_of(a))).collect();
    for (field, _) in &fields {
        let path = dir
            .join("groundtruth")
            .join(format!("{vertical}-{site_name}-{field}.txt"));
        let text = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
        let mut per_page = vec![Vec::new(); pages.len()];
        for line in text.lines().skip(2) {
            let mut parts = line.trim_end_matches('\r').split('\t');
            let Some(id) = parts
                .next()
                .and_then(|i| i.trim_start_matches('\u{feff}').parse::<usize>().ok())
            else {
                continue;
            };
            let _count = parts.next();
            if let Some(slot) = per_page.get_mut(id) {
                *slot = parts.map(norm).filter(|v| !v.is_empty()).collect();
            }
        }
        truth.insert(field.clone(), per_page);
    }
    Ok(Swde {
        site: site_name,
        fields,
        pages,
        truth,
    })
}

/// Scores of one field.
#[derive(Debug, Clone, Default)]
pub struct FieldScore {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

/// One learning run.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub samples: usize,
    pub fields: Vec<FieldScore>,
    pub mean_f1: f64,
    pub pruning_rate: f64,
    pub coverage: f64,
    pub error: Option<String>,
}

/// Learns from the first `n` pages and scores the rest; with `pool > n`,
/// learns from the first `pool` pages the way the crawl does
/// ([`Template::learn_checked`]: `n` samples, checked on the others, more
/// samples while a field is weak) and scores the pages after the pool.
pub fn run(d: &Swde, n: usize, pool: usize, how: Learning) -> Run {
    let samples = &d.pages[..pool.max(n).min(d.pages.len())];
    let learned = if pool > n {
        Template::learn_checked(&d.site, samples, n)
    } else {
        Template::learn_with(&d.site, samples, how)
    };
    let t = match learned {
        Ok(t) => t,
        Err(e) => {
            return Run {
                samples: n,
                error: Some(e.to_string()),
                ..Run::default()
            }
        }
    };
    // Coverage: truth values of the samples found among the kept leaves
    // (or in the block of a kept leaf: the other authors of a list).
    let (mut found, mut wanted) = (0usize, 0usize);
    for (i, texts) in kept_texts(&samples[..t.samples.min(samples.len())], how)
        .iter()
        .enumerate()
    {
        for (field, _) in &d.fields {
            for v in d
                .truth
                .get(field)
                .and_then(|t| t.get(i))
                .into_iter()
                .flatten()
            {
                wanted += 1;
                found += usize::from(texts.contains(v));
            }
        }
    }
    let applied: Vec<Applied> = d.pages[samples.len()..]
        .iter()
        .map(|p| t.apply(p))
        .collect();
    let mut scores = Vec::new();
    for (field, ours) in &d.fields {
        let (mut tp, mut np, mut nt) = (0usize, 0usize, 0usize);
        for (k, a) in applied.iter().enumerate() {
            let truth: HashSet<&String> = d
                .truth
                .get(field)
                .and_then(|t| t.get(samples.len() + k))
                .map(|v| v.iter().collect())
                .unwrap_or_default();
            let pred: HashSet<String> = a
                .values
                .get(ours)
                .map(|v| v.iter().map(|x| norm(x)).collect())
                .unwrap_or_default();
            tp += pred.iter().filter(|p| truth.contains(p)).count();
            np += pred.len();
            nt += truth.len();
        }
        let p = if np == 0 { 0.0 } else { tp as f64 / np as f64 };
        let r = if nt == 0 { 1.0 } else { tp as f64 / nt as f64 };
        let f1 = if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        };
        scores.push(FieldScore {
            precision: p,
            recall: r,
            f1,
        });
    }
    Run {
        samples: t.samples,
        mean_f1: scores.iter().map(|s| s.f1).sum::<f64>() / scores.len() as f64,
        fields: scores,
        pruning_rate: t.pruning.rate(),
        coverage: if wanted == 0 {
            1.0
        } else {
            found as f64 / wanted as f64
        },
        error: None,
    }
}

/// A table of runs.
pub fn format(runs: &[Run], d: &Swde, what: &str) -> String {
    let mut s = format!(
        "{} ({} pages), {what}: learn from the first n, apply to the rest\n\n| n | {} | mean F1 | pruning | coverage |\n|---|{}---|---|---|\n",
        d.site,
        d.pages.len(),
        d.fields.iter().map(|(f, _)| format!("{f} P/R/F1")).collect::<Vec<_>>().join(" | "),
        "---|".repeat(d.fields.len())
    );
    for r in runs {
        if let Some(e) = &r.error {
            s.push_str(&format!("| {} | {e} |\n", r.samples));
            continue;
        }
        let cells: Vec<String> = r
            .fields
            .iter()
            .map(|f| format!("{:.3}/{:.3}/{:.3}", f.precision, f.recall, f.f1))
            .collect();
        s.push_str(&format!(
            "| {} | {} | {:.3} | {:.1}% | {:.1}% |\n",
            r.samples,
            cells.join(" | "),
            r.mean_f1,
            100.0 * r.pruning_rate,
            100.0 * r.coverage
        ));
    }
    s
}

/// `count` seeded draws of `n` distinct pages (splitmix64 from `seed`,
/// `seed + 1`, …), so a sample is reproducible from its seed.
pub fn draws(pages: usize, n: usize, count: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(count);
    for k in 0..count as u64 {
        let mut state = seed.wrapping_add(k);
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut pick: Vec<usize> = Vec::with_capacity(n);
        while pick.len() < n.min(pages) {
            let i = (next() % pages as u64) as usize;
            if !pick.contains(&i) {
                pick.push(i);
            }
        }
        out.push(pick);
    }
    out
}

/// Learns from the pages at `sample` (indices) and scores all the others:
/// the sample is swapped to the front for [`run`] and swapped back after.
/// The template is learned from the first `n` of them (checked on the rest
/// when there are more).
pub fn run_sample(d: &mut Swde, sample: &[usize], n: usize, how: Learning) -> Run {
    let swap = |d: &mut Swde, a: usize, b: usize| {
        d.pages.swap(a, b);
        for t in d.truth.values_mut() {
            t.swap(a, b);
        }
    };
    // Sample indices are distinct; moving each to slot k in order keeps the
    // later ones where they are unless they sit in an earlier slot.
    let mut moves = Vec::new();
    let mut at: Vec<usize> = sample.to_vec();
    for k in 0..at.len() {
        let from = at[k];
        if from != k {
            swap(d, k, from);
            moves.push((k, from));
            for later in at.iter_mut().skip(k + 1) {
                if *later == k {
                    *later = from;
                }
            }
        }
    }
    let r = run(d, n, sample.len(), how);
    for (a, b) in moves.into_iter().rev() {
        swap(d, a, b);
    }
    r
}

/// The draws as a table: one row per draw, then the minimum per field.
pub fn format_draws(runs: &[(Vec<usize>, Run)], d: &Swde, what: &str) -> String {
    let mut s = format!(
        "{}, {what}: {} seeded draws of {} pages, applied to all others\n\n| draw | pages | {} | mean F1 |\n|---|---|{}---|\n",
        d.site,
        runs.len(),
        runs.first().map_or(0, |(p, _)| p.len()),
        d.fields.iter().map(|(f, _)| format!("{f} F1")).collect::<Vec<_>>().join(" | "),
        "---|".repeat(d.fields.len())
    );
    let mut min = vec![f64::INFINITY; d.fields.len()];
    for (k, (pages, r)) in runs.iter().enumerate() {
        let mut ids: Vec<String> = pages.iter().map(|p| format!("{p:04}")).collect();
        if r.error.is_none() && r.samples < pages.len() {
            ids.push(format!("(learned from {})", r.samples));
        }
        if let Some(e) = &r.error {
            s.push_str(&format!("| {} | {} | {e} |\n", k + 1, ids.join(" ")));
            min.iter_mut().for_each(|m| *m = 0.0);
            continue;
        }
        for (m, f) in min.iter_mut().zip(&r.fields) {
            *m = m.min(f.f1);
        }
        let cells: Vec<String> = r.fields.iter().map(|f| format!("{:.3}", f.f1)).collect();
        s.push_str(&format!(
            "| {} | {} | {} | {:.3} |\n",
            k + 1,
            ids.join(" "),
            cells.join(" | "),
            r.mean_f1
        ));
    }
    let cells: Vec<String> = min.iter().map(|m| format!("**{m:.3}**")).collect();
    s.push_str(&format!("| min | | {} | |\n", cells.join(" | ")));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_distinct_and_reproducible() {
        let a = draws(2000, 4, 20, 1);
        assert_eq!(a, draws(2000, 4, 20, 1));
        assert_eq!(a.len(), 20);
        for d in &a {
            let mut s = d.clone();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), 4);
        }
        assert_ne!(a[0], a[1]);
    }
}
