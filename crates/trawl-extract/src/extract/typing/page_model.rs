//! The learned page-type model: a softmax regression over ~60 features read
//! from the DOM, the URL and the metadata (paper 002 classifies screenshots
//! with a CNN; we have no browser). Weights ship in `models/page_type.json`
//! and are trained by `trawl eval --train-types` with cross-validation, so
//! the reported accuracy is on pages the model did not see.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::extract::metadata::Meta;
use crate::extract::typing::page_type::{shape, url_tokens, url_words, PageType};
use crate::html::{Doc, Kind, Tag};

/// Feature names, in vector order.
pub(crate) const FEATURES: &[&str] = &[
    "bias",
    "ld_product",
    "ld_article",
    "ld_forum",
    "ld_collection",
    "ld_service",
    "ld_docs",
    "ld_any",
    "og_product",
    "og_article",
    "url_forum",
    "url_docs",
    "url_product",
    "url_collection",
    "url_listing",
    "url_article",
    "url_service",
    "url_depth",
    "url_query",
    "url_root",
    "url_digits",
    "url_html",
    "log_chars",
    "link_density",
    "p_share",
    "log_paragraphs",
    "log_code",
    "log_prices",
    "log_headings",
    "log_li",
    "log_tables",
    "log_forms",
    "log_inputs",
    "log_buttons",
    "log_images",
    "log_time",
    "log_article_tags",
    "log_nav",
    "top_key_repeat",
    "top_key_share",
    "top_key_avg_chars",
    "cls_price",
    "cls_cart",
    "cls_product",
    "cls_post",
    "cls_reply",
    "cls_user",
    "cls_thread",
    "cls_comment",
    "cls_card",
    "cls_grid",
    "cls_docs",
    "cls_sidebar",
    "cls_toc",
    "cls_hero",
    "cls_pricing",
    "cls_faq",
    "cls_breadcrumb",
    "cls_pagination",
    "cls_filter",
    "cls_rating",
    "txt_add_to_cart",
    "txt_reply",
    "txt_posted",
    "txt_contact",
    "txt_free_trial",
];

/// Whether `word` occurs in `hay` (both already lower-case).
#[cfg(test)]
fn has_word(hay: &[u8], word: &[u8]) -> bool {
    let Some((&first, rest)) = word.split_first() else {
        return true;
    };
    // Compared byte by byte: the words are short, and a slice comparison
    // is a call to memcmp per candidate position.
    hay.len() >= word.len()
        && (0..=hay.len() - word.len()).any(|k| {
            hay[k] == first
                && hay[k + 1..k + word.len()]
                    .iter()
                    .zip(rest)
                    .all(|(a, b)| a == b)
        })
}

/// For each byte, the set (bit `j` for word `j`) of words that start with
/// it, and the set of words whose second byte it is (a one-byte word is in
/// every set of the second): a position is checked only against the words
/// that both its bytes could start.
fn first_bytes<'a>(words: impl Iterator<Item = &'a [u8]>) -> [[u32; 256]; 2] {
    let mut table = [[0u32; 256]; 2];
    for (j, w) in words.enumerate() {
        if let Some(&b) = w.first() {
            table[0][usize::from(b)] |= 1 << j;
        }
        match w.get(1) {
            Some(&b) => table[1][usize::from(b)] |= 1 << j,
            None => table[1].iter_mut().for_each(|set| *set |= 1 << j),
        }
    }
    table
}

/// The set of `words` (at most 32, indexed like `starts`) found in `hay`, in
/// one pass over it: `has_word` for each, without a scan per word.
fn words_in(hay: &[u8], starts: &[[u32; 256]; 2], words: &[(&str, &str)]) -> u32 {
    let mut found = 0u32;
    for k in 0..hay.len() {
        let mut cand = starts[0][usize::from(hay[k])] & !found;
        if cand == 0 {
            continue;
        }
        // At the last byte only a one-byte word can start.
        let second = hay.get(k + 1).map_or(u8::MAX, |&b| b);
        cand &= starts[1][usize::from(second)];
        while cand != 0 {
            let j = cand.trailing_zeros();
            cand &= cand - 1;
            if hay[k..].starts_with(words[j as usize].1.as_bytes()) {
                found |= 1 << j;
            }
        }
    }
    found
}

fn ln1(x: f64) -> f64 {
    (1.0 + x).ln()
}

/// The feature vector of a page.
pub(crate) fn features(doc: &Doc, url: Option<&str>, meta: &Meta) -> Vec<f64> {
    let mut f: HashMap<&str, f64> = HashMap::new();
    let mut set = |k: &'static str, v: f64| {
        f.insert(k, v);
    };
    set("bias", 1.0);
    meta_features(meta, &mut set);
    url_features(url, &mut set);
    shape_features(doc, &mut set);
    class_features(doc, &mut set);
    text_features(doc, &mut set);
    FEATURES
        .iter()
        .map(|k| f.get(k).copied().unwrap_or(0.0))
        .collect()
}

/// Sets a feature's value.
type Set<'a> = dyn FnMut(&'static str, f64) + 'a;

/// Structured data's types and Open Graph's.
fn meta_features(meta: &Meta, set: &mut Set<'_>) {
    let ld = |names: &[&str]| meta.ld_types.iter().any(|t| names.contains(&t.as_str()));
    set(
        "ld_product",
        f64::from(u8::from(ld(&[
            "product",
            "productgroup",
            "offer",
            "aggregateoffer",
        ]))),
    );
    set(
        "ld_article",
        f64::from(u8::from(ld(&[
            "article",
            "newsarticle",
            "blogposting",
            "report",
            "liveblogposting",
        ]))),
    );
    set(
        "ld_forum",
        f64::from(u8::from(ld(&[
            "discussionforumposting",
            "qapage",
            "question",
            "answer",
            "comment",
        ]))),
    );
    set(
        "ld_collection",
        f64::from(u8::from(ld(&[
            "collectionpage",
            "itemlist",
            "offercatalog",
            "searchresultspage",
        ]))),
    );
    set(
        "ld_service",
        f64::from(u8::from(ld(&[
            "service",
            "faqpage",
            "localbusiness",
            "professionalservice",
            "organization",
        ]))),
    );
    set(
        "ld_docs",
        f64::from(u8::from(ld(&[
            "techarticle",
            "apireference",
            "softwaresourcecode",
            "howto",
        ]))),
    );
    set("ld_any", f64::from(u8::from(!meta.ld_types.is_empty())));
    let og = meta.og_type.as_deref().unwrap_or("");
    set("og_product", f64::from(u8::from(og.contains("product"))));
    set("og_article", f64::from(u8::from(og == "article")));
}

/// The URL's words, depth and shape.
fn url_features(url: Option<&str>, set: &mut Set<'_>) {
    let tokens = url.map(url_tokens).unwrap_or_default();
    let has =
        |words: &[&str]| f64::from(u8::from(tokens.iter().any(|t| words.contains(&t.as_str()))));
    set("url_forum", has(url_words(PageType::Forum)));
    set("url_docs", has(url_words(PageType::Documentation)));
    set("url_product", has(url_words(PageType::Product)));
    set("url_collection", has(url_words(PageType::Collection)));
    set("url_listing", has(url_words(PageType::Listing)));
    set("url_article", has(url_words(PageType::Article)));
    set("url_service", has(url_words(PageType::Service)));
    set("url_depth", ln1(tokens.len() as f64));
    set(
        "url_query",
        f64::from(u8::from(url.is_some_and(|u| u.contains('?')))),
    );
    set("url_root", f64::from(u8::from(tokens.is_empty())));
    set(
        "url_digits",
        f64::from(u8::from(
            tokens
                .iter()
                .any(|t| t.len() >= 5 && t.bytes().all(|b| b.is_ascii_digit())),
        )),
    );
    set(
        "url_html",
        f64::from(u8::from(
            tokens
                .last()
                .is_some_and(|t| t == "html" || t == "htm" || t == "php"),
        )),
    );
}

/// Text shape, tag counts and the repeated records of a list.
fn shape_features(doc: &Doc, set: &mut Set<'_>) {
    let s = shape(doc);
    let chars = f64::from(s.chars.max(1));
    set("log_chars", ln1(chars));
    set("link_density", f64::from(s.link_chars) / chars);
    set("p_share", f64::from(s.p_chars) / chars);
    set("log_paragraphs", ln1(f64::from(s.paragraphs)));
    set("log_code", ln1(f64::from(s.code_blocks)));
    set("log_prices", ln1(f64::from(s.prices)));
    // Tag counts in one pass over the nodes.
    let [mut headings, mut li, mut tables, mut forms, mut inputs] = [0.0; 5];
    let [mut buttons, mut images, mut times, mut articles, mut navs] = [0.0; 5];
    for n in &doc.nodes {
        let c = match n.tag {
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 => &mut headings,
            Tag::Li => &mut li,
            Tag::Table => &mut tables,
            Tag::Form => &mut forms,
            Tag::Input | Tag::Select | Tag::Textarea => &mut inputs,
            Tag::Button => &mut buttons,
            Tag::Img => &mut images,
            Tag::Time => &mut times,
            Tag::Article => &mut articles,
            Tag::Nav => &mut navs,
            _ => continue,
        };
        *c += 1.0;
    }
    set("log_headings", ln1(headings));
    set("log_li", ln1(li));
    set("log_tables", ln1(tables));
    set("log_forms", ln1(forms));
    set("log_inputs", ln1(inputs));
    set("log_buttons", ln1(buttons));
    set("log_images", ln1(images));
    set("log_time", ln1(times));
    set("log_article_tags", ln1(articles));
    set("log_nav", ln1(navs));

    let none = vec![false; doc.len()];
    let records = crate::extract::list_records::records(doc, &none);
    let rec_chars: f64 = records
        .iter()
        .map(|&r| f64::from(doc.agg[r as usize].chars))
        .sum();
    set("top_key_repeat", ln1(records.len() as f64));
    set("top_key_share", rec_chars / chars);
    set(
        "top_key_avg_chars",
        ln1(rec_chars / (records.len().max(1) as f64)),
    );
}

/// Words in elements' classes, ids and roles.
fn class_features(doc: &Doc, set: &mut Set<'_>) {
    const CLASS_WORDS: &[(&str, &str)] = &[
        ("cls_price", "price"),
        ("cls_cart", "cart"),
        ("cls_product", "product"),
        ("cls_post", "post"),
        ("cls_reply", "reply"),
        ("cls_user", "user"),
        ("cls_thread", "thread"),
        ("cls_comment", "comment"),
        ("cls_card", "card"),
        ("cls_grid", "grid"),
        ("cls_docs", "doc"),
        ("cls_sidebar", "sidebar"),
        ("cls_toc", "toc"),
        ("cls_hero", "hero"),
        ("cls_pricing", "pricing"),
        ("cls_faq", "faq"),
        ("cls_breadcrumb", "breadcrumb"),
        ("cls_pagination", "pagination"),
        ("cls_filter", "filter"),
        ("cls_rating", "rating"),
    ];
    // This runs for every element of every page: the names come lowered
    // from the document's one buffer of them, scanned once for all the
    // words, each position checked only against the words starting with
    // its byte (`str::contains` per word built a searcher per call).
    let starts = first_bytes(CLASS_WORDS.iter().map(|(_, w)| w.as_bytes()));
    let mut cls = [0u32; CLASS_WORDS.len()];
    for (i, n) in doc.nodes.iter().enumerate() {
        if n.kind != Kind::Element {
            continue;
        }
        // Parts are space separated, and no word holds a space: no match
        // spans two of them.
        let names = doc.class_id_role(i as u32);
        if names.is_empty() {
            continue;
        }
        let found = words_in(names.as_bytes(), &starts, CLASS_WORDS);
        for (j, n) in cls.iter_mut().enumerate() {
            *n += found >> j & 1;
        }
    }
    for ((feat, _), n) in CLASS_WORDS.iter().zip(cls) {
        set(feat, ln1(f64::from(n)));
    }
}

/// Short texts that name a page's kind ("add to cart", "reply", ...).
fn text_features(doc: &Doc, set: &mut Set<'_>) {
    const TEXT_WORDS: &[(&str, &str)] = &[
        ("txt_add_to_cart", "add to cart"),
        ("txt_reply", "reply"),
        ("txt_posted", "posted"),
        ("txt_contact", "contact us"),
        ("txt_free_trial", "free trial"),
    ];
    let starts = first_bytes(TEXT_WORDS.iter().map(|(_, w)| w.as_bytes()));
    let mut txt = [0u32; TEXT_WORDS.len()];
    let mut lower: Vec<u8> = Vec::new();
    for i in 0..doc.len() as u32 {
        if doc.is_element(i) || doc.nodes[i as usize].chars > 40 {
            continue;
        }
        lower.clear();
        lower.extend(doc.text(i).bytes().map(|b| b.to_ascii_lowercase()));
        let found = words_in(&lower, &starts, TEXT_WORDS);
        for (j, n) in txt.iter_mut().enumerate() {
            *n += found >> j & 1;
        }
    }
    for ((feat, _), n) in TEXT_WORDS.iter().zip(txt) {
        set(feat, ln1(f64::from(n)));
    }
}

/// A softmax regression over standardised features.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Model {
    pub features: Vec<String>,
    pub classes: Vec<String>,
    pub mean: Vec<f64>,
    pub std: Vec<f64>,
    /// One weight row per class.
    pub weights: Vec<Vec<f64>>,
}

impl Model {
    /// Class probabilities for a feature vector.
    pub(crate) fn predict(&self, x: &[f64]) -> Vec<f64> {
        let z: Vec<f64> = self
            .weights
            .iter()
            .map(|w| {
                w.iter()
                    .zip(x.iter().zip(self.mean.iter().zip(&self.std)))
                    .map(|(w, (x, (m, s)))| w * if *s > 0.0 { (x - m) / s } else { *x })
                    .sum()
            })
            .collect();
        softmax(&z)
    }

    /// The most likely page type, except that a list-like type (listing,
    /// collection) must reach `list_confidence`: extracting an article as a
    /// list keeps its link blocks, a costlier mistake than the reverse.
    pub(crate) fn classify_cautious(&self, x: &[f64], list_confidence: f64) -> PageType {
        let p = self.predict(x);
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
        let types: Vec<PageType> = order
            .iter()
            .map(|&i| {
                self.classes
                    .get(i)
                    .and_then(|c| PageType::parse(c))
                    .unwrap_or_default()
            })
            .collect();
        let list_like = |t: PageType| matches!(t, PageType::Listing | PageType::Collection);
        match (types.first(), order.first()) {
            (Some(&t), Some(&i)) if list_like(t) && p[i] < list_confidence => types
                .iter()
                .copied()
                .find(|&t| !list_like(t))
                .unwrap_or_default(),
            (Some(&t), _) => t,
            _ => PageType::default(),
        }
    }

    /// Trains on (features, class index) pairs: full-batch gradient descent
    /// with L2 regularisation.
    #[cfg(any(test, feature = "training"))]
    pub(crate) fn train(
        xs: &[Vec<f64>],
        ys: &[usize],
        classes: &[&str],
        l2: f64,
        epochs: usize,
    ) -> Model {
        let d = FEATURES.len();
        let k = classes.len();
        let n = xs.len().max(1) as f64;
        let mut mean = vec![0.0; d];
        let mut std = vec![0.0; d];
        for x in xs {
            for j in 0..d {
                mean[j] += x[j] / n;
            }
        }
        for x in xs {
            for j in 0..d {
                std[j] += (x[j] - mean[j]).powi(2) / n;
            }
        }
        for s in &mut std {
            *s = s.sqrt();
        }
        // The bias stays a constant 1.
        mean[0] = 0.0;
        std[0] = 0.0;
        let z: Vec<Vec<f64>> = xs
            .iter()
            .map(|x| {
                (0..d)
                    .map(|j| {
                        if std[j] > 0.0 {
                            (x[j] - mean[j]) / std[j]
                        } else {
                            x[j]
                        }
                    })
                    .collect()
            })
            .collect();
        let mut w = vec![vec![0.0; d]; k];
        let rate = 0.5;
        for _ in 0..epochs {
            let mut grad = vec![vec![0.0; d]; k];
            for (x, &y) in z.iter().zip(ys) {
                let logits: Vec<f64> = w
                    .iter()
                    .map(|wc| wc.iter().zip(x).map(|(a, b)| a * b).sum())
                    .collect();
                let p = softmax(&logits);
                for c in 0..k {
                    let err = p[c] - if c == y { 1.0 } else { 0.0 };
                    for j in 0..d {
                        grad[c][j] += err * x[j] / n;
                    }
                }
            }
            for c in 0..k {
                for j in 0..d {
                    let reg = if j == 0 { 0.0 } else { l2 * w[c][j] };
                    w[c][j] -= rate * (grad[c][j] + reg);
                }
            }
        }
        Model {
            features: FEATURES.iter().map(|s| s.to_string()).collect(),
            classes: classes.iter().map(|s| s.to_string()).collect(),
            mean,
            std,
            weights: w,
        }
    }
}

fn softmax(z: &[f64]) -> Vec<f64> {
    let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - m).exp()).collect();
    let s: f64 = e.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    e.iter().map(|v| v / s).collect()
}

/// The shipped model (`models/page_type.json`, compiled in), if it matches
/// this build's features.
pub(crate) fn shipped() -> Option<&'static Model> {
    static MODEL: OnceLock<Option<Model>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let m: Model =
                serde_json::from_str(include_str!("../../../models/page_type.json")).ok()?;
            let same = m.features.len() == FEATURES.len()
                && m.features.iter().zip(FEATURES).all(|(a, b)| a == b);
            same.then_some(m)
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_word_search_finds_what_a_search_per_word_finds() {
        const WORDS: &[(&str, &str)] = &[
            ("a", "post"),
            ("b", "toc"),
            ("c", "to"),
            ("d", "product"),
            ("e", "q"),
        ];
        let starts = first_bytes(WORDS.iter().map(|(_, w)| w.as_bytes()));
        for hay in [
            "",
            "xpostx",
            "\0product-grid\0tocbot",
            "ppostt",
            "t",
            "to",
            "product",
            "q",
            "aq",
            "qa",
            "pos",
        ] {
            let want = WORDS
                .iter()
                .enumerate()
                .filter(|(_, (_, w))| has_word(hay.as_bytes(), w.as_bytes()))
                .fold(0u32, |m, (j, _)| m | 1 << j);
            assert_eq!(words_in(hay.as_bytes(), &starts, WORDS), want, "{hay}");
        }
    }

    #[test]
    fn learns_a_separable_toy_problem() {
        let d = FEATURES.len();
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..40 {
            let mut x = vec![0.0; d];
            x[0] = 1.0;
            x[1 + (i % 2)] = 1.0 + (i as f64) * 0.01;
            xs.push(x);
            ys.push(i % 2);
        }
        let m = Model::train(&xs, &ys, &["product", "article"], 1e-3, 300);
        assert_eq!(m.classify_cautious(&xs[0], 0.0), PageType::Product);
        assert_eq!(m.classify_cautious(&xs[1], 0.0), PageType::Article);
    }

    #[test]
    fn shipped_model_matches_the_features() {
        let m = shipped().expect("models/page_type.json parses and lists this build's features");
        assert_eq!(m.classes.len(), 7);
    }
}
