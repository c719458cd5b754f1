//! The page types, and the signals of a page both the hand-written rules
//! ([`crate::extract::typing::classify`]) and the learned model ([`crate::extract::typing::page_model`]) read:
//! the page's shape (paragraph text, repeated link cards, code, prices) and
//! its URL's words.

use serde::{Deserialize, Serialize};

use crate::html::{Doc, Kind, Tag};

/// The seven page types of WCXB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// One article: news, blog post, essay.
    #[default]
    Article,
    /// A thread of posts and replies.
    Forum,
    /// One product's page in a shop.
    Product,
    /// A shop's category or search page: many products.
    Collection,
    /// A list of articles or links (index, archive, search results).
    Listing,
    /// Reference or manual pages.
    Documentation,
    /// Company, service, landing and other pages.
    Service,
}

impl PageType {
    /// Every type, in the order of the model's classes.
    pub const ALL: [PageType; 7] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
    ];

    /// Its name in records ("article", "forum", …).
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
        }
    }

    /// Looks a name up (WCXB's "category" is [`PageType::Collection`]).
    pub fn parse(s: &str) -> Option<PageType> {
        match s {
            "category" => Some(PageType::Collection),
            _ => PageType::ALL.into_iter().find(|t| t.name() == s),
        }
    }
}

/// Structural counts the classifier (and `auto`) look at.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Shape {
    pub chars: u32,
    pub link_chars: u32,
    /// Characters in `<p>` elements.
    pub p_chars: u32,
    pub paragraphs: u32,
    pub code_blocks: u32,
    pub prices: u32,
}

pub(crate) fn shape(doc: &Doc) -> Shape {
    let body = doc.body();
    let a = doc.agg[body as usize];
    let mut s = Shape {
        chars: a.chars,
        link_chars: a.link_chars,
        ..Shape::default()
    };
    for (i, n) in doc.nodes.iter().enumerate() {
        match n.tag {
            Tag::P => {
                let c = doc.agg[i].chars - doc.agg[i].link_chars;
                if c >= 80 {
                    s.paragraphs += 1;
                    s.p_chars += c;
                }
            }
            Tag::Pre => s.code_blocks += 1,
            _ => {}
        }
        if n.kind == Kind::Text && n.chars < 40 {
            let t = doc.text(i as u32);
            if t.contains(['$', '€', '£', '¥']) && t.chars().any(|c| c.is_ascii_digit()) {
                s.prices += 1;
            }
        }
    }
    s
}

/// URL path words that point at each page type, in the order the rules try
/// them. Shared by the rules and the model's features.
pub(super) const URL_VOCAB: &[(PageType, &[&str])] = &[
    (
        PageType::Forum,
        &[
            "forum",
            "forums",
            "thread",
            "threads",
            "topic",
            "topics",
            "community",
            "discussion",
            "discussions",
            "viewtopic",
            "showthread",
            "questions",
            "t",
            "r",
            "comments",
        ],
    ),
    (
        PageType::Documentation,
        &[
            "docs",
            "doc",
            "documentation",
            "manual",
            "reference",
            "api",
            "guide",
            "guides",
            "tutorial",
            "kb",
            "wiki",
            "learn",
            "help",
        ],
    ),
    (
        PageType::Product,
        &[
            "product", "products", "dp", "item", "p", "itm", "shop", "buy",
        ],
    ),
    (
        PageType::Collection,
        &[
            "category",
            "categories",
            "collections",
            "collection",
            "catalog",
            "c",
            "department",
            "shop",
            "store",
        ],
    ),
    (
        PageType::Listing,
        &[
            "tag",
            "tags",
            "search",
            "archive",
            "archives",
            "jobs",
            "events",
            "page",
            "listing",
            "directory",
            "list",
            "results",
            "news",
        ],
    ),
    (
        PageType::Article,
        &[
            "blog", "news", "article", "articles", "story", "post", "posts", "2023", "2024",
            "2025", "2026",
        ],
    ),
    (
        PageType::Service,
        &[
            "services",
            "service",
            "pricing",
            "solutions",
            "features",
            "about",
            "contact",
            "plans",
        ],
    ),
];

/// The URL words of a page type.
pub(crate) fn url_words(t: PageType) -> &'static [&'static str] {
    URL_VOCAB
        .iter()
        .find(|(p, _)| *p == t)
        .map_or(&[], |(_, w)| w)
}

/// Lower-cased path tokens of a URL (split on / - _ . ? = &).
pub(crate) fn url_tokens(url: &str) -> Vec<String> {
    let path = url
        .split_once("://")
        .map_or(url, |(_, r)| r.find('/').map_or("", |i| &r[i..]))
        .to_ascii_lowercase();
    path.split(['/', '-', '_', '.', '?', '=', '&'])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}
