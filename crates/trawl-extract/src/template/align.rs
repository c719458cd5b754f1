//! Aligning pages of one site node by node, and finding what varies.
//!
//! Paper 003 compares n product pages of a site with the first one and
//! prunes every leaf whose text and attributes are the same in the others;
//! what is left is the page-specific part. Here a node is known across pages
//! by its *key*: the path of (tag, stable id and classes, ordinal among
//! same-looking siblings) from the root. Ids and classes containing digits
//! are left out of keys (generated ids, `item-4711`), so they do not break
//! the alignment. A leaf is *static* when one text is shared by a majority
//! of the pages that have it (one odd page does not spoil that), and
//! *variable* otherwise; only leaves present in a majority of pages count.
//! A labelled row's value (its key names the row's label: `li{Series:}[0]`)
//! is the exception both ways: the label says what it is, so a row on two
//! samples counts (shops leave optional rows out), and it is static only
//! when every sample that has it shows one text (three books of four in
//! paperback do not make "Format:" fixed).
//!
//! The paper then prunes by link and text relevance (after Wang et al.'s
//! STU-DOM: a block's links against its text). Its exact formulas are not in
//! the paper, so here: a leaf's *local* relevance is the text length of its
//! block (nearest non-inline ancestor) per link in that block plus one, and
//! its *context* relevance the same over the block's parent. A variable leaf
//! is kept if local ≥ 2 and context ≥ 10 (the paper's thresholds) or its
//! text is at least [`LONG_TEXT`] characters.

use std::collections::HashMap;

use crate::html::leaves::Leaf;

/// Texts at least this long are kept whatever their relevance.
pub(crate) const LONG_TEXT: usize = 200;
pub(crate) const LOCAL_MIN: f32 = 2.0;
pub(crate) const CONTEXT_MIN: f32 = 10.0;

/// Result of comparing sample pages.
#[derive(Debug, Clone, Default)]
pub(crate) struct Diff {
    /// Keys of variable leaves, in the first page's order.
    pub variable: Vec<String>,
    /// Of those, the keys kept by the relevance pruning.
    pub kept: Vec<String>,
    /// Leaves of the first page.
    pub total: usize,
    /// Keys of static leaves (the template's fixed part), for matching
    /// later pages against the template.
    pub fixed: Vec<String>,
}

/// How many sample pages must agree for a leaf to be static.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agreement {
    /// Paper 003 as written: a leaf of the first page is static when every
    /// other page has it with the same text; leaves the first page lacks
    /// are ignored.
    All,
    /// A majority of the pages (one odd page does not spoil a leaf), over
    /// the leaves of every page.
    Majority,
}

/// Compares the leaves of several pages of one template (majority rule).
pub(crate) fn diff(pages: &[Vec<Leaf>]) -> Diff {
    diff_with(pages, Agreement::Majority)
}

/// Compares the leaves of several pages of one template.
pub(crate) fn diff_with(pages: &[Vec<Leaf>], agreement: Agreement) -> Diff {
    let n = pages.len();
    let majority = match agreement {
        Agreement::All => n,
        Agreement::Majority => n / 2 + 1,
    };
    let mut texts: HashMap<&str, Vec<&str>> = HashMap::new();
    for p in pages {
        for l in p {
            texts.entry(&l.key).or_default().push(&l.text);
        }
    }
    let Some(first) = pages.first() else {
        return Diff::default();
    };
    let mut d = Diff {
        total: first.len(),
        ..Diff::default()
    };
    // Keys in order: the first page's, then keys the first page lacks.
    let mut order: Vec<&Leaf> = first.iter().collect();
    for p in pages[1..]
        .iter()
        .filter(|_| agreement == Agreement::Majority)
    {
        for l in p {
            if !first.iter().any(|f| f.key == l.key) && !order.iter().any(|o| o.key == l.key) {
                order.push(l);
            }
        }
    }
    for leaf in order {
        let Some(values) = texts.get(leaf.key.as_str()) else {
            continue;
        };
        let row_value = agreement == Agreement::Majority && is_row_value(leaf);
        let present = if row_value { 2.min(majority) } else { majority };
        if agreement == Agreement::Majority && values.len() < present.min(n).max(1) {
            continue;
        }
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for v in values {
            *counts.entry(v).or_default() += 1;
        }
        let top = counts.values().copied().max().unwrap_or(0);
        let fixed = if row_value {
            counts.len() == 1 && values.len() >= majority
        } else {
            top >= majority
        };
        if n > 1 && fixed {
            d.fixed.push(leaf.key.clone());
            continue;
        }
        d.variable.push(leaf.key.clone());
        // Relevance over the pages that have it: kept if any keeps it.
        let keep = pages
            .iter()
            .flatten()
            .filter(|l| l.key == leaf.key)
            .any(|l| {
                l.text.chars().count() >= LONG_TEXT
                    || (l.local >= LOCAL_MIN && l.context >= CONTEXT_MIN)
            });
        if keep {
            d.kept.push(leaf.key.clone());
        }
    }
    d
}

/// Whether a leaf is the value of a row keyed by its label (not the label).
fn is_row_value(leaf: &Leaf) -> bool {
    leaf.block
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains('{'))
        && leaf.label.is_some()
        && leaf.label.as_deref() != Some(leaf.text.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::leaves::leaves;
    use crate::html::Doc;

    fn page(title: &str, isbn: &str, id: u32) -> Vec<Leaf> {
        let html = format!(
            "<html><body><div id=nav><a href=/>Home</a> <a href=/b>Books</a></div>\
             <div class=product id=p{id}><h1>{title}</h1><ul class=details>\
             <li><strong>ISBN-13</strong>: {isbn}</li><li><strong>Pages</strong>: 200</li></ul></div>\
             <footer>Copyright shop</footer></body></html>"
        );
        leaves(&Doc::parse_str(&html))
    }

    #[test]
    fn keys_ignore_generated_ids_and_labels_are_found() {
        let a = page("One", "978000000001", 17);
        let b = page("Two", "978000000002", 4711);
        let keys = |p: &[Leaf]| p.iter().map(|l| l.key.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&a), keys(&b));
        let isbn = a
            .iter()
            .find(|l| l.text.contains("978"))
            .expect("isbn leaf");
        assert_eq!(isbn.label.as_deref(), Some("ISBN-13"));
    }

    #[test]
    fn labelled_rows_are_keyed_by_label_not_position() {
        let rows = |extra: &str| {
            let html = format!(
                "<html><body><ul class=info>{extra}<li><b>ISBN-13:</b> 978</li>\
                 <li><b>Note:</b> a</li><li><b>Note:</b> b</li><li>plain line</li></ul></body></html>"
            );
            leaves(&Doc::parse_str(&html))
        };
        let (a, b) = (rows(""), rows("<li><b>Series:</b> Dune</li>"));
        let key = |p: &[Leaf], text: &str| {
            p.iter()
                .find(|l| l.text == text)
                .map(|l| l.key.clone())
                .unwrap_or_default()
        };
        assert_eq!(key(&a, "978"), key(&b, "978"));
        assert!(
            key(&a, "978").contains("li{ISBN-13:}[0]"),
            "{}",
            key(&a, "978")
        );
        assert!(key(&a, "b").contains("li{Note:}[1]"), "{}", key(&a, "b"));
        // An unlabelled row keeps its position.
        assert!(
            key(&a, "plain line").contains("/li[3]/"),
            "{}",
            key(&a, "plain line")
        );
        let isbn = a.iter().find(|l| l.text == "978").map(|l| l.block.clone());
        assert!(isbn.is_some_and(|b| b.ends_with("li{ISBN-13:}[0]")));
    }

    #[test]
    fn the_diff_keeps_what_varies_by_majority() {
        let mut pages = vec![
            page("One", "9780000000011", 1),
            page("Two", "9780000000028", 2),
            page("Three", "9780000000035", 3),
            page("Four", "9780000000042", 4),
        ];
        // One odd page with a different page count does not make it variable.
        if let Some(l) = pages[3].iter_mut().find(|l| l.text == ": 200") {
            l.text = ": 300".into();
        }
        let d = diff(&pages);
        let texts: Vec<&str> = pages[0]
            .iter()
            .filter(|l| d.variable.contains(&l.key))
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(texts, ["One", ": 9780000000011"]);
        assert_eq!(d.total, 8);
    }

    #[test]
    fn labelled_rows_count_on_two_samples_and_vary_when_any_value_differs() {
        let page = |title: &str, format: &str, series: Option<&str>| {
            let series = series.map_or(String::new(), |s| format!("<li><b>Series:</b> {s}</li>"));
            let html = format!(
                "<html><body><div class=product><h1>{title}</h1><ul class=info>\
                 <li><b>Format:</b> {format}</li>{series}<li><b>Shipping:</b> Free</li></ul></div></body></html>"
            );
            leaves(&Doc::parse_str(&html))
        };
        let pages = vec![
            page("One", "Paperback", Some("Dune")),
            page("Two", "Paperback", None),
            page("Three", "Hardcover", Some("Foundation")),
            page("Four", "Paperback", None),
        ];
        let d = diff(&pages);
        let varies = |text: &str| {
            pages
                .iter()
                .flatten()
                .find(|l| l.text.trim() == text)
                .is_some_and(|l| d.variable.contains(&l.key))
        };
        // On 2 of 4 samples, and labelled: a hole.
        assert!(varies("Dune"), "{:?}", d.variable);
        // Three paperbacks of four: still a hole.
        assert!(varies("Paperback"), "{:?}", d.variable);
        // One text on every sample: the fixed part.
        assert!(!varies("Free"), "{:?}", d.variable);
        // Unlabelled leaves still need a majority of one text to be fixed.
        assert!(varies("One"));
    }
}
