//! Where a page shows prices: the smallest elements whose text holds one
//! (a price box), an element that shows a price as bare text beside a
//! struck one, and the marks of a struck or former price (`<del>`, a class
//! such as `old-price`). `visible` reads the boxes by the product's heading;
//! `box_price` decides which of a box's prices is paid.

use super::box_price::{cents_joined, never_paid};
use super::money::{find_prices, joins_range, Found};
use crate::extract::noise::{class_id_role, matches_any_token};
use crate::html::{Doc, Kind, NodeId, Tag};

/// Longest element text read as one price label ("Sale price $29.95").
pub(super) const PRICE_BOX_CHARS: u32 = 40;

/// Class/id fragments of a former or reference price.
pub(super) const STRUCK_NAMES: &[&str] = &[
    "compare",
    "was",
    // `old-price`, `oldPrice`, nopCommerce's `old-product-price`, BEM's
    // `price--old` and `price-box__old`.
    "old",
    "strike",
    "crossed",
    "original-price",
    "price-original",
    "price--original",
    // Coupang's.
    "origin-price",
    // Abbreviated: Trendyol's `prc-org` (beside `prc-dsc`), `org-price`.
    "prc-org",
    "org-prc",
    "org-price",
    "price-org",
    "list-price",
    "listprice",
    "msrp",
    "rrp",
    "price-before",
    "line-through",
];

/// Whether the node or one of its `up` nearest ancestors satisfies `test`.
pub(super) fn up_to(doc: &Doc, id: NodeId, up: usize, test: impl Fn(NodeId) -> bool) -> bool {
    let mut cur = id;
    for _ in 0..=up {
        if test(cur) {
            return true;
        }
        let parent = doc.nodes[cur as usize].parent;
        if parent == u32::MAX {
            return false;
        }
        cur = parent;
    }
    false
}

pub(super) fn inside(doc: &Doc, id: NodeId, tags: &[Tag], up: usize) -> bool {
    up_to(doc, id, up, |n| tags.contains(&doc.tag(n)))
}

/// Inside `<del>`, `<s>` or `<strike>`, or an element whose own `style`
/// strikes it through (`text-decoration: line-through`, OpenCart's former
/// price), within `up` levels.
pub(super) fn struck_tag(doc: &Doc, id: NodeId, up: usize) -> bool {
    up_to(doc, id, up, |n| {
        matches!(doc.name(n), "del" | "s" | "strike")
            || doc.attr(n, "style").is_some_and(styled_struck)
    })
}

/// Whether an inline style strikes its text through.
fn styled_struck(style: &str) -> bool {
    style
        .as_bytes()
        .windows(b"line-through".len())
        .any(|w| w.eq_ignore_ascii_case(b"line-through"))
}

/// Whether the node or one of its `up` nearest ancestors is named for a
/// former price ([`STRUCK_NAMES`]). A class token that states what the
/// element holds beside it (Shopware's `with-list-price`, `has-old-price`)
/// names the current price's box, not a former price.
pub(super) fn struck_named(doc: &Doc, id: NodeId, up: usize) -> bool {
    up_to(doc, id, up, |n| {
        class_id_role(doc, n)
            .split(' ')
            .filter(|t| !(t.starts_with("with-") || t.starts_with("has-")))
            .any(|t| matches_any_token(t, STRUCK_NAMES))
    })
}

pub(super) fn named_like(doc: &Doc, id: NodeId, names: &[&str], up: usize) -> bool {
    up_to(doc, id, up, |n| {
        matches_any_token(class_id_role(doc, n), names)
    })
}

/// A price box: the smallest element whose text shows a price, its prices
/// and its text; or an element whose only boxes are struck through or unit
/// prices, with the prices it shows beside them ("MRP: <s>₹5,999</s>
/// ₹4,499", "1,49 € <span>(2,98 € / kg)</span>").
pub(super) struct PriceBox {
    pub(super) id: NodeId,
    pub(super) found: Vec<Found>,
    pub(super) text: String,
    /// The box holds struck boxes (or unit prices): their label ("Was")
    /// is theirs.
    pub(super) beside_struck: bool,
}

/// The texts of `id`'s subtree but those of the subtrees `skip` (in
/// document order), joined with single spaces.
fn text_without(doc: &Doc, id: NodeId, skip: &[NodeId]) -> String {
    let mut out = String::new();
    let mut skip = skip.iter().peekable();
    let mut i = id;
    while i < doc.end(id) {
        while skip.next_if(|&&s| s < i).is_some() {}
        if skip.next_if_eq(&&i).is_some() {
            i = doc.end(i);
            continue;
        }
        if doc.nodes[i as usize].kind == Kind::Text {
            let t = doc.text(i).trim();
            if !t.is_empty() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(t);
            }
        }
        i += 1;
    }
    out
}

/// Class/id fragments of a shop's "regular" price: the price paid when no
/// other is shown, the former one beside a current price.
/// Shoptet's `price-standard` beside its `price-final` is one.
/// Zen Cart's `normalprice` beside its `productSpecialPrice` is one.
const REGULAR_NAMES: &[&str] = &["regular", "standard", "normal"];
/// Class/id fragments of the price paid now, beside a regular one.
const CURRENT_NAMES: &[&str] = &[
    "current",
    "sale",
    "special",
    "final",
    "price-new",
    "new-price",
];
/// Boxes read on each side of a regular price for its current one.
const CURRENT_NEAR_BOXES: usize = 3;
/// Levels up from each box to the container they share.
const SHARED_LEVELS: usize = 4;

/// Which of `boxes` are a regular price beside a current one in the same
/// container (PrestaShop: `<span class=regular-price>32,00 €</span>` and
/// `<div class=current-price>24,50 €</div>`, the first struck by a
/// stylesheet): former prices. A regular price alone is the price (a card's
/// `regular-price`), and so is a box named both (BigCommerce's `current-price
/// regular-price`).
pub(super) fn regular_beside_current(doc: &Doc, boxes: &[PriceBox]) -> Vec<bool> {
    let named = |id: NodeId, names: &[&str]| {
        up_to(doc, id, 2, |n| {
            let (class, ident) = doc.class_id(n);
            [class, ident]
                .into_iter()
                .flatten()
                .any(|s| camel_named(s, names))
        })
    };
    // Most pages name no regular price: then none is asked for a current one.
    let regular: Vec<bool> = boxes.iter().map(|b| named(b.id, REGULAR_NAMES)).collect();
    if !regular.contains(&true) {
        return regular;
    }
    let current: Vec<bool> = boxes
        .iter()
        .zip(&regular)
        .map(|(b, &regular)| !regular && named(b.id, CURRENT_NAMES))
        .collect();
    let ancestors = |id: NodeId| {
        let mut up = Vec::with_capacity(SHARED_LEVELS);
        let mut cur = doc.nodes[id as usize].parent;
        while cur != u32::MAX && up.len() < SHARED_LEVELS {
            up.push(cur);
            cur = doc.nodes[cur as usize].parent;
        }
        up
    };
    boxes
        .iter()
        .enumerate()
        .map(|(k, b)| {
            if current[k] || !regular[k] {
                return false;
            }
            let mine = ancestors(b.id);
            let near =
                k.saturating_sub(CURRENT_NEAR_BOXES)..(k + CURRENT_NEAR_BOXES + 1).min(boxes.len());
            near.filter(|&j| j != k && current[j])
                .any(|j| ancestors(boxes[j].id).iter().any(|a| mine.contains(a)))
        })
        .collect()
}

/// Whether one of `pats` (lower-case) opens a word of `names` (a class or
/// id as written): after a space, `-` or `_`, or at a capital that follows
/// a small letter (`productSpecialPrice`), in any case.
fn camel_named(names: &str, pats: &[&str]) -> bool {
    let b = names.as_bytes();
    (0..b.len())
        .filter(|&at| {
            at == 0
                || matches!(b[at - 1], b' ' | b'-' | b'_')
                || (b[at].is_ascii_uppercase() && b[at - 1].is_ascii_lowercase())
        })
        .any(|at| {
            pats.iter().any(|p| {
                b.get(at..at + p.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(p.as_bytes()))
            })
        })
}

/// Most visible characters between the two ends of a range shown in two
/// elements ("£20.00 – £35.00").
const RANGE_GAP_CHARS: u64 = 6;

/// The top of a range whose low end `low` is the last price of `boxes[k]`
/// and whose top is the first price of the next box, the two joined by a
/// dash or a word of range in the text between them (WooCommerce's
/// variable product: `<span class=amount>£20.00</span> &ndash; <span
/// class=amount>£35.00</span>`). `before` counts the visible characters
/// before each node.
pub(super) fn range_top_beside<'a>(
    doc: &Doc,
    boxes: &'a [PriceBox],
    k: usize,
    low: &Found,
    before: &[u64],
) -> Option<&'a Found> {
    let this = boxes.get(k)?;
    let next = boxes.get(k + 1)?;
    if this.found.last().map(|f| f.at) != Some(low.at) {
        return None;
    }
    let end = doc.end(this.id);
    let gap = before.get(next.id as usize)? - before.get(end as usize)?;
    if next.id < end || gap > RANGE_GAP_CHARS {
        return None;
    }
    let between: String = (end..next.id)
        .filter(|&i| doc.nodes[i as usize].kind == Kind::Text)
        .map(|i| doc.text(i))
        .collect();
    let high = next.found.first()?;
    joins_range(low, &between, high).then_some(high)
}

/// Whether `text` holds a digit of any script (a price's amount).
fn has_digit(text: &str) -> bool {
    if text.is_ascii() {
        text.bytes().any(|b| b.is_ascii_digit())
    } else {
        text.chars().any(char::is_numeric)
    }
}

/// Whether each node's text holds a digit of any script: no price or
/// code without one, and most small elements (menu items, labels) have
/// none.
pub(super) fn digits(doc: &Doc) -> Vec<bool> {
    let n = doc.len();
    let mut digit = vec![false; n];
    for i in (0..n).rev() {
        let parent = doc.nodes[i].parent as usize;
        if digit[i] && parent < n {
            digit[parent] = true;
        }
        if doc.nodes[i].kind == Kind::Text && has_digit(doc.text(i as NodeId)) {
            digit[i] = true;
            if parent < n {
                digit[parent] = true;
            }
        }
    }
    digit
}

/// The page's price boxes, in document order; `digit` is [`digits`].
pub(super) fn price_boxes(doc: &Doc, german: bool, digit: &[bool]) -> Vec<PriceBox> {
    let n = doc.len();
    // Whether an element holds a box, and one not struck through.
    let mut holds = vec![false; n];
    let mut plain = vec![false; n];
    let mut boxes: Vec<PriceBox> = Vec::new();
    for i in (0..n).rev() {
        let id = i as NodeId;
        let parent = doc.nodes[i].parent as usize;
        if doc.nodes[i].kind != Kind::Element {
            continue;
        }
        let chars = doc.agg[i].chars;
        let small = chars > 0 && chars <= PRICE_BOX_CHARS;
        let beside_struck = holds[i];
        if beside_struck && (plain[i] || !small) {
            if parent < n {
                holds[parent] = true;
                plain[parent] |= plain[i];
            }
            continue;
        }
        if !small || !digit[i] {
            continue;
        }
        let mut text = if beside_struck {
            // Without the struck boxes below: their prices and labels are theirs.
            let end = doc.end(id);
            let below: Vec<NodeId> = boxes
                .iter()
                .rev()
                .take_while(|b| b.id < end)
                .map(|b| b.id)
                .collect();
            text_without(doc, id, &below)
        } else {
            doc.plain_text(id)
        };
        let mut found = find_prices(&text);
        if !found.is_empty() {
            if let Some(joined) = cents_joined(doc, id, &text) {
                found = find_prices(&joined);
                text = joined;
            }
        }
        if german {
            // "1 TL" is a teaspoon (Teelöffel) in German, not a lira.
            found.retain(|f| !f.raw.ends_with("TL"));
        }
        if found.is_empty() {
            if beside_struck && parent < n {
                holds[parent] = true;
            }
            continue;
        }
        let struck = !beside_struck && (struck_tag(doc, id, 2) || struck_named(doc, id, 1));
        // A unit price or an add-on set in the price's own block ("1,49 €
        // <span>(2,98 € / kg)</span>") leaves the block a box of the price
        // beside it, as a struck price does.
        let unit = (0..found.len()).all(|k| never_paid(&text, &found, k));
        holds[i] = true;
        if parent < n {
            holds[parent] = true;
            plain[parent] |= !struck && !unit;
        }
        boxes.push(PriceBox {
            id,
            found,
            text,
            beside_struck,
        });
    }
    boxes.reverse();
    boxes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn price_names_in_camel_case_and_states_beside_them() {
        assert!(camel_named("productSpecialPrice", &["special"]));
        assert!(camel_named("normalprice", &["normal"]));
        assert!(!camel_named("abnormal", &["normal"]));
        // Shopware's current price says it has a list price beside it.
        let doc = Doc::parse_str(
            "<p class='product-detail-price with-list-price'>49,95 €</p>\
             <span class='list-price-price'>59,95 €</span>",
        );
        let at = |name: &str| {
            (0..doc.len() as NodeId)
                .find(|&i| doc.name(i) == name)
                .expect(name)
        };
        assert!(!struck_named(&doc, at("p"), 0));
        assert!(struck_named(&doc, at("span"), 0));
    }
}
