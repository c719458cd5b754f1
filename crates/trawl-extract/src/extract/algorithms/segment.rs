//! Paper 004, segmentation by tag-path clustering (Hou, Yang).
//!
//! Text leaves are numbered in document order and clustered by tag path. In a
//! cluster the gaps between consecutive members give a period; when the gaps
//! vary a lot (the cluster mixes content and noise) it is split where a gap
//! jumps out of [0.5, 2] times its neighbour. A segment passes when its text is
//! long enough, its list-noise coefficient (link vs. non-link characters and
//! leaves with vs. without links) is low, and its period is short. The first
//! passing segment in document order is the content; its text is output as the
//! span from its first to its last member, which keeps nested tables and
//! divisions inside it.
//!
//! The paper learns the three thresholds per site (k-means, a mean); for
//! unseen sites we use fixed values chosen on wcxb-dev.

use std::collections::HashMap;

use super::Extractor;
use crate::html::{Doc, Kind, NodeId, Selection, Tag};

/// Minimum non-link characters of a content segment. The paper learns it per
/// site; one global value measured on wcxb-dev (F1 0.34 / 0.54 / 0.61 / 0.68 /
/// 0.73 at 100 / 500 / 1000 / 2000 / 5000): past ~1000 most pages pass no
/// segment and fall back to the whole body, which is no longer the method.
pub(crate) const MIN_CHARS: u32 = 1000;
/// Maximum list-noise coefficient.
pub(crate) const MAX_NOISE: f64 = 0.35;
/// Maximum mean gap between members (in leaves).
pub(crate) const MAX_PERIOD: f64 = 12.0;
/// Coefficient of variation of the gaps above which a cluster is split.
pub(crate) const SPLIT_CV: f64 = 1.0;

pub(crate) struct Segment;

struct Leaf {
    node: NodeId,
    path: u32,
    chars: u32,
    link: bool,
}

fn leaves(doc: &Doc) -> Vec<Leaf> {
    let mut in_link = vec![false; doc.len()];
    let mut out = Vec::new();
    for (i, node) in doc.nodes.iter().enumerate() {
        let parent_link = node.parent != u32::MAX && in_link[node.parent as usize];
        in_link[i] = parent_link || node.tag == Tag::A;
        if node.kind == Kind::Text && node.chars > 0 {
            out.push(Leaf {
                node: i as NodeId,
                path: node.path,
                chars: node.chars,
                link: in_link[i],
            });
        }
    }
    out
}

/// Splits a cluster's member list (leaf indexes) into segments.
fn split(members: &[usize]) -> Vec<&[usize]> {
    if members.len() < 3 {
        return vec![members];
    }
    let gaps: Vec<f64> = members.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
    let var = gaps.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / gaps.len() as f64;
    if var.sqrt() <= SPLIT_CV * mean {
        return vec![members];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for k in 0..gaps.len() {
        let prev = if k > 0 { gaps[k - 1] } else { gaps[k] };
        let next = gaps.get(k + 1).copied().unwrap_or(gaps[k]);
        let jump = gaps[k] > 2.0 * prev.min(next) && gaps[k] > 2.0;
        if jump {
            out.push(&members[start..=k]);
            start = k + 1;
        }
    }
    out.push(&members[start..]);
    out
}

/// The content segment as a range of nodes (first member to last member).
pub(crate) fn content_span(doc: &Doc) -> Option<(NodeId, NodeId)> {
    let leaves = leaves(doc);
    let mut clusters: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, l) in leaves.iter().enumerate() {
        clusters.entry(l.path).or_default().push(i);
    }
    let mut passing: Vec<(usize, &[usize])> = Vec::new();
    for members in clusters.values() {
        for seg in split(members) {
            let (mut chars, mut link_chars, mut link_leaves) = (0u32, 0u32, 0usize);
            // The span's leaves decide noise: member paths alone would hide
            // the links between them.
            let (first, last) = (seg[0], seg[seg.len() - 1]);
            for l in &leaves[first..=last] {
                chars += l.chars;
                if l.link {
                    link_chars += l.chars;
                    link_leaves += 1;
                }
            }
            let span = last - first + 1;
            let noise = 0.5 * f64::from(link_chars) / f64::from(chars.max(1))
                + 0.5 * link_leaves as f64 / span as f64;
            let period = if seg.len() > 1 {
                (last - first) as f64 / (seg.len() - 1) as f64
            } else {
                1.0
            };
            let own: u32 = seg.iter().map(|&i| leaves[i].chars).sum();
            if chars - link_chars >= MIN_CHARS
                && own * 2 >= chars - link_chars
                && noise <= MAX_NOISE
                && period <= MAX_PERIOD
            {
                passing.push((first, seg));
            }
        }
    }
    passing.sort_by_key(|&(first, _)| first);
    passing.first().map(|&(_, seg)| {
        let first = leaves[seg[0]].node;
        let last = leaves[seg[seg.len() - 1]].node;
        (first, last)
    })
}

impl Extractor for Segment {
    fn name(&self) -> &'static str {
        "segment"
    }

    fn select(&self, doc: &Doc) -> Selection {
        let mut sel = Selection::none(doc);
        match content_span(doc) {
            Some((first, last)) => {
                for i in first..=last {
                    sel.set(i, true);
                }
            }
            None => sel.include(doc, doc.body()),
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    #[test]
    fn finds_the_periodic_paragraph_cluster() {
        let html = format!(
            "<body><ul>{}</ul><div class=post>{}</div><footer><p>Copyright notice</p></footer></body>",
            "<li><a href=/a>Navigation entry</a></li>".repeat(10),
            "<p>A paragraph of real content that goes on for a while to be long.</p><p>Another paragraph with <b>bold</b> words that belong to the article.</p>".repeat(12)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &Segment.select(&doc));
        assert!(text.contains("real content"), "{text}");
        assert!(text.contains("bold"));
        assert!(!text.contains("Navigation"));
        assert!(!text.contains("Copyright"));
    }
}
