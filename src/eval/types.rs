//! Training and measuring the page-type model on a labelled dataset
//! (`trawl eval --dataset wcxb-dev --train-types models/page_type.json`):
//! k-fold cross-validation first (the accuracy and confusion matrix reported
//! are on held-out pages), then a final fit on every page, written as JSON.

use rayon::prelude::*;

use super::Loaded;
use crate::extract::classify::PageType;
use crate::extract::metadata;
use crate::extract::page_model::{features, Model};
use crate::html::{charset, Doc, Limits};

pub const CLASSES: [&str; 7] = [
    "article",
    "forum",
    "product",
    "collection",
    "listing",
    "documentation",
    "service",
];
const FOLDS: usize = 5;
const L2: f64 = 0.01;
const EPOCHS: usize = 400;

/// Cross-validated results.
pub struct TypeReport {
    pub accuracy: f64,
    /// confusion[truth][predicted]
    pub confusion: [[usize; 7]; 7],
    pub model: Model,
    /// Accuracy of the hand-written rules on the same pages, for comparison.
    pub rules_accuracy: f64,
    /// Each page's type as predicted by the fold that did not train on it.
    pub held_out: std::collections::HashMap<String, PageType>,
}

fn class_of(kind: &str) -> Option<usize> {
    let t = PageType::parse(kind)?;
    CLASSES.iter().position(|c| *c == t.name())
}

/// Computes features for every labelled page, cross-validates, and fits.
pub fn train(pages: &[Loaded]) -> TypeReport {
    let rows: Vec<(Vec<f64>, usize, usize, String)> = pages
        .par_iter()
        .filter_map(|p| {
            let y = class_of(&p.case.kind)?;
            let bytes = p.bytes.as_ref().ok()?;
            let text = charset::decode(bytes, None, None).ok()?.text;
            let doc = Doc::parse(&text, &Limits::default()).ok()?;
            let meta = metadata::collect(&doc);
            let rule = crate::extract::classify::classify_rules(&doc, p.case.url.as_deref(), &meta);
            let rule_ok = usize::from(rule.name() == CLASSES[y]);
            Some((
                features(&doc, p.case.url.as_deref(), &meta),
                y,
                rule_ok,
                p.case.id.clone(),
            ))
        })
        .collect();
    let mut confusion = [[0usize; 7]; 7];
    let mut held_out = std::collections::HashMap::new();
    for fold in 0..FOLDS {
        let (train, test): (Vec<_>, Vec<_>) = rows
            .iter()
            .enumerate()
            .partition(|(i, _)| i % FOLDS != fold);
        let xs: Vec<Vec<f64>> = train.iter().map(|(_, r)| r.0.clone()).collect();
        let ys: Vec<usize> = train.iter().map(|(_, r)| r.1).collect();
        let m = Model::train(&xs, &ys, &CLASSES, L2, EPOCHS);
        for (_, (x, y, _, id)) in test {
            let p = m.classify_cautious(x, crate::extract::classify::LIST_CONFIDENCE);
            held_out.insert(id.clone(), p);
            if let Some(pi) = CLASSES.iter().position(|c| *c == p.name()) {
                confusion[*y][pi] += 1;
            }
        }
    }
    let correct: usize = (0..7).map(|i| confusion[i][i]).sum();
    let total: usize = confusion.iter().flatten().sum();
    let xs: Vec<Vec<f64>> = rows.iter().map(|r| r.0.clone()).collect();
    let ys: Vec<usize> = rows.iter().map(|r| r.1).collect();
    TypeReport {
        accuracy: correct as f64 / total.max(1) as f64,
        confusion,
        model: Model::train(&xs, &ys, &CLASSES, L2, EPOCHS),
        rules_accuracy: rows.iter().map(|r| r.2).sum::<usize>() as f64 / rows.len().max(1) as f64,
        held_out,
    }
}

/// The confusion matrix as a table.
pub fn format(r: &TypeReport) -> String {
    let mut s = format!(
        "page types, {FOLDS}-fold cross-validated: accuracy {:.3} (hand-written rules: {:.3})\n{:<14}",
        r.accuracy, r.rules_accuracy, "truth \\ pred"
    );
    for c in CLASSES {
        s.push_str(&format!("{:>8}", &c[..c.len().min(7)]));
    }
    s.push('\n');
    for (i, c) in CLASSES.iter().enumerate() {
        s.push_str(&format!("{c:<14}"));
        for v in r.confusion[i] {
            s.push_str(&format!("{v:>8}"));
        }
        s.push('\n');
    }
    s
}
