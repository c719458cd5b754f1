//! A list the text introduces: "For more information, see:" and then a
//! list of links. The sentence ending in a colon makes the list part of
//! what the page says, however link-dense (a manual's "see also" rows, the
//! pages a guide sends its reader to), where a bare list of links is the
//! site's chrome.

use super::teasers::previous_element;
use crate::html::{Doc, NodeId, Tag};

/// Fewest words of the introducing sentence: a label ("Related:", "Tags:",
/// "Share this:") is chrome; a sentence says more.
const MIN_WORDS: usize = 4;
/// Most characters (non-whitespace) of the introducing block: a sentence,
/// not a section.
const MAX_CHARS: u32 = 300;

/// Whether `id` is a list right after a block of plain text (not links)
/// that ends with a colon.
pub(super) fn introduced(doc: &Doc, id: NodeId) -> bool {
    if !matches!(doc.tag(id), Tag::Ul | Tag::Ol) {
        return false;
    }
    let Some(prev) = previous_element(doc, id) else {
        return false;
    };
    let a = doc.agg[prev as usize];
    if !matches!(doc.tag(prev), Tag::P | Tag::Div)
        || a.chars == 0
        || a.chars > MAX_CHARS
        || a.link_chars * 2 >= a.chars
    {
        return false;
    }
    let text = doc.plain_text(prev);
    let text = text.trim_end();
    text.ends_with(':') && text.split_whitespace().count() >= MIN_WORDS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::typing::PageType;
    use crate::html::render;

    /// Regression (wcxb-dev 2865, a manual's "For more information, see:"
    /// under each data type): the two links to the site's own pages were
    /// dropped as a link-dense block.
    #[test]
    fn a_list_a_sentence_introduces_stays_and_a_bare_one_goes() {
        let para = "<p>Strings are the most basic data type, a sequence of bytes that \
            holds text, serialised objects and binary arrays of any kind.</p>";
        let links = "<li><a href='/docs/strings'>Overview of strings</a></li>\
            <li><a href='/docs/commands'>String command reference</a></li>";
        for (intro, stays) in [
            ("<p>For more information, see:</p>", true),
            ("<p>Related:</p>", false),
            ("<p>Strings hold bytes.</p>", false),
            (
                "<p><a href='/x'>Every word of this line is a link:</a></p>",
                false,
            ),
            ("", false),
        ] {
            let html = format!(
                "<body><nav><a href='/'>Home</a></nav><main><h1>Data types</h1>\
                 {para}{para}{intro}<ul>{links}</ul>{para}</main></body>"
            );
            let doc = Doc::parse_str(&html);
            let text = render(
                &doc,
                &super::super::select_typed(&doc, PageType::Documentation, None),
            );
            assert_eq!(
                text.contains("String command reference"),
                stays,
                "{intro}: {text}"
            );
        }
    }
}
