//! The papers' main-content algorithms (../shared/papers), one file each,
//! behind the shared [`Extractor`] trait: selectable by
//! name so they can be compared on the same pages.

pub(crate) mod article_std;
pub(crate) mod cc;
pub(crate) mod cetd_tpc;
pub(crate) mod list_rank;
pub(crate) mod segment;

use crate::html::{Doc, Selection};

/// A main-content extraction algorithm: which nodes of a page are its main
/// content. Rendering them to text, metadata and page type are shared.
///
/// ```
/// use trawl_extract::{Doc, Extractor, Options, Page, Selection};
///
/// /// Keeps the whole `<body>`.
/// struct Everything;
/// impl Extractor for Everything {
///     fn name(&self) -> &'static str { "everything" }
///     fn select(&self, doc: &Doc) -> Selection { Selection::subtree(doc, doc.body()) }
/// }
///
/// let page = Page::parse(b"<body><nav>Home</nav><p>Hello</p></body>", &Options::default())?;
/// let sel = Everything.select(page.doc());
/// assert_eq!(trawl_extract::render(page.doc(), &sel), "Home\n\nHello");
/// # Ok::<(), trawl_extract::ExtractError>(())
/// ```
pub trait Extractor: Send + Sync {
    /// The name used on the command line and in records.
    fn name(&self) -> &'static str;
    /// The nodes that make up the page's main content.
    fn select(&self, doc: &Doc) -> Selection;
}
