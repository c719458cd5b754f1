//! Lists that mix links with plain entries: a checklist or a guide's picks,
//! some entries linked to where to buy or read more ("Tent", "Rainfly",
//! "Stakes"). However many of their words are links, they are what the
//! page says; the site's chrome links every entry (menus, tags, related
//! posts, whose dates and counts sit beside a link in the same item).

use crate::html::{Doc, NodeId, Tag};

/// Fewest items of a mixed list.
const MIN_ITEMS: usize = 3;

/// Fewest plain items of a mixed list (one is often a label: "All news
/// on | <a>Topic</a>").
const MIN_PLAIN_ITEMS: usize = 2;

/// Fewest characters outside links for an item to count as plain ("Tent
/// poles or <a>trekking poles</a>").
const MIN_PLAIN_CHARS: u32 = 3;

/// Most elements a block may hold for its lists to be searched.
const MAX_SEARCHED_TAGS: u32 = 4_000;

/// Whether `id` is a list of at least [`MIN_ITEMS`] items, some linked and
/// at least one in four (and two) plain.
pub(crate) fn mixed(doc: &Doc, id: NodeId) -> bool {
    if !matches!(doc.tag(id), Tag::Ul | Tag::Ol) {
        return false;
    }
    let (mut items, mut plain) = (0usize, 0usize);
    for c in doc.children(id) {
        let a = doc.agg[c as usize];
        if doc.tag(c) != Tag::Li || a.chars == 0 {
            continue;
        }
        items += 1;
        if a.links == 0 || a.chars - a.link_chars >= MIN_PLAIN_CHARS {
            plain += 1;
        }
    }
    items >= MIN_ITEMS && plain >= MIN_PLAIN_ITEMS && plain < items && plain * 4 >= items
}

/// Whether block `id` is a mixed list, or mixed lists hold at least half
/// its text: a checklist's section is not a block of links, a page's
/// column with one small checklist in it may be. A block of more than
/// [`MAX_SEARCHED_TAGS`] elements is not searched.
pub(crate) fn holds_mixed(doc: &Doc, id: NodeId) -> bool {
    let a = doc.agg[id as usize];
    if a.tags > MAX_SEARCHED_TAGS || a.chars == 0 {
        return false;
    }
    let (mut held, mut k, end) = (0u32, id, doc.end(id));
    while k < end {
        if mixed(doc, k) {
            held += doc.agg[k as usize].chars;
            k = doc.end(k);
        } else {
            k += 1;
        }
    }
    held * 2 >= a.chars
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_list(html: &str) -> (Doc, NodeId) {
        let doc = Doc::parse_str(html);
        let ul = (0..doc.len() as NodeId)
            .find(|&i| matches!(doc.tag(i), Tag::Ul | Tag::Ol))
            .unwrap_or_else(|| panic!("no list in {html}"));
        (doc, ul)
    }

    #[test]
    fn a_checklist_mixes_links_with_plain_entries_and_a_menu_does_not() {
        for (items, is_mixed) in [
            // A checklist: two of five entries plain, one partly linked.
            (
                "<li><a href='/tents'>Tent</a></li><li>Rainfly</li>\
                 <li>Tent poles or <a href='/poles'>trekking poles</a></li>\
                 <li><a href='/stakes'>Stakes</a></li><li><a href='/lines'>Guylines</a></li>",
                true,
            ),
            // A menu: every entry one link.
            (
                "<li><a href='/'>Home</a></li><li><a href='/a'>About</a></li>\
                 <li><a href='/b'>Blog</a></li><li><a href='/c'>Contact</a></li>",
                false,
            ),
            // One label among links ("All news on | Topic").
            (
                "<li><a href='/x'>A story from last week</a></li>\
                 <li><strong>All news on</strong> | <a href='/t'>Topic</a></li>\
                 <li><a href='/m'>Map</a></li>",
                false,
            ),
            // No link at all: not a block of links to begin with.
            ("<li>One</li><li>Two</li><li>Three</li>", false),
        ] {
            let (doc, ul) = first_list(&format!("<body><ul>{items}</ul></body>"));
            assert_eq!(mixed(&doc, ul), is_mixed, "{items}");
        }
    }

    #[test]
    fn a_block_is_a_checklists_section_when_its_lists_hold_half_its_text() {
        let list = "<ul><li><a href='/tents'>Tent</a></li><li>Rainfly</li>\
             <li>Groundsheet</li><li><a href='/stakes'>Stakes</a></li></ul>";
        let links: String = (0..12)
            .map(|k| format!("<a href='/p{k}'>Another page of the site</a> "))
            .collect();
        for (block, holds) in [
            (format!("<div><h3>Shelter</h3>{list}</div>"), true),
            (format!("<div>{links}{list}</div>"), false),
        ] {
            let doc = Doc::parse_str(&format!("<body>{block}</body>"));
            let div = (0..doc.len() as NodeId)
                .find(|&i| doc.tag(i) == Tag::Div)
                .unwrap_or_else(|| panic!("no div"));
            assert_eq!(holds_mixed(&doc, div), holds, "{block}");
        }
    }
}
