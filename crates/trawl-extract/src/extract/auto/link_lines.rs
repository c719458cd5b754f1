//! Lines and blocks of links inside an article's region: a line that is
//! one link ("Next article", "Read more: <a>"), and a block whose text is
//! mostly links. Both are the site's chrome unless something says they
//! are content (links to other sites, a heading's own anchor, a sentence
//! introducing the list, a checklist's plain entries).

use super::{headings, introduced};
use crate::extract::{noise, outbound};
use crate::html::{Agg, Doc, Kind, NodeId, Tag};

/// Whether an article's link lines are chrome: they hold at most
/// [`MAX_LINK_LINE_SHARE`] of the region's text.
pub(super) fn are_chrome(doc: &Doc, agg: &[Agg], noise: &[bool], region: NodeId) -> bool {
    let end = doc.nodes[region as usize].end;
    let mut lines = 0u32;
    let mut i = region + 1;
    while i < end {
        if !noise[i as usize] && is_link_line(doc, i) {
            lines += doc.agg[i as usize].chars;
            i = doc.nodes[i as usize].end;
        } else {
            i += 1;
        }
    }
    f64::from(lines) <= MAX_LINK_LINE_SHARE * f64::from(agg[region as usize].chars)
}

/// Share of an article's text in link lines above which they are its content.
const MAX_LINK_LINE_SHARE: f64 = 0.2;

/// A line of an article that is one link and nothing else ("Next article",
/// "Back to the list", "120 comments", a teaser's headline), or one link
/// under a short label ("Read more: <a>", "Lea también: <a>").
pub(super) fn is_link_line(doc: &Doc, i: NodeId) -> bool {
    let n = &doc.nodes[i as usize];
    if n.kind != Kind::Element || n.tag.is_inline() || n.tag == Tag::A {
        return false;
    }
    let a = doc.agg[i as usize];
    (a.chars > 0 && a.link_chars == a.chars)
        || (a.links == 1
            && a.link_chars >= MIN_LABELLED_LINK_CHARS
            && a.chars - a.link_chars <= MAX_LABEL_CHARS
            && labelled_link(doc, i))
}

/// Longest label (non-whitespace characters) of a labelled link line, and
/// the shortest link it labels: "Read more:" and a headline, not a sentence
/// with a link in it. Swept 12 / 20 / 30: 20 took the most "without"
/// snippets out of trafilatura-eval (12 left five more; 30 the same, with
/// wcxb-dev a little lower).
const MAX_LABEL_CHARS: u32 = 20;
const MIN_LABELLED_LINK_CHARS: u32 = 20;

/// Whether block `i`'s text is a label ending in a colon, then its one
/// link, then nothing but punctuation: an inline pointer to another story.
/// Without the colon, the lines wcxb-dev's truths keep went too ("Visit
/// X's website to learn more", "Y, from The Daily Record").
fn labelled_link(doc: &Doc, i: NodeId) -> bool {
    let mut label = String::new();
    let mut seen_link = false;
    for t in i + 1..doc.nodes[i as usize].end {
        if doc.nodes[t as usize].kind != Kind::Text {
            continue;
        }
        if doc.tagged_below(t, i, &[Tag::A]) {
            seen_link = true;
        } else if !seen_link {
            label.push_str(doc.text(t));
        } else if doc.text(t).chars().any(char::is_alphanumeric) {
            return false;
        }
    }
    seen_link && label.trim_end().ends_with(':')
}

/// A list whose items stay, however many links they hold: one that mixes
/// links with plain entries, or that a sentence introduces.
pub(super) fn kept_list(doc: &Doc, i: NodeId) -> bool {
    noise::lists::mixed(doc, i) || introduced::introduced(doc, i)
}

/// A block inside the region whose text is mostly its two or more links,
/// unless it is a post's linked title, links to other sites, a heading
/// linked to its anchor, or holds checklists (a [`kept_list`] itself is
/// never asked: the caller keeps it whole).
pub(super) fn link_block(doc: &Doc, agg: &[Agg], outbound: &outbound::Outbound, i: NodeId) -> bool {
    let node = &doc.nodes[i as usize];
    let a = agg[i as usize];
    node.kind == Kind::Element
        && !node.tag.is_inline()
        && a.links >= 2
        && f64::from(a.link_chars) > 0.5 * f64::from(a.chars.max(1))
        && !noise::linked_title(doc, i)
        && !outbound.only(i)
        && !headings::anchored(doc, i)
        && !noise::lists::holds_mixed(doc, i)
}

#[cfg(test)]
mod tests {
    use crate::extract::typing::PageType;
    use crate::html::{render, Doc};

    /// Regression (wcxb-dev 4698, a backpacking checklist): each section's
    /// list links most entries to the site's own reviews ("Tent", "Stakes")
    /// and leaves others plain ("Rainfly"). The lists went as link farms
    /// and their entries as link lines, and the sections' headings with
    /// them; a list of the site's other posts still goes.
    #[test]
    fn a_checklist_whose_entries_link_to_the_site_stays_in_an_article() {
        let para = "<p>We have spent years choosing what to carry on a long trail, \
            and this is the list we pack from before every trip we take.</p>";
        let html = format!(
            "<body><nav><a href='/'>Home</a></nav><main><h1>Backpacking checklist</h1>\
             {para}{para}<h3>Shelter</h3><ul>\
             <li><a href='/tents'>Tent</a></li><li>Rainfly</li>\
             <li>Tent poles or <a href='/poles'>trekking poles</a></li>\
             <li><a href='/stakes'>Stakes</a></li><li><a href='/lines'>Guylines</a></li></ul>\
             {para}<ul><li><a href='/p1'>Our favourite trails of the year</a></li>\
             <li><a href='/p2'>How we test tents in the rain</a></li>\
             <li><a href='/p3'>Ten stoves compared on one mountain</a></li></ul></main></body>"
        );
        let doc = Doc::parse_str(&html);
        let text = render(
            &doc,
            &super::super::select_typed(&doc, PageType::Article, None),
        );
        for kept in ["Shelter", "Tent", "Rainfly", "trekking poles", "Guylines"] {
            assert!(text.contains(kept), "{kept}: {text}");
        }
        assert!(!text.contains("Ten stoves compared"), "{text}");
    }

    /// Regression (wcxb-dev 0665, a Sphinx manual): every section heading
    /// is a link back to the table of contents ("toc-backref") and a
    /// permalink's "¶". The first went as a widget named "toc", then the
    /// heading as a block of two links; "### ¶" was left.
    #[test]
    fn a_manuals_heading_linked_back_to_its_contents_keeps_its_words() {
        let para = "<p>Flower is a real-time web based monitor and administration \
            tool, already an essential tool for anyone running the queue.</p>";
        let html = format!(
            "<body><nav class=contents><a href='#id5'>Flower</a></nav><main>\
             <h1>Monitoring guide</h1>{para}<section id=flower><h3>\
             <a class=toc-backref href='#id5' role=doc-backlink>Flower: Real-time web monitor</a>\
             <a class=headerlink href='#flower' title='Link to this heading'>¶</a></h3>\
             {para}{para}</section></main></body>"
        );
        let doc = Doc::parse_str(&html);
        let text = render(
            &doc,
            &super::super::select_typed(&doc, PageType::Documentation, None),
        );
        assert!(text.contains("Flower: Real-time web monitor"), "{text}");
    }

    /// A list a sentence introduces keeps its entries in an article too,
    /// though most of each one's words are links (wcxb-dev 0028: "The
    /// checker finds issues in your meta-information, such as:").
    #[test]
    fn an_introduced_lists_entries_are_not_blocks_of_links() {
        let para = "<p>Search engines need meta-information that helps them \
            categorize your content and show it for the right searches.</p>";
        let html = format!(
            "<body><nav><a href='/'>Home</a></nav><main><h1>SEO checker</h1>\
             {para}{para}<p>The checker finds issues in your meta-information, such as:</p><ul>\
             <li>meta titles and descriptions that are <a href='/w/s'>too short for the snippet</a> \
             or <a href='/w/l'>far too long</a></li>\
             <li>meta tags that stop search engines <a href='/w/i'>from indexing a website</a> \
             <a href='/w/n'>or following its links</a></li>\
             <li>pictures that have no alt attribute <a href='/w/a'>describing what they show</a> \
             <a href='/w/p'>to a reader</a></li>\
             </ul>{para}</main></body>"
        );
        let doc = Doc::parse_str(&html);
        let text = render(
            &doc,
            &super::super::select_typed(&doc, PageType::Article, None),
        );
        assert!(text.contains("from indexing a website"), "{text}");
    }
}
