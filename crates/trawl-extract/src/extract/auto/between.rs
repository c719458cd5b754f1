//! What lies between two blocks recovered from outside the main region. A
//! story split over two blocks (a page builder's "rich-text" before an
//! embedded table and another after it) loses its first block to the
//! region choice; recovery brings back its paragraphs, which are long, but
//! not the heading, the table or the short lines between them. Whatever
//! sits between two recovered siblings, and is not noise, is the same
//! story.

use crate::html::{Doc, Kind, NodeId, Selection, Tag};

/// Selects the text of every child that lies between two children holding
/// recovered text (text outside `region` that `sel` keeps), under the same
/// parent outside the region; noise stays out.
pub(super) fn recover_between(doc: &Doc, noise: &[bool], region: NodeId, sel: &mut Selection) {
    let n = doc.len();
    let mut holds: Vec<bool> = (0..n as NodeId)
        .map(|id| {
            doc.nodes[id as usize].kind == Kind::Text && sel.get(id) && !doc.contains(region, id)
        })
        .collect();
    for i in (1..n).rev() {
        let p = doc.nodes[i].parent;
        if holds[i] && p != u32::MAX {
            holds[p as usize] = true;
        }
    }
    let mut fill: Vec<NodeId> = Vec::new();
    for p in 0..n as NodeId {
        if !holds[p as usize]
            || doc.nodes[p as usize].kind != Kind::Element
            || doc.contains(p, region)
        {
            continue;
        }
        let kids: Vec<NodeId> = doc.children(p).collect();
        let first = kids.iter().position(|&k| holds[k as usize]);
        let last = kids.iter().rposition(|&k| holds[k as usize]);
        if let (Some(a), Some(b)) = (first, last) {
            if b <= a + 1 {
                continue;
            }
            fill.extend(kids[a + 1..b].iter().filter(|&&k| {
                !holds[k as usize] && !noise[k as usize] && heading_or_table(doc, k)
            }));
        }
    }
    for k in fill {
        for t in k..doc.end(k) {
            if doc.nodes[t as usize].kind == Kind::Text && !noise[t as usize] {
                sel.set(t, true);
            }
        }
    }
}

/// A heading below the headline, or a block whose text is mostly one
/// table's: what a story's paragraphs lead into. A list or a run of short
/// blocks between them may be a carousel of testimonials or a reference
/// list, left to the region.
fn heading_or_table(doc: &Doc, k: NodeId) -> bool {
    if doc.tag(k).is_heading() {
        // The page's headline is the title's to place, not a section's.
        return doc.tag(k) != Tag::H1;
    }
    let chars = doc.agg[k as usize].chars;
    (k..doc.end(k)).any(|t| doc.tag(t) == Tag::Table && doc.agg[t as usize].chars * 2 >= chars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    /// Regression (wcxb-dev 0358): a story's first block (its heading, a
    /// table of the 39 firms, the paragraphs around them) lay outside the
    /// region; recovery brought back the paragraphs only.
    #[test]
    fn a_heading_and_a_table_between_recovered_paragraphs_come_back() {
        let html = "<body><div id=first><p>One recovered paragraph.</p><h1>Headline</h1>\
            <h2>Top firms</h2><div class=embed><table><tr><td>Quanta</td><td>$7.7B</td></tr></table></div>\
            <p>Two recovered paragraph.</p><ul><li>A reader's quote</li></ul>\
            <p>Three recovered paragraph.</p></div><div id=region><p>The region.</p></div></body>";
        let doc = Doc::parse_str(html);
        let region = (0..doc.len() as NodeId)
            .find(|&i| doc.attr(i, "id") == Some("region"))
            .unwrap_or_else(|| panic!("no region"));
        let mut sel = Selection::subtree(&doc, region);
        for i in 0..doc.len() as NodeId {
            if doc.nodes[i as usize].kind == Kind::Text && doc.text(i).contains("recovered") {
                sel.set(i, true);
            }
        }
        let noise = vec![false; doc.len()];
        recover_between(&doc, &noise, region, &mut sel);
        let text = render(&doc, &sel);
        for kept in ["Top firms", "Quanta", "$7.7B"] {
            assert!(text.contains(kept), "{kept}: {text}");
        }
        for left in ["Headline", "A reader's quote"] {
            assert!(!text.contains(left), "{left}: {text}");
        }
    }
}
