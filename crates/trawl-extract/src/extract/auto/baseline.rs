//! A safeguard under every page type: the page's running text, read the
//! plain way (its paragraphs of prose outside the site's header, footer,
//! menus and forms), against what the chosen extraction kept. When the
//! extraction keeps little of it, or nothing, the paragraphs are added back.
//!
//! trafilatura does the same with its baseline and readability fallbacks:
//! rules tuned on real pages fail on the odd ones (a page repeating one
//! paragraph, template filler, a plain article typed as something else) and
//! the reader then sees an empty or headings-only text.

use rustc_hash::FxHashMap;

use crate::html::{Doc, NodeId, Selection, Tag};

use super::super::noise;

/// A paragraph of running text has at least this many characters...
const PARAGRAPH_CHARS: u32 = 80;
/// ...of which at most a fifth are link text.
const LINK_SHARE_X5: u32 = 1;
/// The safeguard looks only at pages with at least this much running text
/// (non-whitespace characters: a few hundred words).
const MIN_RUNNING_CHARS: u32 = 1_000;
/// It fires when the extraction keeps less than a quarter of it...
const KEPT_SHARE_X4: u32 = 1;
/// ...and holds less than this in all (headings, a line or two). Measured on
/// wcxb-dev: firing on every page keeping under a quarter of the running
/// text changed 15 pages, 12 for the worse (the running text it missed was
/// comments, related stories, a product's reviews: the pages' truths kept
/// 600 to 8,000 characters the extraction had right).
const NEAR_EMPTY_CHARS: u32 = 400;

/// Where paragraphs are the site's, not the page's.
const CHROME: [Tag; 5] = [Tag::Header, Tag::Footer, Tag::Nav, Tag::Aside, Tag::Form];

/// The page's running text: its paragraphs of prose, grouped by the element
/// holding them, and of those groups the largest (with its headings). A
/// page's comments and teasers are paragraphs too, but one or two to a
/// container; the body of a text has its paragraphs side by side.
fn paragraphs(doc: &Doc) -> Vec<NodeId> {
    let prose: Vec<NodeId> = (0..doc.len() as NodeId)
        .filter(|&i| {
            let a = &doc.agg[i as usize];
            doc.tag(i) == Tag::P
                && a.chars >= PARAGRAPH_CHARS
                && a.link_chars * 5 <= a.chars * LINK_SHARE_X5
                && !noise::inside(doc, i, &CHROME)
        })
        .collect();
    let mut by_parent: FxHashMap<NodeId, u32> = FxHashMap::default();
    for &p in &prose {
        *by_parent.entry(doc.nodes[p as usize].parent).or_default() += doc.agg[p as usize].chars;
    }
    // The largest group; of equal ones the first.
    let Some((&best, _)) = by_parent
        .iter()
        .max_by_key(|(&parent, &sum)| (sum, std::cmp::Reverse(parent)))
    else {
        return Vec::new();
    };
    doc.children(best)
        .filter(|&c| prose.binary_search(&c).is_ok() || doc.tag(c).is_heading())
        .collect()
}

/// The characters of `p`'s text that `sel` keeps.
fn kept_chars(doc: &Doc, sel: &Selection, p: NodeId) -> u32 {
    sel.chars_in(doc, p..doc.end(p))
}

/// `sel` with the page's running text added back when it is near empty and
/// kept less than a quarter of it (`None` when it kept enough, or the page
/// has little).
pub(super) fn safeguard(doc: &Doc, sel: &Selection) -> Option<Selection> {
    if sel.chars(doc) >= NEAR_EMPTY_CHARS {
        return None;
    }
    let paragraphs = paragraphs(doc);
    let running: u32 = paragraphs
        .iter()
        .filter(|&&p| doc.tag(p) == Tag::P)
        .map(|&p| doc.agg[p as usize].chars)
        .sum();
    if running < MIN_RUNNING_CHARS {
        return None;
    }
    let kept: u32 = paragraphs.iter().map(|&p| kept_chars(doc, sel, p)).sum();
    if kept * 4 >= running * KEPT_SHARE_X4 {
        return None;
    }
    let mut out = sel.clone();
    for p in paragraphs {
        out.include(doc, p);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn para(i: usize) -> String {
        format!(
            "<p>Paragraph {i} of the story tells how the river rose after three days \
             of rain and the council met in the library.</p>"
        )
    }

    #[test]
    fn an_empty_extraction_of_a_page_of_prose_gets_its_paragraphs() {
        let body: String = (0..12).map(para).collect();
        let doc = Doc::parse_str(&format!(
            "<body><nav><p>{}</p></nav><h2>Heading</h2>{body}<div><p>{}</p></div></body>",
            "Menu words that are long enough to count as a paragraph of text, but in a nav.",
            "A comment in a box of its own, long enough to count as a paragraph of text."
        ));
        let sel = Selection::none(&doc);
        let out = safeguard(&doc, &sel).expect("fires");
        let text = crate::html::render(&doc, &out);
        assert!(text.contains("Paragraph 0 ") && text.contains("Paragraph 11 "));
        assert!(text.starts_with("Heading"));
        assert!(!text.contains("Menu words") && !text.contains("A comment"));
    }

    #[test]
    fn an_extraction_keeping_the_prose_is_left_alone() {
        let body: String = (0..12).map(para).collect();
        let doc = Doc::parse_str(&format!("<body><main>{body}</main></body>"));
        let sel = Selection::subtree(&doc, doc.body());
        assert!(safeguard(&doc, &sel).is_none());
        // Little running text: nothing to go by.
        let doc = Doc::parse_str(&format!("<body>{}</body>", para(0)));
        assert!(safeguard(&doc, &Selection::none(&doc)).is_none());
    }
}
