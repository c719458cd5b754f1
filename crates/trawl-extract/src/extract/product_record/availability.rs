//! Availability: the states a product can be in (schema.org's
//! `ItemAvailability`), and the one a page shows rather than declares: a schema.org
//! availability URL in an attribute outside microdata's items (`data-stock=…/InStock`, a
//! stray `itemprop=availability`), the stock line of its buy box ("In
//! stock", "Ausverkauft", "在庫切れ"), the stock class a shop platform sets
//! on the product's container (`onbackorder`), and last its add-to-cart
//! button. The words are the common phrases of the languages shops write
//! in; a phrase starts a short element (a line, a badge, a button), never
//! inside a sentence.

use serde::{Deserialize, Serialize};

use crate::extract::shop::controls::{
    buys, buys_in_words, is_button, starts, LineText, LINE_CHARS,
};
use crate::extract::shop::stock_words::{
    after_label, past_subject, BACK, DISCONTINUED, FEW_LEFT, IN_PHRASES, LEFT_COUNT,
    NOTIFY_PHRASES, OUT_PHRASES, PRE,
};
use crate::html::{Doc, NodeId};

/// Whether the product can be bought now (schema.org's `ItemAvailability`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Availability {
    /// In stock.
    InStock,
    /// Out of stock or sold out.
    OutOfStock,
    /// Can be ordered before release.
    PreOrder,
    /// Can be ordered, ships later.
    BackOrder,
    /// Few left.
    LimitedAvailability,
    /// No longer made or sold.
    Discontinued,
    /// Sold online only.
    OnlineOnly,
    /// Sold in stores only.
    InStoreOnly,
}

impl Availability {
    /// Reads `https://schema.org/InStock`, `InStock`, `in stock`, `oos`, `instock`.
    pub fn parse(text: &str) -> Option<Availability> {
        let t: String = text
            .rsplit(['/', ':'])
            .next()
            .unwrap_or(text)
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        Some(match t.as_str() {
            "instock" | "available" | "true" => Availability::InStock,
            "outofstock" | "oos" | "soldout" | "unavailable" | "false" => Availability::OutOfStock,
            "preorder" | "presale" => Availability::PreOrder,
            "backorder" => Availability::BackOrder,
            "limitedavailability" => Availability::LimitedAvailability,
            "discontinued" => Availability::Discontinued,
            "onlineonly" => Availability::OnlineOnly,
            "instoreonly" => Availability::InStoreOnly,
            _ => return None,
        })
    }
}

/// Longest restock notice read (`NOTIFY`); other stock lines are at most
/// [`LINE_CHARS`].
const NOTICE_CHARS: u32 = 80;

/// The state a short stock line (lower-cased, past its label and noun)
/// says, if any; element `i` holds it.
fn stock_line(doc: &Doc, i: NodeId, stock: &str) -> Option<Availability> {
    if OUT_PHRASES.starts(stock) && !unset_badge(doc, i) {
        Some(Availability::OutOfStock)
    } else if starts(stock, PRE) {
        Some(Availability::PreOrder)
    } else if starts(stock, BACK) {
        Some(Availability::BackOrder)
    } else if starts(stock, DISCONTINUED) {
        Some(Availability::Discontinued)
    } else if IN_PHRASES.starts(stock) || few_left(stock) {
        Some(Availability::InStock)
    } else {
        counted(stock)
    }
}

/// Words of a unit between a stock count and its phrase ("3 units in
/// stock", "0 Stück auf Lager").
const UNITS: &[&str] = &[
    "items ", "item ", "units ", "unit ", "pcs ", "pcs. ", "pieces ", "stück ", "stk. ", "szt. ",
    "шт. ", "шт ",
];

/// A count in stock ("12 in stock", "0 units in stock", "3 disponibles"):
/// in stock, or out of it when the count is nought.
fn counted(stock: &str) -> Option<Availability> {
    let digits = stock.bytes().take_while(u8::is_ascii_digit).count();
    let rest = stock.get(digits..)?.strip_prefix(' ')?;
    if digits == 0 {
        return None;
    }
    let rest = UNITS
        .iter()
        .find_map(|u| rest.strip_prefix(u))
        .unwrap_or(rest);
    if !IN_PHRASES.starts(rest) {
        return None;
    }
    Some(if stock[..digits].bytes().all(|b| b == b'0') {
        Availability::OutOfStock
    } else {
        Availability::InStock
    })
}

/// Whether a line (lower-cased) says few are left.
fn few_left(text: &str) -> bool {
    starts(text, FEW_LEFT)
        || LEFT_COUNT.iter().any(|p| {
            text.strip_prefix(p)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
}

/// What the page shows. `chrome` marks navigation, header, footer and
/// blocks beside the product (carousels of other products have their own
/// buttons); `anchor` is the product's heading: of several stock lines, the
/// first after it counts.
pub(super) fn shown(
    doc: &Doc,
    chrome: &dyn Fn(NodeId) -> bool,
    anchor: Option<NodeId>,
) -> Option<Availability> {
    let mut url: Option<Availability> = None;
    // (after the anchor, availability) of the first stock lines.
    let mut line: Option<(bool, Availability)> = None;
    let mut cart = false;
    let mut enabled = false;
    // A cart form's disabled submit whose label says no buying we read.
    let mut closed_unread = false;
    let mut notice = false;
    let mut line_text = LineText::default();
    for i in 0..doc.len() as NodeId {
        if !doc.is_element(i) {
            continue;
        }
        if url.is_none() {
            url = stated_apart(doc, i);
        }
        let chars = doc.agg[i as usize].chars;
        let button = is_button(doc, i);
        if (chars == 0 && !button) || chars > NOTICE_CHARS || chrome(i) {
            continue;
        }
        let text = after_label(line_text.opening(doc, i));
        let after = anchor.is_some_and(|a| i > a);
        if line.is_none_or(|(was_after, _)| !was_after && after) {
            let said = (chars <= LINE_CHARS)
                .then(|| stock_line(doc, i, past_subject(text)))
                .flatten();
            if let Some(a) = said {
                line = Some((after, a));
            }
        }
        notice |= NOTIFY_PHRASES.starts(text);
        if button && chars <= LINE_CHARS && buys(doc, i, text) {
            cart = true;
            let open = doc.attr(i, "disabled").is_none();
            enabled |= open;
            closed_unread |= !open && !buys_in_words(doc, i, text);
        }
    }
    // A restock notice beside an enabled "Add to cart" is a theme's form
    // for variants that may sell out, shown by script; alone, it says the
    // product is out. A disabled "Add to cart" still offers the product:
    // themes disable it until a size or colour is chosen (a sold-out one
    // says so). A cart form's disabled submit in words we do not read is a
    // theme's "Sold out" in a language we lack: it reads no "Add to cart".
    // A platform's stock class on the product's container comes after the
    // lines the reader sees, before what the controls imply.
    url.or(line.map(|(_, a)| a))
        .or_else(|| anchor.and_then(|a| stated_by_class(doc, a)))
        .or(((notice || closed_unread) && !enabled).then_some(Availability::OutOfStock))
        .or(cart.then_some(Availability::InStock))
}

/// A schema.org availability element `i` states outside microdata's items:
/// a URL in any attribute of an element that is no item's property
/// (`data-stock=…/InStock`), or the `href` or `content` of an
/// `itemprop=availability` that no `itemscope` holds (a theme's stray
/// `<span itemprop=availability content=…/OutOfStock>`, which microdata,
/// reading items, never sees).
fn stated_apart(doc: &Doc, i: NodeId) -> Option<Availability> {
    match doc.attr(i, "itemprop") {
        None => doc
            .attr_values(i)
            .filter(|v| v.contains("schema.org/"))
            .find_map(Availability::parse),
        Some(p) if p.trim().eq_ignore_ascii_case("availability") && !in_item(doc, i) => doc
            .attr(i, "href")
            .or_else(|| doc.attr(i, "content"))
            .and_then(Availability::parse),
        Some(_) => None,
    }
}

/// Class tokens a shop platform sets on the product's own container from
/// its stock, unlike a badge printed on every page: WooCommerce's
/// `instock`, `outofstock` and `onbackorder` on the product's wrapper
/// (`<div id="product-12" class="product type-product … onbackorder">`),
/// Squarespace's `sold-out` on its product article, and their spelled-out
/// forms.
const STATE_CLASSES: &[(&str, Availability)] = &[
    ("instock", Availability::InStock),
    ("in-stock", Availability::InStock),
    ("outofstock", Availability::OutOfStock),
    ("out-of-stock", Availability::OutOfStock),
    ("sold-out", Availability::OutOfStock),
    ("soldout", Availability::OutOfStock),
    ("onbackorder", Availability::BackOrder),
];

/// The stock state the nearest container of the product's heading
/// (`anchor`, itself included) names in its class ([`STATE_CLASSES`]). A
/// related product's card carries such a class too, but holds no heading
/// of the product's.
fn stated_by_class(doc: &Doc, anchor: NodeId) -> Option<Availability> {
    let mut cur = anchor;
    while cur != u32::MAX {
        let state = doc.class_id(cur).0.and_then(|class| {
            class.split_ascii_whitespace().find_map(|token| {
                STATE_CLASSES
                    .iter()
                    .find(|(c, _)| token.eq_ignore_ascii_case(c))
                    .map(|&(_, a)| a)
            })
        });
        if state.is_some() {
            return state;
        }
        cur = doc.nodes[cur as usize].parent;
    }
    None
}

/// Whether `i` or an ancestor opens a microdata item (`itemscope`).
pub(super) fn in_item(doc: &Doc, i: NodeId) -> bool {
    let mut cur = i;
    while cur != u32::MAX {
        if doc.attr(cur, "itemscope").is_some() {
            return true;
        }
        cur = doc.nodes[cur as usize].parent;
    }
    false
}

/// Levels above a badge searched for its block.
const BLOCK_LEVELS: usize = 8;

/// A theme's state badge printed on every page and shown by its stylesheet
/// only in that state: the badge's class names it an element of a block
/// (`price__badge-sold-out`, BEM's `block__element`), and the block
/// (`class="price price--large"`) does not carry the state's modifier
/// (`price--sold-out`). The words are then the theme's, not the product's.
fn unset_badge(doc: &Doc, id: NodeId) -> bool {
    // The badge is the line's element or one of its two nearest ancestors.
    let mut cur = id;
    for _ in 0..3 {
        let class = doc.class_id(cur).0.unwrap_or("");
        let badge = class.split_whitespace().find_map(|w| {
            let (block, element) = w.split_once("__")?;
            let state = element
                .strip_prefix("badge--")
                .or_else(|| element.strip_prefix("badge-"))?;
            (!block.is_empty() && !state.is_empty()).then_some((block, state))
        });
        if let Some((block, state)) = badge {
            return block_lacks(doc, cur, block, state);
        }
        cur = doc.nodes[cur as usize].parent;
        if cur == u32::MAX {
            return false;
        }
    }
    false
}

/// Whether the nearest ancestor of `id` of class `block` lacks the
/// modifier `block--state` (no such ancestor: the badge is not judged).
fn block_lacks(doc: &Doc, id: NodeId, block: &str, state: &str) -> bool {
    let mut cur = doc.nodes[id as usize].parent;
    for _ in 0..BLOCK_LEVELS {
        if cur == u32::MAX {
            return false;
        }
        let class = doc.class_id(cur).0.unwrap_or("");
        if class.split_whitespace().any(|w| w == block) {
            let modifier =
                |w: &str| w.strip_prefix(block).and_then(|m| m.strip_prefix("--")) == Some(state);
            return !class.split_whitespace().any(modifier);
        }
        cur = doc.nodes[cur as usize].parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::Tag;

    fn avail(html: &str) -> Option<Availability> {
        let doc = Doc::parse_str(html);
        let h1 = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1);
        shown(&doc, &|_| false, h1)
    }

    /// Regression (wcxb-dev 0591 read without its markup): a theme prints
    /// its sold-out badge on every product page and shows it only under
    /// the block's `--sold-out` modifier.
    #[test]
    fn a_state_badge_counts_only_when_its_block_is_in_that_state() {
        let page = |block: &str| {
            format!(
                "<h1>Headphones</h1><div class='{block}'><span class=price-item>$99</span>\
                 <span class='badge price__badge-sold-out'>Sold out</span></div>\
                 <button type=submit name=add>Add to cart</button>"
            )
        };
        assert_eq!(
            avail(&page("price price--large")),
            Some(Availability::InStock)
        );
        assert_eq!(
            avail(&page("price price--sold-out")),
            Some(Availability::OutOfStock)
        );
        // A badge without a block to judge it by is read as written.
        assert_eq!(
            avail("<h1>Lamp</h1><span class='card__badge-sold-out'>Sold out</span>"),
            Some(Availability::OutOfStock)
        );
    }

    /// Issue 59: a stock line under its label ("Availability: Out of
    /// stock") says what it says, whatever the cart button; back orders
    /// and discontinued products are told apart from stock.
    #[test]
    fn labelled_stock_lines_back_orders_and_discontinued_products() {
        let cart = "<button>Add to cart</button>";
        for (line, want) in [
            ("Availability: Out of stock", Availability::OutOfStock),
            ("Verfügbarkeit: Ausverkauft", Availability::OutOfStock),
            ("Disponibilité : Rupture de stock", Availability::OutOfStock),
            ("Наличие: нет в наличии", Availability::OutOfStock),
            ("在庫：在庫切れ", Availability::OutOfStock),
            ("Stock status: Pre-order", Availability::PreOrder),
            ("Backordered", Availability::BackOrder),
            (
                "Availability: Available on backorder",
                Availability::BackOrder,
            ),
            ("Discontinued", Availability::Discontinued),
            // The noun a line opens with.
            ("Produkt niedostępny", Availability::OutOfStock),
            ("Produto indisponível", Availability::OutOfStock),
            ("Item sold out", Availability::OutOfStock),
            ("Slut i lager", Availability::OutOfStock),
            ("完売", Availability::OutOfStock),
        ] {
            let html = format!("<h1>Lamp</h1><span>$20.00</span><p>{line}</p>{cart}");
            assert_eq!(avail(&html), Some(want), "{line}");
        }
        // A dispatch promise for today, with no cart control to say so
        // (wcxb-dev 0602 read without its markup).
        assert_eq!(
            avail(
                "<h1>Desk</h1><span>$20.00</span><p>Ships the same day, order by 3pm Central</p>"
            ),
            Some(Availability::InStock)
        );
        // A label of something else is not stripped.
        assert_eq!(
            avail("<h1>Lamp</h1><p>Shipping: Out of stock items ship later</p>"),
            None
        );
    }

    #[test]
    fn stock_lines_in_several_languages() {
        assert_eq!(
            avail("<h1>Lamp</h1><p>In stock (12)</p>"),
            Some(Availability::InStock)
        );
        assert_eq!(
            avail("<h1>Lampe</h1><span>Ausverkauft</span>"),
            Some(Availability::OutOfStock)
        );
        assert_eq!(
            avail("<h1>Lampe</h1><b>✓ Auf Lager</b>"),
            Some(Availability::InStock)
        );
        // Hungarian's "not in stock" opens with the word, "in stock" after.
        assert_eq!(
            avail("<h1>Lámpa</h1><p>Nincs raktáron</p><button>Kosárba</button>"),
            Some(Availability::OutOfStock)
        );
        assert_eq!(
            avail("<h1>ランプ</h1><p>在庫切れ</p>"),
            Some(Availability::OutOfStock)
        );
        assert_eq!(
            avail("<h1>Lámpara</h1><p>No disponible</p>"),
            Some(Availability::OutOfStock)
        );
        // A negation of a word that says in stock, in the language of each.
        use Availability::{InStock, OutOfStock};
        for (line, want) in [
            ("Ikke på lager", OutOfStock),
            ("På lager", InStock),
            ("Nicht auf Lager", OutOfStock),
            ("Není skladem", OutOfStock),
            ("Na skladě", InStock),
            ("Nincs készleten", OutOfStock),
            ("Készleten", InStock),
            ("Stokta yok", OutOfStock),
            ("Stokta var", InStock),
            ("Немає в наявності", OutOfStock),
            ("В наявності", InStock),
            ("Μη διαθέσιμο", OutOfStock),
            ("Indisponibil", OutOfStock),
            ("Hết hàng", OutOfStock),
            ("غير متوفر", OutOfStock),
            ("متوفر", InStock),
            ("אזל מהמלאי", OutOfStock),
            ("缺貨", OutOfStock),
            ("Εξαντλημένο", OutOfStock),
            ("Nedostupné", OutOfStock),
            // Issue 59: more of the common badges.
            ("品切れ中", OutOfStock),
            ("无货", OutOfStock),
            ("재고 없음", OutOfStock),
            ("일시품절", OutOfStock),
            ("Tijdelijk uitverkocht", OutOfStock),
            ("Non disponible", OutOfStock),
            ("Ei varastossa", OutOfStock),
            ("Disponível", InStock),
            ("In magazzino", InStock),
            ("Na stanie", InStock),
            ("Saatavilla", InStock),
            ("現貨供應", InStock),
            ("재고있음", InStock),
            ("พร้อมส่ง", InStock),
        ] {
            let html = format!("<h1>Lamp</h1><p>{line}</p>");
            assert_eq!(avail(&html), Some(want), "{line}");
        }
    }

    #[test]
    fn the_stock_line_after_the_heading_wins_and_a_cart_button_says_in_stock() {
        assert_eq!(
            avail("<p>Sold out</p><h1>Lamp</h1><p>In stock</p>"),
            Some(Availability::InStock)
        );
        assert_eq!(
            avail("<h1>Lamp</h1><button>Add to cart</button>"),
            Some(Availability::InStock)
        );
        // Disabled until a size is chosen (wcxb-dev 0606 read without its
        // markup, which says in stock).
        assert_eq!(
            avail("<h1>Lamp</h1><button disabled>Add to cart</button>"),
            Some(Availability::InStock)
        );
        assert_eq!(
            avail(r#"<h1>Lamp</h1><input type=submit value="In den Warenkorb">"#),
            Some(Availability::InStock)
        );
        // Inside a sentence it is not a stock line.
        assert_eq!(
            avail("<h1>Lamp</h1><p>Most lamps sold out in a week last year.</p>"),
            None
        );
    }

    #[test]
    fn a_schema_org_url_outside_microdata() {
        assert_eq!(
            avail(
                r#"<h1>Lamp</h1><div data-stock="https://schema.org/OutOfStock"><button>Add to cart</button></div>"#
            ),
            Some(Availability::OutOfStock)
        );
        // Issue 59: a stray microdata property that no item holds.
        let stray = |attrs: &str| {
            avail(&format!(
                "<h1>Lamp</h1><span itemprop=availability {attrs}></span><button>Add to cart</button>"
            ))
        };
        assert_eq!(
            stray("content=https://schema.org/OutOfStock"),
            Some(Availability::OutOfStock)
        );
        assert_eq!(stray("content=OutOfStock"), Some(Availability::OutOfStock));
        // Inside an item it is microdata's to read.
        assert_eq!(
            avail(
                "<h1>Lamp</h1><div itemscope><span itemprop=availability \
                 content=https://schema.org/OutOfStock></span></div><button>Add to cart</button>"
            ),
            Some(Availability::InStock)
        );
    }

    /// Issue 59: a restock notice with no enabled "Add to cart" beside it
    /// says out of stock; a line saying few are left says in stock.
    #[test]
    fn a_count_in_stock_says_in_or_out() {
        let line = |t: &str| {
            avail(&format!(
                "<h1>Stool</h1><p>{t}</p><button>Add to cart</button>"
            ))
        };
        assert_eq!(line("12 in stock"), Some(Availability::InStock));
        assert_eq!(
            line("Availability: 0 in stock"),
            Some(Availability::OutOfStock)
        );
        assert_eq!(line("0 Units in Stock"), Some(Availability::OutOfStock));
        assert_eq!(line("0 Stück auf Lager"), Some(Availability::OutOfStock));
        assert_eq!(line("3 pcs. in stock"), Some(Availability::InStock));
        // A count of something else says nothing; the button does.
        assert_eq!(line("0 reviews"), Some(Availability::InStock));
    }

    #[test]
    fn a_restock_notice_is_out_of_stock_and_few_left_is_in_stock() {
        use Availability::{InStock, OutOfStock};
        for (line, want) in [
            ("<button>Notify me when available</button>", OutOfStock),
            (
                "<span>Get notified by email when this product is in stock.</span>\
                 <button disabled>Add To Cart</button>",
                OutOfStock,
            ),
            (
                "<button>Benachrichtigen, wenn verfügbar</button>",
                OutOfStock,
            ),
            (
                "<a role=button>Me prévenir de la disponibilité</a>",
                OutOfStock,
            ),
            (
                "<button>Avísame cuando esté disponible</button>",
                OutOfStock,
            ),
            ("<button>Powiadom mnie o dostępności</button>", OutOfStock),
            ("<button>Сообщить о поступлении</button>", OutOfStock),
            ("<button>再入荷お知らせ</button>", OutOfStock),
            ("<button>到货通知</button>", OutOfStock),
            ("<button>재입고 알림 신청</button>", OutOfStock),
            (
                "<span>Only 3 left</span><button disabled>Add to cart</button>",
                InStock,
            ),
            ("<span>Just a few left. Order soon!</span>", InStock),
            ("<span>Nur noch 2 verfügbar</span>", InStock),
            ("<span>Plus que 4 en stock</span>", InStock),
            ("<span>Últimas unidades</span>", InStock),
            ("<span>残り3点</span>", InStock),
        ] {
            let html = format!("<h1>Lamp</h1><div class=price>$74.00</div>{line}");
            assert_eq!(avail(&html), Some(want), "{line}");
        }
        // Beside an enabled "Add to cart", a notice is a form for variants
        // that may sell out (wcxb-dev 0580, 0609).
        assert_eq!(
            avail("<h1>Lamp</h1><button>Add to cart</button><button>Notify me</button>"),
            Some(InStock)
        );
        // A notice in a long sentence is not one.
        assert_eq!(
            avail(
                "<h1>Lamp</h1><p>Notify me when you restock the red one, said a reader of our \
                 blog, and we did, the same week, in every size.</p>"
            ),
            None
        );
    }
}
