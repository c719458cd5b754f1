//! Boilerplate recognition shared by the extractors: navigation, footers,
//! sidebars, share widgets, comment forms, link farms. The papers all begin
//! with "remove noise"; this module is that step, in two strengths:
//! [`structural`] (tags and link density only, what the papers describe) and
//! [`full`] (adds class/id/role vocabulary, used by `auto`).

use crate::extract::outbound::Outbound;
use crate::html::{Agg, Doc, Kind, NodeId, Tag};

mod junk;
mod languages;
pub(crate) mod lists;
mod tokens;
mod widgets;
pub(crate) use junk::scripts_warning;
use junk::{mark_escaped_markup, mark_placeholders, mark_server_errors};
pub(crate) use tokens::{matches_any_token, matches_token};
use widgets::heading_only;
pub(crate) use widgets::lone_heading;

/// Fragments of things that are never main content, whatever else the
/// element is called ("ot-pc-content" is still the cookie dialog).
const NEVER_CONTENT: &[&str] = &[
    "cookie",
    "consent",
    "gdpr",
    "popup",
    "modal",
    "newsletter",
    "subscribe",
    "signup",
    "sign-up",
    "disqus",
    "outbrain",
    "taboola",
    "breadcrumb",
    "pagination",
    "pager",
    "share",
    "sharing",
    "social",
];

/// Fragments of hints shown over the page ("tooltip", "popover"): short by
/// nature, so they mark boilerplate only on blocks shorter than
/// [`HINT_MAX_CHARS`]. Old forum software names a post's whole table
/// "tooltipbg"; read as never content, a thread lost its first post.
const HINTS: &[&str] = &["tooltip", "popover"];
/// The longest hint: tooltips and popovers on wcxb-dev hold 100-400
/// characters (a disclosure, a glossary entry); the forum post, 1,300.
const HINT_MAX_CHARS: u32 = 1000;

/// Class/id/role fragments that mark boilerplate on their own.
const NEGATIVE: &[&str] = &[
    "nav",
    "menu",
    "footer",
    "sidebar",
    "side-bar",
    "breadcrumb",
    "cookie",
    "consent",
    "share",
    "sharing",
    "social",
    "related",
    "recommend",
    "newsletter",
    "subscribe",
    "signup",
    "sign-up",
    "popup",
    "modal",
    "masthead",
    "pagination",
    "pager",
    "disqus",
    "outbrain",
    "taboola",
    "comment-form",
    "respond",
    "site-header",
    "site-footer",
    "topbar",
    "most-popular",
    "more-stories",
    "table-of-contents",
    "donation",
    "donate",
];

/// Class/id fragments of notes about the page rather than its story
/// ("disclaimer": the views are the author's, the site is not
/// responsible): boilerplate on an article when short. On a service or
/// product page a disclaimer is the offer's terms, its content (wcxb-dev
/// service 0.8384 -> 0.8370 when they went on every page type), and
/// CleanEval's gold keeps a long one with an author's bio (1,000
/// characters: cleaneval -0.00001, service -0.0001; 400: both hold).
const ABOUT_THE_PAGE: &[&str] = &["disclaimer"];
const ABOUT_THE_PAGE_CHARS: u32 = 400;

/// `noise` with every note about the page ([`ABOUT_THE_PAGE`]) added,
/// whatever its length: what an article recovers from outside its region
/// (a cookie notice named "disclaimer" above the page, 600 characters, came
/// back as a paragraph of the story: multilingual-dev hr 0.9637 -> 0.9687,
/// the other sets identical). Inside the region the length limit holds.
pub(crate) fn with_page_notes(doc: &Doc, noise: &[bool]) -> Vec<bool> {
    let notes = named_any(doc, ABOUT_THE_PAGE);
    let notes = mark(doc, |id| notes[id as usize]);
    noise.iter().zip(notes).map(|(n, m)| *n || m).collect()
}

/// Per node, whether its class, id or role holds one of `words` at a word
/// start ([`matches_token`]). The candidates come from one search of the
/// page's names, not a scan of every element's.
pub(crate) fn named_any(doc: &Doc, words: &[&str]) -> Vec<bool> {
    let mut out = vec![false; doc.len()];
    for id in words.iter().flat_map(|w| doc.names_holding(w)) {
        if !out[id as usize] {
            let names = class_id_role(doc, id);
            out[id as usize] = matches_any_token(names, words);
        }
    }
    out
}

/// Short names of a page's footer that mark boilerplate only as a whole
/// class name or id ("foot", Discuz!'s "ft"): as fragments they would take
/// footnotes and font classes ("kb-ft-rob") with them.
const NEGATIVE_WORDS: &[&str] = &["foot", "ft"];

/// Fragments that mark boilerplate only on short or link-heavy blocks: sites
/// use them for wrappers too ("elementor-widget", "has-banner").
const WEAK_NEGATIVE: &[&str] = &[
    "widget",
    "banner",
    "advert",
    "ads",
    "sponsor",
    "promo",
    "toolbar",
    "login",
    "search",
    "tags",
    "tagcloud",
    "author-box",
    "print",
    "rating",
    "follow",
    "copyright",
    "legal",
    "announcement",
    "trending",
    "read-more",
    "toc",
    // Skip links ("skip to content") are short; sites also name article
    // sections "skip-item" (scroll targets).
    "skip",
];

/// Fragments that mark main content and veto a negative match.
const POSITIVE: &[&str] = &[
    "article",
    "content",
    "entry",
    "post-body",
    "story",
    "main",
    "text",
    "body",
    "blog",
    "product",
    "description",
    "thread",
    "message",
    "forum",
    "answer",
    "question",
    "docs",
    "documentation",
    "markdown",
    "prose",
];

/// Lower-cased class, id and role of an element, space separated
/// ([`Doc::class_id_role`]).
pub(crate) fn class_id_role(doc: &Doc, id: NodeId) -> &str {
    doc.class_id_role(id)
}

/// How strongly a class/id/role string names boilerplate (and not content).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Naming {
    Neutral,
    Weak,
    /// A hint over the page: boilerplate unless long ([`HINTS`]).
    Hint,
    Strong,
}

pub(crate) fn naming(names: &str) -> Naming {
    if names.is_empty() {
        return Naming::Neutral;
    }
    // The word starts are found once for all five lists ([`matches_token`]
    // per word walked the string a hundred times per element), and each
    // start is compared only with the words sharing its first byte.
    // They are kept on the stack (a heap list per call was 4% of an
    // extraction's allocations); a name with more words spills.
    let bytes = names.as_bytes();
    let mut inline = [0usize; 48];
    let mut count = 0;
    let mut spill: Vec<usize> = Vec::new();
    for at in (0..bytes.len()).filter(|&at| at == 0 || matches!(bytes[at - 1], b' ' | b'-' | b'_'))
    {
        match inline.get_mut(count) {
            Some(slot) => {
                *slot = at;
                count += 1;
            }
            None => spill.push(at),
        }
    }
    let starts = || inline[..count].iter().chain(&spill).map(|&at| &bytes[at..]);
    let [never, hints, positive, negative, weak] = vocabularies();
    let any = |v: &Vocabulary| {
        starts().any(|s| {
            s.first()
                .is_some_and(|&b| v.by_first[usize::from(b)].iter().any(|p| s.starts_with(p)))
        })
    };
    if any(never) {
        return Naming::Strong;
    }
    if any(hints) {
        return Naming::Hint;
    }
    if any(positive) {
        return Naming::Neutral;
    }
    if any(negative) || NEGATIVE_WORDS.iter().any(|n| matches_word(names, n)) {
        Naming::Strong
    } else if any(weak) {
        Naming::Weak
    } else {
        Naming::Neutral
    }
}

/// A word list grouped by first byte, for [`naming`].
struct Vocabulary {
    by_first: Vec<Vec<&'static [u8]>>,
}

/// The lists [`naming`] reads (never content, hints, positive, negative,
/// weak negative), grouped once per process.
fn vocabularies() -> &'static [Vocabulary; 5] {
    static V: std::sync::OnceLock<[Vocabulary; 5]> = std::sync::OnceLock::new();
    V.get_or_init(|| {
        [NEVER_CONTENT, HINTS, POSITIVE, NEGATIVE, WEAK_NEGATIVE].map(|list| {
            let mut by_first = vec![Vec::new(); 256];
            for w in list {
                if let Some(&b) = w.as_bytes().first() {
                    by_first[usize::from(b)].push(w.as_bytes());
                }
            }
            Vocabulary { by_first }
        })
    })
}

/// Whether a class/id/role string names boilerplate (and not content).
#[cfg(test)]
fn negative_name(names: &str) -> bool {
    naming(names) == Naming::Strong
}

/// `pat` is a whole class name, id or role of `names` (bounded by its ends
/// or spaces), so "ft" matches "ft" but not "kb-ft-rob" (a font) or "footnote".
fn matches_word(names: &str, pat: &str) -> bool {
    names.split(' ').any(|w| w == pat)
}

/// Link density of a subtree: share of its characters inside links.
pub(crate) fn link_density(doc: &Doc, id: NodeId) -> f64 {
    let a = doc.agg[id as usize];
    if a.chars == 0 {
        return if a.links > 0 { 1.0 } else { 0.0 };
    }
    f64::from(a.link_chars) / f64::from(a.chars)
}

fn structural_root(doc: &Doc, id: NodeId, links_are_noise: bool) -> bool {
    let node = &doc.nodes[id as usize];
    if node.kind != Kind::Element {
        return false;
    }
    if matches!(node.tag, Tag::Nav | Tag::Form | Tag::Menu | Tag::Button) {
        return true;
    }
    // A label bound to a control (`<label for=…>`) belongs to a form even
    // outside one: "Sorted by:" over a select menu, a shop's "Filter Size
    // with value XS" checkboxes, "Your e-mail" above a sign-up field.
    if node.tag == Tag::Label && doc.attr(id, "for").is_some() {
        return true;
    }
    links_are_noise && link_farm(doc, id)
}

/// Mostly link text, several links, not inline.
fn link_farm(doc: &Doc, id: NodeId) -> bool {
    let a = doc.agg[id as usize];
    !doc.tag(id).is_inline()
        && a.links >= 3
        && link_density(doc, id) > 0.6
        && !linked_title(doc, id)
        && !lists::holds_mixed(doc, id)
}

/// A heading whose links all go with one title: one link holds its words,
/// the rest are icons ("email this", "print") or empty. A blog's post title
/// (`<h3><a href=permalink>Title</a><a><img alt="Email"></a></h3>`) is not a
/// menu, however many links it has.
pub(crate) fn linked_title(doc: &Doc, id: NodeId) -> bool {
    if !doc.tag(id).is_heading() {
        return false;
    }
    // A permalink's glyph ("¶", "#", "§") is not a word.
    let worded = (id + 1..doc.nodes[id as usize].end)
        .filter(|&j| {
            doc.tag(j) == Tag::A
                && doc.agg[j as usize].chars > 0
                && doc.plain_text(j).chars().any(char::is_alphanumeric)
        })
        .count();
    worded <= 1
}

/// Marks noise subtrees by structure alone (tags, link density).
pub(crate) fn structural(doc: &Doc) -> Vec<bool> {
    let body_chars = doc.agg[doc.body() as usize].chars;
    mark(doc, |id| {
        structural_root(doc, id, true) && !holds_the_page(doc, id, body_chars)
    })
}

/// A block with a quarter of the page's text and few links, or with most of
/// the page's text, is never noise, whatever its tag or name says: ASP.NET
/// wraps whole pages in `<form>`, wrappers carry stray classes ("tags-…",
/// "has-sidebar"). Except a `<nav>` that is mostly links: a mega menu is a
/// menu however much of a thin page it holds.
fn holds_the_page(doc: &Doc, id: NodeId, body_chars: u32) -> bool {
    let chars = u64::from(doc.agg[id as usize].chars);
    let body = u64::from(body_chars);
    let links = link_density(doc, id);
    if doc.tag(id) == Tag::Nav && links > 0.5 {
        return false;
    }
    (chars * 4 > body && links <= 0.3) || chars * 10 > body * 6
}

/// Share of its `<main>`'s text (percent) a block must hold to be the main
/// content whatever its name.
const MAIN_SHARE_PCT: u64 = 50;

/// A block inside the page's `<main>` (or `role=main`) holding most of its
/// text, with few links, is the content the author marked, whatever its tag
/// or class says: an `<aside>` the story sits in, a wrapper named
/// "modal-enabled" or "…__sharingContainer". [`holds_the_page`] misses them
/// on pages whose menus and footers outweigh the story.
fn holds_the_main(doc: &Doc, mains: &[NodeId], id: NodeId) -> bool {
    let Some(&main) = mains.iter().rev().find(|&&m| m < id && doc.contains(m, id)) else {
        return false;
    };
    let (chars, main_chars) = (doc.agg[id as usize].chars, doc.agg[main as usize].chars);
    u64::from(chars) * 100 >= u64::from(main_chars) * MAIN_SHARE_PCT && link_density(doc, id) <= 0.3
}

/// Class words of bylines and author boxes (whole words: "authority" is not
/// one).
const BYLINE_WORDS: &[&str] = &[
    "bio",
    "byline",
    "bylines",
    "author",
    "authors",
    "vcard",
    "attribution",
];

/// A byline or author box: its class has one of [`BYLINE_WORDS`] as a whole
/// word (split at spaces, `-` and `_`).
fn is_byline(doc: &Doc, id: NodeId) -> bool {
    let (class, ident) = doc.class_id(id);
    [class, ident].into_iter().flatten().any(|names| {
        names
            .split(|c: char| c.is_ascii_whitespace() || c == '-' || c == '_')
            .any(|w| BYLINE_WORDS.iter().any(|b| w.eq_ignore_ascii_case(b)))
    })
}

/// A call to action ("Shop now", "Learn more", "Add to cart"): a short link
/// styled as a button.
fn call_to_action(doc: &Doc, id: NodeId) -> bool {
    doc.agg[id as usize].chars <= CTA_MAX_CHARS && {
        let (class, _) = doc.class_id(id);
        class.is_some_and(|c| {
            let c = c.to_ascii_lowercase();
            matches_token(&c, "btn") || matches_token(&c, "button")
        })
    }
}

/// Attributes of a disclosure control: a button that opens a FAQ answer or
/// a tab, whose label (the question) is content.
const DISCLOSURE_ATTRS: &[&str] = &[
    "aria-expanded",
    "aria-controls",
    "data-toggle",
    "data-bs-toggle",
];
/// Class fragments of the same.
const DISCLOSURE_NAMES: &[&str] = &["collapse", "accordion", "toggle"];

/// A button's label ("Pin it", "Add to favourites", "Print"): an element of
/// a few words whose class names it a button (`btn`, `button`, `…-btn`,
/// `…-button`; not a "button-container"), and not a disclosure control.
/// Left out of the text after the region is chosen, on every page type:
/// as noise it moved regions (a service page's description in a
/// "button-container" went with it).
pub(crate) fn button(doc: &Doc, id: NodeId) -> bool {
    let node = &doc.nodes[id as usize];
    if node.kind != Kind::Element
        || node.tag.is_heading()
        || doc.agg[id as usize].chars > CTA_MAX_CHARS
    {
        return false;
    }
    let Some(class) = doc.class_id(id).0 else {
        return false;
    };
    // Compared without allocating: this runs for every element of a region.
    let named_button = class.split_ascii_whitespace().any(|t| {
        let t = t.as_bytes();
        [&b"btn"[..], &b"button"[..]].iter().any(|b| {
            t.len() >= b.len()
                && t[t.len() - b.len()..].eq_ignore_ascii_case(b)
                && (t.len() == b.len() || matches!(t[t.len() - b.len() - 1], b'-' | b'_'))
        })
    });
    let contains = |needle: &str| {
        class
            .as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    };
    named_button
        && !DISCLOSURE_ATTRS.iter().any(|a| doc.attr(id, a).is_some())
        && !DISCLOSURE_NAMES.iter().any(|n| contains(n))
}

/// A call to action is a few words (swept 30 / 50 / 100 on wcxb-dev: 0.865 each).
const CTA_MAX_CHARS: u32 = 50;

/// What counts as noise on a page, by page type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Profile {
    /// Link-dense blocks are noise (not on list pages, whose records are links).
    pub links_are_noise: bool,
    /// Comment threads are noise (not on forums, where they are the content).
    pub comments_are_noise: bool,
    /// Figure captions are noise (not in documentation, where they title
    /// code listings and diagrams).
    pub captions_are_noise: bool,
    /// Bylines and author bios are noise (on articles: the record carries the
    /// author in its own field; a service site's team page is its content).
    pub bylines_are_noise: bool,
}

#[cfg(test)]
impl Profile {
    /// Everything but the article is noise.
    const ARTICLE: Profile = Profile {
        links_are_noise: true,
        comments_are_noise: true,
        captions_are_noise: true,
        bylines_are_noise: true,
    };
}

/// Share of the page's text (percent) its `<figcaption>`s must hold for the
/// page to be a gallery.
const GALLERY_CAPTION_PCT: u64 = 50;

/// A gallery: the pictures' captions hold most of the page's text (a
/// slideshow of costumes, each told in its caption), so they are its
/// content, not the credits and descriptions left out of a story
/// (trafilatura-eval tp +2 at 30% and at 50%, one page; the other three
/// sets' outputs identical).
pub(crate) fn is_gallery(doc: &Doc) -> bool {
    let mut captions = 0u64;
    let mut i = 0;
    while (i as usize) < doc.len() {
        if doc.tag(i) == Tag::Figcaption {
            captions += u64::from(doc.agg[i as usize].chars);
            i = doc.nodes[i as usize].end;
        } else {
            i += 1;
        }
    }
    captions * 100 > u64::from(doc.agg[doc.body() as usize].chars) * GALLERY_CAPTION_PCT
}

/// Class/id fragments of picture captions and credits outside `<figcaption>`
/// (WordPress's `wp-caption-text`, `image-credit`, `photo-copyright`), for
/// blocks of at most 80 characters on article pages: a credit line, not a
/// described picture (CleanEval's gold keeps long captions: 200 characters
/// cost it 0.00005 while wcxb-dev and trafilatura-eval gained).
const CAPTION_NAMES: &[&str] = &["caption", "credit", "copyright"];

/// Class/id fragments of reader comment sections.
const COMMENTS: &[&str] = &[
    "comment",
    "reader-interactions",
    "disqus",
    "replies",
    "reply-",
];

/// Class/id fragments of what forum software prints around a post but is not
/// the post: signatures, the poster's statistics, vote widgets, "last edited
/// by" lines, and quotes of other posts (their text is already in the thread:
/// forum 0.765 -> 0.780, no page lost more than 0.063). Checked before the
/// content vocabulary, since they sit in "message-signature" and
/// "post-userExtras".
const POST_EXTRAS: &[&str] = &[
    "signature",
    "userextras",
    "user-extras",
    "userinfo",
    "user-info",
    "user-stats",
    "postprofile",
    "authorpane",
    "cauthorpane",
    "voting",
    "votecell",
    "lastedit",
    "last-edit",
    "quote",
];

/// On a question-and-answer page, the comments under a question or an
/// answer (StackExchange, Askbot): the truths keep the posts without them
/// (11 wcxb-dev forum pages, +2.1 page-F1, none lost).
fn comments_on_a_post(doc: &Doc, id: NodeId, names: &str) -> bool {
    if !matches_token(names, "comment") {
        return false;
    }
    let mut up = doc.nodes[id as usize].parent;
    while up != u32::MAX {
        let n = class_id_role(doc, up);
        if matches_token(n, "answer") || matches_token(n, "question") {
            return true;
        }
        up = doc.nodes[up as usize].parent;
    }
    false
}

/// A comment thread holding less than this share (in tenths) of the page's
/// text is noise. Chosen on wcxb-dev and cleaneval, whose truths disagree on
/// comments (WCXB leaves them out, CleanEval keeps them).
const COMMENT_SHARE_X10: u32 = 9;

/// The page's `<main>` elements (or `role=main`) that hold text, in order.
fn main_elements(doc: &Doc) -> Vec<NodeId> {
    (0..doc.len() as NodeId)
        .filter(|&i| {
            doc.is_element(i)
                && (doc.tag(i) == Tag::Main || doc.attr(i, "role") == Some("main"))
                && doc.agg[i as usize].chars > 0
        })
        .collect()
}

/// The element is or encloses one of `mains`: the author's own mark of the
/// content outranks a class name ("layout--2-sidebars" wraps the page).
fn wraps_main(mains: &[NodeId], id: NodeId, end: NodeId) -> bool {
    let at = mains.partition_point(|&m| m < id);
    mains.get(at).is_some_and(|&m| m < end)
}

/// A dialog (`role=dialog`, `aria-modal`): cookie banners, sign-up forms, a
/// privacy policy to open from the footer. Never the page, however long.
fn is_dialog(doc: &Doc, id: NodeId) -> bool {
    matches!(doc.attr(id, "role"), Some("dialog" | "alertdialog"))
        || doc.attr(id, "aria-modal") == Some("true")
}

/// A paragraph of the story: a `<p>` with at least this many characters
/// outside links.
const STORY_PARAGRAPH_CHARS: u32 = 80;

/// The page's headline (its first `<h1>`) and the paragraphs of the page:
/// an element holding the headline and more than half the paragraph text is
/// the story, whatever its class says ("box article modal-enabled") and
/// however many links its share bar, tag list and "more stories" add (which
/// defeats [`holds_the_page`] and [`holds_the_main`]: trafilatura-eval tp
/// 2832 -> 2835, wcxb-dev +0.00002, the others identical). A site header
/// with the logo in an `<h1>` holds no paragraphs.
struct Story {
    headline: NodeId,
    /// Paragraph characters under each element.
    paragraphs: Vec<u32>,
}

impl Story {
    fn find(doc: &Doc) -> Option<Story> {
        let headline = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1)?;
        let mut paragraphs = vec![0u32; doc.len()];
        for i in (0..doc.len()).rev() {
            let n = &doc.nodes[i];
            if n.tag == Tag::P && n.kind == Kind::Element {
                let own = doc.agg[i].chars - doc.agg[i].link_chars;
                if own >= STORY_PARAGRAPH_CHARS {
                    paragraphs[i] = own;
                }
            }
            if n.parent != u32::MAX && i > 0 {
                paragraphs[n.parent as usize] += paragraphs[i];
            }
        }
        (paragraphs[0] > 0).then_some(Story {
            headline,
            paragraphs,
        })
    }

    fn held_by(&self, doc: &Doc, id: NodeId) -> bool {
        doc.contains(id, self.headline) && self.paragraphs[id as usize] * 2 > self.paragraphs[0]
    }
}

/// Marks noise subtrees by structure and by class/id/role vocabulary
/// (`outbound`: the page's blocks of links to other sites, which the
/// caller reads too).
pub(crate) fn full(doc: &Doc, profile: Profile, outbound: &Outbound) -> Vec<bool> {
    let mains = main_elements(doc);
    // The story the markup declares (`itemprop="articleBody"`) outranks a
    // class name too: its wrapper named "cb-sidebar-right" for the column
    // beside it is not a sidebar.
    let declared: Vec<NodeId> = crate::extract::body_names::microdata_body(doc)
        .filter(|&b| doc.agg[b as usize].chars > 0)
        .into_iter()
        .collect();
    // A block of links around the body a content-management system names is
    // not a link farm: a paywalled story's one paragraph sits among its
    // share, tag and teaser links.
    let links_are_noise = profile.links_are_noise;
    let bodies = if links_are_noise {
        crate::extract::body_names::named_bodies(doc)
    } else {
        Vec::new()
    };
    let kept_thread_end = std::cell::Cell::new(0);
    let body = doc.body();
    let body_chars = doc.agg[body as usize].chars;
    let story = Story::find(doc);
    // Pages repeat their class names (every card, every menu item): each
    // distinct name string is weighed once.
    let named: std::cell::RefCell<rustc_hash::FxHashMap<&str, Naming>> = Default::default();
    let naming_of = |names| {
        *named
            .borrow_mut()
            .entry(names)
            .or_insert_with(|| naming(names))
    };
    // The name lists, each found with one search of the page's names.
    // Only the lists this profile reads are searched.
    let p = profile;
    let [caption_named, extras_named, about_named, comments_named] = [
        (p.captions_are_noise && p.bylines_are_noise, CAPTION_NAMES),
        (!p.comments_are_noise, POST_EXTRAS),
        (p.bylines_are_noise, ABOUT_THE_PAGE),
        (p.comments_are_noise, COMMENTS),
    ]
    .map(|(read, words)| {
        if read {
            named_any(doc, words)
        } else {
            vec![false; doc.len()]
        }
    });
    let pickers = languages::pickers(doc);
    let mut noise = mark(doc, |id| {
        if id == body || id == 0 || doc.tag(id) == Tag::Html {
            return false;
        }
        let node = &doc.nodes[id as usize];
        if node.kind != Kind::Element
            || wraps_main(&mains, id, node.end)
            || wraps_main(&declared, id, node.end)
        {
            return false;
        }
        // Inside a code block the classes are a highlighter's tokens
        // ("token comment", "hljs-meta"), not the page's furniture.
        if node.pre && node.tag != Tag::Pre {
            return false;
        }
        if scripts_warning(doc, id) || is_dialog(doc, id) {
            // Noise even when it is all the page has.
            return true;
        }
        let names = class_id_role(doc, id);
        let candidate = pickers.as_ref().is_some_and(|p| p[id as usize])
            || structural_root(doc, id, false)
            || (links_are_noise
                && link_farm(doc, id)
                && !wraps_main(&bodies, id, node.end)
                // A list of links to other sites in the page's body is
                // what it cites or recommends (the selection's rule too).
                && !outbound.only(id))
            || match node.tag {
                Tag::Aside | Tag::Footer => true,
                // Captions credit and describe pictures, which the text
                // leaves out (wcxb-dev truths hold 9% of caption words).
                Tag::Figcaption => profile.captions_are_noise,
                _ if profile.captions_are_noise
                    && profile.bylines_are_noise
                    && doc.agg[id as usize].chars <= 80
                    && caption_named[id as usize] =>
                {
                    true
                }
                Tag::A if call_to_action(doc, id) => true,
                _ if profile.bylines_are_noise && is_byline(doc, id) => true,
                // A page header is noise; an article's own header is not.
                Tag::Header => !inside(doc, id, &[Tag::Article, Tag::Main]),
                _ if node.tag.is_heading() => false,
                _ => {
                    if !profile.comments_are_noise
                        && (extras_named[id as usize] || comments_on_a_post(doc, id, names))
                    {
                        return !holds_the_page(doc, id, body_chars);
                    }
                    match naming_of(names) {
                        _ if profile.bylines_are_noise
                            && doc.agg[id as usize].chars <= ABOUT_THE_PAGE_CHARS
                            && about_named[id as usize] =>
                        {
                            true
                        }
                        Naming::Strong => true,
                        // A thread that dominates the page is the page (a short
                        // post under a long discussion); a minor one is noise.
                        // The outermost thread element decides for its parts.
                        Naming::Neutral => {
                            if !profile.comments_are_noise
                                || id < kept_thread_end.get()
                                || !comments_named[id as usize]
                            {
                                false
                            } else if doc.agg[id as usize].chars * 10
                                < body_chars * COMMENT_SHARE_X10
                            {
                                true
                            } else {
                                kept_thread_end.set(node.end);
                                false
                            }
                        }
                        // On list pages the records are links: a link-heavy
                        // "search-results" block is the content.
                        Naming::Hint => doc.agg[id as usize].chars < HINT_MAX_CHARS,
                        Naming::Weak => {
                            !widgets::words_a_heading(doc, id)
                                && ((doc.agg[id as usize].chars < 100 && !heading_only(doc, id))
                                    || (links_are_noise && link_density(doc, id) > 0.3))
                        }
                    }
                }
            };
        candidate
            && !holds_the_page(doc, id, body_chars)
            && !holds_the_main(doc, &mains, id)
            && !story.as_ref().is_some_and(|s| s.held_by(doc, id))
    });
    mark_placeholders(doc, &mut noise, body_chars);
    mark_server_errors(doc, &mut noise);
    mark_escaped_markup(doc, &mut noise);
    noise
}

/// Some ancestor of `id` has one of `tags`.
pub(crate) fn inside(doc: &Doc, id: NodeId, tags: &[Tag]) -> bool {
    let mut p = doc.nodes[id as usize].parent;
    while p != u32::MAX {
        if tags.contains(&doc.tag(p)) {
            return true;
        }
        p = doc.nodes[p as usize].parent;
    }
    false
}

/// Subtree aggregates with noise subtrees left out.
pub(crate) fn clean_agg(doc: &Doc, noise: &[bool]) -> Vec<Agg> {
    let mut agg: Vec<Agg> = doc
        .nodes
        .iter()
        .zip(&doc.agg)
        .zip(noise)
        .map(|((n, a), &is_noise)| {
            if is_noise {
                Agg::default()
            } else if n.kind == Kind::Text {
                *a
            } else {
                Agg {
                    chars: 0,
                    link_chars: 0,
                    tags: 1,
                    links: u32::from(n.tag == Tag::A),
                }
            }
        })
        .collect();
    for i in (1..doc.len()).rev() {
        let p = doc.nodes[i].parent;
        if p != u32::MAX && !noise[i] {
            let a = agg[i];
            let pa = &mut agg[p as usize];
            pa.chars += a.chars;
            pa.link_chars += a.link_chars;
            pa.tags += a.tags;
            pa.links += a.links;
        }
    }
    agg
}

/// Applies a root test in document order; a subtree under a noise root is
/// noise without being tested.
pub(crate) fn mark(doc: &Doc, is_root: impl Fn(NodeId) -> bool) -> Vec<bool> {
    let n = doc.len();
    let mut noise = vec![false; n];
    let mut i = 0;
    while i < n {
        if is_root(i as NodeId) {
            let end = doc.nodes[i].end as usize;
            noise[i..end].fill(true);
            i = end;
        } else {
            i += 1;
        }
    }
    noise
}

/// The texts left unmarked, in document order (for tests of marking passes).
#[cfg(test)]
pub(crate) fn unmarked_texts<'a>(doc: &'a Doc, marked: &[bool]) -> Vec<&'a str> {
    (0..doc.len() as NodeId)
        .filter(|&i| !marked[i as usize] && !doc.is_element(i))
        .map(|i| doc.text(i))
        .collect()
}

#[cfg(test)]
mod tests;
