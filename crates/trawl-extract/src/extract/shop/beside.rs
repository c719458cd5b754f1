//! What sits beside a product on its page and is not the product:
//! shoppers' reviews and questions, carousels and lists of other products,
//! disclaimers and tooltips. Computed once per page; `auto` leaves it out of
//! the text, and the buy box and the product record look past it.

use super::price_labels::OTHER_SELLERS;
use crate::extract::noise::{mark, named_any};
use crate::html::{Doc, Kind, NodeId, Tag};

/// Everything beside the product: [`side_sections`], [`card_lists`] and
/// blocks named for reviews, questions, disclaimers and tooltips ([`BESIDE_NAMES`]).
pub(crate) fn beside(doc: &Doc) -> &[bool] {
    doc.beside.get_or_init(|| mark_beside(doc))
}

fn mark_beside(doc: &Doc) -> Vec<bool> {
    let mut marked = side_sections(doc);
    // A wrapper around the product's name is not beside it, whatever its
    // class says (themes put `single-product-reviews-01` on `<body>`).
    let name = first_h1(doc);
    let named = named_any(doc, BESIDE_NAMES);
    let named = mark(doc, |id| {
        named[id as usize] && !name.is_some_and(|h| doc.contains(id, h))
    });
    for ((m, c), n) in marked.iter_mut().zip(card_lists(doc)).zip(named) {
        *m |= c || n;
    }
    marked
}

/// Class/id fragments of a bar that repeats the buy box as the shopper
/// scrolls (`sticky-add-to-cart`, `product-sticky`): a copy, not a second
/// product; and of a quick-shop control (`quick-cart`, `quickview`,
/// `quick-add`), which buys from a card or a modal a script fills, never
/// the page's own product.
const COPY_NAMES: &[&str] = &[
    "sticky",
    "quick-cart",
    "quickcart",
    "quick-shop",
    "quickshop",
    "quick-view",
    "quickview",
    "quick-add",
    "quickadd",
    "quick-buy",
    "quickbuy",
];

/// Everything beside the product ([`beside`]) and the bars that repeat its
/// buy box ([`COPY_NAMES`]): what a page with several buy boxes leaves out
/// to find its own. Computed only for such pages.
pub(crate) fn beside_or_copies(doc: &Doc) -> Vec<bool> {
    let named = named_any(doc, COPY_NAMES);
    let mut marked = mark(doc, |id| named[id as usize]);
    for (m, b) in marked.iter_mut().zip(beside(doc)) {
        *m |= *b;
    }
    marked
}

/// The page's first `<h1>` with text: the product's name.
fn first_h1(doc: &Doc) -> Option<NodeId> {
    (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1 && doc.agg[i as usize].chars > 0)
}

/// Class/id fragments of shoppers' reviews and questions, legal disclaimers,
/// tooltips and popovers (each measured to lift product pages on its own:
/// disclaimer 0.676 -> 0.680, with popover 0.683, with tooltip 0.689, all 0.691).
const BESIDE_NAMES: &[&str] = &[
    "review",
    "questions",
    "qna",
    "q-and-a",
    "disclaimer",
    "popover",
    "tooltip",
];

/// Headings that open a section beside the page's subject: shoppers' reviews
/// and questions, recommendations of other items.
const SIDE_SECTIONS: &[&str] = &[
    "review",
    "ratings",
    "questions & answers",
    "questions and answers",
    "customer questions",
    "ask a question",
    "q&a",
    "q & a",
    "also like",
    "also viewed",
    "also bought",
    "also purchased",
    "also consider",
    "also love",
    "related product",
    "related item",
    "similar item",
    "similar product",
    "recently viewed",
    "recommended",
    "recommendations",
    "bought together",
    "complete the look",
    "shop the look",
    "more from",
    "explore more",
    "you may like",
    "you might like",
    // Other sellers' offers of the same product (issue 59: the main buy
    // box's price, not another seller's; more in `OTHER_SELLERS`), and
    // best-seller lists.
    "sellers",
    "buying choices",
];

/// A heading that names a side section is short.
const SIDE_HEADING_MAX_CHARS: u32 = 60;

/// Marks the sections opened by a heading such as "Customer reviews" or "You
/// may also like" ([`SIDE_SECTIONS`]).
fn side_sections(doc: &Doc) -> Vec<bool> {
    let next_text = next_text(doc);
    mark(doc, |id| {
        doc.is_element(id) && !doc.tag(id).is_heading() && opens_side_section(doc, &next_text, id)
    })
}

/// For each node, the first non-empty text node at or after it in document
/// order (`u32::MAX` if none): the first text of a subtree is
/// `next_text[id]` when that lies before the subtree's end.
fn next_text(doc: &Doc) -> Vec<NodeId> {
    let mut next = vec![u32::MAX; doc.len() + 1];
    for i in (0..doc.len()).rev() {
        let n = &doc.nodes[i];
        next[i] = if n.kind == Kind::Text && n.chars > 0 {
            i as NodeId
        } else {
            next[i + 1]
        };
    }
    next
}

/// `id`'s subtree begins with a heading naming a side section.
fn opens_side_section(doc: &Doc, next_text: &[NodeId], id: NodeId) -> bool {
    let first = next_text[id as usize];
    if first >= doc.nodes[id as usize].end {
        return false;
    }
    let mut h = doc.nodes[first as usize].parent;
    while h != u32::MAX && h > id && !doc.tag(h).is_heading() {
        h = doc.nodes[h as usize].parent;
    }
    if h == u32::MAX || h <= id || doc.agg[h as usize].chars > SIDE_HEADING_MAX_CHARS {
        return false;
    }
    // The section is the heading's nearest container: the child of `id`
    // towards the heading holds the heading alone, so wrappers that hold
    // more before the section are not it.
    let mut child = h;
    while doc.nodes[child as usize].parent != id {
        child = doc.nodes[child as usize].parent;
    }
    if doc.agg[child as usize].chars != doc.agg[h as usize].chars {
        return false;
    }
    let text = doc.plain_text(h).to_lowercase();
    // "4.9 · 1,316 reviews" is the product's rating summary, not a section.
    !text.chars().any(|c| c.is_ascii_digit())
        && SIDE_SECTIONS
            .iter()
            .chain(OTHER_SELLERS)
            .any(|s| text.contains(s))
}

/// A card list needs this many cards.
const MIN_CARDS: usize = 3;

/// A product card's text is short: a name, a price, a rating.
const MAX_CARD_CHARS: u32 = 300;

/// Marks lists of product cards: an element with at least [`MIN_CARDS`]
/// alike children (same tag and class) that each hold a link and a price and
/// little text. On a product page these are "similar items" and "frequently
/// bought together", whatever their heading says.
fn card_lists(doc: &Doc) -> Vec<bool> {
    let prices = price_counts(doc);
    mark(doc, |id| {
        if !doc.is_element(id) {
            return false;
        }
        let mut groups: Vec<(u16, Option<&str>, usize)> = Vec::new();
        for c in doc.children(id) {
            let a = doc.agg[c as usize];
            if !doc.is_element(c)
                || a.links == 0
                || prices[c as usize] == 0
                || a.chars > MAX_CARD_CHARS
            {
                continue;
            }
            let key = (doc.nodes[c as usize].name, doc.class_id(c).0);
            match groups.iter_mut().find(|g| (g.0, g.1) == key) {
                Some(g) => g.2 += 1,
                None => groups.push((key.0, key.1, 1)),
            }
        }
        groups.iter().any(|g| g.2 >= MIN_CARDS)
    })
}

/// Price-like text nodes (a currency sign and a digit in a short text) in
/// each subtree.
fn price_counts(doc: &Doc) -> Vec<u32> {
    let mut count = vec![0u32; doc.len()];
    for i in (0..doc.len()).rev() {
        let n = &doc.nodes[i];
        if n.kind == Kind::Text && n.chars < 40 && is_price(doc.text(i as NodeId)) {
            count[i] += 1;
        }
        if n.parent != u32::MAX {
            count[n.parent as usize] += count[i];
        }
    }
    count
}

fn is_price(text: &str) -> bool {
    text.contains(['$', '€', '£', '¥', '₹']) && text.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::noise::unmarked_texts;

    #[test]
    fn side_sections_are_the_heading_and_its_section() {
        let doc = Doc::parse_str(
            "<body><div><div><h1>Mat</h1><h3>4.9 · 1,316 reviews</h3><p>Holds screws.</p></div>\
             <div class=x><h2>Customer Reviews</h2><p>Great mat.</p></div>\
             <section><div><h2>You may also like</h2></div><ul><li>Pens</li></ul></section>\
             <div><p>Intro</p><h2>Reviews</h2><p>Good.</p></div></div></body>",
        );
        let side = side_sections(&doc);
        let kept = unmarked_texts(&doc, &side);
        // The rating summary stays; a section that opens with text first is
        // not opened by its heading.
        assert_eq!(
            kept,
            [
                "Mat",
                "4.9 · 1,316 reviews",
                "Holds screws.",
                "Intro",
                "Reviews",
                "Good."
            ]
        );
    }

    /// Issue 59 (wcxb-dev 0627 read without its markup): a section of
    /// other sellers' offers is beside the product, so its prices are not
    /// the buy box's.
    #[test]
    fn other_sellers_offers_are_beside_the_product() {
        for heading in [
            "Best Sellers",
            "More Buying Choices",
            "Weitere Angebote",
            "Autres vendeurs",
        ] {
            let doc = Doc::parse_str(&format!(
                "<body><div class=side><div><h2>{heading}</h2></div>\
                 <div><a href=/s>Alliance Group</a> 4.5 <span>$769.00</span></div></div>\
                 <div><h1>Graphics Card</h1><p>$698.00</p></div></body>"
            ));
            let kept = unmarked_texts(&doc, &side_sections(&doc));
            assert_eq!(kept, ["Graphics Card", "$698.00"], "{heading}");
        }
    }

    #[test]
    fn carousels_and_reviews_are_beside_the_product() {
        let card = |i: u32| {
            format!("<div class=slide><a href=/p{i}>Other mug {i}</a><span>$2{i}.00</span></div>")
        };
        let cards: String = (0..4).map(card).collect();
        let doc = Doc::parse_str(&format!(
            "<body><div><h1>Stoneware mug</h1><p>$24.00</p><p>Hand thrown, holds 350 ml.</p></div>\
             <div class=carousel>{cards}</div><div id=product-reviews><p>Love it, five stars.</p></div><ul><li><a href=/a>Size S</a></li><li><a href=/b>Size M</a></li>\
             <li><a href=/c>Size L</a></li></ul></body>"
        ));
        let kept = unmarked_texts(&doc, beside(&doc)).concat();
        assert_eq!(
            kept,
            "Stoneware mug$24.00Hand thrown, holds 350 ml.Size SSize MSize L"
        );
    }

    #[test]
    fn a_wrapper_named_for_reviews_is_not_beside_its_product() {
        // Regression: a theme's `single-product-reviews-01` on <body> made
        // the whole page "beside", so nothing was left out.
        let doc = Doc::parse_str(
            "<body class='single-product single-product-reviews-01'><div><h1>Hemp dress</h1>\
             <p>Three layers, side zip.</p></div><div class=reviews><p>Lovely fit.</p></div></body>",
        );
        let kept = unmarked_texts(&doc, beside(&doc)).concat();
        assert_eq!(kept, "Hemp dressThree layers, side zip.");
    }
}
