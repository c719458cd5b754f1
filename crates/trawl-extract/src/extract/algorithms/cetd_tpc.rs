//! Paper 000, CETD-TPC (Liu, Hu, Wu 2018): text block density × content tag
//! path coverage.
//!
//! For every element v: `TBD(v) = Σ_children (CN − LCN + 1) / (TN − LTN + 1)`.
//! For every tag path p: `TPR(p)` = mean characters of the text nodes on p.
//! Text nodes whose path has `TPR > τ` are content nodes; their paths are
//! `cntPaths`. `CTPC(blk)` = share of all content-path text nodes that lie in
//! blk. The block maximising `TBD × CTPC` is the content; its text is output.
//!
//! τ: the paper takes CEPR's empirical threshold, which is `λ·σ` with σ the
//! standard deviation of the per-node TPR values. λ = [`LAMBDA`] was chosen on
//! wcxb-dev: F1 0.783 / 0.784 / 0.790 / 0.796 / 0.794 / 0.795 for
//! λ = 0 / 0.3 / 0.5 / 0.8 / 1.0 / 1.2 (cleaneval: 0.890 … 0.884, flat). The paper's O(m²) loop is done here in
//! O(m) with one reverse pass over the flat tree.

use super::Extractor;
use crate::html::{Agg, Doc, Kind, NodeId, Selection};

/// CEPR's λ in τ = λ·σ.
pub(crate) const LAMBDA: f64 = 0.8;

pub(crate) struct CetdTpc;

/// The scores of one page, exposed so `auto` can reuse them.
pub(crate) struct Scores {
    /// TDTPC per node (0 for text nodes and nodes outside the body).
    pub tdtpc: Vec<f64>,
}

/// Text block density of `v` under the given subtree aggregates.
pub(crate) fn tbd(doc: &Doc, agg: &[Agg], v: NodeId) -> f64 {
    doc.children(v)
        .map(|c| {
            let a = agg[c as usize];
            f64::from(a.chars - a.link_chars + 1) / f64::from(a.tags - a.links + 1)
        })
        .sum()
}

/// Scores every block. `agg` are the subtree aggregates to use (the page's
/// own, or ones with noise removed) and `skip` marks nodes to ignore.
pub(crate) fn scores(doc: &Doc, agg: &[Agg], skip: Option<&[bool]>, lambda: f64) -> Scores {
    let n = doc.len();
    let skipped = |i: usize| skip.is_some_and(|s| s[i]);
    let paths = doc.path_count() as usize;
    // TPR per path.
    let mut sum = vec![0f64; paths];
    let mut count = vec![0u32; paths];
    for (i, node) in doc.nodes.iter().enumerate() {
        if node.kind == Kind::Text && node.chars > 0 && !skipped(i) {
            sum[node.path as usize] += f64::from(node.chars);
            count[node.path as usize] += 1;
        }
    }
    let tpr: Vec<f64> = sum
        .iter()
        .zip(&count)
        .map(|(s, &c)| if c > 0 { s / f64::from(c) } else { 0.0 })
        .collect();
    // σ over the text nodes' TPR values.
    let values: Vec<f64> = doc
        .nodes
        .iter()
        .enumerate()
        .filter(|&(i, nd)| nd.kind == Kind::Text && nd.chars > 0 && !skipped(i))
        .map(|(_, nd)| tpr[nd.path as usize])
        .collect();
    let tau = lambda * std_dev(&values);
    let content_node: Vec<bool> = doc
        .nodes
        .iter()
        .enumerate()
        .map(|(i, nd)| {
            nd.kind == Kind::Text && nd.chars > 0 && !skipped(i) && tpr[nd.path as usize] > tau
        })
        .collect();
    // Content nodes per subtree.
    let mut covered = vec![0u32; n];
    for i in (0..n).rev() {
        if content_node[i] {
            covered[i] += 1;
        }
        let p = doc.nodes[i].parent;
        if p != u32::MAX {
            covered[p as usize] += covered[i];
        }
    }
    let total = covered.first().copied().unwrap_or(0).max(1);
    let body = doc.body();
    let end = doc.nodes[body as usize].end;
    let mut tdtpc = vec![0f64; n];
    for v in body..end {
        if doc.is_element(v) && covered[v as usize] > 0 && !skipped(v as usize) {
            let ctpc = f64::from(covered[v as usize]) / f64::from(total);
            tdtpc[v as usize] = tbd(doc, agg, v) * ctpc;
        }
    }
    Scores { tdtpc }
}

pub(crate) fn std_dev(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt()
}

/// The argmax block, first in document order on ties.
pub(crate) fn best_block(scores: &Scores) -> Option<NodeId> {
    let mut best: Option<(NodeId, f64)> = None;
    for (i, &s) in scores.tdtpc.iter().enumerate() {
        if s > 0.0 && best.is_none_or(|(_, b)| s > b) {
            best = Some((i as NodeId, s));
        }
    }
    best.map(|(i, _)| i)
}

impl Extractor for CetdTpc {
    fn name(&self) -> &'static str {
        "cetd-tpc"
    }

    fn select(&self, doc: &Doc) -> Selection {
        let s = scores(doc, &doc.agg, None, LAMBDA);
        match best_block(&s) {
            Some(b) => Selection::subtree(doc, b),
            None => Selection::subtree(doc, doc.body()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    #[test]
    fn picks_the_dense_block_over_navigation() {
        let html = format!(
            "<body><div id=nav>{}</div><div id=main><h1>Title</h1>{}</div><div id=foot>(c) 2024 Company</div></body>",
            "<a href=/x>Home link</a> ".repeat(12),
            "<p>This is a long paragraph of article text that carries the content of the page.</p>".repeat(6)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &CetdTpc.select(&doc));
        assert!(text.contains("long paragraph"));
        assert!(!text.contains("Home link"));
        assert!(!text.contains("Company"));
    }
}
