//! Product records on the crawl path: generated shops on loopback in four
//! layouts and locales (JSON-LD in euros with German separators, microdata
//! only, no structured data at all, and JSON-LD that lies: a sale it
//! missed and an amount given in the wrong currency), a sold-out
//! product with nothing but a restock notice where its button was, a
//! pre-order under a logo's heading with its price before tax first, and a
//! saw priced beside its struck MRP among related products' buttons. Every
//! product page's exported record must carry the price the shopper sees,
//! normalised, with its currency; a listing page must not get one.

mod support;

use support::*;

struct Case {
    path: &'static str,
    body: String,
    name: &'static str,
    amount: &'static str,
    currency: &'static str,
    sku: Option<&'static str>,
    availability: Option<&'static str>,
}

fn page(title: &str, lang: &str, head: &str, body: &str) -> String {
    format!(
        "<html lang={lang}><head><title>{title} | Generated Shop</title>{head}</head><body>\
         <header><a href=/>Generated Shop</a> <a href=/cart>Cart (0) $0.00</a></header>\
         <nav class=breadcrumb><ol><li><a href=/>Home</a></li><li><a href=/list>Kitchen</a></li><li>{title}</li></ol></nav>\
         <main>{body}</main>\
         <section class=related><h2>You may also like</h2><ul>\
         <li><a href=/other/1>Small teapot <span class=price>$12.00</span></a></li>\
         <li><a href=/other/2>Tea tray <span class=price>$18.50</span></a></li></ul></section>\
         <footer>Generated Shop Ltd. Free returns within 30 days.</footer></body></html>"
    )
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            path: "/p/kettle",
            body: page(
                "Wasserkocher Nordic",
                "de-DE",
                r#"<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
                   {"@type":"Product","name":"Wasserkocher Nordic","sku":"WK-1299",
                    "offers":{"@type":"Offer","price":"1299.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}]}</script>"#,
                "<h1>Wasserkocher Nordic</h1><p class=preis>1.299,00 €</p><p>Art.-Nr.: WK-1299</p>\
                 <button>In den Warenkorb</button><p>Ein Wasserkocher aus Edelstahl mit 1,7 Litern Inhalt.</p>",
            ),
            name: "Wasserkocher Nordic",
            amount: "1299.00",
            currency: "EUR",
            sku: Some("WK-1299"),
            availability: None,
        },
        Case {
            path: "/p/grinder",
            body: page(
                "Coffee Grinder",
                "en-GB",
                "",
                r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Coffee Grinder</h1>
                   <span itemprop="sku">CG-77</span>
                   <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
                   <span itemprop="price" content="49.50">£49.50</span><meta itemprop="priceCurrency" content="GBP"></div>
                   <button>Add to basket</button><p>A burr grinder with twelve settings.</p></div>"#,
            ),
            name: "Coffee Grinder",
            amount: "49.50",
            currency: "GBP",
            sku: Some("CG-77"),
            availability: None,
        },
        Case {
            path: "/p/mug",
            body: page(
                "White Speckle Mug",
                "en-AU",
                "",
                "<h1>White Speckle Mug</h1><div class=product-price><s>$72.00</s> <span>$60.00</span></div>\
                 <p>SKU: WSM-0042</p><button>Add to cart</button><p>Hand thrown stoneware, 350 ml.</p>",
            ),
            name: "White Speckle Mug",
            amount: "60.00",
            currency: "AUD",
            sku: Some("WSM-0042"),
            availability: None,
        },
        Case {
            path: "/p/jacket",
            body: page(
                "Loke Jacket",
                "en-US",
                r#"<script type="application/ld+json">{"@type":"Product","name":"Loke Jacket","offers":{"price":130,"priceCurrency":"USD"}}</script>"#,
                "<h1>Loke Jacket</h1><div class=price><span class=sale>$98.00</span> <del>$130.00</del></div>\
                 <button>Add to cart</button><p>A waterproof shell for wet days.</p>",
            ),
            name: "Loke Jacket",
            amount: "98.00",
            currency: "USD",
            sku: None,
            availability: None,
        },
        Case {
            path: "/p/dress",
            body: page(
                "Hemp Dress",
                "en",
                r#"<script type="application/ld+json">{"@type":"Product","name":"Hemp Dress","offers":{"price":"549.56","priceCurrency":"EUR"}}</script>"#,
                "<h1>Hemp Dress</h1><p class=price>€132.34</p><ul class=fx><li>AED: 549.56 AED</li><li>USD: $149.64</li></ul>\
                 <button>Add to cart</button><p>Linen-soft hemp, made to order.</p>",
            ),
            name: "Hemp Dress",
            amount: "132.34",
            currency: "EUR",
            sku: None,
            availability: None,
        },
        // Issue 59: sold out, no structured data, a restock notice where
        // "Add to cart" was: still a product page with its record.
        Case {
            path: "/lampada-da-tavolo",
            body: "<html lang=it><head><title>Lampada da tavolo | Casa</title></head><body>\
                   <header><nav><ul><li><a href=/>Home</a></li><li><a href=/list>Lampade</a></li>\
                   <li><a href=/contatti>Contatti</a></li></ul></nav></header>\
                   <nav class=breadcrumb><ol><li><a href=/>Home</a></li><li><a href=/list>Kitchen</a></li>\
                   <li>Lampada da tavolo</li></ol></nav>\
                   <main><div class=product><div class=gallery><img src=/lamp.jpg alt=Lampada></div>\
                   <div class=summary><h1>Lampada da tavolo</h1><span class=prezzo>€ 59,90</span>\
                   <p>Codice articolo: LT-220</p><p>Non disponibile</p>\
                   <button>Avvisami quando disponibile</button></div>\
                   <div class=descrizione><h2>Descrizione</h2><p>Ottone spazzolato e paralume in lino, \
                   fatta a mano e pensata per durare anni di uso quotidiano.</p></div></div>\
                   <section class=related><h2>Correlati</h2><ul>\
                   <li><a href=/other/1><img src=/1.jpg alt=Abat-jour>Abat-jour</a> <span>€ 20,00</span></li>\
                   <li><a href=/other/2><img src=/2.jpg alt=Lampadina>Lampadina</a> <span>€ 5,00</span></li>\
                   </ul></section></main><footer><p>© 2024 Casa</p></footer></body></html>"
                .to_string(),
            name: "Lampada da tavolo",
            amount: "59.90",
            currency: "EUR",
            sku: Some("LT-220"),
            availability: Some("out_of_stock"),
        },
        // Issue 59: a logo as the site header's <h1>, the price before tax
        // printed first, a pre-order button, no structured data.
        Case {
            path: "/p/drill",
            body: "<html lang=en-GB><head><title>Cordless Drill 20V | Tool Depot</title></head><body>\
                   <header><h1 class=logo><a href=/>Tool Depot</a></h1><nav><ul><li><a href=/>Home</a></li>\
                   <li><a href=/list>Tools</a></li></ul></nav></header>\
                   <nav class=breadcrumb><ol><li><a href=/>Home</a></li><li><a href=/list>Kitchen</a></li>\
                   <li>Cordless Drill 20V</li></ol></nav>\
                   <main><div class=product><div class=summary><h2>Cordless Drill 20V</h2>\
                   <p class=price-ex>£25.00 <small>ex VAT</small></p><p class=price>£30.00 <small>inc VAT</small></p>\
                   <p>Item Code: 88-1020</p><p>Pre-order now: ships in March</p><button>Pre-order</button></div>\
                   <div class=description><h2>Description</h2><p>A brushless drill with two batteries, \
                   a charger and a case, built for years of daily work on site.</p></div></div></main>\
                   <footer><p>© 2024 Tool Depot</p></footer></body></html>"
                .to_string(),
            name: "Cordless Drill 20V",
            amount: "30.00",
            currency: "GBP",
            sku: Some("88-1020"),
            availability: Some("pre_order"),
        },
        // Issue 59: a saving printed before the price, the price as bare
        // text beside the struck MRP, related products with a button each
        // and a sticky bar repeating the buy box; no structured data. The
        // session start typed it a service, with no record.
        Case {
            path: "/p/saw",
            body: "<html lang=en-IN><head><title>Circular Saw 1400W | Tool Depot</title></head><body>\
                   <header><a href=/>Tool Depot</a><nav><ul><li><a href=/>Home</a></li><li>\
                   <a href=/list>Tools</a></li></ul></nav></header><nav class=breadcrumb><ol><li>\
                   <a href=/>Home</a></li><li><a href=/list>Kitchen</a></li><li>Circular Saw 1400W</li>\
                   </ol></nav><main><div class=product><div class=summary><h1>Circular Saw 1400W</h1>\
                   <span class=badge>Save ₹1,500</span><div class=price>MRP: <s>₹5,999</s> ₹4,499</div>\
                   <p>Inclusive of all taxes</p><p>Item #CS-1400</p><form><input type=number value=1>\
                   <button>Add to Cart</button></form></div><div class=description><h2>Description</h2>\
                   <p>A 1400 W saw with a laser guide and a dust port, built for years of daily work on site.\
                   </p></div></div><section><h2>You may also like</h2><ul><li><a href=/other/1>Saw blade\
                   </a> <span>₹499</span> <button>Add to Cart</button></li><li><a href=/other/2>Clamp</a> \
                   <span>₹299</span> <button>Add to Cart</button></li><li><a href=/other/3>Goggles</a> \
                   <span>₹199</span> <button>Add to Cart</button></li></ul></section></main>\
                   <div class=sticky-add-to-cart><span>Circular Saw 1400W</span> <span>₹4,499</span>\
                   <button>Add to Cart</button></div><footer><p>© 2024 Tool Depot</p></footer></body>\
                   </html>"
                .to_string(),
            name: "Circular Saw 1400W",
            amount: "4499.00",
            currency: "INR",
            sku: Some("CS-1400"),
            availability: Some("in_stock"),
        },
        // Issue 59: JSON-LD typed with a charset, ending its objects with
        // commas, listing an accessory before the product the page sells,
        // a used offer before the new one. The session start read the
        // accessory's code and price, or none at all.
        Case {
            path: "/p/cordless",
            body: "<html lang=en><head><title>Cordless Drill 20V | Tool Depot</title>\
                   <script type=\"application/ld+json; charset=utf-8\">[{\"@type\":\"Product\",\
                   \"name\":\"Battery Pack\",\"sku\":\"BP1\",\"offers\":{\"@type\":\"Offer\",\
                   \"price\":\"49.00\",\"priceCurrency\":\"USD\"},},{\"@type\":\"Product\",\
                   \"name\":\"Cordless Drill 20V\",\"productID\":\"sku:DR20\",\"offers\":[\
                   {\"@type\":\"Offer\",\"price\":\"89.00\",\"priceCurrency\":\"USD\",\
                   \"itemCondition\":\"https://schema.org/UsedCondition\"},{\"@type\":\"Offer\",\
                   \"price\":\"129.00\",\"priceCurrency\":\"USD\",\
                   \"availability\":\"https://schema.org/InStock\"},],},]</script></head><body>\
                   <header><a href=/>Tool Depot</a></header><nav class=breadcrumb><ol><li>\
                   <a href=/>Home</a></li><li><a href=/list>Kitchen</a></li><li>Cordless Drill 20V\
                   </li></ol></nav><main><h1>Cordless Drill 20V</h1>\
                   <span class=price>$129.00</span> <span>Used from $89.00</span>\
                   <button>Add to Cart</button><p>A drill for years of daily work, with two speeds \
                   and a light.</p><section><h2>Fits</h2><p>Battery Pack, $49.00</p></section></main>\
                   </body></html>"
                .to_string(),
            name: "Cordless Drill 20V",
            amount: "129.00",
            currency: "USD",
            sku: Some("DR20"),
            availability: Some("in_stock"),
        },
    ]
}

fn listing(cases: &[Case]) -> String {
    let links: String = cases
        .iter()
        .map(|c| {
            format!(
                "<li><a href={}>{}</a> <span>$10.00</span></li>",
                c.path, c.name
            )
        })
        .collect();
    format!(
        "<html><head><title>Kitchen | Generated Shop</title></head><body><h1>Kitchen</h1>\
         <p>Everything for the kitchen, from kettles to mugs, chosen by our buyers.</p><ul>{links}</ul></body></html>"
    )
}

#[test]
fn every_product_page_gets_a_normalised_product_record() {
    let host = Host::start("127.0.0.61", move |path, _| {
        let all = cases();
        if path == "/" || path == "/list" {
            return html(&listing(&all));
        }
        match all.into_iter().find(|c| c.path == path) {
            Some(c) => html(&c.body),
            None => status(404),
        }
    });
    let dir = scratch("products");
    let cfg = config(&dir, "min_delay_ms = 0\nmax_depth = 3\nsitemaps = false");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/"))).unwrap_or_else(|e| panic!("{e}"));
    crawl_once(&cfg, &seeds);
    let records = export(&cfg);
    for c in cases() {
        let url = host.url(c.path);
        let rec = records
            .iter()
            .find(|r| r["url"] == url.as_str())
            .unwrap_or_else(|| panic!("no record for {url}"));
        let p = &rec["product"];
        assert_eq!(rec["type"], "product", "{url}");
        assert_eq!(p["name"], c.name, "{url}: {p}");
        assert_eq!(p["price"]["amount"], c.amount, "{url}: {p}");
        assert_eq!(p["price"]["currency"], c.currency, "{url}: {p}");
        if let Some(sku) = c.sku {
            assert_eq!(p["sku"], sku, "{url}: {p}");
        }
        if let Some(availability) = c.availability {
            assert_eq!(p["availability"], availability, "{url}: {p}");
        }
        assert_eq!(
            p["breadcrumbs"],
            serde_json::json!(["Home", "Kitchen", c.name]),
            "{url}"
        );
    }
    let home = records
        .iter()
        .find(|r| r["url"] == host.url("/").as_str())
        .unwrap_or_else(|| panic!("no record for the listing"));
    assert!(
        home.get("product").is_none(),
        "a listing is no product: {home}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
