//! Which of a product's structured offers the page sells (issue 59): a
//! marketplace lists other sellers' offers beside its own, and a shop lists
//! one offer per size or colour, in the order of its catalogue. The buy box
//! shows the offer sold; the record follows it.
//!
//! Each page below read the first offer before: another seller's price, a
//! sold-out first size on a page whose cart button is live, or the first
//! size where the page's URL or the product's code selects another.

use trawl_extract::{extract, Availability, Options, PageType, Product};

fn product(html: &str) -> Product {
    product_at(html, None)
}

fn product_at(html: &str, url: Option<&str>) -> Product {
    let mut options = Options::default();
    options.url = url.map(str::to_string);
    let r = extract(html.as_bytes(), &options).expect("extracts");
    assert_eq!(r.page_type, PageType::Product, "{html}");
    r.product.expect("a product record")
}

/// A product page: `offers` as JSON-LD, `buy_box` under the heading, and a
/// cart button saying `cart` (enabled unless `sold_out` says what it reads).
fn page(lang: &str, offers: &str, buy_box: &str, cart: &str, sold_out: Option<&str>) -> String {
    let button = match sold_out {
        Some(label) => format!("<button class=add-to-cart type=submit disabled>{label}</button>"),
        None => format!("<button class=add-to-cart type=submit>{cart}</button>"),
    };
    format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Trail Runner 3</title>
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"Product","name":"Trail Runner 3","sku":"TR3","offers":[{offers}]}}</script></head>
<body><header><a href="/">Shop</a><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main><h1>Trail Runner 3</h1><div class="price">{buy_box}</div>{button}
<p>A light trail shoe with a rock plate, a grippy outsole and a mesh upper that dries fast.</p></main></body></html>"#
    )
}

fn offer(price: &str, currency: &str, availability: &str, seller: &str) -> String {
    format!(
        r#"{{"@type":"Offer","price":"{price}","priceCurrency":"{currency}","availability":"https://schema.org/{availability}","seller":{{"@type":"Organization","name":"{seller}"}}}}"#
    )
}

#[test]
fn the_buy_box_names_which_sellers_offer_is_sold() {
    // (lang, currency, first seller's price, the buy box's, as shown, cart label)
    let cases = [
        ("en", "USD", "149.00", "119.00", "$119.00", "Add to cart"),
        (
            "de",
            "EUR",
            "139.90",
            "124.95",
            "124,95 €",
            "In den Warenkorb",
        ),
        ("ja", "JPY", "16800", "14980", "￥14,980", "カートに入れる"),
        ("pt-BR", "BRL", "899.90", "749.00", "R$ 749,00", "Comprar"),
        ("ru", "RUB", "12990", "10490", "10 490 ₽", "В корзину"),
    ];
    for (lang, cur, first, sold, shown, cart) in cases {
        let offers = [
            offer(first, cur, "InStock", "Other Store"),
            offer(sold, cur, "InStock", "Shop"),
        ]
        .join(",");
        let p = product(&page(lang, &offers, shown, cart, None));
        let price = p.price.expect("a price");
        assert!(
            price.amount.trim_end_matches(".00") == sold.trim_end_matches(".00"),
            "{lang}: {} (want {sold})",
            price.amount
        );
        assert_eq!(price.currency.as_deref(), Some(cur), "{lang}");
    }
}

#[test]
fn the_first_offer_stays_when_the_buy_box_shows_it() {
    let offers = [
        offer("149.00", "USD", "InStock", "Shop"),
        offer("119.00", "USD", "InStock", "Other Store"),
    ]
    .join(",");
    let p = product(&page("en", &offers, "$149.00", "Add to cart", None));
    assert_eq!(p.price.expect("a price").amount, "149.00");
}

#[test]
fn a_sold_out_first_size_gives_way_to_the_first_in_stock_when_the_cart_is_live() {
    // (lang, sold-out label, cart label)
    let cases = [
        ("en", "Sold out", "Add to cart"),
        ("fr", "Épuisé", "Ajouter au panier"),
        ("ja", "売り切れ", "カートに追加する"),
        ("es", "Agotado", "Añadir al carrito"),
        ("pl", "Wyprzedane", "Dodaj do koszyka"),
    ];
    for (lang, sold_label, cart) in cases {
        let offers = [
            offer("129.00", "EUR", "OutOfStock", "Shop"),
            offer("129.00", "EUR", "InStock", "Shop"),
        ]
        .join(",");
        let live = product(&page(lang, &offers, "129,00 €", cart, None));
        assert_eq!(
            live.availability,
            Some(Availability::InStock),
            "{lang}: the cart button is live"
        );
        // Every size gone: the button says so, and the record with it.
        let gone = product(&page(lang, &offers, "129,00 €", cart, Some(sold_label)));
        assert_eq!(
            gone.availability,
            Some(Availability::OutOfStock),
            "{lang}: the cart button is disabled"
        );
    }
}

/// A shop's page for one product in three sizes, each size an offer with its
/// own URL and code (the shape Shopify themes write); `own_sku` is the code
/// the product states, `buy_box` the price as shown (empty: a script fills
/// it), `button` the cart control.
fn sizes_page(
    lang: &str,
    own_sku: Option<&str>,
    sizes: &[(&str, &str, &str)],
    buy_box: &str,
    button: &str,
) -> String {
    let own = own_sku.map_or(String::new(), |s| format!(r#""sku":"{s}","#));
    let offers: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(i, (price, cur, availability))| {
            format!(
                r#"{{"@type":"Offer","sku":"TR3-{i}","url":"https://shop.test/products/trail-runner-3?variant=40{i}","price":"{price}","priceCurrency":"{cur}","availability":"http://schema.org/{availability}"}}"#
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Trail Runner 3</title>
<script type="application/ld+json">{{"@context":"http://schema.org/","@type":"Product","name":"Trail Runner 3",{own}"brand":{{"@type":"Brand","name":"Northwind"}},"offers":[{}]}}</script></head>
<body><header><a href="/">Shop</a><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main><h1>Trail Runner 3</h1><div class="price">{buy_box}</div>{button}
<p>A light trail shoe with a rock plate, a grippy outsole and a mesh upper that dries fast.</p></main></body></html>"#,
        offers.join(",")
    )
}

#[test]
fn the_pages_url_selects_its_sizes_offer() {
    // (lang, currency, the three sizes' prices, cart label)
    let cases = [
        ("en", "USD", ["119.00", "129.00", "139.00"], "Add to cart"),
        (
            "de",
            "EUR",
            ["119.95", "129.95", "139.95"],
            "In den Warenkorb",
        ),
        ("ja", "JPY", ["14800", "15800", "16800"], "カートに入れる"),
        ("ko", "KRW", ["119000", "129000", "139000"], "장바구니 담기"),
        ("ru", "RUB", ["11990", "12990", "13990"], "В корзину"),
    ];
    for (lang, cur, prices, cart) in cases {
        let sizes = [
            (prices[0], cur, "InStock"),
            (prices[1], cur, "InStock"),
            (prices[2], cur, "OutOfStock"),
        ];
        let button = format!("<button class=add-to-cart type=submit>{cart}</button>");
        let html = sizes_page(lang, None, &sizes, "", &button);
        let at = |v: usize| {
            let url =
                format!("https://shop.test/products/trail-runner-3?variant=40{v}&utm_source=mail");
            product_at(&html, Some(&url))
        };
        for (v, want) in prices.iter().enumerate() {
            let p = at(v);
            let price = p.price.expect("a price");
            assert_eq!(
                price.amount.trim_end_matches(".00"),
                want.trim_end_matches(".00"),
                "{lang}: size {v}"
            );
            assert_eq!(price.currency.as_deref(), Some(cur), "{lang}");
            assert_eq!(p.sku, Some(format!("TR3-{v}")), "{lang}: size {v}");
            let stock = if v == 2 {
                Availability::OutOfStock
            } else {
                Availability::InStock
            };
            assert_eq!(p.availability, Some(stock), "{lang}: size {v}");
        }
        // The product's own URL selects no size: the first offer's.
        let p = product_at(&html, Some("https://shop.test/products/trail-runner-3"));
        assert_eq!(
            p.price.expect("a price").amount.trim_end_matches(".00"),
            prices[0].trim_end_matches(".00"),
            "{lang}"
        );
    }
}

#[test]
fn the_products_own_code_selects_its_sizes_offer() {
    // (lang, currency, price, sold-out label)
    let cases = [
        ("en", "USD", "129.00", "Sold out"),
        ("fr", "EUR", "129.00", "Épuisé"),
        ("ja", "JPY", "15800", "売り切れ"),
        ("zh-TW", "TWD", "3980", "已售完"),
        ("pl", "PLN", "549.00", "Wyprzedane"),
    ];
    for (lang, cur, price, sold_label) in cases {
        // The second size is the one the page shows: sold out, while the
        // first and third are in stock at the same price.
        let sizes = [
            (price, cur, "InStock"),
            (price, cur, "OutOfStock"),
            (price, cur, "InStock"),
        ];
        let button =
            format!("<button class=add-to-cart type=submit disabled>{sold_label}</button>");
        let html = sizes_page(lang, Some("TR3-1"), &sizes, "", &button);
        let p = product(&html);
        assert_eq!(p.availability, Some(Availability::OutOfStock), "{lang}");
        assert_eq!(p.sku.as_deref(), Some("TR3-1"), "{lang}");
        assert_eq!(
            p.price.expect("a price").amount.trim_end_matches(".00"),
            price.trim_end_matches(".00"),
            "{lang}"
        );
    }
}

/// A product group whose variants carry the codes: the first size sold out,
/// the second in stock at the same price, the page's cart button live.
#[test]
fn the_size_a_live_cart_sells_brings_its_own_code() {
    // (lang, currency, price as stated, as shown, cart label)
    let cases = [
        ("en", "USD", "90.00", "$90.00", "Add to cart"),
        ("nl", "EUR", "90.00", "€ 90,00", "In winkelwagen"),
        ("ja", "JPY", "9800", "¥9,800", "カートに入れる"),
        ("tr", "TRY", "1299.90", "1.299,90 TL", "Sepete ekle"),
        ("sv", "SEK", "899.00", "899 kr", "Lägg i varukorgen"),
    ];
    for (lang, cur, price, shown, cart) in cases {
        let variant = |size: u32, availability: &str| {
            format!(
                r#"{{"@type":"Product","sku":"RUN-{size}","name":"Runner - {size}","offers":{{"@type":"Offer","price":"{price}","priceCurrency":"{cur}","availability":"https://schema.org/{availability}"}}}}"#
            )
        };
        let html = format!(
            r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Runner</title>
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"ProductGroup","name":"Runner","productGroupID":"9001","hasVariant":[{},{}]}}</script></head>
<body><header><a href="/">Shop</a><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main><h1>Runner</h1><div class="price">{shown}</div><button class=add-to-cart type=submit>{cart}</button>
<p>A light trail shoe with a rock plate, a grippy outsole and a mesh upper that dries fast.</p></main></body></html>"#,
            variant(7, "OutOfStock"),
            variant(8, "InStock"),
        );
        let p = product(&html);
        assert_eq!(p.availability, Some(Availability::InStock), "{lang}");
        assert_eq!(p.sku.as_deref(), Some("RUN-8"), "{lang}");
    }
}
