//! Product fields from JSON-LD, the structured data most shops publish:
//! `Product`, `ProductGroup` (its variants), `Offer`, `AggregateOffer`,
//! `priceSpecification`, `@graph`, nested and repeated offers, brands and
//! images in any of their shapes, and `BreadcrumbList`.

use std::cell::OnceCell;

use serde_json::{Map, Value};

use super::availability::Availability;
use super::record::{OtherOffer, Partial, StructuredPrice};
use super::selected::{self, By, Candidate};
use crate::extract::shop::money::code_of;
use crate::extract::shop::visible::clean;
use crate::html::{Doc, NodeId, Tag};

/// Types that describe a product for sale.
const PRODUCT_TYPES: &[&str] = &[
    "product",
    "productgroup",
    "productmodel",
    "individualproduct",
    "book",
    "vehicle",
    "car",
    "softwareapplication",
    "videogame",
];

fn types(o: &Map<String, Value>) -> Vec<String> {
    let one = |v: &Value| {
        v.as_str().map(|s| {
            s.rsplit(['/', ':'])
                .next()
                .unwrap_or(s)
                .trim()
                .to_ascii_lowercase()
        })
    };
    match o.get("@type") {
        Some(Value::Array(a)) => a.iter().filter_map(one).collect(),
        Some(v) => one(v).into_iter().collect(),
        None => Vec::new(),
    }
}

fn is_product(o: &Map<String, Value>) -> bool {
    types(o).iter().any(|t| PRODUCT_TYPES.contains(&t.as_str()))
}

/// Every object of the page's JSON-LD, in document order: top-level items,
/// `@graph` members and their nested objects (depth-first).
fn objects(json_ld: &[String]) -> Vec<Map<String, Value>> {
    let mut out = Vec::new();
    for block in json_ld {
        let Some(v) = crate::extract::json_ld::repaired(block) else {
            continue;
        };
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Array(a) => stack.extend(a.into_iter().rev()),
                Value::Object(mut m) => {
                    if let Some(g) = m.remove("@graph") {
                        stack.push(g);
                    }
                    out.push(offered(m));
                }
                _ => {}
            }
        }
    }
    out
}

/// An offer naming its product (`itemOffered`) as that product holding
/// the offer, when the product lists no offers of its own; any other
/// object as it is.
fn offered(mut m: Map<String, Value>) -> Map<String, Value> {
    let is_offer = types(&m).iter().any(|t| t == "offer");
    let mut product = match m.get("itemOffered") {
        Some(Value::Object(p)) if is_offer && is_product(p) && !p.contains_key("offers") => {
            p.clone()
        }
        _ => return m,
    };
    m.remove("itemOffered");
    product.insert("offers".to_string(), Value::Object(m));
    product
}

fn text(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Array(a) => return a.iter().find_map(text),
        Value::Object(o) => return o.get("name").or_else(|| o.get("@value")).and_then(text),
        _ => return None,
    };
    let s = clean(&s);
    (!s.is_empty()).then_some(s)
}

/// A product's brand, else its maker. A reference (`{"@id": "#brand"}`)
/// is read from the object of the page's graph it names.
fn brand_of(objs: &[Map<String, Value>], o: &Map<String, Value>) -> Option<String> {
    ["brand", "manufacturer"].iter().find_map(|k| {
        let v = o.get(*k)?;
        text(v).or_else(|| {
            let id = v.get("@id")?.as_str()?;
            objs.iter()
                .find(|x| x.get("@id").and_then(Value::as_str) == Some(id))
                .and_then(|x| x.get("name"))
                .and_then(text)
        })
    })
}

fn get(o: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| o.get(*k).and_then(text))
}

/// An offer's list price: a `priceSpecification` typed `ListPrice`,
/// `StrikethroughPrice` or `MSRP` (the "was" price beside the one paid).
fn list_price(o: &Map<String, Value>) -> Option<StructuredPrice> {
    let currency = get(o, &["priceCurrency"]).and_then(|c| code_of(&c));
    let spec = price_specs(o).into_iter().find(|s| is_list_price(s))?;
    let raw = spec.get("price").and_then(text)?;
    let mut p =
        StructuredPrice::parse(raw, get(spec, &["priceCurrency"]).and_then(|c| code_of(&c)))?;
    if p.currency.is_none() {
        p.currency = currency;
    }
    Some(p)
}

/// `aggregateRating`: the rating as written ("4.6") and how many reviews
/// or ratings it averages.
fn rating(o: &Map<String, Value>) -> (Option<String>, Option<u64>) {
    let Some(r) = o.get("aggregateRating").and_then(Value::as_object) else {
        return (None, None);
    };
    let value = get(r, &["ratingValue"])
        .map(|v| v.trim().replace(',', "."))
        .filter(|v| v.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 0.0));
    let count = get(r, &["reviewCount", "ratingCount"])
        .and_then(|c| c.trim().replace([',', '.', ' '], "").parse::<u64>().ok());
    (value, count)
}

/// One variant of a product group, or one of several offers naming their
/// own item: its name, code, price and availability.
fn variant(
    holder: &Map<String, Value>,
    offer: Option<&Map<String, Value>>,
) -> Option<super::record::Variant> {
    let price = offer
        .and_then(offer_price)
        .or_else(|| offers(holder).into_iter().find_map(offer_price));
    let pick = |keys: &[&str]| {
        offer
            .and_then(|o| get(o, keys))
            .or_else(|| get(holder, keys))
    };
    let v = super::record::Variant {
        name: pick(&["name"]),
        sku: pick(&["sku"]),
        price: price.as_ref().map(|p| p.amount.clone()),
        currency: price.and_then(|p| p.currency.map(str::to_string)),
        availability: offer
            .or_else(|| offers(holder).into_iter().next())
            .and_then(|o| get(o, &["availability"]))
            .and_then(|a| Availability::parse(&a)),
    };
    (v.name.is_some() || v.sku.is_some()).then_some(v)
}

/// The price of one offer (or its price specifications).
fn offer_price(o: &Map<String, Value>) -> Option<StructuredPrice> {
    let currency = get(o, &["priceCurrency"]).and_then(|c| code_of(&c));
    let raw = o
        .get("price")
        .or_else(|| o.get("lowPrice"))
        .and_then(text)
        .filter(|s| s.chars().any(|c| c.is_ascii_digit()));
    let stated = raw.and_then(|raw| StructuredPrice::parse(raw, currency));
    // A zero beside a priced specification is a placeholder.
    if stated.as_ref().is_some_and(|p| !is_zero(p)) {
        return stated;
    }
    // priceSpecification: a list price is the "was".
    let specified = price_specs(o)
        .into_iter()
        .find(|s| !is_list_price(s))
        .and_then(offer_price)
        .filter(|p| stated.is_none() || !is_zero(p));
    let Some(mut p) = specified else {
        return stated;
    };
    if p.currency.is_none() {
        p.currency = currency;
    }
    Some(p)
}

/// A price of nothing ("0", "0.00").
fn is_zero(p: &StructuredPrice) -> bool {
    p.amount.bytes().all(|b| matches!(b, b'0' | b'.' | b','))
}

/// An offer of a used, refurbished or damaged item (`itemCondition`).
fn second_hand(o: &Map<String, Value>) -> bool {
    get(o, &["itemCondition"]).is_some_and(|c| {
        let c = c.to_ascii_lowercase();
        ["used", "refurbished", "damaged"]
            .iter()
            .any(|w| c.contains(w))
    })
}

/// A code without the scheme some shops write before it (`productID`'s
/// "sku:DR20", "isbn:9783161484100").
fn unprefixed(code: String) -> String {
    match code.split_once(':') {
        Some((scheme, rest))
            if !rest.trim().is_empty()
                && ["sku", "mpn", "isbn", "gtin", "ean", "upc"]
                    .iter()
                    .any(|s| scheme.trim().eq_ignore_ascii_case(s)) =>
        {
            rest.trim().to_string()
        }
        _ => code,
    }
}

/// An offer's `priceSpecification`s: one object or several.
fn price_specs(o: &Map<String, Value>) -> Vec<&Map<String, Value>> {
    match o.get("priceSpecification") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
        Some(Value::Object(m)) => vec![m],
        _ => Vec::new(),
    }
}

/// A price specification typed as the list ("was") price.
fn is_list_price(spec: &Map<String, Value>) -> bool {
    get(spec, &["priceType"]).is_some_and(|t| {
        let t = t.to_ascii_lowercase();
        t.contains("listprice") || t.contains("strikethrough") || t.contains("msrp")
    })
}

fn offers(o: &Map<String, Value>) -> Vec<&Map<String, Value>> {
    match o.get("offers") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
        Some(Value::Object(m)) => {
            // An AggregateOffer may list its offers.
            let mut v = vec![m];
            if let Some(Value::Array(inner)) = m.get("offers") {
                v.extend(inner.iter().filter_map(Value::as_object));
            }
            v
        }
        _ => Vec::new(),
    }
}

fn images(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if !s.trim().is_empty() => out.push(s.trim().to_string()),
        Value::Array(a) => a.iter().for_each(|x| images(x, out)),
        Value::Object(o) => {
            if let Some(u) = o.get("url").or_else(|| o.get("contentUrl")) {
                images(u, out);
            }
        }
        _ => {}
    }
}

fn breadcrumbs(objs: &[Map<String, Value>]) -> Vec<String> {
    let Some(list) = objs
        .iter()
        .find(|o| types(o).iter().any(|t| t == "breadcrumblist"))
    else {
        return Vec::new();
    };
    let Some(Value::Array(items)) = list.get("itemListElement") else {
        return Vec::new();
    };
    let mut crumbs: Vec<(i64, String)> = items
        .iter()
        .filter_map(Value::as_object)
        .enumerate()
        .filter_map(|(i, it)| {
            let pos = it
                .get("position")
                .and_then(|p| p.as_i64().or_else(|| p.as_str()?.trim().parse().ok()))
                .unwrap_or(i as i64);
            let name = get(it, &["name"]).or_else(|| {
                it.get("item")
                    .and_then(Value::as_object)
                    .and_then(|x| get(x, &["name"]))
            })?;
            Some((pos, name))
        })
        .collect();
    crumbs.sort_by_key(|(p, _)| *p);
    crumbs.into_iter().map(|(_, n)| n).collect()
}

/// Reads the page's main product from its JSON-LD blocks: the first
/// product object. A group without its own offer takes the first variant's
/// (`hasVariant`, or a later product object carrying an offer).
pub(crate) fn read(json_ld: &[String]) -> Partial {
    read_on(json_ld, &|_| true, None)
}

/// [`read`] on a page that names its product: when the first product
/// object's name is not the page's (`names_page`) and a later one's is, the
/// later one is the main product (a page listing an accessory or a bundle's
/// parts before the product it sells). `page_url` selects among several
/// offers the one it names.
pub(crate) fn read_on(
    json_ld: &[String],
    names_page: &dyn Fn(&str) -> bool,
    page_url: Option<&str>,
) -> Partial {
    let objs = objects(json_ld);
    let mut p = Partial {
        breadcrumbs: breadcrumbs(&objs),
        ..Partial::default()
    };
    let mut products: Vec<&Map<String, Value>> = objs.iter().filter(|o| is_product(o)).collect();
    let named = |o: &Map<String, Value>| get(o, &["name"]).is_some_and(|n| names_page(&n));
    if products.len() > 1 && !named(products[0]) {
        if let Some(at) = products.iter().position(|o| named(o)) {
            let main = products.remove(at);
            products.insert(0, main);
        }
    }
    let Some(main) = products.first() else {
        return p;
    };
    p.found = true;
    p.name = get(main, &["name"]);
    p.sku = get(main, &["sku", "productID"]).map(unprefixed);
    p.mpn = get(main, &["mpn"]);
    p.gtin = get(
        main,
        &["gtin13", "gtin", "gtin12", "gtin14", "gtin8", "isbn", "ean"],
    );
    p.brand = brand_of(&objs, main);
    p.description = get(main, &["description"]);
    if let Some(v) = main.get("image") {
        images(v, &mut p.images);
    }
    // Offers: the main product's, else its variants', else the next product
    // object that has one (Shopify-style variant lists).
    let variants: Vec<&Map<String, Value>> = match main.get("hasVariant") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
        Some(Value::Object(m)) => vec![m],
        _ => Vec::new(),
    };
    (p.rating, p.review_count) = rating(main);
    // Variants: a group's `hasVariant`, else several offers of the main
    // product each naming its item (a size, a colour).
    p.variants = variants.iter().filter_map(|v| variant(v, None)).collect();
    if p.variants.is_empty() {
        let own = offers(main);
        if own.len() > 1 {
            p.variants = own
                .iter()
                .filter(|o| o.contains_key("name") || o.contains_key("sku"))
                .filter_map(|o| variant(main, Some(o)))
                .collect();
        }
    }
    // The offer the page selects (its URL's variant, the product's own
    // code), else the first priced one: the main product's, its variants',
    // the next product object's.
    if let Some((holder, offer, price)) = selected_offer(main, &variants, page_url, &mut p) {
        take(&mut p, &objs, main, holder, offer, price);
        p.other_offers = other_offers(main, &variants, offer);
        return p;
    }
    let holders = std::iter::once(*main)
        .chain(variants.iter().copied())
        .chain(products.iter().skip(1).copied());
    for holder in holders {
        // A new item's offer before a used or refurbished one's.
        let mut held = offers(holder);
        held.sort_by_cached_key(|o| second_hand(o));
        let Some((offer, price)) = held
            .into_iter()
            .find_map(|o| offer_price(o).map(|pr| (o, pr)))
        else {
            continue;
        };
        take(&mut p, &objs, main, holder, offer, price);
        p.other_offers = other_offers(main, &variants, offer);
        break;
    }
    p
}

/// A JSON object.
type Obj = Map<String, Value>;

/// Fills `p` from the offer it takes (`offer` of `holder`, at `price`):
/// its price and stock, and the codes and brand the main product leaves to
/// its offer or to the variant sold (a product group's `hasVariant`).
fn take(
    p: &mut Partial,
    objs: &[Obj],
    main: &Obj,
    holder: &Obj,
    offer: &Obj,
    price: StructuredPrice,
) {
    p.price = Some(price);
    p.offer_sku = offer_code(main, holder, offer);
    p.list_price = list_price(offer);
    p.high_price = get(offer, &["highPrice"]).and_then(|raw| {
        StructuredPrice::parse(
            raw,
            get(offer, &["priceCurrency"]).and_then(|c| code_of(&c)),
        )
    });
    p.availability = get(offer, &["availability"]).and_then(|a| Availability::parse(&a));
    if p.sku.is_none() {
        p.sku = get(offer, &["sku"]).or_else(|| get(holder, &["sku"]));
    }
    const GTINS: &[&str] = &["gtin13", "gtin", "gtin12", "gtin14", "gtin8"];
    if p.gtin.is_none() {
        p.gtin = get(offer, GTINS).or_else(|| get(holder, GTINS));
    }
    if p.mpn.is_none() {
        p.mpn = get(offer, &["mpn"]).or_else(|| get(holder, &["mpn"]));
    }
    if p.brand.is_none() {
        p.brand = brand_of(objs, holder);
    }
}

/// The priced offer the page selects among the product's and its
/// variants' (see [`selected`]), with its holder. A code the product states
/// that is another offer's is the selected one's instead (a theme writing
/// the first variant's code on the product); `p.selected` is set.
fn selected_offer<'a>(
    main: &'a Obj,
    variants: &[&'a Obj],
    page_url: Option<&str>,
    p: &mut Partial,
) -> Option<(&'a Obj, &'a Obj, StructuredPrice)> {
    let pairs: Vec<(&Obj, &Obj)> = std::iter::once(main)
        .chain(variants.iter().copied())
        .flat_map(|h| offers(h).into_iter().map(move |o| (h, o)))
        .filter(|(_, o)| !second_hand(o))
        .collect();
    if pairs.len() < 2 {
        return None;
    }
    let cands: Vec<Candidate> = pairs
        .iter()
        .map(|&(h, o)| {
            let own = !std::ptr::eq(h, main);
            Candidate {
                url: get(o, &["url"]).or_else(|| own.then(|| get(h, &["url", "@id"])).flatten()),
                sku: offer_code(main, h, o),
            }
        })
        .collect();
    let own_sku = get(main, &["sku"]);
    let (i, by) = selected::select(&cands, page_url, own_sku.as_deref())?;
    let (holder, offer) = pairs[i];
    let price = offer_price(offer)?;
    let code = cands[i].sku.as_deref();
    let elsewhere = |s: &str| cands.iter().any(|c| c.sku.as_deref() == Some(s));
    if by == By::Url
        && code.is_some()
        && p.sku
            .as_deref()
            .is_some_and(|s| Some(s) != code && elsewhere(s))
    {
        p.sku = code.map(str::to_string);
    }
    p.selected = true;
    Some((holder, offer, price))
}

/// The priced offers of `main` and its variants but `taken`, in order.
fn other_offers(main: &Obj, variants: &[&Obj], taken: &Obj) -> Vec<OtherOffer> {
    std::iter::once(main)
        .chain(variants.iter().copied())
        .flat_map(|h| offers(h).into_iter().map(move |o| (h, o)))
        .filter(|(_, o)| !std::ptr::eq(*o, taken) && !second_hand(o))
        .filter_map(|(h, o)| {
            Some(OtherOffer {
                price: offer_price(o)?,
                availability: get(o, &["availability"]).and_then(|a| Availability::parse(&a)),
                sku: offer_code(main, h, o),
            })
        })
        .collect()
}

/// An offer's own code, else its variant's (`holder`, when it is not the
/// `main` product).
fn offer_code(main: &Obj, holder: &Obj, offer: &Obj) -> Option<String> {
    get(offer, &["sku"]).or_else(|| {
        (!std::ptr::eq(holder, main))
            .then(|| get(holder, &["sku"]))
            .flatten()
    })
}

/// Whether a structured product's name is the one page `doc` sells: its
/// letters and digits (three or more) are in the page's `og:title`, its
/// `<title>` or its first `<h1>`. The page's names are read once, at the
/// first call.
pub(super) fn names_page(doc: &Doc) -> impl Fn(&str) -> bool + '_ {
    let names: OnceCell<Vec<String>> = OnceCell::new();
    move |name| {
        let n = super::brand::spell(&[name]);
        if n.chars().count() < 3 {
            return false;
        }
        names
            .get_or_init(|| {
                let og = doc.meta.metas.iter().find(|(k, _)| k == "og:title");
                let h1 = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1);
                [
                    og.map(|(_, v)| v.clone()),
                    doc.meta.title.clone(),
                    h1.map(|i| doc.plain_text(i)),
                ]
                .into_iter()
                .flatten()
                .map(|t| super::brand::spell(&[&t]))
                .collect()
            })
            .iter()
            .any(|t| t.contains(&n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Partial {
        read(&[s.to_string()])
    }

    #[test]
    fn product_with_offer() {
        let p = one(
            r#"{"@context":"https://schema.org","@type":"Product","name":"Dark Roast",
            "sku":"50251G","brand":{"@type":"Brand","name":"Death Wish"},
            "image":["https://x/a.jpg",{"url":"https://x/b.jpg"}],
            "offers":[{"@type":"Offer","price":19.99,"priceCurrency":"USD",
                       "availability":"http://schema.org/InStock","gtin12":851552005025}]}"#,
        );
        assert_eq!(p.name.as_deref(), Some("Dark Roast"));
        let price = p.price.unwrap();
        assert_eq!(
            (price.amount.as_str(), price.currency),
            ("19.99", Some("USD"))
        );
        assert_eq!(p.availability, Some(Availability::InStock));
        assert_eq!(p.gtin.as_deref(), Some("851552005025"));
        assert_eq!(p.brand.as_deref(), Some("Death Wish"));
        assert_eq!(p.images, vec!["https://x/a.jpg", "https://x/b.jpg"]);
    }

    #[test]
    fn names_page_reads_title_and_heading() {
        let doc = Doc::parse_str(
            "<title>Shop | Cordless Drill 20V</title><h1>Drill &amp; Driver Kit</h1><p>x</p>",
        );
        let names = names_page(&doc);
        assert!(names("Cordless Drill 20V"));
        assert!(names("Drill & Driver kit"));
        assert!(!names("Battery Pack"));
        assert!(!names("Dr"));
    }

    /// Issue 59: a page listing an accessory's product object before the
    /// one it sells read the accessory's code and price.
    #[test]
    fn the_product_the_page_names_is_the_main_one() {
        let ld = [r#"[{"@type":"Product","name":"Battery Pack","sku":"BP1",
            "offers":{"@type":"Offer","price":"49.00","priceCurrency":"USD"}},
            {"@type":"Product","name":"Cordless Drill 20V","sku":"DR20",
            "offers":{"@type":"Offer","price":"129.00","priceCurrency":"USD"}}]"#
            .to_string()];
        let page = |n: &str| "cordless drill 20v | shop".contains(&n.to_lowercase());
        let p = read_on(&ld, &page, None);
        assert_eq!(p.sku.as_deref(), Some("DR20"));
        assert_eq!(p.price.map(|x| x.amount), Some("129.00".to_string()));
        // A page naming neither (or both) keeps the first.
        assert_eq!(read_on(&ld, &|_| false, None).sku.as_deref(), Some("BP1"));
        assert_eq!(read(&ld).sku.as_deref(), Some("BP1"));
    }

    /// Issue 59: shapes of JSON-LD shops publish that gave no product or
    /// the wrong offer.
    #[test]
    fn offers_shops_write_otherwise() {
        // A top-level offer naming its product.
        let p = one(r#"{"@type":"Offer","price":"129.00","priceCurrency":"USD",
            "itemOffered":{"@type":"Product","name":"Drill","sku":"DR20"}}"#);
        assert_eq!(p.sku.as_deref(), Some("DR20"));
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("129.00"));
        // A zero price beside a priced specification.
        let p = one(
            r#"{"@type":"Product","name":"Drill","offers":{"@type":"Offer","price":"0",
            "priceSpecification":{"@type":"PriceSpecification","price":"129.00"}}}"#,
        );
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("129.00"));
        // A zero price alone is the price (a free app).
        let p = one(r#"{"@type":"SoftwareApplication","name":"App","offers":{"price":"0"}}"#);
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("0.00"));
        // A used item's offer listed first.
        let p = one(r#"{"@type":"Product","name":"Drill","offers":[
            {"@type":"Offer","price":"89.00","itemCondition":"https://schema.org/UsedCondition"},
            {"@type":"Offer","price":"129.00","itemCondition":"https://schema.org/NewCondition"}]}"#);
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("129.00"));
        // A scheme before the code; a trailing comma.
        let p = one(r#"{"@type":"Product","name":"Drill","productID":"sku:DR20",}"#);
        assert_eq!(p.sku.as_deref(), Some("DR20"));
        let p = one(r#"{"@type":"Product","name":"Drill","productID":"isbn"}"#);
        assert_eq!(p.sku.as_deref(), Some("isbn"));
    }

    #[test]
    fn graph_aggregate_offer_and_price_specification() {
        let p = one(r#"{"@graph":[{"@type":"BreadcrumbList","itemListElement":[
                 {"position":2,"item":{"name":"Seeds"}},{"position":1,"name":"Home"}]},
               {"@type":["Product"],"name":"Sunflower Seeds",
                "offers":{"@type":"AggregateOffer","lowPrice":"2.98","highPrice":"79.98","priceCurrency":"GBP"}}]}"#);
        assert_eq!(p.price.unwrap().amount, "2.98");
        assert_eq!(p.high_price.map(|h| h.amount).as_deref(), Some("79.98"));
        assert_eq!(p.breadcrumbs, vec!["Home", "Seeds"]);
        let s = one(
            r#"{"@type":"Product","name":"Zero","offers":[{"@type":"Offer","priceSpecification":[
                {"@type":"UnitPriceSpecification","priceType":"https://schema.org/ListPrice","price":"120","priceCurrency":"EUR"},
                {"@type":"UnitPriceSpecification","price":"99.90","priceCurrency":"EUR"}]}]}"#,
        );
        let price = s.price.unwrap();
        assert_eq!(
            (price.amount.as_str(), price.currency),
            ("99.90", Some("EUR"))
        );
    }

    #[test]
    fn group_takes_its_first_variant_offer() {
        let p = read(&[
            r#"{"@type":"Product","name":"Buckle","sku":"TXSB06"}"#.to_string(),
            r#"[{"@type":"Product","name":"Buckle - Blue","sku":"TXSB06BT","offers":{"@type":"Offer","price":335,"priceCurrency":"USD"}}]"#.to_string(),
        ]);
        assert_eq!(p.name.as_deref(), Some("Buckle"));
        assert_eq!(p.sku.as_deref(), Some("TXSB06"));
        assert_eq!(p.price.unwrap().amount, "335.00");
    }

    /// Issue 59: a product group's page at one variant's URL read the first
    /// variant's price, stock and code.
    #[test]
    fn the_variant_the_pages_url_names_is_the_one_read() {
        let ld = [r#"{"@type":"ProductGroup","name":"Runner","sku":"R-40","hasVariant":[
            {"@type":"Product","@id":"/p/runner?variant=1#variant","sku":"R-40",
             "offers":{"@type":"Offer","price":"90.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}},
            {"@type":"Product","@id":"/p/runner?variant=2#variant","sku":"R-41",
             "offers":{"@type":"Offer","price":"95.00","priceCurrency":"EUR","availability":"https://schema.org/OutOfStock"}}]}"#
            .to_string()];
        let p = read_on(&ld, &|_| true, Some("https://s.test/p/runner?variant=2"));
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("95.00"));
        assert_eq!(p.availability, Some(Availability::OutOfStock));
        // The group's code was the first variant's: the one shown is read.
        assert_eq!(p.sku.as_deref(), Some("R-41"));
        assert_eq!(p.other_offers.len(), 1);
        // At the group's own URL, the first variant's.
        let p = read_on(&ld, &|_| true, Some("https://s.test/p/runner"));
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("90.00"));
        assert_eq!(p.sku.as_deref(), Some("R-40"));
    }

    /// Issue 59: a brand given as a reference into the page's graph was
    /// not read.
    #[test]
    fn a_brand_referenced_by_its_id_is_read_from_the_graph() {
        let p = read(&[r#"{"@context":"https://schema.org","@graph":[
            {"@type":"Brand","@id":"https://x.test/#acme","name":"Acme"},
            {"@type":"Product","name":"Kettle","brand":{"@id":"https://x.test/#acme"},
             "manufacturer":{"@type":"Organization","name":"Acme Appliances Ltd"}}]}"#
            .to_string()]);
        assert_eq!(p.brand.as_deref(), Some("Acme"));
    }

    #[test]
    fn codes_and_brand_come_from_the_variant_sold_when_the_group_has_none() {
        let p = one(
            r#"{"@type":"ProductGroup","name":"Runner","productGroupID":"R1","hasVariant":[
                {"@type":"Product","name":"Runner - 42","sku":"R1-42","gtin13":"4006381333931",
                 "mpn":"RN-42","brand":{"@type":"Brand","name":"Acme"},
                 "offers":{"@type":"Offer","price":"89.00","priceCurrency":"EUR"}}]}"#,
        );
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("89.00"));
        assert_eq!(p.gtin.as_deref(), Some("4006381333931"));
        assert_eq!(p.mpn.as_deref(), Some("RN-42"));
        assert_eq!(p.brand.as_deref(), Some("Acme"));
        // The group's own codes come first.
        let p = one(
            r#"{"@type":"Product","name":"Mug","mpn":"M-1","brand":"Own","offers":{"@type":"Offer",
                "price":"9.00","priceCurrency":"EUR","mpn":"M-1-RED"}}"#,
        );
        assert_eq!(p.mpn.as_deref(), Some("M-1"));
        assert_eq!(p.brand.as_deref(), Some("Own"));
    }

    #[test]
    fn broken_or_unrelated_json_ld_gives_nothing() {
        assert!(!one("{not json").found);
        assert!(!one(r#"{"@type":"Article","headline":"x"}"#).found);
        assert!(
            one(r#"{"@type":"Product","name":"A","offers":{"price":"call us"}}"#)
                .price
                .is_none()
        );
    }
}
