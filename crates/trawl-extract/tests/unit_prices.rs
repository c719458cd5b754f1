//! Unit prices beside the price paid (issue 59): the price of a kilo, a
//! litre or 100 g that the law in the EU and elsewhere makes grocers,
//! chemists and DIY shops print by the price, labelled ("Grundpreis",
//! "Prix au kilo", "Unit price", "100gあたり") or set inside the price's
//! own block ("1,49 € <span>(2,98 € / kg)</span>"). Pages without
//! structured data, in eight languages.
//!
//! Each page read wrong before: the unit price was taken for the price, or
//! the price block holding both was no price at all and the page got no
//! record.

use trawl_extract::{extract, Options, PageType};

/// A grocer's product page in `lang`: `buy_box` under the heading, then a
/// cart button labelled `cart`.
fn page(lang: &str, name: &str, buy_box: &str, cart: &str) -> String {
    format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{name}</title></head>
<body><header><a href="/">Shop</a><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main><div class="product"><h1>{name}</h1>{buy_box}
<form action="/cart/add" method="post"><button type="submit">{cart}</button></form>
<p>Rolled oats from organic farms, gently steamed and flaked, with nothing added: for porridge, baking and muesli.</p></div></main></body></html>"#
    )
}

/// The price and currency of the page's product record.
fn price(html: &str) -> (String, Option<String>) {
    let r = extract(html.as_bytes(), &Options::default()).expect("extracts");
    assert_eq!(r.page_type, PageType::Product, "{html}");
    let p = r.product.expect("a product record").price.expect("a price");
    (p.amount, p.currency)
}

/// (lang, buy box, cart label, price, currency)
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

fn check(cases: &[Case]) {
    for &(lang, buy_box, cart, amount, currency) in cases {
        let html = page(lang, "Oats 500 g", buy_box, cart);
        assert_eq!(
            price(&html),
            (amount.to_string(), Some(currency.to_string())),
            "{lang}: {buy_box}"
        );
    }
}

#[test]
fn a_labelled_unit_price_before_the_price_is_not_the_price() {
    check(&[
        (
            "de",
            "<div>(1 kg = 2,98 €)</div><div>1,49 €</div>",
            "In den Warenkorb",
            "1.49",
            "EUR",
        ),
        (
            "fr",
            "<span>Prix au kilo : 2,98 €</span><span>1,49 €</span>",
            "Ajouter au panier",
            "1.49",
            "EUR",
        ),
        (
            "en-GB",
            "<p>Unit price £3.00</p><p>£1.50</p>",
            "Add to basket",
            "1.50",
            "GBP",
        ),
        (
            "ja",
            "<p>100gあたり ￥60</p><p>￥298</p>",
            "カートに入れる",
            "298.00",
            "JPY",
        ),
        (
            "it",
            "<p>Prezzo al kg: 2,98 €</p><p>1,49 €</p>",
            "Aggiungi al carrello",
            "1.49",
            "EUR",
        ),
        (
            "pl",
            "<p>Cena za 1 kg: 5,98 zł</p><p>2,99 zł</p>",
            "Dodaj do koszyka",
            "2.99",
            "PLN",
        ),
        (
            "sv",
            "<p>Jämförpris: 59,80 kr</p><p>29,90 kr</p>",
            "Lägg i varukorgen",
            "29.90",
            "SEK",
        ),
    ]);
}

#[test]
fn a_unit_price_inside_the_prices_block_leaves_the_price() {
    check(&[
        (
            "de",
            "<div class=price>1,49 € <span>(2,98 € / 1 kg)</span></div>",
            "In den Warenkorb",
            "1.49",
            "EUR",
        ),
        (
            "en",
            "<div class=price>$1.50 <small>$3.00/lb</small></div>",
            "Add to cart",
            "1.50",
            "USD",
        ),
        (
            "de",
            "<div class=price>1,49 €<span class=base-price>Grundpreis: 2,98 € je 1 kg</span></div>",
            "In den Warenkorb",
            "1.49",
            "EUR",
        ),
        (
            "nl",
            "<div class=price>€ 1,49 <small>€ 2,98 per kg</small></div>",
            "In winkelwagen",
            "1.49",
            "EUR",
        ),
        (
            "es",
            "<div class=price>1,49 € <span>(2,98 €/kg)</span></div>",
            "Añadir al carrito",
            "1.49",
            "EUR",
        ),
    ]);
}

#[test]
fn a_unit_price_after_the_price_or_in_the_price_block_before_was_read_right_and_still_is() {
    // Guards: what read right before this rule reads the same.
    check(&[
        (
            "de",
            "<div class=price>1,49 €</div><div>(1 kg = 2,98 €)</div>",
            "In den Warenkorb",
            "1.49",
            "EUR",
        ),
        (
            "en-GB",
            "<p>£3.00 per kg</p><p>£1.50</p>",
            "Add to basket",
            "1.50",
            "GBP",
        ),
        (
            "nl",
            "<span>€ 2,98 per kg</span><span class=price>€ 1,49</span>",
            "In winkelwagen",
            "1.49",
            "EUR",
        ),
    ]);
}
