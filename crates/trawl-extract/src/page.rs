//! A parsed page, for callers that need more than its text: a crawler reads
//! its links, its robots directives and its product fields from the same
//! parse the extractor used. [`crate::extract()`] is [`Page::parse`] then
//! [`Page::extract`]; trawl's crawl path makes the same two calls.

use std::sync::OnceLock;

use crate::extract::{extract_doc, ExtractError, Extracted, Options, PageType};
use crate::html::leaves::{self, Leaf};
use crate::html::{Doc, NodeId, Tag};

/// A decoded and parsed HTML page.
///
/// ```
/// use trawl_extract::{Options, Page};
///
/// let html = b"<html><body><article><h1>Tide pools</h1>\
///     <p>Anemones close into tight green buttons when the winter storms arrive.</p>\
///     <a href=\"/next\" rel=\"nofollow\">next</a></article></body></html>";
/// let opts = Options::default().with_url("https://coast.example/a");
/// let page = Page::parse(html, &opts)?;
/// assert!(page.extract(&opts).text.contains("Anemones"));
/// let links = page.links();
/// assert_eq!((links[0].href.as_str(), links[0].nofollow), ("/next", true));
/// # Ok::<(), trawl_extract::ExtractError>(())
/// ```
pub struct Page {
    doc: Doc,
    encoding: &'static encoding_rs::Encoding,
    /// The page's text leaves, for templates (computed once, on first use).
    leaves: OnceLock<Vec<Leaf>>,
}

/// A link (`<a href>`) of a page, in document order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The `href` as written (resolve it against [`Page::base_href`], then
    /// the page's URL).
    pub href: String,
    /// `rel` names `nofollow`.
    pub nofollow: bool,
    node: NodeId,
}

/// What a page's `<meta name="robots">` (and the crawler's own
/// `<meta name="AGENT">`, and `X-Robots-Tag` header fields) allow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RobotsMeta {
    /// Do not keep the page's content (`noindex` or `none`).
    pub noindex: bool,
    /// Do not follow its links (`nofollow` or `none`).
    pub nofollow: bool,
}

/// Directives that carry a value after a colon (`max-image-preview:none`
/// is not `none`): in an `X-Robots-Tag`, a word before a colon that is not
/// one of these names a user agent.
const VALUED: [&str; 4] = [
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "unavailable_after",
];

impl RobotsMeta {
    /// Adds the directives of one comma-separated list (`noindex, nofollow`,
    /// `none`, `max-image-preview:none`): each is a whole word, and one with
    /// a value (`name:value`) is never a bare `none` or `noindex`.
    pub fn read(&mut self, list: &str) {
        for token in list.split(',') {
            let token = token.trim();
            if token.contains(':') {
                continue;
            }
            if token.eq_ignore_ascii_case("noindex") {
                self.noindex = true;
            } else if token.eq_ignore_ascii_case("nofollow") {
                self.nofollow = true;
            } else if token.eq_ignore_ascii_case("none") {
                self.noindex = true;
                self.nofollow = true;
            }
        }
    }

    /// Adds an `X-Robots-Tag` field's directives: for everyone
    /// (`noindex`), or for the user agent it names first (`trawl: noindex`;
    /// `googlebot: noindex` is not ours). `agent` is the crawler's
    /// robots.txt product token.
    pub fn read_header(&mut self, value: &str, agent: &str) {
        if let Some((first, rest)) = value.split_once(':') {
            let name = first.trim();
            let is_agent = !name.is_empty()
                && !name.contains([',', ' '])
                && !VALUED.iter().any(|v| name.eq_ignore_ascii_case(v));
            if is_agent {
                if name.eq_ignore_ascii_case(agent) {
                    self.read(rest);
                }
                return;
            }
        }
        self.read(value);
    }
}

impl Page {
    /// Decodes (BOM, `opts.charset`, `<meta>`, detection helped by the URL's
    /// top-level domain) and parses within the limits of `opts`.
    pub fn parse(bytes: &[u8], opts: &Options) -> Result<Page, ExtractError> {
        if bytes.len() > opts.max_bytes {
            return Err(ExtractError::TooLarge(format!(
                "{} bytes, limit {}",
                bytes.len(),
                opts.max_bytes
            )));
        }
        let tld = opts.url.as_deref().and_then(tld_of);
        let (doc, encoding) =
            crate::extract::parse_bytes(bytes, opts.charset.map(|c| c.0), tld.as_deref(), opts)?;
        Ok(Page {
            doc,
            encoding,
            leaves: OnceLock::new(),
        })
    }

    /// Main content and metadata, by `opts.algorithm` (`opts.url` helps page
    /// typing; `opts.page_type` skips it).
    pub fn extract(&self, opts: &Options) -> Extracted {
        let mut out = extract_doc(
            &self.doc,
            opts.url.as_deref(),
            opts.algorithm,
            opts.page_type,
            opts.fetched_at,
            opts.markdown.then_some(opts.images),
        );
        out.encoding = self.encoding.name();
        if opts.html {
            out.html = Some(crate::html::markdown::to_html(&out.markdown));
        }
        out
    }

    /// The parsed document, for [`crate::Extractor`] implementations.
    pub fn doc(&self) -> &Doc {
        &self.doc
    }

    /// The charset the page was decoded with.
    pub fn encoding(&self) -> &'static str {
        self.encoding.name()
    }

    /// `href` of the page's first `<base>` element.
    pub fn base_href(&self) -> Option<&str> {
        self.doc.meta.base.as_deref()
    }

    /// `href`s of the page's feeds (`<link rel="alternate">` of type RSS,
    /// Atom or JSON Feed), as written.
    pub fn feed_links(&self) -> &[String] {
        &self.doc.meta.feeds
    }

    /// Every `<a href>` of the visible page, in document order.
    pub fn links(&self) -> Vec<Link> {
        (0..self.doc.len() as NodeId)
            .filter(|&i| self.doc.tag(i) == Tag::A)
            .filter_map(|i| {
                let href = self.doc.attr(i, "href")?;
                let nofollow = self.doc.attr(i, "rel").is_some_and(|r| {
                    r.split_whitespace()
                        .any(|t| t.eq_ignore_ascii_case("nofollow"))
                });
                Some(Link {
                    href: href.to_string(),
                    nofollow,
                    node: i,
                })
            })
            .collect()
    }

    /// A link's anchor text.
    pub fn anchor_text(&self, link: &Link) -> String {
        self.doc.plain_text(link.node)
    }

    /// The words a reader sees around a link: text of the text nodes just
    /// before and after it, about `reach` bytes each way.
    pub fn link_context(&self, link: &Link, reach: usize) -> String {
        let doc = &self.doc;
        let mut before = Vec::new();
        let mut n = 0;
        let mut i = link.node;
        while i > 0 && n < reach {
            i -= 1;
            if !doc.is_element(i) {
                let t = doc.text(i).trim();
                n += t.len();
                before.push(t);
            }
        }
        before.reverse();
        let mut out = before.join(" ");
        let mut n = 0;
        let mut i = doc.end(link.node);
        while (i as usize) < doc.len() && n < reach {
            if !doc.is_element(i) {
                let t = doc.text(i).trim();
                n += t.len();
                out.push(' ');
                out.push_str(t);
            }
            i += 1;
        }
        out
    }

    /// Directives of `<meta name="robots">` and `<meta name="AGENT">`
    /// (`agent` is the crawler's robots.txt product token).
    pub fn robots(&self, agent: &str) -> RobotsMeta {
        let agent = agent.to_ascii_lowercase();
        let mut meta = RobotsMeta::default();
        for (_, v) in self
            .doc
            .meta
            .metas
            .iter()
            .filter(|(k, _)| k == "robots" || *k == agent)
        {
            meta.read(v);
        }
        meta
    }

    /// Whether this is one product's page: declared so (JSON-LD `Product` or
    /// `Offer`, `og:type` product), or typed so with a product-like URL path
    /// that is not a listing's.
    pub fn is_product(&self, url: &str, page_type: PageType) -> bool {
        crate::extract::auto::product::is_product_page(&self.doc, url, page_type)
    }

    /// The keys (tag, class and position paths) of the page's text leaves:
    /// two pages of one layout share most of them.
    pub fn leaf_keys(&self) -> impl Iterator<Item = &str> {
        self.leaves().iter().map(|l| l.key.as_str())
    }

    /// Text leaves, computed once per page.
    pub(crate) fn leaves(&self) -> &[Leaf] {
        self.leaves.get_or_init(|| leaves::leaves(&self.doc))
    }
}

/// The last label of a URL's host, lower-case ASCII letters only (the
/// charset detector's hint: "ru", "cn", "edu").
fn tld_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = host.split(':').next()?;
    let tld = host.trim_end_matches('.').rsplit('.').next()?;
    (!tld.is_empty() && tld.bytes().all(|b| b.is_ascii_alphabetic()))
        .then(|| tld.to_ascii_lowercase())
}

/// Extracts main content and metadata from page bytes: decodes (BOM, HTTP
/// charset, `<meta>`, detection), parses, types the page and runs the
/// chosen algorithm. The one entry point; [`Page`] splits it in two for
/// callers that also want links or product fields.
///
/// ```
/// use trawl_extract::{extract, Options, PageType};
///
/// let html = "<html><head><title>Tide pools</title></head><body>\
///     <nav><a href=/>Home</a> <a href=/about>About</a></nav>\
///     <article><h1>How tide pools survive winter</h1>\
///     <p>When the winter storms arrive, the rocky shore becomes a hard place to live.</p>\
///     <p>Yet the tide pools stay full of life: anemones close into tight green buttons.</p>\
///     </article><footer>© Coastal Notes</footer></body></html>";
/// let rec = extract(html.as_bytes(), &Options::default())?;
/// assert!(rec.text.contains("anemones close"));
/// assert!(!rec.text.contains("Coastal Notes"));
/// assert_eq!(rec.title.as_deref(), Some("Tide pools"));
/// # Ok::<(), trawl_extract::ExtractError>(())
/// ```
pub fn extract(bytes: &[u8], opts: &Options) -> Result<Extracted, ExtractError> {
    Ok(Page::parse(bytes, opts)?.extract(opts))
}

/// A whole piece of HTML as Markdown: a converter, no main-content
/// extraction (`opts.url` makes links absolute; `opts.images` keeps or
/// drops images).
///
/// ```
/// use trawl_extract::{html_to_markdown, Options};
/// let md = html_to_markdown(b"<h2>Steps</h2><ol><li>Mix</li><li>Bake</li></ol>", &Options::default())?;
/// assert_eq!(md, "# Steps\n\n1. Mix\n2. Bake");
/// # Ok::<(), trawl_extract::ExtractError>(())
/// ```
pub fn html_to_markdown(bytes: &[u8], opts: &Options) -> Result<String, ExtractError> {
    let page = Page::parse(bytes, opts)?;
    let doc = page.doc();
    if doc.is_empty() {
        return Ok(String::new());
    }
    let sel = crate::html::Selection::subtree(doc, 0);
    let md_opts = crate::html::markdown::MarkdownOptions {
        images: opts.images,
        url: opts.url.as_deref().and_then(|u| url::Url::parse(u).ok()),
    };
    Ok(crate::html::markdown::markdown(doc, &sel, &md_opts).finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tld_hint() {
        assert_eq!(tld_of("https://www.example.ru/a"), Some("ru".into()));
        assert_eq!(tld_of("https://example.edu:8080/a"), Some("edu".into()));
        assert_eq!(tld_of("http://127.0.0.1:80/"), None);
        assert_eq!(tld_of("no-scheme"), None);
    }

    #[test]
    fn feeds_are_the_alternate_links_of_a_feed_type() {
        let page = Page::parse(
            b"<html><head><link rel=alternate type='application/rss+xml' href=/rss>\
              <link rel='alternate' hreflang=de href=/de>\
              <link rel=stylesheet type='application/atom+xml' href=/not-a-feed>\
              <link rel='Alternate' type='application/feed+json' href=/feed.json></head>\
              <body>x</body></html>",
            &Options::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(page.feed_links(), ["/rss", "/feed.json"]);
    }

    #[test]
    fn robots_meta_for_us_and_for_all() {
        let page = Page::parse(
            b"<html><head><meta name=robots content=NOFOLLOW><meta name=trawl content=noindex></head><body>x</body></html>",
            &Options::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            page.robots("trawl"),
            RobotsMeta {
                noindex: true,
                nofollow: true
            }
        );
        assert_eq!(
            page.robots("other"),
            RobotsMeta {
                noindex: false,
                nofollow: true
            }
        );
    }

    #[test]
    fn robots_directives_are_words_not_substrings() {
        let read = |list: &str| {
            let mut m = RobotsMeta::default();
            m.read(list);
            m
        };
        let both = RobotsMeta {
            noindex: true,
            nofollow: true,
        };
        // Regression: `max-image-preview:none` was read as `none`.
        assert_eq!(
            read("index, follow, max-image-preview:none"),
            RobotsMeta::default()
        );
        assert_eq!(
            read("max-snippet:-1, max-video-preview:none"),
            RobotsMeta::default()
        );
        assert_eq!(read("NONE"), both);
        assert_eq!(read(" noindex ,nofollow"), both);
        assert!(!read("noindexing, nofollowers").noindex);
        let header = |v: &str| {
            let mut m = RobotsMeta::default();
            m.read_header(v, "trawl");
            m
        };
        assert!(header("noindex").noindex);
        assert_eq!(header("googlebot: noindex"), RobotsMeta::default());
        assert_eq!(header("Trawl: none"), both);
        assert!(header("max-image-preview:none, nofollow").nofollow);
        assert_eq!(
            header("unavailable_after: 25 Jun 2010 15:00:00 PST"),
            RobotsMeta::default()
        );
    }

    #[test]
    fn text_comes_out_composed() {
        // Regression (trafilatura-eval): pages that spell "ü" as u and a
        // combining diaeresis (a Mac's file names, some CMSs) did not match
        // the same words typed composed.
        let story =
            "Die Gru\u{308}nen fordern mehr Geld fu\u{308}r die Schulen im Land. ".repeat(8);
        let html = format!("<html><body><article><p>{story}</p></article></body></html>");
        let text = extract(html.as_bytes(), &Options::default())
            .expect("extracts")
            .text;
        assert!(text.contains("Grünen fordern mehr Geld für"), "{text}");
        assert!(!text.contains('\u{308}'), "{text}");
    }

    #[test]
    fn too_large_is_an_error() {
        let opts = Options {
            max_bytes: 10,
            ..Options::default()
        };
        assert!(matches!(
            extract(b"<p>hello world</p>", &opts),
            Err(ExtractError::TooLarge(_))
        ));
    }
}
