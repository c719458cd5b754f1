//! Training and measuring the page-type model on labelled pages: k-fold
//! cross-validation first (the accuracy and confusion matrix reported are on
//! held-out pages), then a final fit on every page. `trawl eval
//! --train-types` drives it and writes the model the crate ships.

use std::collections::HashMap;

use crate::extract::metadata;
use crate::extract::typing::classify::{classify_rules, PageType, LIST_CONFIDENCE};
use crate::extract::typing::page_model::{features, Model};
use crate::page::Page;

const FOLDS: usize = 5;
const L2: f64 = 0.01;
const EPOCHS: usize = 400;

/// One labelled page, reduced to what training needs. Building samples
/// parses pages, so callers may build them in parallel.
#[derive(Clone, Debug)]
pub struct TypeSample {
    id: String,
    label: PageType,
    features: Vec<f64>,
    rule: PageType,
}

impl TypeSample {
    /// A page with its true type; `id` names it in [`TypeReport::held_out`].
    pub fn new(id: &str, page: &Page, url: Option<&str>, label: PageType) -> TypeSample {
        let doc = page.doc();
        let meta = metadata::collect(doc);
        TypeSample {
            id: id.to_string(),
            label,
            rule: classify_rules(doc, url, &meta),
            features: features(doc, url, &meta),
        }
    }
}

/// Cross-validated results, and the model fitted on every page.
pub struct TypeReport {
    /// Accuracy on held-out pages.
    pub accuracy: f64,
    /// `confusion[truth][predicted]`, in [`PageType::ALL`] order.
    pub confusion: [[usize; 7]; 7],
    /// Accuracy of the hand-written rules on the same pages, for comparison.
    pub rules_accuracy: f64,
    /// Each page's type as predicted by the fold that did not train on it.
    pub held_out: HashMap<String, PageType>,
    model: Model,
}

impl TypeReport {
    /// The fitted model as JSON (the format of `models/page_type.json`).
    pub fn model_json(&self) -> String {
        serde_json::to_string(&self.model).unwrap_or_default()
    }
}

fn class_of(t: PageType) -> usize {
    PageType::ALL.iter().position(|c| *c == t).unwrap_or(0)
}

/// Cross-validates the page-type model on `samples` (fold = index mod 5),
/// then fits it on all of them.
pub fn train_page_types(samples: &[TypeSample]) -> TypeReport {
    let names: Vec<&str> = PageType::ALL.iter().map(|t| t.name()).collect();
    let mut confusion = [[0usize; 7]; 7];
    let mut held_out = HashMap::new();
    for fold in 0..FOLDS {
        let (train, test): (Vec<_>, Vec<_>) = samples
            .iter()
            .enumerate()
            .partition(|(i, _)| i % FOLDS != fold);
        let xs: Vec<Vec<f64>> = train.iter().map(|(_, s)| s.features.clone()).collect();
        let ys: Vec<usize> = train.iter().map(|(_, s)| class_of(s.label)).collect();
        let m = Model::train(&xs, &ys, &names, L2, EPOCHS);
        for (_, s) in test {
            let p = m.classify_cautious(&s.features, LIST_CONFIDENCE);
            held_out.insert(s.id.clone(), p);
            confusion[class_of(s.label)][class_of(p)] += 1;
        }
    }
    let correct: usize = (0..7).map(|i| confusion[i][i]).sum();
    let total: usize = confusion.iter().flatten().sum();
    let xs: Vec<Vec<f64>> = samples.iter().map(|s| s.features.clone()).collect();
    let ys: Vec<usize> = samples.iter().map(|s| class_of(s.label)).collect();
    let rules_ok = samples.iter().filter(|s| s.rule == s.label).count();
    TypeReport {
        accuracy: correct as f64 / total.max(1) as f64,
        confusion,
        model: Model::train(&xs, &ys, &names, L2, EPOCHS),
        rules_accuracy: rules_ok as f64 / samples.len().max(1) as f64,
        held_out,
    }
}
