//! Templates that check themselves before they are trusted.
//!
//! Four sample pages are usually enough (paper 003), but not always: the
//! samples may share a value, miss an optional row, or mix two layouts, and
//! the template then reads nothing, or the wrong line, for a field. Nobody
//! labels a crawled shop, so the check uses what the pages say about
//! themselves as weak labels: their structured data (JSON-LD Product name,
//! price, SKU, GTIN, MPN, brand) and their labelled rows ("ISBN-13:",
//! "Publisher:"), whose label names the field. [`check`] applies a template
//! to pages it was not learned from and counts, per field, how often it
//! agrees with that evidence, and how often the single-page product record
//! does. [`Template::learn_checked`] learns from the first pages, checks on
//! the rest, and takes more samples while a field is missing or wrong; a
//! template that does worse than the single-page record is kept (the crawl
//! still groups pages by it) but marked not to be used.

use std::collections::BTreeMap;

use super::fields::{agrees, clean_value};
use super::verdict::Check;
use super::{fields, Template, TemplateError};
use crate::extract::product_record::{self, Product};
use crate::page::Page;

/// A field must be read right on this share of the checked pages that
/// show evidence for it.
pub(crate) const FIELD_PASS: f32 = 0.8;
/// Samples added per round while a field is missing or wrong.
const STEP: usize = 2;

/// Field → value the page states about itself: its JSON-LD product (or
/// buy-box price, [`fields::stated_values`]), then
/// its labelled rows whose label names a field, when the page has one such
/// value (the "Club price:" of every book in a carousel says nothing).
pub(crate) fn evidence(page: &Page, record: Option<&Product>) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = fields::stated_values_with(page.doc(), record)
        .into_iter()
        .filter(|(f, v)| *f != "description" && !v.trim().is_empty())
        .map(|(f, v)| (f.to_string(), v))
        .collect();
    let mut rows: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for leaf in page.leaves() {
        let Some(label) = leaf.label.as_deref() else {
            continue;
        };
        if !fields::is_row(label, leaf) {
            continue;
        }
        // A labelled price row is as often the struck list price as the
        // price paid: prices come from structured data or the buy box.
        // A row whose label names no field is a specification.
        let f = match fields::field_of_label(label) {
            Some("price") => continue,
            Some(f) => f.to_string(),
            None => fields::spec_name(label),
        };
        let value = clean_value(&leaf.text);
        let seen = rows.entry(f).or_default();
        if !value.is_empty() && !seen.contains(&value) {
            seen.push(value);
        }
    }
    for (f, mut values) in rows {
        if values.len() == 1 && !out.contains_key(&f) {
            out.insert(f, values.remove(0));
        }
    }
    out
}

/// The single-page product record's value for `field`, if it has one.
fn record_values(record: Option<Product>) -> BTreeMap<String, String> {
    let Some(p) = record else {
        return BTreeMap::new();
    };
    let mut out: BTreeMap<String, String> = [
        ("name", p.name),
        ("price", p.price.map(|x| x.amount)),
        ("sku", p.sku),
        ("gtin", p.gtin),
        ("mpn", p.mpn),
        ("brand", p.brand),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k.to_string(), v?)))
    .collect();
    for (label, value) in p.specs {
        let f = fields::field_of_label(&label)
            .map_or_else(|| fields::spec_name(&label), str::to_string);
        out.entry(f).or_insert(value);
    }
    out
}

/// Applies `t` to pages it was not learned from and compares what it reads,
/// and what the single-page record reads, with the pages' own evidence.
pub(crate) fn check(t: &Template, pages: &[Page]) -> Check {
    let mut c = Check {
        pages: pages.len(),
        ..Check::default()
    };
    // A specification row showing one text on every checked page is the
    // site's fixed part, not a hole the template misses.
    let mut texts: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for page in pages {
        let applied = t.apply(page);
        let doc = page.doc();
        let product = product_record::read(doc, true, doc.meta.title.as_deref(), None);
        let stated = evidence(page, product.as_ref());
        let record = record_values(product);
        for (field, want) in stated {
            if field.starts_with("spec:") {
                texts.entry(field.clone()).or_default().insert(want.clone());
            }
            let fc = c.fields.entry(field.clone()).or_default();
            fc.evidence += 1;
            match applied.values.get(&field) {
                Some(got) if got.iter().any(|v| agrees(&field, v, &want)) => fc.template += 1,
                Some(got) if !got.is_empty() => fc.template_wrong += 1,
                _ => {}
            }
            if record.get(&field).is_some_and(|v| agrees(&field, v, &want)) {
                fc.record += 1;
            }
            if page.leaves().iter().any(|l| agrees(&field, &l.text, &want)) {
                fc.shown += 1;
            }
        }
    }
    let half = pages.len().div_ceil(2).max(1);
    c.weak = c
        .fields
        .iter()
        .filter(|(k, f)| {
            texts.get(*k).is_none_or(|t| t.len() >= 2)
                && f.evidence >= half
                && f.shown >= half
                && (f.template as f32) < FIELD_PASS * f.evidence.min(f.shown) as f32
        })
        .map(|(k, _)| k.clone())
        .collect();
    // Template against record on the named fields: a specification row
    // tells more samples to be taken, not which reader is better.
    let named = || {
        c.fields
            .iter()
            .filter(|(k, _)| !k.starts_with("spec:"))
            .map(|(_, f)| f)
    };
    let total: usize = named().map(|f| f.evidence).sum();
    let share = |n: usize| {
        if total == 0 {
            1.0
        } else {
            n as f32 / total as f32
        }
    };
    c.template_score = share(named().map(|f| f.template).sum());
    c.record_score = share(named().map(|f| f.record).sum());
    c
}

impl Template {
    /// Learns from the first `samples` pages and checks the template on the
    /// rest (`check`); while a field is missing or wrong and at least two
    /// pages are left to check on, learns again from two more samples. The
    /// best template found (fewest weak fields, then the highest score) comes
    /// back with its check in [`Template::check`]. With no page beyond the
    /// samples, this is [`Template::learn`].
    pub fn learn_checked(
        site: &str,
        pages: &[Page],
        samples: usize,
    ) -> Result<Template, TemplateError> {
        let mut k = samples.clamp(2, pages.len().max(2));
        let mut best: Option<Template> = None;
        let rank = |c: &Check| (c.weak.len(), -(c.template_score * 1000.0) as i64);
        loop {
            let learned =
                Template::learn_with(site, &pages[..k.min(pages.len())], super::Learning::Trawl);
            let mut t = match (learned, &best) {
                (Ok(t), _) => t,
                (Err(e), None) if k + STEP + 2 > pages.len() => return Err(e),
                (Err(_), None) => {
                    k += STEP;
                    continue;
                }
                (Err(_), Some(_)) => break,
            };
            let rest = &pages[k.min(pages.len())..];
            if rest.is_empty() {
                return Ok(t);
            }
            let c = check(&t, rest);
            let passed = c.passed();
            t.check = Some(c);
            let better = best.as_ref().is_none_or(|b| {
                let (x, y) = (t.check.as_ref(), b.check.as_ref());
                x.map(rank) < y.map(rank)
            });
            if better {
                best = Some(t);
            }
            if passed || k + STEP + 2 > pages.len() {
                break;
            }
            k += STEP;
        }
        best.ok_or(TemplateError::TooFewPages(pages.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(html: &str) -> Page {
        Page::parse(html.as_bytes(), &crate::Options::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A book page; the ISBN row only when `isbn` is set.
    fn book(i: usize, isbn: bool) -> Page {
        let row = if isbn {
            format!("<li><b>ISBN-13:</b> 978{:010}</li>", 1_234_567 * (i + 1))
        } else {
            String::new()
        };
        book_with(i, &row)
    }

    /// A book page with `row` among its information rows.
    fn book_with(i: usize, row: &str) -> Page {
        parsed(&format!(
            "<html><head><title>Book {i} title words | Shop</title></head><body>\
             <div id=nav><a href=/>Home</a> <a href=/b>Books</a> <a href=/h>Help</a></div>\
             <div class=product><h1>Book {i} title words</h1><ul class=info>\
             <li><b>Format:</b> Paperback</li>{row}<li><b>Pages:</b> {}</li></ul>\
             <p>Shipping is free on all orders over twenty dollars, every day.</p></div>\
             <footer>Copyright the shop, all rights reserved.</footer></body></html>",
            100 + i
        ))
    }

    #[test]
    fn a_missing_field_takes_more_samples() {
        // The ISBN row is on 1 of the first 4 pages, then on every page.
        let pages: Vec<Page> = (0..10).map(|i| book(i, i == 0 || i >= 4)).collect();
        let plain = Template::learn("s", &pages[..4]).expect("learned");
        assert!(!plain.fields.iter().any(|f| f.field == "gtin"));
        let t = Template::learn_checked("s", &pages, 4).expect("learned");
        assert!(t.fields.iter().any(|f| f.field == "gtin"), "{:?}", t.fields);
        assert_eq!(t.samples, 6);
        let c = t.check.as_ref().expect("checked");
        assert!(c.passed(), "{c:?}");
        assert_eq!(c.fields["gtin"].template, 4);
        assert!(t.is_used());
        // With no page to check on, it is plain learning.
        let t = Template::learn_checked("s", &pages[..4], 4).expect("learned");
        assert!(t.check.is_none() && t.is_used());
    }

    #[test]
    fn an_optional_specification_row_takes_more_samples() {
        // A "Series:" row, a label naming no field, on 1 of the first 4
        // pages and on every later page but one in three.
        let page = |i: usize| {
            let series = if i == 2 || (i >= 4 && i % 3 != 0) {
                format!("<li><b>Series:</b> Saga {i}</li>")
            } else {
                String::new()
            };
            book_with(i, &series)
        };
        let pages: Vec<Page> = (0..14).map(page).collect();
        let plain = Template::learn("s", &pages[..4]).expect("learned");
        assert!(!plain.fields.iter().any(|f| f.field == "spec:Series"));
        let t = Template::learn_checked("s", &pages, 4).expect("learned");
        assert!(t.samples > 4, "{}", t.samples);
        assert!(
            t.fields.iter().any(|f| f.field == "spec:Series"),
            "{:?}",
            t.fields
        );
        let c = t.check.as_ref().expect("checked");
        assert!(c.passed(), "{c:?}");
        // "Format:" reads "Paperback" on every page: the fixed part, not a
        // hole to chase with more samples.
        assert!(!c.weak.contains(&"spec:Format".to_string()), "{c:?}");
        let applied = t.apply(&pages[13]);
        assert_eq!(applied.values["spec:Series"], vec!["Saga 13"]);
    }

    #[test]
    fn a_template_worse_than_the_single_page_record_is_not_used() {
        // The JSON-LD names a SKU and a brand the page never shows: the
        // record reads them, the template cannot.
        let page = |i: usize| {
            parsed(&format!(
                "<html><head><title>Lamp {i} | Shop</title><script type=application/ld+json>\
                 {{\"@context\":\"https://schema.org\",\"@type\":\"Product\",\"name\":\"Lamp {i}\",\
                 \"sku\":\"L-{i}\",\"brand\":\"Brand{i}\",\"offers\":{{\"price\":\"{i}9.00\",\"priceCurrency\":\"USD\"}}}}</script>\
                 </head><body><div id=nav><a href=/>Home</a> <a href=/l>Lamps</a></div>\
                 <div class=product><h1>Lamp {i}</h1><p>A lamp for every room of the house, sold by the shop.</p>\
                 <p class=price>${i}9.00</p></div><footer>Copyright the shop</footer></body></html>"
            ))
        };
        let pages: Vec<Page> = (1..=8).map(page).collect();
        let t = Template::learn_checked("s", &pages, 4).expect("learned");
        let c = t.check.as_ref().expect("checked");
        assert_eq!(c.fields["sku"].template, 0, "{c:?}");
        assert_eq!(c.fields["sku"].record, c.fields["sku"].evidence, "{c:?}");
        assert!(c.record_score > c.template_score, "{c:?}");
        assert!(!t.is_used());
    }

    #[test]
    fn values_agree_by_field() {
        assert!(agrees("price", "Our price: $12.50", "12.5"));
        assert!(!agrees("price", "$12.50", "13.50"));
        assert!(agrees("gtin", ": 978-0-14-303943-3", "9780143039433"));
        assert!(agrees("name", "The Road (Paperback)", "The Road"));
        assert!(!agrees("name", "Free shipping", "The Road"));
        assert!(!agrees("brand", "", "Acme"));
    }
}
