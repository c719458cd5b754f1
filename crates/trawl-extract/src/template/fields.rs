//! Naming the variable nodes: which one is the title, the price, the ISBN…
//!
//! Paper 003 leaves this step to a person. Here it is automatic, from weak
//! evidence on the sample pages, strongest first:
//! - structured data: a leaf whose text equals a JSON-LD Product value (name,
//!   sku, gtin, brand, price, …) on a majority of the samples takes that
//!   field;
//! - row labels: the text just before a value in its block ("ISBN-13",
//!   "Publisher", "by") mapped through a table of synonyms;
//! - class and id hints of the ancestors (`author`, `price`, `brand`, …);
//! - the title: the longest variable leaf contained in the page's `<title>`;
//! - value shapes: a 13-digit ISBN/EAN, a currency amount, a date.
//!
//! Any other labelled row becomes a specification (label → value).

use std::collections::HashMap;

use crate::extract::shop::money;
use crate::html::leaves::Leaf;

/// A value as shown, without the separator a label left in front of it
/// ("Price: $4" → "$4"), whitespace collapsed: how template values compare.
pub fn clean_value(text: &str) -> String {
    text.trim()
        .trim_start_matches([':', '-', '|'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a field's values are read from a page.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FieldRule {
    /// The field's name ("name", "price", "isbn_13", "spec:Weight", …).
    pub field: String,
    /// The leaf's key.
    pub key: String,
    /// Its block's key and row label, to find it when rows move.
    pub block: String,
    /// The row's label text ("Publisher:"), if it has one.
    pub label: Option<String>,
    /// Take every leaf of the block but the label (several authors), not
    /// just the one leaf.
    pub whole_block: bool,
}

/// Field of a row label, if the label names one.
pub(crate) fn field_of_label(label: &str) -> Option<&'static str> {
    let l = label.trim().trim_end_matches(':').trim().to_lowercase();
    let has = |w: &str| l.split(|c: char| !c.is_alphanumeric()).any(|t| t == w);
    Some(
        if l.contains("isbn") && l.contains("13") || has("ean") || has("gtin") || has("upc") {
            "gtin"
        } else if l.contains("isbn") {
            "isbn_10"
        } else if has("publisher") || has("imprint") {
            "publisher"
        } else if has("date") || has("published") || has("release") || has("released") {
            "date"
        } else if l == "by" || has("author") || has("authors") || has("writer") {
            "author"
        } else if has("brand") || has("manufacturer") || has("maker") {
            "brand"
        } else if has("sku") || l == "item" || l.contains("item number") || l.contains("item #") {
            "sku"
        } else if has("mpn") || has("model") {
            "mpn"
        } else if has("price") {
            "price"
        } else if has("availability") || has("stock") {
            "availability"
        } else if has("rating") || has("stars") {
            "rating"
        } else {
            return None;
        },
    )
}

fn field_of_hint(hint: &str) -> Option<&'static str> {
    [
        "breadcrumb",
        "author",
        "price",
        "brand",
        "sku",
        "isbn",
        "publisher",
        "rating",
        "availability",
    ]
    .into_iter()
    .find(|f| hint.contains(f))
    .map(|f| match f {
        "isbn" => "gtin",
        "breadcrumb" => "breadcrumbs",
        f => f,
    })
}

fn is_gtin(text: &str) -> bool {
    let digits: String = text.chars().filter(|c| c.is_ascii_digit()).collect();
    (digits.len() == 13 && (digits.starts_with("978") || digits.starts_with("979")))
        || (digits.len() == 13 && text.trim_start_matches([':', ' ']).len() <= 15)
}

/// Shows a money amount (with its currency sign or code).
pub(crate) fn holds_price(text: &str) -> bool {
    is_price(text) || !crate::extract::shop::money::find_prices(text).is_empty()
}

fn is_price(text: &str) -> bool {
    let t = text.trim();
    let money = t.starts_with(['$', '€', '£', '¥']) || t.ends_with(['€', '$']);
    money && t.chars().any(|c| c.is_ascii_digit()) && t.len() <= 20
}

/// JSON-LD Product values of a page: field → value (the page's main
/// product as the product-record reader finds it; the price as written).
pub(crate) fn json_ld_values(json_ld: &[String]) -> HashMap<&'static str, String> {
    let p = crate::extract::product_record::jsonld::read(json_ld);
    [
        ("name", p.name),
        ("sku", p.sku),
        ("mpn", p.mpn),
        ("gtin", p.gtin),
        ("description", p.description),
        ("brand", p.brand),
        ("price", p.price.map(|x| x.raw)),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
    .collect()
}

/// What a page states about its product for machines and in its buy box:
/// [`json_ld_values`], and when they hold no price, the price the
/// single-page record reads from the buy box (the price shown by the
/// product's heading, not struck through): the price a template must agree
/// with, learning and checking.
pub(crate) fn stated_values(doc: &crate::html::Doc) -> HashMap<&'static str, String> {
    let record = crate::extract::product_record::read(doc, true, doc.meta.title.as_deref(), None);
    stated_values_with(doc, record.as_ref())
}

/// [`stated_values`] with the page's single-page record already read.
pub(crate) fn stated_values_with(
    doc: &crate::html::Doc,
    record: Option<&crate::extract::product_record::Product>,
) -> HashMap<&'static str, String> {
    let mut out = json_ld_values(&doc.meta.json_ld);
    if !out.contains_key("price") {
        if let Some(p) = record.and_then(|r| r.price.as_ref()) {
            out.insert("price", p.raw.clone());
        }
    }
    out
}

/// Whether a value read for `field` agrees with the page's evidence.
pub(crate) fn agrees(field: &str, value: &str, evidence: &str) -> bool {
    match field {
        "price" => {
            match (
                money::parse_amount(value, false),
                money::parse_amount(evidence, true),
            ) {
                (Some(a), Some(b)) => money::same_amount(&a, &b),
                _ => false,
            }
        }
        "gtin" | "isbn_10" => {
            let digits = |s: &str| -> String {
                s.chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .trim_start_matches('0')
                    .to_uppercase()
            };
            let (a, b) = (digits(value), digits(evidence));
            !a.is_empty() && a == b
        }
        _ => {
            let (a, b) = (norm(&clean_value(value)), norm(&clean_value(evidence)));
            if a.is_empty() || b.is_empty() {
                return false;
            }
            let (short, long) = if a.len() <= b.len() {
                (&a, &b)
            } else {
                (&b, &a)
            };
            a == b || (short.chars().count() >= 3 && long.contains(short.as_str()))
        }
    }
}

/// Whether a label and its value look like a specification row
/// ("Weight: 2 kg", a table row), not two neighbouring texts of a list.
pub(crate) fn is_row(label: &str, value: &Leaf) -> bool {
    label.trim_end().ends_with(':')
        || value.text.starts_with(':')
        || matches!(value.parent_tag.as_str(), "td" | "dd")
}

/// The field a specification row with this label is read into
/// ("Weight:" → "spec:Weight").
pub(crate) fn spec_name(label: &str) -> String {
    format!("spec:{}", label.trim().trim_end_matches(':').trim())
}

/// One sample page as the mapper sees it.
pub(crate) struct Sample<'a> {
    pub leaves: &'a [Leaf],
    pub title: Option<&'a str>,
    /// What the page states about its product ([`stated_values`]).
    pub json_ld: HashMap<&'static str, String>,
}

pub(crate) fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Maps the kept variable keys to fields.
pub(crate) fn map_fields(samples: &[Sample<'_>], kept: &[String]) -> Vec<FieldRule> {
    let majority = samples.len() / 2 + 1;
    let mut rules: Vec<FieldRule> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let first_of = |key: &str| {
        samples
            .iter()
            .flat_map(|s| s.leaves.iter())
            .find(|l| l.key == key)
    };
    let add = |rules: &mut Vec<FieldRule>,
               taken: &mut Vec<String>,
               field: &str,
               leaf: &Leaf,
               whole_block: bool| {
        if rules.iter().any(|r| r.field == field) || taken.contains(&leaf.key) {
            return;
        }
        taken.push(leaf.key.clone());
        rules.push(FieldRule {
            field: field.to_string(),
            key: leaf.key.clone(),
            block: leaf.block.clone(),
            label: leaf.label.clone(),
            whole_block,
        });
    };
    // 1. Structured data.
    for key in kept {
        let votes: HashMap<&str, usize> = samples.iter().fold(HashMap::new(), |mut acc, s| {
            if let Some(l) = s.leaves.iter().find(|l| &l.key == key) {
                for (f, v) in &s.json_ld {
                    let same = if *f == "price" {
                        holds_price(&l.text) && agrees("price", &l.text, v)
                    } else {
                        norm(&l.text) == norm(v)
                    };
                    if !v.is_empty() && same {
                        *acc.entry(*f).or_default() += 1;
                    }
                }
            }
            acc
        });
        if let Some((f, _)) = votes
            .into_iter()
            .filter(|(_, n)| *n >= majority)
            .max_by_key(|(_, n)| *n)
        {
            if let Some(leaf) = first_of(key) {
                add(&mut rules, &mut taken, f, leaf, false);
            }
        }
    }
    // 2. The title.
    let title_key = kept
        .iter()
        .filter(|k| {
            samples
                .iter()
                .filter(|s| {
                    s.leaves.iter().find(|l| &&l.key == k).is_some_and(|l| {
                        l.text.chars().count() >= 2
                            && s.title.is_some_and(|t| norm(t).contains(&norm(&l.text)))
                    })
                })
                .count()
                >= majority
        })
        .max_by_key(|k| {
            let heading =
                first_of(k).is_some_and(|l| matches!(l.parent_tag.as_str(), "h1" | "h2" | "h3"));
            (heading, first_of(k).map_or(0, |l| l.text.len()))
        });
    if let Some(leaf) = title_key.and_then(|k| first_of(k)) {
        add(&mut rules, &mut taken, "name", leaf, false);
    }
    // 3. Row labels, class hints and value shapes.
    for key in kept {
        let Some(leaf) = first_of(key) else { continue };
        if leaf.parent_tag == "img" {
            // The first varying image of the product block is its picture.
            add(&mut rules, &mut taken, "images", leaf, false);
            continue;
        }
        // A label names a field only when it heads a row ("Publisher:", a
        // table cell) or is the "by" before an author: a neighbouring line
        // that happens to say "date" does not.
        let by_label = leaf.label.as_deref().and_then(|l| {
            field_of_label(l).filter(|f| is_row(l, leaf) || (*f == "author" && !l.contains(':')))
        });
        let by_hint = leaf.hints.iter().rev().find_map(|h| field_of_hint(h));
        let by_shape = if is_gtin(&leaf.text) {
            Some("gtin")
        } else if is_price(&leaf.text) {
            Some("price")
        } else {
            None
        };
        let by_length =
            (leaf.text.chars().count() >= super::align::LONG_TEXT).then_some("description");
        // A price field's values show an amount with its currency ("43
        // copies" under a class naming the price block is not one).
        let priced = |f: &&str| {
            *f != "price"
                || samples
                    .iter()
                    .filter(|s| {
                        s.leaves
                            .iter()
                            .find(|l| &l.key == key)
                            .is_some_and(|l| holds_price(&l.text))
                    })
                    .count()
                    >= majority
        };
        let named = by_label
            .filter(priced)
            .or(by_hint.filter(priced))
            .or(by_shape)
            .or(by_length);
        if let Some(f) = named {
            let whole = matches!(f, "author" | "breadcrumbs");
            add(&mut rules, &mut taken, f, leaf, whole);
        } else if let Some(label) = leaf.label.as_ref().filter(|l| is_row(l, leaf)) {
            add(&mut rules, &mut taken, &spec_name(label), leaf, false);
        }
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_fields() {
        assert_eq!(field_of_label("ISBN-13:"), Some("gtin"));
        assert_eq!(field_of_label("ISBN-10"), Some("isbn_10"));
        assert_eq!(field_of_label("Publisher"), Some("publisher"));
        assert_eq!(field_of_label("Date"), Some("date"));
        assert_eq!(field_of_label("by"), Some("author"));
        assert_eq!(field_of_label("Page Count"), None);
    }

    #[test]
    fn json_ld_products_give_weak_labels() {
        let v = json_ld_values(&[r#"{"@context":"https://schema.org","@type":"Product","name":"Kettle","sku":"K1","brand":{"name":"Acme"},"offers":{"price":"19.99"}}"#.into()]);
        assert_eq!(v.get("name").map(String::as_str), Some("Kettle"));
        assert_eq!(v.get("brand").map(String::as_str), Some("Acme"));
        assert_eq!(v.get("price").map(String::as_str), Some("19.99"));
    }
}
