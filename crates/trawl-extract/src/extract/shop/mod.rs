//! What a shop page shows: its add-to-cart controls ([`controls`]), what
//! sits beside the product ([`beside`]), the prices and codes by the
//! product's heading ([`visible`], amounts and currencies by [`money`]).
//! Page typing asks whether a page has a buy box, the shell test whether
//! its price comes by script, and the product record reads its fields from
//! the same views; each is computed once per page.

pub(crate) mod beside;
mod box_price;
mod codes;
pub(crate) mod controls;
mod discount;
mod heading;
pub(crate) mod money;
mod phrases;
mod price_boxes;
pub(crate) mod price_labels;
pub(crate) mod stock_words;
mod unit_price;
pub(crate) mod visible;

use std::sync::OnceLock;

use crate::html::{Doc, Kind, NodeId, Tag};
use controls::Boxes;

/// The buy boxes outside the page's chrome, by their add-to-cart buttons'
/// state ([`controls::count`]), counted once per page in `counted`
/// (`Meta::cart_buttons`).
pub(crate) fn buy_boxes(doc: &Doc, counted: &OnceLock<(usize, usize)>) -> Boxes {
    let (enabled, greyed) = *counted.get_or_init(|| {
        let b = controls::count(doc);
        (b.enabled, b.greyed)
    });
    Boxes { enabled, greyed }
}

/// The buy boxes with an enabled add-to-cart button ([`buy_boxes`]).
pub(crate) fn cart_buttons(doc: &Doc, counted: &OnceLock<(usize, usize)>) -> usize {
    buy_boxes(doc, counted).enabled
}

/// The buy boxes with an enabled add-to-cart button once the blocks beside
/// the product (related products' cards) are set apart: one on a product
/// page, one per card on a grid.
pub(crate) fn own_cart_buttons(doc: &Doc) -> usize {
    controls::count_apart(doc, beside::beside(doc)).enabled
}

/// A buy box: one add-to-cart button outside the page's chrome (enabled,
/// or on a page with no enabled one, greyed out: a disabled button, "Sold
/// out" where the button was, "Notify me when available"; on a page with
/// several, the one left past the blocks beside the product and a sticky
/// bar repeating it), and a price shown by the product's heading (not
/// struck through, not in a link or a carousel), at most `within` visible
/// characters from it, or with no price shown and `within` unbounded, a
/// price the enabled button carries or the Open Graph product tags state.
/// With no control at all (a script draws it), one stock line after the
/// heading stands for the button. A page with one is a product page
/// whatever else it holds.
pub(crate) fn has_buy_box(doc: &Doc, counted: &OnceLock<(usize, usize)>, within: u64) -> bool {
    let one = |b: Boxes| match b.enabled {
        0 => b.greyed == 1,
        n => n == 1,
    };
    let mut boxes = buy_boxes(doc, counted);
    if boxes.enabled + boxes.greyed > 1 {
        // A product's related products, each card with its own button.
        boxes = controls::count_apart(doc, beside::beside(doc));
        if boxes.enabled > 1 {
            // A bar repeating the buy box at the foot of the page.
            let own = controls::count_apart(doc, &beside::beside_or_copies(doc));
            if own.enabled > 0 {
                boxes = own;
            }
        }
    }
    if !one(boxes) {
        // No control at all, a script drawing it: the stock line where it
        // stands ("In stock", "Ausverkauft"), by a price near the heading.
        // The stock line first: most pages have none, and reading the
        // prices by the heading is dear.
        if boxes.enabled + boxes.greyed > 0 || !one_stock_line(doc) {
            return false;
        }
        let v = visible::of(doc);
        return v.price.is_some() && v.price_distance <= within.min(STOCK_LINE_WITHIN);
    }
    let v = visible::of(doc);
    if v.price.is_some() {
        return v.price_distance <= within;
    }
    // No price shown (a script writes it): the one the buy box's enabled
    // control carries (`data-price`) or the page's Open Graph product tags
    // state (`product:price:amount`), where the distance from the heading
    // does not matter.
    within == u64::MAX
        && boxes.enabled == 1
        && (meta_price(doc) || controls::cart_price(doc, &|i| visible::in_chrome(doc, i)).is_some())
}

/// Whether the page's Open Graph product tags state a price above nought.
fn meta_price(doc: &Doc) -> bool {
    doc.meta.metas.iter().any(|(k, v)| {
        money::OPEN_GRAPH_PRICE_KEYS.contains(&k.as_str())
            && money::parse_amount(v, true)
                .and_then(|a| a.parse::<f64>().ok())
                .is_some_and(|a| a > 0.0)
    })
}

/// Farthest (visible characters) from the heading the price of a buy box
/// told only by its stock line may be.
const STOCK_LINE_WITHIN: u64 = 1000;

/// Whether the page shows one stock line after its first `<h1>`: one
/// short text saying in or out of stock ([`stock_words::says`]) outside the
/// chrome. A grid of products shows one per card (those beside a product
/// count too).
fn one_stock_line(doc: &Doc) -> bool {
    let Some(h1) = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1) else {
        return false;
    };
    let mut lines = 0;
    let mut line = String::new();
    for i in h1 + 1..doc.len() as NodeId {
        let chars = doc.nodes[i as usize].chars;
        if doc.nodes[i as usize].kind != Kind::Text || chars == 0 || chars > controls::LINE_CHARS {
            continue;
        }
        let text = doc.text(i).trim();
        // A link's text is no stock line (menus, filters, other products).
        let parent = doc.nodes[i as usize].parent;
        if !stock_words::may_say(text) || parent == u32::MAX || doc.tag(parent) == Tag::A {
            continue;
        }
        controls::lowered_into(text, &mut line);
        if stock_words::says(&line).is_none() || visible::in_chrome(doc, i) {
            continue;
        }
        lines += 1;
        if lines > 1 {
            return false;
        }
    }
    lines == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_buy_box_makes_a_product_page_a_grid_does_not() {
        let one = Doc::parse_str(
            "<header><a href=/>Shop</a></header><h1>Field Lamp</h1>\
             <div class=buy><span class=price>$74.00</span><button>Add to cart</button></div>\
             <p>A lamp for the field.</p>",
        );
        assert!(has_buy_box(&one, &OnceLock::new(), u64::MAX));
        let grid = Doc::parse_str(
            "<h1>Lamps</h1><div><a href=/a>Lamp A</a> <span>$74.00</span><button>Add to cart</button></div>\
             <div><a href=/b>Lamp B</a> <span>$64.00</span><button>Add to cart</button></div>",
        );
        assert!(!has_buy_box(&grid, &OnceLock::new(), u64::MAX));
        // Issue 59: "Add to cart" and "Buy now" in one buy box are one box,
        // in the languages of marketplaces that show both.
        for (name, price, buttons) in [
            (
                "Field Lamp",
                "$74.00",
                "<button>Add to cart</button><button>Buy now</button>",
            ),
            (
                "무선 이어폰",
                "30,000원",
                "<button>장바구니</button> <button>바로구매</button>",
            ),
            (
                "無線耳機",
                "NT$1,290",
                "<a href=#>加入購物車</a><a href=#>立即購買</a>",
            ),
            (
                "Наушники",
                "2 490 ₽",
                "<button>Добавить в корзину</button><button>Купить в 1 клик</button>",
            ),
            (
                "Kulaklık",
                "1.299,90 TL",
                "<button>Sepete Ekle</button><button>Hemen Al</button>",
            ),
            // A price in the digits of the shop's script.
            (
                "سماعات لاسلكية",
                "١٬٢٩٩٫٥٠ د.إ",
                "<button>أضف إلى السلة</button>",
            ),
            ("ইয়ারফোন", "১২০০ ৳", "<button>Add to cart</button>"),
            (
                "イヤホン",
                "￥１，２８０",
                "<button>カートに入れる</button>",
            ),
            (
                "電動ドリル",
                "3,980円",
                "<form><input type=submit value=\"買い物かごに入れる\"></form>",
            ),
            ("אוזניות", "₪249.90", "<button>הוספה לסל</button>"),
            ("หูฟังไร้สาย", "฿1,290", "<button>ใส่ตะกร้า</button>"),
            ("Навушники", "1 299 грн", "<button>Купити</button>"),
            ("Slušalice", "49,99 €", "<button>Dodaj u košaricu</button>"),
            // An auction's bid button.
            (
                "Omega Seamaster 1968",
                "US $845.00",
                "<a href=/bid>Place bid</a>",
            ),
            ("Taschenuhr", "120,00 €", "<button>Gebot abgeben</button>"),
            ("腕時計", "12,000円", "<button>入札する</button>"),
            // A pre-order button: for sale before it ships.
            (
                "Cordless Drill 20V",
                "$129.00",
                "<button>Pre-order</button>",
            ),
            (
                "Akkuschrauber",
                "129,00 €",
                "<button>Jetzt vorbestellen</button>",
            ),
            ("ゲーム機", "49,980円", "<button>予約注文</button>"),
            // A UI kit's spinner text before the label (wcxb-dev 0607).
            (
                "Bonfire 2.0",
                "$299.99",
                "<button><div class=chakra-button__spinner><span>Loading...</span></div>\
                 <span>Add to Cart</span></button>",
            ),
            // A one-word buy button, its whole text.
            ("Cordless Drill 20V", "$129.00", "<button>Buy</button>"),
            (
                "Akkuschrauber",
                "129,00 €",
                "<button> Jetzt bestellen </button>",
            ),
            ("Borrmaskin", "1 299 kr", "<button>Köp</button>"),
        ] {
            let page = Doc::parse_str(&format!(
                "<header><a href=/>Shop</a></header><h1>{name}</h1>\
                 <div class=buy><span class=price>{price}</span><select><option>1</option></select>{buttons}</div>\
                 <p>A product for the field.</p>"
            ));
            assert!(has_buy_box(&page, &OnceLock::new(), u64::MAX), "{name}");
        }
        // A grid whose one coming product's card links "Pre-Order Now"
        // (the others "Choose options") is a grid.
        let grid = Doc::parse_str(
            "<h1>Dash Cams</h1><div><a href=/a>Cam A</a> <span>$74.00</span>\
             <a class=button href=/cart?add=1>Pre-Order Now</a></div>\
             <div><a href=/b>Cam B</a> <span>$64.00</span><a class=button href=/b>Choose options</a></div>",
        );
        assert!(!has_buy_box(&grid, &OnceLock::new(), u64::MAX));
        // Such a word opening a longer text is no buy button, nor one on a
        // link (to another shop).
        for other in [
            "<button>Buy the sequel</button>",
            "<a href=https://books.test/notes>Kaufen</a>",
        ] {
            let page = Doc::parse_str(&format!("<h1>Field Notes</h1><span>$12.00</span>{other}"));
            assert!(!has_buy_box(&page, &OnceLock::new(), u64::MAX), "{other}");
        }
        // A wishlist form's "Add" beside "Add to cart" is not a second
        // buy box (wcxb-dev 4050, typed a collection when it counted).
        let wish = Doc::parse_str(
            "<h1>Water Bottle</h1><span>$24.00</span><form><button>Add to Cart</button></form>\
             <form><input type=submit class=button-wishlist value=Add></form>",
        );
        assert!(has_buy_box(&wish, &OnceLock::new(), u64::MAX));
        // Issue 59: the related products under the product, a button on
        // each card, are beside it (the page was typed a collection).
        let cards: String = (0..6)
            .map(|i| format!("<li><a href=/p/{i}>Lamp {i}</a> <span>$1{i}.00</span><button>Add to cart</button></li>"))
            .collect();
        let related = Doc::parse_str(&format!(
            "<h1>Field Lamp</h1><span>$74.00</span><button>Add to cart</button><p>A lamp.</p>\
             <section><h2>You may also like</h2><ul>{cards}</ul></section>"
        ));
        assert!(has_buy_box(&related, &OnceLock::new(), u64::MAX));
        // Issue 59: a bar repeating the buy box as the shopper scrolls is
        // a copy of it (typed a service before).
        let sticky = Doc::parse_str(
            "<h1>Field Lamp</h1><span>$74.00</span><button>Add to cart</button><p>A lamp for the field, made to last.</p>\
             <div class=sticky-add-to-cart><span>Field Lamp</span> <span>$74.00</span><button>Add to cart</button></div>",
        );
        assert!(has_buy_box(&sticky, &OnceLock::new(), u64::MAX));
        // A button but no price by the heading.
        let no_price = Doc::parse_str("<h1>Field Lamp</h1><button>Add to cart</button>");
        assert!(!has_buy_box(&no_price, &OnceLock::new(), u64::MAX));
        // Issue 59: no price shown (a script writes it), but the button
        // carries it: a buy box on a page typed a list or a service, not
        // on an article (whose heading it may be far from).
        let by_script = Doc::parse_str(
            "<h1>Ceramic Pour Over</h1><div id=price-root></div>\
             <button data-price=34.50 data-currency=USD>Add to cart</button><p>A dripper.</p>",
        );
        assert!(has_buy_box(&by_script, &OnceLock::new(), u64::MAX));
        assert!(!has_buy_box(&by_script, &OnceLock::new(), 1000));
    }

    #[test]
    fn a_greyed_out_buy_box_is_a_buy_box_when_the_page_has_no_other() {
        // Issue 59: a sold-out product (or a theme waiting for a size)
        // greys its one "Add to cart" out; the page still sells it. Before,
        // only enabled buttons counted, and such a page (wcxb-dev 0587,
        // read without its URL) was typed a collection, with no record.
        for (name, price, buttons) in [
            (
                "Field Lamp",
                "$74.00",
                "<button disabled>Add to cart</button>",
            ),
            (
                "Chaise en chêne",
                "249,00 €",
                "<button class=add-to-cart disabled>Ajouter au panier</button>",
            ),
            (
                "ステンレスケトル",
                "3,980円",
                "<button disabled>カートに入れる</button><button disabled>今すぐ購入</button>",
            ),
            // A theme's sold-out button, a restock notice in its place, or
            // both side by side (one box).
            (
                "Canvas Tote",
                "$38.00",
                "<button type=submit name=add disabled><span>Sold out</span></button>",
            ),
            (
                "Lampada da tavolo",
                "€ 59,90",
                "<button>Avvisami quando disponibile</button>",
            ),
            (
                "Настольная лампа",
                "2 490 ₽",
                "<button disabled>Нет в наличии</button> <button>Сообщить о поступлении</button>",
            ),
        ] {
            let page = Doc::parse_str(&format!(
                "<header><a href=/>Shop</a></header><h1>{name}</h1>\
                 <div class=buy><span class=price>{price}</span>{buttons}</div>\
                 <p>A product for the field.</p>"
            ));
            let counted = OnceLock::new();
            assert!(has_buy_box(&page, &counted, u64::MAX), "{name}");
            assert_eq!(cart_buttons(&page, &counted), 0, "{name}: none enabled");
        }
        // One enabled box rules: the disabled one beside is another
        // product's (a bundle's member out of stock), and two enabled
        // boxes are a grid whatever is greyed out.
        let mixed = Doc::parse_str(
            "<h1>Field Lamp</h1><div class=buy><span class=price>$74.00</span>\
             <button>Add to cart</button></div><p>Bundle: the lamp's bulb.</p>\
             <div><span>$4.00</span><button disabled>Add to cart</button></div>",
        );
        assert!(has_buy_box(&mixed, &OnceLock::new(), u64::MAX));
        let grid = Doc::parse_str(
            "<h1>Lamps</h1><div><a href=/a>Lamp A</a> <span>$74.00</span><button disabled>Add to cart</button></div>\
             <div><a href=/b>Lamp B</a> <span>$64.00</span><button disabled>Add to cart</button></div>",
        );
        assert!(!has_buy_box(&grid, &OnceLock::new(), u64::MAX));
        // A newsletter's "Notify me" link is not a restock notice.
        let news = Doc::parse_str(
            "<h1>Field Lamp</h1><span class=price>$74.00</span>\
             <p>A lamp.</p><a href=/news>Notify me of new lamps</a>",
        );
        assert!(!has_buy_box(&news, &OnceLock::new(), u64::MAX));
    }
}
