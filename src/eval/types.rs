//! Training and measuring the page-type model on a labelled dataset
//! (`trawl eval --dataset wcxb-dev --train-types crates/trawl-extract/models/page_type.json`):
//! k-fold cross-validation first (the accuracy and confusion matrix reported
//! are on held-out pages), then a final fit on every page, written as JSON.

use rayon::prelude::*;

use super::dataset::Loaded;
use trawl_extract::{train_page_types, Options, Page, PageType, TypeReport, TypeSample};

/// Page type names, in the model's class order.
pub const CLASSES: [&str; 7] = [
    "article",
    "forum",
    "product",
    "collection",
    "listing",
    "documentation",
    "service",
];

/// Parses every labelled page (in parallel), cross-validates, and fits.
pub fn train(pages: &[Loaded]) -> TypeReport {
    let samples: Vec<TypeSample> = pages
        .par_iter()
        .filter_map(|p| {
            let label = PageType::parse(&p.case.kind)?;
            let bytes = p.bytes.as_ref().ok()?;
            let page = Page::parse(bytes, &Options::default()).ok()?;
            Some(TypeSample::new(
                &p.case.id,
                &page,
                p.case.url.as_deref(),
                label,
            ))
        })
        .collect();
    train_page_types(&samples)
}

/// The confusion matrix as a table.
pub fn format(r: &TypeReport) -> String {
    let mut s = format!(
        "page types, 5-fold cross-validated: accuracy {:.3} (hand-written rules: {:.3})\n{:<14}",
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
