//! Headings left without their section. Noise removal takes the link list
//! under "More on this topic", the address box under "Press contact", the
//! sign-up form under "Newsletter", but the heading above it is plain text
//! and stays, a stray line at the end of the article. A heading whose
//! following text, up to the next heading of its level or above (or the end
//! of the selection), was all removed goes too. A heading linked to its own
//! anchor stays, however link-dense.

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
/// Linear: the next kept text and the removed text before any point are
/// computed once, not scanned per heading.
pub(crate) fn drop_orphans(doc: &Doc, sel: &mut Selection, region: NodeId) {
    let (start, end) = (region as usize, doc.nodes[region as usize].end as usize);
    let text = |i: usize| doc.nodes[i].kind == Kind::Text && doc.nodes[i].chars > 0;
    // next_kept[k]: the first kept text node at or after start + k.
    let mut next_kept = vec![end; end - start + 1];
    for i in (start..end).rev() {
        next_kept[i - start] = if text(i) && sel.get(i as NodeId) {
            i
        } else {
            next_kept[i - start + 1]
        };
    }
    // removed[k]: removed text nodes before start + k.
    let mut removed = vec![0u32; end - start + 1];
    for i in start..end {
        removed[i - start + 1] = removed[i - start] + u32::from(text(i) && !sel.get(i as NodeId));
    }
    let mut orphans = Vec::new();
    for h in start..end {
        let node = &doc.nodes[h];
        let Some(lvl) = level(node.tag) else { continue };
        let h_end = node.end as usize;
        if node.kind != Kind::Element || next_kept[h - start] >= h_end {
            continue; // nothing of the heading itself is kept
        }
        let next = next_kept[h_end - start];
        let lost_text = removed[next - start] > removed[h_end - start];
        // The end of the selection counts as a peer heading.
        let next_is_peer = next == end || heading_of(doc, next as NodeId).is_some_and(|l| l <= lvl);
        if lost_text && next_is_peer {
            orphans.push(h as NodeId);
        }
    }
    for h in orphans {
        sel.exclude(doc, h);
    }
}

/// A section's heading linked to its own anchor (`<h3 id=costs><a
/// href="#costs">`, a permalink a reader copies; or a `<summary>` holding
/// such a heading): the block's text is one heading's and every worded link
/// in it names the heading or a block around it. Not a link line, however
/// link-dense. Links to other anchors (a page's tabs, an FAQ's toggles)
/// are not the heading's own.
pub(super) fn anchored(doc: &Doc, id: NodeId) -> bool {
    let Some(h) = crate::extract::noise::lone_heading(doc, id) else {
        return false;
    };
    let end = doc.nodes[id as usize].end;
    // The ids of the heading and of the blocks from it up to `id`.
    let mut own = Vec::new();
    let mut at = h;
    loop {
        own.extend(doc.attr(at, "id").map(str::trim));
        if at == id || doc.nodes[at as usize].parent == u32::MAX {
            break;
        }
        at = doc.nodes[at as usize].parent;
    }
    let mut links = (id..end)
        .filter(|&j| doc.tag(j) == Tag::A && doc.agg[j as usize].chars > 0)
        .peekable();
    // A heading inside a link (the link is outside the block) is not one.
    links.peek().is_some()
        && links.all(|j| {
            doc.attr(j, "href")
                .and_then(|r| r.trim().strip_prefix('#'))
                .is_some_and(|target| !target.is_empty() && own.contains(&target))
        })
}

/// Characters of plain (not linked) text kept in a linked heading's
/// section, at least, for the heading to title it: more than a teaser's
/// summary under its headline.
const SECTION_CHARS: u32 = 400;

/// Blocks (paragraphs) that text must be in, at least.
const SECTION_BLOCKS: u32 = 2;

/// Nodes read after a linked heading for its section's text.
const SECTION_NODES: u32 = 2_000;

/// A heading that is one link to another page (`<h3><a
/// href=/2005/06/07/post>`), over a section of its own: a post's title on
/// a blog's archive page, where the posts are written out in full, not a
/// teaser's headline. The section is
/// the text after the heading, in the block around it, up to the next
/// heading; what the selection `kept` of it must hold [`SECTION_CHARS`] of
/// plain text in [`SECTION_BLOCKS`] blocks.
fn titles_its_section(doc: &Doc, id: NodeId, kept: &Selection) -> bool {
    if crate::extract::noise::lone_heading(doc, id).is_none() {
        return false;
    }
    let end = doc.nodes[id as usize].end;
    let mut links = (id..end).filter(|&j| doc.tag(j) == Tag::A && doc.agg[j as usize].chars > 0);
    let a = doc.agg[id as usize];
    // All of it the link: "READ MORE: <a>" is a pointer in the story.
    // The link goes to another page (an accordion's `href="#"` toggles).
    let leaves = |l: NodeId| super::teasers::points_elsewhere(doc, l);
    if a.link_chars < a.chars || !(links.next().is_some_and(leaves) && links.next().is_none()) {
        return false;
    }
    // Within the block around the heading: a card's heading titles the
    // card, not the story running on after it.
    let parent = doc.nodes[id as usize].parent;
    if parent == u32::MAX {
        return false;
    }
    let start = end;
    let stop = (start + SECTION_NODES).min(doc.nodes[parent as usize].end);
    let mut plain = 0u32;
    // The blocks holding that text: a post has paragraphs, a teaser's
    // summary is one.
    let (mut blocks, mut last_block) = (0u32, u32::MAX);
    let mut i = start;
    while i < stop {
        let n = &doc.nodes[i as usize];
        if n.kind == Kind::Element && level(n.tag).is_some() {
            return false;
        }
        if n.kind == Kind::Element && n.tag == Tag::A {
            i = n.end.max(i + 1);
            continue;
        }
        if n.kind == Kind::Text && n.chars > 0 && kept.get(i) {
            plain += n.chars;
            let mut block = n.parent;
            while block != u32::MAX && doc.tag(block).is_inline() {
                block = doc.nodes[block as usize].parent;
            }
            if block != last_block {
                (blocks, last_block) = (blocks + 1, block);
            }
            if plain >= SECTION_CHARS && blocks >= SECTION_BLOCKS {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Selects again the blocks of `dropped` (link lines) that are a heading
/// titling its section ([`titles_its_section`]), but what of them is noise.
pub(super) fn restore_titles(doc: &Doc, noise: &[bool], dropped: &[NodeId], sel: &mut Selection) {
    for &h in dropped {
        if titles_its_section(doc, h, sel) {
            for k in h..doc.nodes[h as usize].end {
                if !noise[k as usize] {
                    sel.set(k, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::auto::select_typed;
    use crate::extract::typing::classify::PageType;
    use crate::html::render;

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

    #[test]
    fn a_heading_linked_to_its_own_anchor_is_kept() {
        // Regression (wcxb-dev 0091, 2684): "<h3 id=x><a href=#x>" headings
        // were dropped as link lines, a <summary> of one as a link-dense block.
        let para = |i: u32| {
            format!(
                "<p>Paragraph {i} says what learning music does for a person \
                 at any age, and why it is worth the hours of practice.</p>"
            )
        };
        let html = format!(
            "<body><article><h1>Music</h1>{}<h3 id=cog><a href='#cog'>Cognitive gains</a></h3>{}\
             <details open><summary><h2 id=soc><a href='#soc'>Social gains</a>\
             <a href='#soc' aria-hidden=true>#</a></h2></summary>{}</details>\
             <h3><a href='#faq-2'>A toggle of another block</a></h3>{}\
             <a href='/money/'><h4>Money section</h4></a>{}</article></body>",
            para(1),
            para(2),
            para(3),
            para(4),
            para(5)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(
            text.contains("Cognitive gains") && text.contains("Social gains"),
            "{text}"
        );
        assert!(
            !text.contains("A toggle") && !text.contains("Money section"),
            "{text}"
        );
    }

    #[test]
    fn a_posts_linked_title_over_its_whole_post_is_kept() {
        // Regression (CleanEval 347): a blog's archive writes each post out
        // in full under `<h3><a href=permalink>`; the titles went as link
        // lines. A teaser's title over one summary, or a card's inside the
        // story, still goes.
        let para = |i: u32| {
            format!(
                "<p>Paragraph {i} of the post tells what the hearing said about \
                 copyright, who spoke for the studios and what the senators asked.</p>"
            )
        };
        let post = |t: &str| {
            format!(
                "<div class=post><div class=date>May 25, 2005</div>\
                 <h3><a href='/archives/{t}.php'>Post {t}</a></h3>{}{}{}{}</div>",
                para(1),
                para(2),
                para(3),
                para(5)
            )
        };
        let teaser = |t: &str| {
            format!(
                "<div class=teaser><h3><a href='/news/{t}'>Teaser {t}</a></h3>\
                 <p>One line of summary for {t}.</p></div>"
            )
        };
        let card = "<div class=card><h2><a href='/glossary'>The glossary card</a></h2>\
                    <p>What the words mean.</p></div>";
        let html = format!(
            "<body><article><h1>Archive</h1>{}{}{card}{}{}{}</article></body>",
            post("one"),
            post("two"),
            para(4),
            teaser("a"),
            teaser("b")
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(
            text.contains("Post one") && text.contains("Post two"),
            "{text}"
        );
        assert!(
            !text.contains("Teaser a") && !text.contains("glossary card"),
            "{text}"
        );
    }
}
