//! The visible product reader measured on every shop that has markup
//! (`trawl eval --products-shown`): a self-labelled product set.
//!
//! Hand labels cover 119 wcxb-dev pages. Many more pages of the development
//! sets, in many languages, carry JSON-LD or microdata for their product,
//! and on those whose markup states a price the page also shows, the markup
//! is a label ([`trawl_extract::stated_product`]). The record is then read
//! with the markup ignored ([`trawl_extract::ProductSources::Shown`]), as
//! trawl reads a shop without any, and scored per field and per fold (sites
//! kept together). At most [`PER_SITE`] pages of a site are taken, so one
//! big shop does not stand for all.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::eval::error::EvalError;
use crate::eval::products::{fold_of, host, value, Report};
use trawl_extract::{Options, Page, PageType, ProductSources};

/// Fields scored, in report order.
pub const FIELDS: [&str; 8] = [
    "name",
    "price",
    "currency",
    "availability",
    "sku",
    "gtin",
    "mpn",
    "brand",
];

/// Pages taken per site, in file order.
pub const PER_SITE: usize = 10;

/// The self-labelled set's report.
pub struct Shown {
    pub report: Report,
    /// Pages read.
    pub pages: usize,
    /// Pages labelled (the markup states a price the page shows).
    pub labelled: usize,
    /// Of those, pages the page typer calls product pages.
    pub typed_product: usize,
}

/// Pages of a dataset directory with their URLs: a text dataset's, or an
/// SWDE site's (its name standing for the host).
fn pages(dir: &Path) -> Result<Vec<(String, PathBuf, Option<String>)>, EvalError> {
    if let Some((_, site, _)) = crate::eval::swde::detect(dir) {
        let at = dir.join(&site);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&at)
            .map_err(|e| EvalError::BadFile {
                path: at.clone(),
                message: e.to_string(),
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().contains(".htm"))
            .collect();
        files.sort();
        let url = format!("https://{site}/");
        return Ok(files
            .into_iter()
            .map(|f| (f.display().to_string(), f, Some(url.clone())))
            .collect());
    }
    Ok(crate::eval::dataset::load(dir)?
        .into_iter()
        .map(|c| (c.id, c.html, c.url))
        .collect())
}

/// Labels every page of `dir` from its markup and scores the record read
/// without it.
pub fn run(dir: &Path) -> Result<Shown, EvalError> {
    let mut out = Shown {
        report: Report::new(),
        pages: 0,
        labelled: 0,
        typed_product: 0,
    };
    let mut per_site: BTreeMap<String, usize> = BTreeMap::new();
    for (id, path, url) in pages(dir)? {
        let h = host(url.as_deref(), &id);
        if per_site.get(&h).is_some_and(|n| *n >= PER_SITE) {
            continue;
        }
        out.pages += 1;
        let Ok(bytes) = trawl_extract::read_input(&path.to_string_lossy(), 64 << 20) else {
            continue;
        };
        let opts = Options::default().with_url_opt(url.clone());
        let Ok(page) = Page::parse(&bytes, &opts) else {
            continue;
        };
        let Some(truth) = trawl_extract::stated_product(page.doc()) else {
            continue;
        };
        *per_site.entry(h.clone()).or_default() += 1;
        out.labelled += 1;
        let ex = page.extract(&opts);
        out.typed_product += usize::from(ex.page_type == PageType::Product);
        let got = trawl_extract::read_product(
            page.doc(),
            true,
            ex.title.as_deref(),
            url.as_deref(),
            ProductSources::Shown,
        );
        let fold = fold_of(&h);
        let mut fields = BTreeMap::new();
        for field in FIELDS {
            let want = value(&truth, field);
            let g = got.as_ref().and_then(|p| value(p, field));
            let Some(want) = want else {
                fields.insert(field, (g, None));
                continue;
            };
            let ok = out.report.tally(fold, field, g.as_deref(), &[want]);
            fields.insert(field, (g, Some(ok)));
        }
        out.report.pages.push(crate::eval::products::PageOutcome {
            id,
            host: h,
            record: got.is_some(),
            fields,
        });
    }
    Ok(out)
}

/// The report as a table.
pub fn format(s: &Shown, name: &str, worst: usize) -> String {
    format!(
        "{name}: {} pages read (at most {PER_SITE} per site), {} labelled by their markup \
         (a stated price the page shows), {} of them typed product; record read with the \
         markup ignored\n{}",
        s.pages,
        s.labelled,
        s.typed_product,
        crate::eval::products::format_fields(&s.report, "labelled", worst, &FIELDS)
    )
}
