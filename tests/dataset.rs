//! Tests on the development datasets in ../shared/datasets. They skip, with a
//! message, when the datasets are absent (a fresh clone has no ../shared).
//!
//! - Invariants for every algorithm on every page: no panic, no script/style
//!   text in the output, every output word occurs in the page's visible text.
//! - Quality floors for `auto`: deterministic, so they sit just under the
//!   measured F1 and are raised as trawl improves (docs/BENCHMARKS.md).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use trawl::eval::{self, score};
use trawl::extract::extract_doc;
use trawl::html::{charset, render, Doc, Limits, Selection};
use trawl::Algorithm;

fn dataset(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: {} not found; dataset tests need ../shared/datasets",
            dir.display()
        );
        None
    }
}

/// Long lines of script and style bodies (JSON-LD excluded: it restates
/// visible text on purpose).
fn script_lines(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    for tag in ["script", "style"] {
        let open = format!("<{tag}");
        let close = format!("</{tag}>");
        let mut from = 0;
        while let Some(start) = lower[from..].find(&open).map(|p| p + from) {
            let Some(gt) = lower[start..].find('>').map(|p| p + start + 1) else {
                break;
            };
            let Some(end) = lower[gt..].find(&close).map(|p| p + gt) else {
                break;
            };
            let head = &lower[start..gt];
            if !head.contains("ld+json") && html.is_char_boundary(gt) && html.is_char_boundary(end)
            {
                out.extend(
                    html[gt..end]
                        .lines()
                        .map(str::trim)
                        .filter(|l| l.len() >= 60 && l.contains(['{', ';', '(']))
                        .map(str::to_string),
                );
            }
            from = end + close.len();
        }
    }
    out
}

fn check_invariants(name: &str) {
    let Some(dir) = dataset(name) else { return };
    let pages = eval::load(&dir, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let failures: Vec<String> = pages
        .par_iter()
        .flat_map_iter(|page| {
            let mut bad = Vec::new();
            let Ok(bytes) = &page.bytes else { return bad };
            let Ok(decoded) = charset::decode(bytes, None, None) else {
                return bad;
            };
            let Ok(doc) = Doc::parse(&decoded.text, &Limits::default()) else {
                return bad;
            };
            // Words of the rendered page, and of each text node on its own
            // (adjacent inline elements glue into one word when rendered whole).
            let mut visible: HashSet<String> =
                score::tokens(&render(&doc, &Selection::subtree(&doc, 0)))
                    .into_iter()
                    .collect();
            for i in 0..doc.len() as u32 {
                if !doc.is_element(i) {
                    visible.extend(score::tokens(doc.text(i)));
                }
            }
            // A thin product text may carry the page's JSON-LD description
            // (the seller's own text, not visible without scripts).
            if let Some(d) = trawl::extract::metadata::collect(&doc).product_description {
                visible.extend(score::tokens(&d));
            }
            let scripts = script_lines(&decoded.text);
            for algorithm in Algorithm::ALL {
                let rec = extract_doc(&doc, page.case.url.as_deref(), algorithm, None);
                let tokens = score::tokens(&rec.text);
                let foreign = tokens.iter().filter(|t| !visible.contains(*t)).count();
                // A selection may start or end inside an inline run ("foo<b>bar</b>"
                // rendered alone as "bar"); allow that at block edges only.
                if foreign > 2 + tokens.len() / 200 {
                    bad.push(format!(
                        "{} {algorithm:?}: {foreign} words not in the visible text",
                        page.case.id
                    ));
                }
                if let Some(line) = scripts.iter().find(|l| rec.text.contains(l.as_str())) {
                    bad.push(format!(
                        "{} {algorithm:?}: script text {:?}",
                        page.case.id,
                        &line[..60]
                    ));
                }
            }
            bad
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn invariants_on_wcxb_dev() {
    check_invariants("wcxb-dev");
}

#[test]
fn invariants_on_cleaneval() {
    check_invariants("cleaneval");
}

/// The F1 `auto` must not fall below (measured value, rounded down), overall
/// and per page type. Raised with each measured improvement (history in
/// docs/BENCHMARKS.md): wcxb-dev 0.833 -> 0.875 with the per-type work; cleaneval
/// 0.921 -> 0.919 when repeated blocks went (its gold keeps articles a page
/// shows twice; wcxb-dev gains 0.003).
const WCXB_FLOOR: f64 = 0.874;
const WCXB_TYPE_FLOORS: &[(&str, f64)] = &[
    ("article", 0.949),
    ("forum", 0.817),
    ("product", 0.716),
    ("collection", 0.709),
    ("listing", 0.745),
    ("documentation", 0.920),
    ("service", 0.838),
];
const CLEANEVAL_FLOOR: f64 = 0.918;

#[test]
fn quality_floor_wcxb_dev() {
    let Some(dir) = dataset("wcxb-dev") else {
        return;
    };
    let pages = eval::load(&dir, None).unwrap_or_else(|e| panic!("{e}"));
    let report = eval::run(&pages, Algorithm::Auto, 2, false);
    eprint!("{}", eval::format(&report, "wcxb-dev"));
    assert!(
        report.all.f1 >= WCXB_FLOOR,
        "F1 {:.4} < floor {WCXB_FLOOR}",
        report.all.f1
    );
    for &(kind, floor) in WCXB_TYPE_FLOORS {
        let f1 = report.by_kind.get(kind).map_or(0.0, |r| r.f1);
        assert!(f1 >= floor, "{kind} F1 {f1:.4} < {floor}");
    }
}

#[test]
fn quality_floor_cleaneval() {
    let Some(dir) = dataset("cleaneval") else {
        return;
    };
    let pages = eval::load(&dir, None).unwrap_or_else(|e| panic!("{e}"));
    let report = eval::run(&pages, Algorithm::Auto, 2, false);
    assert!(
        report.all.f1 >= CLEANEVAL_FLOOR,
        "F1 {:.4} < floor {CLEANEVAL_FLOOR}",
        report.all.f1
    );
}

/// Template learning on swde-book: learned from the first 4 pages, applied to
/// the other 1,996 (docs/BENCHMARKS.md has the whole curve).
#[test]
fn swde_template_floor() {
    let Some(dir) = dataset("swde-book") else {
        return;
    };
    let d = trawl::eval::swde::load(&dir, None).unwrap_or_else(|e| panic!("{e}"));
    let run = trawl::eval::swde::run(&d, 4, trawl::template::Learning::Trawl);
    assert!(run.error.is_none(), "{:?}", run.error);
    assert!(run.coverage >= 1.0, "coverage {:.3}", run.coverage);
    for f in &run.fields {
        assert!(f.f1 >= 0.999, "{}: {:.3}", f.field, f.f1);
    }
}
