//! Product fields from what a shopper sees, for pages without structured
//! data and to check the structured data of the rest: the product's
//! headings, the buy-box price (the price closest to the name, not struck
//! through, not in a link to another product, a carousel, the reviews or
//! the page's chrome, not a monthly plan or an add-on), every price the page
//! shows, labelled codes ("SKU: …", "Item #", "Art.-Nr.", read by `codes`),
//! breadcrumbs and specification rows. `price_boxes` finds the price boxes;
//! `box_price` decides which price is paid.

use super::box_price::{
    around, box_price, buy_box_price, cents_joined, former_then_now, Candidate,
};
use super::codes;
use super::discount::formers_beside;
use super::money::{self, Found};
use super::price_boxes::{
    inside, named_like, price_boxes, range_top_beside, struck_named, struck_tag, up_to, PriceBox,
};
use super::price_labels;
use std::sync::OnceLock;

use crate::extract::noise::{class_id_role, matches_token};
use crate::html::{Doc, NodeId, Tag};

/// Whitespace folded, entities a CMS double-escaped undone.
pub(crate) fn clean(s: &str) -> String {
    let s = s
        .replace("&amp;", "&")
        .replace("&reg;", "®")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("<wbr/>", "");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a text of the page's body holds `needle`.
pub(crate) fn in_text(doc: &Doc, needle: &str) -> bool {
    let body = doc.body();
    (body..doc.end(body)).any(|id| !doc.is_element(id) && doc.text(id).contains(needle))
}

/// What the visible page says about its product.
#[derive(Debug, Default)]
pub(crate) struct Visible {
    /// Visible `<h1>` texts, in order (at most a few); the `<h2>`s when
    /// the page has no `<h1>`.
    pub headings: Vec<String>,
    /// Each heading's texts in order (a title span, a subtitle span…).
    pub heading_pieces: Vec<Vec<String>>,
    /// The buy-box price.
    pub price: Option<Found>,
    /// How far the buy-box price is from the heading, in visible
    /// characters (three times as far when it comes before it).
    pub price_distance: u64,
    /// The top of the range the buy-box price opens ("$10.00 – $20.00").
    pub price_max: Option<Found>,
    /// Amounts shown struck through or labelled as a former price.
    pub struck: Vec<String>,
    /// Every price the page shows (any place, any role).
    pub all: Vec<Found>,
    /// Labelled codes.
    pub sku: Option<String>,
    /// Labelled GTIN/UPC/EAN/ISBN.
    pub gtin: Option<String>,
    /// Labelled manufacturer part or model number.
    pub mpn: Option<String>,
    /// Breadcrumb trail.
    pub breadcrumbs: Vec<String>,
    /// Labelled specification rows.
    pub specs: Vec<(String, String)>,
    /// The product's heading (the first of `headings`' elements).
    pub anchor: Option<NodeId>,
}

/// The elements of a page's chrome.
const CHROME: [Tag; 4] = [Tag::Nav, Tag::Footer, Tag::Header, Tag::Aside];

/// In the page's navigation, header, footer or a sidebar.
pub(crate) fn in_chrome(doc: &Doc, id: NodeId) -> bool {
    inside(doc, id, &CHROME, 64)
}

/// [`in_chrome`], but for a header or sidebar of the main content that
/// holds the product's heading `anchor`: a sticky buy box in an `<aside>`
/// beside the gallery, the name and price under a `<header>` of the
/// product's `<article>`. The site's own header (outside `<main>` and
/// `<article>`) stays chrome, whatever heading it holds (a logo's `<h1>`).
fn in_chrome_apart(doc: &Doc, id: NodeId, anchor: Option<NodeId>) -> bool {
    let holds = |c: NodeId| {
        anchor.is_some_and(|a| a > c && a < doc.nodes[c as usize].end)
            && up_to(doc, c, 64, |n| {
                matches!(doc.tag(n), Tag::Main | Tag::Article)
            })
    };
    up_to(doc, id, 64, |n| CHROME.contains(&doc.tag(n)) && !holds(n))
}

/// How far (visible characters) after the name the buy box may be.
const AFTER_NAME: u64 = 3000;
/// How far before the name (layouts that put the price above it).
const BEFORE_NAME: u64 = 400;
/// Added to the distance of another seller's offer or a starting bid: any
/// other candidate is nearer.
const OTHER_OFFER_PENALTY: u64 = 4 * (AFTER_NAME + BEFORE_NAME * 3);
/// Most specification rows kept.
const MAX_SPECS: usize = 100;

/// The visible page, read once per page ([`read`] with the blocks beside
/// the product marked) and shared by typing's buy-box test and the product
/// record.
pub(crate) fn of(doc: &Doc) -> &Visible {
    static NONE: OnceLock<Visible> = OnceLock::new();
    let view = doc
        .view
        .get_or_init(|| Box::new(read(doc, super::beside::beside(doc))));
    view.downcast_ref::<Visible>()
        .unwrap_or_else(|| NONE.get_or_init(Visible::default))
}

/// Reads the visible page. `beside` marks blocks beside the product
/// (reviews, carousels); `chrome` the page's navigation, header and footer.
pub(crate) fn read(doc: &Doc, beside: &[bool]) -> Visible {
    let mut v = Visible::default();
    let n = doc.len();
    if n == 0 {
        return v;
    }
    let chrome = |id: NodeId| in_chrome(doc, id) || beside[id as usize];
    // Visible characters before each node, to measure distances as a reader would.
    let mut before = vec![0u64; n + 1];
    for i in 0..n {
        before[i + 1] = before[i] + u64::from(doc.nodes[i].chars);
    }
    // A logo drawn as the site header's heading (`<header><h1><a href=/>
    // Shop</a></h1>`) names the shop, not the product.
    let logo = |i: NodeId| {
        (in_chrome_apart(doc, i, Some(i))
            && (i + 1..doc.end(i)).any(|c| matches!(doc.tag(c), Tag::A | Tag::Img)))
            || super::heading::links_home(doc, i)
    };
    let heads = |tag: Tag, most: usize| -> Vec<NodeId> {
        (0..n as NodeId)
            .filter(|&i| doc.tag(i) == tag && doc.agg[i as usize].chars > 0 && !logo(i))
            .take(most)
            .collect()
    };
    // Without an <h1>, the first <h2> is the page's top heading (later
    // ones head sections: "Size guide", "Why this one?").
    let mut h1s = heads(Tag::H1, 4);
    if h1s.is_empty() {
        h1s = heads(Tag::H2, 1);
    }
    if h1s.is_empty() {
        h1s.extend(super::heading::title_element(doc, &|i| in_chrome(doc, i)));
    }
    for &h in &h1s {
        let text = clean(&doc.plain_text(h));
        if !text.is_empty() && text.chars().count() <= 300 {
            v.headings.push(text);
            v.heading_pieces.push(doc.plain_pieces(h));
        }
    }
    let german = doc
        .meta
        .lang
        .as_deref()
        .is_some_and(|l| l.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("de")));
    let digit = super::price_boxes::digits(doc);
    let boxes = price_boxes(doc, german, &digit);
    v.anchor = h1s.first().copied();
    let anchor = h1s.first().map(|&h| before[h as usize]);
    // (distance from the heading, position, the box's price, the top of
    // the range it opens) of every buy-box candidate; (position, amount)
    // of every struck price.
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut struck_at: Vec<(u64, String)> = Vec::new();
    // The box before this one: the text it ends with, or the text right
    // after it, labels its own price ("£25.00 <small>ex VAT</small>"), not
    // the next one's.
    let mut last_box: Option<(usize, usize, Option<usize>)> = None;
    let regular_former = formers_beside(doc, &boxes, beside);
    for (k, b) in boxes.iter().enumerate() {
        let PriceBox {
            id,
            found,
            text,
            beside_struck,
        } = b;
        v.all.extend(found.iter().cloned());
        let lower = text.to_lowercase();
        let (prev, next, prev_at, next_at) = around(doc, *id);
        let prev_own = !prev_at
            .zip(last_box)
            .is_some_and(|(j, (from, to, after))| (from..to).contains(&j) || after == Some(j));
        last_box = Some((*id as usize, doc.nodes[*id as usize].end as usize, next_at));
        let marked = struck_tag(doc, *id, 3) || struck_named(doc, *id, 3) || regular_former[k];
        // A box opening with a former price's label strikes that price; a
        // later one after a label of its own is the price now ("Was $50.00
        // Now $35.00").
        let was = if marked {
            found.len()
        } else if !beside_struck && price_labels::former(&lower, &prev) {
            former_then_now(found, text).unwrap_or(found.len())
        } else {
            0
        };
        if was > 0 {
            v.struck
                .extend(found[..was].iter().map(|f| f.amount.clone()));
            let at = before[*id as usize];
            struck_at.extend(found[..was].iter().map(|f| (at, f.amount.clone())));
        }
        let found = &found[was..];
        if found.is_empty() {
            continue;
        }
        let Some(anchor) = anchor else { continue };
        let apart = beside[*id as usize] || in_chrome_apart(doc, *id, v.anchor);
        if apart || inside(doc, *id, &[Tag::A, Tag::Button], 64) {
            continue;
        }
        let Some((pick, net)) = box_price(found, text, (&prev, prev_own), &next) else {
            continue;
        };
        let at = before[*id as usize];
        let distance = if at >= anchor {
            let d = at - anchor;
            if d > AFTER_NAME {
                continue;
            }
            d
        } else {
            let d = anchor - at;
            if d > BEFORE_NAME {
                continue;
            }
            d * 3
        };
        // Another seller's offer or a starting bid is the price only when
        // the page shows no other.
        // So is a price before tax beside the price a shopper pays.
        let distance = if price_labels::other_offer(&lower, &prev) || net {
            distance + OTHER_OFFER_PENALTY
        } else {
            distance
        };
        let top = money::range_top(text, pick, found)
            .or_else(|| range_top_beside(doc, &boxes, k, pick, &before))
            .cloned();
        candidates.push((distance, at, pick.clone(), top));
    }
    // An amount whose currency is not shown, nearer the heading than any
    // price shown with one.
    let nearest = candidates.iter().map(|c| c.0).min().unwrap_or(u64::MAX);
    let unshown = v
        .anchor
        .and_then(|h| unshown_price(doc, beside, h, &before, nearest));
    if let Some((distance, price)) = unshown {
        (v.price, v.price_distance) = (Some(price), distance);
    } else if let Some((distance, _, price, top)) = buy_box_price(candidates, &struck_at) {
        (v.price, v.price_max, v.price_distance) = (Some(price), top, distance);
    }
    let c = codes::read(doc, beside, &digit, &|id| in_chrome(doc, id), &|id| {
        named_like(doc, id, codes::ASIDE_NAMES, 64)
    });
    (v.sku, v.gtin, v.mpn) = (c.sku, c.gtin, c.mpn);
    v.breadcrumbs = breadcrumbs(doc);
    v.specs = specs(doc, &chrome);
    v
}

/// Most characters of an amount shown without its currency.
const UNSHOWN_CHARS: u32 = 16;

/// Nearer the heading `anchor` than `nearer_than` (the nearest price shown
/// with its currency), an amount alone in an element named for a price
/// (`<span class="price">129.00</span>`, its symbol drawn by a stylesheet
/// or an icon), not struck, not in a link, a button or the blocks beside
/// the product, with its distance from the heading; the nearest. `before`
/// counts the visible characters before each node.
fn unshown_price(
    doc: &Doc,
    beside: &[bool],
    anchor: NodeId,
    before: &[u64],
    nearer_than: u64,
) -> Option<(u64, Found)> {
    if nearer_than == 0 {
        return None;
    }
    let from = before[anchor as usize];
    let mut best: Option<(u64, Found)> = None;
    for id in doc.names_holding("price") {
        let i = id as usize;
        let chars = doc.agg[i].chars;
        if chars == 0 || chars > UNSHOWN_CHARS || beside[i] {
            continue;
        }
        if !matches_token(class_id_role(doc, id), "price")
            || struck_tag(doc, id, 3)
            || struck_named(doc, id, 3)
            || inside(doc, id, &[Tag::A, Tag::Button], 64)
        {
            continue;
        }
        // Cents set apart are the amount's ("17<sup>99</sup>").
        let text = doc.plain_text(id);
        let text = cents_joined(doc, id, &text).unwrap_or(text);
        let text = text.trim();
        let Some(amount) = bare_amount(text) else {
            continue;
        };
        let at = before[i];
        let distance = match at.checked_sub(from) {
            Some(d) if d <= AFTER_NAME => d,
            Some(_) => continue,
            None if from - at <= BEFORE_NAME => (from - at) * 3,
            None => continue,
        };
        if distance >= nearer_than
            || best.as_ref().is_some_and(|(d, _)| *d <= distance)
            || in_chrome_apart(doc, id, Some(anchor))
        {
            continue;
        }
        let found = Found {
            raw: text.to_string(),
            amount,
            named: money::Named::Unshown,
            at: 0,
        };
        best = Some((distance, found));
    }
    best
}

/// An amount written alone with its cents ("129.00", "1.299,00"), above
/// zero.
fn bare_amount(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let cents = b.len() >= 4
        && b[0].is_ascii_digit()
        && b[b.len() - 2..].iter().all(u8::is_ascii_digit)
        && matches!(b[b.len() - 3], b'.' | b',')
        && b.iter().all(|c| c.is_ascii_digit() || b".,' ".contains(c));
    if !cents {
        return None;
    }
    let amount = money::parse_amount(text, false)?;
    (amount.parse::<f64>().ok()? > 0.0).then_some(amount)
}

fn breadcrumbs(doc: &Doc) -> Vec<String> {
    let Some(trail) = (0..doc.len() as NodeId).find(|&i| {
        doc.is_element(i)
            && doc.agg[i as usize].chars > 0
            && (class_id_role(doc, i).contains("breadcrumb")
                || doc
                    .attr(i, "aria-label")
                    .is_some_and(|a| a.to_ascii_lowercase().contains("breadcrumb")))
    }) else {
        return Vec::new();
    };
    let end = doc.nodes[trail as usize].end;
    let items: Vec<NodeId> = (trail + 1..end)
        .filter(|&i| doc.tag(i) == Tag::Li)
        .collect();
    let items = if items.is_empty() {
        (trail + 1..end).filter(|&i| doc.tag(i) == Tag::A).collect()
    } else {
        items
    };
    items
        .into_iter()
        .map(|i| clean(&doc.plain_text(i)))
        .map(|t| t.trim_matches(['/', '>', '›', '»', '|', ' ']).to_string())
        .filter(|t| !t.is_empty() && t.chars().count() <= 80)
        .collect()
}

fn specs(doc: &Doc, chrome: &dyn Fn(NodeId) -> bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let cells = |row: NodeId, tags: &[Tag]| -> Vec<NodeId> {
        doc.children(row)
            .filter(|&c| tags.contains(&doc.tag(c)))
            .collect()
    };
    for i in 0..doc.len() {
        if out.len() >= MAX_SPECS {
            break;
        }
        let id = i as NodeId;
        let pair = match doc.tag(id) {
            Tag::Tr => {
                let c = cells(id, &[Tag::Th, Tag::Td]);
                (c.len() == 2).then(|| (c[0], c[1]))
            }
            Tag::Dt => {
                let parent = doc.nodes[i].parent;
                let mut sib = doc.children(parent).skip_while(|&c| c != id).skip(1);
                sib.find(|&c| doc.is_element(c))
                    .filter(|&c| doc.tag(c) == Tag::Dd)
                    .map(|dd| (id, dd))
            }
            _ => None,
        };
        let Some((l, r)) = pair else { continue };
        if chrome(id) {
            continue;
        }
        let label = clean(&doc.plain_text(l));
        let value = clean(&doc.plain_text(r));
        let label = label.trim_end_matches(':').trim().to_string();
        if label.is_empty()
            || value.is_empty()
            || label.chars().count() > 50
            || value.chars().count() > 300
        {
            continue;
        }
        out.push((label, value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visible(html: &str) -> Visible {
        let doc = Doc::parse_str(html);
        let beside = vec![false; doc.len()];
        read(&doc, &beside)
    }

    /// Issue 59: cents a theme sets apart (a superscript, a span of their
    /// own) belong to the amount: "$35<sup>99</sup>" was read as $35.
    #[test]
    fn cents_set_apart_belong_to_the_amount() {
        for (html, want) in [
            ("<span class=price>$35<sup>99</sup></span>", "35.99"),
            (
                "<span class=price><span>$</span><span>35</span><span>.99</span></span>",
                "35.99",
            ),
            ("<span class=price>1.299<sup>00</sup> €</span>", "1299.00"),
            ("<span class=price><b>129</b><b>,95</b> €</span>", "129.95"),
            ("<span class=price>129,<sup>99</sup> €</span>", "129.99"),
            // A footnote's mark is no cents.
            ("<span class=price>$35<sup>1</sup></span>", "35.00"),
        ] {
            let v = visible(&format!("<h1>Kettle</h1>{html}"));
            assert_eq!(v.price.map(|p| p.amount).as_deref(), Some(want), "{html}");
        }
    }

    /// Issue 59: a free-shipping threshold printed above the buy box
    /// ("Free shipping on orders over $50") is not the price.
    #[test]
    fn a_threshold_is_not_the_price() {
        for (promo, price, want) in [
            ("Free shipping on orders over $50", "$35.00", "35.00"),
            ("Free delivery when you spend £40", "£24.99", "24.99"),
            ("Livraison offerte dès 60 €", "49,00 €", "49.00"),
            (
                "Versandkostenfrei ab einem Bestellwert von 50 €",
                "29,95 €",
                "29.95",
            ),
        ] {
            let v = visible(&format!(
                "<h1>Kettle</h1><p class=promo>{promo}</p><p class=price>{price}</p>"
            ));
            assert_eq!(v.price.map(|p| p.amount).as_deref(), Some(want), "{promo}");
        }
        // "From" opens a price, not a threshold.
        let v = visible("<h1>Kettle</h1><p class=price>From $89.00</p>");
        assert_eq!(v.price.map(|p| p.amount).as_deref(), Some("89.00"));
    }

    /// Issue 59: "Was $50.00 Now $35.00" in one text: the label strikes
    /// the price it opens, the price after "Now" is paid (the whole box
    /// was struck, and the page had no price and no record).
    #[test]
    fn a_former_label_strikes_its_own_price_not_the_next() {
        for (line, now, was) in [
            ("Was $50.00 Now $35.00", "35.00", "50.00"),
            ("UVP 59,99 € jetzt 39,99 €", "39.99", "59.99"),
            ("Statt 59,99 € nur 39,99 €", "39.99", "59.99"),
            ("Antes 199,99 € Ahora 149,99 €", "149.99", "199.99"),
        ] {
            let v = visible(&format!("<h1>Kettle</h1><p class=price>{line}</p>"));
            let price = v.price.map(|p| p.amount);
            assert_eq!(price.as_deref(), Some(now), "{line}");
            assert!(v.struck.iter().any(|s| s == was), "{line}: {:?}", v.struck);
        }
        // A former range, or a former price alone, gives no price.
        for line in ["Was $50.00 - $60.00", "Was $50.00"] {
            let v = visible(&format!("<h1>Kettle</h1><p class=price>{line}</p>"));
            assert_eq!(v.price, None, "{line}");
        }
    }

    #[test]
    fn buy_box_price_beats_carousels_and_struck_prices() {
        let v = visible(
            r#"<header><a href=/cart>Cart $0.00</a></header>
            <h1>Trekking Backpack 40L</h1>
            <div class=price><s>£114.90</s> <span>£94.90</span></div>
            <p>SKU: TB-40-01</p>
            <ul class=related><li><a href=/x>Day pack <span>£54.90</span></a></li></ul>"#,
        );
        let p = v.price.unwrap();
        assert_eq!((p.amount.as_str(), p.raw.as_str()), ("94.90", "£94.90"));
        assert_eq!(v.struck, vec!["114.90"]);
        assert_eq!(v.sku.as_deref(), Some("TB-40-01"));
        assert_eq!(v.headings, vec!["Trekking Backpack 40L"]);
    }

    /// Issue 59: a former price struck through by its inline style
    /// (OpenCart's theme: `<span style="text-decoration: line-through;">`
    /// above the price in an `<h2>`) is struck, not paid.
    #[test]
    fn a_price_struck_by_its_style_is_not_paid() {
        for style in [
            "text-decoration: line-through;",
            "TEXT-DECORATION:LINE-THROUGH",
            "color:#999;text-decoration-line:line-through",
        ] {
            let v = visible(&format!(
                r#"<h1>Canon EOS 5D</h1><ul><li><span style="{style}">$122.00</span></li>
                <li><h2>$98.00</h2></li><li>Ex Tax: $80.00</li></ul>"#
            ));
            assert_eq!(
                v.price.map(|p| p.amount).as_deref(),
                Some("98.00"),
                "{style}"
            );
            assert_eq!(v.struck, vec!["122.00"], "{style}");
        }
    }

    /// Issue 59: a range whose two ends are elements of their own, joined
    /// by a dash between them (WooCommerce's variable product), keeps its
    /// top as `price_max`; two prices apart, or falling, are no range.
    #[test]
    fn a_range_across_two_elements_keeps_its_top() {
        let amount = |a: &str| format!("<span class=amount><bdi>&pound;{a}</bdi></span>");
        for (between, want) in [
            (" &ndash; ", Some("35.00")),
            (" - ", Some("35.00")),
            (" to ", Some("35.00")),
            (" ", None),
            (" or from ", None),
        ] {
            let html = format!(
                "<h1>Steel Bottle</h1><p class=price>{}{between}{}</p>",
                amount("20.00"),
                amount("35.00")
            );
            let v = visible(&html);
            assert_eq!(
                v.price.map(|p| p.amount).as_deref(),
                Some("20.00"),
                "{html}"
            );
            assert_eq!(v.price_max.map(|p| p.amount).as_deref(), want, "{html}");
        }
        let v = visible(&format!(
            "<h1>Steel Bottle</h1><p class=price>{} &ndash; {}</p>",
            amount("35.00"),
            amount("20.00")
        ));
        assert_eq!(v.price_max, None);
    }

    /// Issue 59: a regular price beside a current one in the same block
    /// (PrestaShop) is the former price; alone, or named current too, it
    /// is the price.
    #[test]
    fn a_regular_price_beside_a_current_one_is_former() {
        for (html, want) in [
            (
                "<div class=prices><span class=regular-price>32,00 €</span>\
                 <div class=current-price><span>24,50 €</span></div></div>",
                "24.50",
            ),
            (
                "<div><span class=regular-price>32,00 €</span></div>",
                "32.00",
            ),
            (
                "<div class='current-price regular-price'>32,00 €</div>",
                "32.00",
            ),
        ] {
            let v = visible(&format!("<h1>Gourde inox</h1>{html}"));
            assert_eq!(v.price.map(|p| p.amount).as_deref(), Some(want), "{html}");
        }
    }

    /// Issue 59: a logo set as the site header's `<h1>` is not the
    /// product's heading; the product's own `<h1>` or `<h2>` is. A heading
    /// in the product's own header stays.
    #[test]
    fn a_logo_heading_in_the_site_header_is_not_the_product() {
        for (page, name) in [
            (
                "<header><h1 class=logo><a href=/>Shop</a></h1></header>\
                 <main><h2>Cordless Drill</h2><span>$129.00</span></main>",
                "Cordless Drill",
            ),
            (
                "<header><h1><a href=/><img src=/logo.png alt=Shop></a></h1></header>\
                 <main><h1>Cordless Drill</h1><span>$129.00</span></main>",
                "Cordless Drill",
            ),
            (
                "<main><article><header><h1><a href=/p/1>Cordless Drill</a></h1></header>\
                 <span>$129.00</span></article></main>",
                "Cordless Drill",
            ),
        ] {
            let v = visible(page);
            assert_eq!(v.headings.first().map(String::as_str), Some(name), "{page}");
            assert_eq!(
                v.price.map(|p| p.amount).as_deref(),
                Some("129.00"),
                "{page}"
            );
        }
    }

    /// Issue 59: the list price shown first under a label of a former
    /// price, in many languages, gives way to the deal price after it.
    #[test]
    fn a_labelled_list_price_gives_way_to_the_deal() {
        for (label, old, now, paid) in [
            ("Was:", "$49.90", "$39.90", "39.90"),
            ("Ancien prix :", "49,90 €", "39,90 €", "39.90"),
            ("Antes:", "49,90 €", "39,90 €", "39.90"),
            ("Invece di", "49,90 €", "39,90 €", "39.90"),
            ("Voorheen", "€ 49,90", "€ 39,90", "39.90"),
            ("Było:", "49,90 zł", "39,90 zł", "39.90"),
            ("Было", "4 990 ₽", "3 990 ₽", "3990.00"),
            ("原價", "NT$1,290", "NT$990", "990.00"),
            ("定価", "¥4,980", "¥3,980", "3980.00"),
            ("정가", "49,000원", "39,000원", "39000.00"),
            ("Precio de lista:", "90,00 €", "74,00 €", "74.00"),
            ("通常価格", "¥4,980", "¥3,980", "3980.00"),
            ("Cena regularna:", "49,90 zł", "39,90 zł", "39.90"),
            ("Eski fiyat:", "499,90 TL", "399,90 TL", "399.90"),
            ("市场价", "¥499", "¥399", "399.00"),
        ] {
            let v = visible(&format!(
                "<h1>Field Lamp</h1><div><span>{label}</span> <span>{old}</span></div>\
                 <div><span class=now>{now}</span></div>"
            ));
            assert_eq!(v.price.map(|p| p.amount).as_deref(), Some(paid), "{label}");
        }
    }

    /// Issue 59: another seller's offer and an auction's starting bid,
    /// nearer the heading than the main offer, give way to it; alone, the
    /// starting bid is the price.
    #[test]
    fn other_sellers_and_a_starting_bid_give_way_to_the_main_offer() {
        for (first, second, paid) in [
            (
                "<div>Other sellers from <span>$61.20</span></div>",
                "<div class=buybox><span>$74.00</span></div>",
                "74.00",
            ),
            (
                "<div>Starting bid: <span>US $10.00</span></div>",
                "<div>Current bid: <span>US $25.50</span></div>",
                "25.50",
            ),
            (
                "<div>Startpreis: <span>10,00 EUR</span></div>",
                "<div>Aktuelles Gebot: <span>25,50 EUR</span></div>",
                "25.50",
            ),
            (
                "<p><span>Autres vendeurs à partir de 61,20 €</span></p>",
                "<p><span>74,00 €</span></p>",
                "74.00",
            ),
            (
                "<div>Precio de salida: <b>10,00 €</b></div>",
                "<div>Puja actual: <b>25,50 €</b></div>",
                "25.50",
            ),
            (
                "<div>その他の出品者: <span>￥6,120</span></div>",
                "<div><span>￥7,400</span></div>",
                "7400.00",
            ),
        ] {
            let v = visible(&format!(
                "<h1>Field Lamp</h1>{first}{second}<p>A lamp for the field.</p>"
            ));
            assert_eq!(v.price.map(|p| p.amount).as_deref(), Some(paid), "{first}");
        }
        let v = visible("<h1>Camera</h1><div>Starting bid: <span>US $10.00</span></div>");
        assert_eq!(v.price.map(|p| p.amount).as_deref(), Some("10.00"));
    }

    /// Issue 59: a business price before tax, printed before or beside the
    /// price a shopper pays, gives way to it; alone, it is the price.
    #[test]
    fn a_price_before_tax_gives_way_to_the_price_with_it() {
        for (buy_box, paid) in [
            (
                "<p>£25.00 <small>ex VAT</small></p><p>£30.00 <small>inc VAT</small></p>",
                "30.00",
            ),
            ("<p>£25.00 ex VAT £30.00 inc VAT</p>", "30.00"),
            ("<p>Inc VAT: £30.00 Ex VAT: £25.00</p>", "30.00"),
            (
                "<p>Prix HT : <b>25,00 €</b></p><p><b>30,00 €</b> TTC</p>",
                "30.00",
            ),
            (
                "<div><span>25,00 €</span><span>zzgl. MwSt.</span></div><div>30,00 €</div>",
                "30.00",
            ),
            (
                "<p>Cena netto: 25,00 zł</p><p>Cena brutto: 30,00 zł</p>",
                "30.00",
            ),
            ("<p>¥2,500（税抜）</p><p>¥2,750（税込）</p>", "2750.00"),
            ("<p>£25.00 ex VAT</p>", "25.00"),
            // "Plus shipping" is no tax label.
            ("<p>25,00 € zzgl. Versand</p><p>Set: 40,00 €</p>", "25.00"),
        ] {
            let v = visible(&format!(
                "<h1>Field Lamp</h1>{buy_box}<p>A lamp for the field.</p>"
            ));
            assert_eq!(
                v.price.map(|p| p.amount).as_deref(),
                Some(paid),
                "{buy_box}"
            );
        }
    }

    /// A recipe's "1 TL" (Teelöffel, a teaspoon) on a German page is no
    /// price (trafilatura-eval's chefkoch was typed a product for it); on a
    /// Turkish page it is a lira.
    #[test]
    fn a_german_teaspoon_is_not_a_lira() {
        let v = visible(
            "<html lang=de><body><h1>Mandarinen-Schmand-Kuchen</h1><ul><li>1 TL Backpulver</li></ul></body></html>",
        );
        assert!(v.price.is_none());
        let v = visible("<html lang=tr><body><h1>Çaydanlık</h1><p>150 TL</p></body></html>");
        assert_eq!(v.price.map(|p| p.amount).as_deref(), Some("150.00"));
    }

    #[test]
    fn rates_add_ons_and_far_prices_are_not_the_price() {
        let v = visible(
            r#"<h1>Robot Vacuum</h1><p>Plans from <b>$29/month</b></p><p>Gift wrap <i>(+$5.00)</i></p>"#,
        );
        assert!(v.price.is_none());
        let v = visible(r#"<h1>Sale</h1><div><span>Sale: £114.90 £94.90 -17%</span></div>"#);
        assert_eq!(v.price.unwrap().amount, "94.90");
    }

    /// Issue 59: a price written as bare text beside a struck one, in the
    /// same element ("MRP: <s>₹5,999</s> ₹4,499"), is a price box of its own.
    #[test]
    fn a_price_beside_a_struck_one_in_the_same_element() {
        for (html, want) in [
            (
                "<div class=price>MRP: <s>₹5,999</s> ₹4,499</div>",
                Some("4499.00"),
            ),
            (
                "<p class=price><del><span>$129.00</span></del> $99.00</p>",
                Some("99.00"),
            ),
            (
                "<p class=price>Was: <s>$129.00</s> Now $99.00</p>",
                Some("99.00"),
            ),
            // The rate after the struck price is this price's own.
            ("<p class=price>$15 <s>$20</s>/month</p>", None),
        ] {
            let v = visible(&format!("<h1>Kettle</h1>{html}"));
            assert_eq!(v.price.map(|p| p.amount).as_deref(), want, "{html}");
            assert!(!v.struck.is_empty(), "{html}");
        }
    }

    /// Issue 59: an amount alone in an element named for a price, its
    /// symbol drawn by a stylesheet, is the price when it is nearer the
    /// heading than any price shown with a currency; its currency is unknown.
    #[test]
    fn an_amount_alone_under_a_price_name() {
        let v = visible("<h1>Kettle</h1><span class=product-price>1.299,00</span>");
        let p = v.price.expect("price");
        assert_eq!(
            (p.amount.as_str(), p.named),
            ("1299.00", money::Named::Unshown)
        );
        for other in [
            // Struck, a count, a rating.
            "<span class=price-old>149.00</span>",
            "<span class=price>12</span>",
            "<span class=price>4.5 stars</span>",
        ] {
            let v = visible(&format!("<h1>Kettle</h1>{other}"));
            assert!(v.price.is_none(), "{other}");
        }
        // A price shown with its currency nearer the heading wins.
        let v = visible("<h1>Kettle</h1><b>$129.00</b><p>Steel.</p><span class=price>99.00</span>");
        assert_eq!(v.price.map(|p| p.amount).as_deref(), Some("129.00"));
        let v = visible("<h1>Kettle</h1><span class=price>99.00</span><p>Steel.</p><b>$129.00</b>");
        assert_eq!(v.price.map(|p| p.amount).as_deref(), Some("99.00"));
    }

    /// Issue 59: a saving, an instalment or a delivery charge printed
    /// between the heading and the price is not the price.
    #[test]
    fn savings_instalments_and_delivery_charges_are_not_the_price() {
        for html in [
            "<span>Save $30.00</span><span class=price>$99.00</span>",
            "<p>Pay in 4 installments of $24.75</p><span class=price>$99.00</span>",
            "<p>Shipping: $5.99</p><span class=price>$99.00</span>",
            "<p>10x de R$ 9,90</p><span class=price>R$ 99,00</span>",
            "<span class=price>$99.00 You save $30.00</span>",
        ] {
            let v = visible(&format!("<h1>Kettle</h1>{html}"));
            assert_eq!(
                v.price.map(|p| p.amount).as_deref(),
                Some("99.00"),
                "{html}"
            );
        }
        // A badge saying "Free shipping" before the price is no label.
        let v = visible("<h1>Kettle</h1><p>Free shipping</p><span class=price>$99.00</span>");
        assert_eq!(v.price.map(|p| p.amount).as_deref(), Some("99.00"));
    }

    #[test]
    fn codes_in_one_line_in_an_aside_and_under_other_labels() {
        // Read with the blocks beside the product marked, as the record does.
        let visible = |html: &str| {
            let doc = Doc::parse_str(html);
            read(&doc, crate::extract::shop::beside::beside(&doc))
        };
        // Two codes in one line; the line under a class that sets it beside
        // the text (a disclaimer) is still the product's.
        let v = visible(
            r#"<h1>Laptop</h1><p class=price>$899.99</p>
            <div class="disclaimer"><div>Model: <!-- -->ZGM-00026 SKU: <!-- -->10124570</div></div>"#,
        );
        assert_eq!(
            (v.sku.as_deref(), v.mpn.as_deref()),
            (Some("10124570"), Some("ZGM-00026"))
        );
        // A review quoting another item's code is not.
        let v = visible(
            r#"<h1>Laptop</h1><p class=price>$899.99</p>
            <p>A light laptop with a long battery life, for work and travel alike.</p>
            <div class=reviews><p>Bought with SKU: 55501234, works.</p></div>"#,
        );
        assert_eq!(v.sku, None);
        let v = visible(
            r#"<h1>Shelf</h1><p>Article Number <b>802.758.87</b></p><p>BH #POP1 • MFR #P1-RC4</p>"#,
        );
        assert_eq!(
            (v.sku.as_deref(), v.mpn.as_deref()),
            (Some("802.758.87"), Some("P1-RC4"))
        );
    }

    #[test]
    fn breadcrumbs_and_spec_rows() {
        let v = visible(
            r#"<nav class="breadcrumb"><ol><li><a href=/>Home</a> /</li><li><a href=/b>Bags</a></li><li>Pack</li></ol></nav>
            <h1>Pack</h1><table><tr><th>Weight:</th><td>1.2 kg</td></tr><tr><td>Volume</td><td>40 l</td></tr></table>
            <dl><dt>Colour</dt><dd>Green</dd></dl>"#,
        );
        assert_eq!(v.breadcrumbs, vec!["Home", "Bags", "Pack"]);
        assert_eq!(
            v.specs,
            vec![
                ("Weight".to_string(), "1.2 kg".to_string()),
                ("Volume".to_string(), "40 l".to_string()),
                ("Colour".to_string(), "Green".to_string())
            ]
        );
    }
}
