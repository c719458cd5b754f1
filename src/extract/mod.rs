//! The extractor stage: page bytes in, an [`Extracted`] record out.
//!
//! Every algorithm implements [`Extractor`]: it reads a parsed [`Doc`] and
//! returns a [`Selection`] of the nodes that form the main content; rendering
//! to text, metadata and page type are shared. Algorithms are selectable by
//! name ([`Algorithm`]) so their numbers can be compared on the same corpus.

pub mod article_std;
pub mod auto;
pub mod cc;
pub mod cetd_tpc;
pub mod chrome;
pub mod classify;
pub mod list_rank;
pub mod metadata;
pub mod noise;
pub mod page_model;
pub mod product;
pub mod repeats;
pub mod segment;

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::ExtractError;
use crate::html::{charset, render, Doc, Limits, Selection};
pub use classify::PageType;

/// A main-content extraction algorithm.
pub trait Extractor: Send + Sync {
    /// The name used on the command line and in records.
    fn name(&self) -> &'static str;
    /// The nodes that make up the page's main content.
    fn select(&self, doc: &Doc) -> Selection;
}

/// The selectable algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Auto,
    CetdTpc,
    Cc,
    ArticleStd,
    ListRank,
    Segment,
}

impl Algorithm {
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Auto,
        Algorithm::CetdTpc,
        Algorithm::Cc,
        Algorithm::ArticleStd,
        Algorithm::ListRank,
        Algorithm::Segment,
    ];

    pub fn extractor(self) -> &'static dyn Extractor {
        match self {
            Algorithm::Auto => &auto::Auto,
            Algorithm::CetdTpc => &cetd_tpc::CetdTpc,
            Algorithm::Cc => &cc::ContentCorrelativity,
            Algorithm::ArticleStd => &article_std::ArticleStd,
            Algorithm::ListRank => &list_rank::ListRank,
            Algorithm::Segment => &segment::Segment,
        }
    }

    pub fn name(self) -> &'static str {
        self.extractor().name()
    }

    /// Looks an algorithm up by name.
    pub fn parse(name: &str) -> Result<Algorithm, ExtractError> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                ExtractError::UnknownAlgorithm(name.to_string(), known.join(", "))
            })
    }
}

/// How to extract one page.
#[derive(Clone, Debug)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Charset the caller trusts (HTTP header, `--charset`), before `<meta>`.
    pub charset: Option<&'static encoding_rs::Encoding>,
    /// Largest page accepted, in bytes.
    pub max_bytes: usize,
    /// Parse limits; `time_limit` sets the deadline per page.
    pub max_depth: usize,
    pub max_nodes: usize,
    pub time_limit: Option<Duration>,
    /// Page type to assume instead of classifying (e.g. from a seed's mode).
    pub page_type: Option<PageType>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::Auto,
            charset: None,
            max_bytes: 16 * 1024 * 1024,
            max_depth: 512,
            max_nodes: 2_000_000,
            time_limit: Some(Duration::from_secs(10)),
            page_type: None,
        }
    }
}

/// One extracted page.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Extracted {
    pub url: Option<String>,
    pub title: Option<String>,
    pub author: Option<String>,
    pub date: Option<String>,
    pub language: Option<String>,
    pub page_type: PageType,
    pub algorithm: &'static str,
    pub text: String,
    pub description: Option<String>,
    pub site_name: Option<String>,
    pub canonical: Option<String>,
    pub encoding: &'static str,
}

/// Decodes, parses and extracts one page. `url` is where the page came from
/// (used for page typing and the charset hint), if known.
pub fn extract_bytes(
    bytes: &[u8],
    url: Option<&str>,
    opts: &Options,
) -> Result<Extracted, ExtractError> {
    if bytes.len() > opts.max_bytes {
        return Err(ExtractError::TooLarge(format!(
            "{} bytes, limit {}",
            bytes.len(),
            opts.max_bytes
        )));
    }
    let tld = url.and_then(tld_of);
    let (doc, encoding) = parse_bytes(bytes, opts.charset, tld.as_deref(), opts)?;
    let mut out = extract_doc(&doc, url, opts.algorithm, opts.page_type);
    out.encoding = encoding.name();
    Ok(out)
}

/// Decodes page bytes (`declared` charset and `tld` hint as in
/// [`charset::decode`]) and parses them within the limits of `opts`.
pub fn parse_bytes(
    bytes: &[u8],
    declared: Option<&'static encoding_rs::Encoding>,
    tld: Option<&str>,
    opts: &Options,
) -> Result<(Doc, &'static encoding_rs::Encoding), ExtractError> {
    let decoded = charset::decode(bytes, declared, tld)?;
    let limits = Limits {
        max_depth: opts.max_depth,
        max_nodes: opts.max_nodes,
        deadline: opts.time_limit.map(|t| Instant::now() + t),
    };
    Ok((Doc::parse(&decoded.text, &limits)?, decoded.encoding))
}

/// Extracts from an already parsed page; `page_type` skips classification.
pub fn extract_doc(
    doc: &Doc,
    url: Option<&str>,
    algorithm: Algorithm,
    page_type: Option<PageType>,
) -> Extracted {
    let meta = metadata::collect(doc);
    let page_type = page_type.unwrap_or_else(|| classify::classify(doc, url, &meta));
    let sel = match algorithm {
        Algorithm::Auto => auto::select_typed(doc, page_type, meta.title.as_deref()),
        other => other.extractor().select(doc),
    };
    let mut text = render(doc, &sel);
    if algorithm == Algorithm::Auto && page_type != PageType::Documentation {
        repeats::drop_repeated_lines(&mut text);
    }
    if algorithm == Algorithm::Auto {
        chrome::drop_label_lines(&mut text);
    }
    if algorithm == Algorithm::Auto && page_type == PageType::Product {
        product::add_description(&mut text, meta.product_description.as_deref());
    }
    let language = metadata::language(&text, meta.html_lang.as_deref());
    Extracted {
        url: url.map(str::to_string),
        title: meta.title,
        author: meta.author,
        date: meta.date,
        language,
        page_type,
        algorithm: algorithm.name(),
        text,
        description: meta.description,
        site_name: meta.site_name,
        canonical: meta.canonical,
        encoding: "UTF-8",
    }
}

fn tld_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#', ':']).next()?;
    let tld = host.rsplit('.').next()?.to_ascii_lowercase();
    (tld.len() == 2).then_some(tld)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::parse(a.name()).ok(), Some(a));
        }
        assert!(matches!(
            Algorithm::parse("nope"),
            Err(ExtractError::UnknownAlgorithm(_, _))
        ));
    }

    #[test]
    fn tld_hint() {
        assert_eq!(tld_of("https://www.example.ru/a"), Some("ru".into()));
        assert_eq!(tld_of("https://example.com/a"), None);
    }

    #[test]
    fn too_large_is_an_error() {
        let opts = Options {
            max_bytes: 10,
            ..Options::default()
        };
        assert!(matches!(
            extract_bytes(b"<p>hello world</p>", None, &opts),
            Err(ExtractError::TooLarge(_))
        ));
    }
}
