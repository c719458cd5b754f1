//! Where the page itself says its article ends: schema.org's `articleBody`,
//! as a microdata element (`itemprop="articleBody"`) or as the text of a
//! JSON-LD object. What an article's selection keeps after the end of that
//! body (the author's box, "more on this", the next story's teaser) is the
//! page's, not the article's. The body is not where the article starts:
//! headlines and standfirsts sit above it, so only its end is used. Without
//! an `articleBody`, the element a content-management system names as the
//! body (`entry-content`, `article__body`, ...) ends the story; without
//! that, the `<article>` that holds the headline; and without one, the
//! smallest element holding nearly all the selected text. Threads, listings,
//! collections and manual pages end the same way; product and service pages
//! do not (`auto`).

use crate::extract::body_names::{microdata_body, names_body};
use crate::html::{Doc, Kind, NodeId, Selection, Tag};

/// Share of the selected text the page's own body must hold for its end to
/// be trusted (a body that is a teaser of a paywalled story, or one block
/// among several, says nothing about where the article ends).
const MIN_BODY_SHARE: f64 = 0.5;

/// Share of the selected text the element an article's story is taken to be
/// must hold ([`core_end`]). Swept on all four content sets: 0.8 cost
/// trafilatura-eval six `with` snippets and cleaneval 0.00003; 0.9 and 0.95
/// kept less of the gain on each set; 0.85 lifts all four.
const CORE_SHARE: f64 = 0.85;

/// Shortest text (in comparable characters) matched against a JSON-LD
/// body: a short line ("Foto: dpa") could be anywhere.
const MIN_MATCH_CHARS: usize = 30;

/// Drops the selected text after the end of the page's `articleBody` (or of
/// its headline's `<article>`).
pub(crate) fn trim_after(doc: &Doc, owner: &[NodeId], sel: &mut Selection) {
    let held = held_below(doc, sel);
    let total: u32 = (0..doc.len())
        .filter(|&i| doc.nodes[i].parent == u32::MAX)
        .map(|i| held[i])
        .sum();
    if total == 0 {
        return;
    }
    let end = microdata_end(doc, &held, total)
        .or_else(|| json_ld_end(doc, owner, sel, total))
        .or_else(|| named_body_end(doc, &held, total))
        .or_else(|| headline_article_end(doc, &held, total))
        .or_else(|| core_end(doc, &held, total));
    if let Some(end) = end {
        for i in end..doc.len() as NodeId {
            if doc.nodes[i as usize].kind == Kind::Text {
                sel.set(i, false);
            }
        }
    }
}

fn selected_texts<'a>(doc: &'a Doc, sel: &'a Selection) -> impl Iterator<Item = NodeId> + 'a {
    (0..doc.len() as NodeId).filter(move |&i| {
        let n = &doc.nodes[i as usize];
        n.kind == Kind::Text && n.chars > 0 && sel.get(i)
    })
}

fn share_ok(part: u32, total: u32) -> bool {
    f64::from(part) >= MIN_BODY_SHARE * f64::from(total)
}

/// The end of the first `itemprop="articleBody"` element, when it holds
/// enough of the selection.
fn microdata_end(doc: &Doc, held: &[u32], total: u32) -> Option<NodeId> {
    ends_story(doc, held, microdata_body(doc)?, total)
}

/// The end of the last element named like an article's body (not inside
/// another), when those elements together hold enough of the selection: a
/// body split around an advertisement is one body.
fn named_body_end(doc: &Doc, held: &[u32], total: u32) -> Option<NodeId> {
    let mut inside = 0u32;
    let mut end = None;
    let mut i = 0;
    while i < doc.len() as NodeId {
        let node = &doc.nodes[i as usize];
        // Subtrees without selected text are skipped whole, before their
        // names are read.
        if held[i as usize] == 0 {
            i = node.end;
            continue;
        }
        let (class, ident) = doc.class_id(i);
        if class.is_some_and(names_body) || ident.is_some_and(names_body) {
            inside += held[i as usize];
            end = Some(node.end);
            i = node.end;
        } else {
            i += 1;
        }
    }
    end.filter(|_| share_ok(inside, total))
}

/// The end of the smallest element holding [`CORE_SHARE`] of the selected
/// text: when the page names no body, the story is the element most of its
/// text sits in, and what trails that element (a source line, a sign-off
/// box, the first teaser of the next list) is the page's.
fn core_end(doc: &Doc, held: &[u32], total: u32) -> Option<NodeId> {
    // The elements holding more than half the text are one chain of
    // ancestors, so the last in document order is the smallest.
    let need = CORE_SHARE * f64::from(total);
    (0..doc.len())
        .rev()
        .find(|&i| doc.nodes[i].kind == Kind::Element && f64::from(held[i]) >= need)
        .map(|i| doc.nodes[i].end)
}

/// Selected characters under each node (its own, for a text node).
fn held_below(doc: &Doc, sel: &Selection) -> Vec<u32> {
    // Children come after their parents: one pass from the end.
    let mut held = vec![0u32; doc.len()];
    for i in (0..doc.len()).rev() {
        let n = &doc.nodes[i];
        if n.kind == Kind::Text && sel.get(i as NodeId) {
            held[i] += n.chars;
        }
        if n.parent != u32::MAX {
            held[n.parent as usize] += held[i];
        }
    }
    held
}

/// The end of the `<article>` that holds the page's headline (its first
/// `<h1>`), when it holds enough of the selection.
fn headline_article_end(doc: &Doc, held: &[u32], total: u32) -> Option<NodeId> {
    let h1 = (0..doc.len() as NodeId)
        .find(|&i| doc.tag(i) == Tag::H1 && doc.agg[i as usize].chars > 0)?;
    let mut a = doc.nodes[h1 as usize].parent;
    while a != u32::MAX && doc.tag(a) != Tag::Article {
        a = doc.nodes[a as usize].parent;
    }
    if a == u32::MAX {
        return None;
    }
    ends_story(doc, held, a, total)
}

/// The end of `root`, when the selected text inside it is enough of the
/// selection for that end to be the story's.
fn ends_story(doc: &Doc, held: &[u32], root: NodeId, total: u32) -> Option<NodeId> {
    share_ok(held[root as usize], total).then_some(doc.nodes[root as usize].end)
}

/// Letters and digits, lower-cased: markup, entities and spacing differ
/// between a JSON-LD body and the page's text (and between a heading and
/// the page's title, a caption and its picture's `alt`).
pub(crate) fn comparable(s: &str) -> String {
    crate::html::markdown::key_of(s)
}

/// The `articleBody` string of the page's JSON-LD, if any.
fn json_ld_body(doc: &Doc) -> Option<String> {
    if !doc
        .meta
        .json_ld
        .iter()
        .any(|raw| raw.contains("articleBody"))
    {
        return None;
    }
    crate::extract::metadata::ld_objects(doc)
        .into_iter()
        .find_map(|o| o.get("articleBody")?.as_str().map(str::to_string))
}

/// The end of the block owning the last selected text found in the JSON-LD
/// body, when the texts found hold enough of the selection.
fn json_ld_end(doc: &Doc, owner: &[NodeId], sel: &Selection, total: u32) -> Option<NodeId> {
    let body = comparable(&json_ld_body(doc)?);
    if body.is_empty() {
        return None;
    }
    let mut found = 0u32;
    let mut last = None;
    for i in selected_texts(doc, sel) {
        let t = comparable(doc.text(i));
        // memchr's SIMD search: the body is long and searched per text.
        if t.chars().count() >= MIN_MATCH_CHARS
            && memchr::memmem::find(body.as_bytes(), t.as_bytes()).is_some()
        {
            found += doc.nodes[i as usize].chars;
            last = Some(i);
        }
    }
    let last = last?;
    let block = owner[last as usize];
    let end = if block == u32::MAX {
        last + 1
    } else {
        doc.nodes[block as usize].end
    };
    share_ok(found, total).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::comparable;

    #[test]
    fn comparable_keeps_letters_and_digits_lower_cased() {
        let by_char = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        for s in [
            "Hello, World 42!",
            "",
            "Straße İstanbul ÅNGSTRÖM",
            "東京 2024年",
            "a\u{a0}B",
        ] {
            assert_eq!(comparable(s), by_char(s), "{s}");
        }
    }

    use crate::extract::auto::select_typed;
    use crate::extract::typing::PageType;
    use crate::html::{render, Doc};

    const SENTENCE: &str = "A paragraph of the story itself, long enough to read as the \
                            body of an article and not as a line of furniture.";
    const PROMO: &str = "<div class=box><p>Our weekly digest brings the best of the \
                         magazine to readers every Friday morning, free of charge.</p></div>";
    const LEAD: &str = "<p class=lead>The standfirst sits above the body and stays with it.</p>";

    fn para() -> String {
        format!("<p>{SENTENCE}</p>")
    }

    /// A page head whose JSON-LD body is `copies` of the story's paragraph.
    fn json_ld_head(copies: usize) -> String {
        let body = vec![SENTENCE; copies].join(" ");
        format!(
            "<head><script type=application/ld+json>{{\"@type\":\"NewsArticle\",\
             \"articleBody\":\"{body}\"}}</script></head>"
        )
    }

    fn text(html: &str) -> String {
        text_as(html, PageType::Article)
    }

    fn text_as(html: &str, page_type: PageType) -> String {
        let doc = Doc::parse_str(html);
        render(&doc, &select_typed(&doc, page_type, None))
    }

    #[test]
    fn what_follows_a_microdata_body_goes_and_the_lead_above_stays() {
        let html = format!(
            "<body><article><h1>Headline</h1>{LEAD}<div itemprop=articleBody>{}</div>\
             {PROMO}</article></body>",
            para().repeat(4)
        );
        let t = text(&html);
        assert!(t.contains("standfirst"), "{t}");
        assert!(t.contains("story itself"), "{t}");
        assert!(!t.contains("weekly digest"), "{t}");
    }

    #[test]
    fn what_follows_the_json_ld_body_goes() {
        let html = format!(
            "{}<body><article><h1>Headline</h1>{}{PROMO}</article></body>",
            json_ld_head(4),
            para().repeat(4)
        );
        let t = text(&html);
        assert!(t.contains("story itself"), "{t}");
        assert!(!t.contains("weekly digest"), "{t}");
    }

    #[test]
    fn what_follows_the_headlines_article_goes() {
        // A recovered block after the story: long, no links, but not its.
        let promo = "<div class=more><p>Readers who liked this story also spent an \
                     evening with our long read on the harbour towns of the north coast, \
                     where the sea has taken a street a year since the storms began and \
                     the people who stayed tell us why they will not leave. Read it this \
                     weekend, with the photographs of the coast that we took last winter.</p></div>";
        let html = format!(
            "<body><div><article><h1>Headline</h1>{}</article>{promo}</div></body>",
            para().repeat(4)
        );
        let t = text(&html);
        assert!(t.contains("story itself"), "{t}");
        assert!(!t.contains("harbour towns"), "{t}");
    }

    #[test]
    fn what_follows_a_body_named_by_its_class_goes() {
        // No schema.org, no <article>: the CMS's class name ends the story.
        let related = "<div class=related><p>Readers who liked this story also spent an \
                       evening with our long read on the harbour towns of the north coast, \
                       where the sea has taken a street a year since the storms began.</p></div>";
        let html = format!(
            "<body><div class=main><h1>Headline</h1>{LEAD}<div class=\"entry-content\">{}</div>\
             {related}</div></body>",
            para().repeat(4)
        );
        let t = text(&html);
        assert!(t.contains("standfirst"), "{t}");
        assert!(t.contains("story itself"), "{t}");
        assert!(!t.contains("harbour towns"), "{t}");
    }

    #[test]
    fn a_body_split_around_an_advertisement_is_one_body() {
        let html = format!(
            "<body><div class=main><h1>Headline</h1><div class=article__body>{}</div>\
             <div class=ad><p>Advertisement</p></div><div class=article__body>{}\
             <p>The last paragraph of the story, after the advertisement, stays with it.</p>\
             </div></div></body>",
            para().repeat(3),
            para()
        );
        let t = text(&html);
        assert!(t.contains("last paragraph of the story"), "{t}");
    }

    /// Eight paragraphs in an unnamed element, then a short note outside it.
    fn story_then_note() -> String {
        let note = "<div class=x><p>Readers who liked this story also spent an evening \
                    with our long read on the harbour towns of the north coast.</p></div>";
        format!(
            "<body><div class=page><h1>Headline</h1><div class=y>{}</div>{note}</div></body>",
            para().repeat(8)
        )
    }

    #[test]
    fn what_trails_the_element_holding_the_story_goes() {
        // No body named anywhere: the story is the element most text sits in.
        let t = text(&story_then_note());
        assert!(t.contains("story itself"), "{t}");
        assert!(!t.contains("harbour towns"), "{t}");
    }

    #[test]
    fn a_thread_ends_where_its_posts_end_and_a_product_page_does_not() {
        let thread = text_as(&story_then_note(), PageType::Forum);
        assert!(thread.contains("story itself"), "{thread}");
        assert!(!thread.contains("harbour towns"), "{thread}");
        let product = text_as(&story_then_note(), PageType::Product);
        assert!(product.contains("harbour towns"), "{product}");
    }

    #[test]
    fn text_outside_the_story_element_stays_when_it_is_much_of_the_page() {
        // Two of six paragraphs sit outside the element: not a trailer.
        let html = format!(
            "<body><div class=page><h1>Headline</h1><div class=y>{}</div>\
             <div class=x><p>The closing paragraphs of the story sit in a box of their \
             own, and they are a third of what the page says, not a trailer.</p>{}</div>\
             </div></body>",
            para().repeat(4),
            para()
        );
        let t = text(&html);
        assert!(t.contains("closing paragraphs"), "{t}");
    }

    #[test]
    fn a_body_holding_little_of_the_article_says_nothing() {
        // A paywalled story's JSON-LD body is its first paragraphs.
        let html = format!(
            "{}<body><article><h1>Headline</h1>{}{}{PROMO}</article></body>",
            json_ld_head(2),
            para().repeat(2),
            "<p>Later paragraphs say other things, at length, about what happened \
             next and why it matters to the readers.</p>"
                .repeat(4)
        );
        let t = text(&html);
        assert!(t.contains("Later paragraphs"), "{t}");
        assert!(t.contains("weekly digest"), "{t}");
    }
}
