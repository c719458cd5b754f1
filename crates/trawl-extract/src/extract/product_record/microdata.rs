//! Product fields from attributes in the page itself: microdata (`itemprop`
//! inside an `itemscope` of a Product type), RDFa (`property="schema:price"`
//! and friends, read the same way), and the OpenGraph product tags
//! (`product:price:amount`, `og:price:currency`, `product:availability`).
//! `<meta itemprop>` tags in the body never reach the flat tree (they are
//! invisible); their values come through the page's collected `<meta>` list.

use super::availability::{in_item, Availability};
use super::record::{Partial, StructuredPrice};
use crate::extract::metadata::meta_get;
use crate::extract::shop::money::{code_of, OPEN_GRAPH_PRICE_KEYS};
use crate::extract::shop::visible::clean;
use crate::html::{Doc, NodeId, Tag};

/// The property an element names, with any vocabulary prefix dropped
/// (`schema:price`, `http://schema.org/price` → `price`).
fn prop(doc: &Doc, id: NodeId) -> Option<&str> {
    let p = doc
        .attr(id, "itemprop")
        .or_else(|| doc.attr(id, "property"))?;
    let p = p.split_whitespace().next()?;
    Some(p.rsplit(['/', ':', '#']).next().unwrap_or(p))
}

fn value(doc: &Doc, id: NodeId) -> Option<String> {
    let v = doc
        .attr(id, "content")
        .map(str::to_string)
        .or_else(|| match doc.tag(id) {
            Tag::A => doc.attr(id, "href").map(str::to_string),
            Tag::Img => doc.attr(id, "src").map(str::to_string),
            // `<link itemprop>` never reaches the flat tree (invisible).
            _ => None,
        })
        .unwrap_or_else(|| doc.plain_text(id));
    let v = clean(&v);
    (!v.is_empty()).then_some(v)
}

/// A property that names or codes the product (brand, SKU): a link
/// carrying it (`<a itemprop="brand" href="/brands/acme">Acme</a>`) says
/// it in its words, not its address.
fn named_value(doc: &Doc, id: NodeId) -> Option<String> {
    if doc.tag(id) == Tag::A {
        let text = clean(&doc.plain_text(id));
        if !text.is_empty() {
            return Some(text);
        }
    }
    value(doc, id)
}

/// Whether the element starts a Product item (microdata `itemtype` or RDFa `typeof`).
fn product_scope(doc: &Doc, id: NodeId) -> bool {
    doc.attr(id, "itemtype")
        .or_else(|| doc.attr(id, "typeof"))
        .is_some_and(|t| {
            t.split_whitespace().any(|t| {
                let t = t
                    .rsplit(['/', ':'])
                    .next()
                    .unwrap_or(t)
                    .to_ascii_lowercase();
                matches!(
                    t.as_str(),
                    "product" | "productgroup" | "productmodel" | "individualproduct" | "book"
                )
            })
        })
}

/// How many item levels up from a property another product's item is
/// looked for.
const ITEM_DEPTH: usize = 64;

/// Whether property `id` sits in a product item nested inside item
/// `scope` (its offers and brand are items too, and are read).
fn in_other_product(doc: &Doc, scope: NodeId, id: NodeId) -> bool {
    let mut at = doc.nodes[id as usize].parent;
    for _ in 0..ITEM_DEPTH {
        if at == scope || at as usize >= doc.len() {
            return false;
        }
        if product_scope(doc, at) {
            return true;
        }
        at = doc.nodes[at as usize].parent;
    }
    false
}

/// Reads the first Product item of the page's microdata or RDFa, then the
/// loose properties (`<meta itemprop>` in the body, OpenGraph product tags).
pub(crate) fn read(doc: &Doc) -> Partial {
    let mut p = Partial::default();
    let mut amount: Option<String> = None;
    let mut currency: Option<&'static str> = None;
    // The maker, the brand when the item names none.
    let mut maker: Option<String> = None;
    // Only the elements carrying structured data can open an item or name
    // a property.
    let structured = doc.structured();
    if let Some(at) = structured.iter().position(|&i| product_scope(doc, i)) {
        let scope = structured[at];
        p.found = true;
        let end = doc.nodes[scope as usize].end;
        for &id in structured[at + 1..].iter().take_while(|&&id| id < end) {
            let Some(name) = prop(doc, id) else { continue };
            // Another product's item inside this one (a related product,
            // a bundle's part) speaks of that product.
            if in_other_product(doc, scope, id) {
                continue;
            }
            let set = |slot: &mut Option<String>| {
                if slot.is_none() {
                    *slot = named_value(doc, id);
                }
            };
            match name {
                "name" if p.name.is_none() => {
                    // The product's own name, not its brand's or a review author's.
                    let parent_scope = (scope + 1..id)
                        .rev()
                        .find(|&a| doc.contains(a, id) && doc.attr(a, "itemscope").is_some());
                    if parent_scope.is_none() {
                        p.name = named_value(doc, id);
                    }
                }
                "price" | "lowPrice" if amount.is_none() => {
                    amount = value(doc, id).filter(|v| v.chars().any(|c| c.is_ascii_digit()))
                }
                "priceCurrency" if currency.is_none() => {
                    currency = value(doc, id).and_then(|c| code_of(&c))
                }
                "sku" | "productID" => set(&mut p.sku),
                "mpn" => set(&mut p.mpn),
                "gtin13" | "gtin" | "gtin12" | "gtin14" | "gtin8" | "isbn" => set(&mut p.gtin),
                "brand" => set(&mut p.brand),
                "manufacturer" => set(&mut maker),
                "description" => set(&mut p.description),
                "availability" if p.availability.is_none() => {
                    p.availability = value(doc, id).and_then(|a| Availability::parse(&a))
                }
                "image" => {
                    if let Some(v) = value(doc, id) {
                        p.images.push(v);
                    }
                }
                _ => {}
            }
        }
    }
    loose_codes(doc, structured, &mut p);
    // Loose properties: body <meta itemprop> (collected, not in the tree).
    let meta = |keys: &[&str]| {
        doc.meta
            .metas
            .iter()
            .find(|(k, v)| keys.contains(&k.as_str()) && !v.trim().is_empty())
            .map(|(_, v)| clean(v))
    };
    if amount.is_none() {
        amount = meta(&["price", "lowprice"]).filter(|v| v.chars().any(|c| c.is_ascii_digit()));
    }
    if currency.is_none() {
        currency = meta(&["pricecurrency"]).and_then(|c| code_of(&c));
    }
    if p.sku.is_none() {
        p.sku = meta(&["sku"]);
    }
    if p.gtin.is_none() {
        p.gtin = meta(&["gtin13", "gtin", "gtin12", "gtin14", "gtin8", "isbn"]);
    }
    if p.mpn.is_none() {
        p.mpn = meta(&["mpn"]);
    }
    if p.brand.is_none() {
        // A brand item whose name is only a `<meta>` ("brand.name").
        p.brand = meta(&["brand", "brand.name"])
            .or(maker)
            .or_else(|| meta(&["manufacturer", "manufacturer.name"]));
    }
    if p.availability.is_none() {
        p.availability = meta(&["availability"]).and_then(|a| Availability::parse(&a));
    }
    p.price = amount.and_then(|raw| StructuredPrice::parse(raw, currency));
    p.currency = currency;
    p.found |= p.price.is_some();
    p
}

/// Codes in properties no item holds: a theme's stray
/// `<span itemprop="sku">TL-400</span>` outside any `itemscope`, which
/// microdata, reading items, never sees. `structured` are the page's
/// elements carrying structured data.
fn loose_codes(doc: &Doc, structured: &[NodeId], p: &mut Partial) {
    if p.sku.is_some() && p.mpn.is_some() && p.gtin.is_some() {
        return;
    }
    for &id in structured {
        let slot = match prop(doc, id) {
            Some("sku") => &mut p.sku,
            Some("mpn") => &mut p.mpn,
            Some("gtin13" | "gtin" | "gtin12" | "gtin14" | "gtin8" | "isbn") => &mut p.gtin,
            _ => continue,
        };
        if slot.is_none() && !in_item(doc, id) {
            *slot = named_value(doc, id);
        }
    }
}

/// Reads the OpenGraph (and Facebook catalogue) product tags.
pub(crate) fn read_opengraph(doc: &Doc) -> Partial {
    let meta = |keys: &[&str]| {
        keys.iter().find_map(|k| {
            doc.meta
                .metas
                .iter()
                .find(|(name, v)| name == k && !v.trim().is_empty())
                .map(|(_, v)| clean(v))
        })
    };
    let mut p = Partial::default();
    let amount = meta(&OPEN_GRAPH_PRICE_KEYS);
    let currency = meta(&[
        "product:sale_price:currency",
        "product:price:currency",
        "og:price:currency",
    ])
    .and_then(|c| code_of(&c));
    p.price = amount.and_then(|raw| StructuredPrice::parse(raw, currency));
    p.found |= p.price.is_some();
    p.availability =
        meta(&["product:availability", "og:availability"]).and_then(|a| Availability::parse(&a));
    p.brand = meta(&["product:brand", "og:brand"]).or_else(|| twitter_brand(doc));
    p.sku = meta(&["product:retailer_item_id", "product:sku"]);
    p.gtin = meta(&["product:upc", "product:ean", "product:isbn", "product:gtin"]);
    p.images = meta(&["og:image", "og:image:url", "og:image:secure_url"])
        .into_iter()
        .collect();
    p
}

/// The brand a shop gives in its Twitter card's label and data pairs
/// (`twitter:label1` "Brand", `twitter:data1` "Bosch"), as Shopify and
/// WooCommerce themes write them.
fn twitter_brand(doc: &Doc) -> Option<String> {
    const PAIRS: [[&str; 2]; 4] = [
        ["twitter:label1", "twitter:data1"],
        ["twitter:label2", "twitter:data2"],
        ["twitter:label3", "twitter:data3"],
        ["twitter:label4", "twitter:data4"],
    ];
    PAIRS.iter().find_map(|[label, data]| {
        let label = meta_get(doc, &[label])?;
        if !super::brand::is_label(label) {
            return None;
        }
        meta_get(doc, &[data]).and_then(super::brand::plausible)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twitter_cards_brand_label() {
        let doc = Doc::parse_str(
            r#"<head><meta name="twitter:label1" content="Price">
              <meta name="twitter:data1" content="$12">
              <meta name="twitter:label2" content="Marke:">
              <meta name="twitter:data2" content="Bosch"></head>"#,
        );
        assert_eq!(read_opengraph(&doc).brand.as_deref(), Some("Bosch"));
        let doc = Doc::parse_str(
            r#"<head><meta name="twitter:label1" content="Written by">
              <meta name="twitter:data1" content="Ann Lee"></head>"#,
        );
        assert_eq!(read_opengraph(&doc).brand, None);
    }

    #[test]
    fn microdata_item() {
        let doc = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product">
              <h1 itemprop="name">Moon Silver</h1>
              <div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">MVMT</span></div>
              <span itemprop="productID">28000436</span>
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
                <span itemprop="price" content="168.00">$168.00</span>
                <meta itemprop="priceCurrency" content="USD">
              </div></div>"#,
        );
        let p = read(&doc);
        assert_eq!(p.name.as_deref(), Some("Moon Silver"));
        assert_eq!(p.sku.as_deref(), Some("28000436"));
        assert_eq!(p.brand.as_deref(), Some("MVMT"));
        let price = p.price.unwrap();
        assert_eq!(
            (price.amount.as_str(), price.currency),
            ("168.00", Some("USD"))
        );
    }

    /// Issue 59: schema.org's own form of an offer's availability, a
    /// `<link>` (not in the tree), was not read: the page's "Add to cart"
    /// said in stock.
    #[test]
    fn an_availability_link_is_read() {
        let doc = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Drill</h1>
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
                <span itemprop="price" content="99.00">$99.00</span>
                <link itemprop="availability" href="https://schema.org/OutOfStock" />
              </div></div>"#,
        );
        assert_eq!(read(&doc).availability, Some(Availability::OutOfStock));
    }

    /// Issue 59: a related product's item inside the product's own gave
    /// the product its SKU; body metas' GTIN, MPN and brand were not read.
    #[test]
    fn a_nested_products_properties_are_its_own() {
        let doc = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Drill</h1>
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
                <span itemprop="price" content="129.00">$129.00</span></div>
              <div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product">
                <span itemprop="name">Battery</span><span itemprop="sku">BP1</span>
                <span itemprop="mpn">M-1</span></div>
              <meta itemprop="gtin13" content="4006381333931"><meta itemprop="brand" content="Acme">
            </div>"#,
        );
        let p = read(&doc);
        assert_eq!(p.name.as_deref(), Some("Drill"));
        assert_eq!(p.sku, None);
        assert_eq!(p.mpn, None);
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("129.00"));
        assert_eq!(p.gtin.as_deref(), Some("4006381333931"));
        assert_eq!(p.brand.as_deref(), Some("Acme"));
    }

    /// Issue 59: a brand item whose name is only a `<meta>` gave no brand.
    #[test]
    fn a_brand_item_named_by_a_meta_is_read() {
        let doc = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Drill</h1>
              <div itemprop="brand" itemscope itemtype="https://schema.org/Brand">
                <meta itemprop="name" content="Acme"></div>
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
                <meta itemprop="name" content="Drill, new"><span itemprop="price">129.00</span></div>
            </div>"#,
        );
        let p = read(&doc);
        assert_eq!(p.brand.as_deref(), Some("Acme"));
        assert_eq!(p.name.as_deref(), Some("Drill"));
    }

    /// Issue 59: a brand linked to its page gave the link's address; a
    /// maker named only as `manufacturer` gave no brand.
    #[test]
    fn a_linked_brand_is_its_words_and_the_maker_stands_in() {
        let linked = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Drill</h1>
              <a itemprop="brand" href="/brands/acme">Acme</a></div>"#,
        );
        assert_eq!(read(&linked).brand.as_deref(), Some("Acme"));
        let maker = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Drill</h1>
              <span itemprop="manufacturer">Acme</span></div>"#,
        );
        assert_eq!(read(&maker).brand.as_deref(), Some("Acme"));
        let both = Doc::parse_str(
            r#"<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Drill</h1>
              <span itemprop="manufacturer">Acme Tools Inc.</span><span itemprop="brand">Acme</span></div>"#,
        );
        assert_eq!(read(&both).brand.as_deref(), Some("Acme"));
    }

    /// Issue 59: a theme's stray code property, outside any item, was not
    /// read; an item's own code still comes first.
    #[test]
    fn a_code_property_no_item_holds_is_read() {
        let doc = Doc::parse_str(
            r#"<h1>Lantern</h1><meta itemprop="price" content="39.90"><span itemprop="sku">TL-400</span>
            <p>EAN: <span itemprop="gtin13">4006381333931</span></p>"#,
        );
        let p = read(&doc);
        assert_eq!(p.sku.as_deref(), Some("TL-400"));
        assert_eq!(p.gtin.as_deref(), Some("4006381333931"));
        // The item's own code comes first.
        let doc = Doc::parse_str(
            r#"<span itemprop="sku">LOOSE-1</span><div itemscope itemtype="https://schema.org/Product">
            <h1 itemprop="name">Lantern</h1><div itemscope itemtype="https://schema.org/Offer">
            <span itemprop="sku">IN-ITEM</span></div></div>"#,
        );
        assert_eq!(read(&doc).sku.as_deref(), Some("IN-ITEM"));
    }

    #[test]
    fn rdfa_and_loose_metas() {
        let doc = Doc::parse_str(
            r#"<div vocab="http://schema.org/" typeof="Product"><span property="name">Kettle</span>
               <span property="schema:price" content="59,99">59,99 €</span></div>
               <meta itemprop="priceCurrency" content="EUR">"#,
        );
        let p = read(&doc);
        assert_eq!(p.name.as_deref(), Some("Kettle"));
        let price = p.price.unwrap();
        assert_eq!(
            (price.amount.as_str(), price.currency),
            ("59.99", Some("EUR"))
        );
    }

    #[test]
    fn opengraph_product_tags() {
        let doc = Doc::parse_str(
            r#"<head><meta property="og:price:amount" content="110.00"><meta property="og:price:currency" content="USD">
               <meta property="product:availability" content="oos"></head><body>x</body>"#,
        );
        let p = read_opengraph(&doc);
        assert_eq!(p.price.unwrap().amount, "110.00");
        assert_eq!(p.availability, Some(Availability::OutOfStock));
    }
}
