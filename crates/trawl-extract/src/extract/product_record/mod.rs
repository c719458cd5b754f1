//! Product records from a single page, template or not: name, price and
//! currency, availability, codes, brand, images, breadcrumbs, description
//! and labelled specification rows.
//!
//! Sources in order of trust: JSON-LD ([`jsonld`]), microdata and RDFa
//! ([`microdata`]), OpenGraph product tags, then the visible page
//! ([`visible`](crate::extract::shop::visible)). Structured data is checked against what the page shows:
//! a structured price the page shows struck through (a sale the markup
//! missed) or only under another currency (markup that names the wrong
//! currency) gives way to the buy-box price. Prices are normalised
//! ([`money`](crate::extract::shop::money)): `"price": "1299.00", "currency": "EUR"`, with the raw text kept.

pub(crate) mod availability;
mod brand;
pub(crate) mod jsonld;
pub(crate) mod microdata;
mod own_shop;
mod price;
mod record;
mod selected;
mod stated;

pub use availability::Availability;
pub(crate) use record::Partial;
pub use record::{Price, Product, Source, Variant};
pub use stated::stated;

use crate::extract::shop::money::Place;
pub(crate) use crate::extract::shop::visible::clean;
use crate::extract::shop::visible::{self, in_text};
use crate::html::{Doc, NodeId};
use price::{control_price, pick_price, price_max, regular_price, shown_currency};

fn tokens(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Share of `a`'s words found in `b`.
fn covered(a: &str, b: &str) -> f64 {
    let ta = tokens(a);
    if ta.is_empty() {
        return 0.0;
    }
    let tb = tokens(b);
    ta.iter().filter(|t| tb.contains(t)).count() as f64 / ta.len() as f64
}

/// The title without the site's name: the part of "Name | Shop" or
/// "Shop: Name" that shares most words with the page's headings.
fn title_name(title: &str, headings: &[String]) -> Option<String> {
    let mut parts: Vec<&str> = vec![title];
    for sep in [" | ", " – ", " — ", " - ", " :: ", " · ", ": "] {
        parts = parts.iter().flat_map(|p| p.split(sep)).collect();
    }
    let parts: Vec<&str> = parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let parts = if parts.is_empty() {
        vec![title.trim()]
    } else {
        parts
    };
    let best = parts
        .iter()
        .max_by(|a, b| {
            let score = |p: &str| headings.iter().map(|h| covered(p, h)).fold(0.0, f64::max);
            score(a)
                .total_cmp(&score(b))
                .then(b.len().cmp(&a.len()).reverse())
        })
        .copied()?;
    let best = if headings.is_empty() { parts[0] } else { best };
    let c = clean(best);
    (!c.is_empty()).then_some(c)
}

/// A name cut off mid-phrase ("…, Vapor Chamber,", "Long name...").
fn truncated(s: &str) -> bool {
    let t = s.trim_end();
    t.ends_with([',', ';', '…', '-', '(', '/']) || t.ends_with("...")
}

/// The product's name: the visible heading that the structured name or the
/// title confirms (a third of its words in one of them), else the
/// structured name, else the title without the site's name, else the first
/// heading. When the heading and the structured name differ only by words
/// one adds to the other (a brand, a tagline, a variant), the shorter wins.
fn pick_name(
    headings: &[String],
    pieces: &[Vec<String>],
    structured: Option<&str>,
    title: Option<&str>,
) -> Option<String> {
    let refs: Vec<&str> = structured.into_iter().chain(title).collect();
    if let Some((i, h)) = headings
        .iter()
        .enumerate()
        .find(|(_, h)| refs.iter().any(|r| covered(h, r) >= 1.0 / 3.0))
    {
        if let Some(s) = structured.filter(|s| !truncated(s)) {
            if covered(s, h) >= 1.0 && tokens(s).len() < tokens(h).len() {
                return Some(s.to_string());
            }
        }
        let trimmed = pieces.get(i).and_then(|p| without_tail(p, &refs));
        let name = trimmed.unwrap_or_else(|| h.clone());
        return Some(without_verb(&name, &refs).unwrap_or(name));
    }
    if let Some(s) = structured {
        return Some(s.to_string());
    }
    if let Some(t) = title.and_then(|t| title_name(t, headings)) {
        return Some(t);
    }
    headings.first().cloned()
}

/// Verbs of buying that open a buy box's heading ("Buy Terraria"), lower-cased.
const BUY_VERBS: &[&str] = &[
    "buy",
    "order",
    "kaufen",
    "bestellen",
    "acheter",
    "commander",
    "comprar",
    "compra",
    "acquista",
    "koop",
    "köp",
    "kjøp",
    "køb",
    "kup",
    "купить",
    "구매",
];

/// A heading that opens with a verb of buying ("Buy Terraria", the
/// purchase box's heading) without it, when the title or the structured
/// name holds all of the rest and not the verb ("Terraria on Steam").
fn without_verb(name: &str, refs: &[&str]) -> Option<String> {
    let (verb, rest) = name.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let verb = verb.to_lowercase();
    if !BUY_VERBS.contains(&verb.as_str()) || rest.is_empty() {
        return None;
    }
    let holds_rest = refs.iter().any(|r| covered(rest, r) >= 1.0);
    let holds_verb = refs.iter().any(|r| tokens(r).contains(&verb));
    (holds_rest && !holds_verb).then(|| rest.to_string())
}

/// A heading without its trailing pieces that neither the title nor the
/// structured name mentions (a subtitle span with the format and date, a
/// size badge), when what is left is all in one of them: "Atomic Habits
/// Hardcover – October 16, 2018" under the title "Atomic Habits: Clear,
/// James: …" is "Atomic Habits". `None` when nothing is cut.
fn without_tail(pieces: &[String], refs: &[&str]) -> Option<String> {
    let mut k = pieces.len();
    while k > 1 && refs.iter().all(|r| covered(&pieces[k - 1], r) == 0.0) {
        k -= 1;
    }
    if k == pieces.len() {
        return None;
    }
    let rest = clean(&pieces[..k].join(" "));
    let rest = rest
        .trim_end_matches(|c: char| c.is_whitespace() || "|–—-:·,/".contains(c))
        .to_string();
    (!rest.is_empty() && refs.iter().any(|r| covered(&rest, r) >= 1.0)).then_some(rest)
}

/// The SKU: the structured one, unless the page shows another after a
/// label ("SKU: TB-40-01", "Item # 22405") and never shows the structured
/// one (a variant's id, a database number).
fn shown_sku(doc: &Doc, structured: Option<String>, shown: Option<String>) -> Option<String> {
    match (structured, shown) {
        (Some(s), Some(v)) if s != v && !in_text(doc, &s) => Some(v),
        (s, v) => s.or(v),
    }
}

/// A GTIN written in groups ("978-3-16-148410-0", "4 006381 333931") as
/// its digits, as the page's labelled codes are read; any other code as it
/// is.
fn gtin_digits(code: String) -> String {
    let digits: String = code.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    let b = digits.as_bytes();
    let gtin = [8, 12, 13, 14].contains(&b.len()) && b.iter().all(u8::is_ascii_digit);
    // An ISBN-10's check character may be X.
    let isbn10 = b.len() == 10
        && b[..9].iter().all(u8::is_ascii_digit)
        && (b[9].is_ascii_digit() || b[9] == b'X' || b[9] == b'x');
    if gtin || isbn10 {
        digits
    } else {
        code
    }
}

/// Which of a page's sources a record is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sources {
    /// Structured data checked against the page: what the pipeline does.
    All,
    /// What the page shows, its JSON-LD, microdata and OpenGraph ignored: how
    /// trawl reads a shop without markup (measured on shops with it).
    Shown,
}

/// Reads a product record from a parsed page. `is_product_page` is the page
/// type's verdict; a page that is not typed a product page still gets a
/// record when its structured data declares a product with a price.
pub(crate) fn read(
    doc: &Doc,
    is_product_page: bool,
    title: Option<&str>,
    url: Option<&str>,
) -> Option<Product> {
    read_from(doc, is_product_page, title, url, Sources::All)
}

/// `read` from the chosen sources.
pub fn read_from(
    doc: &Doc,
    is_product_page: bool,
    title: Option<&str>,
    url: Option<&str>,
    sources: Sources,
) -> Option<Product> {
    if sources == Sources::Shown {
        return is_product_page.then(|| from_shown(doc, title, url));
    }
    // JSON-LD is parsed again here only where it may hold a priced item
    // (a product type, an offer or a price), not on every article.
    let maybe_product = is_product_page
        || doc
            .meta
            .json_ld
            .iter()
            .any(|j| j.contains("roduct") || j.contains("ffer") || j.contains("rice"));
    let ld = if maybe_product {
        jsonld::read_on(&doc.meta.json_ld, &jsonld::names_page(doc), url)
    } else {
        Partial::default()
    };
    let md = microdata::read(doc);
    let og = microdata::read_opengraph(doc);
    // A priced product in the markup makes any page a product page; so does
    // an Open Graph price on a page whose `og:type` says product (news
    // sites put a subscription's price in `product:price:amount` of
    // articles: trafilatura-eval had three "1.00 EUR" records so).
    let og_product = || {
        doc.meta
            .metas
            .iter()
            .any(|(k, v)| k == "og:type" && v.to_ascii_lowercase().contains("product"))
    };
    let declared = ((ld.found || md.found) && (ld.price.is_some() || md.price.is_some()))
        || (og.price.is_some() && og_product());
    if !is_product_page && !declared {
        return None;
    }
    Some(combine(doc, title, url, is_product_page, [&ld, &md, &og]))
}

/// The record of a product page with its markup ignored.
fn from_shown(doc: &Doc, title: Option<&str>, url: Option<&str>) -> Product {
    let none = Partial::default();
    combine(doc, title, url, true, [&none, &none, &none])
}

/// The record from the structured sources (JSON-LD, microdata, Open
/// Graph) and the visible page at `url`; `product_page` when the page is
/// typed a product page (not only declared one by its markup).
fn combine(
    doc: &Doc,
    title: Option<&str>,
    url: Option<&str>,
    product_page: bool,
    sources: [&Partial; 3],
) -> Product {
    let [ld, md, og] = sources;
    let beside = crate::extract::shop::beside::beside(doc);
    let vis = visible::of(doc);
    let shows_in_stock = || {
        let chrome = |id: NodeId| beside[id as usize] || visible::in_chrome(doc, id);
        availability::shown(doc, &chrome, vis.anchor) == Some(Availability::InStock)
    };
    let shown = price::shown_offer(ld, vis, &shows_in_stock);
    let ld = shown.as_ref().unwrap_or(ld);
    let place = Place::of(doc.meta.lang.as_deref(), url);

    let structured_name = ld.name.as_deref().or(md.name.as_deref());
    let og_title = doc
        .meta
        .metas
        .iter()
        .find(|(k, _)| k == "og:title")
        .map(|(_, v)| clean(v));
    let page_title = doc.meta.title.as_deref().map(clean);
    let title = og_title.as_deref().or(page_title.as_deref()).or(title);
    let name = pick_name(&vis.headings, &vis.heading_pieces, structured_name, title);

    let price = pick_price(
        &[
            (ld, Source::JsonLd),
            (md, Source::Microdata),
            (og, Source::OpenGraph),
        ],
        vis,
        &place,
    )
    .or_else(|| control_price(doc, vis, beside));

    let first = |f: fn(&Partial) -> Option<String>| f(ld).or_else(|| f(md)).or_else(|| f(og));
    let mut images: Vec<String> = Vec::new();
    for src in [ld, md, og] {
        for i in &src.images {
            if !images.contains(i) {
                images.push(i.clone());
            }
        }
    }
    let currency = price
        .as_ref()
        .and_then(|p| p.currency.clone())
        .or_else(|| shown_currency(vis, &place));
    let regular_price = regular_price(ld, vis, price.as_ref());
    let price_max = price_max(ld, vis, price.as_ref());
    let breadcrumbs = if ld.breadcrumbs.is_empty() {
        vis.breadcrumbs.clone()
    } else {
        ld.breadcrumbs.clone()
    };
    let brand = first(|p| p.brand.clone())
        .or_else(|| brand::shown(doc, &vis.specs, vis.anchor, &|id| beside[id as usize]))
        .or_else(|| {
            let names = [name.as_deref(), og_title.as_deref(), page_title.as_deref()];
            let names: Vec<&str> = names.into_iter().flatten().collect();
            let sites = brand::site_names(doc, url);
            brand::own(&names, &sites).or_else(|| {
                let page = own_shop::Page {
                    product: product_page,
                    priced: vis.price.is_some(),
                    anchor: vis.anchor,
                };
                own_shop::brand(doc, page_title.as_deref(), url, &sites, page)
            })
        });
    Product {
        name,
        price,
        price_max,
        currency,
        availability: ld
            .availability
            .or(md.availability)
            .or(og.availability)
            .or_else(|| {
                let chrome = |id: NodeId| beside[id as usize] || visible::in_chrome(doc, id);
                availability::shown(doc, &chrome, vis.anchor)
            }),
        sku: shown_sku(doc, first(|p| p.sku.clone()), vis.sku.clone()),
        gtin: first(|p| p.gtin.clone())
            .map(gtin_digits)
            .or_else(|| vis.gtin.clone()),
        mpn: first(|p| p.mpn.clone()).or_else(|| vis.mpn.clone()),
        brand,
        images,
        breadcrumbs,
        description: first(|p| p.description.clone()),
        specs: vis.specs.clone(),
        regular_price,
        rating: ld.rating.clone(),
        review_count: ld.review_count,
        variants: ld.variants.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 59: a range of prices is kept as `price` (its low end) and
    /// `price_max`.
    #[test]
    fn a_range_of_prices_keeps_both_ends() {
        let doc = Doc::parse_str(
            r#"<html><head><script type="application/ld+json">{"@type":"Product","name":"Seeds",
            "offers":{"@type":"AggregateOffer","lowPrice":"2.98","highPrice":"79.98","priceCurrency":"GBP"}}</script></head>
            <body><h1>Seeds</h1><p>From £2.98</p></body></html>"#,
        );
        let p = read(&doc, true, None, None).expect("a record");
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("2.98"));
        let max = p.price_max.expect("the top of the range");
        assert_eq!(
            (max.amount.as_str(), max.currency.as_deref()),
            ("79.98", Some("GBP"))
        );
        // One price: no range.
        let doc = Doc::parse_str(
            r#"<html><head><script type="application/ld+json">{"@type":"Product","name":"Seeds",
            "offers":{"@type":"Offer","price":"2.98","priceCurrency":"GBP"}}</script></head>
            <body><h1>Seeds</h1></body></html>"#,
        );
        assert_eq!(
            read(&doc, true, None, None).expect("a record").price_max,
            None
        );
    }

    /// Issue 59: an amount alone under a price's name (its symbol drawn by
    /// a stylesheet) is the price, in the currency of the page's other
    /// prices, or in none.
    #[test]
    fn an_amount_without_its_currency_takes_the_pages() {
        // A `priceCurrency` whose price a script fills in states it, before
        // the currency of other products' prices.
        let stated = r#"<div itemscope itemtype="https://schema.org/Offer">\
            <meta itemprop="priceCurrency" content="EUR"></div>"#;
        for (markup, others, want) in [
            ("", "", None),
            ("", "<li>Cap <b>£12.00</b></li>", Some("GBP")),
            (stated, "<li>Cap <b>£12.00</b></li>", Some("EUR")),
        ] {
            let doc = Doc::parse_str(&format!(
                "<h1>Field Lamp</h1>{markup}<span class=product-price>74.00</span><button>Add to cart</button>\
                 <p>A lamp for the field, made to last for many years of use.</p><ul>{others}</ul>"
            ));
            let price = read(&doc, true, None, None)
                .and_then(|p| p.price)
                .expect("a price");
            assert_eq!(
                (price.amount.as_str(), price.currency.as_deref()),
                ("74.00", want)
            );
        }
    }

    /// Issue 59: a range the buy box shows, without markup, in several
    /// scripts: `price` is its low end, `price_max` its top; a price glued
    /// to the words of a script written without spaces is read.
    #[test]
    fn a_shown_range_keeps_both_ends() {
        for (shown, low, top) in [
            ("$10.00 – $20.00", "10.00", Some("20.00")),
            ("30,000원~50,000원", "30000.00", Some("50000.00")),
            ("от 1 200 ₽ до 3 400 ₽", "1200.00", Some("3400.00")),
            ("€ 12,50 - € 18,00", "12.50", Some("18.00")),
            ("最低價$99元起", "99.00", None),
            ("£114.90 £94.90", "94.90", None),
        ] {
            let doc = Doc::parse_str(&format!(
                "<header><a href=/>Shop</a></header><h1>Field Lamp</h1>\
                 <div class=buy><span class=price>{shown}</span><button>Add to cart</button></div>\
                 <p>A lamp for the field, made to last for many years of use.</p>"
            ));
            let p = read(&doc, true, None, None).expect("a record");
            assert_eq!(p.price.map(|x| x.amount).as_deref(), Some(low), "{shown}");
            assert_eq!(p.price_max.map(|x| x.amount).as_deref(), top, "{shown}");
        }
    }

    /// Issue 59: a page the type model did not call a product page gets
    /// its record from an Open Graph price when its `og:type` says product
    /// (wcxb-dev: four shops typed service or collection); an article's
    /// subscription price there makes none.
    #[test]
    fn an_open_graph_price_of_a_product_makes_a_record() {
        let page = |og_type: &str| {
            Doc::parse_str(&format!(
                r#"<html><head><meta property="og:type" content="{og_type}">
                <meta property="product:price:amount" content="29.99">
                <meta property="product:price:currency" content="USD"></head>
                <body><h1>Yoga Mat</h1><p>A thick mat.</p></body></html>"#
            ))
        };
        let p = read(&page("product"), false, Some("Yoga Mat"), None).expect("a record");
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("29.99"));
        assert!(read(&page("og:product"), false, None, None).is_some());
        assert!(read(&page("article"), false, None, None).is_none());
    }

    fn product(html: &str) -> Product {
        let doc = Doc::parse_str(html);
        read(&doc, true, None, None).unwrap_or_default()
    }

    #[test]
    fn the_shown_sku_over_a_variant_id_the_page_never_shows() {
        let page = |shown: &str| {
            format!(
                r#"<html><head><script type="application/ld+json">{{"@type":"Product","name":"Trail Bottle",
                "sku":"884213007","offers":{{"price":"24.00","priceCurrency":"EUR"}}}}</script></head>
                <body><h1>Trail Bottle</h1><p>€24.00</p><p>{shown}</p><button>Add to cart</button></body></html>"#
            )
        };
        assert_eq!(
            product(&page("SKU: TB-40-01")).sku.as_deref(),
            Some("TB-40-01")
        );
        // The structured one when the page shows it too, or shows none.
        assert_eq!(
            product(&page("SKU: TB-40-01 (884213007)")).sku.as_deref(),
            Some("884213007")
        );
        assert_eq!(
            product(&page("Light and strong.")).sku.as_deref(),
            Some("884213007")
        );
    }

    #[test]
    fn a_heading_loses_a_tail_the_title_never_mentions() {
        let p = product(
            "<html><head><title>Atomic Habits: Clear, James: 9780735211292: Books</title></head><body>\
             <h1><span id=t>Atomic Habits</span> <span class=sub>Hardcover – October 16, 2018</span></h1>\
             <p>$14.99</p></body></html>",
        );
        assert_eq!(p.name.as_deref(), Some("Atomic Habits"));
        let p = product(
            "<html><head><title>Classic II by Acme in Moon Silver | Acme</title></head><body>\
             <h1><span>Classic II</span> <span>Moon Silver | <span>44MM</span></span></h1></body></html>",
        );
        assert_eq!(p.name.as_deref(), Some("Classic II Moon Silver"));
        // A tail the title mentions stays; so does a heading that is all new.
        let p = product(
            "<html><head><title>Lamp Pro 2 | Shop</title></head><body><h1><span>Lamp</span> <b>Pro 2</b></h1></body></html>",
        );
        assert_eq!(p.name.as_deref(), Some("Lamp Pro 2"));
    }

    #[test]
    fn with_no_buy_box_price_the_currency_is_the_one_the_page_shows() {
        // Prices only in links to other bundles: no buy-box price.
        let p = product(
            "<html lang=en-GB><body><h1>Robot Mop</h1><p>Bundles: <a href=/b1>£469.99</a> \
             <a href=/b2>£399.99</a></p></body></html>",
        );
        assert_eq!(p.price, None);
        assert_eq!(p.currency.as_deref(), Some("GBP"));
        let mixed = product(
            "<html><body><h1>Robot Mop</h1><p>Bundles: <a href=/b1>£469.99</a> \
             <a href=/b2>€399.99</a></p></body></html>",
        );
        assert_eq!((mixed.price, mixed.currency), (None, None));
    }

    #[test]
    fn without_an_h1_the_first_h2_names_the_product() {
        let p = product(
            "<html><head><title>Game Over by Fern Michaels (Paperback): shop.example</title></head><body>\
             <h2>Game Over<span class=subtitle> (Paperback)</span></h2><p>by Fern Michaels</p>\
             <h2>Why we love it</h2></body></html>",
        );
        assert_eq!(p.name.as_deref(), Some("Game Over (Paperback)"));
    }

    #[test]
    fn json_ld_price_with_visible_name() {
        let p = product(
            r#"<html lang=en><head><title>Modern Leather Case | Nomad</title>
            <script type="application/ld+json">{"@type":"Product","name":"Modern Leather Case - iPhone 16 Pro | Black",
            "sku":"8565","offers":{"price":"25.00","priceCurrency":"EUR"}}</script></head>
            <body><h1>Modern Leather Case</h1><p>€25.00</p></body></html>"#,
        );
        assert_eq!(p.name.as_deref(), Some("Modern Leather Case"));
        let price = p.price.unwrap();
        assert_eq!(
            (
                price.amount.as_str(),
                price.currency.as_deref(),
                price.source
            ),
            ("25.00", Some("EUR"), Source::JsonLd)
        );
        assert_eq!(p.sku.as_deref(), Some("8565"));
    }

    #[test]
    fn json_ld_behind_a_cdata_wrapper_is_read() {
        // Regression: `/*<![CDATA[*/ … /*]]>*/` around the JSON made it unreadable.
        let p = product(
            r#"<script type="application/ld+json">/*<![CDATA[*/{"@type":"Product","name":"Tea Kettle",
            "sku":"TK-2","offers":{"price":"39.90","priceCurrency":"EUR"}}/*]]>*/</script>
            <h1>Tea Kettle</h1><p>39,90 €</p>"#,
        );
        let price = p.price.expect("price");
        assert_eq!(
            (
                price.amount.as_str(),
                price.currency.as_deref(),
                price.source
            ),
            ("39.90", Some("EUR"), Source::JsonLd)
        );
        assert_eq!(p.sku.as_deref(), Some("TK-2"));
    }

    #[test]
    fn microdata_and_a_buy_box_under_aria_hidden_are_read() {
        // Regression: aria-hidden="true" on a wrapper hid the product's
        // microdata and buy box; it tells screen readers what to skip, and a
        // browser shows it.
        let p = product(
            r#"<h1>Field Lamp</h1><div aria-hidden="true"><div itemscope itemtype="https://schema.org/Product">
            <meta itemprop="name" content="Field Lamp"><span itemprop="sku">FL-100</span>
            <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
            <span itemprop="priceCurrency" content="USD">$</span><span itemprop="price" content="74.00">74.00</span>
            </div></div><button>Add to cart</button></div>"#,
        );
        let price = p.price.expect("price");
        assert_eq!(
            (price.amount.as_str(), price.currency.as_deref()),
            ("74.00", Some("USD"))
        );
        assert_eq!(p.sku.as_deref(), Some("FL-100"));
        // A menu hidden from screen readers, with a close button and a search
        // form, stays hidden.
        let doc = Doc::parse_str(
            r#"<div aria-hidden="true"><button>Close</button><form role="search">
            <input name=s></form><p>20.02.2020 Meeting</p></div><h1>Post</h1>
            <p>The post itself, long enough that the menu is not most of the page.</p>"#,
        );
        assert!(!doc.plain_text(doc.body()).contains("Meeting"));
    }

    #[test]
    fn rating_variants_and_list_price_from_json_ld() {
        let p = product(
            r#"<script type="application/ld+json">{"@type":"Product","name":"Trail Tee","sku":"TT",
            "aggregateRating":{"@type":"AggregateRating","ratingValue":"4,6","reviewCount":"1,204"},
            "offers":[
              {"@type":"Offer","name":"Trail Tee - S","sku":"TT-S","price":"25.00","priceCurrency":"EUR",
               "availability":"https://schema.org/InStock",
               "priceSpecification":[{"@type":"UnitPriceSpecification","priceType":"https://schema.org/ListPrice","price":"35.00","priceCurrency":"EUR"}]},
              {"@type":"Offer","name":"Trail Tee - XL","sku":"TT-XL","price":"27.00","priceCurrency":"EUR",
               "availability":"https://schema.org/OutOfStock"}]}</script>
            <h1>Trail Tee</h1><p>€25.00</p>"#,
        );
        assert_eq!(p.rating.as_deref(), Some("4.6"));
        assert_eq!(p.review_count, Some(1204));
        let names: Vec<_> = p
            .variants
            .iter()
            .map(|v| (v.sku.as_deref(), v.price.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                (Some("TT-S"), Some("25.00")),
                (Some("TT-XL"), Some("27.00"))
            ]
        );
        assert_eq!(p.variants[1].availability, Some(Availability::OutOfStock));
        let regular = p.regular_price.expect("list price");
        assert_eq!(
            (regular.amount.as_str(), regular.source),
            ("35.00", Source::JsonLd)
        );
    }

    #[test]
    fn a_regular_price_printed_plainly_then_struck_beside_the_sale_is_not_the_price() {
        // Regression: a theme prints the regular price plainly (hidden by its
        // stylesheet when on sale) and again struck beside the sale price;
        // the plain copy, nearest the heading, was taken.
        let p = product(
            r#"<h1>Trail Tee</h1><div class="price price--on-sale">
            <div class=price__regular><span>Regular price</span> <span>$99.00</span></div>
            <div class=price__sale><s>$99.00</s> <span>Sale price</span> <span>$79.00</span></div></div>
            <button>Add to cart</button>"#,
        );
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("79.00"));
        assert_eq!(p.regular_price.map(|x| x.amount).as_deref(), Some("99.00"));
        // A list price struck before the price paid, and a member's price
        // after: the price paid stays.
        let p = product(
            r#"<h1>Trail Tee</h1><table><tr><td><del>List: $26.99</del></td></tr>
            <tr><td>Our price: $26.99</td></tr><tr><td>Member price: $24.29</td></tr></table>"#,
        );
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("26.99"));
    }

    #[test]
    fn a_struck_price_above_the_one_paid_is_the_regular_price() {
        let p = product(
            r#"<h1>Loke Jacket</h1><div class=price><span class=sale>$98.00</span><del>$130.00</del></div>"#,
        );
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("98.00"));
        assert_eq!(p.regular_price.map(|x| x.amount).as_deref(), Some("130.00"));
        // No sale: no regular price.
        let p = product(r#"<h1>Loke Jacket</h1><div class=price><span>$98.00</span></div>"#);
        assert_eq!(p.regular_price, None);
    }

    #[test]
    fn a_sale_the_markup_missed_takes_the_buy_box() {
        let p = product(
            r#"<script type="application/ld+json">{"@type":"Product","name":"Loke Jacket","offers":{"price":130,"priceCurrency":"USD"}}</script>
            <h1>Loke Jacket</h1><div class=price><span class=sale>$98.00</span><del>$130.00</del></div>"#,
        );
        let price = p.price.unwrap();
        assert_eq!(
            (price.amount.as_str(), price.source),
            ("98.00", Source::Visible)
        );
        assert_eq!(price.currency.as_deref(), Some("USD"));
    }

    #[test]
    fn markup_naming_the_wrong_currency_takes_the_buy_box() {
        let p = product(
            r#"<script type="application/ld+json">{"@type":"Product","name":"Hemp Dress","offers":{"price":"549.56","priceCurrency":"EUR"}}</script>
            <h1>Hemp Dress</h1><p class=price>€132.34</p><ul><li>AED: 549.56 AED</li><li>USD: $149.64</li></ul>"#,
        );
        let price = p.price.unwrap();
        assert_eq!(
            (price.amount.as_str(), price.currency.as_deref()),
            ("132.34", Some("EUR"))
        );
    }

    #[test]
    fn visible_only_page() {
        let p = product(
            r#"<html lang="en-AU"><head><title>White speckle mug — Ghost Wares</title></head>
            <body><nav><a href=/>Shop</a></nav><h1>white speckle mug</h1><div class=product-price>$60.00</div>
            <button>Add to cart</button></body></html>"#,
        );
        assert_eq!(p.name.as_deref(), Some("white speckle mug"));
        let price = p.price.unwrap();
        assert_eq!(
            (
                price.amount.as_str(),
                price.currency.as_deref(),
                price.raw.as_str()
            ),
            ("60.00", Some("AUD"), "$60.00")
        );
    }

    #[test]
    fn pages_that_are_not_products_get_no_record() {
        let doc = Doc::parse_str("<h1>News</h1><p>Prices rose by $5.00 today.</p>");
        assert!(read(&doc, false, None, None).is_none());
    }

    /// Regression (wcxb-dev's store pages read without their markup): the
    /// purchase box's heading "Buy Terraria" under the title "Terraria on
    /// Steam" names "Terraria"; a name the title holds whole stays.
    #[test]
    fn a_verb_of_buying_opening_the_heading_is_not_the_name() {
        let h = |t: &str| vec![t.to_string()];
        let name =
            |heading: &str, title: &str| pick_name(&h(heading), &[h(heading)], None, Some(title));
        assert_eq!(
            name("Buy Terraria", "Terraria on Steam").as_deref(),
            Some("Terraria")
        );
        assert_eq!(
            name("Kaufen Sie Nordlicht", "Nordlicht kaufen | Shop").as_deref(),
            Some("Kaufen Sie Nordlicht"),
            "the title holds the verb"
        );
        assert_eq!(
            name("Order Pizza Oven Pro", "Pizza Oven | Acme").as_deref(),
            Some("Order Pizza Oven Pro"),
            "the title does not hold all of the rest"
        );
    }

    /// Regression (wcxb-dev 0580 read without its markup): the name and
    /// price in a sticky `<aside>` beside the gallery are the product's
    /// buy box; a site header's cart total near a logo's `<h1>` is not.
    #[test]
    fn a_buy_box_in_the_products_own_aside_is_read() {
        let p = product(
            "<header><a href=/>Shop</a><span>Cart $0.00</span></header>\
             <main><div class=gallery><img src=a.jpg></div>\
             <aside><h1>Wool Runner</h1><div><span>$110</span></div>\
             <button>Add to cart</button></aside></main>\
             <aside class=sidebar><p>Gift card $25</p></aside>",
        );
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("110.00"));
        let logo = product(
            "<header><h1>Shop</h1><span>Cart $0.00</span></header>\
             <main><h2>Kettle</h2><p>A kettle.</p></main>",
        );
        assert_eq!(logo.price, None, "the site's header is chrome");
    }

    /// Issue 59: an ISBN in JSON-LD written with hyphens kept them, where
    /// the same code under a visible label is read as digits.
    #[test]
    fn a_grouped_gtin_is_its_digits() {
        assert_eq!(gtin_digits("978-3-16-148410-0".into()), "9783161484100");
        assert_eq!(gtin_digits("4 006381 333931".into()), "4006381333931");
        assert_eq!(gtin_digits("0-306-40615-X".into()), "030640615X");
        assert_eq!(gtin_digits("DR-20".into()), "DR-20");
        assert_eq!(gtin_digits("978-3-16".into()), "978-3-16");
        assert_eq!(gtin_digits("ĉ-12345678".into()), "ĉ-12345678");
    }

    #[test]
    fn availability_words() {
        assert_eq!(
            Availability::parse("http://schema.org/InStock"),
            Some(Availability::InStock)
        );
        assert_eq!(Availability::parse("oos"), Some(Availability::OutOfStock));
        assert_eq!(Availability::parse("maybe"), None);
    }
}
