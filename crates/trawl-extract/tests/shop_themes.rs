//! Product records from shop pages written the way platforms and
//! marketplaces we had not read print a product (tests/fixtures/shop_themes),
//! with no structured data, in eleven languages and six scripts (issue 59).
//! Each page read wrong before the rule it names:
//!
//! - a former price named for it by its class (nopCommerce's
//!   `old-product-price`, BEM's `price-box__old`), or Shoptet's
//!   `price-standard` beside its `price-final`;
//! - cents in a span named for them (`andes-money-amount__cents`);
//! - buy buttons in Arabic and Indonesian, and one in Swahili that only its
//!   class (`add-to-cart`) names: without them the page was typed a service
//!   and got no record;
//! - a marketplace page without a heading element, its name in a `<div>`
//!   the title opens with; a logo drawn as an `<h1>` that links home;
//! - codes under "Kód:", "Код:", "자체상품코드", "Kod producenta" and an
//!   English label in brackets ("رمز المنتج (SKU):");
//! - a brand row that runs on into the next label after a bar;
//! - a sale drawn for the eye (`aria-hidden`) beside its screen reader's
//!   twin (WooCommerce): both copies were left out;
//! - a current price whose class says what sits beside it (Shopware's
//!   `with-list-price`): it was read as a former price, and the page got no
//!   record; a current and a regular price named in camel case (Zen Cart's
//!   `productSpecialPrice` beside `normalprice`), Coupang's `origin-price`,
//!   Trendyol's abbreviated `prc-org`;
//! - the rouble's "р." after an amount (Tilda): no record before;
//! - a price's cents or its decimal mark in elements of their own ("1 099,"
//!   then "00 zł" read 0.00; "US $12" "." "59" read 12.00);
//! - "Artikelcode:", "Manufactured by:", a brand in `…__brand-name`;
//! - a former price told only by the discount printed beside it ("₹1,299
//!   ₹2,499 48% off"), in five languages;
//! - "original price" labels in Vietnamese, Thai, Greek, Hebrew and
//!   Indonesian, "instead of" ("au lieu de", "místo") after the price paid;
//! - a price labelled as the sale price ("促销价", "Aktionspreis", "할인가")
//!   beside a higher one under a plain "Price", in seven languages;
//! - South Africa's rand as a bare "R" ("R1,299", "R 1 299.00");
//! - a stock line ("In stock", "品切れ中") where a script draws the cart
//!   button: no record before; so did a price only the Open Graph product
//!   tags state, beside a cart button;
//! - an amount without its currency whose cents are raised ("17<sup>99</sup>"),
//!   its currency the one its place pays in (`nl-NL`: euros);
//! - a quick-shop modal's cart button (`quick-cart`) counted as a second
//!   buy box: no record before;
//! - a buy button labelled in a language the phrase list lacks, in a form
//!   that adds to the cart (Shopify's `/cart/add`), and cart phrases in
//!   more languages: no record before.

use std::path::Path;

use trawl_extract::{extract, Availability, Options, PageType, Product};

fn product(file: &str) -> Product {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/shop_themes")
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r = extract(&bytes, &Options::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(r.page_type, PageType::Product, "{file}");
    r.product
        .unwrap_or_else(|| panic!("{file}: no product record"))
}

/// What a fixture's record must say; `None` fields are not checked.
#[derive(Default)]
struct Want {
    name: Option<&'static str>,
    price: Option<(&'static str, &'static str)>,
    regular: Option<&'static str>,
    price_max: Option<&'static str>,
    sku: Option<&'static str>,
    mpn: Option<&'static str>,
    brand: Option<&'static str>,
    in_stock: bool,
}

fn check(file: &str, want: Want) {
    let p = product(file);
    if let Some(name) = want.name {
        assert_eq!(p.name.as_deref(), Some(name), "{file}: name");
    }
    if let Some((amount, currency)) = want.price {
        let price = p.price.as_ref();
        assert_eq!(
            price.map(|x| x.amount.as_str()),
            Some(amount),
            "{file}: price"
        );
        assert_eq!(p.currency.as_deref(), Some(currency), "{file}: currency");
    }
    let amount = |x: &Option<trawl_extract::Price>| x.as_ref().map(|x| x.amount.clone());
    if let Some(regular) = want.regular {
        assert_eq!(
            amount(&p.regular_price).as_deref(),
            Some(regular),
            "{file}: regular price"
        );
    }
    if let Some(top) = want.price_max {
        assert_eq!(
            amount(&p.price_max).as_deref(),
            Some(top),
            "{file}: price_max"
        );
    }
    for (field, got, wanted) in [
        ("sku", &p.sku, want.sku),
        ("mpn", &p.mpn, want.mpn),
        ("brand", &p.brand, want.brand),
    ] {
        if let Some(w) = wanted {
            assert_eq!(got.as_deref(), Some(w), "{file}: {field}");
        }
    }
    if want.in_stock {
        assert_eq!(
            p.availability,
            Some(Availability::InStock),
            "{file}: availability"
        );
    }
}

#[test]
fn a_former_price_named_by_its_class_is_not_paid() {
    check(
        "nop_en.html",
        Want {
            name: Some("Apple MacBook Pro 13-inch"),
            price: Some(("1800.00", "USD")),
            regular: Some("1900.00"),
            sku: Some("AP_MBP_13"),
            mpn: Some("MBP13-2024"),
            brand: Some("Apple"),
            in_stock: true,
            ..Want::default()
        },
    );
    check(
        "pl_shop.html",
        Want {
            price: Some(("1499.00", "PLN")),
            regular: Some("1899.00"),
            sku: Some("1029384"),
            mpn: Some("ECAM22.110.B"),
            brand: Some("DeLonghi"),
            ..Want::default()
        },
    );
    check(
        "shoptet_cs.html",
        Want {
            name: Some("Keramický hrnek Modrý"),
            price: Some(("299.00", "CZK")),
            regular: Some("349.00"),
            sku: Some("HR-0042"),
            brand: Some("Keramika Novák"),
            in_stock: true,
            ..Want::default()
        },
    );
}

/// WooCommerce's sale: each price hidden from screen readers beside its
/// twin written for them alone; the page had no price and was typed a
/// listing.
#[test]
fn a_sale_drawn_for_the_eye_beside_its_screen_readers_twin() {
    check(
        "woocommerce_sale.html",
        Want {
            name: Some("Hoodie with Logo"),
            price: Some(("35.00", "USD")),
            regular: Some("45.00"),
            ..Want::default()
        },
    );
}

#[test]
fn cents_in_a_span_named_for_them_join_their_amount() {
    check(
        "meli_split_es.html",
        Want {
            price: Some(("71999.50", "ARS")),
            regular: Some("89999.00"),
            ..Want::default()
        },
    );
}

#[test]
fn buy_buttons_in_more_languages_or_named_by_their_class_make_a_product_page() {
    check(
        "salla_ar.html",
        Want {
            name: Some("عطر العود الملكي"),
            price: Some(("249.00", "SAR")),
            sku: Some("OUD-250"),
            brand: Some("العربية للعود"),
            in_stock: true,
            ..Want::default()
        },
    );
    check(
        "id_shop.html",
        Want {
            name: Some("Sepatu Lari Pria Ortuseight Hyperglide"),
            price: Some(("459000.00", "IDR")),
            regular: Some("612000.00"),
            in_stock: true,
            ..Want::default()
        },
    );
    check(
        "sw_class.html",
        Want {
            name: Some("Kikombe cha Kahawa cha Udongo"),
            price: Some(("1200.00", "KES")),
            ..Want::default()
        },
    );
}

#[test]
fn a_page_without_a_heading_is_named_by_the_element_its_title_opens_with() {
    check(
        "jd_zh.html",
        Want {
            name: Some("小米手环8 NFC版"),
            price: Some(("269.00", "CNY")),
            regular: Some("299.00"),
            sku: Some("100056789012"),
            brand: Some("小米"),
            ..Want::default()
        },
    );
    check(
        "shopee_vi.html",
        Want {
            name: Some("Áo thun nam cotton cổ tròn"),
            price: Some(("89000.00", "VND")),
            price_max: Some("129000.00"),
            ..Want::default()
        },
    );
}

/// The shop's logo drawn as an `<h1>` linking home, in a `<div>` header:
/// it named the product.
#[test]
fn a_logo_heading_names_the_shop_not_the_product() {
    check(
        "logo_h1_div_header.html",
        Want {
            name: Some("Teak Bench 120cm"),
            price: Some(("349.00", "USD")),
            sku: Some("TB-120"),
            ..Want::default()
        },
    );
}

#[test]
fn codes_and_brands_under_more_labels() {
    check(
        "cafe24_ko.html",
        Want {
            price: Some(("39000.00", "KRW")),
            regular: Some("49000.00"),
            sku: Some("LS-BG-01"),
            brand: Some("무지린넨"),
            ..Want::default()
        },
    );
    check(
        "ua_uk.html",
        Want {
            sku: Some("354711"),
            in_stock: true,
            ..Want::default()
        },
    );
    // "Thương hiệu: Lock&Lock | Mã sản phẩm: …", "Brand: Hisense | Similar
    // products from Hisense": the brand ends at the bar.
    check(
        "vi_shop.html",
        Want {
            price: Some(("1290000.00", "VND")),
            sku: Some("EJF351BLK"),
            brand: Some("Lock&Lock"),
            in_stock: true,
            ..Want::default()
        },
    );
    check(
        "ng_en.html",
        Want {
            price: Some(("289500.00", "NGN")),
            sku: Some("HI025EA1ABCDENAFAMZ"),
            mpn: Some("43A4H"),
            brand: Some("Hisense"),
            ..Want::default()
        },
    );
}

#[test]
fn a_price_box_named_for_what_it_holds_beside_it_is_the_current_price() {
    check(
        "shopware6_de.html",
        Want {
            name: Some("Kaffeemühle Handmahlwerk"),
            price: Some(("49.95", "EUR")),
            regular: Some("59.95"),
            sku: Some("SW10042"),
            in_stock: true,
            ..Want::default()
        },
    );
    check(
        "zencart.html",
        Want {
            name: Some("Matrox G200 MMS"),
            price: Some(("269.99", "USD")),
            regular: Some("299.99"),
            brand: Some("Matrox"),
            in_stock: true,
            ..Want::default()
        },
    );
    // Abbreviated: `prc-org` beside `prc-dsc`, in a box `with-org-prc`.
    check(
        "trendyol_tr.html",
        Want {
            price: Some(("999.00", "TRY")),
            regular: Some("1299.00"),
            ..Want::default()
        },
    );
    check(
        "coupang_ko.html",
        Want {
            price: Some(("229000.00", "KRW")),
            regular: Some("289300.00"),
            ..Want::default()
        },
    );
}

#[test]
fn the_roubles_short_form_and_cents_or_marks_set_apart() {
    check(
        "tilda_ru.html",
        Want {
            name: Some("Свеча ароматическая «Лаванда»"),
            price: Some(("1500.00", "RUB")),
            regular: Some("2000.00"),
            sku: Some("LV-200"),
            ..Want::default()
        },
    );
    check(
        "allegro_pl.html",
        Want {
            price: Some(("1099.00", "PLN")),
            ..Want::default()
        },
    );
    check(
        "ali_en.html",
        Want {
            price: Some(("12.59", "USD")),
            regular: Some("25.18"),
            in_stock: true,
            ..Want::default()
        },
    );
}

#[test]
fn more_code_labels_and_brand_names() {
    check(
        "lightspeed_nl.html",
        Want {
            price: Some(("39.95", "EUR")),
            regular: Some("49.95"),
            sku: Some("SJ-GR-01"),
            in_stock: true,
            ..Want::default()
        },
    );
    check(
        "split_three_spans.html",
        Want {
            price: Some(("99.00", "USD")),
            regular: Some("179.00"),
            brand: Some("DEWALT"),
            in_stock: true,
            ..Want::default()
        },
    );
}

/// A former price told by the discount printed beside it, when no class,
/// tag or label says which price is struck: the higher price less the
/// percentage is the lower one. Before, the first price shown was the price
/// (Portuguese, German, Japanese: the list price) and none was former.
#[test]
fn a_discount_printed_beside_two_prices_tells_the_former_one() {
    for (file, price, currency, regular) in [
        ("discount_flipkart_en.html", "1299.00", "INR", "2499.00"),
        (
            "discount_tokopedia_id.html",
            "1299000.00",
            "IDR",
            "1624000.00",
        ),
        ("discount_mercado_pt.html", "149.90", "BRL", "199.90"),
        ("discount_de.html", "59.99", "EUR", "79.99"),
        ("discount_ja.html", "3486.00", "JPY", "4980.00"),
    ] {
        check(
            file,
            Want {
                price: Some((price, currency)),
                regular: Some(regular),
                ..Want::default()
            },
        );
    }
}

/// A page in `lang` whose price block holds `block` (a former price under
/// its label and the price paid, as the language writes them), its cart
/// button named by its class.
fn labelled_page(lang: &str, block: &str) -> Product {
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <title>Kettle 1.7 l - Shop</title></head><body><main><h1>Kettle 1.7 l</h1>\
         {block}<button class=\"add-to-cart\" type=\"submit\">+</button>\
         <p>A kettle of brushed steel that holds 1.7 litres and boils in three minutes.</p>\
         </main></body></html>"
    );
    let r = extract(html.as_bytes(), &Options::default()).unwrap_or_else(|e| panic!("{lang}: {e}"));
    assert_eq!(r.page_type, PageType::Product, "{lang}");
    r.product
        .unwrap_or_else(|| panic!("{lang}: no product record"))
}

/// Checks that the page `labelled_page` makes of `block` pays `price` and
/// reads `regular` as the price before.
fn paid_and_former(lang: &str, block: &str, price: &str, regular: &str) {
    let p = labelled_page(lang, block);
    let amount = |x: &Option<trawl_extract::Price>| x.as_ref().map(|x| x.amount.clone());
    assert_eq!(amount(&p.price).as_deref(), Some(price), "{lang}: price");
    assert_eq!(
        amount(&p.regular_price).as_deref(),
        Some(regular),
        "{lang}: regular price"
    );
}

/// "Original price" in Vietnamese, Thai, Greek, Hebrew, Indonesian, and
/// "instead of" after the price paid in French and Czech: before, the
/// former price (the first shown) was the price, or no regular price was
/// read.
#[test]
fn former_price_labels_in_more_languages_and_scripts() {
    let old_first = |label: &str, old: &str, new: &str| {
        format!("<div><span>{label}</span> <span>{old}</span></div><div><span>{new}</span></div>")
    };
    let instead = |new: &str, word: &str, old: &str| {
        format!("<div><span>{new}</span> <span>{word} {old}</span></div>")
    };
    for (lang, block, price, regular) in [
        (
            "vi",
            old_first("Giá gốc:", "1.590.000₫", "1.290.000₫"),
            "1290000.00",
            "1590000.00",
        ),
        (
            "th",
            old_first("ราคาปกติ", "฿1,590", "฿1,290"),
            "1290.00",
            "1590.00",
        ),
        (
            "el",
            old_first("Αρχική τιμή:", "59,90 €", "49,90 €"),
            "49.90",
            "59.90",
        ),
        (
            "he",
            old_first("מחיר מקורי:", "₪199.00", "₪149.00"),
            "149.00",
            "199.00",
        ),
        (
            "id",
            old_first("Harga coret:", "Rp250.000", "Rp199.000"),
            "199000.00",
            "250000.00",
        ),
        (
            "fr",
            instead("49,90 €", "au lieu de", "59,90 €"),
            "49.90",
            "59.90",
        ),
        (
            "cs",
            instead("499 Kč", "místo", "599 Kč"),
            "499.00",
            "599.00",
        ),
    ] {
        paid_and_former(lang, &block, price, regular);
    }
}

/// A price labelled as the sale price beside a higher one under a plain
/// "Price" label (Taobao's 促销价 beside 价格), in seven languages and
/// five scripts: before, the first (the price before the sale) was the
/// price and no regular price was read.
#[test]
fn a_sale_price_label_tells_the_price_beside_it_is_former() {
    let pair = |plain: &str, old: &str, sale: &str, new: &str| {
        format!(
            "<div class=\"price-area\"><dl><dt>{plain}</dt><dd>{old}</dd></dl>\
             <dl><dt>{sale}</dt><dd>{new}</dd></dl></div>"
        )
    };
    for (lang, block, price, regular) in [
        (
            "zh-CN",
            pair("价格", "¥199.00", "促销价", "¥99.00"),
            "99.00",
            "199.00",
        ),
        (
            "zh-TW",
            pair("售價", "NT$1,990", "優惠價", "NT$1,490"),
            "1490.00",
            "1990.00",
        ),
        (
            "de",
            pair("Preis:", "59,00 €", "Aktionspreis:", "39,00 €"),
            "39.00",
            "59.00",
        ),
        (
            "ru",
            pair("Цена:", "5 990 ₽", "Цена со скидкой:", "3 990 ₽"),
            "3990.00",
            "5990.00",
        ),
        (
            "ko",
            pair("판매가", "59,000원", "할인가", "39,000원"),
            "39000.00",
            "59000.00",
        ),
        (
            "ja",
            pair("価格", "¥5,980", "セール価格", "¥3,980"),
            "3980.00",
            "5980.00",
        ),
        (
            "en",
            pair("Price:", "$59.00", "Sale Price:", "$39.00"),
            "39.00",
            "59.00",
        ),
    ] {
        paid_and_former(lang, &block, price, regular);
    }
}

/// South Africa's rand written as a bare "R" before the amount, in the
/// forms its shops print it: before, no price was read, and the page was
/// typed a service and got no record.
#[test]
fn the_rand_as_a_bare_r() {
    for (lang, shown, amount) in [
        ("en-ZA", "R 1 299.00", "1299.00"),
        ("en", "R1,299", "1299.00"),
        ("af", "R1 299,95", "1299.95"),
        ("zu", "R89.95", "89.95"),
    ] {
        let p = labelled_page(
            lang,
            &format!("<div><span class=\"price\">{shown}</span></div>"),
        );
        let price = p.price.as_ref().map(|x| x.amount.as_str());
        assert_eq!(price, Some(amount), "{lang}: price");
        assert_eq!(p.currency.as_deref(), Some("ZAR"), "{lang}: currency");
    }
}

/// A page in `lang` with the product's heading, its price and `stock`
/// where the cart button stands once a script has run.
fn stock_page(lang: &str, stock: &str) -> trawl_extract::Extracted {
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <title>Kettle 1.7 l - Shop</title></head><body><main><h1>Kettle 1.7 l</h1>\
         <div><span class=\"price\">€59,00</span></div>{stock}<div id=\"cart-root\"></div>\
         <p>A kettle of brushed steel that holds 1.7 litres and boils in three minutes.</p>\
         </main></body></html>"
    );
    extract(html.as_bytes(), &Options::default()).unwrap_or_else(|e| panic!("{lang}: {e}"))
}

/// A product page whose cart button a script draws shows its stock line
/// where the button will be: before, with no control in the page, it was
/// typed a service and got no record. Two stock lines are a grid's.
#[test]
fn a_stock_line_stands_for_a_cart_button_a_script_draws() {
    use Availability::{InStock, OutOfStock};
    for (lang, line, want) in [
        ("en", "In stock", InStock),
        ("de", "Ausverkauft", OutOfStock),
        ("ja", "品切れ中", OutOfStock),
        ("ko", "재고 없음", OutOfStock),
        ("ru", "В наличии", InStock),
        ("pt", "Disponível", InStock),
        ("zh-TW", "現貨供應", InStock),
        ("th", "พร้อมส่ง", InStock),
    ] {
        let r = stock_page(lang, &format!("<p class=\"stock\">{line}</p>"));
        assert_eq!(r.page_type, PageType::Product, "{lang}");
        let p = r.product.unwrap_or_else(|| panic!("{lang}: no record"));
        assert_eq!(p.availability, Some(want), "{lang}: availability");
    }
    let grid = stock_page("en", "<p>In stock</p><p>Sold out</p>");
    assert_ne!(grid.page_type, PageType::Product);
}

/// A product page whose price only its Open Graph product tags state (a
/// script writes the shown one), with its cart button, in five languages:
/// before, with no price shown, it was typed a service and got no record.
#[test]
fn an_open_graph_price_and_a_cart_button_make_a_product_page() {
    for (lang, button, amount, currency) in [
        ("de", "In den Warenkorb", "59.90", "EUR"),
        ("fr", "Ajouter au panier", "59.90", "EUR"),
        ("ja", "カートに入れる", "5980", "JPY"),
        ("zh-CN", "加入购物车", "199.00", "CNY"),
        ("es", "Añadir al carrito", "59.90", "EUR"),
    ] {
        let html = format!(
            "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
             <title>Kettle 1.7 l</title>\
             <meta property=\"product:price:amount\" content=\"{amount}\">\
             <meta property=\"product:price:currency\" content=\"{currency}\"></head>\
             <body><main><h1>Kettle 1.7 l</h1><div class=\"price\"></div>\
             <button type=\"submit\">{button}</button>\
             <p>A kettle of brushed steel that holds 1.7 litres and boils in three minutes.</p>\
             </main></body></html>"
        );
        let r = extract(html.as_bytes(), &Options::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.page_type, PageType::Product, "{lang}");
        let p = r.product.unwrap_or_else(|| panic!("{lang}: no record"));
        assert_eq!(p.currency.as_deref(), Some(currency), "{lang}: currency");
        assert!(p.price.is_some(), "{lang}: price");
    }
}

/// An amount without its currency in an element named for the price, its
/// cents set in a `<sup>` (bol's `promo-price`): before, "17 99" was no
/// amount and the page got no price. Its currency is the one the page's
/// place pays in, when the place says so alone (none for a bare "en").
#[test]
fn bare_amounts_with_their_cents_raised() {
    for (lang, block, amount, currency) in [
        (
            "nl-NL",
            "<span class=\"promo-price\">17<sup>99</sup></span>",
            "17.99",
            Some("EUR"),
        ),
        (
            "de-DE",
            "<span class=\"price\">1.299<sup>00</sup></span>",
            "1299.00",
            Some("EUR"),
        ),
        (
            "fr-FR",
            "<span class=\"price\">24,<sup>95</sup></span>",
            "24.95",
            Some("EUR"),
        ),
        (
            "pl",
            "<div class=\"product-price\">349<sup>99</sup></div>",
            "349.99",
            Some("PLN"),
        ),
        (
            "en",
            "<span class=\"price\">17<sup>99</sup></span>",
            "17.99",
            None,
        ),
    ] {
        let p = labelled_page(lang, block);
        let price = p.price.as_ref().map(|x| x.amount.as_str());
        assert_eq!(price, Some(amount), "{lang}: price");
        assert_eq!(p.currency.as_deref(), currency, "{lang}: currency");
    }
}

/// A product page with its buy box, a sticky bar repeating it, and a
/// quick-shop modal's empty form (`quick-cart`) a script fills for the
/// cards of other pages, in five languages: before, the quick-shop button
/// counted as a second buy box, the page was typed a service and got no
/// record.
#[test]
fn a_quick_shop_control_is_not_a_second_buy_box() {
    for (lang, cart) in [
        ("en", "Add to cart"),
        ("de", "In den Warenkorb"),
        ("fr", "Ajouter au panier"),
        ("es", "Añadir al carrito"),
        ("nl", "In winkelwagen"),
    ] {
        let html = format!(
            "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
             <title>Nano Puff Jacket - Outdoor Store</title></head><body>\
             <header><a href=\"/\">Outdoor Store</a><nav><ul><li><a href=\"/men\">Men</a></li>\
             <li><a href=\"/women\">Women</a></li></ul></nav></header>\
             <div class=\"sticky-bar\"><span>Nano Puff Jacket</span><span class=\"price\">$229.00</span>\
             <a href=\"/cart/add/1140/\" class=\"button trigger-add-to-cart\">{cart}</a></div>\
             <main><h1>Nano Puff Jacket</h1><div class=\"product-price\"><span class=\"price\">$229.00</span></div>\
             <form action=\"/cart/add/1140/\" method=\"post\"><input type=\"number\" name=\"qty\" value=\"1\">\
             <button type=\"submit\" class=\"button add-to-cart-button\">{cart}</button></form>\
             <p>Warm, windproof and water-resistant, the jacket packs into its own pocket.</p></main>\
             <footer><p>© Outdoor Store</p></footer>\
             <div class=\"modal\"><form id=\"qs-form\" method=\"post\" action=\"\"><input type=\"number\" name=\"qty\" value=\"1\">\
             <button type=\"submit\" class=\"button quick-cart add-to-cart-button\">{cart}</button></form></div>\
             </body></html>"
        );
        let r =
            extract(html.as_bytes(), &Options::default()).unwrap_or_else(|e| panic!("{lang}: {e}"));
        assert_eq!(r.page_type, PageType::Product, "{lang}");
        let price = r.product.and_then(|p| p.price).map(|p| p.amount);
        assert_eq!(price.as_deref(), Some("229.00"), "{lang}");
    }
}

/// A Shopify-style product page: `button` inside the form `action` names.
fn cart_form_page(lang: &str, action: &str, button: &str) -> trawl_extract::Extracted {
    let html = format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Kaffeemühle Handmade – Shop</title></head>
<body><header><a href="/">Shop</a><nav><a href="/collections/all">All</a> <a href="/pages/about">About</a></nav></header>
<main><div class="product__info-wrapper"><h1 class="product__title">Kaffeemühle Handmade</h1>
<div class="price"><span class="price-item price-item--regular">129,00 €</span></div>
<form method="post" action="{action}" id="product-form-main" class="form" enctype="multipart/form-data">
<input type="hidden" name="id" value="41405018112090"><div class="product-form__buttons">{button}</div></form>
<p>A hand grinder with a steel burr, an oak body and a drawer that holds a day's coffee.</p></div></main>
<footer><p>© Shop</p></footer></body></html>"#
    );
    extract(html.as_bytes(), &Options::default()).unwrap_or_else(|e| panic!("{lang}: {e}"))
}

/// The record of a [`cart_form_page`] typed a product page, at its price.
fn priced_at_129(r: trawl_extract::Extracted, what: &str) -> Product {
    assert_eq!(r.page_type, PageType::Product, "{what}");
    let p = r.product.unwrap_or_else(|| panic!("{what}: no record"));
    let price = p.price.as_ref().map(|x| x.amount.as_str());
    assert_eq!(price, Some("129.00"), "{what}");
    p
}

/// A Shopify theme's submit reading `label`, with `state` (` disabled`).
fn submit(label: &str, state: &str) -> String {
    format!(
        r#"<button type="submit" name="add" class="product-form__submit button"{state}><span>{label}</span></button>"#
    )
}

/// The record of a [`cart_form_page`] holding `button` is `want`.
fn stocked(lang: &str, button: &str, want: Availability) {
    let p = priced_at_129(cart_form_page(lang, "/cart/add", button), lang);
    assert_eq!(p.availability, Some(want), "{lang}: {button}");
}

#[test]
fn a_cart_forms_submit_is_a_buy_button_whatever_its_label_says() {
    // Labels no phrase list of ours holds: Amharic, Sinhala, Lao, Yoruba, Hausa.
    for (lang, label) in [
        ("am", "ወደ ጋሪ ጨምር"),
        ("si", "කරත්තයට එක් කරන්න"),
        ("lo", "ເພີ່ມໃສ່ກະຕ່າ"),
        ("yo", "Fi kún agbọ̀n"),
        ("ha", "Saka a kwando"),
    ] {
        let button = submit(label, "");
        stocked(lang, &button, Availability::InStock);
        // Magento's action and an image submit read the same.
        let r = cart_form_page(
            lang,
            "https://shop.test/checkout/cart/add/uenc/aHR0/product/7/",
            &button,
        );
        assert_eq!(r.page_type, PageType::Product, "{lang}: Magento's action");
        // A plus button (`type="button"`), a cart page's form and a
        // wishlist's submit nothing to the cart.
        let plus =
            format!(r#"<button type="button" class="product-form__submit">{label}</button>"#);
        assert_ne!(
            cart_form_page(lang, "/cart/add", &plus).page_type,
            PageType::Product,
            "{lang}: type=button"
        );
        assert_ne!(
            cart_form_page(lang, "/cart", &button).page_type,
            PageType::Product,
            "{lang}: /cart"
        );
        assert_ne!(
            cart_form_page(lang, "/wishlist/add", &button).page_type,
            PageType::Product,
            "{lang}: wishlist"
        );
    }
}

#[test]
fn cart_phrases_in_more_languages_make_a_product_page() {
    for (lang, label) in [
        ("cs", "Přidat do košíku"),
        ("nl", "In winkelmandje"),
        ("da", "Læg i indkøbskurven"),
        ("nb", "Legg i handlekurven"),
        ("fi", "Lisää koriin"),
        ("lt", "Pridėti į krepšelį"),
        ("id", "Tambahkan ke keranjang"),
        ("kk", "Себетке қосу"),
        ("az", "Səbətə əlavə et"),
        ("ka", "კალათაში დამატება"),
        ("mn", "Сагсанд нэмэх"),
        ("is", "Setja í körfu"),
        ("ca", "Afegeix a la cistella"),
        ("sq", "Shto në shportë"),
        ("mk", "Додади во кошничка"),
        ("bn", "কার্টে যোগ করুন"),
        ("ur", "کارٹ میں شامل کریں"),
        ("sw", "Ongeza kwenye kikapu"),
        ("tl", "Idagdag sa cart"),
    ] {
        // A script's button, in no form.
        let button = format!(r#"<button type="button" class="btn btn-primary">{label}</button>"#);
        priced_at_129(cart_form_page(lang, "", &button), label);
    }
}

#[test]
fn a_cart_forms_disabled_submit_says_sold_out_in_any_language() {
    // Sold-out labels the stock words gained, and two no list of ours holds
    // (Amharic, Yoruba): a disabled submit of a cart form reads out of stock.
    for (lang, label) in [
        ("ka", "ამოიწურა"),
        ("is", "Uppselt"),
        ("ca", "Esgotat"),
        ("mk", "Распродадено"),
        ("et", "Välja müüdud"),
        ("lv", "Izpārdots"),
        ("sw", "Imeisha"),
        ("am", "ተሽጧል"),
        ("yo", "Ó ti tán"),
    ] {
        stocked(lang, &submit(label, " disabled"), Availability::OutOfStock);
    }
    // A disabled "Add to cart" still offers the product (a theme greys it
    // until a size is chosen).
    stocked(
        "en",
        &submit("Add to cart", " disabled"),
        Availability::InStock,
    );
}
