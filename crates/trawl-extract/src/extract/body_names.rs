//! Where a page's markup names its article's body: schema.org's
//! `itemprop="articleBody"`, and the class and id names content-management
//! systems give the element holding it. The noise model trusts those
//! elements (their wrappers are not sidebars, their links are not a link
//! farm) and `auto` ends an article's text where they end.

use crate::html::{Doc, Kind, NodeId};

/// The page's first `itemprop="articleBody"` element: where its markup says
/// the story is.
pub(crate) fn microdata_body(doc: &Doc) -> Option<NodeId> {
    doc.structured().iter().copied().find(|&i| {
        doc.attr(i, "itemprop").is_some_and(|v| {
            v.split_whitespace()
                .any(|p| p.eq_ignore_ascii_case("articleBody"))
        })
    })
}

/// Fewest characters outside links an element named like an article's body
/// needs for [`named_bodies`]: a paragraph, not an empty template slot.
const MIN_NAMED_BODY_CHARS: u32 = 100;

/// The outermost elements named like an article's body ([`BODY_NAMES`])
/// holding at least [`MIN_NAMED_BODY_CHARS`] characters outside links, in
/// document order.
pub(crate) fn named_bodies(doc: &Doc) -> Vec<NodeId> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < doc.len() as NodeId {
        let node = &doc.nodes[i as usize];
        let a = doc.agg[i as usize];
        if node.kind != Kind::Element || a.chars - a.link_chars < MIN_NAMED_BODY_CHARS {
            i = if node.kind == Kind::Element {
                node.end
            } else {
                i + 1
            };
            continue;
        }
        let (class, ident) = doc.class_id(i);
        if class.is_some_and(names_body) || ident.is_some_and(names_body) {
            found.push(i);
            i = node.end;
        } else {
            i += 1;
        }
    }
    found
}

/// Class and id names content-management systems give the element holding
/// an article's body (WordPress's `entry-content`, `post-body`,
/// `article__body`, ...), compared without ASCII case, `-` and `_`. The same
/// conventions trafilatura's body selectors read.
const BODY_NAMES: &[&str] = &[
    "entrycontent",
    "articlebody",
    "articlecontent",
    "articletext",
    "postcontent",
    "postbody",
    "posttext",
    "postentry",
    "storybody",
    "storycontent",
    "bodytext",
];

/// Whether a class or id value names an article's body.
pub(crate) fn names_body(value: &str) -> bool {
    // Runs for every element of a page: no allocation. A token's first 64
    // letters are compared (no body name sits deeper in a real one).
    value.split_ascii_whitespace().any(|token| {
        let mut folded = [0u8; 64];
        let mut len = 0;
        for &b in token.as_bytes() {
            if b == b'-' || b == b'_' {
                continue;
            }
            if len == folded.len() {
                break;
            }
            folded[len] = b.to_ascii_lowercase();
            len += 1;
        }
        let folded = &folded[..len];
        BODY_NAMES
            .iter()
            .any(|name| folded.windows(name.len()).any(|w| w == name.as_bytes()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_names_are_read_without_case_dashes_or_underscores() {
        assert!(names_body("wp-block entry-content"));
        assert!(names_body("Article__Body"));
        assert!(names_body("post_content"));
        assert!(!names_body("content body"));
        assert!(!names_body("post-meta"));
    }
}
