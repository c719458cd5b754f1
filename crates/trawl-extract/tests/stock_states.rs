//! Stock states a product page shows without structured data (issue 59):
//! the class a shop platform sets on the product's own container from its
//! stock (WooCommerce's `onbackorder` and `outofstock` on the product's
//! wrapper, Squarespace's `sold-out` on its product article), and stock
//! lines saying the product is on back order or can be pre-ordered, in
//! more languages.
//!
//! Every page below has an enabled cart button, and read in stock before:
//! the container's class and those lines were not read.

use trawl_extract::{extract, Availability, Options, PageType};

fn availability(html: &str) -> Option<Availability> {
    let r = extract(html.as_bytes(), &Options::default()).expect("extracts");
    assert_eq!(r.page_type, PageType::Product, "{html}");
    r.product.expect("a product record").availability
}

/// A shop's product page in `lang`: the heading, its price and cart button
/// inside `wrapper` (an opening tag), `line` under the price, and a row of
/// related products whose cards carry `related` as their stock class.
fn page(lang: &str, wrapper: &str, name: &str, price: &str, line: &str, cart: &str) -> String {
    let close = if wrapper.starts_with("<article") {
        "</article>"
    } else {
        "</div>"
    };
    let card = |n: u32| {
        format!(
            "<li class=\"product type-product post-{n} outofstock\"><a href=\"/p/{n}\">\
             <h2 class=\"woocommerce-loop-product__title\">Pack {n}</h2><span class=price>{price}</span></a></li>"
        )
    };
    format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{name}</title></head>
<body><header><a href="/">Shop</a><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main>{wrapper}<div class="summary"><h1 class="product_title">{name}</h1>
<p class="price"><span class="amount">{price}</span></p>{line}
<form class="cart" method="post"><button type="submit" class="single_add_to_cart_button button">{cart}</button></form></div>
<div class="description"><p>A light pack of waxed canvas with a padded sleeve, two side pockets and leather straps, sewn by hand in a small workshop.</p></div>
{close}
<section class="related"><ul class="products">{}{}</ul></section></main></body></html>"#,
        card(31),
        card(32)
    )
}

/// (lang, name, price as shown, cart label)
const SHOPS: &[(&str, &str, &str, &str)] = &[
    ("de", "Rucksack Tagwerk", "89,90 €", "In den Warenkorb"),
    ("fr", "Sac à dos Journée", "89,90 €", "Ajouter au panier"),
    ("ja", "デイパック 22L", "￥12,800", "カートに入れる"),
    ("pl", "Plecak Dzienny", "349,00 zł", "Dodaj do koszyka"),
    ("es", "Mochila Diaria", "79,95 €", "Añadir al carrito"),
    ("en", "Day Pack 22L", "$89.00", "Add to cart"),
];

#[test]
fn the_product_containers_stock_class_states_its_availability() {
    let states = [
        ("onbackorder", Availability::BackOrder),
        ("outofstock", Availability::OutOfStock),
        ("instock", Availability::InStock),
    ];
    for &(lang, name, price, cart) in SHOPS {
        for (class, want) in states {
            let wrapper = format!(
                "<div id=\"product-12\" class=\"product type-product post-12 status-publish first {class} product_cat-packs\">"
            );
            let html = page(lang, &wrapper, name, price, "", cart);
            assert_eq!(availability(&html), Some(want), "{lang}, {class}");
        }
        // Squarespace marks its product article.
        let wrapper = "<article class=\"ProductItem hentry post-type-store-item sold-out\">";
        let html = page(lang, wrapper, name, price, "", cart);
        assert_eq!(
            availability(&html),
            Some(Availability::OutOfStock),
            "{lang}, sold-out article"
        );
        // The related products' sold-out cards hold no heading of the
        // product's: a wrapper with no stock class reads its cart button.
        let wrapper = "<div id=\"product-12\" class=\"product type-product post-12\">";
        let html = page(lang, wrapper, name, price, "", cart);
        assert_eq!(
            availability(&html),
            Some(Availability::InStock),
            "{lang}, cards"
        );
    }
}

#[test]
fn back_order_and_pre_order_lines_in_more_languages() {
    let lines = [
        ("en", "Back-order", Availability::BackOrder),
        ("de", "Wird nachbestellt", Availability::BackOrder),
        ("fr", "En réapprovisionnement", Availability::BackOrder),
        ("ja", "入荷待ち", Availability::BackOrder),
        ("sv", "Restnoterad", Availability::BackOrder),
        ("nl", "In nabestelling", Availability::BackOrder),
        ("es", "Pendiente de reposición", Availability::BackOrder),
        ("ru", "Предзаказ", Availability::PreOrder),
        ("pl", "Przedsprzedaż", Availability::PreOrder),
        ("it", "Preordine", Availability::PreOrder),
        ("ko", "예약판매", Availability::PreOrder),
        ("zh-TW", "預購", Availability::PreOrder),
        ("pt", "Pré-venda", Availability::PreOrder),
    ];
    let wrapper = "<div class=\"product\">";
    for (lang, line, want) in lines {
        let line = format!("<p class=\"stock\">{line}</p>");
        let html = page(
            lang,
            wrapper,
            "Day Pack 22L",
            "$89.00",
            &line,
            "Add to cart",
        );
        assert_eq!(availability(&html), Some(want), "{lang}: {line}");
    }
}
