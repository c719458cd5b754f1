//! A shop page's controls: its add-to-cart buttons in the common phrases
//! of the languages shops write in ("Add to cart", "In den Warenkorb",
//! "カートに入れる"). A product page has one buy box; a grid of products has
//! a button per card. Page typing, the shell test and the product record's
//! availability read them.

use super::visible::in_chrome;
use crate::html::{Doc, NodeId, Tag};

/// Longest element text read as a stock line or a button.
pub(crate) const LINE_CHARS: u32 = 40;

const CART: &[&str] = &[
    "add to cart",
    "add to basket",
    "add to bag",
    "add to trolley",
    "add to shopping cart",
    "add to shopping bag",
    "buy now",
    "buy it now",
    "in den warenkorb",
    "in den einkaufswagen",
    "jetzt kaufen",
    "ajouter au panier",
    "acheter",
    "añadir al carrito",
    "agregar al carrito",
    "añadir a la cesta",
    "comprar",
    "aggiungi al carrello",
    "acquista",
    "in winkelwagen",
    "toevoegen aan winkelwagen",
    "lägg i varukorg",
    "læg i kurv",
    "legg i handlekurv",
    "lisää ostoskoriin",
    "do koszyka",
    "dodaj do koszyka",
    "do košíku",
    "adicionar ao carrinho",
    "в корзину",
    "добавить в корзину",
    "купить",
    "sepete ekle",
    "satın al",
    "kosárba",
    "adaugă în coș",
    "προσθήκη στο καλάθι",
    "thêm vào giỏ",
    "mua ngay",
    "beli sekarang",
    "masukkan keranjang",
    "カートに入れる",
    "カートに追加",
    "今すぐ購入",
    "加入购物车",
    "加入購物車",
    "放入购物车",
    "放入購物車",
    "立即购买",
    "立即購買",
    "直接購買",
    "장바구니",
    "바로구매",
    "구매하기",
];

/// Most text characters between two buttons of one buy box ("Add to
/// cart", a quantity, "Buy now"); no digit among them either: two cards of
/// a grid have a name and a price between their buttons.
const BETWEEN_CHARS: usize = 40;

/// How many buy boxes the page has outside its navigation, header, footer
/// and sidebars: its enabled add-to-cart buttons, those next to each other
/// counted once (a product page has one buy box, often with "Add to cart"
/// and "Buy now"; a grid of products a button per card).
pub(super) fn count(doc: &Doc) -> usize {
    let buttons = (0..doc.len() as NodeId).filter(|&i| {
        is_button(doc, i) && doc.agg[i as usize].chars <= LINE_CHARS && {
            let text = line_text(doc, i);
            let text = text.trim_start_matches(|c: char| !c.is_alphanumeric());
            // The ancestor walk last: most links are not cart buttons.
            enabled_cart(doc, i, text) && !in_chrome(doc, i)
        }
    });
    let mut boxes = 0;
    let mut last: Option<NodeId> = None;
    for b in buttons {
        if !last.is_some_and(|a| next_to(doc, a, b)) {
            boxes += 1;
        }
        last = Some(b);
    }
    boxes
}

/// Whether little text and no number stands between buttons `a` and `b`.
fn next_to(doc: &Doc, a: NodeId, b: NodeId) -> bool {
    let mut chars = 0;
    for id in doc.end(a)..b {
        if doc.is_element(id) {
            continue;
        }
        let t = doc.text(id).trim();
        chars += t.len();
        if chars > BETWEEN_CHARS || t.bytes().any(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    true
}

/// A short element's text, lower-cased: its own text, or an input's value.
pub(crate) fn line_text(doc: &Doc, i: NodeId) -> String {
    if doc.agg[i as usize].chars == 0 {
        doc.attr(i, "value").unwrap_or("").to_lowercase()
    } else {
        doc.plain_text(i).to_lowercase()
    }
}

/// A control reading "Add to cart" (`text`, lower-cased) that is not disabled.
pub(crate) fn enabled_cart(doc: &Doc, i: NodeId, text: &str) -> bool {
    doc.attr(i, "disabled").is_none() && starts(text, CART)
}

pub(crate) fn starts(text: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| {
        text.strip_prefix(p)
            .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric) || !p.is_ascii())
    })
}

/// A button, a submit input, or a link or element playing one.
pub(crate) fn is_button(doc: &Doc, i: NodeId) -> bool {
    doc.tag(i) == Tag::Button
        || doc.name(i) == "input"
            && doc.attr(i, "type").is_some_and(|t| {
                t.eq_ignore_ascii_case("submit") || t.eq_ignore_ascii_case("button")
            })
        || doc.attr(i, "role") == Some("button")
        || doc.tag(i) == Tag::A
}
