//! Amounts printed beside a product's price that are never the price paid
//! (issue 59), on pages without structured data: a unit price (the price of
//! a kilo, a litre or 100 g, which the law in the EU and elsewhere makes
//! shops print by the price), a deposit or an add-on, an instalment or a
//! monthly rate, what loyalty points are worth, a free delivery threshold;
//! and a quantity's tiers, whose first is the price. Printed before the
//! price (nearer the heading) or inside the price's own block, each was
//! read as the price before, or left the page without a price and a
//! record: 37 pages in twelve languages, and three guards.

use trawl_extract::{extract, Options, PageType};

/// A shop's product page in `lang`: `buy_box` under the heading, then a
/// cart button labelled `cart`.
fn page(lang: &str, buy_box: &str, cart: &str) -> String {
    format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Everyday Thing 2</title></head>
<body><header><a href="/">Shop</a><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main><div class="product"><h1>Everyday Thing 2</h1>{buy_box}
<form action="/cart/add" method="post"><button type="submit">{cart}</button></form>
<p>A sturdy everyday product made with care from good materials, tested for years of use and easy to repair when it wears.</p></div></main></body></html>"#
    )
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
        let html = page(lang, buy_box, cart);
        let r = extract(html.as_bytes(), &Options::default()).expect("extracts");
        assert_eq!(r.page_type, PageType::Product, "{lang}: {buy_box}");
        let p = r.product.expect("a product record").price.expect("a price");
        assert_eq!(
            (p.amount.as_str(), p.currency.as_deref()),
            (amount, Some(currency)),
            "{lang}: {buy_box}"
        );
    }
}

/// A deposit or an add-on charged beside the price: "zzgl. 0,25 € Pfand" (in the price's own block, or before it), "Deposit: $0.10", "Statiegeld", "Pant", "dont éco-participation".
#[test]
fn a_deposit_or_an_add_on_beside_the_price_is_not_the_price() {
    check(&[
        (
            "de",
            "<div class=price>1,49 € <span>zzgl. 0,25 € Pfand</span></div>",
            "In den Warenkorb",
            "1.49",
            "EUR",
        ),
        (
            "de",
            "<div>zzgl. 0,25 € Pfand</div><div class=price>1,49 €</div>",
            "In den Warenkorb",
            "1.49",
            "EUR",
        ),
        (
            "en",
            "<div>Deposit: $0.10</div><div class=price>$1.99</div>",
            "Add to cart",
            "1.99",
            "USD",
        ),
        (
            "nl",
            "<div>Statiegeld: € 0,15</div><div class=price>€ 1,29</div>",
            "In winkelwagen",
            "1.29",
            "EUR",
        ),
        (
            "fr",
            "<div>dont éco-participation : 0,50 €</div><div class=price>49,99 €</div>",
            "Ajouter au panier",
            "49.99",
            "EUR",
        ),
        (
            "sv",
            "<div>Pant: 1,00 kr</div><div class=price>19,90 kr</div>",
            "Lägg i varukorgen",
            "19.90",
            "SEK",
        ),
    ]);
}

/// Instalments counted with an "x" ("ou 3x 16,66 €", "3 × 16,66 €", "12x sem juros de"), "cuotas sin interés de", and a monthly rate told by the word after it ("monatlich", "miesięcznie").
#[test]
fn an_instalment_or_a_monthly_rate_is_not_the_price() {
    check(&[
        (
            "fr",
            "<div>ou 3x 16,66 € sans frais</div><div class=price>49,99 €</div>",
            "Ajouter au panier",
            "49.99",
            "EUR",
        ),
        (
            "es-AR",
            "<div>Hasta 12 cuotas sin interés de $ 4.166</div><div class=price>$ 49.999</div>",
            "Agregar al carrito",
            "49999.00",
            "ARS",
        ),
        (
            "de",
            "<div>Ab 4,17 € monatlich</div><div class=price>49,99 €</div>",
            "In den Warenkorb",
            "49.99",
            "EUR",
        ),
        (
            "it",
            "<div>3 × 16,66 € a tasso zero</div><div class=price>49,99 €</div>",
            "Aggiungi al carrello",
            "49.99",
            "EUR",
        ),
        (
            "pl",
            "<div>Rata 41,66 zł miesięcznie</div><div class=price>499,99 zł</div>",
            "Dodaj do koszyka",
            "499.99",
            "PLN",
        ),
        (
            "pt-BR",
            "<div>12x sem juros de R$ 41,66</div><div class=price>R$ 499,90</div>",
            "Comprar",
            "499.90",
            "BRL",
        ),
    ]);
}

/// What a purchase's loyalty points are worth: "Earn 50 points ($0.50)", "（￥50相当）", "Punkte", "puntos", "punten".
#[test]
fn a_loyalty_rewards_worth_is_not_the_price() {
    check(&[
        (
            "en",
            "<div>Earn 50 points ($0.50)</div><div class=price>$49.99</div>",
            "Add to cart",
            "49.99",
            "USD",
        ),
        (
            "ja",
            "<div>ポイント 50pt（￥50相当）</div><div class=price>￥4,980（税込）</div>",
            "カートに入れる",
            "4980.00",
            "JPY",
        ),
        (
            "de",
            "<div>Sammle 50 Punkte (0,50 €)</div><div class=price>49,99 €</div>",
            "In den Warenkorb",
            "49.99",
            "EUR",
        ),
        (
            "es",
            "<div>Gana 50 puntos (0,50 €)</div><div class=price>49,99 €</div>",
            "Añadir al carrito",
            "49.99",
            "EUR",
        ),
        (
            "nl",
            "<div>Spaar 50 punten (€ 0,50)</div><div class=price>€ 49,99</div>",
            "In winkelwagen",
            "49.99",
            "EUR",
        ),
    ]);
}

/// Free delivery from a sum, where "from" alone opens a price ("od", "ab", "desde"), and "över", "yli".
#[test]
fn a_free_delivery_threshold_is_not_the_price() {
    check(&[
        (
            "pl",
            "<div>Darmowa dostawa od 99 zł</div><div class=price>49,99 zł</div>",
            "Dodaj do koszyka",
            "49.99",
            "PLN",
        ),
        (
            "cs",
            "<div>Doprava zdarma od 1 500 Kč</div><div class=price>899 Kč</div>",
            "Do košíku",
            "899.00",
            "CZK",
        ),
        (
            "fi",
            "<div>Ilmainen toimitus yli 50 €</div><div class=price>29,90 €</div>",
            "Lisää ostoskoriin",
            "29.90",
            "EUR",
        ),
        (
            "sv",
            "<div>Fri frakt över 499 kr</div><div class=price>299 kr</div>",
            "Lägg i varukorgen",
            "299.00",
            "SEK",
        ),
        (
            "de",
            "<div>Versandkostenfrei ab 50 €</div><div class=price>29,90 €</div>",
            "In den Warenkorb",
            "29.90",
            "EUR",
        ),
        (
            "es",
            "<div>Envío gratis desde 50 €</div><div class=price>29,90 €</div>",
            "Añadir al carrito",
            "29.90",
            "EUR",
        ),
    ]);
}

/// A quantity's tiers ("1+ $10.00", "10+ $9.00"): the "+" after a count is no add-on's; the first tier is the price. Before, no price and no record.
#[test]
fn a_quantitys_first_tier_is_the_price() {
    check(&[
        (
            "en",
            "<ul class=tiers><li>1+ $10.00</li><li>10+ $9.00</li><li>50+ $8.00</li></ul>",
            "Add to cart",
            "10.00",
            "USD",
        ),
        (
            "fr",
            "<ul class=tiers><li>1+ 10,00 €</li><li>10+ 9,00 €</li><li>50+ 8,00 €</li></ul>",
            "Ajouter au panier",
            "10.00",
            "EUR",
        ),
    ]);
}

/// Unit prices (the price of a kilo, a litre, 100 g), labelled before
/// the price ("Grundpreis", "Prix au kilo", "(1 kg =", "100gあたり").
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

/// A unit price inside the price's own block: the page had no price and
/// no record, or the unit price was read.
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
