//! Invariants of every algorithm on every page of the development datasets
//! (../shared/datasets; skipped with a message when absent): no panic, no
//! script or style text in the output, every output word in the page's
//! visible text. Unit tests, because they compare against the DOM itself.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::extract::{extract_doc, Algorithm};
use crate::html::{charset, render, Doc, Limits, Selection};
use crate::input::read_input;

/// A dataset page: id, file, URL.
struct Case {
    id: String,
    html: PathBuf,
    url: Option<String>,
}

fn dataset(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/datasets")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        let why = format!(
            "{} not found; dataset tests need ../shared/datasets",
            dir.display()
        );
        // CI sets TRAWL_REQUIRE_ALL=1: a missing dataset fails there.
        assert!(
            std::env::var("TRAWL_REQUIRE_ALL").as_deref() != Ok("1"),
            "TRAWL_REQUIRE_ALL=1 and a prerequisite is missing: {why}"
        );
        eprintln!("SKIP: {why}");
        None
    }
}

/// Every page of a dataset (wcxb: html/ID.html.gz with the URL in
/// ground-truth/ID.json; cleaneval: html/ID.html with `URL:` atop gold/ID.txt).
fn pages(dir: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("html"))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|html| {
            let name = html.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let id = name.split('.').next().unwrap_or(name).to_string();
            let json = std::fs::read_to_string(dir.join("ground-truth").join(format!("{id}.json")));
            let gold = std::fs::read_to_string(dir.join("gold").join(format!("{id}.txt")));
            let url = match (json, gold) {
                (Ok(j), _) => serde_json::from_str::<serde_json::Value>(&j)
                    .ok()
                    .and_then(|v| v.get("url").and_then(|u| u.as_str()).map(str::to_string)),
                (_, Ok(g)) => g
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("URL:"))
                    .map(|u| u.trim().to_string()),
                _ => None,
            };
            Case { id, html, url }
        })
        .collect()
}

/// WCXB's tokens: `\w+` runs of the lower-cased text.
fn tokens(text: &str) -> Vec<String> {
    static WORD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let word = WORD.get_or_init(|| regex::Regex::new(r"\w+").unwrap_or_else(|e| panic!("{e}")));
    let lower = text.to_lowercase();
    word.find_iter(&lower)
        .map(|m| m.as_str().to_string())
        .collect()
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
    let pages = pages(&dir);
    let failures: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<_> = pages
            .chunks(pages.len().div_ceil(2).max(1))
            .map(|chunk| s.spawn(move || chunk.iter().flat_map(check_page).collect::<Vec<_>>()))
            .collect();
        chunks
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec!["a worker panicked".into()])
            })
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The invariants on one page.
fn check_page(page: &Case) -> Vec<String> {
    let mut bad = Vec::new();
    let Ok(bytes) = read_input(&page.html.to_string_lossy(), 1 << 28) else {
        return bad;
    };
    let Ok(decoded) = charset::decode(&bytes, None, None) else {
        return bad;
    };
    let Ok(doc) = Doc::parse(&decoded.text, &Limits::default()) else {
        return bad;
    };
    // Words of the rendered page, and of each text node on its own
    // (adjacent inline elements glue into one word when rendered whole).
    let mut visible: HashSet<String> = tokens(&render(&doc, &Selection::subtree(&doc, 0)))
        .into_iter()
        .collect();
    for i in 0..doc.len() as u32 {
        if !doc.is_element(i) {
            visible.extend(tokens(doc.text(i)));
        }
    }
    // A thin product text may carry the page's JSON-LD description
    // (the seller's own text, not visible without scripts).
    if let Some(d) = crate::extract::metadata::collect(&doc).product_description {
        visible.extend(tokens(&d));
    }
    let scripts = script_lines(&decoded.text);
    for algorithm in Algorithm::ALL {
        let rec = extract_doc(&doc, page.url.as_deref(), algorithm, None, None, Some(true));
        let tokens = tokens(&rec.text);
        let foreign = tokens.iter().filter(|t| !visible.contains(*t)).count();
        // A selection may start or end inside an inline run ("foo<b>bar</b>"
        // rendered alone as "bar"); allow that at block edges only.
        if foreign > 2 + tokens.len() / 200 {
            bad.push(format!(
                "{} {algorithm:?}: {foreign} words not in the visible text",
                page.id
            ));
        }
        if let Some(line) = scripts.iter().find(|l| rec.text.contains(l.as_str())) {
            bad.push(format!(
                "{} {algorithm:?}: script text {:?}",
                page.id,
                &line[..60]
            ));
        }
    }
    bad
}

#[test]
fn invariants_on_wcxb_dev() {
    check_invariants("wcxb-dev");
}

#[test]
fn invariants_on_cleaneval() {
    check_invariants("cleaneval");
}
