//! E-commerce mode in the daemon: product pages, per-site templates, drift.
//!
//! For seeds with `mode=ecommerce`, every page is checked for being a
//! product page (JSON-LD/microdata/OpenGraph product types, the page-type
//! model, product-like URL paths). Listing pages are crawled as usual and
//! feed the frontier. Product pages of a site are grouped into template
//! clusters by how well they match each cluster's template; a cluster
//! without a template collects `crawl.template_samples` pages (default
//! [`SAMPLES`]) and `crawl.template_checks` more (default [`CHECKS`]), and
//! learns one (paper 003, [`trawl_extract::template`]) that checks itself on
//! the extra pages: their structured data and labelled rows are weak labels,
//! learning takes more samples while a field is missing or wrong (up to
//! [`MORE`] more pages), and a template that reads the pages worse than the
//! single-page product record is stored (it still groups the site's pages)
//! but not used: those pages keep only their product record. A used template
//! is stored in sled by site and cluster and applied to every later product
//! page of the cluster.
//!
//! Drift: each application is checked (a name was found; a price, if the
//! template has one, contains a number). When fewer than 90% of a cluster's
//! last 20 pages pass, it learns again from fresh pages and its version goes
//! up. When a new cluster is learned while an older one matched none of the
//! site's last [`REPLACED_AFTER`] product pages, the site's layout changed:
//! the new template takes the old cluster's place with the next version.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;

use super::stats::Stats;
pub(crate) mod store;

use crate::store::Store;
use store::Templates;
use trawl_extract::{Applied, Options, Page, Template};

/// Default sample pages a template is learned from (paper 003: 4 works best).
pub(crate) const SAMPLES: usize = 4;
/// Default pages a new template checks itself on.
pub(crate) const CHECKS: usize = 4;
/// Pages collected beyond samples and checks while a field stays weak.
pub(crate) const MORE: usize = 8;
/// A page belongs to a cluster when it has this share of its signature.
pub(crate) const MATCH: f32 = 0.5;
/// Share of leaf keys two pages must share to be samples of one layout.
const ALIKE: f32 = 0.6;
/// Applications remembered per cluster, and the share that must pass.
const WINDOW: usize = 20;
const PASS: f32 = 0.9;
/// An old cluster that matched none of this many recent product pages of
/// its site is replaced by a newly learned one.
pub(crate) const REPLACED_AFTER: usize = 8;

#[derive(Debug)]
struct Cluster {
    id: u32,
    template: Option<Template>,
    /// Raw pages collected for (re)learning.
    samples: Vec<Vec<u8>>,
    /// Leaf keys of the first sample: later samples must look alike.
    shape: std::collections::HashSet<String>,
    /// Recent applications: passed or not.
    window: VecDeque<bool>,
    relearning: bool,
    /// The site's product page count when its template was learned.
    learned_at: u64,
}

#[derive(Debug, Default)]
struct Site {
    clusters: Vec<Cluster>,
    /// Product pages of the site seen in this run.
    seen: u64,
    /// Cluster each recent product page matched (None: none).
    recent: VecDeque<Option<u32>>,
    loaded: bool,
}

/// What happened to a product page.
#[derive(Debug)]
pub(crate) enum Product {
    /// Fields read with this template.
    Extracted {
        /// The fields read.
        applied: Applied,
        /// The template's name (`site#cluster`).
        template: String,
        /// The template's version.
        version: u32,
    },
    /// Kept as a sample; no template yet.
    Learning,
    /// The cluster's template read its check pages worse than the
    /// single-page product record: the page keeps only that record.
    Unused,
}

/// The daemon's template book.
pub(crate) struct TemplateMode {
    sites: Mutex<HashMap<String, Site>>,
    /// Sample pages per template.
    samples: usize,
    /// Pages a new template checks itself on.
    checks: usize,
}

impl Default for TemplateMode {
    fn default() -> Self {
        TemplateMode::new(SAMPLES, CHECKS)
    }
}

fn passes(t: &Template, a: &Applied) -> bool {
    let has = |f: &str| {
        a.values
            .get(f)
            .is_some_and(|v| v.iter().any(|x| !x.is_empty()))
    };
    let wants_price = t.fields.iter().any(|f| f.field == "price");
    let price_ok = !wants_price
        || a.values
            .get("price")
            .is_some_and(|v| v.iter().any(|x| x.chars().any(|c| c.is_ascii_digit())));
    has("name") && price_ok && a.matched >= MATCH
}

fn parse(html: &[u8]) -> Option<Page> {
    Page::parse(html, &Options::default()).ok()
}

impl TemplateMode {
    /// A template book learning from `samples` pages (at least 2), each
    /// new template checked on `checks` more (0: not checked).
    pub(crate) fn new(samples: usize, checks: usize) -> TemplateMode {
        TemplateMode {
            sites: Mutex::new(HashMap::new()),
            samples: samples.max(2),
            checks,
        }
    }

    /// Forgets what is known of `site` in memory: its next product page
    /// reads the site's templates from the store again (the cluster's
    /// database gave it newer ones). Samples being collected are lost.
    pub(crate) fn reload(&self, site: &str) {
        if let Ok(mut sites) = self.sites.lock() {
            sites.remove(site);
        }
    }

    /// Handles a product page of `site`: applies its cluster's template, or
    /// keeps it as a sample and learns when enough are in.
    pub(crate) fn product(
        &self,
        store: &Store,
        stats: &Stats,
        site: &str,
        html: &[u8],
        page: &Page,
    ) -> Product {
        let want = (self.samples, self.checks);
        let Ok(mut sites) = self.sites.lock() else {
            return Product::Learning;
        };
        let s = sites.entry(site.to_string()).or_default();
        if !s.loaded {
            s.loaded = true;
            for t in Templates::of(store).list(Some(site)).unwrap_or_default() {
                s.clusters.push(Cluster {
                    id: t.cluster,
                    template: Some(t),
                    samples: Vec::new(),
                    shape: Default::default(),
                    window: VecDeque::new(),
                    relearning: false,
                    learned_at: 0,
                });
            }
        }
        s.seen += 1;
        let seen = s.seen;
        // The templated cluster the page matches best.
        let best = s
            .clusters
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.template.as_ref().map(|t| (i, t.apply(page))))
            .max_by(|a, b| a.1.matched.total_cmp(&b.1.matched));
        let result = match best {
            Some((i, applied)) if applied.matched >= MATCH => {
                s.recent.push_back(Some(s.clusters[i].id));
                let c = &mut s.clusters[i];
                if c.relearning {
                    Self::sample(store, stats, site, c, html, want)
                } else if c.template.as_ref().is_some_and(|t| !t.is_used()) {
                    Product::Unused
                } else {
                    let t = c
                        .template
                        .as_ref()
                        .map(|t| (t.site.clone(), t.cluster, t.version, passes(t, &applied)));
                    let (tsite, cluster, version, ok) = t.unwrap_or_default();
                    c.window.push_back(ok);
                    if c.window.len() > WINDOW {
                        c.window.pop_front();
                    }
                    let rate =
                        c.window.iter().filter(|x| **x).count() as f32 / c.window.len() as f32;
                    if c.window.len() >= WINDOW && rate < PASS {
                        tracing::warn!(
                            site,
                            cluster,
                            version,
                            pass_rate = rate,
                            "template drift: learning again"
                        );
                        stats.drift(format!(
                            "{site}#{cluster} v{version}: {:.0}% of the last {WINDOW} pages passed",
                            100.0 * rate
                        ));
                        c.relearning = true;
                        c.samples.clear();
                        c.window.clear();
                    }
                    Product::Extracted {
                        applied,
                        template: format!("{tsite}#{cluster}"),
                        version,
                    }
                }
            }
            _ => {
                s.recent.push_back(None);
                // A learning cluster whose samples look like it takes it,
                // else a new cluster.
                let keys: std::collections::HashSet<String> =
                    page.leaf_keys().map(str::to_string).collect();
                let alike = |c: &Cluster| {
                    let (lo, hi) = (
                        c.shape.intersection(&keys).count(),
                        c.shape.union(&keys).count(),
                    );
                    c.shape.is_empty() || lo as f32 >= ALIKE * hi as f32
                };
                let i = match s
                    .clusters
                    .iter()
                    .position(|c| (c.template.is_none() || c.relearning) && alike(c))
                {
                    Some(i) => i,
                    None => {
                        let id = s.clusters.iter().map(|c| c.id + 1).max().unwrap_or(0);
                        s.clusters.push(Cluster {
                            id,
                            template: None,
                            samples: Vec::new(),
                            shape: Default::default(),
                            window: VecDeque::new(),
                            relearning: false,
                            learned_at: 0,
                        });
                        s.clusters.len() - 1
                    }
                };
                if s.clusters[i].shape.is_empty() {
                    s.clusters[i].shape = keys;
                }
                let out = Self::sample(store, stats, site, &mut s.clusters[i], html, want);
                if matches!(out, Product::Extracted { .. }) {
                    // The page that completed the template is its first match.
                    s.clusters[i].learned_at = seen;
                    if let Some(last) = s.recent.back_mut() {
                        *last = Some(s.clusters[i].id);
                    }
                    Self::replace_stale(store, stats, s, i);
                }
                out
            }
        };
        if s.recent.len() > WINDOW {
            s.recent.pop_front();
        }
        result
    }

    /// Adds a sample; learns (or relearns) when there are enough: `want`
    /// is (samples, check pages).
    fn sample(
        store: &Store,
        stats: &Stats,
        site: &str,
        c: &mut Cluster,
        html: &[u8],
        (samples, checks): (usize, usize),
    ) -> Product {
        c.samples.push(html.to_vec());
        let pool = samples + checks;
        // Past the pool, learning is tried again every 2 pages.
        if c.samples.len() < pool || (c.samples.len() - pool) % 2 == 1 {
            return Product::Learning;
        }
        let pages: Vec<Page> = c.samples.iter().filter_map(|h| parse(h)).collect();
        let learned = if checks == 0 {
            Template::learn(site, &pages)
        } else {
            Template::learn_checked(site, &pages, samples)
        };
        let weak = learned
            .as_ref()
            .ok()
            .and_then(|t| t.check.as_ref())
            .is_some_and(|k| !k.passed());
        if weak && c.samples.len() < pool + MORE {
            return Product::Learning;
        }
        c.samples.clear();
        c.shape.clear();
        let Ok(mut t) = learned else {
            return Product::Learning;
        };
        t.cluster = c.id;
        let version = match Templates::of(store).put(&t) {
            Ok(v) => v,
            Err(e) => {
                tracing::error!(site, error = %e, "template not stored");
                t.version
            }
        };
        t.version = version;
        stats.templates_learned.fetch_add(1, Relaxed);
        let (used, checked) = (t.is_used(), t.check.as_ref());
        tracing::info!(
            site,
            cluster = c.id,
            version,
            fields = t.fields.len(),
            samples = t.samples,
            used,
            template_score = checked.map(|k| k.template_score),
            record_score = checked.map(|k| k.record_score),
            weak = ?checked.map(|k| &k.weak),
            "template learned"
        );
        c.relearning = false;
        c.window.clear();
        let last = pages.last().map(|p| t.apply(p)).unwrap_or_default();
        let out = if used {
            Product::Extracted {
                applied: last,
                template: format!("{site}#{}", c.id),
                version,
            }
        } else {
            Product::Unused
        };
        c.template = Some(t);
        out
    }

    /// After cluster `new` learned its template: an older cluster that
    /// matched none of the site's recent product pages was replaced by it
    /// (the layout changed), so the new template takes its id and version.
    fn replace_stale(store: &Store, stats: &Stats, s: &mut Site, new: usize) {
        if s.recent.len() < REPLACED_AFTER {
            return;
        }
        let recent: Vec<Option<u32>> = s
            .recent
            .iter()
            .rev()
            .take(REPLACED_AFTER)
            .copied()
            .collect();
        let new_id = s.clusters[new].id;
        let seen = s.seen;
        // Stale: had the last REPLACED_AFTER pages to match, and matched none.
        let Some(old) = s.clusters.iter().position(|c| {
            c.id != new_id
                && c.template.is_some()
                && seen.saturating_sub(c.learned_at) > REPLACED_AFTER as u64
                && !recent.contains(&Some(c.id))
        }) else {
            return;
        };
        let old_id = s.clusters[old].id;
        let Some(mut t) = s.clusters[new].template.take() else {
            return;
        };
        let site = t.site.clone();
        // Forget the new cluster's own entry, store the template as the old one's next version.
        if let Err(e) = Templates::of(store).forget(&site, new_id) {
            tracing::error!(site, error = %e, "replaced template not forgotten");
        }
        t.cluster = old_id;
        t.version = 1;
        let version = Templates::of(store).put(&t).unwrap_or(t.version);
        t.version = version;
        tracing::warn!(
            site,
            cluster = old_id,
            version,
            "layout changed: template replaced"
        );
        stats.drift(format!("{site}#{old_id}: layout changed, now v{version}"));
        s.clusters[old].template = Some(t);
        s.clusters[old].window.clear();
        s.clusters.remove(new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(name: &str, price: &str) -> String {
        format!(
            "<html><head><title>{name} | Shop</title></head><body><div id=top><a href=/>Shop</a> <a href=/c>Catalogue</a></div>\
             <div class=product><h1>{name}</h1><p class=price>{price}</p><table><tr><th>Colour:</th><td>Red</td></tr>\
             <tr><th>Weight:</th><td>{} g</td></tr></table><p>Delivery in two days, free returns.</p></div>\
             <footer>Shop Ltd, all rights reserved</footer></body></html>",
            price.len() * 100
        )
    }

    #[test]
    fn failing_fields_trigger_a_relearn_with_a_new_version() {
        let dir = std::env::temp_dir().join(format!("trawl-shop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
        let store = Store::open(&dir, 1 << 20).expect("store");
        let stats = Stats::default();
        let mode = TemplateMode::default();
        let feed = |html: String| {
            let page = parse(html.as_bytes()).expect("parse");
            mode.product(&store, &stats, "shop.test", html.as_bytes(), &page)
        };
        for i in 0..SAMPLES + CHECKS {
            feed(page(&format!("Lamp {i}"), &format!("${i}9.00")));
        }
        assert!(matches!(
            feed(page("Lamp X", "$5.00")),
            Product::Extracted { version: 1, .. }
        ));
        // The price loses its digits ("call us"): fields fail, the layout stays.
        for _ in 0..WINDOW {
            feed(page("Lamp Y", "call us"));
        }
        assert_eq!(stats.drift_events.load(Relaxed), 1);
        for i in 0..SAMPLES + CHECKS {
            feed(page(&format!("Desk {i}"), &format!("${i}5.00")));
        }
        let v = Templates::of(&store)
            .list(Some("shop.test"))
            .expect("templates");
        assert_eq!(v.iter().map(|t| t.version).collect::<Vec<_>>(), [2]);
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    /// A shop whose JSON-LD says more than its pages show (SKU, brand): the
    /// learned template reads the check pages worse than the single-page
    /// record, so it is stored but its pages keep only their record.
    #[test]
    fn a_template_worse_than_the_record_is_stored_but_not_used() {
        let dir = std::env::temp_dir().join(format!("trawl-shop-unused-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
        let store = Store::open(&dir, 1 << 20).expect("store");
        let stats = Stats::default();
        let mode = TemplateMode::default();
        let feed = |i: usize| {
            let html = format!(
                "<html><head><title>Lamp {i} | Shop</title><script type=application/ld+json>\
                 {{\"@type\":\"Product\",\"name\":\"Lamp {i}\",\"sku\":\"L-{i}\",\"brand\":\"B{i}\",\
                 \"offers\":{{\"price\":\"{i}9.00\",\"priceCurrency\":\"USD\"}}}}</script></head>\
                 <body><div id=nav><a href=/>Home</a></div><div class=product><h1>Lamp {i}</h1>\
                 <p>A lamp for every room of the house.</p><p class=price>${i}9.00</p></div></body></html>"
            );
            let page = parse(html.as_bytes()).expect("parse");
            mode.product(&store, &stats, "lamps.test", html.as_bytes(), &page)
        };
        for i in 1..SAMPLES + CHECKS {
            assert!(matches!(feed(i), Product::Learning));
        }
        assert!(matches!(feed(SAMPLES + CHECKS), Product::Unused));
        assert!(matches!(feed(20), Product::Unused));
        let stored = Templates::of(&store)
            .list(Some("lamps.test"))
            .expect("list");
        assert_eq!(stored.len(), 1);
        assert!(!stored[0].is_used());
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }
}
