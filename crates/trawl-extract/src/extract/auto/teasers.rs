//! Teasers of other pages: the "related", "latest" and "more from" cards a
//! news or blog page shows below (or beside) its article, each a headline
//! that links to another page, often with a date, a byline or a first
//! sentence. Their link share is too low for the link-density rule, so they
//! are recognised by structure: two or more sibling cards, each holding one
//! heading that is a link elsewhere. The article's own headings link nowhere
//! (or to `#anchors`), so its sections stay, and so does a list of undated
//! cards whose links all leave the site: the products a guide recommends,
//! the reports and samples a page points to, are what the page says.

use crate::extract::outbound::Outbound;
use crate::extract::written_dates::{self, Order};
use crate::html::{Agg, Doc, Kind, NodeId, Tag};

/// A heading is a link when at least this share of its characters are link
/// text.
const LINKED_SHARE: f64 = 0.8;
/// A card holding more characters than this is a section, not a teaser.
const CARD_MAX_CHARS: u32 = 600;
/// A list of cards holding more than this share of the page's clean text
/// is the page's content.
const MAX_PAGE_SHARE: f64 = 0.3;
/// Teasers follow the text they tease away from: at least this share of the
/// page's clean text comes before the first card (a grid of linked cards
/// at the top of a landing page is its content).
const MIN_TEXT_BEFORE: f64 = 0.5;
/// A heading above a run of cards ("Related stories") is dropped with them
/// when it is this short.
const LIST_HEADING_MAX_CHARS: u32 = 80;

/// Whether the `<a>` `link` leads to another page (not an anchor on this
/// one, not a script).
pub(super) fn points_elsewhere(doc: &Doc, link: NodeId) -> bool {
    doc.attr(link, "href")
        .map(str::trim)
        .is_some_and(|h| !h.is_empty() && !h.starts_with('#') && !h.starts_with("javascript:"))
}

/// Whether `id` (a heading) is a link to another page: inside an `<a>` or
/// mostly the text of `<a>`s, whose target is not an anchor on this page.
fn links_elsewhere(doc: &Doc, agg: &[Agg], id: NodeId) -> bool {
    let a = agg[id as usize];
    if a.chars < 8 {
        return false;
    }
    let target = |link: NodeId| points_elsewhere(doc, link);
    // The heading inside a link (a whole card can be one <a>).
    let mut up = doc.nodes[id as usize].parent;
    for _ in 0..4 {
        if up == u32::MAX {
            break;
        }
        if doc.nodes[up as usize].tag == Tag::A {
            return target(up);
        }
        up = doc.nodes[up as usize].parent;
    }
    if f64::from(a.link_chars) < LINKED_SHARE * f64::from(a.chars) {
        return false;
    }
    (id..doc.nodes[id as usize].end).any(|n| doc.nodes[n as usize].tag == Tag::A && target(n))
}

/// A card's last words are a link elsewhere this short ("Read more",
/// "Mehr erfahren"): a teaser whose headline is plain text.
const READ_MORE_MAX_CHARS: u32 = 30;

/// Whether the last text of `card` is a short link to another page.
fn ends_with_link_elsewhere(doc: &Doc, card: NodeId) -> bool {
    let end = doc.nodes[card as usize].end;
    let Some(last) = (card..end)
        .rev()
        .find(|&n| doc.nodes[n as usize].kind == Kind::Text && doc.nodes[n as usize].chars > 0)
    else {
        return false;
    };
    let mut up = doc.nodes[last as usize].parent;
    while up != u32::MAX && up >= card {
        if doc.nodes[up as usize].tag == Tag::A {
            return doc.agg[up as usize].chars <= READ_MORE_MAX_CHARS && points_elsewhere(doc, up);
        }
        up = doc.nodes[up as usize].parent;
    }
    false
}

/// Marks teaser cards (and the short heading above their list) as noise:
/// first cards whose headline links elsewhere, then cards whose plain
/// headline is followed by a short "read more" link.
pub(crate) fn mark(doc: &Doc, agg: &[Agg], outbound: &Outbound, noise: &mut [bool]) {
    let linked: Vec<NodeId> = headings(doc, noise)
        .filter(|&i| links_elsewhere(doc, agg, i))
        .collect();
    let cards = Cards { doc, agg, outbound };
    cards.mark(noise, &linked, |_| true, false);
    let plain: Vec<NodeId> = headings(doc, noise).collect();
    cards.mark(
        noise,
        &plain,
        |card| ends_with_link_elsewhere(doc, card),
        true,
    );
}

/// What [`Cards::mark`] reads: the page, its text counts and which blocks
/// link only to other sites.
struct Cards<'a> {
    doc: &'a Doc,
    agg: &'a [Agg],
    outbound: &'a Outbound<'a>,
}

/// Headings below `<h1>` outside noise.
fn headings<'a>(doc: &'a Doc, noise: &'a [bool]) -> impl Iterator<Item = NodeId> + 'a {
    doc.nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| {
            n.kind == Kind::Element && n.tag.is_heading() && n.tag != Tag::H1 && !noise[*i]
        })
        .map(|(i, _)| i as NodeId)
}

impl Cards<'_> {
    /// Marks the cards (each the largest subtree holding one of `heads` and no
    /// other) that pass `is_card`, two or more to a list. Not a list of
    /// undated cards whose links all leave the site: a guide's picks, a
    /// page's resources (posts on other blogs carry their dates). `strict`
    /// lists also
    /// hold nothing but cards and sit under a short title ("More on this"): a
    /// plain headline with a "read more" link is also how a landing page or a
    /// listicle lays out its own items (without these two conditions wcxb-dev
    /// documentation fell 0.91975 -> 0.91897: a landing page's cards, two
    /// listicles' last items).
    fn mark(
        &self,
        noise: &mut [bool],
        heads: &[NodeId],
        is_card: impl Fn(NodeId) -> bool,
        strict: bool,
    ) {
        let (doc, agg) = (self.doc, self.agg);
        if heads.len() < 2 {
            return;
        }
        // Headings in each subtree.
        let mut count = vec![0u32; doc.len()];
        for &h in heads {
            let mut n = h;
            while n != u32::MAX {
                count[n as usize] += 1;
                n = doc.nodes[n as usize].parent;
            }
        }
        let body = doc.body();
        // Cards grouped by the list holding them, and the lists holding a
        // headed block that is no card (a listicle's long items, sections).
        let mut lists: Vec<(NodeId, Vec<NodeId>)> = Vec::new();
        let mut mixed: Vec<NodeId> = Vec::new();
        for &h in heads {
            // The card: the largest subtree holding this heading and no other.
            let mut card = h;
            loop {
                let p = doc.nodes[card as usize].parent;
                if p == u32::MAX || card == body || count[p as usize] != 1 {
                    break;
                }
                card = p;
            }
            let list = doc.nodes[card as usize].parent;
            if list == u32::MAX || card == body {
                continue;
            }
            if agg[card as usize].chars > CARD_MAX_CHARS || !is_card(card) {
                mixed.push(list);
                continue;
            }
            match lists.iter_mut().find(|(l, _)| *l == list) {
                Some((_, cards)) => cards.push(card),
                None => lists.push((list, vec![card])),
            }
        }
        // What the page says outside noise: a list of linked headlines holding
        // much of it is the content (a listicle, an events page), not teasers.
        let clean = crate::extract::noise::clean_agg(doc, noise);
        let page = f64::from(clean[body as usize].chars.max(1));
        // Clean text before each node in document order.
        let mut before = vec![0u32; doc.len() + 1];
        let mut run = 0u32;
        for (i, n) in doc.nodes.iter().enumerate() {
            before[i] = run;
            if n.kind == Kind::Text && !noise[i] {
                run += n.chars;
            }
        }
        for (list, cards) in lists {
            let held: u32 = cards.iter().map(|&c| clean[c as usize].chars).sum();
            let first = cards.iter().copied().min().unwrap_or(list);
            if cards.len() < 2
                || (strict && mixed.contains(&list))
                || f64::from(held) > MAX_PAGE_SHARE * page
                || f64::from(before[first as usize]) < MIN_TEXT_BEFORE * page
                || (self.outbound.only(list) && !cards.iter().any(|&c| dated(doc, c)))
            {
                continue;
            }
            // "Related stories" right above the list.
            let title = previous_element(doc, list).filter(|&head| {
                doc.nodes[head as usize].tag.is_heading()
                    && agg[head as usize].chars <= LIST_HEADING_MAX_CHARS
                    && agg[head as usize].links == 0
            });
            if strict && title.is_none() {
                continue;
            }
            for card in cards {
                let end = doc.nodes[card as usize].end as usize;
                noise[card as usize..end].fill(true);
            }
            if let Some(head) = title {
                let end = doc.nodes[head as usize].end as usize;
                noise[head as usize..end].fill(true);
            }
        }
    }
}

/// Whether `card` shows a date (a `<time>`, or a date written in its
/// text): a teaser of a post does; a product, a report or a code sample
/// a page points to does not.
fn dated(doc: &Doc, card: NodeId) -> bool {
    (card..doc.nodes[card as usize].end).any(|n| {
        doc.tag(n) == Tag::Time
            || (doc.nodes[n as usize].kind == Kind::Text
                && doc.nodes[n as usize].chars > 0
                && !written_dates::find(doc.text(n), Order::MonthFirst).is_empty())
    })
}

/// The element sibling right before `id`, skipping whitespace text.
pub(super) fn previous_element(doc: &Doc, id: NodeId) -> Option<NodeId> {
    let parent = doc.nodes[id as usize].parent;
    if parent == u32::MAX {
        return None;
    }
    let mut prev = None;
    for c in doc.children(parent) {
        if c == id {
            return prev;
        }
        if doc.nodes[c as usize].kind == Kind::Element {
            prev = Some(c);
        } else if doc.nodes[c as usize].chars > 0 {
            prev = None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(html: &str) -> String {
        let doc = Doc::parse_str(html);
        let mut noise = vec![false; doc.len()];
        mark(&doc, &doc.agg, &Outbound::new(&doc), &mut noise);
        crate::extract::noise::unmarked_texts(&doc, &noise).join(" | ")
    }

    #[test]
    fn related_cards_go_and_the_articles_sections_stay() {
        let html = "<body><article><h1>Storm hits the coast</h1>\
            <p>The storm arrived on Sunday night, and by Monday morning the harbour walls \
            had given way in three places while the river kept rising behind them.</p><h2>What happens next</h2><p>Repairs start.</p>\
            <h2><a href='#next'>Anchored section</a></h2><p>Still the article.</p></article>\
            <section><h3>Related stories</h3><ul>\
            <li><h4><a href='/a'>Floods in the north</a></h4><p>Rivers rose overnight.</p></li>\
            <li><h4><a href='/b'>Power cuts continue</a></h4><p>Thousands wait.</p></li>\
            </ul></section></body>";
        let text = kept(html);
        assert!(
            text.contains("What happens next") && text.contains("Anchored section"),
            "{text}"
        );
        assert!(
            !text.contains("Floods") && !text.contains("Thousands"),
            "{text}"
        );
        assert!(!text.contains("Related stories"), "{text}");
    }

    /// Regression (wcxb-dev 0068, 0138, 1442): the products a guide
    /// recommends (`<li><h2><a href=shop>`), a page's reports and code
    /// samples on other sites were dropped as teasers once half the text
    /// was above them. Posts on other blogs, each with its date (a webring,
    /// wcxb-dev 0495), still go, and so do the site's own related cards.
    #[test]
    fn undated_cards_that_leave_the_site_stay() {
        let story = "<p>The storm arrived on Sunday night, and by Monday morning the harbour \
            walls had given way in three places while the river kept rising behind them.</p>";
        let list = |href: &str, extra: &str| {
            (1..=3)
                .map(|i| {
                    format!(
                        "<li><h3><a href='{href}{i}'>Linked card number {i}</a></h3>{extra}</li>"
                    )
                })
                .collect::<String>()
        };
        let page = |cards: String| {
            format!(
                "<head><link rel=canonical href='https://www.news.example/storm'></head>\
                 <body><article><h1>Storm</h1>{story}{story}<ul>{cards}</ul></article></body>"
            )
        };
        for (cards, stays) in [
            (list("https://shop.example.net/dp/", ""), true),
            (
                list(
                    "https://reports.example.org/r",
                    "<p>A report on floods.</p>",
                ),
                true,
            ),
            (
                list(
                    "https://other.example.org/p",
                    "<small>December 12, 2025</small>",
                ),
                false,
            ),
            (
                list(
                    "https://other.example.org/p",
                    "<time datetime=2025-12-12>Friday</time>",
                ),
                false,
            ),
            (list("/related-", ""), false),
        ] {
            let text = kept(&page(cards.clone()));
            assert_eq!(
                text.contains("Linked card number 2"),
                stays,
                "{cards}: {text}"
            );
        }
    }

    #[test]
    fn titled_cards_with_read_more_links_go_and_a_listicle_stays() {
        let story =
            "<p>The storm arrived on Sunday night, and by Monday morning the harbour walls \
            had given way in three places while the river kept rising behind them.</p>";
        let card = |h: &str| {
            format!("<div class='c'><h3>{h}</h3><p>A first sentence about it.</p><a href='/x'>Read more</a></div>")
        };
        let related = format!(
            "<body><article><h1>Storm</h1>{story}{story}{story}</article>\
             <section><h2>More on this</h2><div>{}{}</div></section></body>",
            card("Floods in the north"),
            card("Power cuts continue")
        );
        let text = kept(&related);
        assert!(text.contains("harbour"), "{text}");
        assert!(
            !text.contains("Floods") && !text.contains("More on this"),
            "{text}"
        );
        // The same cards without a title, or beside a long item, stay.
        let untitled = related.replace("<h2>More on this</h2>", "");
        assert!(kept(&untitled).contains("Floods"));
        let long = format!("<div><h3>A long item</h3>{story}{story}{story}{story}{story}</div>");
        let mixed = related.replace(
            "<div><div class='c'>",
            &format!("<div>{long}<div class='c'>"),
        );
        assert!(kept(&mixed).contains("Floods"), "{}", kept(&mixed));
    }

    #[test]
    fn one_linked_heading_is_not_a_list() {
        let html = "<body><h2><a href='/a'>A headline</a></h2><p>Its text.</p></body>";
        assert!(kept(html).contains("A headline"));
    }
}
