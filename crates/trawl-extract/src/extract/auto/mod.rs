//! `auto`: trawl's own extractor, built on the papers' measures.
//!
//! 1. Remove boilerplate with the full noise model (tags, class/id/role
//!    vocabulary, link density; on forums also signatures and post widgets).
//! 2. Find the main region: a semantic container (`<article>`, `<main>`,
//!    `role=main`) that holds most of the clean text, else the block with the
//!    highest CETD-TPC score (paper 000) computed on the cleaned tree, widened
//!    while its parent adds text and not links. On product pages, the block
//!    around the product name ([`product::title_block`]).
//! 3. For list-like page types widen the region to the container of the
//!    repeated records (paper 002's list ranking).
//! 4. Add content blocks outside the region that paper 001's correlativity
//!    accepts on the cleaned tree, if they are substantial; on articles also
//!    a table of data right after the region.
//! 5. Output all that minus noise, minus link-dense blocks (kept on
//!    listing pages, whose records are links), minus what sits beside a
//!    product (reviews, carousels), and minus a leading heading that repeats
//!    the page title (it has its own field). On articles also minus what the
//!    page puts around the story: picture captions and credits outside
//!    `<figcaption>` ([`captions`]), teaser cards ([`teasers`]), the
//!    other stories of an endless-scroll page ([`stories`]), lines
//!    that are one link, small boxes with a field to type into, headings left
//!    without their section ([`headings`]), short text above the
//!    headline, what follows the page's own `articleBody`
//!    ([`article_body`]), and lines that are a date
//!    ([`date_lines`]).
//! 6. When (almost) nothing survives on a page of another type, read it as a
//!    list: a grid of links typed as an article.

pub(crate) mod article_body;
mod baseline;
mod between;
pub(crate) mod captions;
pub(crate) mod date_lines;
pub(crate) mod echoes;
pub(crate) mod headings;
mod headline;
mod introduced;
mod link_lines;
pub(crate) mod product;
pub(crate) mod stories;
pub(crate) mod tail;
pub(crate) mod teasers;

use crate::extract::algorithms::cc;
use crate::extract::algorithms::cetd_tpc;
use crate::extract::algorithms::Extractor;
use crate::extract::noise;
use crate::extract::outbound;
use crate::extract::typing::classify::PageType;
use crate::html::{Agg, Doc, Kind, NodeId, Selection, Tag};

pub(crate) struct Auto;

/// CEPR's λ for the CETD-TPC region step. Lower than the paper algorithm's
/// best (0.8): `auto` removes noise first, so fewer content paths need
/// filtering (wcxb-dev: 0.830 at 0.5, 0.829 at 0.8 and 1.0).
const REGION_LAMBDA: f64 = 0.5;

/// Share of the clean body text a semantic container must hold to be taken.
const SEMANTIC_SHARE: f64 = 0.5;

fn semantic_container(doc: &Doc, agg: &[Agg], noise: &[bool]) -> Option<NodeId> {
    let body = doc.body();
    let total = f64::from(agg[body as usize].chars.max(1));
    let mut best: Option<NodeId> = None;
    for (i, n) in doc.nodes.iter().enumerate() {
        if n.kind != Kind::Element || noise[i] {
            continue;
        }
        let id = i as NodeId;
        let semantic =
            matches!(n.tag, Tag::Article | Tag::Main) || doc.attr(id, "role") == Some("main");
        if !semantic || f64::from(agg[i].chars) / total < SEMANTIC_SHARE {
            continue;
        }
        // The innermost qualifying container wins: <article> inside <main>.
        best = Some(id);
    }
    best
}

fn main_region(doc: &Doc, agg: &[Agg], noise: &[bool]) -> NodeId {
    if let Some(c) = semantic_container(doc, agg, noise) {
        return c;
    }
    let s = cetd_tpc::scores(doc, agg, Some(noise), REGION_LAMBDA);
    let block = cetd_tpc::best_block(&s).unwrap_or_else(|| doc.body());
    widen(doc, agg, block)
}

/// Widening stops when the parent holds more than this many times the
/// block's clean text...
const WIDEN_MAX_GROWTH: f64 = 2.0;
/// ...or when what the parent adds is more than this share link text.
const WIDEN_MAX_LINK_SHARE: f64 = 0.1;

/// The densest block is often one section of a page of several (a course's
/// schedule table without its introduction, one part of a service page):
/// climb to the parent while it adds text, not links, and at most doubles the
/// block. Swept on wcxb-dev (growth 1.3 / 1.6 / 2 / 3, link share 0.1 / 0.25):
/// 2 and 0.1 lift documentation 0.919 -> 0.921, service 0.822 -> 0.826 and
/// cleaneval 0.918 -> 0.920, articles unchanged.
fn widen(doc: &Doc, agg: &[Agg], mut block: NodeId) -> NodeId {
    let body = doc.body();
    while block != body {
        let parent = doc.nodes[block as usize].parent;
        if parent == u32::MAX {
            break;
        }
        let (p, b) = (agg[parent as usize], agg[block as usize]);
        let added = f64::from(p.chars - b.chars);
        let added_links = f64::from(p.link_chars - b.link_chars);
        if f64::from(p.chars) > WIDEN_MAX_GROWTH * f64::from(b.chars)
            || added_links > WIDEN_MAX_LINK_SHARE * added.max(1.0)
        {
            break;
        }
        block = parent;
    }
    block
}

/// Smallest subtree containing all `ids`.
fn common_ancestor(doc: &Doc, ids: &[NodeId]) -> Option<NodeId> {
    let (&first, rest) = ids.split_first()?;
    let mut anc = first;
    for &id in rest {
        while !doc.contains(anc, id) {
            let p = doc.nodes[anc as usize].parent;
            if p == u32::MAX {
                return Some(0);
            }
            anc = p;
        }
    }
    Some(anc)
}

/// Step 4: content blocks outside the region (a split article, a second
/// column of text) come back when paper 001's correlativity calls them content
/// on the cleaned tree and they carry at least this many characters of their own.
const MIN_OUTSIDE_CHARS: u32 = 200;

fn recover_outside(
    doc: &Doc,
    agg: &[Agg],
    noise: &[bool],
    owner: &[NodeId],
    region: NodeId,
    sel: &mut Selection,
) {
    let content = cc::content_units(doc, agg);
    let mut own = vec![0u32; doc.len()];
    for (i, node) in doc.nodes.iter().enumerate() {
        if node.kind == Kind::Text && owner[i] != u32::MAX {
            own[owner[i] as usize] += node.chars;
        }
    }
    for (i, node) in doc.nodes.iter().enumerate() {
        let u = owner[i];
        if node.kind == Kind::Text
            && !noise[i]
            && u != u32::MAX
            && content[u as usize]
            && own[u as usize] >= MIN_OUTSIDE_CHARS
            && !doc.contains(region, i as NodeId)
        {
            sel.set(i as NodeId, true);
        }
    }
}

/// Fewest rows (of two cells with text or more) of a table that follows an
/// article as its data.
const FOLLOWING_TABLE_ROWS: usize = 3;
/// Most of such a table's text that may be link text.
const FOLLOWING_TABLE_LINK_SHARE: f64 = 0.1;

/// A table of data right after the article's region (the article ends
/// "the programmes are listed below", the table follows in a block of its
/// own): part of the article, though widening stops at it (it often holds
/// more text than the prose) and its cells are too small to be recovered
/// one by one. Only the first element after the region counts, and only a
/// table of several rows with (almost) no links that the noise model leaves.
fn following_table(doc: &Doc, agg: &[Agg], noise: &[bool], region: NodeId) -> Option<NodeId> {
    let mut j = doc.nodes[region as usize].end;
    while (j as usize) < doc.len() {
        let ju = j as usize;
        if noise[ju] || agg[ju].chars == 0 {
            j = doc.nodes[ju].end.max(j + 1);
            continue;
        }
        if doc.tag(j) == Tag::Table {
            break;
        }
        if !doc.is_element(j) || doc.tag(j).is_inline() {
            return None;
        }
        j += 1;
    }
    let ju = j as usize;
    if ju >= doc.len() {
        return None;
    }
    let a = agg[ju];
    // Rows of data: two cells or more with text.
    let rows = (j..doc.nodes[ju].end)
        .filter(|&k| {
            doc.tag(k) == Tag::Tr
                && !noise[k as usize]
                && doc
                    .children(k)
                    .filter(|&c| {
                        matches!(doc.tag(c), Tag::Td | Tag::Th) && agg[c as usize].chars > 0
                    })
                    .count()
                    >= 2
        })
        .count();
    (rows >= FOLLOWING_TABLE_ROWS
        && f64::from(a.link_chars) <= FOLLOWING_TABLE_LINK_SHARE * f64::from(a.chars))
    .then_some(j)
}

/// Auto extraction for a known page type; `title` is the page's title from
/// its metadata, if any.
pub(crate) fn select_typed(doc: &Doc, page_type: PageType, title: Option<&str>) -> Selection {
    let sel = select_thin_as_list(doc, page_type, title);
    baseline::safeguard(doc, &sel).unwrap_or(sel)
}

/// [`select_as`], and a page that keeps (almost) nothing read as a list.
fn select_thin_as_list(doc: &Doc, page_type: PageType, title: Option<&str>) -> Selection {
    let sel = select_as(doc, page_type, title);
    let list_like = matches!(page_type, PageType::Listing | PageType::Collection);
    let kept = sel.chars(doc);
    if list_like || kept >= THIN_CHARS {
        return sel;
    }
    // (Almost) nothing survived: a page of links typed as something else (a
    // grid of products, a front page of headlines). Read it as the list it
    // is, unless all that reading finds is the site's header and footer (an
    // app shell).
    let list = select_as(doc, PageType::Listing, title);
    if list.chars(doc) <= kept {
        return sel;
    }
    let page_chrome = [Tag::Header, Tag::Footer, Tag::Nav, Tag::Aside];
    let outside_chrome = (0..doc.len() as NodeId).any(|i| {
        !doc.is_element(i)
            && list.get(i)
            && doc.nodes[i as usize].chars > 0
            && !noise::inside(doc, i, &page_chrome)
    });
    if outside_chrome {
        list
    } else {
        sel
    }
}

/// A selection with fewer characters than this has (almost) nothing: swept
/// 0 / 50 / 100 / 200 / 300 on wcxb-dev: 0.859 / 0.860 / 0.861 / 0.861 / 0.861
/// (300 trades product pages for others).
const THIN_CHARS: u32 = 100;

fn select_as(doc: &Doc, page_type: PageType, title: Option<&str>) -> Selection {
    // Forums widen to all posts like lists, but their posts are not links.
    let records_are_links = matches!(page_type, PageType::Listing | PageType::Collection);
    let list_like = records_are_links || page_type == PageType::Forum;
    let profile = noise::Profile {
        links_are_noise: !records_are_links,
        comments_are_noise: page_type != PageType::Forum,
        captions_are_noise: page_type != PageType::Documentation && !noise::is_gallery(doc),
        bylines_are_noise: page_type == PageType::Article,
    };
    // A list of links to other sites is what the page recommends or cites,
    // not the site's chrome (read when a drop would take one).
    let outbound = outbound::Outbound::new(doc);
    let mut noise = noise::full(doc, profile, &outbound);
    for (on, mark) in MARKS {
        if on.runs(page_type, &profile) {
            mark(doc, &outbound, &mut noise);
        }
    }
    let agg = noise::clean_agg(doc, &noise);
    let mut region = main_region(doc, &agg, &noise);
    if page_type == PageType::Product {
        if let Some(block) = product::title_block(doc, &agg, &noise) {
            region = block;
        }
    }
    // Reviews and recommendations beside a product: left out of its text,
    // and when the region itself is one of them, it is found again without.
    let beside =
        (page_type == PageType::Product).then(|| crate::extract::shop::beside::beside(doc));
    let noise_or_beside: Option<Vec<bool>> = beside
        .as_ref()
        .map(|b| noise.iter().zip(b.iter()).map(|(n, b)| *n || *b).collect());
    if let (Some(b), Some(without)) = (&beside, &noise_or_beside) {
        if b[region as usize] {
            region = main_region(doc, &noise::clean_agg(doc, without), without);
        }
    }
    if list_like {
        let records = crate::extract::list_records::records(doc, &noise);
        if let Some(anc) = common_ancestor(doc, &records) {
            if !doc.contains(anc, region) || agg[anc as usize].chars >= agg[region as usize].chars {
                region = if doc.contains(anc, region) {
                    anc
                } else {
                    region_union(doc, anc, region)
                };
            }
        }
    }
    let mut sel = Selection::subtree(doc, region);
    // What lies beside a product is not recovered from outside its region
    // either (reviews and "you may also like" cards below the product).
    let outside_noise = noise_or_beside.as_deref().unwrap_or(&noise);
    // The block owning each text, for recovery and the article's tail.
    let owner = cc::owners(doc);
    // Notes about the page stay out of an article whatever their length.
    let notes =
        (page_type == PageType::Article).then(|| noise::with_page_notes(doc, outside_noise));
    let recover_noise = notes.as_deref().unwrap_or(outside_noise);
    recover_outside(doc, &agg, recover_noise, &owner, region, &mut sel);
    between::recover_between(doc, recover_noise, region, &mut sel);
    if page_type == PageType::Article {
        if let Some(t) = following_table(doc, &agg, &noise, region) {
            for k in t..doc.nodes[t as usize].end {
                if !noise[k as usize] {
                    sel.set(k, true);
                }
            }
        }
    }
    // The seller's description kept apart from the product's block (in a
    // tab row below it) is part of the product.
    if page_type == PageType::Product {
        let described = product::description_blocks(doc, region);
        for (i, d) in described.iter().enumerate() {
            if *d && !doc.is_element(i as NodeId) && !outside_noise[i] {
                sel.set(i as NodeId, true);
            }
        }
    }
    // Never drop the whole region.
    let side = beside.filter(|b| !b[region as usize]);
    let end = doc.nodes[region as usize].end;
    // Subtrees holding a field to type into (articles only).
    let typed_fields = (page_type == PageType::Article).then(|| holding_typed_fields(doc));
    // Link lines are dropped from an article unless they make up much of it
    // (then it is a listing the classifier called an article).
    let link_lines =
        page_type == PageType::Article && link_lines::are_chrome(doc, &agg, &noise, region);
    let mut linked_headings = Vec::new();
    // The end of a list that mixes links with plain entries, or that a
    // sentence introduces: its items are neither link lines nor blocks of
    // links.
    let mut kept_end = 0;
    let mut i = region;
    while i < end {
        let iu = i as usize;
        let node = &doc.nodes[iu];
        if i >= kept_end && i != region && link_lines::kept_list(doc, i) {
            kept_end = node.end;
        }
        let in_kept = i < kept_end;
        let link_line = link_lines
            && !in_kept
            && i != region
            && link_lines::is_link_line(doc, i)
            && !outbound.only(i)
            && !headings::anchored(doc, i);
        let other = noise[iu]
            || side.as_ref().is_some_and(|s| s[iu])
            || (i != region && noise::button(doc, i))
            || (typed_fields.as_ref().is_some_and(|f| f[iu]) && i != region && form_box(doc, i))
            || (profile.links_are_noise
                && i != region
                && !in_kept
                && link_lines::link_block(doc, &agg, &outbound, i));
        if link_line || other {
            if !other {
                linked_headings.push(i);
            }
            sel.exclude(doc, i);
            i = node.end;
        } else {
            i += 1;
        }
    }
    // A dropped heading that is one link, over a section the selection
    // keeps: a post's title on an archive of whole posts.
    headings::restore_titles(doc, &noise, &linked_headings, &mut sel);
    let trim = Trim {
        doc,
        owner: &owner,
        region,
        title,
        article: page_type == PageType::Article,
    };
    for (on, pass) in TRIMS {
        if on.runs(page_type, &profile) {
            pass(&trim, &mut sel);
        }
    }
    sel
}

/// The page types a pass runs on.
#[derive(Clone, Copy)]
enum On {
    /// Every page.
    All,
    /// Articles.
    Articles,
    /// Articles whose captions are not their text (not galleries).
    ArticlesCaptionsNoise,
    /// Where the page says its main text ends (or the element holding
    /// most of it) ends a thread, a listing or a manual page too: each of
    /// these types, switched on alone, lifted wcxb-dev and cost no set's
    /// score. Not on product pages (their specs and reviews sit outside the
    /// description: wcxb-dev's products fell) nor service pages (cleaneval
    /// fell).
    NotProductOrService,
}

impl On {
    fn runs(self, t: PageType, profile: &noise::Profile) -> bool {
        match self {
            On::All => true,
            On::Articles => t == PageType::Article,
            On::ArticlesCaptionsNoise => t == PageType::Article && profile.captions_are_noise,
            On::NotProductOrService => !matches!(t, PageType::Product | PageType::Service),
        }
    }
}

/// A pass that marks more noise before the region is chosen.
type Mark = fn(&Doc, &outbound::Outbound, &mut [bool]);

/// The noise passes after the full noise model, in order.
const MARKS: &[(On, Mark)] = &[
    (On::Articles, |doc, outbound, noise| {
        teasers::mark(doc, &doc.agg, outbound, noise)
    }),
    (On::Articles, |doc, _, noise| stories::mark(doc, noise)),
    (On::ArticlesCaptionsNoise, |doc, _, noise| {
        captions::mark(doc, noise)
    }),
];

/// What a trimming pass sees: the page, the block owning each text, the
/// main region and the page's title.
struct Trim<'a> {
    doc: &'a Doc,
    owner: &'a [NodeId],
    region: NodeId,
    title: Option<&'a str>,
    /// The page is an article: its headline may reword the title.
    article: bool,
}

/// A pass that trims the selection.
type TrimPass = fn(&Trim, &mut Selection);

/// The passes that trim the selection at the end, in order. The
/// article-only ones stay off other types: there the sections a heading
/// names are often link lists that are content (wcxb-dev 0.8752 -> 0.8746
/// for all types).
const TRIMS: &[(On, TrimPass)] = &[
    (On::Articles, |t, sel| {
        headings::drop_orphans(t.doc, sel, t.region)
    }),
    (On::Articles, |t, sel| {
        headline::drop_before_headline(t.doc, sel, t.region)
    }),
    (On::Articles, |t, sel| {
        tail::trim(t.doc, t.owner, sel, t.region)
    }),
    (On::NotProductOrService, |t, sel| {
        article_body::trim_after(t.doc, t.owner, sel)
    }),
    (On::Articles, |t, sel| {
        date_lines::drop(t.doc, t.owner, sel, t.region)
    }),
    (On::Articles, |t, sel| {
        echoes::drop(t.doc, t.owner, sel, t.region)
    }),
    (On::All, |t, sel| {
        if let Some(title) = t.title {
            headline::drop_title_heading(t.doc, sel, t.region, title, t.article);
        }
    }),
    (On::Articles, |t, sel| {
        date_lines::drop_written(t.doc, t.owner, sel, t.region)
    }),
];

/// Subtrees holding an `<input>` a reader types into.
fn holding_typed_fields(doc: &Doc) -> Vec<bool> {
    let mut f: Vec<bool> = (0..doc.len() as NodeId)
        .map(|j| doc.nodes[j as usize].tag == Tag::Input && typed_into(doc, j))
        .collect();
    for j in (1..doc.len()).rev() {
        let p = doc.nodes[j].parent;
        if f[j] && p != u32::MAX {
            f[p as usize] = true;
        }
    }
    f
}

/// Most characters a form box holds: a sign-up, log-in or comment form
/// with its heading and a line of explanation, not an article.
const FORM_BOX_CHARS: u32 = 300;

/// A small block (the caller checks it holds a field to type into: a
/// newsletter sign-up, log-in, comment form or search box): what an
/// article's reader is asked to do, not what the article says.
fn form_box(doc: &Doc, i: NodeId) -> bool {
    let n = &doc.nodes[i as usize];
    n.kind == Kind::Element && !n.tag.is_inline() && doc.agg[i as usize].chars <= FORM_BOX_CHARS
}

/// An `<input>` a reader types into (not a checkbox of a checklist).
fn typed_into(doc: &Doc, input: NodeId) -> bool {
    doc.attr(input, "disabled").is_none()
        && doc.attr(input, "type").is_none_or(|t| {
            let t = t.trim().to_ascii_lowercase();
            matches!(
                t.as_str(),
                "" | "text" | "email" | "search" | "password" | "tel" | "url"
            )
        })
}

fn region_union(doc: &Doc, a: NodeId, b: NodeId) -> NodeId {
    common_ancestor(doc, &[a, b]).unwrap_or_else(|| doc.body())
}

impl Extractor for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn select(&self, doc: &Doc) -> Selection {
        let meta = crate::extract::metadata::collect(doc);
        let page_type = crate::extract::typing::classify::classify(doc, None, &meta);
        select_typed(doc, page_type, meta.title.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    #[test]
    fn a_page_of_links_typed_otherwise_is_read_as_a_list() {
        // Regression: a grid of product links typed as an article extracted
        // as empty; an app shell with only its footer stays empty.
        let tiles: String = (0..8)
            .map(|i| {
                format!("<div class=tile><a href=/p{i}>Robotic lawn mower KR{i}00, quiet</a></div>")
            })
            .collect();
        let doc = Doc::parse_str(&format!("<body><div class=grid>{tiles}</div></body>"));
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(text.contains("KR300"), "{text}");
        let footer = "<a href=/h>Help center</a> <a href=/r>Returns</a> ".repeat(6);
        let doc = Doc::parse_str(&format!(
            "<body><div id=root></div><footer>{footer}</footer></body>"
        ));
        let text = render(&doc, &select_typed(&doc, PageType::Product, None));
        assert!(text.is_empty(), "{text}");
    }

    #[test]
    fn a_link_under_a_short_label_is_a_pointer_not_the_story() {
        let para = "<p>A paragraph of the story itself, long enough to read as the body \
                    of an article and not as a line of furniture on the page.</p>";
        let doc = Doc::parse_str(&format!(
            "<body><article><h1>Headline</h1>{para}{para}\
             <p>Read more: <a href=/other>The council votes on the harbour plan tonight</a></p>\
             {para}<p>Source: <a href=/agency>the regional news agency</a> today.</p>{para}\
             </article></body>"
        ));
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(!text.contains("harbour plan"), "{text}");
        // Text after the link: a sentence, not a pointer.
        assert!(text.contains("regional news agency"), "{text}");
    }

    #[test]
    fn the_headline_goes_when_a_kicker_heading_above_it_went() {
        // Regression (multilingual-dev hr, trafilatura-eval): the section
        // label above the headline was an <h3> whose text went as the page's
        // furniture; taken for the first heading, it kept the headline (the
        // page title, in its own field) in the text.
        let para = "<p>A paragraph of the story itself, long enough to read as the body \
                    of an article and not as a line of furniture on the page.</p>";
        let doc = Doc::parse_str(&format!(
            "<body><article><h3>Politics</h3><h1>Harbour walls give way</h1>{para}{para}\
             </article></body>"
        ));
        let title = Some("Harbour walls give way – The Daily");
        let text = render(&doc, &select_typed(&doc, PageType::Article, title));
        assert!(!text.contains("Politics"), "{text}");
        assert!(!text.contains("Harbour walls"), "{text}");
        assert!(text.contains("paragraph of the story"), "{text}");
    }

    #[test]
    fn button_labels_go_but_a_faq_question_that_opens_its_answer_stays() {
        // Regression (trafilatura-eval): "Pinnen" and "Tipp favorisieren"
        // buttons came out as lines of the text; (wcxb-dev) the questions
        // of a FAQ accordion are content.
        let para = "<p>A paragraph of the recipe itself, long enough to read as the body \
                    of an article and not as a line of furniture on the page.</p>";
        let doc = Doc::parse_str(&format!(
            "<body><article><h1>Lemon cake</h1>{para}<span class='pin-button'>Pin it</span>\
             {para}<div class='kb-action-bar-button'>Save the tip</div>{para}\
             <div class='btn collapsed'>Does it keep for a week?</div><p>In a tin, yes.</p>\
             <div class='button-container'>Bake it in a loaf tin</div>{para}</article></body>"
        ));
        for page_type in [PageType::Article, PageType::Service] {
            let text = render(&doc, &select_typed(&doc, page_type, None));
            assert!(!text.contains("Pin it"), "{text}");
            assert!(!text.contains("Save the tip"), "{text}");
            assert!(text.contains("Does it keep for a week?"), "{text}");
            assert!(text.contains("Bake it in a loaf tin"), "{text}");
        }
    }

    #[test]
    fn what_sits_beside_a_product_is_not_recovered_from_outside_its_region() {
        // Regression: "You may also like" below the product block came back
        // through the recovery of long text outside the region.
        let blurb = "A strappy dress in three flowing layers of hemp, with a pocket. ";
        let other = "Wide trousers in washed hemp with deep pockets and a drawstring. ";
        let doc = Doc::parse_str(&format!(
            "<body><div class=product><h1>Iris hemp dress</h1><p>{}</p></div>\
             <div class=upsells><h2>You may also like</h2><p>{}</p></div></body>",
            blurb.repeat(9),
            other.repeat(6)
        ));
        let text = render(&doc, &select_typed(&doc, PageType::Product, None));
        assert!(text.contains("strappy dress"), "{text}");
        assert!(!text.contains("Wide trousers"), "{text}");
    }

    #[test]
    fn a_long_note_about_the_page_is_not_recovered_into_an_article() {
        // Regression (multilingual-dev): a cookie notice named "disclaimer"
        // above the page, longer than the short notes the noise model drops,
        // came back as the story's first paragraph.
        let notice = "We use cookies to measure visits and to show you what you read. ";
        let story = "The harbour walls gave way in three places on Sunday night. ";
        let doc = Doc::parse_str(&format!(
            "<body><div class=disclaimer><div>{}</div></div>\
             <article><h1>Walls gave way</h1><p>{}</p><p>{}</p></article></body>",
            notice.repeat(8),
            story.repeat(6),
            story.repeat(5)
        ));
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(text.contains("harbour walls"), "{text}");
        assert!(!text.contains("cookies"), "{text}");
    }

    #[test]
    fn a_gallerys_captions_are_its_text() {
        // Regression (trafilatura-eval): a slideshow article told in its
        // captions came out as its two-line introduction.
        let slide = |n: usize| {
            format!(
                "<figure><img src={n}.jpg><figcaption><p>Costume {n}: a bowler hat, false \
                 lashes and a striped shirt, all from the back of the wardrobe.</p>\
                 </figcaption></figure>"
            )
        };
        let slides: String = (0..12).map(slide).collect();
        let doc = Doc::parse_str(&format!(
            "<body><article><h1>Costumes on the cheap</h1><p>Cheap and easy costumes \
             are all that matter this year, and here are a dozen.</p>{slides}</article></body>"
        ));
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(text.contains("Costume 11: a bowler hat"), "{text}");
    }

    #[test]
    fn captions_are_left_out_except_in_documentation() {
        let body = "The garden feeds birds all winter with seed heads and berries. ".repeat(5);
        let html = format!(
            "<body><article><p>{body}</p><figure><img src=a.jpg>\
             <figcaption>Listing 2: a pond in December. Credit: Jo Ray</figcaption></figure>\
             <p>{body}</p></article></body>"
        );
        let doc = Doc::parse_str(&html);
        let article = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(
            article.contains("seed heads") && !article.contains("Credit"),
            "{article}"
        );
        let docs = render(&doc, &select_typed(&doc, PageType::Documentation, None));
        assert!(docs.contains("Listing 2"), "{docs}");
    }

    #[test]
    fn widening_takes_in_text_siblings_not_link_lists() {
        let rows = "<tr><td>Sep 6</td><td>Tensors and their decompositions</td></tr>".repeat(8);
        let doc = Doc::parse_str(&format!(
            "<body><div id=page><p>A graduate class on algorithms for data science.</p>\
             <table id=t>{rows}</table></div>\
             <div id=site><div id=inner><table id=u>{rows}</table></div>{}</div></body>",
            "<a href=/x>Another course page</a> ".repeat(10)
        ));
        let id = |name: &str| {
            (0..doc.len() as NodeId)
                .find(|&i| doc.attr(i, "id") == Some(name))
                .expect("fixture id")
        };
        assert_eq!(widen(&doc, &doc.agg, id("t")), id("page"));
        assert_eq!(widen(&doc, &doc.agg, id("u")), id("inner"), "links stop it");
    }

    #[test]
    fn a_data_table_after_an_article_is_part_of_it() {
        // Regression (multilingual-dev zh-0004): an old page's notice ends in
        // a layout cell, its table of programmes follows in a table of its
        // own, and widening stops at it (it holds more text than the notice);
        // the table was left out. A one-column table of counters after a
        // post (comments: 0) is no such table.
        let prose = "报考条件：热爱祖国，品德优良，遵纪守法，勤奋学习，业务优秀。<br>".repeat(20);
        let rows = "<tr><td>　01艺术学原理</td><td><div align=center>刘梦溪</div></td>\
                    <td>&nbsp;</td><td>1、英语<br>2、艺术概论<br>3、中国艺术史</td></tr>"
            .repeat(40);
        let counters = "<tr><td>Comments: 0</td></tr><tr><td>Views: 12</td></tr>".repeat(2);
        let links = "<tr><td><a href=/a>艺术教育</a></td><td><a href=/b>院校招生资讯</a></td></tr>"
            .repeat(4);
        let doc = Doc::parse_str(&format!(
            "<body><div><table id=a><tr><td>{prose}附：招生专业及考试科目</td></tr></table>\
             <p>&nbsp;</p><table id=data border=1>{rows}</table></div>\
             <div><table id=b><tr><td>{prose}</td></tr></table><table>{counters}</table></div>\
             <div><table id=c><tr><td>{prose}</td></tr></table><table>{links}</table></div></body>"
        ));
        let id = |name: &str| {
            (0..doc.len() as NodeId)
                .find(|&i| doc.attr(i, "id") == Some(name))
                .expect("fixture id")
        };
        let clean = vec![false; doc.len()];
        let after = |region| following_table(&doc, &doc.agg, &clean, id(region));
        assert_eq!(after("a"), Some(id("data")));
        assert_eq!(after("b"), None, "one cell a row");
        assert_eq!(after("c"), None, "links");
    }

    #[test]
    fn article_without_boilerplate() {
        let html = format!(
            "<body><header class=site-header><a href=/>Logo</a></header><nav>{}</nav>\
             <main><article><h1>Headline</h1>{}<div class=share>Share on X</div></article></main>\
             <aside>Popular posts</aside><footer>Copyright 2024</footer></body>",
            "<a href=/s>Section</a>".repeat(6),
            "<p>Body paragraph with enough words to look like real article text here.</p>"
                .repeat(5)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &Auto.select(&doc));
        assert!(text.starts_with("Body paragraph"), "{text}");
        assert!(
            !text.contains("Headline"),
            "the title heading goes to the title field"
        );
        for noise in ["Logo", "Section", "Share", "Popular", "Copyright"] {
            assert!(!text.contains(noise), "{noise} in {text}");
        }
    }

    #[test]
    fn an_articles_list_of_links_to_other_sites_is_its_content() {
        // Regression (wcxb-dev 0068, 0348, 4449): the products a guide
        // recommends, each a link to a shop, were dropped as link lines; the
        // site's own related links still go.
        let para = |i: u32| {
            format!(
                "<p>Paragraph {i} of the guide says which tools an electrician needs, \
                 how each one is used on the job and what to look for when buying.</p>"
            )
        };
        let picks = (0..3)
            .map(|i| {
                format!("<li><a href='https://shop.example.net/dp/{i}'>Meter model {i}</a></li>")
            })
            .collect::<String>();
        let related = (0..3)
            .map(|i| format!("<li><a href='/guide-{i}'>Another guide number {i}</a></li>"))
            .collect::<String>();
        let html = format!(
            "<html><head><link rel=canonical href='https://tools.example.org/guide'></head>\
             <body><article><h1>Tools</h1>{}{}<h4>Our picks:</h4><ul>{picks}</ul>{}{}\
             <ul>{related}</ul></article></body></html>",
            para(1),
            para(2),
            para(3),
            para(4)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &select_typed(&doc, PageType::Article, None));
        assert!(text.contains("Meter model 1"), "{text}");
        assert!(!text.contains("Another guide"), "{text}");
    }
}
