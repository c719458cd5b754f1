//! Page typing from structure, URL and metadata (paper 002 classifies
//! screenshots with a CNN; we have no browser, so we read the DOM).
//! Signals, strongest first: JSON-LD `@type`, `og:type`, URL path tokens, then
//! the shape of the page (paragraph text vs. repeated link cards, code blocks,
//! prices).

use crate::extract::metadata::Meta;
pub use crate::extract::typing::page_type::PageType;
use crate::extract::typing::page_type::{shape, url_tokens, URL_VOCAB};
use crate::html::Doc;

fn url_type(url: &str) -> Option<PageType> {
    let tokens = url_tokens(url);
    URL_VOCAB
        .iter()
        .find(|(_, words)| tokens.iter().any(|t| words.contains(&t.as_str())))
        .map(|(t, _)| *t)
}

/// Probability a list-like prediction needs (see `Model::classify_cautious`).
/// Swept on both datasets (auto F1 wcxb-dev / cleaneval): 0 → 0.838 / 0.914,
/// 0.4 → 0.837 / 0.916, 0.5 → 0.834 / 0.917, 0.7 → 0.830 / 0.917.
pub(crate) const LIST_CONFIDENCE: f64 = 0.5;

/// Classifies a page: a specific JSON-LD type if declared, else the shipped
/// model (`models/page_type.json`), else (model missing) the hand-written rules.
pub(crate) fn classify(doc: &Doc, url: Option<&str>, meta: &Meta) -> PageType {
    // An explicit schema.org declaration of a specific type beats the model
    // (on wcxb-dev, where the model was fit, this costs 0.001 F1 in-sample).
    if let Some(t) = declared_type(meta) {
        return t;
    }
    let typed = match crate::extract::typing::page_model::shipped() {
        Some(m) if m.weights.iter().flatten().any(|w| *w != 0.0) => m.classify_cautious(
            &crate::extract::typing::page_model::features(doc, url, meta),
            LIST_CONFIDENCE,
        ),
        _ => classify_rules(doc, url, meta),
    };
    // A plain document read as a list, documentation or a service page is
    // an article. Not one typed forum: on cleaneval's old pages (no header
    // or nav elements) a first version overriding forum and service with
    // 60% prose and tables allowed cost 0.17 and 0.09 page-F1 summed, where
    // listing and documentation gained 0.06. As it is, it retypes 1 / 3 /
    // 0 / 1 pages of wcxb-dev, cleaneval, trafilatura-eval, multilingual-dev.
    if matches!(
        typed,
        PageType::Listing | PageType::Collection | PageType::Documentation | PageType::Service
    ) && plain_document(doc)
    {
        return PageType::Article;
    }
    // A buy box makes a product page of a page typed a list or a service;
    // of one typed an article or a forum (a shop theme that looks like a
    // blog, comments under the product) only when its price sits right by
    // the heading: an article selling a plan or a book mid-text keeps its
    // type (trafilatura-eval's womenshealth: 2,400 characters down).
    let within = match typed {
        PageType::Service | PageType::Collection | PageType::Listing => u64::MAX,
        PageType::Article | PageType::Forum => STORY_BUY_BOX_CHARS,
        _ => return typed,
    };
    if crate::extract::shop::has_buy_box(doc, &meta.cart_buttons, within) {
        return PageType::Product;
    }
    typed
}

/// How far (visible characters) from the heading the buy box of a page
/// typed an article or a forum may be for it to be a product page.
const STORY_BUY_BOX_CHARS: u64 = 1000;

/// A paragraph of prose: at least this many characters...
const PROSE_CHARS: u32 = 80;

/// A document with no site around it (no header, menu, footer, sidebar or
/// form, hardly a link) whose text is mostly paragraphs of prose: a plain
/// article, whatever the model (fit on pages that all have a site around
/// them) says. A bare `<body>` of paragraphs was typed `service`, and a
/// plain article with a list of references `listing`.
fn plain_document(doc: &Doc) -> bool {
    use crate::html::Tag;
    let body = doc.body();
    let all = doc.agg[body as usize];
    if all.chars == 0 || all.link_chars * 10 > all.chars {
        return false;
    }
    let mut prose = 0u32;
    let mut paragraphs = 0u32;
    for i in body..doc.end(body) {
        match doc.tag(i) {
            Tag::Header | Tag::Nav | Tag::Footer | Tag::Aside | Tag::Form | Tag::Table => {
                return false
            }
            Tag::P if doc.agg[i as usize].chars >= PROSE_CHARS => {
                prose += doc.agg[i as usize].chars;
                paragraphs += 1;
            }
            _ => {}
        }
    }
    paragraphs >= 3 && prose * 10 >= all.chars * 8
}

/// The page type a specific schema.org type in JSON-LD declares, if any.
fn declared_type(meta: &Meta) -> Option<PageType> {
    meta.ld_types.iter().find_map(|t| match t.as_str() {
        "product" | "productgroup" => Some(PageType::Product),
        "discussionforumposting" | "qapage" => Some(PageType::Forum),
        "newsarticle" | "blogposting" | "liveblogposting" => Some(PageType::Article),
        "techarticle" | "apireference" => Some(PageType::Documentation),
        _ => None,
    })
}

/// The hand-written rules: JSON-LD, og:type, URL tokens, page shape.
pub(crate) fn classify_rules(doc: &Doc, url: Option<&str>, meta: &Meta) -> PageType {
    for t in &meta.ld_types {
        let pt = match t.as_str() {
            "product" | "productgroup" | "offer" => Some(PageType::Product),
            "discussionforumposting" | "qapage" | "question" => Some(PageType::Forum),
            "techarticle" | "apireference" => Some(PageType::Documentation),
            "newsarticle" | "blogposting" | "article" | "report" | "liveblogposting" => {
                Some(PageType::Article)
            }
            "collectionpage" | "itemlist" | "offercatalog" | "searchresultspage" => {
                Some(PageType::Collection)
            }
            "service" | "faqpage" | "localbusiness" | "professionalservice" => {
                Some(PageType::Service)
            }
            _ => None,
        };
        if let Some(pt) = pt {
            return pt;
        }
    }
    match meta.og_type.as_deref() {
        Some("product" | "og:product" | "product.item") => return PageType::Product,
        Some("article") => return PageType::Article,
        _ => {}
    }
    if let Some(pt) = url.and_then(url_type) {
        return pt;
    }
    let s = shape(doc);
    let text = f64::from(s.chars.max(1));
    if s.code_blocks >= 2 {
        return PageType::Documentation;
    }
    if f64::from(s.link_chars) / text > 0.45 && s.paragraphs < 5 {
        return PageType::Listing;
    }
    if s.prices >= 3 && s.paragraphs < 5 {
        return PageType::Collection;
    }
    PageType::Article
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::metadata;

    fn typed(html: &str, url: Option<&str>) -> PageType {
        let doc = Doc::parse_str(html);
        classify_rules(&doc, url, &metadata::collect(&doc))
    }

    #[test]
    fn json_ld_and_url_signals() {
        let ld = r#"<script type="application/ld+json">{"@type":"Product","name":"Lamp"}</script>"#;
        assert_eq!(typed(ld, None), PageType::Product);
        assert_eq!(
            typed("<p>x</p>", Some("https://x.org/forum/thread-12")),
            PageType::Forum
        );
        assert_eq!(
            typed("<p>x</p>", Some("https://x.org/docs/install")),
            PageType::Documentation
        );
    }

    #[test]
    fn a_bare_document_of_prose_is_an_article() {
        let p = "<p>The station moved to the roof of the post office in 1952, and \
                 the change of height shows in the series.</p>";
        let bare = Doc::parse_str(&format!("<body><h1>Station</h1>{}</body>", p.repeat(4)));
        assert!(plain_document(&bare));
        assert_eq!(
            classify(&bare, None, &metadata::collect(&bare)),
            PageType::Article
        );
        // A site around it, or a layout table: the model decides.
        let site = Doc::parse_str(&format!("<body><nav>Home</nav>{}</body>", p.repeat(4)));
        assert!(!plain_document(&site));
        let table = Doc::parse_str(&format!("<body><table><tr><td>{}</table>", p.repeat(4)));
        assert!(!plain_document(&table));
    }

    /// Issue 59: a shop theme that looks like a blog (an entry title, a
    /// byline, comments) with its buy box by the title is a product page;
    /// an article selling something 2,000 characters down is not.
    #[test]
    fn a_buy_box_by_a_storys_heading_makes_a_product_page() {
        let page = |before: &str| {
            format!(
                "<header><nav><a href=/>Home</a> <a href=/blog>Journal</a> <a href=/shop>Shop</a></nav></header>\
                 <main><article class=post><header><h1 class=entry-title>Handmade Oak Cutting Board</h1>\
                 <div class=entry-meta>Posted on March 3, 2025 by Anna Berg</div></header>\
                 <div class=entry-content>{before}<p class=price><span class=amount>$85.00</span></p>\
                 <form class=cart><button type=submit class=single_add_to_cart_button>Add to cart</button></form>\
                 <p>Wash by hand with warm water. Never put it in the dishwasher.</p></div></article>\
                 <section class=comments><h3>2 comments</h3><p>Lovely board, bought two!</p></section></main>\
                 <footer><p>© Woodshop Journal</p></footer>"
            )
        };
        let classified = |html: &str| {
            let doc = Doc::parse_str(html);
            classify(&doc, None, &metadata::collect(&doc))
        };
        let near = page("<p>Cut from one plank of white oak, planed by hand and oiled.</p>");
        assert_eq!(classified(&near), PageType::Product);
        let story = "<p>Christmas is the season of cookies, roasts and long evenings on the \
                     sofa, and most of us eat more than we plan to. Here is how to enjoy it all \
                     and still feel well in January, in ten small steps anyone can take.</p>";
        let far = page(&story.repeat(10));
        assert_ne!(classified(&far), PageType::Product);
    }

    #[test]
    fn link_heavy_page_is_a_listing() {
        let html = "<ul>".to_string()
            + &"<li><a href=/x>Some linked headline here</a></li>".repeat(20)
            + "</ul>";
        assert_eq!(typed(&html, None), PageType::Listing);
    }
}
