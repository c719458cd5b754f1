//! An article's headline and what stands above it. The headline is the
//! record's `title` (its own field), so the body starts below it; the
//! short furniture above it (breadcrumbs, a section label, "5 min read")
//! is the page's, not the article's.

use super::article_body;
use crate::html::{Doc, NodeId, Selection, Tag};

/// The title is reported in its own field: drop the region's first heading
/// when it repeats the page title.
pub(super) fn drop_title_heading(doc: &Doc, sel: &mut Selection, region: NodeId, title: &str) {
    let title = article_body::comparable(title);
    if title.len() < 4 {
        return;
    }
    let end = doc.nodes[region as usize].end;
    // The first heading that still shows text (a heading whose text an
    // earlier step took out is not the one the reader sees first).
    let shows_text = |h: NodeId| {
        (h + 1..doc.nodes[h as usize].end)
            .any(|t| !doc.is_element(t) && doc.nodes[t as usize].chars > 0 && sel.get(t))
    };
    let Some(h) = (region..end).find(|&i| doc.tag(i).is_heading() && shows_text(i)) else {
        return;
    };
    // Only a heading before any body text counts as the title.
    let text_before =
        (region..h).any(|i| sel.get(i) && !doc.is_element(i) && doc.nodes[i as usize].chars > 0);
    let heading = article_body::comparable(&doc.plain_text(h));
    if !text_before && heading.len() >= 4 && (title.contains(&heading) || heading.contains(&title))
    {
        sel.exclude(doc, h);
    }
}

/// Fewest words of a headline (a one- or two-word `<h1>` is a label:
/// "News", "Chapter 9").
const HEADLINE_WORDS: usize = 3;

/// An article's headline is the record's `title`, not a heading of its
/// body: the region's first heading, when it is the only `<h1>` left in the
/// selection, comes before any text, has a headline's length and the page
/// records a title to share (`og:title`, `twitter:title`: the page names its
/// headline apart from its `<title>`). The `<title>` check above catches a
/// headline worded as the `<title>`; this one catches the rest (wcxb-dev
/// headings F1 0.574 -> 0.615; CleanEval's pages, which mark every heading
/// and share no titles, unchanged).
pub(super) fn drop_headline(doc: &Doc, sel: &mut Selection, region: NodeId) {
    let shares_title = doc
        .meta
        .metas
        .iter()
        .any(|(k, v)| (k == "og:title" || k == "twitter:title") && !v.trim().is_empty());
    if !shares_title {
        return;
    }
    let end = doc.nodes[region as usize].end;
    let shows_text = |h: NodeId| {
        (h + 1..doc.nodes[h as usize].end)
            .any(|t| !doc.is_element(t) && doc.nodes[t as usize].chars > 0 && sel.get(t))
    };
    let Some(h) = (region..end).find(|&i| doc.tag(i).is_heading() && shows_text(i)) else {
        return;
    };
    if doc.tag(h) != Tag::H1
        || (h + 1..end).any(|i| doc.tag(i) == Tag::H1 && shows_text(i))
        || doc.plain_text(h).split_whitespace().count() < HEADLINE_WORDS
        || (region..h).any(|i| sel.get(i) && !doc.is_element(i) && doc.nodes[i as usize].chars > 0)
    {
        return;
    }
    sel.exclude(doc, h);
}

/// Most text an article region may hold before its `<h1>` for that text to
/// count as the page's furniture (breadcrumbs, a section label, a date,
/// "5 min read"), in characters and as a share of the region's text.
const BEFORE_HEADLINE_CHARS: u32 = 300;
const BEFORE_HEADLINE_SHARE: f64 = 0.15;

/// What an article's region shows above its headline is the page's, not the
/// article's: dropped when it is short.
pub(super) fn drop_before_headline(doc: &Doc, sel: &mut Selection, region: NodeId) {
    let end = doc.nodes[region as usize].end;
    let Some(h1) = (region..end).find(|&i| doc.tag(i) == Tag::H1 && doc.agg[i as usize].chars > 0)
    else {
        return;
    };
    let before: Vec<NodeId> = (region..h1)
        .filter(|&i| sel.get(i) && !doc.is_element(i) && doc.nodes[i as usize].chars > 0)
        .collect();
    let chars: u32 = before.iter().map(|&i| doc.nodes[i as usize].chars).sum();
    let total: u32 = (region..end)
        .filter(|&i| sel.get(i) && !doc.is_element(i))
        .map(|i| doc.nodes[i as usize].chars)
        .sum();
    if chars > 0
        && chars <= BEFORE_HEADLINE_CHARS
        && f64::from(chars) <= BEFORE_HEADLINE_SHARE * f64::from(total)
    {
        for i in before {
            sel.set(i, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::auto::select_typed;
    use crate::extract::PageType;
    use crate::html::render;

    fn article(head: &str, h1: &str) -> String {
        let body = "<p>Body paragraph with enough words to look like real article text here.</p>"
            .repeat(5);
        format!(
            "<html><head><title>Site name: the front page</title>{head}</head><body>\
             <main><article><h1>{h1}</h1>{body}<h2>Where it goes next</h2>{body}</article>\
             </main></body></html>"
        )
    }

    #[test]
    fn a_shared_headline_leaves_the_body_whatever_the_title_says() {
        let og = "<meta property='og:title' content='Harbour walls give way'>";
        let text = |html: &str| {
            let doc = Doc::parse_str(html);
            let title = doc.meta.title.clone();
            render(
                &doc,
                &select_typed(&doc, PageType::Article, title.as_deref()),
            )
        };
        let t = text(&article(og, "Harbour walls give way after the storm"));
        assert!(t.starts_with("Body paragraph"), "{t}");
        assert!(
            t.contains("Where it goes next"),
            "a section heading stays: {t}"
        );
        // No title shared: the page may mean its <h1> as a heading of the body.
        let t = text(&article("", "Harbour walls give way after the storm"));
        assert!(t.starts_with("Harbour walls"), "{t}");
        // A label, not a headline.
        let t = text(&article(og, "News"));
        assert!(t.starts_with("News"), "{t}");
    }
}
