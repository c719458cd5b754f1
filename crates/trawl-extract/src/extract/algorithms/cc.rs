//! Paper 001, content correlativity with smoothing (Wang, Zhou, Li 2012),
//! written for Uyghur news and forum pages.
//!
//! Post-order per node i: `TA_i` non-link characters and `LA_i` link nodes in
//! the subtree; `CC_i = TA_i / max(LA_i, 1)`; content when `CC_i > C` (29).
//! Smoothing: a node below C becomes content when `CS_i > S` (57% of its
//! same-tag siblings reach C) and `TD_i = TA_parent / max(LA_i, 1) > D` (63);
//! a content node far off the content nodes' level is reset to 0.
//! Nested content nodes are deduplicated (the parent loses the child's text).
//!
//! The paper classifies "nodes" and outputs their text; since every ancestor of
//! a text-rich node is text-rich too, we classify block-level elements and let
//! each contribute its *own* text (not inside nested blocks): that is the
//! deduplication the paper asks for. "Far off the level" is read as: more than
//! [`LEVEL_SPREAD`] levels from the character-weighted median depth of content.

use super::Extractor;
use crate::html::{Agg, Doc, Kind, NodeId, Selection};

pub(crate) const C: f64 = 29.0;
pub(crate) const S: f64 = 0.57;
pub(crate) const D: f64 = 63.0;
/// Allowed depth distance from the content's median depth, chosen on wcxb-dev
/// (F1 0.775 / 0.778 / 0.781 / 0.780 / 0.776 for 2 / 3 / 4 / 6 / off;
/// cleaneval prefers wider: 0.903 … 0.911).
pub(crate) const LEVEL_SPREAD: u32 = 4;

pub(crate) struct ContentCorrelativity;

/// Whether an element counts as a block unit.
fn is_unit(doc: &Doc, id: NodeId) -> bool {
    let n = &doc.nodes[id as usize];
    n.kind == Kind::Element && !n.tag.is_inline()
}

/// Content units per the paper, as a flag per node, under the given subtree
/// aggregates (the page's own, or with noise removed).
pub(crate) fn content_units(doc: &Doc, agg: &[Agg]) -> Vec<bool> {
    let n = doc.len();
    let ta = |i: usize| f64::from(agg[i].chars - agg[i].link_chars);
    let la = |i: usize| f64::from(agg[i].links.max(1));
    let cc: Vec<f64> = (0..n).map(|i| ta(i) / la(i)).collect();
    let mut content: Vec<bool> = (0..n)
        .map(|i| is_unit(doc, i as NodeId) && cc[i] > C)
        .collect();
    // Smoothing with CS and TD, per parent's children grouped by tag name.
    let mut smoothed = vec![false; n];
    // One buffer for every parent's unit children (this runs per element).
    let mut kids: Vec<NodeId> = Vec::new();
    for p in 0..n {
        if !doc.is_element(p as NodeId) {
            continue;
        }
        kids.clear();
        kids.extend(doc.children(p as NodeId).filter(|&k| is_unit(doc, k)));
        if kids.is_empty() {
            continue;
        }
        let ta_parent = ta(p).max(1.0);
        for &k in &kids {
            let ki = k as usize;
            if content[ki] {
                continue;
            }
            let name = doc.nodes[ki].name;
            let (mut same, mut good) = (0usize, 0usize);
            for &s in &kids {
                if doc.nodes[s as usize].name == name {
                    same += 1;
                    good += usize::from(cc[s as usize] >= C);
                }
            }
            let cs = good as f64 / same as f64;
            let td = ta_parent / la(ki);
            if cs > S && td > D {
                smoothed[ki] = true;
            }
        }
    }
    // Own text per unit, and the content level.
    let owner = owners(doc);
    let mut weighted: Vec<(u32, u32)> = Vec::new();
    for (i, node) in doc.nodes.iter().enumerate() {
        if node.kind == Kind::Text && node.chars > 0 {
            let u = owner[i];
            if u != u32::MAX && content[u as usize] {
                weighted.push((doc.nodes[u as usize].depth, node.chars));
            }
        }
    }
    if let Some(median) = weighted_median(&mut weighted) {
        for (i, c) in content.iter_mut().enumerate() {
            if *c && doc.nodes[i].depth.abs_diff(median) > LEVEL_SPREAD {
                *c = false;
            }
        }
    }
    // A smoothed-in node (a short reply) is content as a whole: its own
    // nested blocks carry its text.
    let mut i = 0;
    while i < n {
        if smoothed[i] {
            let end = doc.nodes[i].end as usize;
            for (j, c) in content.iter_mut().enumerate().take(end).skip(i) {
                *c = is_unit(doc, j as NodeId);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    content
}

/// For each node, the nearest block unit that owns its text (itself excluded
/// for elements; u32::MAX at the root).
pub(crate) fn owners(doc: &Doc) -> Vec<NodeId> {
    let n = doc.len();
    let mut owner = vec![u32::MAX; n];
    for i in 1..n {
        let p = doc.nodes[i].parent;
        if p == u32::MAX {
            continue;
        }
        owner[i] = if is_unit(doc, p) {
            p
        } else {
            owner[p as usize]
        };
    }
    owner
}

fn weighted_median(items: &mut [(u32, u32)]) -> Option<u32> {
    if items.is_empty() {
        return None;
    }
    items.sort_unstable();
    let total: u64 = items.iter().map(|&(_, w)| u64::from(w)).sum();
    let mut acc = 0u64;
    for &(d, w) in items.iter() {
        acc += u64::from(w);
        if acc * 2 >= total {
            return Some(d);
        }
    }
    items.last().map(|&(d, _)| d)
}

impl Extractor for ContentCorrelativity {
    fn name(&self) -> &'static str {
        "cc"
    }

    fn select(&self, doc: &Doc) -> Selection {
        let content = content_units(doc, &doc.agg);
        let owner = owners(doc);
        let mut sel = Selection::none(doc);
        for (i, node) in doc.nodes.iter().enumerate() {
            if node.kind == Kind::Text {
                let u = owner[i];
                if u != u32::MAX && content[u as usize] {
                    sel.set(i as NodeId, true);
                }
            }
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    #[test]
    fn keeps_short_forum_replies_by_smoothing() {
        let long = "This reply explains the problem at length with many words in it. ".repeat(3);
        let html = format!(
            "<body><ul class=menu>{}</ul><div class=thread>\
             <div class=post><p>{long}</p></div><div class=post><p>{long}</p></div>\
             <div class=post><p>Thanks, it works!</p></div><div class=post><p>{long}</p></div></div></body>",
            "<li><a href=/a>Forum index</a></li>".repeat(8)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &ContentCorrelativity.select(&doc));
        assert!(text.contains("Thanks, it works!"), "{text}");
        assert!(!text.contains("Forum index"));
    }
}
