//! The extractor stage: page bytes in, an [`Extracted`] record out.
//!
//! Every algorithm implements [`Extractor`]: it reads a parsed [`Doc`] and
//! returns a [`Selection`](crate::html::Selection) of the nodes that form
//! the main content; rendering to text, metadata and page type are shared.
//! Algorithms are selectable by name ([`Algorithm`]) so their numbers can be
//! compared on the same corpus.

// By role: page typing, the papers' algorithms, trawl's own `auto` with its
// passes, and what they share (noise marking, metadata, text clean-up,
// product records).
pub(crate) mod algorithms;
pub(crate) mod auto;
mod body_names;
pub(crate) mod bylines;
mod char_class;
pub(crate) mod chrome;
mod credits;
pub(crate) mod dates;
pub(crate) mod embedded;
#[cfg(test)]
mod invariants;
pub(crate) mod json_ld;
mod list_records;
pub(crate) mod local_time;
pub(crate) mod metadata;
mod month_names;
pub(crate) mod noise;
pub(crate) mod outbound;
pub(crate) mod page_date;
pub(crate) mod product_record;
mod relative_dates;
pub(crate) mod repeats;
pub(crate) mod shell;
pub(crate) mod shop;
pub(crate) mod typing;
pub(crate) mod values;
pub(crate) mod written_dates;

use std::time::{Duration, Instant};

use serde::Serialize;

pub(crate) use crate::error::ExtractError;
pub use crate::html::charset::Charset;
use crate::html::markdown::{Markdown, MarkdownOptions};
use crate::html::{self, charset, render, Doc, Limits};
pub use algorithms::Extractor;
use algorithms::{article_std, cc, cetd_tpc, list_rank, segment};
use auto::product;
pub use page_date::DateKind;
use typing::classify;
pub use typing::classify::PageType;

/// The selectable algorithms (the papers' are in ../shared/papers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// trawl's own: page-type aware, built on the papers' measures.
    Auto,
    /// Text density times tag-path coverage (paper 000).
    CetdTpc,
    /// Content correlativity with smoothing (paper 001; forums).
    Cc,
    /// Standard-deviation descent for article pages (paper 002).
    ArticleStd,
    /// Same-depth, same-class ranking for list pages (paper 002).
    ListRank,
    /// Tag-path clustering and splitting (paper 004).
    Segment,
}

impl Algorithm {
    /// Every algorithm, `auto` first.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Auto,
        Algorithm::CetdTpc,
        Algorithm::Cc,
        Algorithm::ArticleStd,
        Algorithm::ListRank,
        Algorithm::Segment,
    ];

    /// The algorithm's implementation.
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

    /// Its name on the command line and in records (`auto`, `cetd-tpc`, …).
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

/// Reads an algorithm by name (as in a config file), with the same names
/// and error as [`Algorithm::parse`].
impl<'de> serde::Deserialize<'de> for Algorithm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Algorithm::parse(&name).map_err(serde::de::Error::custom)
    }
}

/// Writes an algorithm as its name.
impl serde::Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// How to extract one page. Every limit is a field: a page over one is an
/// error, never an unbounded allocation.
///
/// Built from [`Options::default`] and the `with_` methods (fields may be
/// added in a minor release, so the struct cannot be written out):
///
/// ```
/// use trawl_extract::{Algorithm, Options};
/// let opts = Options::default()
///     .with_algorithm(Algorithm::CetdTpc)
///     .with_url("https://example.org/a/story.html")
///     .with_max_bytes(4 << 20);
/// assert_eq!(opts.url.as_deref(), Some("https://example.org/a/story.html"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Main-content algorithm.
    pub algorithm: Algorithm,
    /// Where the page came from, if known: helps page typing and charset
    /// detection (its top-level domain), and is copied to the record.
    pub url: Option<String>,
    /// Charset the caller trusts (HTTP header, `--charset`), before `<meta>`.
    pub charset: Option<Charset>,
    /// Largest page accepted, in bytes.
    pub max_bytes: usize,
    /// Elements nested deeper are flattened into their ancestor.
    pub max_depth: usize,
    /// Most tokens (tags and text runs) parsed.
    pub max_nodes: usize,
    /// Wall-clock limit on parsing; `None` for none.
    pub time_limit: Option<Duration>,
    /// Page type to assume instead of classifying (e.g. from a seed's mode).
    pub page_type: Option<PageType>,
    /// When the page was fetched (seconds since the Unix epoch): relative
    /// dates it shows ("3 days ago", "gestern", "2小时前") are read against
    /// it; `None` (a saved page of unknown age) leaves them unread.
    pub fetched_at: Option<i64>,
    /// Write [`Extracted::markdown`] (on by default).
    pub markdown: bool,
    /// Images that belong to the content in the Markdown (on by default).
    pub images: bool,
    /// Write [`Extracted::html`]: the Markdown's content as clean HTML (off
    /// by default).
    pub html: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::Auto,
            url: None,
            charset: None,
            max_bytes: 16 * 1024 * 1024,
            max_depth: 512,
            max_nodes: 2_000_000,
            time_limit: Some(Duration::from_secs(10)),
            page_type: None,
            fetched_at: None,
            markdown: true,
            images: true,
            html: false,
        }
    }
}

impl Options {
    /// With this main-content algorithm.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// With the page's URL (helps page typing, charset detection and
    /// metadata; copied to the record).
    pub fn with_url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// With the page's URL, if known.
    pub fn with_url_opt(mut self, url: Option<String>) -> Self {
        self.url = url;
        self
    }

    /// With a charset the caller trusts (an HTTP header), before `<meta>`.
    pub fn with_charset(mut self, charset: Option<Charset>) -> Self {
        self.charset = charset;
        self
    }

    /// With a page type to assume instead of classifying.
    pub fn with_page_type(mut self, page_type: Option<PageType>) -> Self {
        self.page_type = page_type;
        self
    }

    /// Sets [`Options::fetched_at`].
    pub fn with_fetched_at(mut self, fetched_at: Option<i64>) -> Self {
        self.fetched_at = fetched_at;
        self
    }

    /// With or without the Markdown of the main content.
    pub fn with_markdown(mut self, on: bool) -> Self {
        self.markdown = on;
        self
    }

    /// With or without the clean HTML of the main content.
    pub fn with_html(mut self, on: bool) -> Self {
        self.html = on;
        self
    }

    /// With or without images in the Markdown.
    pub fn with_images(mut self, on: bool) -> Self {
        self.images = on;
        self
    }

    /// With the largest page accepted, in bytes.
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// With the deepest nesting kept (deeper elements are flattened).
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// With the most tokens parsed.
    pub fn with_max_nodes(mut self, max_nodes: usize) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// With a wall-clock limit on parsing (`None`: none).
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> Self {
        self.time_limit = limit;
        self
    }
}

/// One extracted page: main content as text, and metadata.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Extracted {
    /// The URL given in [`Options::url`].
    pub url: Option<String>,
    /// `<title>` or the article's own headline.
    pub title: Option<String>,
    /// Byline, from metadata or the page.
    pub author: Option<String>,
    /// The page's date, ISO 8601 where it could be read: the date it shows
    /// at its head (its publication, or its update when it shows only
    /// that or shows that first), else its recorded publication date
    /// (JSON-LD, `<meta>`), else the date in its URL, else a `<time>`.
    pub date: Option<String>,
    /// When it was first published, when the page says (a date shown with
    /// no update label, JSON-LD `datePublished`, `article:published_time`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    /// When it was last updated, when the page says ("Updated …" at its
    /// head, JSON-LD `dateModified`, `article:modified_time`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_modified: Option<String>,
    /// Which of the two `date` is: `published` or `updated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_kind: Option<DateKind>,
    /// ISO 639 code of the text's language.
    pub language: Option<String>,
    /// What kind of page it is.
    pub page_type: PageType,
    /// The algorithm that selected the text.
    pub algorithm: &'static str,
    /// Main content: blocks separated by a blank line, lines by a newline.
    pub text: String,
    /// The same content as Markdown (CommonMark, GFM tables): headings,
    /// lists, tables, code, links and images kept. Empty only when `text`
    /// is, or when [`Options::markdown`] is off.
    pub markdown: String,
    /// The same content as clean HTML (only structural tags, `href`, `src`
    /// and `alt`), when [`Options::html`] is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// `<meta name="description">` or its Open Graph twin.
    pub description: Option<String>,
    /// The site's name (`og:site_name`, JSON-LD publisher).
    pub site_name: Option<String>,
    /// `<link rel="canonical">`.
    pub canonical: Option<String>,
    /// Charset the page was decoded with.
    pub encoding: &'static str,
    /// The product record of a product page (or of any page whose
    /// structured data declares a priced product).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<product_record::Product>,
    /// Where the text was read when not from the page's markup: the
    /// embedded state of an app shell (`__NEXT_DATA__`, the id of an
    /// `application/json` script, a `window.__NAME__` global) or `json-ld`
    /// (`articleBody`). Only when the markup gave next to nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_source: Option<String>,
    /// Why the page needs a browser to show its content (`None`: its
    /// markup, or state it embeds, has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_script: Option<shell::ScriptNeed>,
}

/// Decodes page bytes (`declared` charset and `tld` hint as in
/// [`charset::decode`]) and parses them within the limits of `opts`.
pub(crate) fn parse_bytes(
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

/// The text in Unicode's canonical composition (NFC), the form text tools
/// and search indexes compare in: a page may spell "য়" as one code point or
/// two, "é" as e and an accent.
fn nfc(text: String) -> String {
    use unicode_normalization::UnicodeNormalization;
    if quick_nfc(&text) {
        text
    } else {
        text.nfc().collect()
    }
}

/// Unicode's NFC quick check answering yes, run over the non-ASCII runs
/// alone: an ASCII character is in NFC and resets the check's state, so the
/// runs between them answer for the whole text (the bytes of the rest are
/// skipped, not decoded).
fn quick_nfc(text: &str) -> bool {
    use unicode_normalization::{is_nfc_quick, IsNormalized};
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(off) = b.get(i..).and_then(first_non_ascii) {
        let from = i + off;
        let to = b[from..]
            .iter()
            .position(u8::is_ascii)
            .map_or(b.len(), |k| from + k);
        let run = text.get(from..to).unwrap_or("");
        if is_nfc_quick(run.chars()) != IsNormalized::Yes {
            return false;
        }
        i = to;
    }
    true
}

/// Where the first non-ASCII byte is: eight bytes tested at a time.
fn first_non_ascii(b: &[u8]) -> Option<usize> {
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = <[u8; 8]>::try_from(chunk).map_or(u64::MAX, u64::from_le_bytes);
        if word & 0x8080_8080_8080_8080 != 0 {
            return chunk.iter().position(|c| !c.is_ascii()).map(|p| at + p);
        }
        at += 8;
    }
    let rest = chunks.remainder();
    rest.iter().position(|c| !c.is_ascii()).map(|p| at + p)
}

/// `href` resolved against the page's `<base href>` and its URL, as a
/// browser resolves it; as written when there is no URL to resolve against
/// or it does not resolve.
fn absolute(href: &str, base: Option<&str>, url: Option<&str>) -> String {
    let Some(page) = url.and_then(|u| url::Url::parse(u).ok()) else {
        return href.to_string();
    };
    let base = base.and_then(|b| page.join(b.trim()).ok()).unwrap_or(page);
    base.join(href)
        .map_or_else(|_| href.to_string(), |u| u.to_string())
}

/// Extracts from an already parsed page; `page_type` skips classification;
/// `markdown`: write the Markdown, with images or not.
pub(crate) fn extract_doc(
    doc: &Doc,
    url: Option<&str>,
    algorithm: Algorithm,
    page_type: Option<PageType>,
    fetched_at: Option<i64>,
    markdown: Option<bool>,
) -> Extracted {
    let meta = metadata::collect(doc);
    let page_type = page_type.unwrap_or_else(|| classify::classify(doc, url, &meta));
    let sel = match algorithm {
        Algorithm::Auto => auto::select_typed(doc, page_type, meta.title.as_deref()),
        other => other.extractor().select(doc),
    };
    let mut text = nfc(render(doc, &sel));
    let mut md = markdown.map(|images| {
        let opts = MarkdownOptions {
            images,
            url: url.and_then(|u| url::Url::parse(u).ok()),
        };
        html::markdown::markdown(doc, &sel, &opts)
    });
    // Lines the text loses after rendering, and the Markdown with them.
    // The selection's code lines, read once for both passes below: code is
    // kept verbatim, never dropped as a repeat or a label.
    let code = std::cell::OnceCell::new();
    let is_code = |line: &str| {
        code.get_or_init(|| repeats::code_lines(doc, &sel))
            .contains(line.trim())
    };
    let mut drop_lines = |text: &mut String, drop: Vec<bool>| {
        if let Some(md) = md.as_mut() {
            md.drop_like(text, &drop);
        }
        repeats::remove_lines(text, &drop);
    };
    if algorithm == Algorithm::Auto && page_type != PageType::Documentation {
        // Sections that open alike are an article's or a service page's;
        // on lists and threads a repeated pair of headings is a card's
        // (a product's name and model, a poster's name and rank).
        let sectioned = matches!(page_type, PageType::Article | PageType::Service);
        let headings = std::cell::OnceCell::new();
        let is_heading = |line: &str| {
            sectioned
                && headings
                    .get_or_init(|| chrome::short_headings(doc, &sel))
                    .iter()
                    .any(|h: &String| h == line.trim())
        };
        let drop = repeats::repeated_lines(&text, &is_heading, &is_code);
        drop_lines(&mut text, drop);
    }
    if algorithm == Algorithm::Auto {
        let mut drop = chrome::label_lines(&text);
        if drop.iter().any(|&d| d) {
            chrome::keep_headings(&text, &mut drop, &chrome::date_headings(doc, &sel));
            // A code line is never a label ("filter {" in a listing).
            for (d, line) in drop.iter_mut().zip(text.split('\n')) {
                *d &= !is_code(line);
            }
        }
        drop_lines(&mut text, drop);
    }
    if algorithm == Algorithm::Auto && page_type == PageType::Product {
        let before = text.len();
        product::add_description(&mut text, meta.product_description.as_deref());
        if let (Some(md), Some(added)) = (md.as_mut(), text.get(before..)) {
            md.push_text(added);
        }
    }
    // An app shell: its embedded state may hold what the markup does not.
    // Not a product page's: its state holds many texts (size guides,
    // reviews, other products) and the largest is seldom its description
    // (wcxb-dev 0585 read a rug size guide: page F1 1.0 -> 0.0).
    let mut text_source = None;
    if algorithm == Algorithm::Auto
        && page_type != PageType::Product
        && text.chars().count() < embedded::THIN_TEXT_CHARS
    {
        if let Some((name, state)) = embedded::state_text(doc) {
            if state.len() > text.len() {
                text = nfc(state);
                text_source = Some(name);
                md = md.map(|_| Markdown::from_text(&text));
            }
        }
    }
    let markdown = match md {
        Some(md) if md.is_empty() && !text.is_empty() => Markdown::from_text(&text).finish(),
        Some(md) => nfc(md.finish()),
        None => String::new(),
    };
    let language = metadata::language(&text, meta.html_lang.as_deref());
    let dates = page_date::dates(doc, url, &meta, page_type, fetched_at, language.as_deref());
    let product = product_record::read(
        doc,
        page_type == PageType::Product,
        meta.title.as_deref(),
        url,
    );
    let mut ex = Extracted {
        product,
        url: url.map(str::to_string),
        title: metadata::record_title(doc, &meta, url),
        author: meta.author,
        date_kind: dates.kind(),
        date: dates.date,
        date_published: dates.published,
        date_modified: dates.modified,
        language,
        page_type,
        algorithm: algorithm.name(),
        text,
        markdown,
        html: None,
        description: meta.description,
        site_name: meta.site_name,
        canonical: meta
            .canonical
            .map(|c| absolute(&c, doc.meta.base.as_deref(), url)),
        encoding: "UTF-8",
        text_source,
        needs_script: None,
    };
    let found = shell::Found {
        text: &ex.text,
        embedded: ex.text_source.is_some(),
        priced: ex.product.as_ref().is_some_and(|p| p.price.is_some()),
        page_type: ex.page_type,
    };
    ex.needs_script = shell::needs_script(doc, &found, &meta.cart_buttons);
    ex
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_check_over_non_ascii_runs_answers_as_over_the_whole_text() {
        use unicode_normalization::{is_nfc_quick, IsNormalized};
        for t in [
            "",
            "plain words",
            "café au lait",
            "cafe\u{301}",
            "a\u{301}\u{300} x",
            "a\u{323}\u{301}",
            "a\u{301}\u{323}",
            "\u{1100}\u{1161} 한국어",
            "Ω and \u{2126}",
            "x \u{301}",
            "«guillemets» and ’quotes’",
        ] {
            let whole = is_nfc_quick(t.chars()) == IsNormalized::Yes;
            assert_eq!(quick_nfc(t), whole, "{t:?}");
        }
        assert_eq!(nfc("cafe\u{301}".to_string()), "café");
        for t in [
            "",
            "abc",
            "abcdefgh",
            "abcdefghé",
            "é",
            "abcdefgh12345678x\u{e9}y",
        ] {
            let want = t.bytes().position(|c| !c.is_ascii());
            assert_eq!(first_non_ascii(t.as_bytes()), want, "{t:?}");
        }
    }

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

    /// Regression (issue 53): a relative `<link rel="canonical" href="/p1">`
    /// was exported as written.
    #[test]
    fn a_relative_canonical_is_made_absolute() {
        let html = br#"<html><head><link rel="canonical" href="/p1"><title>T</title></head>
            <body><p>Some words of the page, enough of them to be text.</p></body></html>"#;
        let opts = crate::Options::default().with_url("https://shop.example/a/b?x=1");
        let ex = crate::extract(html, &opts).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ex.canonical.as_deref(), Some("https://shop.example/p1"));
        assert_eq!(
            absolute(
                "p2",
                Some("https://cdn.example/base/"),
                Some("https://shop.example/a")
            ),
            "https://cdn.example/base/p2"
        );
        assert_eq!(absolute("/p1", None, None), "/p1");
    }

    /// Regression (wcxb-dev 4403): a highlighter's `<span class="token
    /// comment">` inside a code block was taken for a comment section, and
    /// the listing lost its comments.
    #[test]
    fn a_code_blocks_highlighted_comments_stay() {
        let para = "<p>The effect runs after every render, and the comment in the listing \
                    says which lifecycle methods it stands in for.</p>";
        let html = format!(
            "<html><body><article>{para}<pre><code><span class=\"token comment\">\
             // Similar to componentDidMount</span>\nuseEffect(() =&gt; {{}});</code></pre>\
             {para}</article></body></html>"
        );
        let ex = crate::extract(html.as_bytes(), &crate::Options::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            ex.text.contains("// Similar to componentDidMount"),
            "{}",
            ex.text
        );
        assert!(
            ex.markdown.contains("// Similar to componentDidMount"),
            "{}",
            ex.markdown
        );
    }

    /// Regression (wcxb-dev 0686): a code line that reads as an interface
    /// label ("filter {") was dropped as one, and the listing had a hole.
    #[test]
    fn a_code_line_like_a_label_stays() {
        let para = "<p>The data source below looks the volume up by its id, with one \
                    filter block naming the field and the value it must hold.</p>";
        let html = format!(
            "<html><body><article>{para}<pre><code>data \"aws_ebs_volume\" \"example\" {{\n  \
             filter {{\n    name = \"volume-id\"\n  }}\n}}</code></pre>{para}</article></body></html>"
        );
        let ex = crate::extract(html.as_bytes(), &crate::Options::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(ex.text.contains("\n  filter {\n"), "{}", ex.text);
        assert!(ex.markdown.contains("\n  filter {\n"), "{}", ex.markdown);
    }
}
