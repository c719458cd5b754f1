//! A shop that sells only its own make: its name is the brand of what it
//! sells. Read last, when neither the markup nor the page names a brand.
//!
//! The shop's name is how it signs the page's title ("Men's Quarter Socks -
//! Bombas", "Atelier Sofa – Coco Republic", "Summit 24 Fire Pit Solo
//! Stove"), checked against its `og:site_name` and its host, or its
//! `og:site_name` when that spells its host ("UPLIFT Desk" on upliftdesk.com).
//! The page must be typed a product page and sell (a buy-box price or an
//! add-to-cart control). A retailer or a marketplace signs its titles the
//! same way, so the page must not show that it sells others' goods: a
//! seller's line ("Sold by", "Ships from", "Verkauf durch", "出品者"), a link
//! to its brands ("Shop by Brand", "Marken") or a maker's line under the
//! heading ("By Acme").

use super::brand::spell;
use crate::extract::metadata::{host_label, meta_get};
use crate::extract::shop::own_cart_buttons;
use crate::html::{Doc, Kind, NodeId, Tag};

/// Separators between a title's product part and the shop's signature.
const SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " » ", " · ", " :: ", " ~ "];

/// Most words of a shop's name.
const NAME_WORDS: usize = 3;

/// Lines that name the seller of an offer: a marketplace or a retailer
/// selling for others (lower-cased, at the start of a short text).
const SELLER_LINES: &[&str] = &[
    "sold by",
    "ships from",
    "sold and shipped by",
    "meet your seller",
    "about this seller",
    "seller's other items",
    "seller feedback",
    "contact seller",
    "visit store",
    "seller:",
    "vendu par",
    "vendu et expédié par",
    "verkauf durch",
    "verkauf und versand durch",
    "verkäufer:",
    "vendido por",
    "venduto da",
    "verkocht door",
    "sprzedawca:",
    "продавец:",
    "出品者",
    "販売元",
    "卖家",
    "賣家",
    "판매자",
];

/// Link texts of a retailer's brand index (lower-cased, whole).
const BRAND_INDEX: &[&str] = &[
    "brands",
    "all brands",
    "shop by brand",
    "shop brands",
    "brand directory",
    "brands a-z",
    "brands a–z",
    "top brands",
    "marken",
    "alle marken",
    "marques",
    "toutes les marques",
    "marcas",
    "todas las marcas",
    "marche",
    "merken",
    "alle merken",
    "marki",
    "бренды",
    "ブランド一覧",
    "品牌馆",
    "브랜드",
];

/// Longest text read as a seller's line or a brand index link (characters).
const LINE_CHARS: u32 = 60;

/// What the record knows of the page it is read from.
#[derive(Debug, Clone, Copy)]
pub(super) struct Page {
    /// Typed a product page (not an article whose markup holds a product).
    pub product: bool,
    /// Shows a buy-box price by its heading.
    pub priced: bool,
    /// The product's heading.
    pub anchor: Option<NodeId>,
}

/// The shop's own name as the brand: how `title` signs itself with one of
/// the site's `sites` names (compact), else the `og:site_name` that spells
/// the host of `url`; none when the page sells others' goods or sells
/// nothing.
pub(super) fn brand(
    doc: &Doc,
    title: Option<&str>,
    url: Option<&str>,
    sites: &[String],
    page: Page,
) -> Option<String> {
    // A product page that sells: a buy-box price by its heading or one
    // enabled buy box outside its chrome and its related products (a
    // recipe or a service whose markup holds a product does not sign with
    // a maker's name; a grid of cards, each with its button, sells many).
    if sites.is_empty() || !page.product {
        return None;
    }
    if !page.priced && own_cart_buttons(doc) != 1 {
        return None;
    }
    let name = title
        .and_then(|t| signature(t, sites))
        .or_else(|| site_name_of_host(doc, url))?;
    let name = name
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim_end_matches(['®', '™', '©'])
        .trim();
    let others = sells_others(doc) || made_by(doc, page.anchor);
    (!others && !name.is_empty()).then(|| name.to_string())
}

/// The shop's name as `title` ends with it: the first one to three words of
/// its last part after a separator, or of its last words when it has no
/// separator, spelling one of `sites`.
fn signature(title: &str, sites: &[String]) -> Option<String> {
    let title = title.trim();
    let cut = SEPARATORS
        .iter()
        .filter_map(|s| title.rfind(s).map(|i| i + s.len()))
        .max();
    let words: Vec<&str> = match cut {
        Some(i) => title[i..].split_whitespace().collect(),
        None => {
            let all: Vec<&str> = title.split_whitespace().collect();
            // A title that is the name alone signs nothing.
            return (1..=NAME_WORDS.min(all.len().saturating_sub(1)))
                .map(|k| &all[all.len() - k..])
                .find(|tail| sites.contains(&spell(tail)))
                .map(|tail| tail.join(" "));
        }
    };
    (1..=NAME_WORDS.min(words.len()))
        .map(|k| &words[..k])
        .find(|lead| sites.contains(&spell(lead)))
        .map(|lead| lead.join(" "))
}

/// The `og:site_name` as written when it spells the name of `url`'s host.
fn site_name_of_host(doc: &Doc, url: Option<&str>) -> Option<String> {
    let site = meta_get(doc, &["og:site_name"])?.trim();
    let host = host_label(url?)?;
    (spell(&[site]) == spell(&[&host])).then(|| site.to_string())
}

/// Nodes after the heading searched for a maker's line.
const AFTER_HEADING: u32 = 24;

/// Whether a line right under the product's heading names its maker ("By
/// Boss Office Products", "von Bosch", "par Moulinex"), as a retailer's
/// pages do.
fn made_by(doc: &Doc, anchor: Option<NodeId>) -> bool {
    let Some(h) = anchor else { return false };
    // The line may sit inside the heading's element, after its text.
    let to = (doc.end(h) + AFTER_HEADING).min(doc.len() as NodeId);
    (h + 1..to)
        .filter(|&i| !doc.is_element(i) && !doc.text(i).trim().is_empty())
        .take(3)
        .any(|i| {
            let t = doc.text(i).trim().to_lowercase();
            ["by", "von", "par", "por", "di", "door", "av", "od"]
                .iter()
                .any(|w| t == *w || t.strip_prefix(w).is_some_and(|r| r.starts_with(' ')))
        })
}

/// Whether the page shows that it sells others' goods: a seller's line or
/// a link to a brand index, anywhere (its navigation too).
fn sells_others(doc: &Doc) -> bool {
    (0..doc.len() as NodeId).any(|i| {
        let n = &doc.nodes[i as usize];
        let link = n.kind == Kind::Element && doc.tag(i) == Tag::A;
        if !(n.kind == Kind::Text || link) || doc.agg[i as usize].chars > LINE_CHARS {
            return false;
        }
        if link {
            let t = doc.plain_text(i).to_lowercase();
            BRAND_INDEX.contains(&t.trim())
        } else {
            let t = doc.text(i).to_lowercase();
            SELLER_LINES.iter().any(|s| t.trim_start().starts_with(s))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOP: Page = Page {
        product: true,
        priced: true,
        anchor: None,
    };

    fn sites(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| spell(&[n])).collect()
    }

    #[test]
    fn a_site_name_that_spells_the_host() {
        let doc = Doc::parse_str(
            r#"<html><head><meta property="og:site_name" content="UPLIFT Desk"></head></html>"#,
        );
        let site = |url| site_name_of_host(&doc, Some(url));
        assert_eq!(
            site("https://www.upliftdesk.com/x").as_deref(),
            Some("UPLIFT Desk")
        );
        assert_eq!(site("https://www.example.com/x"), None);
        assert_eq!(site_name_of_host(&doc, None), None);
    }

    #[test]
    fn a_title_signed_with_the_shops_name() {
        let s = sites(&["Bombas"]);
        assert_eq!(
            signature("Men's Quarter Socks - Bombas", &s).as_deref(),
            Some("Bombas")
        );
        let s = sites(&["hellyhansen"]);
        assert_eq!(
            signature("Men's Loke Jacket | Helly Hansen US", &s).as_deref(),
            Some("Helly Hansen")
        );
        let s = sites(&["solostove"]);
        assert_eq!(
            signature("Summit 24 Smokeless Fire Pit Solo Stove", &s).as_deref(),
            Some("Solo Stove")
        );
        // Signed by someone else, or the name alone: none.
        assert_eq!(signature("Atelier Sofa - Furniture World", &s), None);
        assert_eq!(signature("Solo Stove", &s), None);
    }

    /// Issue 59 (wcxb-dev read without its markup: Bombas, Green Roads,
    /// Ghost Wares against Zalando, Etsy, Newegg).
    #[test]
    fn the_own_shops_name_unless_the_page_sells_others_goods() {
        let page = |extra: &str| {
            Doc::parse_str(&format!(
                "<html><head><title>White Speckle Mug — Ghost Wares</title></head><body>\
                 <nav><a href=/shop>Shop</a> {extra}</nav><h1>White Speckle Mug</h1>\
                 <p>$32.00</p><button>Add to cart</button></body></html>"
            ))
        };
        let s = sites(&["Ghost Wares", "ghostwares"]);
        let own = page("");
        let title = own.meta.title.clone();
        assert_eq!(
            brand(&own, title.as_deref(), None, &s, SHOP).as_deref(),
            Some("Ghost Wares")
        );
        for extra in [
            "<a href=/brands>Shop by Brand</a>",
            "<a href=/marken>Marken</a>",
            "</nav><p>Sold by Pottery Park</p><nav>",
            "</nav><span>出品者：陶芸工房</span><nav>",
        ] {
            let other = page(extra);
            let title = other.meta.title.clone();
            assert_eq!(
                brand(&other, title.as_deref(), None, &s, SHOP),
                None,
                "{extra}"
            );
        }
    }

    /// A page with no price by its heading sells when it has one buy box:
    /// a grid of cards, each with its add-to-cart button, sells many
    /// (wcxb-dev 0644, a retailer's category page once its buttons, named
    /// only by their class, were read).
    #[test]
    fn an_unpriced_page_sells_by_one_buy_box_not_a_grid() {
        let page = |cards: usize| {
            let card = "<div><a href=/p>Grill</a> <span>from 99 €</span>\
                        <button class=js-add-to-cart></button></div>";
            Doc::parse_str(&format!(
                "<html><head><title>Grills — Ghost Wares</title></head><body>\
                 <h1>Grills</h1>{}</body></html>",
                card.repeat(cards)
            ))
        };
        let s = sites(&["Ghost Wares", "ghostwares"]);
        let unpriced = Page {
            priced: false,
            ..SHOP
        };
        let one = page(1);
        let title = one.meta.title.clone();
        assert_eq!(
            brand(&one, title.as_deref(), None, &s, unpriced).as_deref(),
            Some("Ghost Wares")
        );
        let grid = page(3);
        let title = grid.meta.title.clone();
        assert_eq!(brand(&grid, title.as_deref(), None, &s, unpriced), None);
    }

    /// A retailer names the maker under the heading (wcxb-dev's Wayfair).
    #[test]
    fn a_makers_line_under_the_heading_is_a_retailers() {
        let doc = Doc::parse_str(
            "<h1>Vinyl Executive Chair</h1><div><span>By</span> <a>Boss Office Products</a></div>",
        );
        let h1 = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1);
        assert!(made_by(&doc, h1));
        let doc = Doc::parse_str("<h1>White Speckle Mug</h1><p>Bythe sea, glazed by hand.</p>");
        let h1 = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1);
        assert!(!made_by(&doc, h1));
    }
}
