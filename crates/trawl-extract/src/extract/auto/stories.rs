//! Other stories on an article's page: an endless-scroll news page loads the
//! next articles below the one it was opened on, each in its own
//! `<article>` with its own headline, byline and paragraphs. They are too
//! long for teaser cards ([`crate::extract::auto::teasers`]) and hold little link text, so
//! they are recognised by the page's own markup: the `<article>` that holds
//! the headline (the first `<h1>`) is the story, and every other `<article>`
//! beside it made from the same template (the same `class`) that opens with
//! a heading is another one. (A recipe's header and its instructions are two
//! `<article>`s of different classes: one story.) Nested `<article>`s
//! (comments, embedded posts) are left to the other rules.

use crate::html::{Doc, Kind, NodeId, Tag};

/// The headline's `<article>` must hold at least this many non-whitespace
/// characters (about 80 words) for the page to be read as one story among
/// others (a header-only `<article>` with the body in a sibling is not a
/// story).
const MIN_STORY_CHARS: u32 = 400;

/// Marks the `<article>` elements beside the headline's own as noise.
pub(crate) fn mark(doc: &Doc, noise: &mut [bool]) {
    let Some(h1) = (0..doc.len() as NodeId)
        .find(|&i| doc.tag(i) == Tag::H1 && !noise[i as usize] && doc.agg[i as usize].chars > 0)
    else {
        return;
    };
    // The innermost <article> around the headline.
    let mut story = doc.nodes[h1 as usize].parent;
    while story != u32::MAX && doc.tag(story) != Tag::Article {
        story = doc.nodes[story as usize].parent;
    }
    if story == u32::MAX || doc.agg[story as usize].chars < MIN_STORY_CHARS {
        return;
    }
    let mut i = 0;
    while (i as usize) < doc.len() {
        let node = &doc.nodes[i as usize];
        if node.kind == Kind::Element
            && node.tag == Tag::Article
            && !doc.contains(i, story)
            && !doc.contains(story, i)
            && doc.attr(i, "class") == doc.attr(story, "class")
            && opens_with_heading(doc, i)
        {
            noise[i as usize..node.end as usize].fill(true);
            i = node.end;
        } else {
            i += 1;
        }
    }
}

/// Whether the first text of `id` is inside a heading (`<h1>`–`<h4>`): a
/// story starts with its headline (a comment or a product card does not).
fn opens_with_heading(doc: &Doc, id: NodeId) -> bool {
    let end = doc.nodes[id as usize].end;
    let Some(first) = (id..end).find(|&i| !doc.is_element(i) && doc.nodes[i as usize].chars > 0)
    else {
        return false;
    };
    let parent = doc.nodes[first as usize].parent;
    doc.tagged_below(parent, id, &[Tag::H1, Tag::H2, Tag::H3, Tag::H4])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(html: &str) -> String {
        let doc = Doc::parse_str(html);
        let mut noise = vec![false; doc.len()];
        mark(&doc, &mut noise);
        crate::extract::noise::unmarked_texts(&doc, &noise).join(" | ")
    }

    const BODY: &str = "<p>The harbour walls gave way in three places on Sunday night, and by \
        Monday morning the river had risen behind them to the level of the old quay, \
        where the fishing boats were tied up two and three deep against the wind.</p>\
        <p>Repairs will start next week, the council said, once the water is down and \
        the engineers have looked at what is left of the foundations under the road.</p>\
        <p>Shops on the front stay closed until the power is back, and the ferry \
        to the island will not sail before Thursday at the earliest.</p>";

    #[test]
    fn stories_loaded_below_the_headlines_own_go() {
        let html = format!(
            "<body><article class=story><h1>Storm hits the coast</h1>{BODY}</article>\
             <article class=story><h2>Ferry changes</h2><p>Two more crossings.</p></article></body>"
        );
        let text = kept(&html);
        assert!(text.contains("Repairs will start"), "{text}");
        assert!(
            !text.contains("Ferry") && !text.contains("crossings"),
            "{text}"
        );
    }

    #[test]
    fn a_second_article_of_another_template_is_part_of_the_story() {
        // A recipe's summary and its instructions, two <article>s.
        let html = format!(
            "<body><article class=summary><h1>Bread</h1>{BODY}</article>\
             <article class=steps><h2>Instructions</h2><p>Knead well.</p></article></body>"
        );
        assert!(kept(&html).contains("Knead well"));
    }

    #[test]
    fn articles_that_do_not_open_with_a_heading_stay() {
        // Comments of the same template as the story, nested or not.
        let html = format!(
            "<body><article><h1>Storm</h1>{BODY}</article>\
             <article><p>Great piece.</p><h3>Reply</h3></article></body>"
        );
        assert!(kept(&html).contains("Great piece"));
    }

    #[test]
    fn a_short_headline_article_is_not_a_story_among_others() {
        let html = "<body><article><h1>Storm</h1><p>By Ann.</p></article>\
             <article><h2>What happened</h2><p>The walls broke.</p></article></body>";
        assert!(kept(html).contains("The walls broke"));
    }
}
