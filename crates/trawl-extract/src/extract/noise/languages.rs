//! Language pickers: the list of the same page in other languages
//! ("Afrikaans · العربية · Deutsch …", "DE | EN | FR | IT"). Each of its
//! links names the language it leads to (`hreflang`); whatever the block is
//! called and however the page type weighs links, it is the site's chrome,
//! never what the page says. A site that tags every link with its own
//! language (`hreflang="de"` on each teaser) is not a picker: the links of
//! a picker name at least [`MIN_LANGUAGES`] languages.

use crate::html::{Doc, NodeId, Tag};

/// Fewest distinct languages a picker's links lead to.
const MIN_LANGUAGES: usize = 3;

/// The elements that are language pickers (the outermost need not be
/// told apart: noise marks from the top). `None` when the page's links
/// name fewer than [`MIN_LANGUAGES`] languages, as on almost every page.
pub(crate) fn pickers(doc: &Doc) -> Option<Vec<bool>> {
    // Links naming a language, in document order.
    let links: Vec<(NodeId, &str)> = (0..doc.len() as NodeId)
        .filter(|&id| doc.tag(id) == Tag::A)
        .filter_map(|id| Some((id, doc.attr(id, "hreflang")?.trim())))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if distinct(links.iter().map(|l| l.1)) < MIN_LANGUAGES {
        return None;
    }
    // Per element, its links naming a language.
    let mut named = vec![0u32; doc.len()];
    for &(id, _) in &links {
        let mut k = id;
        while k != u32::MAX {
            named[k as usize] += 1;
            k = doc.nodes[k as usize].parent;
        }
    }
    let mut out = vec![false; doc.len()];
    for (id, slot) in out.iter_mut().enumerate() {
        let a = doc.agg[id];
        // Four links in five name a language, and links hold four fifths
        // of the words.
        if named[id] < MIN_LANGUAGES as u32
            || named[id] * 5 < a.links * 4
            || a.link_chars * 5 < a.chars * 4
        {
            continue;
        }
        let end = doc.end(id as NodeId);
        let from = links.partition_point(|l| l.0 < id as NodeId);
        let to = links.partition_point(|l| l.0 < end);
        *slot = distinct(links[from..to].iter().map(|l| l.1)) >= MIN_LANGUAGES;
    }
    Some(out)
}

/// Distinct language tags (case-blind), counted up to [`MIN_LANGUAGES`].
fn distinct<'a>(tags: impl Iterator<Item = &'a str>) -> usize {
    let mut seen: Vec<&str> = Vec::with_capacity(MIN_LANGUAGES);
    for t in tags {
        if !seen.iter().any(|s| s.eq_ignore_ascii_case(t)) {
            seen.push(t);
            if seen.len() >= MIN_LANGUAGES {
                break;
            }
        }
    }
    seen.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picked(html: &str) -> Vec<String> {
        let doc = Doc::parse_str(html);
        let Some(p) = pickers(&doc) else {
            return Vec::new();
        };
        (0..doc.len())
            .filter(|&i| p[i] && doc.tag(i as NodeId) == Tag::Ul)
            .map(|i| doc.plain_text(i as NodeId).trim().to_string())
            .collect()
    }

    #[test]
    fn a_list_of_links_to_other_languages_is_a_picker() {
        let html = "<body><p>Text</p><ul>\
            <li><a href='//af.x.org/a' hreflang=af>Afrikaans</a></li>\
            <li><a href='//de.x.org/a' hreflang=de>Deutsch</a></li>\
            <li><a href='//fr.x.org/a' hreflang=fr>Français</a></li></ul></body>";
        assert_eq!(picked(html).len(), 1);
    }

    #[test]
    fn links_all_tagged_with_the_pages_language_are_not() {
        let html = "<body><ul>\
            <li><a href='/a' hreflang=de>Holz</a></li>\
            <li><a href='/b' hreflang=de>Heizen</a></li>\
            <li><a href='/c' hreflang=en>Abfall</a></li></ul></body>";
        assert!(picked(html).is_empty());
    }

    #[test]
    fn a_list_mostly_of_other_links_is_not() {
        let html = "<body><ul>\
            <li><a href='/a' hreflang=af>A</a></li><li><a href='/b' hreflang=de>B</a></li>\
            <li><a href='/c' hreflang=fr>C</a></li><li><a href='/d'>D</a></li>\
            <li><a href='/e'>E</a></li><li><a href='/f'>F</a></li></ul></body>";
        assert!(picked(html).is_empty());
    }
}
