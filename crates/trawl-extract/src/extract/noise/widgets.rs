//! Blocks that hold one heading and nothing else: a page builder's heading
//! widget, which a weak name ("widget") would otherwise make chrome, and a
//! section's heading linked to its own anchor (read by `auto`).

use crate::html::{Doc, Kind, NodeId, Tag};

/// The most elements a block holding only a heading has (its wrappers, the
/// heading, the heading's inline elements).
pub(super) const HEADING_BLOCK_TAGS: u32 = 24;

/// The heading whose text is all of block `id`'s (the block itself, or the
/// first heading in it). A block of more than [`HEADING_BLOCK_TAGS`]
/// elements is not read, so nested blocks cost nothing much.
pub(crate) fn lone_heading(doc: &Doc, id: NodeId) -> Option<NodeId> {
    let a = doc.agg[id as usize];
    if a.tags > HEADING_BLOCK_TAGS || a.chars == 0 {
        return None;
    }
    let end = doc.nodes[id as usize].end;
    (id..end)
        .find(|&at| doc.tag(at).is_heading())
        .filter(|&h| doc.agg[h as usize].chars == a.chars)
}

/// The block holds one heading and nothing else (no picture, frame or
/// other element beside it): a page builder's heading widget
/// ("elementor-widget-heading") titling a section, not a widget's chrome.
/// The page's `<h1>` is left to the title.
pub(super) fn heading_only(doc: &Doc, id: NodeId) -> bool {
    let Some(h) = lone_heading(doc, id) else {
        return false;
    };
    let end = doc.nodes[id as usize].end;
    let element = |at: NodeId| doc.nodes[at as usize].kind == Kind::Element;
    let h_end = doc.nodes[h as usize].end;
    doc.tag(h) != Tag::H1
        && (id + 1..h).all(|at| !element(at) || doc.nodes[at as usize].end >= h_end)
        && (h_end..end).all(|at| !element(at))
}

/// Levels above an element searched for the heading it words.
const HEADING_WORDS_UP: usize = 3;

/// Whether element `id` sits in a heading (up to [`HEADING_WORDS_UP`]
/// levels) and holds at least half its text: the heading's words in a
/// link a theme names for its table of contents ("toc-backref"), not a
/// widget.
pub(super) fn words_a_heading(doc: &Doc, id: NodeId) -> bool {
    let chars = doc.agg[id as usize].chars;
    let mut up = doc.nodes[id as usize].parent;
    for _ in 0..HEADING_WORDS_UP {
        if up == u32::MAX {
            return false;
        }
        if doc.tag(up).is_heading() {
            return chars > 0 && chars * 2 >= doc.agg[up as usize].chars;
        }
        up = doc.nodes[up as usize].parent;
    }
    false
}
