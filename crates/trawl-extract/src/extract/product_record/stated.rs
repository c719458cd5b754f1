//! What a page's structured data says about its product, kept only where the
//! page shows it too: weak labels for measuring the visible reader
//! ([`super::Sources::Shown`]) on every shop that has markup, in any language,
//! without labelling a page by hand (`trawl eval --products-shown`).
//!
//! A page is labelled when its JSON-LD or microdata gives a price that the
//! page also shows (the self-labelled set: a visible price its structured data
//! agrees with). Each other field is labelled when the page's text shows the
//! structured value (name, codes, brand); availability is taken as the markup
//! states it, since pages say it in words of any language.

use super::record::{Partial, Price, Product, Source};
use super::{jsonld, microdata};
use crate::extract::shop::money::same_amount;
use crate::extract::shop::visible::{self, in_text};
use crate::html::Doc;

/// The page's structured product, as far as the page shows it; `None` when
/// the markup declares no price the page shows.
pub fn stated(doc: &Doc) -> Option<Product> {
    let ld = jsonld::read_on(&doc.meta.json_ld, &jsonld::names_page(doc), None);
    let md = microdata::read(doc);
    let (sp, source) = [(&ld, Source::JsonLd), (&md, Source::Microdata)]
        .into_iter()
        .find_map(|(p, s)| p.price.as_ref().map(|x| (x, s)))?;
    let vis = visible::of(doc);
    if !vis.all.iter().any(|f| same_amount(&f.amount, &sp.amount)) {
        return None;
    }
    let first = |f: fn(&Partial) -> Option<String>| f(&ld).or_else(|| f(&md));
    let shown = |v: Option<String>| v.filter(|v| !v.trim().is_empty() && in_text(doc, v.trim()));
    Some(Product {
        name: shown(first(|p| p.name.clone())),
        price: Some(Price {
            amount: sp.amount.clone(),
            currency: sp.currency.map(str::to_string),
            raw: sp.raw.clone(),
            source,
        }),
        currency: sp.currency.map(str::to_string),
        availability: ld.availability.or(md.availability),
        sku: shown(first(|p| p.sku.clone())),
        gtin: shown(first(|p| p.gtin.clone())),
        mpn: shown(first(|p| p.mpn.clone())),
        brand: shown(first(|p| p.brand.clone())),
        images: Vec::new(),
        breadcrumbs: Vec::new(),
        description: None,
        specs: Vec::new(),
        regular_price: None,
        price_max: None,
        rating: None,
        review_count: None,
        variants: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_what_the_markup_states_and_the_page_shows() {
        let doc = Doc::parse_str(
            "<html><head><script type=application/ld+json>{\"@type\":\"Product\",\
             \"name\":\"Blue Kettle\",\"sku\":\"BK-1\",\"gtin13\":\"4006381333931\",\
             \"brand\":{\"name\":\"Acme\"},\"offers\":{\"price\":\"21.00\",\
             \"priceCurrency\":\"USD\",\"availability\":\"https://schema.org/InStock\"}}\
             </script></head><body><h1>Blue Kettle</h1><p class=price>$21.00</p>\
             <p>SKU: BK-1</p><button>Add to cart</button></body></html>",
        );
        let p = stated(&doc).expect("labelled");
        assert_eq!(p.name.as_deref(), Some("Blue Kettle"));
        assert_eq!(p.price.map(|x| x.amount).as_deref(), Some("21.00"));
        assert_eq!(p.currency.as_deref(), Some("USD"));
        assert_eq!(p.sku.as_deref(), Some("BK-1"));
        // Stated but never shown: no label.
        assert_eq!(p.gtin, None);
        assert_eq!(p.brand, None);
        assert_eq!(p.availability, Some(super::super::Availability::InStock));
    }

    #[test]
    fn a_price_the_page_does_not_show_labels_nothing() {
        let doc = Doc::parse_str(
            "<html><head><script type=application/ld+json>{\"@type\":\"Product\",\
             \"name\":\"Mug\",\"offers\":{\"price\":\"9.00\",\"priceCurrency\":\"EUR\"}}\
             </script></head><body><h1>Mug</h1><p>12,00 €</p></body></html>",
        );
        assert!(stated(&doc).is_none());
    }
}
