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
    let total = sel.chars_in(doc, region..end);
    if chars > 0
        && chars <= BEFORE_HEADLINE_CHARS
        && f64::from(chars) <= BEFORE_HEADLINE_SHARE * f64::from(total)
    {
        for i in before {
            sel.set(i, false);
        }
    }
}
