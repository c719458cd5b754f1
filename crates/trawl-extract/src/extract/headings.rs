//! Headings left without their section. Noise removal takes the link list
//! under "More on this topic", the address box under "Press contact", the
//! sign-up form under "Newsletter", but the heading above it is plain text
//! and stays, a stray line at the end of the article. A heading whose
//! following text, up to the next heading of its level or above (or the end
//! of the selection), was all removed goes too.

use crate::html::{Doc, Kind, NodeId, Selection, Tag};

fn level(tag: Tag) -> Option<u8> {
    match tag {
        Tag::H1 => Some(1),
        Tag::H2 => Some(2),
        Tag::H3 => Some(3),
        Tag::H4 => Some(4),
        Tag::H5 => Some(5),
        Tag::H6 => Some(6),
        _ => None,
    }
}

/// The level of the heading `id` sits in, if any (a few levels up).
fn heading_of(doc: &Doc, mut id: NodeId) -> Option<u8> {
    for _ in 0..6 {
        id = doc.nodes[id as usize].parent;
        if id == u32::MAX {
            return None;
        }
        if let Some(l) = level(doc.nodes[id as usize].tag) {
            return Some(l);
        }
    }
    None
}

/// Deselects the headings of `region` whose section lost all its text.
pub fn drop_orphans(doc: &Doc, sel: &mut Selection, region: NodeId) {
    let end = doc.nodes[region as usize].end;
    let mut orphans = Vec::new();
    for h in region..end {
        let node = &doc.nodes[h as usize];
        let Some(lvl) = level(node.tag) else { continue };
        let kept_text =
            (h..node.end).any(|i| sel.get(i) && doc.nodes[i as usize].kind == Kind::Text);
        if node.kind != Kind::Element || !kept_text {
            continue;
        }
        let mut removed = false;
        let mut next_is_peer = true; // the end of the selection counts as a peer heading
        for i in node.end..end {
            let n = &doc.nodes[i as usize];
            if n.kind != Kind::Text || n.chars == 0 {
                continue;
            }
            if sel.get(i) {
                next_is_peer = heading_of(doc, i).is_some_and(|l| l <= lvl);
                break;
            }
            removed = true;
        }
        if removed && next_is_peer {
            orphans.push(h);
        }
    }
    for h in orphans {
        sel.exclude(doc, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(html: &str, removed: &str) -> String {
        let doc = Doc::parse_str(html);
        let body = doc.body();
        let mut sel = Selection::subtree(&doc, body);
        for i in 0..doc.len() as NodeId {
            if doc.attr(i, "class") == Some(removed) {
                sel.exclude(&doc, i);
            }
        }
        drop_orphans(&doc, &mut sel, body);
        crate::html::render(&doc, &sel)
    }

    #[test]
    fn a_heading_over_removed_links_goes_and_real_sections_stay() {
        let html = "<body><h2>Findings</h2><p>The river rose.</p>\
            <h2>More on this topic</h2><ul class=x><li><a href=/a>Floods</a></li></ul>\
            <h2>Outlook</h2><p>Rain until Friday.</p>\
            <h3>Contact</h3><div class=x>Press office, 555 0100</div></body>";
        let text = run(html, "x");
        assert!(
            text.contains("Findings") && text.contains("Outlook"),
            "{text}"
        );
        assert!(!text.contains("More on this topic"), "{text}");
        assert!(!text.contains("Contact"), "{text}");
    }

    #[test]
    fn a_heading_over_a_subsection_stays() {
        // Its own text is gone, but an h3 under it still has text.
        let html =
            "<body><h2>Results</h2><p class=x>Table</p><h3>Men</h3><p>First: Ode.</p></body>";
        assert!(run(html, "x").contains("Results"));
    }
}
