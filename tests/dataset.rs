//! Quality floors on the development datasets in ../shared/datasets, measured
//! by the `trawl eval` command itself. They skip, with a message, when the
//! datasets are absent (a fresh clone has no ../shared). The floors are
//! deterministic, so they sit just under the measured F1 and are raised as
//! trawl improves (docs/BENCHMARKS.md). The extractors' invariants on the
//! same pages are unit tests of trawl-extract (`extract::invariants`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dataset(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        let why = format!(
            "{} not found; dataset tests need ../shared/datasets",
            dir.display()
        );
        // TRAWL_REQUIRE_ALL=1 (set by .ci/run): a missing dataset fails.
        if std::env::var("TRAWL_REQUIRE_ALL").is_ok_and(|v| v == "1") {
            panic!("TRAWL_REQUIRE_ALL=1 and a prerequisite is missing: {why}");
        }
        eprintln!("SKIP: {why}");
        None
    }
}

/// Runs `trawl eval` and returns its stdout.
fn eval(dir: &Path, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(["eval", "-j", "2", "--dataset"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("run trawl eval: {e}"));
    assert!(
        out.status.success(),
        "trawl eval: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// F1 per row of the eval table (`type n F1 P R`).
fn f1_by_type(table: &str) -> HashMap<String, f64> {
    table
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            match cells.as_slice() {
                [kind, n, f1, _, _] if n.parse::<usize>().is_ok() => {
                    Some((kind.to_string(), f1.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

/// The F1 `auto` must not fall below (measured value, rounded down), overall
/// and per page type. Raised with each measured improvement (history in
/// docs/BENCHMARKS.md): wcxb-dev 0.833 -> 0.875 with the per-type work; cleaneval
/// 0.921 -> 0.919 when repeated blocks went (its gold keeps articles a page
/// shows twice; wcxb-dev gains 0.003); 0.920 when threads, listings and manual
/// pages end where their main text does (twentieth session); wcxb-dev 0.880 with
/// button labels and control labels out, twenty-first (listing printed 0.747 but
/// measured 0.7467 then: a shop's filter labels its truth keeps went); 0.881 with
/// lists of links to other sites kept (fiftieth). Forum 0.821 -> 0.8195 when a
/// code block's lines stopped being dropped as repeats (sixty-first: 0503's
/// truth shortens a log the page prints 14 times; StackOverflow 4310 gains).
const WCXB_FLOOR: f64 = 0.881;
const WCXB_TYPE_FLOORS: &[(&str, f64)] = &[
    ("article", 0.956),
    ("forum", 0.8195),
    ("product", 0.722),
    ("collection", 0.714),
    ("listing", 0.746),
    ("documentation", 0.921),
    ("service", 0.840),
];
const CLEANEVAL_FLOOR: f64 = 0.920;
/// trafilatura's snippet F1 on its own benchmark (0.900 when added, 0.914 after the eighth
/// session's rules, 0.920 with the article tail trimmed in the thirteenth, 0.922 with
/// blocks holding most of <main> kept in the fourteenth, 0.923 with titled teaser cards
/// and disclaimers in the fifteenth, 0.925 with the page's own articleBody / headline
/// <article> ending the story and date lines in the sixteenth, 0.926 with the headline's
/// block and galleries' captions kept in the seventeenth, 0.928 with the body a
/// content-management system names ending the story in the twentieth, 0.929 with
/// the element holding 85% of the story ending it when nothing is named, 0.931 with
/// labelled link lines, 0.935 with pictures' captions, button and control labels,
/// PHP warnings and the headline under a removed kicker out, twenty-first).
const TRAFILATURA_EVAL_FLOOR: f64 = 0.935;
/// multilingual-dev: zh character F1 and word F1 per language (added in issue 14;
/// zh char 0.895 -> 0.899 with the data table after an article, 0.900 with footers
/// named "foot"/"ft", fourteenth session; hr 0.962 -> 0.968 with disclaimers kept out
/// of an article's recovery, seventeenth; de 0.873 -> 0.876 and hr 0.968 -> 0.969 with
/// written date lines at an article's head, eighteenth; zh char 0.902 and zh 0.876
/// with the element holding 85% of an article ending it, twentieth; zh char 0.903
/// and hr 0.971 with the headline under a removed kicker out, hr 0.976 with named
/// standfirsts the story repeats out, twenty-first).
const ZH_CHAR_FLOOR: f64 = 0.903;
const LANGUAGE_FLOORS: &[(&str, f64)] = &[("zh", 0.876), ("de", 0.876), ("hr", 0.976)];

#[test]
fn quality_floor_wcxb_dev() {
    let Some(dir) = dataset("wcxb-dev") else {
        return;
    };
    let table = eval(&dir, &[]);
    eprint!("{table}");
    let f1 = f1_by_type(&table);
    let all = f1.get("all").copied().unwrap_or(0.0);
    assert!(all >= WCXB_FLOOR, "F1 {all:.4} < floor {WCXB_FLOOR}");
    for &(kind, floor) in WCXB_TYPE_FLOORS {
        let v = f1.get(kind).copied().unwrap_or(0.0);
        assert!(v >= floor, "{kind} F1 {v:.4} < {floor}");
    }
}

#[test]
fn quality_floor_cleaneval() {
    let Some(dir) = dataset("cleaneval") else {
        return;
    };
    let f1 = f1_by_type(&eval(&dir, &[]));
    let all = f1.get("all").copied().unwrap_or(0.0);
    assert!(
        all >= CLEANEVAL_FLOOR,
        "F1 {all:.4} < floor {CLEANEVAL_FLOOR}"
    );
}

#[test]
fn quality_floor_trafilatura_eval() {
    let Some(dir) = dataset("trafilatura-eval") else {
        return;
    };
    let out = eval(&dir, &[]);
    // "P R acc F1 tp fp fn tn", then the numbers.
    let f1: f64 = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("P "))
        .nth(1)
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no snippet line in:\n{out}"));
    assert!(
        f1 >= TRAFILATURA_EVAL_FLOOR,
        "snippet F1 {f1:.4} < floor {TRAFILATURA_EVAL_FLOOR}\n{out}"
    );
}

#[test]
fn quality_floor_multilingual_dev() {
    let Some(dir) = dataset("multilingual-dev") else {
        return;
    };
    let out = eval(&dir, &[]);
    let (words, chars) = out
        .split_once("character-level")
        .unwrap_or_else(|| panic!("no character-level table in:\n{out}"));
    let words = f1_by_type(words);
    for &(lang, floor) in LANGUAGE_FLOORS {
        let v = words.get(lang).copied().unwrap_or(0.0);
        assert!(v >= floor, "{lang} word F1 {v:.4} < {floor}\n{out}");
    }
    let zh = f1_by_type(chars).get("zh").copied().unwrap_or(0.0);
    assert!(
        zh >= ZH_CHAR_FLOOR,
        "zh character F1 {zh:.4} < {ZH_CHAR_FLOOR}\n{out}"
    );
}

/// Template learning on swde-book: learned from the first 4 pages, applied to
/// the other 1,996 (docs/BENCHMARKS.md has the whole curve): every field
/// F1 1.000 and coverage 100% in trawl's learning.
#[test]
fn swde_template_floor() {
    let Some(dir) = dataset("swde-book") else {
        return;
    };
    let out = eval(&dir, &["--learn", "4"]);
    let trawl = out
        .split("trawl (")
        .nth(1)
        .unwrap_or_else(|| panic!("no trawl table in:\n{out}"));
    let row = trawl
        .lines()
        .find(|l| l.starts_with("| 4 |"))
        .unwrap_or_else(|| panic!("no n = 4 row in:\n{out}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    // | n | 5 fields P/R/F1 | mean F1 | pruning | coverage |
    for field in &cells[2..7] {
        let f1: f64 = field
            .rsplit('/')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0);
        assert!(f1 >= 0.999, "field {field} in {row}");
    }
    assert_eq!(cells[9], "100.0%", "coverage in {row}");
}

/// Single-page product fields on the labelled wcxb-dev product pages
/// (tests/data/products/wcxb-dev.jsonl): per-field F1 floors, and every
/// site fold above its own floor.
#[test]
fn product_fields_floor_wcxb_dev() {
    let Some(dir) = dataset("wcxb-dev") else {
        return;
    };
    let truth = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/products/wcxb-dev.jsonl");
    let out = eval(&dir, &["--products", &truth.to_string_lossy()]);
    // field, floor on the pooled F1, floor on the worst fold.
    let floors = [
        ("name", 0.950, 0.900),
        ("price", 0.955, 0.930),
        ("currency", 0.955, 0.930),
        ("sku", 0.950, 0.850),
    ];
    for (field, all, fold) in floors {
        let (f1, min) = product_row(&out, field);
        assert!(
            f1 >= all,
            "{field} F1 {f1:.3} under its floor {all}:\n{out}"
        );
        assert!(
            min >= fold,
            "{field} worst fold {min:.3} under {fold}:\n{out}"
        );
    }
}

/// The visible product reader on the self-labelled set (`eval
/// --products-shown`): pages whose markup states a price they show, read
/// with the markup ignored. Pooled F1 floors per field.
#[test]
fn shown_product_fields_floor_wcxb_dev() {
    let Some(dir) = dataset("wcxb-dev") else {
        return;
    };
    let out = eval(&dir, &["--products-shown"]);
    let floors = [
        ("name", 0.75),
        ("price", 0.85),
        ("currency", 0.99),
        ("availability", 0.77),
        ("sku", 0.79),
        ("mpn", 0.70),
        ("brand", 0.74),
    ];
    for (field, floor) in floors {
        let (f1, _) = product_row(&out, field);
        assert!(
            f1 >= floor,
            "{field} F1 {f1:.3} under its floor {floor}:\n{out}"
        );
    }
}

/// A field's pooled F1 and worst fold from a product report's row
/// (field, scored, P, R, F1, per-fold F1s…, min).
fn product_row(out: &str, field: &str) -> (f64, f64) {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some(field))
        .unwrap_or_else(|| panic!("no {field} row in:\n{out}"));
    let nums: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|w| w.parse().ok())
        .collect();
    (nums[3], nums[nums.len() - 1])
}

/// Template learning does not depend on which pages it learns from: five
/// seeded draws of 4 booksamillion pages, every field F1 ≥ 0.99 on the rest.
#[test]
fn swde_template_draws_floor() {
    let Some(dir) = dataset("swde-book") else {
        return;
    };
    let out = eval(&dir, &["--draws", "5"]);
    let min = out
        .lines()
        .find(|l| l.starts_with("| min"))
        .unwrap_or_else(|| panic!("no min row:\n{out}"));
    let values: Vec<f64> = min
        .split('|')
        .filter_map(|c| c.trim().trim_matches('*').parse().ok())
        .collect();
    assert_eq!(values.len(), 5, "{min}");
    assert!(values.iter().all(|&v| v >= 0.99), "{out}");
}

/// Metadata floors of `trawl eval --metadata` (exact match; dates the same
/// day; pages whose truth has the field; issue 41), measured in the
/// twenty-fifth session: dates wcxb-dev 0.854, trafilatura-eval 0.843,
/// multilingual-dev 0.679 (0.676, 0.637 and 0.107 before the dates a page
/// shows were read); titles wcxb-dev 0.751, trafilatura-eval 0.801 (0.500
/// and 0.626 before the headline was taken); authors wcxb-dev 0.790,
/// trafilatura-eval 0.657 (0.606 and 0.489 before bylines). Twenty-eighth
/// session: dates 0.882, 0.879, 0.661 (multilingual-dev's one loss is a
/// government notice whose truth is its signing day, 27 January, where it
/// shows and records its publication, the 28th); authors wcxb-dev 0.809,
/// multilingual-dev 0.500 (0.060 before Chinese credit lines were read).
/// Thirty-sixth (issue 60): dates 0.885, 0.882, 0.661. Forty-sixth: dates
/// 0.887, 0.902, 0.857 (the scorer reads multilingual-dev's truth dates as
/// written, `2005-5-7 21:23:57`: 0.804; then a date and its time under the
/// headline, a blog's founding day, a verb after the date). Forty-eighth:
/// dates trafilatura-eval 0.907; authors wcxb-dev 0.815, trafilatura-eval
/// 0.691 (links to the writer's page, labels with a colon, an author box's
/// name line, the site's name cut); titles wcxb-dev 0.770, trafilatura-eval
/// 0.808 (a title's shorter tail after a separator cut). Forty-ninth: dates
/// trafilatura-eval 0.912 (month names and labels of more languages, an
/// app's embedded publication, day-first URL segments), multilingual-dev
/// 0.875 (the text's language orders the day when none is declared);
/// authors multilingual-dev 0.540 ("文：", a bracketed report's credit),
/// trafilatura-eval 0.702, wcxb-dev 0.817 (an author named by `@id` in the
/// JSON-LD graph; a date or a handle after a byline's name cut).
/// Fifty-third: dates trafilatura-eval 0.916 (a date in the headline gives
/// way to the head's other date; a UTC publication on the day beside its
/// URL's goes by the URL's day).
const METADATA_FLOORS: &[(&str, &str, f64)] = &[
    ("wcxb-dev", "date", 0.880),
    ("wcxb-dev", "title", 0.765),
    ("wcxb-dev", "author", 0.81),
    ("trafilatura-eval", "date", 0.915),
    ("trafilatura-eval", "title", 0.80),
    ("trafilatura-eval", "author", 0.70),
    ("multilingual-dev", "date", 0.87),
    ("multilingual-dev", "author", 0.53),
];

#[test]
fn metadata_floors() {
    let mut tables = HashMap::new();
    for &(name, field, floor) in METADATA_FLOORS {
        let Some(dir) = dataset(name) else {
            return;
        };
        let table: &String = tables
            .entry(name)
            .or_insert_with(|| eval(&dir, &["--metadata"]));
        // "FIELD n exact contained missing extra", then "  all N rate …".
        let all = table
            .lines()
            .skip_while(|l| !l.starts_with(field))
            .find(|l| l.trim_start().starts_with("all "))
            .and_then(|l| l.split_whitespace().nth(2))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0);
        assert!(
            all >= floor,
            "{name}: {field} {all:.4} < floor {floor}\n{table}"
        );
    }
}

/// Markdown floors (issue 54): the conversion cases passed, and the
/// structure score and word F1 of the Markdown on wcxb-dev and CleanEval
/// (`trawl eval --structure`; figures in docs/BENCHMARKS.md).
#[test]
fn markdown_floors() {
    if let Some(dir) = dataset("markdown-cases") {
        let out = eval(&dir, &[]);
        for (file, floor) in [("turndown-cases.html", 136), ("gfm-cases.html", 16)] {
            let passed: usize = out
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{file}: ")))
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            assert!(
                passed >= floor,
                "{file}: {passed} pass, floor {floor}\n{out}"
            );
        }
    }
    // Row "all trawl n heading item cell code link image structure words text".
    let row = |out: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.starts_with("all ") && l.contains(" trawl "))
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    let num = |cells: &[String], i: usize| {
        cells
            .get(i)
            .and_then(|c| c.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    for (name, heading, structure, words) in [
        ("wcxb-dev", 0.645, 0.570, 0.88),
        ("cleaneval", 0.320, 0.320, 0.91),
    ] {
        let Some(dir) = dataset(name) else { continue };
        let cells = row(&eval(&dir, &["--structure"]));
        let (h, s, w, t) = (
            num(&cells, 3),
            num(&cells, 9),
            num(&cells, 10),
            num(&cells, 11),
        );
        assert!(
            h >= heading,
            "{name}: heading F1 {h} under {heading}: {cells:?}"
        );
        assert!(
            s >= structure,
            "{name}: structure {s} under {structure}: {cells:?}"
        );
        assert!(
            w >= words,
            "{name}: Markdown word F1 {w} under {words}: {cells:?}"
        );
        assert!(
            w >= t - 0.01,
            "{name}: Markdown words {w} more than 0.01 under text {t}"
        );
    }
}
