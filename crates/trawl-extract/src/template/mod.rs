//! Per-site extraction templates, learned by diffing product pages (paper 003).
//!
//! Product pages of one shop share a template: everything but the product's
//! own data is the same from page to page. [`learn`] compares n sample pages
//! ([`align`]), keeps the leaves that vary, prunes them by link and text
//! relevance, and names them ([`fields`]) without a person: title, price,
//! brand, GTIN/ISBN, author, publisher, dates and labelled specification
//! rows. [`apply`] reads those fields from any later page of the site, by
//! the learned node key or, when rows moved, by their label; it also says
//! how well the page still matches the template, so a crawl can tell when a
//! site changed and learn again. Templates are stored in the store's
//! `templates` tree by site and cluster, with a version.

pub(crate) mod align;
pub(crate) mod check;
pub(crate) mod fields;
pub(crate) mod verdict;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::html::leaves::Leaf;
use crate::html::Doc;
use crate::page::Page;
pub use fields::{clean_value, FieldRule};
pub use verdict::{Check, FieldCheck};

/// Why a template could not be learned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// Fewer than two sample pages.
    #[error("need at least 2 sample pages to learn a template, got {0}")]
    TooFewPages(usize),
    /// The samples are identical where it matters.
    #[error(
        "the sample pages share no variable content: of the first page's {leaves} text leaves, \
         {varying} differ between the pages and none of those looks like product data \
         (copies of one page, or listing pages rather than product pages of one layout?)"
    )]
    NothingVaries {
        /// Text leaves of the first sample page.
        leaves: usize,
        /// Leaves whose text differs between the samples.
        varying: usize,
    },
}

/// Pruning figures of a learned template (paper 003's measure).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Pruning {
    /// Text leaves of the first sample page.
    pub total: usize,
    /// Leaves that vary across the samples.
    pub variable: usize,
    /// Of those, kept by the relevance pruning.
    pub kept: usize,
}

impl Pruning {
    /// Share of leaves pruned, in [0, 1].
    pub fn rate(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            1.0 - self.kept as f64 / self.total as f64
        }
    }
}

/// A learned template: where a shop's product pages keep each field.
///
/// ```
/// use trawl_extract::{Options, Page, Template};
///
/// let page = |name: &str, price: &str| {
///     let html = format!("<html><head><title>{name} | Shop</title></head><body>\
///         <div class=nav><a href=/>Shop</a> <a href=/help>Help</a></div>\
///         <div class=product><h1>{name}</h1><p>Price: <span class=price>{price}</span></p></div>\
///         <div class=foot>Free delivery on every order</div></body></html>");
///     Page::parse(html.as_bytes(), &Options::default())
/// };
/// let samples = vec![page("Blue kettle", "$21.00")?, page("Red teapot", "$18.50")?,
///                    page("Green mug", "$6.25")?, page("Tea tray", "$12.00")?];
/// let template = Template::learn("shop.example", &samples)?;
/// let fields = template.apply(&page("Steel whistle", "$4.75")?);
/// assert_eq!(fields.values["name"], vec!["Steel whistle"]);
/// assert_eq!(fields.values["price"], vec!["$4.75"]);
/// assert_eq!(fields.values["currency"], vec!["USD"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Template {
    /// The site it was learned for.
    pub site: String,
    /// Template cluster within the site (a shop may have several layouts).
    pub cluster: u32,
    /// Bumped each time the site's template is learned again.
    pub version: u32,
    /// Sample pages it was learned from.
    pub samples: usize,
    /// Where each field is read.
    pub fields: Vec<FieldRule>,
    /// Keys of the fixed part (up to `SIGNATURE_KEYS`): a page of this
    /// template has most of them.
    pub signature: Vec<String>,
    /// How much of the sample pages the diff pruned.
    pub pruning: Pruning,
    /// Seconds since the Unix epoch.
    pub learned_at: u64,
    /// Its self-check on pages of the site it was not learned from
    /// ([`Template::learn_checked`]); `None` when it was not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
}

/// Fixed-part keys kept as the template's signature.
pub(crate) const SIGNATURE_KEYS: usize = 300;

/// The diff of the sample pages, plus the rows whose label names a field
/// but whose value happened to be the same on every sample (four books
/// published the same month): a label like "Date" says it is a hole.
pub(crate) fn candidates(all: &[Vec<Leaf>], how: Learning) -> align::Diff {
    if how == Learning::Paper {
        return align::diff_with(all, align::Agreement::All);
    }
    let mut d = align::diff(all);
    let Some(first) = all.first() else {
        return d;
    };
    let named: Vec<String> = d
        .fixed
        .iter()
        .filter(|k| {
            first.iter().any(|l| {
                &&l.key == k
                    && l.label
                        .as_deref()
                        .is_some_and(|lab| fields::field_of_label(lab).is_some() && lab != l.text)
            })
        })
        .cloned()
        .collect();
    d.fixed.retain(|k| !named.contains(k));
    d.kept.extend(named);
    d
}

/// Which learning rules to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Learning {
    /// Paper 003's diff: static means the same on every sample.
    Paper,
    /// trawl's: majority agreement, and labelled rows kept even when their
    /// values coincide on the samples.
    Trawl,
}

impl Template {
    /// Learns a template from sample pages of one site and layout (4 is
    /// best: paper 003).
    pub fn learn(site: &str, pages: &[Page]) -> Result<Template, TemplateError> {
        Template::learn_with(site, pages, Learning::Trawl)
    }

    /// [`Template::learn`] with the chosen rules.
    pub fn learn_with(
        site: &str,
        pages: &[Page],
        how: Learning,
    ) -> Result<Template, TemplateError> {
        let docs: Vec<&Doc> = pages.iter().map(Page::doc).collect();
        let all: Vec<Vec<Leaf>> = pages.iter().map(|p| p.leaves().to_vec()).collect();
        learn_from(site, &docs, all, how)
    }

    /// Whether its fields should be used: it was not checked, or it read
    /// the checked pages at least as well as the single-page product record.
    pub fn is_used(&self) -> bool {
        self.check.as_ref().is_none_or(Check::template_is_used)
    }

    /// Reads the template's fields from a page.
    pub fn apply(&self, page: &Page) -> Applied {
        apply_to(self, page.leaves())
    }
}

/// The texts of each sample page that survive the diff under `how` (a kept
/// leaf, or a leaf in a kept leaf's block), as [`clean_value`] shows them,
/// lower-cased: what a template learned from these pages could extract.
pub fn kept_texts(pages: &[Page], how: Learning) -> Vec<std::collections::HashSet<String>> {
    let all: Vec<Vec<Leaf>> = pages.iter().map(|p| p.leaves().to_vec()).collect();
    let kept: std::collections::HashSet<String> = candidates(&all, how).kept.into_iter().collect();
    all.iter()
        .map(|leaves| {
            let blocks: std::collections::HashSet<&str> = leaves
                .iter()
                .filter(|l| kept.contains(&l.key))
                .map(|l| l.block.as_str())
                .collect();
            leaves
                .iter()
                .filter(|l| kept.contains(&l.key) || blocks.contains(l.block.as_str()))
                .map(|l| clean_value(&l.text).to_lowercase())
                .collect()
        })
        .collect()
}

fn learn_from(
    site: &str,
    pages: &[&Doc],
    all: Vec<Vec<Leaf>>,
    how: Learning,
) -> Result<Template, TemplateError> {
    if pages.len() < 2 {
        return Err(TemplateError::TooFewPages(pages.len()));
    }
    let d = candidates(&all, how);
    if d.kept.is_empty() {
        return Err(TemplateError::NothingVaries {
            leaves: d.total,
            varying: d.variable.len(),
        });
    }
    let samples: Vec<fields::Sample<'_>> = all
        .iter()
        .zip(pages)
        .map(|(leaves, doc)| fields::Sample {
            leaves,
            title: doc.meta.title.as_deref(),
            json_ld: fields::stated_values(doc),
        })
        .collect();
    let rules = fields::map_fields(&samples, &d.kept);
    let step = (d.fixed.len() / SIGNATURE_KEYS).max(1);
    Ok(Template {
        site: site.to_string(),
        cluster: 0,
        version: 1,
        samples: pages.len(),
        fields: rules,
        signature: d
            .fixed
            .iter()
            .step_by(step)
            .take(SIGNATURE_KEYS)
            .cloned()
            .collect(),
        pruning: Pruning {
            total: d.total,
            variable: d.variable.len(),
            kept: d.kept.len(),
        },
        learned_at: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| t.as_secs()),
        check: None,
    })
}

/// What a template read from a page.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Applied {
    /// Field → values (most fields have one).
    pub values: BTreeMap<String, Vec<String>>,
    /// How well the page fits the template, in [0, 1]: the mean of the
    /// shares of its fixed-part keys and of its field keys found on the page.
    pub matched: f32,
}

/// Words that join values in one block ("by A, B and C").
fn is_separator(text: &str) -> bool {
    matches!(
        text.trim()
            .trim_matches(|c: char| c == ',' || c == ';')
            .trim()
            .to_lowercase()
            .as_str(),
        "" | "by" | "and" | "&" | "with" | "|" | "/"
    )
}

/// [`Template::apply`] to a page's leaves.
fn apply_to(t: &Template, leaves: &[Leaf]) -> Applied {
    let keys: std::collections::HashSet<&str> = leaves.iter().map(|l| l.key.as_str()).collect();
    // Half the template's fixed part (which shares the site's chrome with
    // other layouts), half its holes (which another layout lacks).
    let share = |ks: &mut dyn Iterator<Item = &str>, n: usize| {
        if n == 0 {
            1.0
        } else {
            ks.filter(|k| keys.contains(k)).count() as f32 / n as f32
        }
    };
    let fixed = share(
        &mut t.signature.iter().map(String::as_str),
        t.signature.len(),
    );
    let holes = share(&mut t.fields.iter().map(|f| f.key.as_str()), t.fields.len());
    let matched = 0.5 * fixed + 0.5 * holes;
    let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // The leaves' keys without positions, and reduced to tags: computed
    // once per page, when a rule first needs them.
    let tag_keys = std::cell::OnceCell::new();
    let tag_keys = || -> &Vec<String> {
        tag_keys.get_or_init(|| leaves.iter().map(|l| tags_only(&l.key)).collect())
    };
    for rule in &t.fields {
        // The learned node if it still carries the learned label; else the
        // row with that label elsewhere (rows reordered, one added).
        let by_key = || {
            leaves
                .iter()
                .find(|l| l.key == rule.key && (rule.label.is_none() || l.label == rule.label))
                .or_else(|| {
                    // Same path of tags, ids and classes, other positions
                    // (a banner added above the product block).
                    let want = loose(&rule.key);
                    leaves.iter().find(|l| {
                        loose_is(&l.key, &want) && (rule.label.is_none() || l.label == rule.label)
                    })
                })
                .or_else(|| {
                    // Same tags (a class changed, e.g. on <body> per product
                    // category): the candidate sharing the most ids and classes.
                    let want = tags_only(&rule.key);
                    leaves
                        .iter()
                        .zip(tag_keys())
                        .filter(|(l, k)| {
                            **k == want && (rule.label.is_none() || l.label == rule.label)
                        })
                        .map(|(l, _)| l)
                        .max_by_key(|l| common_parts(&l.key, &rule.key))
                })
        };
        let by_label = || {
            rule.label.as_ref().and_then(|label| {
                leaves.iter().find(|l| {
                    l.label.as_deref() == Some(label.as_str())
                        && field_block_like(&l.block, &rule.block)
                })
            })
        };
        let found: Vec<String> = if rule.whole_block {
            let block = by_key().or_else(by_label).map(|l| l.block.clone());
            block.map_or_else(Vec::new, |b| {
                leaves
                    .iter()
                    .filter(|l| {
                        l.block == b
                            && Some(&l.text) != rule.label.as_ref()
                            && !is_separator(&l.text)
                    })
                    .map(|l| clean_value(&l.text))
                    .collect()
            })
        } else {
            by_key()
                .or_else(by_label)
                .map(|l| vec![clean_value(&l.text)])
                .unwrap_or_default()
        };
        let found: Vec<String> = found
            .into_iter()
            .filter(|v| !v.is_empty() && (rule.field != "price" || fields::holds_price(v)))
            .collect();
        if !found.is_empty() {
            values.insert(rule.field.clone(), found);
        }
    }
    if let Some(c) = values
        .get("price")
        .and_then(|v| v.first())
        .and_then(|p| currency_of(p))
    {
        values.insert("currency".into(), vec![c.to_string()]);
    }
    Applied { values, matched }
}

/// ISO 4217 code of a price's currency sign or code, if it shows one.
pub(crate) fn currency_of(price: &str) -> Option<&'static str> {
    let p = price.to_uppercase();
    [
        ("US$", "USD"),
        ("$", "USD"),
        ("€", "EUR"),
        ("EUR", "EUR"),
        ("£", "GBP"),
        ("GBP", "GBP"),
        ("¥", "JPY"),
        ("JPY", "JPY"),
        ("CHF", "CHF"),
        ("USD", "USD"),
    ]
    .into_iter()
    .find(|(sign, _)| p.contains(sign))
    .map(|(_, code)| code)
}

/// A key without the positions of its elements (the text's own position
/// among its siblings stays).
fn loose(key: &str) -> String {
    let (path, last) = key.rsplit_once('/').unwrap_or(("", key));
    let mut out = String::with_capacity(key.len());
    let mut skip = false;
    for c in path.chars() {
        match c {
            '[' => skip = true,
            ']' => skip = false,
            c if !skip => out.push(c),
            _ => {}
        }
    }
    out.push('/');
    out.push_str(last);
    out
}

/// `loose(key) == want`, compared as `loose` would build it, without
/// building it (most keys differ in their first characters).
fn loose_is(key: &str, want: &str) -> bool {
    let (path, last) = key.rsplit_once('/').unwrap_or(("", key));
    let mut want = want.chars();
    let mut skip = false;
    for c in path.chars() {
        match c {
            '[' => skip = true,
            ']' => skip = false,
            c if !skip && want.next() != Some(c) => return false,
            _ => {}
        }
    }
    want.next() == Some('/') && want.as_str() == last
}

/// A key reduced to its tags and the text's position.
fn tags_only(key: &str) -> String {
    let (path, last) = key.rsplit_once('/').unwrap_or(("", key));
    let mut out: String = path
        .split('/')
        .map(|seg| seg.split(['[', '.', '#']).next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("/");
    out.push('/');
    out.push_str(last);
    out
}

/// Path segments (with ids and classes) two keys share.
fn common_parts(a: &str, b: &str) -> usize {
    let strip = |s: &str| s.split('[').next().unwrap_or_default().to_string();
    a.split('/')
        .zip(b.split('/'))
        .filter(|(x, y)| strip(x) == strip(y))
        .count()
}

/// Whether two block keys are the same kind of block (same tag at the end),
/// so a label found elsewhere is still a row like the learned one.
fn field_block_like(a: &str, b: &str) -> bool {
    let tag = |k: &str| {
        k.rsplit('/')
            .next()
            .and_then(|s| s.split(['[', '.', '#']).next())
            .unwrap_or_default()
            .to_string()
    };
    tag(a) == tag(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_is_loose_without_building_it() {
        for (a, b) in [
            ("div.main[2]/ul[1]/li[3]/0", "div.main[1]/ul[1]/li[5]/0"),
            ("div.main[2]/ul[1]/li[3]/0", "div.side[2]/ul[1]/li[3]/0"),
            ("div[2]/p[1]/1", "div[2]/p[1]/0"),
            ("x", "x"),
            ("a/b", "a/bc"),
        ] {
            assert_eq!(loose_is(a, &loose(b)), loose(a) == loose(b), "{a} {b}");
        }
    }

    fn parsed(html: &str) -> Page {
        Page::parse(html.as_bytes(), &crate::Options::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn page(title: &str, author: &str, isbn: &str, publisher: &str, swap: bool) -> Page {
        let rows = [
            format!("<li><strong>ISBN-13</strong>: {isbn}</li>"),
            format!("<li><strong>Publisher</strong>: {publisher}</li>"),
        ];
        let rows = if swap {
            format!("{}{}", rows[1], rows[0])
        } else {
            rows.concat()
        };
        parsed(&format!(
            "<html><head><title>{title} by {author}: Shop</title></head><body>\
             <div id=nav><a href=/>Home</a> <a href=/books>Books</a> <a href=/help>Help</a></div>\
             <div class=product><h2>{title}</h2><h3 class=author>by <a href=/a>{author}</a></h3>\
             <p>Fast shipping on all orders. Our best prices every day of the week.</p>\
             <ul class=details>{rows}<li><strong>Format</strong>: Hardcover</li></ul></div>\
             <footer>Copyright shop, all rights reserved. Contact us for anything.</footer></body></html>"
        ))
    }

    #[test]
    fn learns_fields_and_applies_them_even_when_rows_move() {
        let samples = [
            page(
                "Game Over",
                "Fern Michaels",
                "9781420106879",
                "Zebra",
                false,
            ),
            page(
                "Spirit Bound",
                "Richelle Mead",
                "9781595142504",
                "Razorbill",
                false,
            ),
            page(
                "Night Myst",
                "Dianne Duvall",
                "9780425232507",
                "Berkley",
                false,
            ),
            page("Torn Apart", "Sharon Sala", "9780778327875", "Mira", false),
        ];
        let t = Template::learn("shop", &samples).expect("learned");
        let fields: Vec<&str> = t.fields.iter().map(|f| f.field.as_str()).collect();
        for f in ["name", "author", "gtin", "publisher"] {
            assert!(fields.contains(&f), "{f} in {fields:?}");
        }
        assert!(t.pruning.rate() > 0.4, "{:?}", t.pruning);
        let later = page(
            "The Lion",
            "Nelson DeMille",
            "9780446580830",
            "Grand Central",
            true,
        );
        let got = t.apply(&later);
        let v = |f: &str| got.values.get(f).cloned().unwrap_or_default();
        assert_eq!(v("name"), ["The Lion"]);
        assert_eq!(v("author"), ["Nelson DeMille"]);
        assert_eq!(v("gtin"), ["9780446580830"]);
        assert_eq!(v("publisher"), ["Grand Central"]);
        assert_eq!(
            loose("/#root[0]/html[0]/body[0]/div.a[2]/h1[0]/#text[1]"),
            "/#root/html/body/div.a/h1/#text[1]"
        );
        assert_eq!(currency_of("12,99 €"), Some("EUR"));
        assert_eq!(currency_of("$9.99"), Some("USD"));
        assert_eq!(currency_of("9.99"), None);
        assert!(got.matched > 0.9, "{}", got.matched);
        let other = parsed("<html><body><p>A different site altogether.</p></body></html>");
        assert!(t.apply(&other).matched < 0.2);
    }

    /// Regression: a neighbouring line that says "Release" is not a date
    /// label; the "Publication Date:" row is.
    #[test]
    fn a_field_is_named_by_a_row_label_not_a_neighbouring_line() {
        let pages: Vec<Page> = [
            ("Game Over", "Vendor one", "May 1, 2001"),
            ("Spirit Bound", "Vendor two", "June 2, 2002"),
            ("Night Myst", "Vendor three", "July 3, 2003"),
            ("Torn Apart", "Vendor four", "August 4, 2004"),
        ]
        .iter()
        .map(|(title, vendor, date)| {
            parsed(&format!(
                "<html><head><title>{title}: Shop</title></head><body>\
                 <div id=nav><a href=/>Home</a> <a href=/b>Books</a> <a href=/h>Help</a></div>\
                 <div class=product><p class=line><span>Release</span> <span>{vendor} / Paperback</span></p>\
                 <h1>{title}</h1><ul><li><b>Publication Date:</b> {date}</li></ul>\
                 <p>Shipping is free on all orders over twenty dollars, every day.</p></div></body></html>"
            ))
        })
        .collect();
        let t = Template::learn("shop", &pages).expect("learned");
        let date = t
            .fields
            .iter()
            .find(|f| f.field == "date")
            .expect("a date field");
        assert_eq!(
            date.label.as_deref(),
            Some("Publication Date:"),
            "{:?}",
            t.fields
        );
    }

    /// Regression: a block whose class names the price but which shows a
    /// count ("43 copies") was learned as the price.
    #[test]
    fn a_price_field_shows_an_amount() {
        let pages: Vec<Page> = [
            ("Game Over", "43", "$7.99"),
            ("Spirit Bound", "12", "$8.50"),
            ("Night Myst", "7", "$9.25"),
            ("Torn Apart", "101", "$6.75"),
            ("Dark Rain", "3", "$5.10"),
        ]
        .iter()
        .map(|(title, copies, price)| {
            parsed(&format!(
                "<html><head><title>{title}: Shop</title></head><body>\
                 <div id=nav><a href=/>Home</a> <a href=/b>Books</a> <a href=/h>Help</a></div>\
                 <div class=product><h1>{title}</h1>\
                 <div class=price-stock><span>{copies} copies</span></div>\
                 <p>Our price: <span>{price}</span></p>\
                 <p>Shipping is free on all orders over twenty dollars, every day.</p></div></body></html>"
            ))
        })
        .collect();
        let t = Template::learn("shop", &pages[..4]).expect("learned");
        let applied = t.apply(&pages[4]);
        assert_eq!(
            applied.values.get("price"),
            Some(&vec!["$5.10".to_string()]),
            "{:?}",
            t.fields
        );
    }

    #[test]
    fn one_page_is_not_enough() {
        let p = page("A", "B", "9781420106879", "C", false);
        assert!(matches!(
            Template::learn("s", &[p]),
            Err(TemplateError::TooFewPages(1))
        ));
    }
}
